//! The xboard session's state: the [`Session`] value (game, clocks, force mode, the
//! engine's colour, post/ponder, analysis, edit, ICS mode, books), the settings it starts
//! with ([`XbConfig`]), and what both the command handling (`session.rs`) and the searches
//! (`search.rs`) do with it: send a line, play or take back a move, save the game. This
//! file calls neither of them.

use crate::edit::Editor;
use crate::game::Game;
use crate::gamefiles::GameFiles;
use crate::policy::{Policy, PolicySettings};
use crate::record::{write_pgn, Tags};
use crate::runner::Runner;
use crate::timecontrol::TimeControl;
use cozy_chess::{Board, Color, Move};
use engine::{Score as EngineScore, SearchInfo};
use std::time::{Duration, Instant};

/// Settings carried over from the console (or defaults for `wily xboard`).
#[derive(Clone, Debug)]
pub struct XbConfig {
    pub hash_mb: usize,
    pub threads: usize,
    pub ponder: bool,
    pub draw_score: i32,
    pub resign: i32,
    pub resign_count: u32,
    pub whisper: u8,
    pub kibitz: u8,
    pub noise: u64,
    /// Whose view the game file's move comments take.
    pub pgn_scores: engine::ScoreView,
}

impl Default for XbConfig {
    fn default() -> Self {
        XbConfig {
            hash_mb: 64,
            threads: 1,
            ponder: false,
            draw_score: 0,
            resign: 9,
            resign_count: 5,
            whisper: 0,
            kibitz: 0,
            noise: 100_000,
            pgn_scores: engine::ScoreView::Mover,
        }
    }
}

/// What the engine is doing.
#[derive(Clone, Debug)]
pub enum Search {
    Idle,
    /// Thinking on its own move (the board searched).
    Think {
        board: Board,
        started: Instant,
    },
    /// Pondering on the expected reply `predicted`.
    Ponder {
        predicted: Move,
        board: Board,
    },
    /// Analysis mode; a search runs unless the game is over.
    Analyze {
        board: Board,
    },
}

/// The whole xboard session.
pub struct Session {
    pub game: Game,
    pub tags: Tags,
    pub comments: Vec<Option<String>>,
    pub runner: Runner,
    pub files: GameFiles,
    pub policy: Policy,
    pub cfg: XbConfig,
    pub force: bool,
    /// The colour the engine plays when not in force mode.
    pub engine_side: Color,
    pub tc: TimeControl,
    pub st: Option<Duration>,
    pub sd: Option<u32>,
    pub nps: Option<u64>,
    /// Engine's and opponent's clocks from `time` / `otim`.
    pub my_time: Option<Duration>,
    pub opp_time: Option<Duration>,
    pub post: bool,
    pub search: Search,
    pub last_info: Option<SearchInfo>,
    /// The expected reply (for `hint` and pondering).
    pub ponder_move: Option<Move>,
    pub editor: Option<Editor>,
    /// `variant fischerandom` is on (until `new` or `variant normal`).
    pub fischerandom: bool,
    /// Set by `ics HOST` (None for `ics -`).
    pub ics: Option<String>,
    pub opponent: Option<String>,
    pub opponent_is_computer: bool,
    pub ratings: Option<(i32, i32)>,
    pub quit: bool,
    /// The opening books (`Book::empty()` plays without).
    pub book: book::Book,
    /// The learning store, when one exists: learned book values and forbidden moves for
    /// book choices (the engine gets its learned positions when it is opened).
    pub learner: Option<learn::Learner>,
    /// The opponent lists, loaded when ICS mode first names an opponent.
    pub lists: Option<lists::OpponentLists>,
    /// The opponent's tuning in ICS mode (see `opponent.rs`); `None`: the settings'.
    pub tuned: Option<lists::Tuned>,
    /// The book width before the tuning changed it.
    pub untuned_width: Option<usize>,
    /// The engine's searches in this game, for learning.
    pub searches: Vec<learn::SearchRecord>,
    /// This game was learned from.
    pub learned: bool,
    /// `EvalFile`, as last loaded.
    pub eval_file: String,
}

