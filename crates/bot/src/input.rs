//! What goes into the session state machine ([`Input`]) and what comes out ([`Action`]).
//!
//! Server events arrive in the bot's own small vocabulary ([`ServerEvent`]), translated
//! from the protocol layer's typed events by [`crate::translate`]; search progress and
//! results come from the engine thread; ticks and shutdown requests from the driver.
//! Keeping this vocabulary separate lets the session be tested without sockets.

use crate::play::record::GameRecord;
use chess::castling::CastleFlags;
use cozy_chess::{Board, Color, Move};
use engine::{Limits, SearchInfo, SearchResult};
/// The viewer's relation to a board and the kinds of offers are the protocol layer's own
/// types, used here as they are.
pub use ics::events::{OfferKind, Relation};
use ics::listing::{GameRow, RelayRow, TourneyGameRow};
use lists::ServerTitles;
use std::time::Instant;

/// One style-12 update, with the position already turned into a board.
#[derive(Debug, Clone, PartialEq)]
pub struct BoardUpdate {
    pub game: u32,
    pub white: String,
    pub black: String,
    pub relation: Relation,
    pub board: Board,
    /// The style-12 castling flags; which rook each one means is the game's business
    /// (Chess960: see [`chess::castling::CastlingRooks`]).
    pub castling: CastleFlags,
    /// Clocks in milliseconds (negative: the flag has fallen).
    pub white_ms: i64,
    pub black_ms: i64,
    /// Minutes.
    pub base: u32,
    /// Seconds.
    pub increment: u32,
    /// Number of the move about to be made.
    pub move_number: u32,
    pub last_move_verbose: Option<String>,
    pub last_move_san: Option<String>,
    /// Time the last move took, milliseconds.
    pub last_move_ms: u64,
    /// When the driver received the update (reaction-time measurement).
    pub received: Instant,
}

impl BoardUpdate {
    pub fn clock(&self, c: Color) -> i64 {
        match c {
            Color::White => self.white_ms,
            Color::Black => self.black_ms,
        }
    }

    pub fn timed(&self) -> bool {
        self.base > 0 || self.increment > 0
    }
}

/// How a game ended (from the server's result line).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndKind {
    Checkmate,
    Resignation,
    Time,
    Disconnection,
    /// Any drawn ending (agreement, repetition, 50 moves, stalemate, material, ...).
    Draw,
    Adjourned,
    Aborted,
    Adjudication,
    Other,
}

impl EndKind {
    /// The PGN Termination value.
    pub fn termination(self) -> &'static str {
        match self {
            EndKind::Time => "time forfeit",
            EndKind::Disconnection => "abandoned",
            EndKind::Adjudication => "adjudication",
            EndKind::Adjourned | EndKind::Aborted => "unterminated",
            _ => "normal",
        }
    }
}

/// An incoming match request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Challenge {
    pub name: String,
    pub rating: Option<u32>,
    pub registered: bool,
    pub titles: ServerTitles,
    pub rated: bool,
    /// The game type word (`blitz`, `wild`, ...).
    pub kind: String,
    /// The variant, when the server names one (`wild/fr`).
    pub variant: Option<String>,
    pub base: u32,
    pub increment: u32,
    /// The other side's minutes and increment when the server shows a second clock
    /// (lasker: `2 0 : 2 2`).
    pub other_clock: Option<(u32, u32)>,
    pub adjourned: bool,
}

/// The server events the bot acts on.
#[derive(Debug, Clone, PartialEq)]
pub enum ServerEvent {
    LoggedIn {
        handle: String,
    },
    Disconnected,
    Board(Box<BoardUpdate>),
    /// `Creating:` (carries the ratings for the record).
    Creating {
        white: String,
        black: String,
        white_rating: Option<u32>,
        black_rating: Option<u32>,
    },
    GameStart {
        game: u32,
        white: String,
        black: String,
        continuing: bool,
        rated: bool,
        category: String,
    },
    GameEnd {
        game: u32,
        white: String,
        black: String,
        /// `1-0`, `0-1`, `1/2-1/2`, `*`.
        result: String,
        kind: EndKind,
        text: String,
    },
    Challenge(Challenge),
    IsComputer {
        name: String,
    },
    /// An offer from the opponent (never a match: challenges are [`ServerEvent::Challenge`]).
    Offer {
        from: String,
        kind: OfferKind,
    },
    /// A private tell.
    Tell {
        from: String,
        titles: ServerTitles,
        text: String,
    },
    /// A `finger` display and its note lines.
    FingerNotes {
        name: String,
        notes: Vec<String>,
    },
    Arrival {
        name: String,
        adjourned: bool,
    },
    /// The players online with an adjourned game with us (lasker and FICS, at login).
    AdjournedOnline {
        names: Vec<String>,
    },
    /// `You have N adjourned games.` and the like.
    AdjournedGames {
        count: u32,
    },
    /// The answer to `stored`: `player`'s adjourned games as (white, black), none when
    /// the server said `X has no adjourned games.`
    StoredGames {
        player: String,
        games: Vec<(String, String)>,
    },
    /// Titles the server showed for a player (seek ads, chat), remembered for later.
    Titles {
        name: String,
        titles: ServerTitles,
    },
    /// The players of a game that starts, with their titles (ICC's game-start datagrams
    /// name them, so a game begun by a seek is classified by them too).
    PlayersTitles(Vec<(String, ServerTitles)>),
    IllegalMove {
        text: String,
    },
    NotYourMove,
    ObserveStarted {
        game: u32,
    },
    ObserveStopped {
        game: u32,
    },
    /// The account's follow list as the server shows it (`=follow`).
    FollowList {
        names: Vec<String>,
    },
    /// The server says whether `name` is on the account's follow list now.
    FollowChanged {
        name: String,
        present: bool,
    },
    /// The server has no follow list (FICS).
    NoFollowList,
    /// A newer login of this account took over this session (the server closes it).
    TakenOver {
        text: String,
    },
    /// A row of a list the watcher reads.
    Watch(WatchRow),
    /// `cmd: Command not found.`
    CommandNotFound {
        command: String,
    },
    /// `You accept the challenge of X.`: the server started a match with X (after
    /// wily's accept, or by itself for a director's `rmatch`).
    YouAccepted {
        other: String,
    },
    /// A tournament director's notice (see [`crate::tourney`]).
    Tourney(ics::tourney::TourneyNotice),
    /// The server refused a setting: `No such ivariable "fr".` (lasker has no `fr`).
    SettingRefused {
        name: String,
    },
    /// The server refused a seek's words (lasker reads the `m` flag as a variant).
    SeekRefused {
        text: String,
    },
}

