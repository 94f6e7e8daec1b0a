//! The typed events the protocol layer hands to the bot, one variant per kind of server
//! message, plus the small value types they carry (ratings, results, seeks, chat).
//!
//! Every variant is built by a parser in [`crate::parse`] from one server line (or a
//! wrapped line and its `\` continuation), except [`Event::LoggedIn`] and
//! [`Event::Disconnected`], which the connection itself reports.

pub use crate::board::{Color, Relation, Style12};
pub use crate::rating::{Rating, RatingFlag};
pub use crate::tourney::{TourneyGameTag, TourneyInfo, TourneyNotice, TourneyRow};

/// What kind of prompt the server is waiting at.
#[derive(serde::Serialize, Debug, Clone, PartialEq, Eq)]
pub enum Prompt {
    /// The command prompt (`fics% `, `aics% `).
    Command,
    /// `login: `
    Login,
    /// `password: `
    Password,
    /// `Press return to enter the FICS as "name":` (unregistered or guest login).
    PressReturn { name: String },
}

/// A game's result as the end line prints it.
#[derive(serde::Serialize, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
    /// `*`: aborted or adjourned.
    NoResult,
}

impl GameResult {
    pub fn parse(s: &str) -> Option<GameResult> {
        Some(match s {
            "1-0" => GameResult::WhiteWins,
            "0-1" => GameResult::BlackWins,
            "1/2-1/2" => GameResult::Draw,
            "*" => GameResult::NoResult,
            _ => return None,
        })
    }

    /// The PGN result tag value.
    pub fn as_pgn(&self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::NoResult => "*",
        }
    }
}

/// Why a game ended.
#[derive(serde::Serialize, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EndReason {
    Checkmate,
    Resignation,
    /// A player's flag fell.
    Time,
    /// A player forfeited by disconnecting.
    Disconnection,
    Stalemate,
    DrawAgreed,
    Repetition,
    FiftyMoveRule,
    InsufficientMaterial,
    /// A player ran out of time and the opponent has no mating material (a draw).
    TimeVsNoMaterial,
    /// Both flags fell.
    BothOutOfTime,
    Adjudication,
    /// Adjourned by agreement, by disconnection or by the server.
    Adjourned,
    /// Adjourned by the player with time left (`courtesyadjourn`).
    CourtesyAdjourned,
    /// Aborted by agreement, by disconnection or by the server.
    Aborted,
    /// Aborted by the player with time left (`courtesyabort`).
    CourtesyAborted,
    /// Aborted because a player left before the first move.
    AbortedOnMove1,
    /// A reason this layer does not recognise (the text is in [`GameEnd::text`]).
    Other,
}

/// `{Game N (W vs. B) Creating|Continuing rated blitz match.}`
#[derive(serde::Serialize, Debug, Clone, PartialEq, Eq)]
pub struct GameStart {
    pub game: u32,
    pub white: String,
    pub black: String,
    /// True for `Continuing` (a resumed adjourned game).
    pub continuing: bool,
    pub rated: bool,
    /// `blitz`, `lightning`, `standard`, `wild`, `non-standard`, ...
    pub category: String,
}

/// `{Game N (W vs. B) reason text} result`
#[derive(serde::Serialize, Debug, Clone, PartialEq, Eq)]
pub struct GameEnd {
    pub game: u32,
    pub white: String,
    pub black: String,
    pub result: GameResult,
    pub reason: EndReason,
    /// The player the reason names (who resigned, was mated, forfeited, disconnected).
    pub who: Option<String>,
    /// The reason text between the closing parenthesis and `}`.
    pub text: String,
    /// lasker's ` [b i r p t]` suffix of a game between two players with the tournament
    /// flag (a director's tournament game).
    pub tourney: Option<TourneyGameTag>,
}

/// `Creating: W (1500) B (1600) rated blitz 5 0` (lasker-lineage servers).
#[derive(serde::Serialize, Debug, Clone, PartialEq, Eq)]
pub struct Creating {
    pub white: String,
    pub white_rating: Rating,
    pub black: String,
    pub black_rating: Rating,
    pub rated: bool,
    pub category: String,
    pub base_minutes: u32,
    pub increment_secs: u32,
}

/// A player and rating as a match offer names them.
#[derive(serde::Serialize, Debug, Clone, PartialEq, Eq)]
pub struct PlayerRating {
    pub name: String,
    pub rating: Rating,
}