impl Session {
    pub fn new(runner: Runner, files: GameFiles, cfg: XbConfig) -> Self {
        Session {
            game: Game::default(),
            tags: Tags::default(),
            comments: Vec::new(),
            runner,
            files,
            policy: Policy::default(),
            cfg,
            force: false,
            engine_side: Color::Black,
            tc: TimeControl::sudden_death(Duration::from_secs(300), Duration::ZERO),
            st: None,
            sd: None,
            nps: None,
            my_time: None,
            opp_time: None,
            post: false,
            search: Search::Idle,
            last_info: None,
            ponder_move: None,
            editor: None,
            fischerandom: false,
            ics: None,
            opponent: None,
            opponent_is_computer: false,
            ratings: None,
            quit: false,
            book: book::Book::empty(),
            learner: None,
            lists: None,
            tuned: None,
            untuned_width: None,
            searches: Vec::new(),
            learned: false,
            eval_file: String::new(),
        }
    }

    /// Sends one line to the interface (and the game's log).
    pub fn send(&mut self, line: &str) {
        if crate::stdout::line(line).is_err() {
            // The interface is gone.
            self.quit = true;
        }
        self.files.log_line(&format!("> {line}"));
    }

    pub fn policy_settings(&self) -> PolicySettings {
        if let Some(t) = self.tuned {
            return PolicySettings {
                draw_score: t.draw_score,
                resign_pawns: t.resign_pawns as i32,
                resign_count: self.cfg.resign_count,
                swindle: false,
            };
        }
        PolicySettings {
            draw_score: if self.opponent_is_computer {
                0
            } else {
                self.cfg.draw_score
            },
            resign_pawns: self.cfg.resign,
            resign_count: self.cfg.resign_count,
            swindle: false,
        }
    }

    /// Stops any search without playing its move.
    pub fn abandon_search(&mut self) {
        self.runner.abandon();
        self.search = Search::Idle;
    }

    pub fn analyzing(&self) -> bool {
        matches!(self.search, Search::Analyze { .. })
    }

    pub fn save_game_file(&mut self) {
        if self.game.moves().is_empty() && self.game.outcome.is_none() {
            return;
        }
        let pgn = write_pgn(&self.game, &self.tags, &self.comments);
        self.files.save_game(&pgn);
    }

    pub(crate) fn set_player_tags(&mut self) {
        let me = format!("wily {}", env!("CARGO_PKG_VERSION"));
        let opp = self.opponent.clone().unwrap_or_else(|| "?".to_string());
        let (w, b) = if self.engine_side == Color::White {
            (me, opp)
        } else {
            (opp, me)
        };
        self.tags.set("White", &w);
        self.tags.set("Black", &b);
        if let Some((mine, theirs)) = self.ratings {
            let (we, be) = if self.engine_side == Color::White {
                (mine, theirs)
            } else {
                (theirs, mine)
            };
            self.tags.set("WhiteElo", &we.to_string());
            self.tags.set("BlackElo", &be.to_string());
        }
        if let Some(host) = self.ics.clone() {
            self.tags.set("Site", &host);
        }
    }

    /// Starts a new game from `board`.
    pub fn reset_game(&mut self, board: Board) {
        self.game = Game::new(board);
        self.comments.clear();
        self.searches.clear();
        self.learned = false;
        self.policy.new_game();
        self.ponder_move = None;
        self.last_info = None;
        self.files.start_new_game();
        self.tags = Tags::default();
        self.tags.set("Event", "xboard game");
        self.set_player_tags();
    }

    /// Plays `mv` (either side), records it and announces a finished game.
    pub fn play(&mut self, mv: Move, comment: Option<String>) -> Result<(), String> {
        self.game.play(mv)?;
        self.comments.truncate(self.game.moves().len() - 1);
        self.comments.push(comment);
        if let Some(o) = self.game.outcome.clone() {
            self.send(&o.describe());
            self.ics_goodbye();
        }
        self.save_game_file();
        Ok(())
    }

    pub(crate) fn undo(&mut self) -> bool {
        if self.game.undo().is_none() {
            return false;
        }
        let n = self.game.moves().len();
        self.comments.truncate(n);
        self.searches.retain(|s| s.ply < n);
        self.learned = false;
        true
    }

    /// `mv` (legal on `board`) as xboard expects it in the current variant.
    pub fn move_text(&self, board: &Board, mv: Move) -> String {
        super::notation::move_text(board, mv, self.fischerandom)
    }

    /// The engine's last search score as centipawns from its side (for learning hooks).
    pub fn last_engine_score(&self) -> Option<EngineScore> {
        self.last_info.as_ref().map(|i| i.score)
    }

    /// In ICS mode, a friendly word to the opponent at the end of a game.
    pub fn ics_goodbye(&mut self) {
        if self.ics.is_some() {
            self.send("tellics say Thanks for the game.");
        }
    }
}
