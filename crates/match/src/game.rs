//! One game between two started engines: the opening moves, then each engine in turn
//! asked for a move under its own clock, every move checked by the rules layer, the game
//! ended by the rules, an adjudication, a resignation or a fault, and the runner's own
//! cost per move recorded.

use super::adjudicate::{Adjudicator, Rules};
use super::config::{EngineBook, Variant};
use super::engine::{Engine, Fault, FaultKind, PlyText, Score, Setup, Turn};
use super::openings::Opening;
pub use super::outcome::Outcome;
use super::timecontrol::{format_seconds, GameClock};
use chess::{DrawReason, GameStatus, Position};
use cozy_chess::{Board, Color, Move};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};

/// How a game ended, in the PGN `Termination` tag's standard words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndKind {
    /// Mate, stalemate, a draw by rule, or a resignation.
    Normal,
    /// A rule of the runner (resign, draw, length, tablebase).
    Adjudication,
    TimeForfeit,
    /// An illegal move or unreadable output.
    RulesInfraction,
    /// An engine crashed, hung or would not start.
    Abandoned,
}

impl EndKind {
    /// The `Termination` tag value.
    pub fn tag(self) -> &'static str {
        match self {
            EndKind::Normal => "normal",
            EndKind::Adjudication => "adjudication",
            EndKind::TimeForfeit => "time forfeit",
            EndKind::RulesInfraction => "rules infraction",
            EndKind::Abandoned => "abandoned",
        }
    }

    /// True when the result says nothing about the positions (a crash, a hang, a bad
    /// move): such games give no training samples.
    pub fn is_fault(self) -> bool {
        matches!(self, EndKind::RulesInfraction | EndKind::Abandoned)
    }
}

/// The end of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    pub outcome: Outcome,
    pub kind: EndKind,
    /// In words, for the PGN comment: `Black loses on time (used 1.2 s, had 1.1 s)`.
    pub reason: String,
}

/// One move of a game.
#[derive(Clone, Debug)]
pub struct MoveRecord {
    pub mv: Move,
    /// `None` for opening moves and book moves.
    pub engine: Option<EngineMove>,
    /// Played by the runner from the mover's book (`book=FILE`).
    pub book: bool,
}

/// What an engine said about its move.
#[derive(Clone, Debug)]
pub struct EngineMove {
    /// The mover's score from its own point of view.
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub used: Duration,
    pub nodes: Option<u64>,
    pub extra: super::engine::InfoExtra,
    /// The mover's clock after the move, when it plays on one.
    pub left: Option<Duration>,
    /// The engine's principal variation as it sent it (UCI coordinates; may be empty).
    pub pv: String,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub start: Board,
    pub moves: Vec<MoveRecord>,
    pub end: GameEnd,
}

fn side(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The end for a fault of the engine playing `c`.
pub fn fault_end(c: Color, fault: &Fault) -> GameEnd {
    let (kind, what) = match fault.kind {
        FaultKind::Resigned => (EndKind::Normal, fault.detail.clone()),
        FaultKind::TimeForfeit => (
            EndKind::TimeForfeit,
            format!("loses on time: {}", fault.detail),
        ),
        FaultKind::IllegalMove => (
            EndKind::RulesInfraction,
            format!("played an illegal move {}", fault.detail),
        ),
        FaultKind::Garbage => (
            EndKind::RulesInfraction,
            format!("broke the protocol: {}", fault.detail),
        ),
        FaultKind::Crashed => (EndKind::Abandoned, format!("engine {}", fault.detail)),
        FaultKind::Hung => (EndKind::Abandoned, format!("engine hung: {}", fault.detail)),
        FaultKind::StartFailed => (
            EndKind::Abandoned,
            format!("engine failed to start: {}", fault.detail),
        ),
    };
    GameEnd {
        outcome: Outcome::win_for(!c),
        kind,
        reason: format!("{} {what}", side(c)),
    }
}

fn rules_end(status: GameStatus) -> Option<GameEnd> {
    let (outcome, reason) = match status {
        GameStatus::Ongoing => return None,
        GameStatus::Checkmate(w) => (Outcome::win_for(w), format!("{} mates", side(w))),
        GameStatus::Stalemate => (Outcome::Draw, "stalemate".to_string()),
        GameStatus::Draw(DrawReason::Repetition) => {
            (Outcome::Draw, "draw by threefold repetition".into())
        }
        GameStatus::Draw(DrawReason::FiftyMoves) => {
            (Outcome::Draw, "draw by the fifty-move rule".into())
        }
        GameStatus::Draw(DrawReason::InsufficientMaterial) => {
            (Outcome::Draw, "draw by insufficient material".into())
        }
    };
    Some(GameEnd {
        outcome,
        kind: EndKind::Normal,
        reason,
    })
}

/// What a game needs besides its engines.
pub struct GameContext<'a> {
    pub rules: &'a Rules,
    pub variant: Variant,
    /// Runner time per engine move (from one move's arrival to the next request), added to.
    pub overhead: &'a mut Vec<Duration>,
    /// Seeds the choice among book moves (the match's seed and the game number), so a
    /// match plays the same book moves whatever order its games run in.
    pub book_seed: u64,
}

