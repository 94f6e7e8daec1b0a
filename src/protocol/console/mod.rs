//! The Crafty-style console: `White(1): ` prompts, moves and commands typed by a person
//! (or piped in), search output in Crafty's shape, per-game log and PGN files.
//!
//! [`run`] is the entry point behind `wily` with no subcommand. Input is read on its own
//! thread (see [`crate::protocol::input`]) so that `?`, `exit` and analysis commands work
//! while the engine searches. Commands live in a table ([`commands`]); their handlers are
//! grouped by area in the `cmd_*` modules; searching, pondering and analysis are in
//! [`think`].

pub mod book;
pub mod cmd_egtb;
pub mod cmd_eval;
pub mod cmd_files;
pub mod cmd_game;
pub mod cmd_info;
pub mod cmd_settings;
pub mod cmd_tools;
pub mod commands;
pub mod loadgame;
pub mod output;
pub mod rcfile;
pub mod settings;
pub mod testfile;
pub mod think;

use crate::engine::{Engine, EngineOptions, Score};
use crate::protocol::edit::{EditStep, Editor};
use crate::protocol::game::{color_name, Game, Outcome};
use crate::protocol::gamefiles::GameFiles;
use crate::protocol::input::{self, InputEvent};
use crate::protocol::policy::Policy;
use crate::protocol::record::{write_pgn, Tags};
use crate::protocol::runner::{Ev, Runner};
use crate::protocol::timecontrol::Clocks;
use cozy_chess::{Board, Color, Move};
use settings::Settings;
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
    /// The move to ponder on (predicted by the last search or set by `ponder MOVE`).
    pub ponder_move: Option<Move>,
    /// A pondering search is running on `ponder_move`.
    pub pondering: bool,
    /// Root moves the next search is restricted to (`search MOVE`).
    pub searchmoves: Vec<Move>,
    /// Last search score, from White's point of view.
    pub last_score: Option<Score>,
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
    pub book: crate::book::Book,
    /// The learning store, opened by the first `learn` or `import` command.
    pub learner: Option<crate::learn::Learner>,
    /// Messages from start-up (missing books) shown after the banner.
    pub startup_notes: Vec<String>,
}

impl Console {
    /// A console with default settings and a fresh engine.
    pub fn new(opts: &ConsoleOptions) -> Self {
        let settings = Settings::default();
        let engine = Engine::new(EngineOptions {
            hash_mb: settings.hash_bytes >> 20,
            threads: settings.threads,
            draw_score: settings.draw_score,
            ..EngineOptions::default()
        });
        let log_dir = opts
            .log_dir
            .clone()
            .unwrap_or_else(|| PathBuf::from("logs"));
        let clocks = Clocks::new(&settings.tc);
        let (book, book_problems) = book::load_books();
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
            ponder_move: None,
            pondering: false,
            searchmoves: Vec::new(),
            last_score: None,
            turn_started: Instant::now(),
            analyzing: false,
            quit: false,
            eof: false,
            input_depth: 0,
            current_line: String::new(),
            book,
            learner: None,
            startup_notes: Vec::new(),
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
        if crate::protocol::stdout::line(line).is_err() {
            // Nobody reads our output any more: end the session.
            self.quit = true;
            self.eof = true;
        }
        self.files.log_line(line);
    }

    /// Prints a prompt (no newline).
    pub fn show_prompt(&mut self, prompt: &str) {
        if crate::protocol::stdout::prompt(prompt).is_err() {
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

    /// Puts wily's and the opponent's names into the White/Black tags.
    pub fn set_player_tags(&mut self) {
        let opp = self
            .settings
            .opponent_name
            .clone()
            .unwrap_or_else(|| "human".to_string());
        let me = format!("wily {}", env!("CARGO_PKG_VERSION"));
        let (w, b) = match self.computer {
            Some(Color::White) => (me, opp),
            Some(Color::Black) => (opp, me),
            None => (opp.clone(), opp),
        };
        self.tags.set("White", &w);
        self.tags.set("Black", &b);
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
        self.comments.clear();
        self.clocks = Clocks::new(&self.settings.tc);
        self.policy.new_game();
        self.ponder_move = None;
        self.last_score = None;
        self.searchmoves.clear();
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
        self.comments.truncate(self.game.moves().len() - 1);
        self.comments.push(comment);
        if self.settings.display.moves {
            let line = crate::protocol::console::output::fmt_pv(
                self.game.start(),
                self.game.moves(),
                true,
            );
            self.say(&line);
        }
        if let Some(o) = self.game.outcome.clone() {
            self.announce_result(&o);
        }
        self.save_game_file();
        Ok(())
    }

    /// Takes back the last move.
    pub fn undo_move(&mut self) -> Option<Move> {
        let mv = self.game.undo()?;
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

    /// Runs one line of input: edit sub-mode, a command, or a move.
    pub fn handle_line(&mut self, raw: &str) -> Flow {
        let line = raw.trim();
        if let Some(editor) = self.editor.as_mut() {
            if line == "quit" || line == "end" {
                self.quit = true;
                return Flow::Quit;
            }
            match editor.step(line) {
                EditStep::Continue => {}
                EditStep::Error(e) | EditStep::Invalid(e) => self.say(&e),
                EditStep::Done(b) => {
                    self.editor = None;
                    self.new_game_from(b);
                    self.say("edit: done");
                }
            }
            return Flow::Continue;
        }
        if line.is_empty() {
            return Flow::Continue;
        }
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        // Crafty's `hash=64M` form: the value after '=' is the first argument.
        let (name, first) = match word.split_once('=') {
            Some((n, v)) if commands::find(n).is_some() => (n, Some(v)),
            _ => (word, None),
        };
        if let Some(cmd) = commands::find(name) {
            self.current_line = line.to_string();
            let mut args: Vec<&str> = first.into_iter().filter(|v| !v.is_empty()).collect();
            args.extend(rest.split_whitespace());
            return match (cmd.run)(self, &args) {
                Ok(flow) => flow,
                Err(msg) => {
                    self.say(&msg);
                    Flow::Continue
                }
            };
        }
        match self.game.parse_move(line) {
            Ok(mv) => match self.user_move(mv) {
                Ok(flow) => flow,
                Err(msg) => {
                    self.say(&msg);
                    Flow::Continue
                }
            },
            Err(why) => {
                let shown: String = line.chars().take(60).collect();
                if looks_like_move(line) {
                    self.say(&format!("Illegal move: {shown} ({why})"));
                } else {
                    self.say(&format!(
                        "unknown command or move: '{shown}' (type 'help' for the commands)"
                    ));
                }
                Flow::Continue
            }
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
                    crate::protocol::game::Score::win_for(!side),
                    format!("{} forfeits on time", color_name(side)),
                ));
            }
        }
        self.turn_started = Instant::now();
        Ok(Flow::Think)
    }

