//! The bot's state: the [`Session`] value, its shared part [`Bot`], and the small
//! helpers every handler uses (search ids, starting and stopping the one search). The
//! session is the shared part beside one struct per concept, each declared in its concept's
//! folder with the handlers that change it as its methods: `matching` ([`Matching`],
//! `find/`), `play` ([`Playing`], `play/`, with the adjourned game), `observing`
//! ([`Observing`], `watch/`), `notes` (`ops/notes.rs`) and `public` (`public/parse.rs`).
//! A handler takes the shared part (and whatever else it reads) as an argument; no other
//! folder adds methods to `Session`. The entry point and the dispatch are `session.rs`,
//! which also sequences what one concept's event asks of another (after wily's game: leave,
//! `resume`, rematch, seek).

use crate::connection::Connection;
use crate::find::state::Matching;
use crate::hooks::BookSource;
use crate::input::{Action, MoveSource, SearchSpec};
use crate::ops::hooks::HookRunner;
use crate::play::state::Playing;
pub use crate::play::state::Totals;
use crate::players::Players;
use crate::talk::Report;
use crate::tourney::TourneyPlay;
use crate::watch::state::Observing;
use config::Config;
use cozy_chess::{Board, Move};
use lists::{Category, OpponentLists, ServerTitles};
use std::time::Instant;

/// What a running search is for.
#[derive(Debug, Clone, PartialEq)]
pub enum Purpose {
    /// Choosing wily's move in game `game`.
    Think { game: u32 },
    /// Thinking on the opponent's time, expecting `predicted`.
    Ponder { game: u32, predicted: Move },
    /// Analysing an observed game.
    Analyse { game: u32 },
}

/// The one search the engine runs.
#[derive(Debug, Clone)]
pub struct ActiveSearch {
    pub id: u64,
    pub purpose: Purpose,
    pub root: Board,
    /// When the update that asked for this search arrived.
    pub since: Instant,
    /// When the search was started.
    pub started: Instant,
    pub source: MoveSource,
    pub last_report: Option<Report>,
}

/// What every concept's handlers share: the settings, lists and book, the connection,
/// what is known of other players, the engine's one search, the tournament manager, the
/// operator hooks' timers, and whether the bot is leaving. Each concept's own state is a
/// struct of its folder, beside this one in [`Session`]; a handler is a method of its
/// concept's struct and takes this part (and any other it reads) as an argument.
pub(crate) struct Bot {
    pub cfg: Config,
    pub lists: OpponentLists,
    pub book: Box<dyn BookSource>,
    /// Who wily is on which server, and whether the connection is up (`connection.rs`).
    pub conn: Connection,
    /// Ratings, titles and past games of other players (`players.rs`).
    pub players: Players,
    /// The engine's one search, if running.
    pub search: Option<ActiveSearch>,
    pub next_id: u64,
    /// A shutdown was asked for: no new games.
    pub quitting: bool,
    /// Tournaments run by a director bot (`[tourney]`, `tourney.rs`).
    pub tourney: TourneyPlay,
    /// The operator hooks' rate limit and idle timer (`ops/hooks.rs`).
    pub hooks: HookRunner,
}

/// The bot: the shared part and one struct per concept, each in its own folder.
pub struct Session {
    pub(crate) bot: Bot,
    /// Seeking, accepting and the challenge waiting to be judged (`find/state.rs`).
    pub(crate) matching: Matching,
    /// wily's own game, the adjourned one, and the totals (`play/state.rs`).
    pub(crate) play: Playing,
    /// Observed, watched and followed games (`watch/state.rs`).
    pub(crate) observing: Observing,
    /// The account's finger notes (`ops/notes.rs`).
    pub(crate) notes: crate::ops::notes::Notes,
    /// The public commands' rate limits and counts (`public/parse.rs`).
    pub(crate) public: crate::public::parse::PublicLimits,
}

impl Bot {
    /// `name` is wily's own handle.
    pub(crate) fn is_me(&self, name: &str) -> bool {
        self.conn.is_me(name)
    }

