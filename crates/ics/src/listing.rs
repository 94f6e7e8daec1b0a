//! Typed rows of the game listings a watcher reads: the server's `games` display (played
//! and examined games), the relay bot's `listgames` answer, and a tournament director's
//! (mamer's) `games` answer. The parsers are in [`crate::parse::listings`].

use crate::rating::Rating;

/// What kind of game a `games` row shows.
#[derive(serde::Serialize, Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListedState {
    /// Played now, with clocks.
    Playing,
    /// Examined (`Exam.`): relayed games are examined games of the relay account.
    Examined,
    /// A position being set up (`Setup`).
    Setup,
}

/// One row of `games`:
/// ` 28 1622 Vman        1609 PopKid     [ sr 10  10]   1:14 -  5:10 (21-22) B: 18` or
/// ` 25 (Exam. 2540 Kramnik     2760 Anand      ) [ uu  0   0] W:  1`.
#[derive(serde::Serialize, Debug, Clone, PartialEq, Eq)]
pub struct GameRow {
    pub game: u32,
    pub state: ListedState,
    pub white: String,
    pub black: String,
    pub white_rating: Rating,
    pub black_rating: Rating,
    pub private: bool,
    /// The type letter: `b` blitz, `s` standard, `l` lightning, `u` untimed, `w` wild,
    /// `z` crazyhouse, `x` atomic, `B` bughouse, `L` losers, `S` suicide, `n` nonstandard.
    pub kind: char,
    pub rated: bool,
    /// Minutes.
    pub base: u32,
    /// Seconds.
    pub increment: u32,
    /// The side to move (`true`: White).
    pub white_to_move: bool,
    pub move_number: u32,
}

impl GameRow {
    /// The category word the servers use elsewhere (`blitz`, `standard`, ...).
    pub fn category(&self) -> &'static str {
        kind_word(self.kind)
    }
}

/// The category word for a `games` type letter.
pub fn kind_word(kind: char) -> &'static str {
    match kind {
        'b' => "blitz",
        's' => "standard",
        'l' => "lightning",
        'u' => "untimed",
        'w' => "wild",
        'z' => "crazyhouse",
        'x' => "atomic",
        'B' => "bughouse",
        'L' => "losers",
        'S' => "suicide",
        'n' => "nonstandard",
        _ => "other",
    }
}

/// One relayed game from the relay bot's `listgames` (a qtell row):
/// `:196 GMCarlsen GMAronian * C65`.
#[derive(serde::Serialize, Debug, Clone, PartialEq, Eq)]
pub struct RelayRow {
    pub game: u32,
    pub white: String,
    pub black: String,
    /// `*` while it is played, else `1-0`, `0-1`, `1/2-1/2`.
    pub result: String,
    /// The opening code, when shown.
    pub eco: Option<String>,
}

/// One game of a tournament round from mamer's `games` answer (a qtell row):
/// `:  1     AlphaBot [ 1.0] [1720] vs BetaBot   [ 0.0] [1650]   3`.
#[derive(serde::Serialize, Debug, Clone, PartialEq, Eq)]
pub struct TourneyGameRow {
    pub white: String,
    pub black: String,
    pub white_rating: Option<u32>,
    pub black_rating: Option<u32>,
    /// The server's game number; `None` once the game is over (`none`).
    pub game: Option<u32>,
}