/// A match offer: `Challenge:` (to us) or `Issuing:` (ours).
#[derive(serde::Serialize, Debug, Clone, PartialEq, Eq)]
pub struct MatchOffer {
    /// The player who made the offer.
    pub challenger: PlayerRating,
    /// The player it is made to.
    pub receiver: PlayerRating,
    /// The colour the challenger asked for (`[white]`/`[black]`).
    pub challenger_color: Option<Color>,
    pub rated: bool,
    /// `blitz`, `lightning`, `standard`, `wild`, `crazyhouse`, ...
    pub category: String,
    pub base_minutes: u32,
    pub increment_secs: u32,
    /// lasker's second clock after ` : ` (`wild 2 0 : 2 2`, as in its offers to resume an
    /// adjourned game): the other side's minutes and increment, when the server shows them.
    pub other_clock: Option<(u32, u32)>,
    /// `Loaded from wild/fr` and the like: the board category/variant.
    pub variant: Option<String>,
    /// The offer resumes an adjourned game.
    pub adjourned: bool,
    /// The challenger's titles where the server lists them (ICC's `DG_MATCH`: `GM`, `C`,
    /// `TD`, ...); empty from FICS text, whose computer notice is [`Event::IsComputer`].
    pub challenger_titles: Vec<String>,
    /// ICC's `DG_MATCH` with `DG_MATCH_ASSESSMENT` on: the challenger's rating change on a
    /// loss, a draw and a win.
    pub assess: Option<[i32; 3]>,
    /// ICC's fancy time control (`40/5400+30:900+30`), overriding the minutes and
    /// increment when not empty; empty elsewhere.
    pub fancy_time_control: String,
}

/// The kinds of offers players make each other: the one type for them in wily, read by
/// the clients and kept by the local server with its pending offers.
#[derive(serde::Serialize, Debug, Clone, PartialEq, Eq, Hash)]
pub enum OfferKind {
    Match,
    Draw,
    Abort,
    Adjourn,
    /// Take back this many half-moves.
    Takeback(u32),
    Pause,
    Unpause,
    Switch,
    Other(String),
}

impl OfferKind {
    /// The word FICS uses for it (`iset pendinfo 1`'s `t=`, `accept draw`):
    /// `match`, `draw`, `takeback`, ...; the inverse of [`crate::parse::offers::offer_kind`]
    /// (a takeback's length is not in the word).
    pub fn word(&self) -> &str {
        match self {
            OfferKind::Match => "match",
            OfferKind::Draw => "draw",
            OfferKind::Abort => "abort",
            OfferKind::Adjourn => "adjourn",
            OfferKind::Takeback(_) => "takeback",
            OfferKind::Pause => "pause",
            OfferKind::Unpause => "unpause",
            OfferKind::Switch => "switch",
            OfferKind::Other(w) => w,
        }
    }
}

/// A FICS pending-offer notice (`iset pendinfo 1`).
#[derive(serde::Serialize, Debug, Clone, PartialEq, Eq)]
pub struct PendingOffer {
    /// Unique index to use with accept/decline/withdraw.
    pub index: u32,
    /// The other player (sender for `<pf>`, receiver for `<pt>`).
    pub name: String,
    /// `match`, `draw`, `abort`, `adjourn`, `takeback`, `pause`, `switch`, ...
    pub kind: String,
    /// The offer's parameters (for a match: the full challenge text).
    pub params: String,
}

/// A seek ad, from a sought list, a lasker ad line or a FICS `<s>`/`<sn>` line.
#[derive(serde::Serialize, Debug, Clone, PartialEq, Eq)]
pub struct SeekAd {
    pub index: u32,
    pub name: String,
    /// Title bit field (FICS `ti=`: 0x1 unregistered, 0x2 computer, 0x4 GM, 0x8 IM,
    /// 0x10 FM, 0x20 WGM, 0x40 WIM, 0x80 WFM); `(C)`-style suffixes map to the same bits.
    pub titles: u32,
    pub rating: Rating,
    pub base_minutes: u32,
    pub increment_secs: u32,
    pub rated: bool,
    pub category: String,
    /// The colour the seeker wants.
    pub color: Option<Color>,
    pub rating_range: Option<(u32, u32)>,
    /// `a=t`: the seek starts a game automatically (not manual).
    pub automatic: bool,
    /// `f=t`: the seeker's formula is checked.
    pub formula: bool,
    /// Came from `<sn>` (a new seek shown because of a notify setting).
    pub notify: bool,
    /// ICC's fancy time control, overriding the minutes and increment when not empty.
    pub fancy_time_control: String,
}

