//! A game's life as datagrams tell it: started (played, observed, examined or an isolated
//! board), its start position, its result, and our relation to it ending. Every field of a
//! start and of a result also goes out as [`IccInfo`].

use crate::board::Relation;
use crate::events::{EndReason, Event, GameEnd, GameResult};
use crate::icc::datagram::Datagram;
use crate::icc::game::GameState;
use crate::icc::info::{GameInfo, GameTie, IccInfo, ResultInfo, SideInfo};
use crate::icc::numbers::*;
use crate::icc::parse::fields::{rating_of, titles_of};
use crate::icc::parse::reader::IccReader;

impl IccReader {
    pub(super) fn game_started(&mut self, dg: &Datagram, out: &mut Vec<Event>) {
        // (gamenumber white black wild rating-type rated w-init w-inc b-init b-inc
        //  played-game {ex-string} w-rating b-rating game-id w-titles b-titles ...)
        let (Some(game), Some(white), Some(black)) = (dg.num::<i64>(0), dg.field(1), dg.field(2))
        else {
            return self.warn(dg, "too few fields");
        };
        if dg.fields.len() < 11 {
            return self.warn(dg, "too few fields");
        }
        out.push(Event::Icc(Box::new(IccInfo::Game(Box::new(game_info(
            dg, game,
        ))))));
        let Ok(game) = u32::try_from(game) else {
            // sposition/smoves boards are numbered -1: nothing to follow.
            return;
        };
        let change = dg.code == DG_MY_GAME_CHANGE;
        let mut g = match (change, self.games.remove(&game)) {
            (true, Some(g)) => g,
            _ => GameState::new(game),
        };
        g.white = white.to_string();
        g.black = black.to_string();
        g.wild = dg.num(3).unwrap_or(0);
        g.rating_type = dg.field(4).unwrap_or_default().to_string();
        g.rated = dg.flag(5).unwrap_or(false);
        g.base_minutes = dg.num(6).unwrap_or(0);
        g.increment_secs = dg.num(7).unwrap_or(0);
        g.played = dg.flag(10).unwrap_or(true);
        g.white_rating = dg.num(12).unwrap_or(0);
        g.black_rating = dg.num(13).unwrap_or(0);
        g.white_titles = titles_of(dg.field(15).unwrap_or_default());
        g.black_titles = titles_of(dg.field(16).unwrap_or_default());
        if !change {
            g.white_ms = i64::from(g.base_minutes) * 60_000;
            g.black_ms = i64::from(dg.num::<u32>(8).unwrap_or(g.base_minutes)) * 60_000;
            g.set_start("");
        }
        g.relation = match dg.code {
            DG_STARTED_OBSERVING => {
                if g.played {
                    Relation::Observing
                } else {
                    Relation::ObservingExamined
                }
            }
            DG_ISOLATED_BOARD => Relation::IsolatedPosition,
            _ if !g.played => Relation::Examining,
            // MyMove when we play White, OpponentToMove for Black (see GameState).
            _ if self.is_me(white) => Relation::MyMove,
            _ if self.is_me(black) => Relation::OpponentToMove,
            _ => g.relation,
        };
        match dg.code {
            DG_MY_GAME_STARTED if g.played => {
                g.announce_due = true;
            }
            DG_STARTED_OBSERVING => out.push(Event::ObserveStarted { game }),
            _ => {}
        }
        self.games.insert(game, g);
        if !change {
            self.hold(game);
        }
    }

    pub(super) fn position_begin(&mut self, dg: &Datagram) {
        // (gamenumber {initial-FEN} nmoves-to-follow)
        let Some(game) = dg.num::<u32>(0) else {
            return self.warn(dg, "no game number");
        };
        let fen = dg.field(1).unwrap_or_default().to_string();
        let n = dg.num::<u32>(2).unwrap_or(0);
        let Some(g) = self.games.get_mut(&game) else {
            return self.warn(dg, "a game that was never announced");
        };
        let ok = g.set_start(&fen);
        g.initial_moves_due = n;
        self.hold(game);
        if !ok {
            self.warn(
                dg,
                "the start position is not a FEN wily can read; using the standard start",
            );
        }
    }

