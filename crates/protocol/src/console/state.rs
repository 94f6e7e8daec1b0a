//! The console's state: the [`Console`] value (game, clocks, settings, engine runner,
//! files, books) and what every command may do with it: print, play and take back moves,
//! start and finish games. The loop that reads lines and dispatches them is in `mod.rs`;
//! the command table in `commands.rs`, the handlers in the `cmd_*` files and the searches
//! in `think.rs` all build on this file, never on the loop.

use super::settings::Settings;
use crate::edit::Editor;
use crate::game::{color_name, Game, Outcome};
use crate::gamefiles::GameFiles;
use crate::policy::Policy;
use crate::record::{write_pgn, Tags};
use crate::runner::Runner;
use crate::timecontrol::Clocks;
use cozy_chess::{Board, Color, Move};
use engine::{Engine, EngineOptions, Score};
use std::collections::VecDeque;
use std::path::PathBuf;
use std::time::Instant;

/// How `wily` with no subcommand starts.
#[derive(Clone, Debug, Default)]
pub struct ConsoleOptions {
    /// Reload the moves of the last game file (`wily --resume`).
    pub resume: bool,
    /// Startup command file; `None` uses `$WILY_RC` or `.wilyrc` in the working directory.
    pub rc_file: Option<PathBuf>,
    /// Folder of the numbered log and game files (default `logs`).
    pub log_dir: Option<PathBuf>,
    /// Commands run before the startup file (Crafty's `tbpath=DIR` on the command line).
    pub startup_commands: Vec<String>,
}

/// What a command asks the loop to do next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    /// The computer should move now if it is its turn.
    Think,
    Quit,
    /// Switch to the xboard protocol.
    Xboard,
    /// Switch to the UCI protocol.
    Uci,
}

/// Result of a command handler: what to do next, or a message for the user.
pub type CmdResult = Result<Flow, String>;

/// A command that goes on over the next input lines, as Crafty's do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Awaiting {
    /// Bare `force` after the computer's move: the next line is the move to play instead.
    ForceMove,
    /// Bare `read` (`from_start`) or `reada`: the lines typed until `exit` (or the end of
    /// input), read as a game or a move list.
    Read { from_start: bool, text: String },
}

/// The console's whole state.
pub struct Console {
    pub game: Game,
    pub tags: Tags,
    /// Comment for each move of the game (score/depth/time of the computer's moves).
    pub comments: Vec<Option<String>>,
    pub settings: Settings,
    pub clocks: Clocks,
    /// The side the computer plays (`None` in force mode).
    pub computer: Option<Color>,
    pub runner: Runner,
    pub files: GameFiles,
    pub policy: Policy,
    /// Lines from startup and `input` files waiting to run, with their nesting depth.
    pub pending: VecDeque<(String, u32)>,
    /// Board editor while in the `edit` sub-mode.
    pub editor: Option<Editor>,
    /// A command waiting for more input lines (bare `force`, `read`, `reada`).
    pub awaiting: Option<Awaiting>,
    /// Moves taken back since the last move played, the next one forward last (what
    /// `reset N` goes forward through, as Crafty's game history allows).
    pub taken_back: Vec<Move>,
    /// The move to ponder on (predicted by the last search or set by `ponder MOVE`).
    pub ponder_move: Option<Move>,
    /// A pondering search is running on `ponder_move`.
    pub pondering: bool,
    /// Root moves the next search is restricted to (`search MOVE`).
    pub searchmoves: Vec<Move>,
    /// Last search score, from White's point of view.
    pub last_score: Option<Score>,
    /// The search's last finished iteration while it is still below the noise level.
    pub held_back: Option<engine::SearchInfo>,
    /// When the side to move started thinking (for the human's clock).
    pub turn_started: Instant,
    pub analyzing: bool,
    pub quit: bool,
    /// End of input has been read.
    pub eof: bool,
    /// Nesting depth of the `input` file being read (0 = keyboard).
    pub input_depth: u32,
    /// The line being executed (handlers that take the whole line read it here).
    pub current_line: String,
    /// The opening books.
    pub book: book::Book,
    /// The learning store, opened by the first `learn` or `import` command.
    pub learner: Option<learn::Learner>,
    /// wily has offered a draw that the opponent may still accept with `draw`.
    pub draw_offered: bool,
    /// Searched (non-book) moves since the last book move, for `timebook`.
    pub out_of_book: u32,
    /// Messages from start-up (missing books) shown after the banner.
    pub startup_notes: Vec<String>,
    /// Runs one input line: the console loop's dispatcher, handed in by the loop so that
    /// the searches here can run commands typed meanwhile ([`Console::run_line`]).
    line_handler: LineHandler,
}