/// A list row for the watcher (translated from the protocol's events).
#[derive(Debug, Clone, PartialEq)]
pub enum WatchRow {
    Game(Box<GameRow>),
    GamesEnd { shown: u32, total: u32 },
    RelayHeader(String),
    Relay(Box<RelayRow>),
    TourneyHeader,
    Tourney(Box<TourneyGameRow>),
}

/// Everything the session reacts to.
#[derive(Debug)]
pub enum Input {
    Server(ServerEvent),
    /// Progress of search `id`.
    Info {
        id: u64,
        info: SearchInfo,
    },
    /// Search `id` ended.
    Done {
        id: u64,
        result: SearchResult,
    },
    /// Periodic timer (flagging, re-seeking, pending challenges).
    Tick,
    /// SIGTERM: finish the current game (offer to adjourn), then quit. `now` = quit at
    /// once (a second signal).
    Shutdown {
        now: bool,
    },
}

/// A search the driver should start on the engine.
#[derive(Debug, Clone)]
pub struct SearchSpec {
    pub id: u64,
    pub board: Board,
    /// `Board::hash()` of earlier positions of the game, oldest first.
    pub history: Vec<u64>,
    pub limits: Limits,
    /// Value of a draw for the side wily plays (centipawns).
    pub draw_score: i32,
    /// Strength limit (Elo) for this search; `None`: full strength.
    pub strength: Option<u32>,
    /// The engine's swindle mode for tablebase-drawn roots (per opponent).
    pub swindle: bool,
    /// A new game: clear the hash table first.
    pub new_game: bool,
}

/// Where a move came from (reaction-time statistics).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveSource {
    Book,
    /// The opponent played the expected move after wily's time for the move was spent
    /// pondering: the move goes out at once.
    PonderHit,
    /// The expected move came early: the ponder search went on on wily's own clock.
    PonderThenSearch,
    Search,
}

/// What the learning hooks get after every game.
#[derive(Debug, Clone)]
pub struct FinishedGame {
    pub record: GameRecord,
    /// The first position of the recorded moves and the moves themselves.
    pub start: Board,
    pub moves: Vec<Move>,
    pub wily_color: Color,
    pub opponent: String,
    pub opponent_rating: Option<u32>,
    pub wily_rating: Option<u32>,
    pub kind: EndKind,
    /// For each of wily's moves: (ply index in `moves`, score cp from wily's side,
    /// depth); book moves have `None`.
    pub searches: Vec<(usize, Option<(i32, u32)>)>,
}

/// What the session asks the driver to do.
#[derive(Debug)]
pub enum Action {
    /// A command line for the server (built by the bot only, never copied from input).
    Send(String),
    /// A game command that must not wait behind chat in the rate-limited queue (draw,
    /// abort, resign, flag, refresh); sent in order with the moves.
    SendNow(String),
    /// A move for the server; `since` is when the update that asked for it arrived.
    SendMove {
        text: String,
        since: Instant,
        source: MoveSource,
    },
    /// A line about game `game` in the position `position` (an iteration whisper):
    /// rate-limited like [`Action::Send`], and dropped instead of going out late once the
    /// game's position has moved on (a later line about another position, or
    /// [`Action::Expire`]).
    SendTopical {
        text: String,
        game: u32,
        position: u64,
    },
    /// Game `game`'s position moves on (a move of ours goes out, a new board is analysed):
    /// its topical lines still waiting are stale.
    Expire {
        game: u32,
    },
    StartSearch(Box<SearchSpec>),
    /// Stop search `id` (its result will be ignored).
    StopSearch {
        id: u64,
    },
    PonderHit {
        id: u64,
    },
    /// Stop search `id` now and play its best move (a ponder hit after the move's time
    /// was already spent pondering).
    Finish {
        id: u64,
    },
    /// A game started: open its log.
    GameLogOpen {
        game: u32,
        white: String,
        black: String,
    },
    /// A line for the current game's log.
    GameLog(String),
    /// A game ended: append the record, run the learning hooks, close the log.
    GameOver(Box<FinishedGame>),
    /// A line of running commentary for a watching human.
    Commentary(String),
    /// A watched game with its analysis, as PGN text, for `logs/observed.pgn`.
    SaveObserved(String),
    /// Log out and exit.
    Quit,
}

/// The outgoing queue's topic of an [`Action::SendTopical`] line about game `game` in
/// position `position`: the game is the subject, the position its version.
pub fn queue_topic(game: u32, position: u64) -> ics::outqueue::Topic {
    ics::outqueue::Topic {
        subject: u64::from(game),
        version: position,
    }
}