    pub(super) fn game_result(&mut self, dg: &Datagram, out: &mut Vec<Event>) {
        // (gamenumber become-examined game_result_code score_string2 description ECO)
        let Some(game) = dg.num::<u32>(0) else {
            return self.warn(dg, "no game number");
        };
        let code = dg.field(2).unwrap_or_default().trim().to_string();
        let score = dg.field(3).unwrap_or_default().trim().to_string();
        let text = dg.field(4).unwrap_or_default().trim().to_string();
        let examined = dg.flag(1).unwrap_or(false);
        let info = Event::Icc(Box::new(IccInfo::Result(ResultInfo {
            game,
            become_examined: examined,
            code: code.clone(),
            score: score.clone(),
            description: text.clone(),
            eco: dg.field(5).unwrap_or_default().trim().to_string(),
        })));
        let (white, black) = match self.games.get(&game) {
            Some(g) => (g.white.clone(), g.black.clone()),
            None if dg.code == DG_GAME_RESULT => return out.push(info),
            None => (String::new(), String::new()),
        };
        let result = if score == "aborted" {
            GameResult::NoResult
        } else {
            GameResult::parse(&score).unwrap_or(GameResult::NoResult)
        };
        let reason = end_reason(&code, &score, &text);
        let who = if text.starts_with("White") {
            Some(white.clone())
        } else if text.starts_with("Black") {
            Some(black.clone())
        } else {
            None
        }
        .filter(|n| !n.is_empty());
        out.push(Event::GameEnd(GameEnd {
            game,
            white,
            black,
            result,
            reason,
            who,
            text,
            tourney: None,
        }));
        out.push(info);
        if !examined {
            self.games.remove(&game);
        }
    }

    pub(super) fn relation(&mut self, dg: &Datagram, out: &mut Vec<Event>) {
        let (Some(game), Some(sym)) = (dg.num::<u32>(0), dg.field(1)) else {
            return self.warn(dg, "too few fields");
        };
        if sym == "X" {
            if let Some(g) = self.games.remove(&game) {
                self.held.retain(|&h| h != game);
                if matches!(
                    g.relation,
                    Relation::Observing | Relation::ObservingExamined
                ) {
                    out.push(Event::ObserveStopped { game });
                }
            }
        }
    }
}

/// Every field of a game-start datagram (the form of `DG_GAME_STARTED`).
fn game_info(dg: &Datagram, game: i64) -> GameInfo {
    let f = |i: usize| dg.field(i).unwrap_or_default().to_string();
    let flag = |i: usize| dg.flag(i).unwrap_or(false);
    let side = |name: usize, rating: usize, titles: usize, init: usize, inc: usize| {
        let titles = titles_of(&f(titles));
        SideInfo {
            name: f(name),
            rating: rating_of(dg.num(rating), None, titles.iter().any(|t| t == "U")),
            titles,
            initial_minutes: dg.num(init).unwrap_or(0),
            increment_secs: dg.num(inc).unwrap_or(0),
        }
    };
    GameInfo {
        tie: match dg.code {
            DG_STARTED_OBSERVING => GameTie::Observing,
            DG_ISOLATED_BOARD => GameTie::Isolated,
            DG_MY_GAME_CHANGE => GameTie::Changed,
            _ => GameTie::Mine,
        },
        game,
        white: side(1, 12, 15, 6, 7),
        black: side(2, 13, 16, 8, 9),
        wild: dg.num(3).unwrap_or(0),
        rating_type: f(4),
        rated: flag(5),
        played: dg.flag(10).unwrap_or(true),
        ex_string: f(11),
        game_id: dg.num(14),
        irregular_legality: flag(17),
        irregular_semantics: flag(18),
        uses_plunkers: flag(19),
        fancy_time_control: f(20),
        promote_to_king: flag(21),
    }
}

/// The end reason of ICC's three-letter result code (the game-list codes of `formats.txt`),
/// the score and the description.
fn end_reason(code: &str, score: &str, text: &str) -> EndReason {
    let lower = text.to_ascii_lowercase();
    if score == "aborted" {
        return match code {
            "BA" => EndReason::CourtesyAborted,
            "Sho" if lower.contains("move 1") => EndReason::AbortedOnMove1,
            _ if lower.contains("courtesyabort") => EndReason::CourtesyAborted,
            _ => EndReason::Aborted,
        };
    }
    if score == "*" {
        return if lower.contains("courtesyadjourn") {
            EndReason::CourtesyAdjourned
        } else if lower.contains("adjourn") {
            EndReason::Adjourned
        } else {
            EndReason::Other
        };
    }
    match code {
        "Res" => EndReason::Resignation,
        "Mat" => EndReason::Checkmate,
        "Fla" => EndReason::Time,
        "Adj" => EndReason::Adjudication,
        "BQ" => EndReason::Disconnection,
        "Agr" => EndReason::DrawAgreed,
        "Sta" => EndReason::Stalemate,
        "Rep" => EndReason::Repetition,
        "50" => EndReason::FiftyMoveRule,
        "TM" => EndReason::TimeVsNoMaterial,
        "NM" => EndReason::InsufficientMaterial,
        "NT" => EndReason::BothOutOfTime,
        _ if lower.contains("checkmated") => EndReason::Checkmate,
        _ if lower.contains("resign") => EndReason::Resignation,
        _ if lower.contains("forfeits on time") => EndReason::Time,
        _ if lower.contains("stalemate") => EndReason::Stalemate,
        _ if lower.contains("agreement") => EndReason::DrawAgreed,
        _ => EndReason::Other,
    }
}
