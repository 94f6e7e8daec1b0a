//! Observing: games by number, followed players, the top game when idle; infinite
//! analysis restarted on every update of an observed game (relation 0), whispered or
//! kibitzed by level and noise; stopped when the game ends. Which games are watched is
//! `watch/list.rs`.

use crate::input::{Action, BoardUpdate, SearchSpec};
use crate::state::{ActiveSearch, Purpose, Session};
use crate::talk::{Levels, Report};
use crate::watch::list::Watched;
use cozy_chess::Board;
use engine::Limits;
use std::time::Instant;

impl Session {
    /// A board of an observed game: talk about the previous position's analysis, then
    /// analyse the new one (only while wily has no game of its own).
    pub(crate) fn observed_board(&mut self, u: BoardUpdate, now: Instant, out: &mut Vec<Action>) {
        if !self.observing.observer.has(u.game) {
            // Only games the server confirmed (`You are now observing game N.`).
            tracing::debug!(
                "board of game {} that wily does not observe; ignored",
                u.game
            );
            return;
        }
        let w = self
            .observing
            .observer
            .games
            .entry(u.game)
            .or_insert(Watched {
                white: u.white.clone(),
                black: u.black.clone(),
                board: None,
            });
        w.white = u.white.clone();
        w.black = u.black.clone();
        let changed = w
            .board
            .as_ref()
            .is_none_or(|b| !crate::play::game::same_position(b, &u.board));
        w.board = Some(u.board.clone());
        if self.play.game.is_some() || !changed {
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
            source: crate::input::MoveSource::Search,
            last_report: None,
        });
        out.push(Action::StartSearch(Box::new(SearchSpec {
            id,
            board: u.board,
            history: Vec::new(),
            limits,
            draw_score: 0,
            strength: None,
            swindle: true,
            new_game: false,
        })));
    }

    /// Stops the analysis in progress and says what it found (level and noise).
    pub(crate) fn finish_analysis(&mut self, now: Instant, out: &mut Vec<Action>) {
        let Some(s) = &self.search else {
            return;
        };
        if !matches!(s.purpose, Purpose::Analyse { .. }) {
            return;
        }
        if let Purpose::Analyse { game } = s.purpose {
            // The position moved on: iteration lines still waiting are stale.
            out.push(Action::Expire { game });
        }
        if let Some(r) = &s.last_report {
            let levels = Levels::observed(&self.cfg.observe, &self.cfg.talk);
            for cmd in self
                .observing
                .observer
                .talker
                .on_move(now, levels, &s.root, r)
            {
                out.push(Action::Send(cmd));
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
        let levels = Levels::observed(&self.cfg.observe, &self.cfg.talk);
        let game = match self.search.as_ref().map(|s| &s.purpose) {
            Some(Purpose::Analyse { game }) => *game,
            _ => return,
        };
        for text in self
            .observing
            .observer
            .talker
            .on_iteration(now, levels, root, r)
        {
            out.push(Action::SendTopical {
                text,
                game,
                position: root.hash(),
            });
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
        self.observing.observer.stopped(game);
        if matches!(self.search.as_ref().map(|s| &s.purpose), Some(Purpose::Analyse { game: g }) if *g == game)
        {
            self.stop_search(out);
        }
    }
}
