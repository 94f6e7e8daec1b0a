//! The server bot's state machine: [`Input`] in, [`Action`]s out, no sockets, no clocks
//! of its own (the caller passes `now`). Login → idle/seeking → playing | observing.
//!
//! This file holds the session itself, login, seeking, challenges, tells and timers; the
//! game in progress is handled in [`crate::bot::play`], observing in
//! [`crate::bot::observe`], operator commands in [`crate::bot::command`].

use crate::bot::challenge::{judge, ChallengeInfo, OpponentHistory};
use crate::bot::game::PlayedGame;
use crate::bot::hooks::BookSource;
use crate::bot::input::{Action, Challenge, Input, ServerEvent};
use crate::bot::observe::Observer;
use crate::bot::operator;
use crate::bot::talk::Report;
use crate::config::{Config, Dialect, SeekColor};
use crate::lists::{valid_handle, OpponentLists, ServerTitles};
use cozy_chess::{Board, Move};
use std::collections::HashMap;
use std::time::{Duration, Instant};

pub use crate::bot::input::{BoardUpdate, MoveSource, Relation};

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

/// A challenge waiting a moment for a `--** X is a computer **--` line.
#[derive(Debug, Clone)]
pub(crate) struct PendingChallenge {
    pub challenge: Challenge,
    pub at: Instant,
}

/// Running totals for `status`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Totals {
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub declined: u32,
}

/// Wait this long after a challenge for the computer notice before deciding.
const CHALLENGE_GRACE: Duration = Duration::from_millis(150);
/// Seeks wait this long for an adjourned game to be resumed.
const ADJOURNED_WAIT: Duration = Duration::from_secs(300);
/// Answer a stranger's tells at most this often.
const STRANGER_GAP: Duration = Duration::from_secs(600);

