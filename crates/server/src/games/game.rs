//! One game on the local server, as a value: its players, board, clock, move list and
//! observers, and every way it can end with the words the lasker server uses. The server's
//! handling of games (creation, updates, endings) is in `games/lifecycle.rs`.

use crate::conn::Sid;
use crate::games::clock::Clock;
use crate::games::ratings::Category;
use chess::GameHistory;
use cozy_chess::{Board, Color};

/// One player of a game.
#[derive(Debug, Clone)]
pub struct Side {
    /// The session while connected.
    pub sid: Option<Sid>,
    pub name: String,
    pub registered: bool,
    /// Rating in the game's category when the game started.
    pub rating: Option<u32>,
}

/// A move already played, for `moves` listings.
#[derive(Debug, Clone)]
pub struct MoveRecord {
    pub san: String,
    pub took_ms: i64,
    /// The move itself (for takebacks).
    pub mv: cozy_chess::Move,
    /// ICC's smith form (`e1g1c`, `f7g8nQ`).
    pub smith: String,
    /// The mover's clock after the move, increment included.
    pub clock_ms: i64,
}

/// The last move, as style 12 shows it.
#[derive(Debug, Clone)]
pub struct LastMove {
    pub verbose: String,
    pub pretty: String,
    pub took_ms: i64,
    /// File (0-7) of a double pawn push.
    pub double_push: Option<u8>,
}

/// A game in progress (or adjourned).
#[derive(Debug, Clone)]
pub struct Game {
    pub number: u32,
    pub white: Side,
    pub black: Side,
    pub rated: bool,
    pub base: u32,
    pub inc: u32,
    pub category: Category,
    /// A Chess960 game (lasker's `fischerandom`).
    pub chess960: bool,
    /// The position the game started from.
    pub start: Board,
    pub board: Board,
    /// Every position so far, the start included (the repetition rule).
    pub history: GameHistory,
    pub moves: Vec<MoveRecord>,
    pub last: Option<LastMove>,
    pub clock: Clock,
    pub observers: Vec<Sid>,
    pub started: chrono::DateTime<chrono::Utc>,
    /// How many times this game was resumed after an adjournment.
    pub resumed: u32,
    /// An examined game (`examine`, or a relayed game): no clock, no players online.
    pub examined: Option<Examined>,
}

/// What makes a game an examined one.
#[derive(Debug, Clone)]
pub struct Examined {
    /// The session examining it; `None` for a relayed game (the relay account has no
    /// connection).
    pub examiner: Option<Sid>,
    /// The name shown in `X moves: e4`.
    pub by: String,
}

/// Why a game ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    Checkmate {
        loser: Color,
    },
    Resign {
        loser: Color,
    },
    Flag {
        loser: Color,
    },
    FlagNoMaterial {
        loser: Color,
    },
    BothFlag,
    Stalemate,
    Agreed,
    Repetition,
    FiftyMove,
    NoMaterial,
    AdjournAgreed,
    /// A player dropped: adjourned when both are registered, else aborted.
    LostConnection {
        who: Color,
    },
    AbortAgreed,
    /// `abort` before each player had moved (FICS: no agreement needed).
    AbortEarly,
}