/// How the loop runs one input line (an edit step, a command or a move).
pub type LineHandler = fn(&mut Console, &str) -> Flow;

impl Console {
    /// A console with default settings and a fresh engine; `line_handler` runs input lines.
    pub fn new(opts: &ConsoleOptions, line_handler: LineHandler) -> Self {
        let settings = Settings::default();
        let mut engine = Engine::new(EngineOptions {
            hash_mb: settings.hash_bytes >> 20,
            threads: settings.threads,
            draw_score: settings.draw_score,
            ..EngineOptions::default()
        });
        // One switch, one state: `swindle` starts off for the draw policy and the
        // engine's tablebase swindle mode alike.
        engine.set_swindle(settings.swindle);
        let log_dir = opts
            .log_dir
            .clone()
            .unwrap_or_else(|| PathBuf::from("logs"));
        let clocks = Clocks::new(&settings.tc);
        let (book, book_problems) = crate::books::load_books();
        let mut c = Console {
            game: Game::default(),
            tags: Tags::default(),
            comments: Vec::new(),
            settings,
            clocks,
            computer: Some(Color::Black),
            runner: Runner::new(engine),
            files: GameFiles::new(log_dir, true),
            policy: Policy::default(),
            pending: VecDeque::new(),
            editor: None,
            awaiting: None,
            taken_back: Vec::new(),
            ponder_move: None,
            pondering: false,
            searchmoves: Vec::new(),
            held_back: None,
            last_score: None,
            turn_started: Instant::now(),
            analyzing: false,
            quit: false,
            eof: false,
            input_depth: 0,
            current_line: String::new(),
            book,
            learner: None,
            draw_offered: false,
            out_of_book: 0,
            startup_notes: Vec::new(),
            line_handler,
        };
        c.default_tags();
        c.startup_notes = book_problems
            .into_iter()
            .map(|p| format!("book: {p}"))
            .collect();
        c
    }

    /// Prints a line (and copies it into the game's log file).
    pub fn say(&mut self, line: &str) {
        if crate::stdout::line(line).is_err() {
            // Nobody reads our output any more: end the session.
            self.quit = true;
            self.eof = true;
        }
        self.files.log_line(line);
    }

    /// Prints a prompt (no newline).
    pub fn show_prompt(&mut self, prompt: &str) {
        if crate::stdout::prompt(prompt).is_err() {
            self.quit = true;
            self.eof = true;
        }
    }

    /// Prints a message only when `display general` is on.
    pub fn note(&mut self, line: &str) {
        if self.settings.display.general {
            self.say(line);
        }
    }

    /// `White(1): ` / `Black(12): ` (with `analyze.` in front while analysing).
    pub fn prompt(&self) -> String {
        let prefix = if self.analyzing { "analyze." } else { "" };
        format!(
            "{prefix}{}({}): ",
            color_name(self.game.side_to_move()),
            self.game.move_number()
        )
    }

    fn default_tags(&mut self) {
        self.tags = Tags::default();
        self.tags.set("Event", "wily console game");
        self.tags.set("Site", "local");
        self.tags.set("Round", "-");
        self.set_player_tags();
    }

    /// Puts wily's and the opponent's names into the White/Black tags; the opponent is
    /// `human` (Crafty keeps `name NAME` out of the game file; `pgn White NAME` sets it).
    pub fn set_player_tags(&mut self) {
        let opp = "human".to_string();
        let me = format!("wily {}", env!("CARGO_PKG_VERSION"));
        let (w, b) = match self.computer {
            Some(Color::White) => (me, opp),
            Some(Color::Black) => (opp, me),
            None => (opp.clone(), opp),
        };
        self.tags.set("White", &w);
        self.tags.set("Black", &b);
        // `rating A B`: wily's and the opponent's ratings as the Elo tags.
        if let (Some((mine, theirs)), Some(me)) = (self.settings.ratings, self.computer) {
            let (we, be) = if me == Color::White {
                (mine, theirs)
            } else {
                (theirs, mine)
            };
            self.tags.set("WhiteElo", &we.to_string());
            self.tags.set("BlackElo", &be.to_string());
        }
    }

