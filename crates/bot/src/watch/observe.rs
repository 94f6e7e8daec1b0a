//! Observing: games by number, followed players, the top game when idle; infinite
//! analysis restarted on every update of an observed game (relation 0), whispered or
//! kibitzed by level and noise; stopped when the game ends. Which games are watched is
//! `watch/list.rs`.

use crate::input::{Action, BoardUpdate, SearchSpec};
use crate::state::{ActiveSearch, Bot, Purpose};
use crate::talk::{Levels, Report};
use crate::watch::list::Watched;
use crate::watch::state::Observing;
use cozy_chess::Board;
use engine::Limits;
use std::time::Instant;

impl Observing {
    /// A board of an observed game: talk about the previous position's analysis, then
    /// analyse the new one (only while wily has no game of its own).
    pub(crate) fn observed_board(
        &mut self,
        bot: &mut Bot,
        own: Option<u32>,
        u: BoardUpdate,
        now: Instant,
        out: &mut Vec<Action>,
    ) {
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
            .is_none_or(|b| !crate::play::game::same_position(b, &u.board));
        w.board = Some(u.board.clone());
        if own.is_some() || !changed {
            return;
        }
        self.finish_analysis(bot, now, out);
        let id = bot.new_search_id();
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        bot.search = Some(ActiveSearch {
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
    pub(crate) fn finish_analysis(&mut self, bot: &mut Bot, now: Instant, out: &mut Vec<Action>) {
        let Some(s) = &bot.search else {
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
            let levels = Levels::observed(&bot.cfg.observe, &bot.cfg.talk);
            for cmd in self.observer.talker.on_move(now, levels, &s.root, r) {
                out.push(Action::Send(cmd));
            }
        }
        bot.stop_search(out);
    }

    /// Every finished iteration of an analysis (levels 5 and 6).
    pub(crate) fn analysis_iteration(
        &mut self,
        bot: &Bot,
        root: &Board,
        r: &Report,
        now: Instant,
        out: &mut Vec<Action>,
    ) {
        let levels = Levels::observed(&bot.cfg.observe, &bot.cfg.talk);
        let game = match bot.search.as_ref().map(|s| &s.purpose) {
            Some(Purpose::Analyse { game }) => *game,
            _ => return,
        };
        for text in self.observer.talker.on_iteration(now, levels, root, r) {
            out.push(Action::SendTopical {
                text,
                game,
                position: root.hash(),
            });
        }
    }

    pub(crate) fn observed_end(
        &mut self,
        bot: &mut Bot,
        game: u32,
        result: &str,
        text: &str,
        now: Instant,
        out: &mut Vec<Action>,
    ) {
        out.push(Action::Commentary(format!(
            "observed game {game} ends: {result} ({text})"
        )));
        self.observe_stopped(bot, game, now, out);
    }

    pub(crate) fn observe_stopped(
        &mut self,
        bot: &mut Bot,
        game: u32,
        _now: Instant,
        out: &mut Vec<Action>,
    ) {
        self.observer.stopped(game);
        bot.stop_analysis(Some(game), out);
    }
}