/// Title bits used in [`SeekAd::titles`].
pub mod title {
    pub const UNREGISTERED: u32 = 0x1;
    pub const COMPUTER: u32 = 0x2;
    pub const GM: u32 = 0x4;
    pub const IM: u32 = 0x8;
    pub const FM: u32 = 0x10;
    pub const WGM: u32 = 0x20;
    pub const WIM: u32 = 0x40;
    pub const WFM: u32 = 0x80;
}

/// How a chat message reached us.
#[derive(serde::Serialize, Debug, Clone, PartialEq, Eq, Hash)]
pub enum ChatKind {
    /// `X tells you:` (private).
    Tell,
    /// `X says:` (to the opponent).
    Say,
    /// `X(R)[g] kibitzes:` (to players and observers).
    Kibitz,
    /// `X(R)[g] whispers:` (to observers).
    Whisper,
    /// `X(50): text`
    Channel(u32),
    /// `X shouts:`
    Shout,
    /// `X c-shouts:`
    CShout,
    /// `--> X text` (an emote shout).
    Emote,
}

/// A chat message.
#[derive(serde::Serialize, Debug, Clone, PartialEq, Eq)]
pub struct Chat {
    pub kind: ChatKind,
    /// The sender's handle, titles stripped.
    pub from: String,
    /// Titles shown after the handle (`GM`, `C`, `*`, `TM`, ...).
    pub titles: Vec<String>,
    /// Rating shown with kibitzes and whispers.
    pub rating: Option<Rating>,
    /// Game number shown with kibitzes, whispers and says.
    pub game: Option<u32>,
    pub text: String,
}

impl Chat {
    /// True when the sender carries the title (case-insensitive).
    pub fn has_title(&self, t: &str) -> bool {
        self.titles.iter().any(|x| x.eq_ignore_ascii_case(t))
    }
}

/// Why the connection ended (reported by the connection, not parsed).
#[derive(serde::Serialize, Debug, Clone, PartialEq, Eq)]
pub enum DisconnectReason {
    /// The server closed the socket.
    ClosedByServer,
    /// The caller called `close()`.
    ClosedByClient,
    /// No reply to a probe within the dead-connection timeout.
    Dead,
    /// A read or write failed.
    Error(String),
}

/// Everything the server says, typed.
#[derive(serde::Serialize, Debug, Clone, PartialEq, Eq)]
pub enum Event {
    // --- session and login ---
    /// A prompt (the command prompt, or a login prompt).
    Prompt(Prompt),
    /// `"Name" is a registered name.`
    NameRegistered {
        name: String,
    },
    /// `"Name" is not a registered name.`
    NameNotRegistered {
        name: String,
    },
    /// `Logging you in as "GuestXXXX"`: the server assigned a guest name.
    GuestName {
        name: String,
    },
    /// `**** Starting FICS session as Name(U) ****`
    SessionStarted {
        name: String,
        unregistered: bool,
    },
    /// `**** Invalid password! ****`
    InvalidPassword,
    /// The server refused the login name (too short, bad characters, in use, ...).
    LoginRefused {
        text: String,
    },
    /// `**** X is already logged in - kicking them out. ****`: this login replaces an older
    /// session of the same account, which the server closes. Information, not a refusal.
    SessionReplaced {
        text: String,
    },
    /// `**** X has arrived - you can't both be logged in. ****`: a newer login of this
    /// account took over; the server closes this session.
    SessionTakenOver {
        text: String,
    },
    /// Reported by the connection once login is complete.
    LoggedIn {
        handle: String,
        guest: bool,
    },
    /// `Thank you for using ...`: the server says goodbye.
    Goodbye,
    /// `**** Auto-logout because you were idle ...`
    AutoLogout {
        text: String,
    },
    /// A warning that the server will log us out soon (idle warnings).
    IdleWarning {
        text: String,
    },
    /// Reported by the connection when the socket is gone.
    Disconnected {
        reason: DisconnectReason,
    },

