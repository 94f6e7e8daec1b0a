//! One game wily plays: the board kept in step with the server's style-12 updates (with
//! Chess960 castling rights worked out from the flags and the rooks of the first
//! position), the position history (repetitions, the engine's history), the move record
//! for the PGN archive, clocks, and the per-game policy and talk state.

use crate::find::challenge::Variant;
use crate::input::{BoardUpdate, EndKind, FinishedGame};
use crate::play::policy::{Clocks, GamePolicy};
use crate::play::record::{time_control, GameRecord, RecordedMove};
use crate::talk::Talker;
use chess::castling::CastlingRooks;
use chess::fen::to_fen;
use chess::history::GameHistory;
use chess::position::looks_like_chess960;
use chess::san::{parse_ics_verbose, to_san};
use cozy_chess::{Board, Color, Move, Piece};
use std::time::Instant;

/// What the `{Game N ... Creating ...}` line said, kept until the first board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartInfo {
    pub game: u32,
    pub white: String,
    pub black: String,
    pub rated: bool,
    pub category: String,
}

/// How an update related to the board wily had.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sync {
    /// The same position again (a refresh, or the first update).
    Same,
    /// One move was played: this one.
    Moved(Move),
    /// The position did not follow: wily took the server's board as the truth.
    Resynced,
    /// The position is an earlier one of the game: this many plies were taken back.
    TakenBack(usize),
}

/// The clocks as the last update reported them, and when.
#[derive(Debug, Clone, Copy)]
pub struct ClockSnapshot {
    pub at: Instant,
    pub white_ms: i64,
    pub black_ms: i64,
    pub to_move: Color,
    pub timed: bool,
}

/// True when the two boards have the same pieces on the same squares and the same side
/// to move (castling and en-passant details are the server's business).
pub fn same_position(a: &Board, b: &Board) -> bool {
    a.side_to_move() == b.side_to_move()
        && a.colors(Color::White) == b.colors(Color::White)
        && a.colors(Color::Black) == b.colors(Color::Black)
        && Piece::ALL.iter().all(|&p| a.pieces(p) == b.pieces(p))
}

/// The game in progress.
#[derive(Debug)]
pub struct PlayedGame {
    pub number: u32,
    pub white: String,
    pub black: String,
    pub me: Color,
    pub rated: bool,
    pub category: String,
    pub base: u32,
    pub increment: u32,
    pub white_elo: Option<u32>,
    pub black_elo: Option<u32>,
    pub policy: GamePolicy,
    /// The game's rate limit of whispers and kibitzes (the levels are the settings').
    pub talker: Talker,
    /// The opponent is in `lists/AK`: kibitzes at least at `talk.autokibitz_level`,
    /// until an operator's `kibitz N` sets the level.
    pub autokibitz: bool,
    pub clocks: Option<ClockSnapshot>,
    /// The move wily sent that the server has not yet echoed.
    pub sent: Option<Move>,
    /// The reply wily's last search expects (for pondering).
    pub expected_reply: Option<Move>,
    /// Comment for wily's next recorded move (search summary or `book`).
    pub pending_comment: Option<String>,
    /// Search summary (cp, depth) for wily's pending move; `None` for a book move.
    pub pending_search: Option<Option<(i32, u32)>>,
    pub last_flag: Option<Instant>,
    pub illegal_replies: u32,
    pub started: chrono::DateTime<chrono::Utc>,
    /// When wily first saw the game (the wait for the opponent's first move).
    pub created: Instant,
    /// Takeback requests accepted in this game (`accept.takebacks`).
    pub takebacks: u32,
    /// `abort` was sent because the opponent never made a first move.
    pub idle_abort_sent: bool,
    board: Board,
    /// Every position since `start`, the current one last (repetitions, the engine's
    /// history).
    history: GameHistory,
    start: Board,
    start_is_standard: bool,
    /// The castling rook of each side and wing, from the first position (style 12's
    /// flags do not say which rook they mean in Chess960).
    rooks: CastlingRooks,
    moves: Vec<Move>,
    record: Vec<RecordedMove>,
    searches: Vec<(usize, Option<(i32, u32)>)>,
}