    /// Reads the next line: queued file lines first, then the keyboard (with a prompt).
    fn next_line(&mut self) -> Option<String> {
        if let Some((line, depth)) = self.pending.pop_front() {
            self.input_depth = depth;
            if depth == 0 {
                // A line typed ahead while the computer was thinking: show it at its prompt.
                let shown = format!("{}{line}", self.prompt());
                self.say(&shown);
            }
            return Some(line);
        }
        self.input_depth = 0;
        if self.eof {
            return None;
        }
        let prompt = if self.editor.is_some() {
            "edit: ".to_string()
        } else {
            self.prompt()
        };
        self.show_prompt(&prompt);
        loop {
            match self.runner.next(None) {
                Some(Ev::Input(InputEvent::Line(l))) => {
                    self.files.log_line(&format!("{prompt}{l}"));
                    return Some(l);
                }
                Some(Ev::Input(InputEvent::TooLong(n))) => {
                    self.say(&format!(
                        "input line too long ({n} bytes, at most {}); ignored",
                        input::MAX_LINE
                    ));
                    self.show_prompt(&prompt);
                }
                Some(Ev::Input(InputEvent::Eof)) | None => {
                    self.eof = true;
                    return None;
                }
                // Pondering output is not shown; a finished ponder search is only possible
                // when it was stopped, and then its result is of no use.
                Some(Ev::Info(_)) => {}
                Some(Ev::Finished(_)) => self.pondering = false,
            }
        }
    }

    /// The main loop: prompt, read, dispatch, let the computer move.
    pub fn main_loop(&mut self) -> Flow {
        loop {
            if self.quit {
                return Flow::Quit;
            }
            let Some(line) = self.next_line() else {
                self.stop_pondering();
                return Flow::Quit;
            };
            let flow = if self.pondering {
                think::line_while_pondering(self, &line)
            } else {
                self.handle_line(&line)
            };
            match flow {
                Flow::Continue => {}
                Flow::Think => think::computer_move_if_due(self),
                Flow::Quit => {
                    self.stop_pondering();
                    return Flow::Quit;
                }
                Flow::Xboard | Flow::Uci => {
                    self.stop_pondering();
                    return flow;
                }
            }
        }
    }
}

/// True when `s` looks like an attempt at a move (so an error says "Illegal move").
fn looks_like_move(s: &str) -> bool {
    let s = s.trim();
    if s.len() > 10 || s.contains(' ') {
        return false;
    }
    let first = s.chars().next().unwrap_or(' ');
    let has_square = s
        .as_bytes()
        .windows(2)
        .any(|w| (b'a'..=b'h').contains(&w[0]) && (b'1'..=b'8').contains(&w[1]));
    has_square || matches!(first, 'O' | '0' | 'o') && s.contains('-')
}

/// Entry point of `wily` with no subcommand.
pub fn run(opts: ConsoleOptions) -> Result<(), String> {
    let mut c = Console::new(&opts);
    input::spawn_into(std::io::stdin(), c.runner.sender());
    // The banner is not logged: a startup `log off` must leave no files behind.
    let banner = format!(
        "wily {} (type 'help' for commands, 'xboard' or 'uci' to switch protocol)",
        env!("CARGO_PKG_VERSION")
    );
    if crate::protocol::stdout::line(&banner).is_err() {
        return Ok(());
    }
    for n in std::mem::take(&mut c.startup_notes) {
        c.note(&n);
    }
    rcfile::run_startup_file(&mut c, opts.rc_file.as_deref());
    if opts.resume {
        if let Err(e) = cmd_files::resume_last_game(&mut c) {
            c.say(&e);
        }
    }
    match c.main_loop() {
        Flow::Xboard => crate::protocol::xboard::run_from_console(c),
        Flow::Uci => {
            // End the prompt's line so the interface reads clean protocol lines.
            let _ = crate::protocol::stdout::line("");
            let input = c.runner.into_input();
            let out: crate::protocol::uci::Output =
                std::sync::Arc::new(std::sync::Mutex::new(Box::new(std::io::stdout())));
            crate::protocol::uci::run_io(
                Box::new(std::io::BufReader::new(input)),
                out,
                Some("uci".to_string()),
            )
        }
        _ => Ok(()),
    }
}
