//! The sections of `config.toml`, each a serde struct with its defaults.
//!
//! Units follow the chess servers: base times in minutes, increments in seconds; scores
//! in centipawns unless a key says pawns. Every key is documented in the shipped
//! `config.toml` and in `docs/bot.md` (its settings reference).

use ics::Dialect;
/// `[opponents]` is declared with the rule that reads it, in the `lists` crate.
pub use lists::OpponentsSection;
use serde::Deserialize;
use std::fmt;
use std::path::{Path, PathBuf};

/// The whole settings file. Every section has sensible defaults, so an empty file (or no
/// file at all) gives a bot that plays offline against the local server.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// Where to connect and how to log in.
    pub server: ServerSection,
    /// The in-process local server and its sparring partner (`wily ics --local`).
    pub local: LocalSection,
    /// What wily seeks.
    pub seek: SeekSection,
    /// Which challenges wily accepts.
    pub accept: AcceptSection,
    /// Search settings.
    pub engine: EngineSection,
    /// Whisper and kibitz.
    pub talk: TalkSection,
    /// Observing other games.
    pub observe: ObserveSection,
    /// Finding and observing relayed, tournament and top games.
    pub watch: super::watch::WatchSection,
    /// Who may command the bot by tell.
    pub operators: OperatorsSection,
    /// Files and folders.
    pub paths: PathsSection,
    /// Per-opponent thresholds (resign, draw score, book width).
    pub opponents: OpponentsSection,
    /// Strength limiting per opponent list and rating.
    pub strength: super::strength::StrengthSection,
    /// Logging.
    pub log: LogSection,
    /// Running as a service (SIGTERM handling).
    pub service: super::service::ServiceSection,
    /// The live web dashboard.
    pub web: super::service::WebSection,
    /// Tournaments run by a director bot (mamer).
    pub tourney: super::tourney::TourneySection,
    /// Operator hooks: commands sent at login, game start and end, and when idle.
    pub hooks: super::hooks::HooksSection,
    /// The commands anyone may tell wily (`help`, `info`, `record`, ...).
    pub public: super::public::PublicSection,
    /// Several accounts in one process (empty: the one account of `[server]`).
    pub accounts: Vec<AccountSection>,
}

/// A password that never shows in `Debug` output or logs.
#[derive(Clone, Deserialize, PartialEq, Eq)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    pub fn new(s: String) -> Secret {
        Secret(s)
    }
    /// The clear text; only the login code should call this.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("\"********\"")
    }
}

/// `[server]`
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct ServerSection {
    /// Play offline on the in-process local server instead of connecting anywhere.
    pub local: bool,
    pub host: String,
    pub port: u16,
    pub dialect: Dialect,
    pub timeseal: bool,
    /// Login name; `guest` logs in anonymously.
    pub handle: String,
    pub password: Option<Secret>,
    /// Name of an environment variable holding the password.
    pub password_env: Option<String>,
    pub connect_timeout_secs: u64,
    /// Send a harmless command after this many idle seconds (0 = never).
    pub keepalive_secs: u64,
    pub reconnect_min_secs: u64,
    pub reconnect_max_secs: u64,
    /// The words that ask this server for a Chess960 game in `seek` and `match`: `wild
    /// fr` on FICS, `fr` on lasker 2.2 / capablanca servers (whose `wild fr` is another
    /// game), `w22` on ICC.
    pub chess960: String,
    /// ICC only: read the game through ICC's level-2 datagrams (turned on at login);
    /// `false` reads style-12 text as on FICS.
    pub icc_level2: bool,
    /// A helper program wily talks to the server through, as xboard's `-icshelper`: ICC's
    /// `timestamp` (lag compensation). Started as `PROGRAM HOST PORT`.
    pub helper: Option<PathBuf>,
    /// With `helper`: the helper opens this port on 127.0.0.1 and wily connects to it
    /// (unset: wily talks through the helper's standard input and output).
    pub helper_port: Option<u16>,
    /// The account's finger notes, one string a line (fields: `public.rs`'s
    /// `NOTE_FIELDS`). Unset: the default description, written only to an account that
    /// has no notes; `[]`: wily leaves the notes alone.
    pub notes: Option<Vec<String>>,
}

impl Default for ServerSection {
    fn default() -> Self {
        ServerSection {
            local: true,
            host: "freechess.org".into(),
            port: 5000,
            dialect: Dialect::Fics,
            timeseal: true,
            handle: "guest".into(),
            password: None,
            password_env: None,
            connect_timeout_secs: 30,
            keepalive_secs: 600,
            reconnect_min_secs: 5,
            reconnect_max_secs: 600,
            chess960: "wild fr".into(),
            icc_level2: true,
            helper: None,
            helper_port: None,
            notes: None,
        }
    }
}