    // --- boards and games ---
    /// A style-12 board update.
    Board(Box<Style12>),
    /// `Creating: W (r) B (r) rated blitz 5 0`
    Creating(Creating),
    /// `{Game N (W vs. B) Creating|Continuing ... match.}`
    GameStart(GameStart),
    /// `{Game N (W vs. B) ...} result`
    GameEnd(GameEnd),
    /// `Blitz rating adjustment: 1500 --> 1512`
    RatingChange {
        category: String,
        old: u32,
        new: u32,
    },
    /// `No ratings adjustment done.`
    NoRatingChange,
    /// `You are now observing game N.`
    ObserveStarted {
        game: u32,
    },
    /// `Removing game N from observation list.` / `You are no longer observing game N.`
    ObserveStopped {
        game: u32,
    },
    /// `Observing  N [W vs. B]: names`
    Observers {
        game: u32,
        names: Vec<String>,
    },
    /// `Your opponent has lost contact or quit.`
    OpponentLostContact,

    // --- offers ---
    /// `Challenge: ...` (a match offer to us).
    Challenge(MatchOffer),
    /// `Issuing: ...` (our own match offer, as the server repeats it).
    Issuing(MatchOffer),
    /// `--** X is a computer **--` (follows a challenge from a computer account).
    IsComputer {
        name: String,
    },
    /// `X offers you a draw.`, `X would like to abort the game ...`, takeback requests.
    OfferReceived {
        from: String,
        kind: OfferKind,
    },
    /// `Draw request sent.`, `Abort request sent.` ...
    OfferSent {
        kind: OfferKind,
    },
    /// `X accepts your challenge.`, `X accepts the draw request.`
    OfferAccepted {
        by: String,
        kind: OfferKind,
    },
    /// `X declines the match offer.`, `X declines draw request.`
    OfferDeclined {
        by: String,
        kind: OfferKind,
    },
    /// `Challenge to X withdrawn.` (ours) / `X withdraws the match offer.` (theirs).
    OfferWithdrawn {
        by_me: bool,
        other: String,
        kind: OfferKind,
    },
    /// `You accept the challenge of X.` (the server confirms our accept).
    YouAccepted {
        other: String,
        kind: OfferKind,
    },
    /// `You decline the match offer from X.`
    YouDeclined {
        other: String,
        kind: OfferKind,
    },
    /// `<pf>`: a pending offer from another player.
    PendingFrom(PendingOffer),
    /// `<pt>`: a pending offer we made.
    PendingTo(PendingOffer),
    /// `<pr>`: a pending offer was removed (accepted, declined, withdrawn).
    PendingRemoved {
        index: u32,
    },

    // --- seeks ---
    /// A seek ad (sought list line, lasker ad line, FICS `<s>`/`<sn>`).
    Seek(SeekAd),
    /// `AD_DESTROY: n`, `Ads removed: n m`, `<sr> n m`.
    SeekRemoved {
        indices: Vec<u32>,
    },
    /// `<sc>`: forget all seeks.
    SeeksCleared,
    /// `N ads displayed.`
    SeekListEnd {
        count: u32,
    },
    /// `Your seek has been posted with index N.`
    SeekPosted {
        index: u32,
    },
    /// The server refused a seek's words: lasker reads FICS's `m` (manual) flag as a
    /// variant name (`You must specify a board and a category.`, `No such
    /// category/board: fischerandom/m`).
    SeekRefused {
        text: String,
    },

    // --- chat ---
    Chat(Chat),
    /// `(told X)`, `(told X, who is playing)`: our tell was delivered.
    Told {
        to: String,
    },
    /// `kibitzed to N.` / `whispered to N.`
    ChatDelivered {
        whisper: bool,
        count: u32,
    },