impl Game {
    pub fn side(&self, c: Color) -> &Side {
        match c {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    /// The colour `sid` plays, if it plays here.
    pub fn color_of(&self, sid: Sid) -> Option<Color> {
        if self.white.sid == Some(sid) {
            Some(Color::White)
        } else if self.black.sid == Some(sid) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// `Game 1 (AlphaBot vs. BetaBot)`.
    pub fn title(&self) -> String {
        format!(
            "Game {} ({} vs. {})",
            self.number, self.white.name, self.black.name
        )
    }

    /// `rated blitz` / `unrated lightning` / `rated fischerandom`.
    pub fn kind(&self) -> String {
        format!(
            "{} {}",
            if self.rated { "rated" } else { "unrated" },
            if self.chess960 {
                "fischerandom"
            } else {
                self.category.name()
            }
        )
    }

    /// The `[ bu  5   0]` field of `games` lists.
    pub fn type_code(&self) -> String {
        format!(
            "[ {}{}{:3} {:3}]",
            self.category.letter(),
            if self.rated { 'r' } else { 'u' },
            self.base,
            self.inc
        )
    }

    /// Whether both players are registered (so the game can be stored).
    pub fn storable(&self) -> bool {
        self.white.registered && self.black.registered
    }

    pub(crate) fn end_text(&self, end: End) -> (String, &'static str) {
        let name = |c: Color| self.side(c).name.clone();
        let win = |loser: Color| if loser == Color::White { "0-1" } else { "1-0" };
        match end {
            End::Checkmate { loser } => (format!("{} checkmated", name(loser)), win(loser)),
            End::Resign { loser } => (format!("{} resigns", name(loser)), win(loser)),
            End::Flag { loser } => (format!("{} forfeits on time", name(loser)), win(loser)),
            End::FlagNoMaterial { loser } => (
                format!(
                    "{} ran out of time and {} has no material to mate",
                    name(loser),
                    name(!loser)
                ),
                "1/2-1/2",
            ),
            End::BothFlag => (
                "Game drawn because both players ran out of time".into(),
                "1/2-1/2",
            ),
            End::Stalemate => ("Game drawn by stalemate".into(), "1/2-1/2"),
            End::Agreed => ("Game drawn by mutual agreement".into(), "1/2-1/2"),
            End::Repetition => ("Game drawn by repetition".into(), "1/2-1/2"),
            End::FiftyMove => ("Game drawn by the 50 move rule".into(), "1/2-1/2"),
            End::NoMaterial => ("Neither player has mating material".into(), "1/2-1/2"),
            End::AdjournAgreed => ("Game adjourned by mutual agreement".into(), "*"),
            End::LostConnection { .. } => {
                if self.storable() {
                    ("adjourned".into(), "*")
                } else {
                    ("aborted".into(), "*")
                }
            }
            End::AbortAgreed => ("Game aborted by mutual agreement".into(), "*"),
            End::AbortEarly => ("Game aborted on move 1".into(), "*"),
        }
    }
}

/// White's score for a decisive or drawn end (`None`: no result).
pub(crate) fn white_score(end: End) -> Option<f64> {
    match end {
        End::Checkmate { loser } | End::Resign { loser } | End::Flag { loser } => {
            Some(if loser == Color::White { 0.0 } else { 1.0 })
        }
        End::FlagNoMaterial { .. }
        | End::BothFlag
        | End::Stalemate
        | End::Agreed
        | End::Repetition
        | End::FiftyMove
        | End::NoMaterial => Some(0.5),
        End::AdjournAgreed | End::LostConnection { .. } | End::AbortAgreed | End::AbortEarly => {
            None
        }
    }
}

impl Game {
    /// Take back the last `n` half-moves (at most all of them): the board is replayed
    /// from the start, the repetition record and the last move follow.
    pub fn take_back(&mut self, n: usize) {
        let keep = self.moves.len().saturating_sub(n);
        self.moves.truncate(keep);
        let mut board = self.start.clone();
        let mut history = GameHistory::new(&board);
        let mut last = None;
        for m in &self.moves {
            let verbose = crate::games::notation::verbose_move(&board, m.mv);
            let pretty = crate::games::notation::pretty_move(&board, m.mv);
            let double_push = (board.piece_on(m.mv.from) == Some(cozy_chess::Piece::Pawn)
                && (m.mv.from.rank() as i32 - m.mv.to.rank() as i32).abs() == 2)
                .then_some(m.mv.from.file() as u8);
            if board.try_play(m.mv).is_err() {
                break;
            }
            history.push(&board);
            last = Some(LastMove {
                verbose,
                pretty,
                took_ms: m.took_ms,
                double_push,
            });
        }
        self.board = board;
        self.history = history;
        self.last = last;
    }
}