/// `[local]`: the offline setup of `wily ics --local`.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct LocalSection {
    /// TCP port on 127.0.0.1 (0 = any free port).
    pub port: u16,
    /// Handle wily uses on the local server.
    pub handle: String,
    /// Handle of the sparring partner.
    pub sparring_handle: String,
    /// The sparring partner's search depth (plies); it is wily at reduced strength.
    pub sparring_depth: u32,
    /// Time control of the local games.
    pub base: u32,
    pub increment: u32,
    /// Stop after this many games (0 = play until interrupted).
    pub games: u32,
    /// Print a running commentary (moves, scores, results) to stdout.
    pub commentary: bool,
    /// `chess` or `chess960`: what wily seeks on the local server.
    pub variant: String,
}

impl Default for LocalSection {
    fn default() -> Self {
        LocalSection {
            port: 0,
            handle: "wily".into(),
            sparring_handle: "Sparring".into(),
            sparring_depth: 2,
            base: 2,
            increment: 1,
            games: 0,
            commentary: true,
            variant: "chess".into(),
        }
    }
}

/// Colour asked for in a seek.
#[derive(Debug, Clone, Copy, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum SeekColor {
    #[default]
    Any,
    White,
    Black,
}

/// One seek ad (`[[seek.ads]]`).
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct SeekAd {
    /// Minutes.
    pub base: u32,
    /// Seconds per move.
    pub increment: u32,
    pub rated: bool,
    pub color: SeekColor,
    pub min_rating: Option<u32>,
    pub max_rating: Option<u32>,
    /// Ask the server to check the seeker's formula.
    pub formula: bool,
    /// `chess` or `chess960` (sent with the server's words, `server.chess960`).
    pub variant: String,
}

impl Default for SeekAd {
    fn default() -> Self {
        SeekAd {
            base: 3,
            increment: 0,
            rated: true,
            color: SeekColor::Any,
            min_rating: None,
            max_rating: None,
            formula: false,
            variant: "chess".into(),
        }
    }
}

/// `[seek]`
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct SeekSection {
    pub enabled: bool,
    /// Post the ads again after every game.
    pub reseek_after_game: bool,
    /// While idle, post the ads again after this many seconds (0 = only once).
    pub interval_secs: u64,
    /// Manual seeks (FICS's `m` flag): an answer arrives as a match request that the
    /// `[accept]` filters judge, instead of starting a game at once.
    pub manual: bool,
    pub ads: Vec<SeekAd>,
}

impl Default for SeekSection {
    fn default() -> Self {
        SeekSection {
            enabled: true,
            reseek_after_game: true,
            interval_secs: 600,
            manual: true,
            ads: vec![
                SeekAd::default(),
                SeekAd {
                    base: 5,
                    increment: 2,
                    ..SeekAd::default()
                },
            ],
        }
    }
}

/// `[accept.decline]`: what wily tells an opponent whose challenge it declines. An empty
/// string declines silently. `{name}` is replaced by the challenger's handle.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct DeclineMessages {
    pub time_control: String,
    pub rated: String,
    pub unrated: String,
    pub variant: String,
    pub rating: String,
    pub computers: String,
    pub humans: String,
    pub guests: String,
    pub blocked: String,
    pub too_many: String,
    pub busy: String,
    pub closed: String,
}

impl Default for DeclineMessages {
    fn default() -> Self {
        DeclineMessages {
            time_control: "Sorry {name}, I do not play that time control.".into(),
            rated: "Sorry {name}, I only play unrated games right now.".into(),
            unrated: "Sorry {name}, I only play rated games right now.".into(),
            variant: "Sorry {name}, I only play normal chess.".into(),
            rating: "Sorry {name}, your rating is outside my range.".into(),
            computers: "Sorry {name}, I do not play other computers right now.".into(),
            humans: "Sorry {name}, I only play other computers right now.".into(),
            guests: "Sorry {name}, I do not play unregistered players.".into(),
            blocked: String::new(),
            too_many: "Thanks {name}, we have played a lot; let me play someone else for a while."
                .into(),
            busy: "Sorry {name}, I am busy with another game.".into(),
            closed: "Sorry {name}, I am not accepting challenges right now.".into(),
        }
    }
}