    // --- notifications and errors ---
    /// `Notification: X has arrived.` (`adjourned`: X has an adjourned game with us).
    Arrival {
        name: String,
        adjourned: bool,
    },
    /// `Notification: X has departed.`
    Departure {
        name: String,
    },
    /// `You have N adjourned games.` / `N stored games found.`
    AdjournedGames {
        count: u32,
    },
    /// `N player(s), who has an adjourned game with you, is online:` and the names on the
    /// next line(s) (at login).
    AdjournedOnline {
        names: Vec<String>,
    },
    /// A `finger` display (`Statistics for X ...`) and its note lines (` 1: text` ..),
    /// in order, ended by the prompt; empty when X has no notes.
    FingerNotes {
        name: String,
        notes: Vec<String>,
    },
    /// `Stored games for X:` and its rows (`   white vs. black`), the answer to `stored`
    /// (the count line after them is [`Event::AdjournedGames`]).
    StoredGames {
        player: String,
        games: Vec<(String, String)>,
    },
    /// `Illegal move.` / `Illegal move (e2e5).`
    IllegalMove {
        text: String,
    },
    /// `It is not your move.`
    NotYourMove,
    /// `You are not playing a game.`
    NotPlaying,
    /// `cmd: Command not found.`
    CommandNotFound {
        command: String,
    },
    /// `cmd: Command has failed.`
    CommandFailed {
        command: String,
    },
    /// A setting was acknowledged (`Style 12 set.`, `ms set`, `You will now hear ads.`).
    SettingAck {
        text: String,
    },
    /// A setting was refused (`No such ivariable "x".`, `No such variable "x".`).
    SettingRefused {
        name: String,
    },
    /// Another refusal or error from the server (`You cannot flag ...`, `ERROR: ...`).
    Refused {
        text: String,
    },
    // --- the account's lists (`+list name`, `-list name`, `=list`) ---
    /// `-- follow list: 2 names --` and the names on the lines after it.
    ListMembers {
        list: String,
        names: Vec<String>,
    },
    /// `[X] added to your follow list.`, `[X] is already on your follow list.`, ...
    ListChanged {
        list: String,
        name: String,
        change: ListChange,
    },
    /// `"follow" does not match any list name.`: the server has no such list.
    NoSuchList {
        list: String,
    },
    // --- listings and examined games (see `ics::listing`) ---
    /// A row of `games`.
    GameListed(Box<crate::listing::GameRow>),
    /// The end of a `games` display (`N games displayed`, `There are no games in
    /// progress.`, `No matching games were found`).
    GamesListEnd {
        shown: u32,
        total: u32,
    },
    /// The relay bot's `listgames` header (`:There are N games in the EVENT`).
    RelayHeader {
        count: u32,
        event: String,
    },
    /// A relayed game from `listgames`.
    RelayGame(Box<crate::listing::RelayRow>),
    /// A tournament director's `games` header (`:Tourney Games for Round #N`).
    TourneyGamesHeader {
        round: u32,
    },
    /// A game of a tournament round from the director's `games`.
    TourneyGame(Box<crate::listing::TourneyGameRow>),
    /// `X moves: e4` (a move in an examined game wily observes).
    ExaminedMove {
        examiner: String,
        san: String,
    },
    /// `X stopped examining game N.`
    ExaminerLeft {
        examiner: String,
        game: u32,
    },
    /// `There are no examiners.` (the observed examined game is gone).
    NoExaminers,
    /// A tournament director's notice (announcements, notes, `listtourneys` rows, byes,
    /// the tournament flag): see [`crate::tourney`].
    Tourney(TourneyNotice),
    /// What an ICC datagram says beyond the events above (titles, ratings, ECO, level-1
    /// units): see [`crate::icc::info`].
    Icc(Box<crate::icc::IccInfo>),
    /// A line no parser recognised (kept so nothing is lost; never an error).
    Unknown(String),
}

/// What the server says it did with a name on one of the account's lists.
#[derive(serde::Serialize, Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListChange {
    /// `[X] added to your L list.`
    Added,
    /// `[X] removed from your L list.`
    Removed,
    /// `[X] is already on your L list.`
    AlreadyOn,
    /// `[X] is not in your L list.`
    NotOn,
}

impl ListChange {
    /// Whether the name is on the list after the command.
    pub fn present(self) -> bool {
        matches!(self, ListChange::Added | ListChange::AlreadyOn)
    }
}

