//! The sections of `config.toml`, each a serde struct with its defaults, declared with
//! `settings!` (the `settings` crate), one line per key (type, default, range, doc), and
//! the file itself ([`Config`], its sections listed once by `config_file!`).
//!
//! Units follow the chess servers: base times in minutes, increments in seconds; scores
//! in centipawns unless a key says pawns. Every key is documented in the shipped
//! `config.toml` and in `docs/bot.md` (its settings reference).

use ics::Dialect;
/// `[opponents]` is declared with the rule that reads it, in the `lists` crate.
pub use lists::OpponentsSection;
use serde::Deserialize;
use settings::{settings, DefaultText};
use std::fmt;
use std::path::{Path, PathBuf};

/// Declares the settings file's sections once: the [`Config`] struct (serde: unknown
/// sections refused, missing ones defaulted) and [`Config::settings`], every section's
/// reference rows in the file's order.
macro_rules! config_file {
    (
        pub struct Config {
            $($(#[doc = $doc:literal])* pub $field:ident : $ty:ty,)*
        }
    ) => {
        /// The whole settings file. Every section has sensible defaults, so an empty file
        /// (or no file at all) gives a bot that plays offline against the local server.
        #[derive(Debug, Clone, Default, Deserialize, PartialEq)]
        #[serde(deny_unknown_fields, default)]
        pub struct Config {
            $($(#[doc = $doc])* pub $field: $ty,)*
        }

        impl Config {
            /// The reference rows of every key, section by section in the file's order
            /// (nested tables after their section's keys; `[[accounts]]` as one entry's
            /// keys).
            pub fn settings() -> Vec<settings::Setting> {
                [$(<$ty as settings::Rows>::rows()),*].concat()
            }
        }
    };
}

config_file! {
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

settings! {
    /// `[server]`
    pub struct ServerSection in "server" {
        /// Play offline on the in-process local server instead of connecting anywhere.
        local: bool = true;
        /// The server's host name.
        host: String = "freechess.org".into();
        /// The server's TCP port.
        port: u16 = 5000;
        /// `fics` (FICS and its lineage) or `icc`.
        dialect: Dialect = Dialect::Fics;
        /// Timeseal v1 on FICS.
        timeseal: bool = true;
        /// Login name; `guest` logs in anonymously.
        handle: String = "guest".into();
        /// The password (or `password_env`, not both).
        password: Option<Secret> = None;
        /// Name of an environment variable holding the password.
        password_env: Option<String> = None;
        /// Give up a connection attempt after this many seconds.
        connect_timeout_secs: u64 = 30, range 1..=600;
        /// Send a harmless command after this many idle seconds (0 = never).
        keepalive_secs: u64 = 600;
        /// Reconnection backoff: the first wait, seconds.
        reconnect_min_secs: u64 = 5, range 1..=3600;
        /// Reconnection backoff: the longest wait, seconds.
        reconnect_max_secs: u64 = 600, range 1..=86_400;
        /// The words that ask this server for a Chess960 game in `seek` and `match`: `wild
        /// fr` on FICS, `fr` on lasker 2.2 / capablanca servers (whose `wild fr` is another
        /// game), `w22` on ICC.
        chess960: String = "wild fr".into();
        /// ICC only: read the game through ICC's level-2 datagrams (turned on at login);
        /// `false` reads style-12 text as on FICS.
        icc_level2: bool = true;
        /// A helper program wily talks to the server through, as xboard's `-icshelper`: ICC's
        /// `timestamp` (lag compensation). Started as `PROGRAM HOST PORT`.
        helper: Option<PathBuf> = None;
        /// With `helper`: the helper opens this port on 127.0.0.1 and wily connects to it
        /// (unset: wily talks through the helper's standard input and output).
        helper_port: Option<u16> = None;
        /// The account's finger notes, one string a line (fields: `public.rs`'s
        /// `NOTE_FIELDS`). Unset: the default description, written only to an account that
        /// has no notes; `[]`: wily leaves the notes alone.
        notes: Option<Vec<String>> = None;
    }
}

settings! {
    /// `[local]`: the offline setup of `wily ics --local`.
    pub struct LocalSection in "local" {
        /// TCP port on 127.0.0.1 (0 = any free port).
        port: u16 = 0;
        /// Handle wily uses on the local server.
        handle: String = "wily".into();
        /// Handle of the sparring partner.
        sparring_handle: String = "Sparring".into();
        /// The sparring partner's search depth (plies); it is wily at reduced strength.
        sparring_depth: u32 = 2, range 1..=64;
        /// Base time of the local games, minutes.
        base: u32 = 2, range 0..=600;
        /// Increment of the local games, seconds.
        increment: u32 = 1, range 0..=600;
        /// Stop after this many games (0 = play until interrupted).
        games: u32 = 0;
        /// Print a running commentary (moves, scores, results) to stdout.
        commentary: bool = true;
        /// `chess` or `chess960`: what wily seeks on the local server.
        variant: String = "chess".into();
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

impl DefaultText for SeekColor {
    fn default_text(&self) -> String {
        match self {
            SeekColor::Any => "\"any\"",
            SeekColor::White => "\"white\"",
            SeekColor::Black => "\"black\"",
        }
        .into()
    }
}

settings! {
    /// One seek ad (`[[seek.ads]]`).
    pub struct SeekAd in "seek.ads" {
        /// The ad's base time, minutes.
        base: u32 = 3, range 0..=600;
        /// Seconds added per move.
        increment: u32 = 0, range 0..=600;
        /// A rated game (guests always seek unrated).
        rated: bool = true;
        /// The colour asked for: `any`, `white` or `black`.
        color: SeekColor = SeekColor::Any;
        /// The lowest rating the ad is for (no lower limit when unset).
        min_rating: Option<u32> = None;
        /// The highest rating the ad is for (no upper limit when unset).
        max_rating: Option<u32> = None;
        /// Ask the server to check the seeker's formula.
        formula: bool = false;
        /// `chess` or `chess960` (sent with the server's words, `server.chess960`).
        variant: String = "chess".into();
    }
}

/// As the reference shows an ad: an inline table of its time control and whether rated.
impl DefaultText for SeekAd {
    fn default_text(&self) -> String {
        format!(
            "{{ base = {}, increment = {}, rated = {} }}",
            self.base, self.increment, self.rated
        )
    }
}

settings! {
    /// `[seek]`
    pub struct SeekSection in "seek" {
        /// Post the seek ads while idle.
        enabled: bool = true;
        /// Post the ads again after every game.
        reseek_after_game: bool = true;
        /// While idle, post the ads again after this many seconds (0 = only once).
        interval_secs: u64 = 600;
        /// Manual seeks (FICS's `m` flag): an answer arrives as a match request that the
        /// `[accept]` filters judge, instead of starting a game at once.
        manual: bool = true;
    }
    tables {
        /// The seek ads (`[[seek.ads]]`).
        ads: Vec<SeekAd> = vec![
            SeekAd::default(),
            SeekAd {
                base: 5,
                increment: 2,
                ..SeekAd::default()
            },
        ], rows SeekAd;
    }
}

settings! {
    /// `[accept.decline]`: what wily tells an opponent whose challenge it declines. An
    /// empty string declines silently. `{name}` is replaced by the challenger's handle.
    pub struct DeclineMessages in "accept.decline" {
        /// A time control outside the accepted ranges.
        time_control: String = "Sorry {name}, I do not play that time control.".into();
        /// A rated game while only unrated ones are accepted.
        rated: String = "Sorry {name}, I only play unrated games right now.".into();
        /// An unrated game while only rated ones are accepted.
        unrated: String = "Sorry {name}, I only play rated games right now.".into();
        /// A variant wily does not accept.
        variant: String = "Sorry {name}, I only play normal chess.".into();
        /// A rating outside the accepted range.
        rating: String = "Sorry {name}, your rating is outside my range.".into();
        /// A computer while computers are not accepted.
        computers: String = "Sorry {name}, I do not play other computers right now.".into();
        /// A person while only computers are accepted.
        humans: String = "Sorry {name}, I only play other computers right now.".into();
        /// A guest (unregistered) while guests are not accepted.
        guests: String = "Sorry {name}, I do not play unregistered players.".into();
        /// A challenger on the block list (silent by default).
        blocked: String = String::new();
        /// Past the per-opponent limits (games in a row, games an hour).
        too_many: String =
            "Thanks {name}, we have played a lot; let me play someone else for a while.".into();
        /// A challenge during a game.
        busy: String = "Sorry {name}, I am busy with another game.".into();
        /// Accepting switched off.
        closed: String = "Sorry {name}, I am not accepting challenges right now.".into();
    }
}

settings! {
    /// `[accept]`: the challenge filters.
    pub struct AcceptSection in "accept" {
        /// Accept challenges at all.
        enabled: bool = true;
        /// Shortest base time accepted, minutes.
        min_base: u32 = 1;
        /// Longest base time accepted, minutes.
        max_base: u32 = 60, range 0..=600;
        /// Smallest increment accepted, seconds.
        min_increment: u32 = 0;
        /// Largest increment accepted, seconds.
        max_increment: u32 = 30, range 0..=600;
        /// Accept rated games.
        rated: bool = true;
        /// Accept unrated games.
        unrated: bool = true;
        /// `chess` (lightning, blitz, standard, untimed, non-standard) and/or `chess960`.
        variants: Vec<String> = vec!["chess".into()];
        /// Lowest opponent rating accepted (registered players).
        min_rating: u32 = 0;
        /// Highest opponent rating accepted (registered players).
        max_rating: u32 = 9999;
        /// Accept challenges from people.
        humans: bool = true;
        /// Accept challenges from computers.
        computers: bool = true;
        /// Unregistered players (rating `++++`).
        guests: bool = true;
        /// When not empty, only these handles may challenge.
        allow: Vec<String> = Vec::new();
        /// These handles may never challenge.
        block: Vec<String> = Vec::new();
        /// At most this many games in a row against the same opponent (0 = no limit).
        max_in_row: u32 = 5;
        /// At most this many games per hour against the same opponent (0 = no limit).
        max_per_hour: u32 = 8;
        /// After a finished game, offer the same opponent another (`rematch`), within the
        /// block list and the per-opponent limits above.
        rematch: bool = false;
        /// Abort a game whose opponent has not made a first move after this many seconds
        /// (0 = never).
        abort_idle_secs: u64 = 0, range 0..=86_400;
        /// Accept up to this many takeback requests per game (0 = decline them all).
        takebacks: u32 = 0, range 0..=100;
    }
    tables {
        /// What wily tells a declined challenger (`[accept.decline]`).
        decline: DeclineMessages = DeclineMessages::default(), rows DeclineMessages;
    }
}

settings! {
    /// `[engine]`
    pub struct EngineSection in "engine" {
        /// Search threads.
        threads: usize = 1, range 1..=256;
        /// Hash table size, MiB.
        hash_mb: usize = 64, range 1..=65_536;
        /// Think on the opponent's time.
        ponder: bool = true;
        /// Milliseconds kept in reserve per move for lag and transmission.
        move_overhead_ms: u64 = 300, range 0..=10_000;
        /// Play book moves while in book.
        book: bool = true;
        /// Learning switches as `learn N`: 1 book, 2 position, 4 result (0 = off).
        learn: u8 = 7, range 0..=7;
        /// Book move choice: 0 = weighted random draw (`book random 1`); N > 0 = a search of
        /// N milliseconds among the book moves picks one (`book random 0`).
        book_search_ms: u64 = 0, range 0..=10_000;
        /// Fixed search depth (plies); 0 = no limit. Meant for reduced-strength sparring.
        depth_limit: u32 = 0, range 0..=128;
        /// Syzygy tablebase folders, `:`-separated; empty = none.
        syzygy_path: String = String::new();
    }
}

settings! {
    /// `[talk]`
    pub struct TalkSection in "talk" {
        /// Whisper level 0-6 (0 silent, 1 mates, 2 +time/score/depth, 3 +PV, 4 +book,
        /// 5 PV every iteration, 6 nearly everything).
        whisper: u8 = 2, range 0..=6;
        /// Kibitz level, same scale.
        kibitz: u8 = 0, range 0..=6;
        /// Stay silent until a search has visited this many nodes.
        noise: u64 = 100_000;
        /// Said at the start of each game (`{opponent}` is replaced); empty = nothing.
        greeting: String = "Hello {opponent}, good luck and have fun!".into();
        /// Said at the end of each game; empty = nothing.
        goodbye: String = "Thanks for the game, {opponent}.".into();
        /// Kibitz level used against opponents in the AK list.
        autokibitz_level: u8 = 3, range 0..=6;
        /// At most this many whispers/kibitzes per minute.
        max_per_minute: u32 = 12, range 1..=120;
    }
}

settings! {
    /// `[observe]`
    pub struct ObserveSection in "observe" {
        /// Game numbers to observe after logging in.
        games: Vec<u32> = Vec::new();
        /// Handles whose games wily follows.
        follow: Vec<String> = Vec::new();
        /// When idle, observe the highest-rated game in progress.
        top_game_when_idle: bool = false;
        /// Whisper level for observed games (same scale as `[talk]`).
        whisper: u8 = 2, range 0..=6;
        /// Kibitz level for observed games (same scale as `[talk]`).
        kibitz: u8 = 0, range 0..=6;
    }
}

settings! {
    /// `[operators]`
    pub struct OperatorsSection in "operators" {
        /// Handles allowed to command the bot by tell.
        handles: Vec<String> = Vec::new();
        /// The one line anyone else gets in answer to a tell; empty = no answer.
        stranger_reply: String =
            "Hi! I am wily, a computer program. Challenge me to a game!".into();
    }
}

settings! {
    /// `[paths]`; relative paths are taken from the settings file's folder.
    pub struct PathsSection in "paths" {
        /// Folder of the opponent lists.
        lists: PathBuf = PathBuf::from("lists");
        /// Folder of the opening book.
        book: PathBuf = PathBuf::from("book");
        /// The learning store.
        learning: PathBuf = PathBuf::from("book/learn.db");
        /// Folder of the log files.
        logs: PathBuf = PathBuf::from("logs");
        /// The learning log, as Crafty writes after every game: each game's learned book line
        /// appended to this file in Crafty's `book.lrn` format, and the positions it taught to
        /// `position.lrn` beside it. Absent: `book.lrn` beside the learning store
        /// (`learning`); `""`: off (see [`PathsSection::learning_log_file`]).
        learning_log: Option<PathBuf> = None;
        /// Training positions: each finished game's searched positions appended to this
        /// `.wpos` file for `wily nnue train` (none by default).
        training_positions: Option<PathBuf> = None;
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

settings! {
    /// `[log]`
    pub struct LogSection in "log" {
        /// `error`, `warn`, `info`, `debug` or `trace` (or a tracing filter string).
        level: String = "info".into();
        /// Also write daily log files into `paths.logs`.
        files: bool = true;
        /// Log every line sent and received (passwords masked).
        wire_debug: bool = false;
        /// Write one log file per game with the search output.
        game_logs: bool = true;
        /// Whose view the `{score/depth time}` comments of the game files take: `mover`
        /// (the side that moved, as PGN tools read them; default) or `white`.
        pgn_scores: PgnScores = PgnScores::Mover;
    }
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

impl DefaultText for PgnScores {
    fn default_text(&self) -> String {
        match self {
            PgnScores::Mover => "\"mover\"",
            PgnScores::White => "\"white\"",
        }
        .into()
    }
}

impl DefaultText for Secret {
    fn default_text(&self) -> String {
        "\"********\"".into()
    }
}

settings! {
    /// One `[[accounts]]` entry: an account of its own in the same process; what it
    /// leaves unset comes from the rest of the file.
    pub struct AccountSection in "accounts" {
        /// The account's handle on its server.
        handle: String = String::new();
        /// Its server's host (`server.host` when unset).
        host: Option<String> = None;
        /// Its server's port (`server.port` when unset).
        port: Option<u16> = None;
        /// The environment variable holding this account's password.
        password_env: Option<String> = None;
        /// The folder of this account's opponent lists (`paths.lists` when unset).
        lists: Option<PathBuf> = None;
        /// This account's seek ads (`[seek]`'s when unset).
        seek_ads: Option<Vec<SeekAd>> = None;
        /// This account's search threads (`engine.threads` when unset).
        threads: Option<usize> = None;
        /// This account's hash table, MiB (`engine.hash_mb` when unset).
        hash_mb: Option<usize> = None;
        /// This account's finger notes (`server.notes` when unset).
        notes: Option<Vec<String>> = None;
    }
}