/// A move from `book` for the position, weighted by the entries' weights (all equal when
/// every weight is 0), or `None` when the position is out of the book or past its depth.
fn book_move(book: &EngineBook, pos: &Position, seed: u64) -> Option<Move> {
    let board = pos.board();
    if book
        .depth
        .is_some_and(|d| u32::from(board.fullmove_number()) > d)
    {
        return None;
    }
    let moves = book.book.probe(board);
    if moves.is_empty() {
        return None;
    }
    let weights: Vec<u64> = if moves.iter().all(|m| m.weight == 0) {
        vec![1; moves.len()]
    } else {
        moves.iter().map(|m| u64::from(m.weight)).collect()
    };
    let total: u64 = weights.iter().sum();
    let mut rng = StdRng::seed_from_u64(seed ^ board.hash().rotate_left(17));
    let mut r = rng.gen_range(0..total);
    for (m, w) in moves.iter().zip(&weights) {
        if r < *w {
            return Some(m.mv);
        }
        r -= w;
    }
    None
}

/// Plays `opening` with `engines[0]` as White and `engines[1]` as Black. Both engines
/// must be started; each gets `new_game` here.
pub fn play(ctx: &mut GameContext, engines: [&mut Engine; 2], opening: &Opening) -> GameRecord {
    let variant = super::openings::game_variant(ctx.variant, &opening.board);
    let chess960 = variant == Variant::Chess960;
    let mut pos = Position::new(opening.board.clone());
    pos.set_chess960(chess960);
    let mut record = GameRecord {
        start: opening.board.clone(),
        moves: Vec::with_capacity(200),
        end: GameEnd {
            outcome: Outcome::Draw,
            kind: EndKind::Normal,
            reason: String::new(),
        },
    };
    let [white, black] = engines;
    let mut eng = [white, black];
    for (i, e) in eng.iter_mut().enumerate() {
        let color = if i == 0 { Color::White } else { Color::Black };
        let setup = Setup {
            start: &opening.board,
            variant,
            limits: e.spec.limits,
        };
        if let Err(f) = e.new_game(&setup) {
            record.end = fault_end(color, &f);
            finish(&mut eng, &record.end);
            return record;
        }
    }
    let mut plies: Vec<PlyText> = Vec::with_capacity(200);
    for &mv in &opening.moves {
        plies.push(PlyText::new(pos.board(), mv, chess960));
        if pos.play(mv).is_err() {
            break;
        }
        record.moves.push(MoveRecord {
            mv,
            engine: None,
            book: false,
        });
    }
    let mut clocks: [Option<GameClock>; 2] = [
        eng[0].spec.limits.clock.map(GameClock::new),
        eng[1].spec.limits.clock.map(GameClock::new),
    ];
    let mut adjudicator = Adjudicator::default();
    let mut last_arrival: Option<Instant> = None;
    let end = loop {
        if let Some(end) = rules_end(pos.status()) {
            break end;
        }
        let stm = pos.side_to_move();
        let i = usize::from(stm == Color::Black);
        let spec = eng[i].spec.clone();
        if let Some(mv) = spec
            .book
            .as_ref()
            .and_then(|b| book_move(b, &pos, ctx.book_seed ^ plies.len() as u64))
        {
            plies.push(PlyText::new(pos.board(), mv, chess960));
            if pos.play(mv).is_err() {
                break fault_end(stm, &Fault::new(FaultKind::IllegalMove, "book move"));
            }
            record.moves.push(MoveRecord {
                mv,
                engine: None,
                book: true,
            });
            continue;
        }
        let margin = spec.time_margin;
        let mut allowance = None;
        if let Some(c) = &clocks[i] {
            allowance = Some(c.remaining() + margin);
        }
        if let Some(t) = spec.limits.movetime {
            let a = t + margin;
            allowance = Some(allowance.map_or(a, |x: Duration| x.min(a)));
        }
        let timed = allowance.is_some();
        let turn = Turn {
            pos: &pos,
            plies: &plies,
            own: clocks[i].as_ref(),
            opp: clocks[1 - i].as_ref(),
            allowance: allowance.unwrap_or(spec.wait_limit),
            timed,
        };
        let reply = match eng[i].think(&turn) {
            Ok(r) => r,
            Err(f) => break fault_end(stm, &f),
        };
        if let Some(prev) = last_arrival {
            ctx.overhead
                .push(reply.asked.saturating_duration_since(prev));
        }
        last_arrival = Some(reply.arrived);
        if let Some(c) = &mut clocks[i] {
            if let Err(flag) = c.charge(reply.used, margin) {
                break GameEnd {
                    outcome: Outcome::win_for(!stm),
                    kind: EndKind::TimeForfeit,
                    reason: format!(
                        "{} loses on time (move took {} s, {} s left)",
                        side(stm),
                        format_seconds(flag.used),
                        format_seconds(flag.left)
                    ),
                };
            }
        }
        if let Some(t) = spec.limits.movetime {
            if reply.used > t + margin {
                break GameEnd {
                    outcome: Outcome::win_for(!stm),
                    kind: EndKind::TimeForfeit,
                    reason: format!(
                        "{} loses on time (move took {} s of {} s)",
                        side(stm),
                        format_seconds(reply.used),
                        format_seconds(t)
                    ),
                };
            }
        }
        plies.push(PlyText::new(pos.board(), reply.mv, chess960));
        if let Err(e) = pos.play(reply.mv) {
            // The protocol layer checks legality; this is a guard, not a path.
            break fault_end(stm, &Fault::new(FaultKind::IllegalMove, e.to_string()));
        }
        record.moves.push(MoveRecord {
            mv: reply.mv,
            book: false,
            engine: Some(EngineMove {
                score: reply.score,
                depth: reply.depth,
                used: reply.used,
                nodes: reply.nodes,
                extra: reply.extra,
                left: clocks[i].as_ref().map(|c| c.remaining()),
                pv: reply.pv,
            }),
        });
        if rules_end(pos.status()).is_none() {
            if let Some(a) =
                adjudicator.after_move(ctx.rules, stm, reply.score, pos.board(), plies.len())
            {
                break GameEnd {
                    outcome: a.outcome,
                    kind: EndKind::Adjudication,
                    reason: a.reason,
                };
            }
            if spec.ponder {
                eng[i].ponder(&Turn {
                    pos: &pos,
                    plies: &plies,
                    own: clocks[i].as_ref(),
                    opp: clocks[1 - i].as_ref(),
                    allowance: spec.wait_limit,
                    timed: false,
                });
            }
        }
    };
    record.end = end;
    finish(&mut eng, &record.end);
    record
}

fn finish(eng: &mut [&mut Engine; 2], end: &GameEnd) {
    for e in eng.iter_mut() {
        e.game_over(end.outcome.pgn(), &end.reason);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fault_words() {
        let e = fault_end(
            Color::White,
            &Fault::new(FaultKind::Crashed, "crashed (signal 11)"),
        );
        assert_eq!(e.outcome, Outcome::BlackWins);
        assert_eq!(e.kind.tag(), "abandoned");
        assert_eq!(e.reason, "White engine crashed (signal 11)");
        let e = fault_end(Color::Black, &Fault::new(FaultKind::Resigned, "resigned"));
        assert_eq!((e.outcome, e.kind), (Outcome::WhiteWins, EndKind::Normal));
        assert_eq!(e.reason, "Black resigned");
    }
}
