//! The Crafty-style console: `White(1): ` prompts, moves and commands typed by a person
//! (or piped in), search output in Crafty's shape, per-game log and PGN files.
//!
//! [`run`] is the entry point behind `wily` with no subcommand, and this file is the loop:
//! read a line, dispatch it ([`Console::handle_line`]: edit step, command or move), let the
//! computer move. Input is read on its own thread (see [`crate::input`]) so that
//! `?`, `exit` and analysis commands work while the engine searches. Below the loop:
//! the command table ([`commands`]), the handlers grouped by area in the `cmd_*` modules,
//! searching, pondering and analysis ([`think`]), and at the bottom the state they all
//! share ([`state`]). Nothing below the loop imports it; the searches run lines typed
//! meanwhile through the dispatcher the loop hands to [`Console::new`].

pub mod book;
pub mod cmd_draw;
pub mod cmd_egtb;
pub mod cmd_eval;
pub mod cmd_extensions;
pub mod cmd_files;
pub mod cmd_game;
pub mod cmd_info;
pub mod cmd_opponent;
pub mod cmd_settings;
pub mod cmd_tools;
pub mod commands;
pub mod helptext;
pub mod loadgame;
pub mod rcfile;
pub mod settings;
pub mod state;
pub mod think;

use crate::edit::EditStep;
use crate::input::{self, InputEvent};
use crate::runner::Ev;
use crate::xboard::state::XbConfig;
use crate::xboard::Carried;

pub use state::{Awaiting, CmdResult, Console, ConsoleOptions, Flow, LineHandler};

impl Console {
    /// Runs one line of input: edit sub-mode, a command, or a move.
    pub fn handle_line(&mut self, raw: &str) -> Flow {
        let line = raw.trim();
        match self.awaiting {
            Some(Awaiting::Read { .. }) => {
                cmd_files::read_line(self, Some(line));
                return Flow::Continue;
            }
            Some(Awaiting::ForceMove) => {
                self.awaiting = None;
                if let Err(msg) = cmd_game::force(self, &[line]) {
                    self.say(&msg);
                }
                return Flow::Continue;
            }
            None => {}
        }
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
        if line.starts_with('!') {
            self.say("!: wily runs no shell commands from the console");
            return Flow::Continue;
        }
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        // Crafty's `hash=64M` form: the value after '=' is the first argument.
        let (name, first) = match word.split_once('=') {
            Some((n, v)) if commands::find(n).is_some() => (n, Some(v)),
            Some((n, _)) if commands::not_for_wily(n).is_some() => (n, None),
            _ => (word, None),
        };
        if let Some(why) = commands::not_for_wily(name) {
            self.say(&format!("{name}: not needed in wily: {why}"));
            return Flow::Continue;
        }
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
        } else if self.awaiting == Some(Awaiting::ForceMove) {
            "move: ".to_string()
        } else if matches!(self.awaiting, Some(Awaiting::Read { .. })) {
            "read: ".to_string()
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
                Some(Ev::Info(_)) | Some(Ev::RootMove(_)) | Some(Ev::Trace(_)) => {}
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
                // A bare `read` ends with the input too.
                cmd_files::read_line(self, None);
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
    let mut c = Console::new(&opts, Console::handle_line);
    input::spawn_into(std::io::stdin(), c.runner.sender());
    // The banner is not logged: a startup `log off` must leave no files behind.
    let banner = format!(
        "wily {} (type 'help' for commands, 'xboard' or 'uci' to switch protocol)",
        env!("CARGO_PKG_VERSION")
    );
    if crate::stdout::line(&banner).is_err() {
        return Ok(());
    }
    for n in std::mem::take(&mut c.startup_notes) {
        c.note(&n);
    }
    for line in &opts.startup_commands {
        c.handle_line(line);
    }
    rcfile::run_startup_file(&mut c, opts.rc_file.as_deref());
    if opts.resume {
        if let Err(e) = cmd_files::resume_last_game(&mut c) {
            c.say(&e);
        }
    }
    match c.main_loop() {
        Flow::Xboard => crate::xboard::run_continued(carried_to_xboard(c)),
        Flow::Uci => {
            // End the prompt's line so the interface reads clean protocol lines.
            let _ = crate::stdout::line("");
            let input = c.runner.into_input();
            let out: uci::Output =
                std::sync::Arc::new(std::sync::Mutex::new(Box::new(std::io::stdout())));
            uci::run_io(
                Box::new(std::io::BufReader::new(input)),
                out,
                Some("uci".to_string()),
            )
        }
        _ => Ok(()),
    }
}

/// What the console hands over to xboard: the engine, input thread, game files, books,
/// learning store and the settings the two front ends share.
fn carried_to_xboard(c: Console) -> Carried {
    let st = &c.settings;
    let cfg = XbConfig {
        hash_mb: (st.hash_bytes >> 20).max(1),
        threads: st.threads,
        ponder: st.ponder,
        draw_score: st.draw_score,
        resign: st.resign,
        resign_count: st.resign_count,
        whisper: st.whisper,
        kibitz: st.kibitz,
        noise: st.noise,
        pgn_scores: st.pgn_scores,
    };
    Carried {
        opponent: st.opponent_name.clone(),
        opponent_is_computer: st.opponent_is_computer,
        runner: c.runner,
        files: c.files,
        cfg,
        book: c.book,
        learner: c.learner,
    }
}