impl PlayedGame {
    /// A game whose first known position is `u`.
    pub fn new(u: &BoardUpdate, me: Color, policy: GamePolicy, talker: Talker) -> PlayedGame {
        let rooks = CastlingRooks::of_start(&u.board);
        let board = rooks.apply(&u.board, u.castling);
        PlayedGame {
            number: u.game,
            white: u.white.clone(),
            black: u.black.clone(),
            me,
            rated: false,
            category: String::new(),
            base: u.base,
            increment: u.increment,
            white_elo: None,
            black_elo: None,
            policy,
            talker,
            autokibitz: false,
            clocks: None,
            sent: None,
            expected_reply: None,
            pending_comment: None,
            pending_search: None,
            last_flag: None,
            illegal_replies: 0,
            started: chrono::Utc::now(),
            created: u.received,
            takebacks: 0,
            idle_abort_sent: false,
            board: board.clone(),
            history: GameHistory::new(&board),
            start: board,
            start_is_standard: same_position(&u.board, &Board::default()),
            rooks,
            moves: Vec::new(),
            record: Vec::new(),
            searches: Vec::new(),
        }
    }

    pub fn opponent(&self) -> &str {
        match self.me {
            Color::White => &self.black,
            Color::Black => &self.white,
        }
    }

    pub fn opponent_elo(&self) -> Option<u32> {
        match self.me {
            Color::White => self.black_elo,
            Color::Black => self.white_elo,
        }
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// A Chess960 game: by the server's game type (`wild/fr`, `fischerandom`), or by a
    /// first position whose castling rooks or king stand where standard chess has none.
    pub fn chess960(&self) -> bool {
        Variant::from_kind(&self.category) == Variant::Chess960 || looks_like_chess960(&self.start)
    }

    /// The opening book is for the standard start: in a Chess960 game it is used only
    /// when the game began from the standard array (position 518).
    pub fn book_allowed(&self) -> bool {
        !self.chess960() || self.start_is_standard
    }

    /// Earlier positions for the engine (oldest first).
    pub fn history(&self) -> &[u64] {
        self.history.earlier_hashes()
    }

    /// The SAN and comment of the last recorded move.
    pub fn last_recorded(&self) -> Option<(&str, Option<&str>)> {
        self.record
            .last()
            .map(|m| (m.san.as_str(), m.comment.as_deref()))
    }

    /// The recorded moves in SAN.
    pub fn sans(&self) -> Vec<String> {
        self.record.iter().map(|m| m.san.clone()).collect()
    }

    /// Plies recorded so far.
    pub fn plies(&self) -> usize {
        self.moves.len()
    }

    pub fn my_move(&self) -> bool {
        self.board.side_to_move() == self.me
    }

    /// A draw can be claimed now (threefold repetition or fifty moves).
    pub fn claimable_now(&self) -> bool {
        self.history.repetitions() >= 3 || self.board.halfmove_clock() >= 100
    }

    /// After `mv`: (the position occurred before, a draw is claimable).
    pub fn after_move(&self, mv: Move) -> (bool, bool) {
        let mut b = self.board.clone();
        if !b.is_legal(mv) {
            return (false, false);
        }
        b.play_unchecked(mv);
        // How many times the position after `mv` occurred before.
        let n = self.history.repetitions_after(&b) - 1;
        (n >= 1, n >= 2 || b.halfmove_clock() >= 100)
    }

    /// How the game ends by rule in its last known position, after the move wily sent
    /// if the server has not echoed it: (result, kind, the server's words), or `None`
    /// when it goes on. The rules are those every server applies by itself: checkmate,
    /// stalemate, and neither side with mating material (no pawn, rook or queen, at most
    /// one minor piece on the board).
    pub fn ends_by_rule(&self) -> Option<(&'static str, EndKind, String)> {
        let mut b = self.board.clone();
        if let Some(mv) = self.sent {
            if !b.is_legal(mv) {
                return None;
            }
            b.play_unchecked(mv);
        }
        let mut any = false;
        b.generate_moves(|_| {
            any = true;
            true
        });
        if !any {
            if b.checkers().is_empty() {
                return Some(("1/2-1/2", EndKind::Draw, "Game drawn by stalemate".into()));
            }
            let loser = b.side_to_move();
            let name = if loser == Color::White {
                &self.white
            } else {
                &self.black
            };
            let result = if loser == Color::White { "0-1" } else { "1-0" };
            return Some((result, EndKind::Checkmate, format!("{name} checkmated")));
        }
        let heavy = b.pieces(Piece::Pawn) | b.pieces(Piece::Rook) | b.pieces(Piece::Queen);
        let minors = (b.pieces(Piece::Knight) | b.pieces(Piece::Bishop)).len();
        if heavy.is_empty() && minors <= 1 {
            return Some((
                "1/2-1/2",
                EndKind::Draw,
                "Neither player has mating material".into(),
            ));
        }
        None
    }

    /// Records the move wily sent as played, as if the server had echoed it (the server
    /// ended the game with it while the connection was down). True when none is pending;
    /// false when it is not legal here.
    pub fn confirm_sent(&mut self) -> bool {
        let Some(mv) = self.sent.take() else {
            return true;
        };
        if !self.board.is_legal(mv) {
            return false;
        }
        let san = to_san(&self.board, mv);
        self.searches
            .push((self.moves.len(), self.pending_search.take().flatten()));
        let comment = self.pending_comment.take();
        self.moves.push(mv);
        self.record.push(RecordedMove { san, comment });
        self.board.play_unchecked(mv);
        self.history.push(&self.board);
        self.expected_reply = None;
        true
    }

    /// True once the opponent has made a move in this game (or it did not start with
    /// the opponent's first move still to come: a resumed game).
    pub fn opponent_has_moved(&self) -> bool {
        let first_mover = self.start.side_to_move();
        let needed = if first_mover == self.me { 2 } else { 1 };
        self.moves.len() >= needed || self.start.fullmove_number() > 1
    }

    /// When `u`'s position is one the game passed through (a takeback), goes back to it
    /// and returns the number of plies taken back.
    fn take_back_to(&mut self, u: &BoardUpdate) -> Option<usize> {
        let n = self.moves.len();
        let mut boards = Vec::with_capacity(n + 1);
        let mut b = self.start.clone();
        boards.push(b.clone());
        for &mv in &self.moves {
            if !b.is_legal(mv) {
                return None;
            }
            b.play_unchecked(mv);
            boards.push(b.clone());
        }
        let keep = (0..n)
            .rev()
            .find(|&k| same_position(&boards[k], &u.board))?;
        let back = n - keep;
        let wily_moves_back = (keep..n)
            .filter(|&p| boards[p].side_to_move() == self.me)
            .count();
        self.policy.take_back(wily_moves_back);
        self.moves.truncate(keep);
        self.record.truncate(keep);
        self.history.truncate(keep + 1);
        self.searches.retain(|(ply, _)| *ply < keep);
        self.board = self.rooks.apply(&u.board, u.castling);
        self.sent = None;
        self.expected_reply = None;
        self.pending_comment = None;
        self.pending_search = None;
        Some(back)
    }

    /// Brings the board in step with an update.
    pub fn sync(&mut self, u: &BoardUpdate) -> Sync {
        self.clocks = Some(ClockSnapshot {
            at: u.received,
            white_ms: u.white_ms,
            black_ms: u.black_ms,
            to_move: u.board.side_to_move(),
            timed: u.timed(),
        });
        self.base = u.base;
        self.increment = u.increment;
        if same_position(&self.board, &u.board) {
            return Sync::Same;
        }
        if let Some(verbose) = &u.last_move_verbose {
            if let Ok(mv) = parse_ics_verbose(&self.board, verbose, u.last_move_san.as_deref()) {
                let mut next = self.board.clone();
                next.play_unchecked(mv);
                if same_position(&next, &u.board) {
                    let san = to_san(&self.board, mv);
                    let mine = self.board.side_to_move() == self.me;
                    let comment = if mine {
                        self.searches
                            .push((self.moves.len(), self.pending_search.take().flatten()));
                        self.pending_comment.take()
                    } else {
                        Some(format!("{:.1}s", u.last_move_ms as f64 / 1000.0))
                    };
                    self.moves.push(mv);
                    self.record.push(RecordedMove { san, comment });
                    // The server's board carries the counters and castling rights.
                    self.board = self.rooks.apply(&u.board, u.castling);
                    self.history.push(&self.board);
                    return Sync::Moved(mv);
                }
            }
        }
        if let Some(back) = self.take_back_to(u) {
            return Sync::TakenBack(back);
        }
        tracing::warn!(
            "game {}: the server's position does not follow from mine; re-synchronising ({})",
            self.number,
            to_fen(&u.board)
        );
        // The castling rooks stay those of the game's first position.
        self.board = self.rooks.apply(&u.board, u.castling);
        self.start = self.board.clone();
        self.start_is_standard = same_position(&u.board, &Board::default());
        self.history.reset(&self.board);
        self.moves.clear();
        self.record.clear();
        self.searches.clear();
        self.sent = None;
        self.expected_reply = None;
        self.pending_comment = None;
        self.pending_search = None;
        Sync::Resynced
    }

    /// The clocks for the resign rule, estimated at `now`.
    pub fn resign_clocks(&self, now: Instant) -> Clocks {
        match self.clocks {
            None => Clocks {
                mine_ms: 0,
                theirs_ms: 0,
                timed: false,
            },
            Some(c) => {
                let (mine, theirs) = match self.me {
                    Color::White => (c.white_ms, c.black_ms),
                    Color::Black => (c.black_ms, c.white_ms),
                };
                let run = now.saturating_duration_since(c.at).as_millis() as i64;
                let theirs = if c.to_move != self.me {
                    theirs - run
                } else {
                    theirs
                };
                Clocks {
                    mine_ms: mine,
                    theirs_ms: theirs,
                    timed: c.timed,
                }
            }
        }
    }

    /// The opponent's clock estimated at `now`, when it is running (the opponent to move
    /// in a timed game).
    pub fn opponent_clock_now(&self, now: Instant) -> Option<i64> {
        let c = self.clocks?;
        if !c.timed || c.to_move == self.me {
            return None;
        }
        let theirs = match self.me {
            Color::White => c.black_ms,
            Color::Black => c.white_ms,
        };
        Some(theirs - now.saturating_duration_since(c.at).as_millis() as i64)
    }

    /// The finished game for the archive and the learning hooks.
    pub fn finish(&self, site: &str, result: &str, kind: EndKind, text: &str) -> FinishedGame {
        let fen = (!self.start_is_standard || self.start.fullmove_number() != 1)
            .then(|| to_fen(&self.start));
        let record = GameRecord {
            event: format!(
                "{} {} game",
                if self.rated { "rated" } else { "unrated" },
                if self.category.is_empty() {
                    "chess"
                } else {
                    &self.category
                }
            ),
            site: site.to_string(),
            date: self.started.format("%Y.%m.%d").to_string(),
            round: "-".into(),
            white: self.white.clone(),
            black: self.black.clone(),
            result: result.to_string(),
            white_elo: self.white_elo,
            black_elo: self.black_elo,
            time_control: time_control(self.base, self.increment),
            termination: kind.termination().to_string(),
            end_text: text.to_string(),
            start_fen: fen,
            variant: self.chess960().then(|| "Chess960".to_string()),
            first_move_number: self.start.fullmove_number() as u32,
            first_move_white: self.start.side_to_move() == Color::White,
            moves: self.record.clone(),
        };
        FinishedGame {
            record,
            start: self.start.clone(),
            moves: self.moves.clone(),
            wily_color: self.me,
            opponent: self.opponent().to_string(),
            opponent_rating: self.opponent_elo(),
            wily_rating: match self.me {
                Color::White => self.white_elo,
                Color::Black => self.black_elo,
            },
            kind,
            searches: self.searches.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::Relation;
    use crate::play::opponent::OpponentProfile;
    use config::OpponentsSection;
    use lists::{Category, OpponentClass};

    fn update(fen: &str, verbose: Option<&str>) -> BoardUpdate {
        BoardUpdate {
            game: 1,
            white: "wily".into(),
            black: "Bob".into(),
            relation: Relation::MyMove,
            board: chess::parse_fen(fen).unwrap(),
            castling: chess::castling::CastleFlags::of_board(&chess::parse_fen(fen).unwrap()),
            white_ms: 60_000,
            black_ms: 60_000,
            base: 1,
            increment: 0,
            move_number: 1,
            last_move_verbose: verbose.map(String::from),
            last_move_san: None,
            last_move_ms: 1500,
            received: Instant::now(),
        }
    }

    fn game(u: &BoardUpdate) -> PlayedGame {
        let s = OpponentsSection::default();
        let class = OpponentClass::of(Category::Other);
        PlayedGame::new(
            u,
            Color::White,
            GamePolicy::new(OpponentProfile::new(class, &s), &s),
            Talker::new(10),
        )
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    const E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    const E4E5: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2";

    #[test]
    fn follows_moves_and_records_them() {
        let mut g = game(&update(START, None));
        assert_eq!(g.sync(&update(START, None)), Sync::Same);
        g.pending_comment = Some("book".into());
        g.pending_search = Some(None);
        assert!(matches!(
            g.sync(&update(E4, Some("P/e2-e4"))),
            Sync::Moved(_)
        ));
        assert!(matches!(
            g.sync(&update(E4E5, Some("P/e7-e5"))),
            Sync::Moved(_)
        ));
        let f = g.finish("test", "*", EndKind::Aborted, "");
        let pgn = f.record.to_pgn();
        assert!(pgn.contains("1. e4 {book} 1... e5 {1.5s}"), "{pgn}");
        assert!(!pgn.contains("[FEN"));
        assert_eq!(f.moves.len(), 2);
        assert_eq!(f.searches, vec![(0, None)]);
        assert_eq!(g.history().len(), 2);
    }

    #[test]
    fn a_position_that_does_not_follow_resyncs() {
        let mut g = game(&update(START, None));
        assert_eq!(g.sync(&update(E4E5, Some("P/e7-e5"))), Sync::Resynced);
        assert!(same_position(g.board(), &update(E4E5, None).board));
        assert!(g.history().is_empty());
        let f = g.finish("test", "*", EndKind::Aborted, "");
        assert!(f.record.to_pgn().contains("[FEN"));
    }

    #[test]
    fn a_takeback_goes_back_to_the_earlier_position() {
        let mut g = game(&update(START, None));
        g.sync(&update(E4, Some("P/e2-e4")));
        g.sync(&update(E4E5, Some("P/e7-e5")));
        assert!(g.opponent_has_moved());
        assert_eq!(g.sync(&update(E4, None)), Sync::TakenBack(1));
        assert_eq!(g.plies(), 1);
        assert_eq!(g.sans(), vec!["e4".to_string()]);
        assert_eq!(g.sync(&update(START, None)), Sync::TakenBack(1));
        assert_eq!(g.plies(), 0);
        assert!(!g.opponent_has_moved());
        let f = g.finish("test", "*", EndKind::Aborted, "");
        assert!(
            !f.record.to_pgn().contains("[FEN"),
            "no resync: the start is kept"
        );
    }

    #[test]
    fn garbage_last_move_resyncs_without_panic() {
        let mut g = game(&update(START, None));
        assert_eq!(g.sync(&update(E4, Some("Z/x9-q0"))), Sync::Resynced);
    }

    #[test]
    fn repetition_detection() {
        let mut g = game(&update(START, None));
        let seq = [
            (
                "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1",
                "N/g1-f3",
            ),
            (
                "rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2",
                "N/g8-f6",
            ),
            (
                "rnbqkb1r/pppppppp/5n2/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 3 2",
                "N/f3-g1",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 4 3",
                "N/f6-g8",
            ),
        ];
        for (fen, mv) in seq {
            assert!(matches!(g.sync(&update(fen, Some(mv))), Sync::Moved(_)));
        }
        assert!(!g.claimable_now(), "start position seen twice only");
        let nf3 = chess::move_from_uci(g.board(), "g1f3", false).unwrap();
        assert_eq!(g.after_move(nf3), (true, false));
        for (fen, mv) in seq {
            g.sync(&update(fen, Some(mv)));
        }
        assert!(g.claimable_now(), "third time");
    }

    #[test]
    fn repetition_that_starts_after_a_double_step() {
        // The position after 1. e4 (Black to move) comes back after 3. Ng1 and 5. Ng1;
        // only the first has e3 as its en-passant square, where no capture is possible,
        // so by the rules all three are the same position.
        let mut g = game(&update(START, None));
        let knights = |n: u32| {
            [
                (
                    format!(
                        "r1bqkbnr/pppppppp/2n5/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - {} {}",
                        n + 1,
                        n / 4 + 2
                    ),
                    "N/b8-c6",
                ),
                (
                    format!(
                        "r1bqkbnr/pppppppp/2n5/8/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - {} {}",
                        n + 2,
                        n / 4 + 2
                    ),
                    "N/g1-f3",
                ),
                (
                    format!(
                        "rnbqkbnr/pppppppp/8/8/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - {} {}",
                        n + 3,
                        n / 4 + 3
                    ),
                    "N/c6-b8",
                ),
            ]
        };
        assert!(matches!(
            g.sync(&update(E4, Some("P/e2-e4"))),
            Sync::Moved(_)
        ));
        for n in [0, 4] {
            for (fen, mv) in knights(n) {
                assert!(
                    matches!(g.sync(&update(&fen, Some(mv))), Sync::Moved(_)),
                    "{fen}"
                );
            }
            if n == 4 {
                let ng1 = chess::move_from_uci(g.board(), "f3g1", false).unwrap();
                assert_eq!(
                    g.after_move(ng1),
                    (true, true),
                    "5. Ng1 repeats a third time"
                );
            }
            let back = format!(
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - {} {}",
                n + 4,
                n / 4 + 3
            );
            assert!(matches!(
                g.sync(&update(&back, Some("N/f3-g1"))),
                Sync::Moved(_)
            ));
            assert_eq!(
                g.claimable_now(),
                n == 4,
                "after {} knight tours",
                n / 4 + 1
            );
        }
    }

    #[test]
    fn opponent_clock_runs_between_updates() {
        let mut u = update(E4, Some("P/e2-e4"));
        let mut g = game(&update(START, None));
        u.black_ms = 500;
        g.sync(&u);
        let later = u.received + std::time::Duration::from_millis(800);
        assert_eq!(g.opponent_clock_now(later), Some(-300));
        let c = g.resign_clocks(later);
        assert_eq!((c.mine_ms, c.theirs_ms), (60_000, -300));
    }
}