/// `[accept]`: the challenge filters.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct AcceptSection {
    pub enabled: bool,
    /// Base time range in minutes.
    pub min_base: u32,
    pub max_base: u32,
    /// Increment range in seconds.
    pub min_increment: u32,
    pub max_increment: u32,
    pub rated: bool,
    pub unrated: bool,
    /// `chess` (lightning, blitz, standard, untimed, non-standard) and/or `chess960`.
    pub variants: Vec<String>,
    /// Opponent rating range (registered players).
    pub min_rating: u32,
    pub max_rating: u32,
    pub humans: bool,
    pub computers: bool,
    /// Unregistered players (rating `++++`).
    pub guests: bool,
    /// When not empty, only these handles may challenge.
    pub allow: Vec<String>,
    pub block: Vec<String>,
    /// At most this many games in a row against the same opponent (0 = no limit).
    pub max_in_row: u32,
    /// At most this many games per hour against the same opponent (0 = no limit).
    pub max_per_hour: u32,
    /// After a finished game, offer the same opponent another (`rematch`), within the
    /// block list and the per-opponent limits above.
    pub rematch: bool,
    /// Abort a game whose opponent has not made a first move after this many seconds
    /// (0 = never).
    pub abort_idle_secs: u64,
    /// Accept up to this many takeback requests per game (0 = decline them all).
    pub takebacks: u32,
    pub decline: DeclineMessages,
}

impl Default for AcceptSection {
    fn default() -> Self {
        AcceptSection {
            enabled: true,
            min_base: 1,
            max_base: 60,
            min_increment: 0,
            max_increment: 30,
            rated: true,
            unrated: true,
            variants: vec!["chess".into()],
            min_rating: 0,
            max_rating: 9999,
            humans: true,
            computers: true,
            guests: true,
            allow: Vec::new(),
            block: Vec::new(),
            max_in_row: 5,
            max_per_hour: 8,
            rematch: false,
            abort_idle_secs: 0,
            takebacks: 0,
            decline: DeclineMessages::default(),
        }
    }
}

/// `[engine]`
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct EngineSection {
    pub threads: usize,
    pub hash_mb: usize,
    /// Think on the opponent's time.
    pub ponder: bool,
    /// Milliseconds kept in reserve per move for lag and transmission.
    pub move_overhead_ms: u64,
    /// Play book moves while in book.
    pub book: bool,
    /// Learning switches as `learn N`: 1 book, 2 position, 4 result (0 = off).
    pub learn: u8,
    /// Book move choice: 0 = weighted random draw (`book random 1`); N > 0 = a search of
    /// N milliseconds among the book moves picks one (`book random 0`).
    pub book_search_ms: u64,
    /// Fixed search depth (plies); 0 = no limit. Meant for reduced-strength sparring.
    pub depth_limit: u32,
    /// Syzygy tablebase folders, `:`-separated; empty = none.
    pub syzygy_path: String,
}

impl Default for EngineSection {
    fn default() -> Self {
        EngineSection {
            threads: 1,
            hash_mb: 64,
            ponder: true,
            move_overhead_ms: 300,
            book: true,
            learn: 7,
            book_search_ms: 0,
            depth_limit: 0,
            syzygy_path: String::new(),
        }
    }
}

/// `[talk]`
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct TalkSection {
    /// Whisper level 0-6 (0 silent, 1 mates, 2 +time/score/depth, 3 +PV, 4 +book,
    /// 5 PV every iteration, 6 nearly everything).
    pub whisper: u8,
    /// Kibitz level, same scale.
    pub kibitz: u8,
    /// Stay silent until a search has visited this many nodes.
    pub noise: u64,
    /// Said at the start of each game (`{opponent}` is replaced); empty = nothing.
    pub greeting: String,
    /// Said at the end of each game; empty = nothing.
    pub goodbye: String,
    /// Kibitz level used against opponents in the AK list.
    pub autokibitz_level: u8,
    /// At most this many whispers/kibitzes per minute.
    pub max_per_minute: u32,
}

impl Default for TalkSection {
    fn default() -> Self {
        TalkSection {
            whisper: 2,
            kibitz: 0,
            noise: 100_000,
            greeting: "Hello {opponent}, good luck and have fun!".into(),
            goodbye: "Thanks for the game, {opponent}.".into(),
            autokibitz_level: 3,
            max_per_minute: 12,
        }
    }
}

/// `[observe]`
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct ObserveSection {
    /// Game numbers to observe after logging in.
    pub games: Vec<u32>,
    /// Handles whose games wily follows.
    pub follow: Vec<String>,
    /// When idle, observe the highest-rated game in progress.
    pub top_game_when_idle: bool,
    /// Whisper and kibitz levels for observed games (same scale as `[talk]`).
    pub whisper: u8,
    pub kibitz: u8,
}

impl Default for ObserveSection {
    fn default() -> Self {
        ObserveSection {
            games: Vec::new(),
            follow: Vec::new(),
            top_game_when_idle: false,
            whisper: 2,
            kibitz: 0,
        }
    }
}

