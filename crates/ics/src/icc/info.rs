//! What ICC's datagrams say beyond the events FICS text also gives ([`IccInfo`], carried
//! by [`crate::Event::Icc`]): our own titles, every field of a game's start (titles,
//! ratings with their rating type, the ex-string, the fancy time control), the ECO and
//! codes of a result, who a withdrawn challenge was between and why, and the level-1 unit
//! headers that tie the datagrams after them to the command that caused them.
//!
//! The shared events ([`crate::Event::GameStart`], [`crate::Event::GameEnd`], ...) come as
//! before, so nothing above `ics` has to know the server; this is the rest, for whoever
//! wants it (the bot takes the players' titles for its opponent lists).

use crate::events::Rating;
use crate::icc::datagram::UnitHeader;

/// ICC-only details, each next to the shared event it belongs with.
#[derive(serde::Serialize, Debug, Clone, PartialEq, Eq)]
pub enum IccInfo {
    /// `DG_WHO_AM_I` (0): our handle and titles (after [`crate::Event::SessionStarted`]).
    Me { name: String, titles: Vec<String> },
    /// `DG_MY_GAME_STARTED` (15), `DG_STARTED_OBSERVING` (18), `DG_ISOLATED_BOARD` (40),
    /// `DG_MY_GAME_CHANGE` (100): every field of the game's start.
    Game(Box<GameInfo>),
    /// `DG_MY_GAME_RESULT` (16) and `DG_GAME_RESULT` (13): the fields behind
    /// [`crate::Event::GameEnd`], ECO included.
    Result(ResultInfo),
    /// `DG_MATCH_REMOVED` (30): the challenge between these two is gone, and why.
    MatchRemoved {
        challenger: String,
        receiver: String,
        text: String,
    },
    /// A level-1 unit begins: what follows, up to [`IccInfo::UnitEnd`], is the output of
    /// this command.
    Unit(UnitHeader),
    /// The innermost level-1 unit ends.
    UnitEnd,
}

/// How we are tied to a game whose start a datagram announced.
#[derive(serde::Serialize, Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameTie {
    /// `DG_MY_GAME_STARTED`: we play or examine it.
    Mine,
    /// `DG_STARTED_OBSERVING`.
    Observing,
    /// `DG_ISOLATED_BOARD`: a one-off look (`refresh`, `sposition`: game -1).
    Isolated,
    /// `DG_MY_GAME_CHANGE`: a game of ours whose parameters changed.
    Changed,
}

/// One side of a game as its start datagram gives it.
#[derive(serde::Serialize, Debug, Clone, PartialEq, Eq)]
pub struct SideInfo {
    pub name: String,
    /// The rating in the game's rating type at the start (0 in the datagram: unrated).
    pub rating: Rating,
    /// `GM`, `IM`, `C`, `TD`, `U`, `*`, ... as ICC lists them.
    pub titles: Vec<String>,
    pub initial_minutes: u32,
    pub increment_secs: u32,
}

/// The fields of `DG_GAME_STARTED`'s form (`formats.txt`), which 15, 18, 40 and 100 share.
#[derive(serde::Serialize, Debug, Clone, PartialEq, Eq)]
pub struct GameInfo {
    pub tie: GameTie,
    /// -1 for a stored position (`sposition`, `smoves`).
    pub game: i64,
    pub white: SideInfo,
    pub black: SideInfo,
    pub wild: u32,
    /// `Blitz`, `Bullet`, `Standard`, `Wild`, ... as the server writes it.
    pub rating_type: String,
    pub rated: bool,
    /// 1 for a played game, 0 for an examined one.
    pub played: bool,
    /// `Ex: continuation` and the like (examined games); empty otherwise.
    pub ex_string: String,
    /// The number that names a stored game (`sposition #N`).
    pub game_id: Option<u64>,
    pub irregular_legality: bool,
    pub irregular_semantics: bool,
    pub uses_plunkers: bool,
    /// PGN-like time control that overrides the minutes and increments when not empty
    /// (`40/5400+30:900+30`, `?` unknown, `-` untimed).
    pub fancy_time_control: String,
    pub promote_to_king: bool,
}

/// The fields of `DG_GAME_RESULT`'s form.
#[derive(serde::Serialize, Debug, Clone, PartialEq, Eq)]
pub struct ResultInfo {
    pub game: u32,
    /// The game becomes an examined one (it is not gone).
    pub become_examined: bool,
    /// The three-letter game-list code (`Mat`, `Res`, `Fla`, ...).
    pub code: String,
    /// `1-0`, `0-1`, `1/2-1/2`, `*` or `aborted`.
    pub score: String,
    pub description: String,
    /// The opening's ECO code (`?` when the server did not work it out).
    pub eco: String,
}