    pub(crate) fn new_search_id(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    /// Stops the running search, if any (its result will be ignored).
    pub(crate) fn stop_search(&mut self, out: &mut Vec<Action>) {
        if let Some(s) = self.search.take() {
            out.push(Action::StopSearch { id: s.id });
        }
    }

    /// Starts a search for `purpose` (its id given here), asked for by an input that
    /// arrived at `since`.
    pub(crate) fn start_search(
        &mut self,
        mut spec: SearchSpec,
        purpose: Purpose,
        since: Instant,
        started: Instant,
        out: &mut Vec<Action>,
    ) {
        spec.id = self.new_search_id();
        self.search = Some(ActiveSearch {
            id: spec.id,
            purpose,
            root: spec.board.clone(),
            since,
            started,
            source: MoveSource::Search,
            last_report: None,
        });
        out.push(Action::StartSearch(Box::new(spec)));
    }

    /// What the running search is for, if one runs.
    pub(crate) fn purpose(&self) -> Option<&Purpose> {
        self.search.as_ref().map(|s| &s.purpose)
    }

    /// Stops the search if it analyses an observed game (`game`, or any).
    pub(crate) fn stop_analysis(&mut self, game: Option<u32>, out: &mut Vec<Action>) {
        if matches!(self.purpose(), Some(Purpose::Analyse { game: g }) if game.is_none_or(|n| n == *g))
        {
            self.stop_search(out);
        }
    }

    /// A computer by the lists (`C`) or the server's `(C)` title wily has seen.
    pub(crate) fn computer(&self, name: &str) -> bool {
        let titles: ServerTitles = self.players.titles_of(name);
        self.lists.classify(name, titles).category == Category::Computer
    }
}

impl Session {
    /// A session for `cfg` with the opponent lists already loaded.
    pub fn new(cfg: Config, lists: OpponentLists, book: Box<dyn BookSource>) -> Session {
        let site = if cfg.server.local {
            "127.0.0.1 (wily local server)".to_string()
        } else {
            cfg.server.host.clone()
        };
        Session {
            matching: Matching::new(cfg.seek.enabled, cfg.accept.enabled, cfg.seek.manual),
            observing: Observing::new(&cfg),
            play: Playing::default(),
            notes: crate::ops::notes::Notes::default(),
            public: crate::public::parse::PublicLimits::default(),
            bot: Bot {
                tourney: TourneyPlay::new(cfg.tourney.clone()),
                cfg,
                lists,
                book,
                conn: Connection::new(site),
                players: Players::default(),
                search: None,
                next_id: 1,
                quitting: false,
                hooks: HookRunner::default(),
            },
        }
    }

    /// The evaluation the engine uses, as the engine describes it (`{eval}` in the
    /// finger notes, the public `info`).
    pub fn set_eval(&mut self, eval: &str) {
        self.notes.eval = eval.to_string();
    }

    /// Games this run plays (0: no limit). After the last one the bot leaves at once: no
    /// seek, rematch or `resume` goes out that would start a game it would walk out of.
    pub fn set_game_limit(&mut self, games: u32) {
        self.play.game_limit = games;
    }

    pub fn config(&self) -> &Config {
        &self.bot.cfg
    }

    pub fn lists(&self) -> &OpponentLists {
        &self.bot.lists
    }

    pub fn totals(&self) -> Totals {
        self.play.totals
    }

    /// Engine time spent choosing wily's own moves so far, milliseconds.
    pub fn play_ms(&self) -> u64 {
        self.play.think_ms
    }

    /// The tournament manager (phase and counts).
    pub fn tourney(&self) -> &TourneyPlay {
        &self.bot.tourney
    }

    /// True while a game is in progress.
    pub fn playing(&self) -> bool {
        self.play.game.is_some()
    }

    /// The search in progress, if any.
    pub fn active_search(&self) -> Option<&ActiveSearch> {
        self.bot.search.as_ref()
    }

    /// True once the session wants to exit (quit requested and no game in progress).
    pub fn finished(&self) -> bool {
        self.bot.quitting && self.play.game.is_none()
    }

    /// True (once) when a newer login of the account took over the last connection: the
    /// caller waits longer before reconnecting, so two running bots do not keep
    /// replacing each other's session.
    pub fn take_taken_over(&mut self) -> bool {
        std::mem::take(&mut self.bot.conn.taken_over)
    }

    /// The interface variables to send at the next login (`connection.rs`).
    pub fn login_ivariables(&self) -> Vec<(String, String)> {
        self.bot.conn.login_ivariables(&self.bot.cfg)
    }

    /// The seek commands the ads make now (`find/seeking.rs`).
    pub fn seek_commands(&self) -> Vec<String> {
        self.matching.seek_commands(&self.bot)
    }

    /// What the watcher did so far (`watch/handle.rs`).
    pub fn watch_totals(&self) -> crate::watch::candidates::WatchTotals {
        self.observing.watch.totals
    }

    /// One line per watched game, for the status and the dashboard.
    pub fn watched_games(&self) -> Vec<String> {
        self.observing.watched_games()
    }

    /// Sets the name the server knows wily by (tests, or before the login event).
    pub fn set_handle(&mut self, handle: &str) {
        self.bot.conn.me = handle.to_string();
    }
}

/// Text wily sends in a tell: printable, one line, at most 400 bytes, and no `;`, which
/// lasker (and the FICS-lineage servers like it) reads as a command separator: the rest of
/// the line would run as a command of wily's own. Each `;` is sent as `,`.
pub(crate) fn sanitize(s: &str) -> String {
    let mut t: String = s
        .chars()
        .filter(|c| !c.is_control())
        .map(|c| if c == ';' { ',' } else { c })
        .collect();
    if t.len() > 400 {
        let mut cut = 400;
        while !t.is_char_boundary(cut) {
            cut -= 1;
        }
        t.truncate(cut);
    }
    t
}
