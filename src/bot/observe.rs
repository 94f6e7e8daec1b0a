//! Observing: games by number, followed players, the top game when idle; infinite
//! analysis restarted on every update of an observed game (relation 0), whispered or
//! kibitzed by level and noise; stopped when the game ends.

use super::input::{Action, BoardUpdate, SearchSpec};
use crate::bot::session::{ActiveSearch, Purpose, Session};
use crate::bot::talk::{Report, Talker};
use crate::config::ObserveSection;
use crate::engine::Limits;
use crate::lists::valid_handle;
use cozy_chess::Board;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// How often, while idle, wily looks again for the followed players' games.
const IDLE_LOOK: Duration = Duration::from_secs(60);

/// One observed game.
#[derive(Debug, Clone)]
pub struct Watched {
    pub white: String,
    pub black: String,
    pub board: Option<Board>,
}

/// The observing state.
#[derive(Debug, Clone)]
pub struct Observer {
    games: BTreeMap<u32, Watched>,
    wanted_games: Vec<u32>,
    follow: Vec<String>,
    top_when_idle: bool,
    pub talker: Talker,
    last_look: Option<Instant>,
}

impl Observer {
    pub fn new(s: &ObserveSection) -> Observer {
        Observer {
            games: BTreeMap::new(),
            wanted_games: s.games.clone(),
            follow: s.follow.clone(),
            top_when_idle: s.top_game_when_idle,
            talker: Talker::new(s.whisper, s.kibitz, 0, 12),
            last_look: None,
        }
    }

    /// Commands after logging in: observe the configured games, follow the first
    /// configured player (the server follows one), observe the others' games.
    pub fn login_commands(&mut self) -> Vec<String> {
        let mut v: Vec<String> = self
            .wanted_games
            .iter()
            .map(|g| format!("observe {g}"))
            .collect();
        for (i, h) in self.follow.iter().filter(|h| valid_handle(h)).enumerate() {
            if i == 0 {
                v.push(format!("follow {h}"));
            }
            v.push(format!("observe {h}"));
        }
        self.last_look = None;
        v
    }

    /// Commands while idle, at most once a minute: look for the followed players'
    /// games, and (FICS) the highest-rated blitz game when nothing is observed.
    pub fn idle_commands(&mut self, now: Instant, fics: bool) -> Vec<String> {
        if self
            .last_look
            .is_some_and(|t| now.saturating_duration_since(t) < IDLE_LOOK)
        {
            return Vec::new();
        }
        self.last_look = Some(now);
        let mut v = Vec::new();
        for h in self.follow.iter().filter(|h| valid_handle(h)) {
            let watching = self
                .games
                .values()
                .any(|w| w.white.eq_ignore_ascii_case(h) || w.black.eq_ignore_ascii_case(h));
            if !watching {
                v.push(format!("observe {h}"));
            }
        }
        if self.top_when_idle && fics && self.games.is_empty() {
            v.push("observe /b".into());
        }
        v
    }

    pub fn follow(&mut self, handle: &str) {
        if !self.follow.iter().any(|h| h.eq_ignore_ascii_case(handle)) {
            self.follow.push(handle.to_string());
        }
    }

    pub fn want_game(&mut self, game: u32) {
        if !self.wanted_games.contains(&game) {
            self.wanted_games.push(game);
        }
    }

    /// Forget wanted games and followed players (operator `unobserve`).
    pub fn forget(&mut self, game: Option<u32>) {
        match game {
            Some(n) => {
                self.wanted_games.retain(|g| *g != n);
                if let Some(w) = self.games.remove(&n) {
                    self.follow.retain(|h| {
                        !h.eq_ignore_ascii_case(&w.white) && !h.eq_ignore_ascii_case(&w.black)
                    });
                }
            }
            None => {
                self.wanted_games.clear();
                self.follow.clear();
                self.games.clear();
            }
        }
    }

    pub fn started(&mut self, game: u32) {
        self.games.entry(game).or_insert(Watched {
            white: String::new(),
            black: String::new(),
            board: None,
        });
    }

    pub fn has(&self, game: u32) -> bool {
        self.games.contains_key(&game)
    }

    pub fn count(&self) -> usize {
        self.games.len()
    }

    pub fn clear(&mut self) {
        self.games.clear();
    }

    fn stopped(&mut self, game: u32) {
        self.games.remove(&game);
        self.wanted_games.retain(|g| *g != game);
    }
}

impl Session {
    /// A board of an observed game: talk about the previous position's analysis, then
    /// analyse the new one (only while wily has no game of its own).
    pub(crate) fn observed_board(&mut self, u: BoardUpdate, now: Instant, out: &mut Vec<Action>) {
        if !self.observer.has(u.game) {
            // Only games the server confirmed (`You are now observing game N.`).
            tracing::debug!(
                "board of game {} that wily does not observe; ignored",
                u.game
            );
            return;
        }
        let w = self.observer.games.entry(u.game).or_insert(Watched {
            white: u.white.clone(),
            black: u.black.clone(),
            board: None,
        });
        w.white = u.white.clone();
        w.black = u.black.clone();
        let changed = w
            .board
            .as_ref()
            .is_none_or(|b| !super::game::same_position(b, &u.board));
        w.board = Some(u.board.clone());
        if self.game.is_some() || !changed {
            return;
        }
        self.finish_analysis(now, out);
        let id = self.new_search_id();
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        self.search = Some(ActiveSearch {
            id,
            purpose: Purpose::Analyse { game: u.game },
            root: u.board.clone(),
            since: u.received,
            started: now,
            source: super::input::MoveSource::Search,
            last_report: None,
        });
        out.push(Action::StartSearch(Box::new(SearchSpec {
            id,
            board: u.board,
            history: Vec::new(),
            limits,
            draw_score: 0,
            new_game: false,
        })));
    }

    /// Stops the analysis in progress and says what it found (level and noise).
    fn finish_analysis(&mut self, now: Instant, out: &mut Vec<Action>) {
        let Some(s) = &self.search else {
            return;
        };
        if !matches!(s.purpose, Purpose::Analyse { .. }) {
            return;
        }
        if let Some(r) = &s.last_report {
            if r.nodes >= self.cfg.talk.noise {
                let root = s.root.clone();
                let r = r.clone();
                for cmd in self.observer.talker.on_move(now, &root, &r) {
                    out.push(Action::Send(cmd));
                }
            }
        }
        self.stop_search(out);
    }

    /// Every finished iteration of an analysis (levels 5 and 6).
    pub(crate) fn analysis_iteration(
        &mut self,
        root: &Board,
        r: &Report,
        now: Instant,
        out: &mut Vec<Action>,
    ) {
        if r.nodes < self.cfg.talk.noise {
            return;
        }
        for cmd in self.observer.talker.on_iteration(now, root, r) {
            out.push(Action::Send(cmd));
        }
    }

    pub(crate) fn observed_end(
        &mut self,
        game: u32,
        result: &str,
        text: &str,
        now: Instant,
        out: &mut Vec<Action>,
    ) {
        out.push(Action::Commentary(format!(
            "observed game {game} ends: {result} ({text})"
        )));
        self.observe_stopped(game, now, out);
    }

    pub(crate) fn observe_stopped(&mut self, game: u32, _now: Instant, out: &mut Vec<Action>) {
        self.observer.stopped(game);
        if matches!(self.search.as_ref().map(|s| &s.purpose), Some(Purpose::Analyse { game: g }) if *g == game)
        {
            self.stop_search(out);
        }
    }
}