/// `[operators]`
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct OperatorsSection {
    /// Handles allowed to command the bot by tell.
    pub handles: Vec<String>,
    /// The one line anyone else gets in answer to a tell; empty = no answer.
    pub stranger_reply: String,
}

impl Default for OperatorsSection {
    fn default() -> Self {
        OperatorsSection {
            handles: Vec::new(),
            stranger_reply: "Hi! I am wily, a computer program. Challenge me to a game!".into(),
        }
    }
}

/// `[paths]`; relative paths are taken from the settings file's folder.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct PathsSection {
    pub lists: PathBuf,
    pub book: PathBuf,
    pub learning: PathBuf,
    pub logs: PathBuf,
    /// The learning log, as Crafty writes after every game: each game's learned book line
    /// appended to this file in Crafty's `book.lrn` format, and the positions it taught to
    /// `position.lrn` beside it. Absent: `book.lrn` beside the learning store
    /// (`learning`); `""`: off (see [`PathsSection::learning_log_file`]).
    pub learning_log: Option<PathBuf>,
    /// Training positions: each finished game's searched positions appended to this
    /// `.wpos` file for `wily nnue train` (none by default).
    pub training_positions: Option<PathBuf>,
}

impl Default for PathsSection {
    fn default() -> Self {
        PathsSection {
            lists: PathBuf::from("lists"),
            book: PathBuf::from("book"),
            learning: PathBuf::from("book/learn.db"),
            logs: PathBuf::from("logs"),
            learning_log: None,
            training_positions: None,
        }
    }
}

impl PathsSection {
    /// The learning log's `book.lrn` (its `position.lrn` is beside it): `book.lrn` in the
    /// learning store's folder (`book/` by default) unless `learning_log` names another
    /// file; `None` when it is `""`.
    pub fn learning_log_file(&self) -> Option<PathBuf> {
        match &self.learning_log {
            None => Some(self.learning.with_file_name("book.lrn")),
            Some(p) if p.as_os_str().is_empty() => None,
            Some(p) => Some(p.clone()),
        }
    }

    /// Makes every relative path relative to `base`.
    pub fn resolve(&mut self, base: &Path) {
        for p in [
            &mut self.lists,
            &mut self.book,
            &mut self.learning,
            &mut self.logs,
        ] {
            if p.is_relative() {
                *p = base.join(&*p);
            }
        }
        for p in [&mut self.learning_log, &mut self.training_positions]
            .into_iter()
            .flatten()
        {
            // An empty path is "off", not the settings file's folder.
            if p.is_relative() && !p.as_os_str().is_empty() {
                *p = base.join(&*p);
            }
        }
    }
}

/// `[log]`
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct LogSection {
    /// `error`, `warn`, `info`, `debug` or `trace` (or a tracing filter string).
    pub level: String,
    /// Also write daily log files into `paths.logs`.
    pub files: bool,
    /// Log every line sent and received (passwords masked).
    pub wire_debug: bool,
    /// Write one log file per game with the search output.
    pub game_logs: bool,
    /// Whose view the `{score/depth time}` comments of the game files take: `mover`
    /// (the side that moved, as PGN tools read them; default) or `white`.
    pub pgn_scores: PgnScores,
}

/// `log.pgn_scores`: whose view the game files' move comments take.
#[derive(Debug, Clone, Copy, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum PgnScores {
    /// The side that moved (the bot, for its own moves).
    #[default]
    Mover,
    /// White's.
    White,
}

impl Default for LogSection {
    fn default() -> Self {
        LogSection {
            level: "info".into(),
            files: true,
            wire_debug: false,
            game_logs: true,
            pgn_scores: PgnScores::Mover,
        }
    }
}

/// One `[[accounts]]` entry.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct AccountSection {
    pub handle: String,
    /// The server; `[server]`'s when absent.
    #[serde(default)]
    pub host: Option<String>,
    #[serde(default)]
    pub port: Option<u16>,
    /// Name of the environment variable holding this account's password.
    #[serde(default)]
    pub password_env: Option<String>,
    /// Folder of this account's opponent lists; `paths.lists` when absent.
    #[serde(default)]
    pub lists: Option<PathBuf>,
    /// This account's seek ads; `[seek]`'s when absent.
    #[serde(default)]
    pub seek_ads: Option<Vec<SeekAd>>,
    /// Engine budget of this account (search threads, hash MiB); `[engine]`'s when absent.
    #[serde(default)]
    pub threads: Option<usize>,
    #[serde(default)]
    pub hash_mb: Option<usize>,
    /// This account's finger notes; `server.notes` when absent.
    #[serde(default)]
    pub notes: Option<Vec<String>>,
}