impl Event {
    /// A short, stable name of the variant (for logs and statistics).
    pub fn kind(&self) -> &'static str {
        match self {
            Event::Prompt(_) => "prompt",
            Event::NameRegistered { .. } => "name-registered",
            Event::NameNotRegistered { .. } => "name-not-registered",
            Event::GuestName { .. } => "guest-name",
            Event::SessionStarted { .. } => "session-started",
            Event::InvalidPassword => "invalid-password",
            Event::LoginRefused { .. } => "login-refused",
            Event::SessionReplaced { .. } => "session-replaced",
            Event::SessionTakenOver { .. } => "session-taken-over",
            Event::LoggedIn { .. } => "logged-in",
            Event::Goodbye => "goodbye",
            Event::AutoLogout { .. } => "auto-logout",
            Event::IdleWarning { .. } => "idle-warning",
            Event::Disconnected { .. } => "disconnected",
            Event::Board(_) => "board",
            Event::Creating(_) => "creating",
            Event::GameStart(_) => "game-start",
            Event::GameEnd(_) => "game-end",
            Event::RatingChange { .. } => "rating-change",
            Event::NoRatingChange => "no-rating-change",
            Event::ObserveStarted { .. } => "observe-started",
            Event::ObserveStopped { .. } => "observe-stopped",
            Event::Observers { .. } => "observers",
            Event::OpponentLostContact => "opponent-lost-contact",
            Event::Challenge(_) => "challenge",
            Event::Issuing(_) => "issuing",
            Event::IsComputer { .. } => "is-computer",
            Event::OfferReceived { .. } => "offer-received",
            Event::OfferSent { .. } => "offer-sent",
            Event::OfferAccepted { .. } => "offer-accepted",
            Event::OfferDeclined { .. } => "offer-declined",
            Event::OfferWithdrawn { .. } => "offer-withdrawn",
            Event::YouAccepted { .. } => "you-accepted",
            Event::YouDeclined { .. } => "you-declined",
            Event::PendingFrom(_) => "pending-from",
            Event::PendingTo(_) => "pending-to",
            Event::PendingRemoved { .. } => "pending-removed",
            Event::Seek(_) => "seek",
            Event::SeekRemoved { .. } => "seek-removed",
            Event::SeeksCleared => "seeks-cleared",
            Event::SeekListEnd { .. } => "seek-list-end",
            Event::SeekPosted { .. } => "seek-posted",
            Event::SeekRefused { .. } => "seek-refused",
            Event::Chat(_) => "chat",
            Event::Told { .. } => "told",
            Event::ChatDelivered { .. } => "chat-delivered",
            Event::Arrival { .. } => "arrival",
            Event::Departure { .. } => "departure",
            Event::AdjournedGames { .. } => "adjourned-games",
            Event::AdjournedOnline { .. } => "adjourned-online",
            Event::StoredGames { .. } => "stored-games",
            Event::FingerNotes { .. } => "finger-notes",
            Event::IllegalMove { .. } => "illegal-move",
            Event::NotYourMove => "not-your-move",
            Event::NotPlaying => "not-playing",
            Event::CommandNotFound { .. } => "command-not-found",
            Event::CommandFailed { .. } => "command-failed",
            Event::SettingAck { .. } => "setting-ack",
            Event::SettingRefused { .. } => "setting-refused",
            Event::Refused { .. } => "refused",
            Event::ListMembers { .. } => "list-members",
            Event::ListChanged { .. } => "list-changed",
            Event::NoSuchList { .. } => "no-such-list",
            Event::GameListed(_) => "game-listed",
            Event::GamesListEnd { .. } => "games-list-end",
            Event::RelayHeader { .. } => "relay-header",
            Event::RelayGame(_) => "relay-game",
            Event::TourneyGamesHeader { .. } => "tourney-games-header",
            Event::TourneyGame(_) => "tourney-game",
            Event::ExaminedMove { .. } => "examined-move",
            Event::ExaminerLeft { .. } => "examiner-left",
            Event::NoExaminers => "no-examiners",
            Event::Tourney(_) => "tourney",
            Event::Icc(_) => "icc",
            Event::Unknown(_) => "unknown",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratings_parse_every_shape() {
        assert_eq!(
            Rating::parse("1500"),
            Some(Rating::Rated {
                value: 1500,
                flag: RatingFlag::Established
            })
        );
        assert_eq!(
            Rating::parse("1500P"),
            Some(Rating::Rated {
                value: 1500,
                flag: RatingFlag::Provisional
            })
        );
        assert_eq!(
            Rating::parse(" 987E"),
            Some(Rating::Rated {
                value: 987,
                flag: RatingFlag::Estimated
            })
        );
        assert_eq!(Rating::parse("----"), Some(Rating::Unrated));
        assert_eq!(Rating::parse("UNR"), Some(Rating::Unrated));
        assert_eq!(Rating::parse("++++"), Some(Rating::Unregistered));
        assert_eq!(Rating::parse("15x0"), None);
        assert_eq!(Rating::parse("P"), None);
        assert_eq!(Rating::parse("99999999999"), None);
        assert_eq!(
            Rating::parse("1500P").map(|r| r.to_string()),
            Some("1500P".into())
        );
    }

    #[test]
    fn results_round_trip() {
        for s in ["1-0", "0-1", "1/2-1/2", "*"] {
            assert_eq!(GameResult::parse(s).map(|r| r.as_pgn()), Some(s));
        }
        assert_eq!(GameResult::parse("2-0"), None);
    }
}