    /// Rewrites the game file with the game so far.
    pub fn save_game_file(&mut self) {
        if self.game.moves().is_empty() && self.game.outcome.is_none() {
            return;
        }
        let pgn = write_pgn(&self.game, &self.tags, &self.comments);
        self.files.save_game(&pgn);
    }

    /// Starts a new game from `board`: clocks, policy and game files start over.
    pub fn new_game_from(&mut self, board: Board) {
        self.stop_pondering();
        self.game = Game::new(board);
        self.taken_back.clear();
        self.comments.clear();
        self.clocks = Clocks::new(&self.settings.tc);
        self.policy.new_game();
        self.ponder_move = None;
        self.last_score = None;
        self.searchmoves.clear();
        self.draw_offered = false;
        self.out_of_book = 0;
        self.files.start_new_game();
        self.turn_started = Instant::now();
        self.runner.engine.new_game();
    }

    /// Plays `mv` for whoever is to move and reports a finished game.
    pub fn play_move(&mut self, mv: Move, comment: Option<String>) -> Result<(), String> {
        if let Some(o) = &self.game.outcome {
            return Err(format!(
                "the game is over ({}); type 'new' to start another",
                o.describe()
            ));
        }
        self.game.play(mv)?;
        // The moves taken back stay available to `reset` while the game goes the same way.
        if self.taken_back.last() == Some(&mv) {
            self.taken_back.pop();
        } else {
            self.taken_back.clear();
        }
        if self.computer != Some(!self.game.side_to_move()) {
            // The opponent moved instead of accepting: wily's offer lapses.
            self.draw_offered = false;
        }
        self.comments.truncate(self.game.moves().len() - 1);
        self.comments.push(comment);
        if let Some(o) = self.game.outcome.clone() {
            self.announce_result(&o);
        }
        self.save_game_file();
        Ok(())
    }

    /// Takes back the last move.
    pub fn undo_move(&mut self) -> Option<Move> {
        let mv = self.game.undo()?;
        self.taken_back.push(mv);
        self.comments.truncate(self.game.moves().len());
        let side = self.game.side_to_move();
        self.clocks.unmake(side);
        if self.computer == Some(side) {
            self.policy.undo();
        }
        self.save_game_file();
        Some(mv)
    }

    /// Ends the game with `o` (resignation, agreement, time) and records it.
    pub fn finish_game(&mut self, o: Outcome) {
        self.stop_pondering();
        self.game.finish(o.clone());
        self.announce_result(&o);
        self.save_game_file();
    }

    fn announce_result(&mut self, o: &Outcome) {
        self.say(&o.describe());
    }

    /// Stops a pondering search, if any.
    pub fn stop_pondering(&mut self) {
        if self.pondering {
            self.runner.abandon();
            self.pondering = false;
        }
    }

    /// A move typed by the user: charged to the side to move's clock.
    pub fn user_move(&mut self, mv: Move) -> CmdResult {
        let side = self.game.side_to_move();
        let used = self.turn_started.elapsed();
        self.play_move(mv, None)?;
        if self.computer.is_some() {
            self.clocks.charge(&self.settings.tc, side, used);
            if self.settings.flag
                && self.clocks.remaining(side) < 0
                && self.game.outcome.is_none()
                && self.computer == Some(!side)
            {
                self.finish_game(Outcome::new(
                    crate::game::Score::win_for(!side),
                    format!("{} forfeits on time", color_name(side)),
                ));
            }
        }
        self.turn_started = Instant::now();
        Ok(Flow::Think)
    }

    /// The draw score the engine uses now: 0 against a computer and in tournament mode,
    /// the `drawscore` (or `rating`) value otherwise.
    pub fn effective_draw_score(&self) -> i32 {
        if self.settings.opponent_is_computer || self.settings.tournament {
            0
        } else {
            self.settings.draw_score
        }
    }

    /// Hands the effective draw score to the engine.
    pub fn apply_draw_score(&mut self) {
        let d = self.effective_draw_score();
        self.runner.engine.set_draw_score(d);
    }

    /// Runs one input line as if typed at the prompt (through the loop's dispatcher).
    pub fn run_line(&mut self, line: &str) -> Flow {
        (self.line_handler)(self, line)
    }
}
