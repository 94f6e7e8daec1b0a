//! Crafty's server behaviour under xboard's ICS mode (zippy): the opponent xboard names
//! (`name`, with `computer` and `ics` as xboard sends them) is looked up in the opponent
//! lists (`lists/GM`, `IM`, `C`, `AK`, `S`) and the resign threshold, draw score and book
//! width are tuned as `wily ics` tunes them (the defaults of
//! [`lists::OpponentsSection`], the same rule); and each finished game is learned from (book, position and result learning and
//! the opponent's statistics), as the bot learns after its games, with the learning log
//! (`book.lrn`, `position.lrn`) written beside the store it creates.

use super::state::Session;
use cozy_chess::Board;
use learn::{GameOutcome, GameRecord, Learner, SearchRecord};
use lists::{OpponentLists, OpponentsSection, ServerTitles};

impl Session {
    /// Loads the opponent lists (`lists/`, see [`datadir::lists_dir`]) once.
    fn ensure_lists(&mut self) {
        if self.lists.is_none() {
            let (lists, warnings) = OpponentLists::load(&datadir::lists_dir());
            for w in warnings {
                self.send(&format!("# lists: {w}"));
            }
            self.lists = Some(lists);
        }
    }

    /// Re-tunes for the named opponent after `name`, `computer` or `ics`. Only in ICS
    /// mode: a local game against a person or an engine keeps the settings.
    pub(crate) fn tune_for_opponent(&mut self) {
        let Some(name) = self.opponent.clone().filter(|_| self.ics.is_some()) else {
            self.untune();
            return;
        };
        self.ensure_lists();
        let titles = ServerTitles {
            computer: self.opponent_is_computer,
            ..ServerTitles::default()
        };
        let Some(class) = self.lists.as_ref().map(|l| l.classify(&name, titles)) else {
            return;
        };
        let t = OpponentsSection::default().tune(class);
        if self.untuned_width.is_none() {
            self.untuned_width = Some(self.book.settings.width);
        }
        self.book.settings.width = t.book_width.clamp(1, 99) as usize;
        self.runner.engine.set_draw_score(t.draw_score);
        self.tuned = Some(t);
        self.send(&format!("# opponent {name}: {}", t.describe(class)));
    }

    /// Back to the settings' own values.
    fn untune(&mut self) {
        if self.tuned.take().is_some() {
            if let Some(w) = self.untuned_width.take() {
                self.book.settings.width = w;
            }
            self.runner.engine.set_draw_score(self.cfg.draw_score);
        }
    }

    /// After a game ends (by the rules, a resignation, or xboard's `result`): learns
    /// from it once, when a learning store is open. In ICS mode the store is created
    /// when missing, as Crafty keeps its learning files under zippy.
    pub(crate) fn learn_if_over(&mut self) {
        if self.learned || self.game.outcome.is_none() {
            return;
        }
        self.learned = true;
        if self.learner.is_none() && self.ics.is_some() {
            let path = Learner::default_path();
            if let Some(dir) = path.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            match Learner::open(&path) {
                Ok(mut l) => {
                    // As Crafty after every game on a server: book.lrn and position.lrn
                    // in the book folder, beside the store.
                    l.settings.lrn_log = Some(path.with_file_name("book.lrn"));
                    self.learner = Some(l);
                }
                Err(e) => self.send(&format!("# learn: {e}")),
            }
        }
        let Some(outcome) = self.game.outcome.clone() else {
            return;
        };
        if self.game.moves().is_empty() {
            return;
        }
        let start = self.game.start().clone();
        let rec = GameRecord {
            start_fen: (start != Board::default()).then(|| chess::fen::to_fen(&start)),
            moves: self.game.moves().to_vec(),
            wily_color: self.engine_side,
            book_exit_ply: self.searches.first().map(|s| s.ply),
            searches: self.searches.clone(),
            opponent: self.opponent.clone().unwrap_or_default(),
            wily_rating: self.ratings.map(|(mine, _)| mine),
            opponent_rating: self.ratings.map(|(_, theirs)| theirs),
            time_control: format!(
                "{}+{}",
                self.tc.first.time.as_secs(),
                self.tc.increment.as_secs()
            ),
            outcome: GameOutcome::from_pgn(outcome.score.as_pgn()),
            reason: outcome.reason.to_ascii_lowercase(),
        };
        let Some(learner) = self.learner.as_mut() else {
            return;
        };
        let result = learner.after_game(&rec, Some(&self.book));
        let learned = learner.learned_positions();
        match result {
            Ok(r) => {
                self.runner.engine.set_learned(&learned);
                self.send(&format!("# learned from the game: {r:?}"));
            }
            Err(e) => self.send(&format!("# learn: {e}")),
        }
    }

    /// Records the search behind the engine's move at `ply` (book moves add none).
    pub(crate) fn record_search(&mut self, ply: usize, score: engine::Score, depth: u32) {
        self.searches.push(SearchRecord {
            ply,
            score: crate::policy::as_cp(score),
            depth: depth as i32,
            best: None,
        });
    }
}