/// The bot.
pub struct Session {
    pub(crate) cfg: Config,
    pub(crate) lists: OpponentLists,
    pub(crate) book: Box<dyn BookSource>,
    pub(crate) me: String,
    pub(crate) connected: bool,
    pub(crate) seeking: bool,
    pub(crate) accepting: bool,
    pub(crate) last_seek: Option<Instant>,
    pub(crate) game: Option<PlayedGame>,
    /// An adjourned (or interrupted) game waiting to be resumed.
    pub(crate) adjourned: Option<PlayedGame>,
    /// When the adjourned game started waiting (seeks wait a while for it).
    pub(crate) adjourned_at: Option<Instant>,
    pub(crate) start_info: Option<crate::bot::play::StartInfo>,
    pub(crate) ratings: HashMap<String, u32>,
    pub(crate) titles: HashMap<String, ServerTitles>,
    pub(crate) history: OpponentHistory,
    pub(crate) pending: Option<PendingChallenge>,
    pub(crate) observer: Observer,
    pub(crate) search: Option<ActiveSearch>,
    pub(crate) next_id: u64,
    pub(crate) new_game_flag: bool,
    /// `resume` was sent on this connection.
    pub(crate) resume_asked: bool,
    pub(crate) quitting: bool,
    pub(crate) strangers: HashMap<String, Instant>,
    pub(crate) totals: Totals,
    pub(crate) site: String,
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
            seeking: cfg.seek.enabled,
            accepting: cfg.accept.enabled,
            observer: Observer::new(&cfg.observe),
            cfg,
            lists,
            book,
            me: String::new(),
            connected: false,
            last_seek: None,
            game: None,
            adjourned: None,
            adjourned_at: None,
            start_info: None,
            ratings: HashMap::new(),
            titles: HashMap::new(),
            history: OpponentHistory::default(),
            pending: None,
            search: None,
            next_id: 1,
            new_game_flag: true,
            resume_asked: false,
            quitting: false,
            strangers: HashMap::new(),
            totals: Totals::default(),
            site,
        }
    }

    pub fn config(&self) -> &Config {
        &self.cfg
    }

    pub fn lists(&self) -> &OpponentLists {
        &self.lists
    }

    pub fn totals(&self) -> Totals {
        self.totals
    }

    /// True while a game is in progress.
    pub fn playing(&self) -> bool {
        self.game.is_some()
    }

    /// The search in progress, if any.
    pub fn active_search(&self) -> Option<&ActiveSearch> {
        self.search.as_ref()
    }

    /// True once the session wants to exit (quit requested and no game in progress).
    pub fn finished(&self) -> bool {
        self.quitting && self.game.is_none()
    }

    /// Sets the name the server knows wily by (tests, or before the login event).
    pub fn set_handle(&mut self, handle: &str) {
        self.me = handle.to_string();
    }

    pub(crate) fn is_me(&self, name: &str) -> bool {
        !self.me.is_empty() && name.eq_ignore_ascii_case(&self.me)
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

    /// The one entry point: feed an input, get the actions to perform.
    pub fn handle(&mut self, input: Input, now: Instant) -> Vec<Action> {
        let mut out = Vec::new();
        // A challenge waits for its computer notice only until the next other server
        // event (or a tick after a short grace).
        let other_server_event = matches!(&input, Input::Server(e)
            if !matches!(e, ServerEvent::IsComputer { .. }));
        if other_server_event {
            if let Some(p) = self.pending.take() {
                self.decide_challenge(p.challenge, now, &mut out);
            }
        }
        match input {
            Input::Server(ev) => self.server_event(ev, now, &mut out),
            Input::Info { id, info } => self.search_info(id, info, now, &mut out),
            Input::Done { id, result } => self.search_done(id, result, now, &mut out),
            Input::Tick => self.tick(now, &mut out),
            Input::Shutdown { now: at_once } => self.shutdown(at_once, &mut out),
        }
        out
    }

    fn server_event(&mut self, ev: ServerEvent, now: Instant, out: &mut Vec<Action>) {
        match ev {
            ServerEvent::LoggedIn { handle } => self.logged_in(handle, now, out),
            ServerEvent::Disconnected => self.disconnected(out),
            ServerEvent::Board(u) => match u.relation {
                Relation::MyMove | Relation::OpponentMove => self.own_board(*u, now, out),
                Relation::Observing => self.observed_board(*u, now, out),
                Relation::Other => {}
            },
            ServerEvent::Creating {
                white,
                black,
                white_rating,
                black_rating,
            } => {
                for (n, r) in [(white, white_rating), (black, black_rating)] {
                    if let Some(r) = r {
                        self.ratings.insert(n.to_ascii_lowercase(), r);
                    }
                }
            }
            ServerEvent::GameStart {
                game,
                white,
                black,
                continuing,
                rated,
                category,
            } => self.game_start(game, white, black, continuing, rated, category, now, out),
            ServerEvent::GameEnd {
                game,
                white,
                black,
                result,
                kind,
                text,
            } => self.game_end(game, &white, &black, &result, kind, &text, now, out),
            ServerEvent::Challenge(c) => {
                if let Some(r) = c.rating {
                    self.ratings.insert(c.name.to_ascii_lowercase(), r);
                }
                self.remember_titles(&c.name, c.titles);
                self.pending = Some(PendingChallenge {
                    challenge: c,
                    at: now,
                });
            }
            ServerEvent::IsComputer { name } => {
                self.remember_titles(
                    &name,
                    ServerTitles {
                        computer: true,
                        ..ServerTitles::default()
                    },
                );
                if let Some(p) = &mut self.pending {
                    if p.challenge.name.eq_ignore_ascii_case(&name) {
                        p.challenge.titles.computer = true;
                    }
                }
            }
            ServerEvent::Offer { from, kind } => self.offer(&from, kind, out),
            ServerEvent::Tell { from, titles, text } => {
                self.remember_titles(&from, titles);
                self.tell(&from, &text, now, out);
            }
            ServerEvent::Arrival { name, adjourned } => {
                let ours = self
                    .adjourned
                    .as_ref()
                    .is_some_and(|g| g.opponent().eq_ignore_ascii_case(&name));
                if (adjourned || ours) && self.game.is_none() && valid_handle(&name) {
                    out.push(Action::Send(format!("match {name}")));
                }
            }
            ServerEvent::Titles { name, titles } => self.remember_titles(&name, titles),
            ServerEvent::AdjournedGames { count } => {
                // After a restart wily does not know its adjourned games; the server
                // does: ask it to resume one with a player who is online.
                if count > 0
                    && self.game.is_none()
                    && self.adjourned.is_none()
                    && !self.resume_asked
                {
                    self.resume_asked = true;
                    out.push(Action::Send("resume".into()));
                }
            }
            ServerEvent::IllegalMove { text } => self.illegal_move(&text, out),
            ServerEvent::NotYourMove => self.illegal_move("It is not your move.", out),
            ServerEvent::ObserveStarted { game } => self.observer.started(game),
            ServerEvent::ObserveStopped { game } => self.observe_stopped(game, now, out),
        }
    }

    pub(crate) fn remember_titles(&mut self, name: &str, t: ServerTitles) {
        if t == ServerTitles::default() {
            return;
        }
        if self.titles.len() > 10_000 {
            self.titles.clear();
        }
        let e = self.titles.entry(name.to_ascii_lowercase()).or_default();
        *e = e.merge(t);
    }

    fn logged_in(&mut self, handle: String, now: Instant, out: &mut Vec<Action>) {
        tracing::info!("logged in as {handle}");
        self.me = handle;
        self.connected = true;
        self.last_seek = None;
        // A game interrupted by the disconnect is adjourned (or lost) on the server.
        if let Some(g) = self.game.take() {
            self.adjourned = Some(g);
            self.adjourned_at = Some(now);
        }
        if let Some(g) = &self.adjourned {
            let opp = g.opponent().to_string();
            if valid_handle(&opp) {
                out.push(Action::Commentary(format!(
                    "reconnected; asking {opp} to resume game {}",
                    g.number
                )));
                out.push(Action::Send(format!("match {opp}")));
            }
        }
        for cmd in self.observer.login_commands() {
            out.push(Action::Send(cmd));
        }
        self.maybe_seek(now, true, out);
    }

    fn disconnected(&mut self, out: &mut Vec<Action>) {
        if self.connected {
            tracing::warn!("disconnected from the server");
        }
        self.connected = false;
        self.resume_asked = false;
        self.pending = None;
        self.stop_search(out);
        self.observer.clear();
    }

    /// Posts the seek ads when idle and seeking (again after `interval_secs`, or at once
    /// with `force`).
    pub(crate) fn maybe_seek(&mut self, now: Instant, force: bool, out: &mut Vec<Action>) {
        if !self.connected || !self.seeking || self.game.is_some() || self.quitting {
            return;
        }
        if self.cfg.seek.ads.is_empty() {
            return;
        }
        let waiting = self.adjourned.is_some()
            && self
                .adjourned_at
                .is_some_and(|t| now.saturating_duration_since(t) < ADJOURNED_WAIT);
        if waiting {
            return;
        }
        let due = match self.last_seek {
            None => true,
            Some(t) => {
                force
                    || (self.cfg.seek.interval_secs > 0
                        && now.saturating_duration_since(t)
                            >= Duration::from_secs(self.cfg.seek.interval_secs))
            }
        };
        if !due {
            return;
        }
        if self.last_seek.is_some() {
            out.push(Action::Send("unseek".into()));
        }
        for cmd in self.seek_commands() {
            out.push(Action::Send(cmd));
        }
        self.last_seek = Some(now);
    }

    /// The `seek` commands for the configured ads.
    pub fn seek_commands(&self) -> Vec<String> {
        let guest = self.me.to_ascii_lowercase().starts_with("guest") || self.cfg.is_guest();
        self.cfg
            .seek
            .ads
            .iter()
            .map(|ad| {
                let mut s = format!("seek {} {}", ad.base, ad.increment);
                // Guests cannot play rated games.
                s.push_str(if ad.rated && !guest {
                    " rated"
                } else {
                    " unrated"
                });
                match ad.color {
                    SeekColor::White => s.push_str(" white"),
                    SeekColor::Black => s.push_str(" black"),
                    SeekColor::Any => {}
                }
                if ad.variant == "chess960" {
                    s.push(' ');
                    s.push_str(self.cfg.server.chess960.trim());
                }
                if ad.formula {
                    s.push_str(" formula");
                }
                if ad.min_rating.is_some() || ad.max_rating.is_some() {
                    s.push_str(&format!(
                        " {}-{}",
                        ad.min_rating.unwrap_or(0),
                        ad.max_rating.unwrap_or(9999)
                    ));
                }
                s
            })
            .collect()
    }

    fn decide_challenge(&mut self, c: Challenge, now: Instant, out: &mut Vec<Action>) {
        if !valid_handle(&c.name) || self.is_me(&c.name) {
            tracing::warn!("ignoring a challenge from an odd name {:?}", c.name);
            return;
        }
        let titles = self
            .titles
            .get(&c.name.to_ascii_lowercase())
            .copied()
            .unwrap_or_default()
            .merge(c.titles);
        let class = self.lists.classify(&c.name, titles);
        let kind = c.variant.clone().unwrap_or_else(|| c.kind.clone());
        let info = ChallengeInfo {
            name: c.name.clone(),
            rating: c.rating,
            registered: c.registered,
            category: class.category,
            rated: c.rated,
            kind,
            base: c.base,
            increment: c.increment,
            adjourned: c.adjourned,
        };
        let mut accept = self.cfg.accept.clone();
        accept.enabled = self.accepting && !self.quitting;
        let busy = self.game.is_some();
        match judge(&info, &accept, &self.history, busy, now) {
            Ok(()) => {
                tracing::info!(
                    "accepting {} {} {} {} from {} ({})",
                    if c.rated { "rated" } else { "unrated" },
                    c.kind,
                    c.base,
                    c.increment,
                    c.name,
                    class.category
                );
                out.push(Action::SendNow(format!("accept {}", c.name)));
            }
            Err(reason) => {
                tracing::info!("declining {} from {}: {:?}", c.kind, c.name, reason);
                self.totals.declined += 1;
                if let Some(msg) = reason.message(&self.cfg.accept.decline, &c.name) {
                    out.push(Action::Send(format!("tell {} {}", c.name, msg)));
                }
                out.push(Action::Send(format!("decline {}", c.name)));
                out.push(Action::Commentary(format!(
                    "declined a challenge from {} ({reason:?})",
                    c.name
                )));
            }
        }
    }

    fn tell(&mut self, from: &str, text: &str, now: Instant, out: &mut Vec<Action>) {
        if !valid_handle(from) || self.is_me(from) {
            return;
        }
        let operator = self
            .cfg
            .operators
            .handles
            .iter()
            .any(|h| h.eq_ignore_ascii_case(from));
        if operator {
            tracing::info!("operator {from}: {text}");
            let reply = match operator::parse(text) {
                Ok(cmd) => self.operator_command(cmd, now, out),
                Err(e) => format!("{e}. {}", operator::HELP),
            };
            for line in reply.lines() {
                out.push(Action::Send(format!("tell {from} {}", sanitize(line))));
            }
            return;
        }
        tracing::debug!("tell from {from} (not an operator) ignored");
        let reply = self.cfg.operators.stranger_reply.trim();
        if reply.is_empty() {
            return;
        }
        let key = from.to_ascii_lowercase();
        let recent = self
            .strangers
            .get(&key)
            .is_some_and(|t| now.saturating_duration_since(*t) < STRANGER_GAP);
        if recent {
            return;
        }
        if self.strangers.len() > 1000 {
            self.strangers.clear();
        }
        self.strangers.insert(key, now);
        out.push(Action::Send(format!("tell {from} {}", sanitize(reply))));
    }

    fn tick(&mut self, now: Instant, out: &mut Vec<Action>) {
        if let Some(p) = &self.pending {
            if now.saturating_duration_since(p.at) >= CHALLENGE_GRACE {
                if let Some(p) = self.pending.take() {
                    self.decide_challenge(p.challenge, now, out);
                }
            }
        }
        self.flag_check(now, out);
        self.maybe_seek(now, false, out);
        if self.game.is_none() && self.connected && !self.quitting {
            let fics = self.cfg.server.dialect == Dialect::Fics;
            for cmd in self.observer.idle_commands(now, fics) {
                out.push(Action::Send(cmd));
            }
        }
        if self.finished() {
            out.push(Action::Quit);
        }
    }

    fn shutdown(&mut self, at_once: bool, out: &mut Vec<Action>) {
        if at_once || self.game.is_none() || !self.connected {
            self.quitting = true;
            self.stop_search(out);
            if self.connected && self.seeking {
                out.push(Action::Send("unseek".into()));
            }
            if let Some(g) = &self.game {
                if at_once {
                    // Leaving mid-game: ask for an adjournment; the server adjourns or
                    // scores the game when the connection closes.
                    out.push(Action::SendNow("adjourn".into()));
                    tracing::warn!("quitting during game {}", g.number);
                }
            }
            out.push(Action::Quit);
            return;
        }
        if !self.quitting {
            self.quitting = true;
            tracing::info!("shutdown requested: finishing the current game first");
            out.push(Action::Commentary(
                "shutdown requested: finishing the current game (adjournment offered)".into(),
            ));
            if self.seeking {
                out.push(Action::Send("unseek".into()));
            }
            out.push(Action::SendNow("adjourn".into()));
        }
    }

    /// One line about the bot's state, for `status`.
    pub fn status_line(&self) -> String {
        let mut s = match &self.game {
            Some(g) => format!(
                "playing game {} vs {} [{}] (ply {}, last score {})",
                g.number,
                g.opponent(),
                g.policy.profile().describe(),
                g.plies(),
                g.policy
                    .last_score()
                    .map_or("-".to_string(), |c| format!("{:+.2}", c as f64 / 100.0))
            ),
            None => "idle".to_string(),
        };
        let t = self.totals;
        s.push_str(&format!(
            "; seek {}, accept {}; games {} (+{} ={} -{}), declined {}; observing {}; whisper {} kibitz {} noise {}{}",
            on_off(self.seeking),
            on_off(self.accepting),
            t.games,
            t.wins,
            t.draws,
            t.losses,
            t.declined,
            self.observer.count(),
            self.cfg.talk.whisper,
            self.cfg.talk.kibitz,
            self.cfg.talk.noise,
            if self.quitting { "; quitting after this game" } else { "" }
        ));
        s
    }
}

fn on_off(b: bool) -> &'static str {
    if b {
        "on"
    } else {
        "off"
    }
}

/// Text wily sends in a tell: printable, one line, at most 400 bytes.
pub(crate) fn sanitize(s: &str) -> String {
    let mut t: String = s.chars().filter(|c| !c.is_control()).collect();
    if t.len() > 400 {
        let mut cut = 400;
        while !t.is_char_boundary(cut) {
            cut -= 1;
        }
        t.truncate(cut);
    }
    t
}
