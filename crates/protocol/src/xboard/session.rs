//! The xboard session: the loop over input lines and search events, and the handling of
//! every command. The state it works on is in `state.rs`.
//!
//! Commands are processed strictly in arrival order on one thread, so `pong N` always
//! follows the effects of every earlier command. Searches run in the background (see
//! [`super::search`]); commands keep being read while the engine thinks.

use super::command::{parse, XbCommand};
use super::features;
use crate::edit::{EditStep, Editor};
use crate::game::{Outcome, Score};
use crate::input::InputEvent;
use crate::runner::Ev;
use chess::fen::{parse_fen, to_fen};
use cozy_chess::{Board, Color};
use std::time::{Duration, Instant};
use uci::options::{self, Opt, Value};

pub use super::state::{Search, Session, XbConfig};

/// Makes a reason safe inside `Error (...)`: no parentheses, no newlines.
fn paren_safe(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '(' => '[',
            ')' => ']',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect()
}

impl Session {
    /// The value in use of an xboard option, shown as its default by `protover 2`.
    fn option_value(&self, opt: Opt) -> Value {
        let e = &self.runner.engine;
        match opt {
            Opt::Hash => Value::Int(self.cfg.hash_mb as i64),
            Opt::Threads => Value::Int(self.cfg.threads as i64),
            Opt::Ponder => Value::Bool(self.cfg.ponder),
            Opt::DrawScore => Value::Int(i64::from(self.cfg.draw_score)),
            Opt::Resign => Value::Int(i64::from(self.cfg.resign)),
            Opt::Whisper => Value::Int(i64::from(self.cfg.whisper)),
            Opt::Kibitz => Value::Int(i64::from(self.cfg.kibitz)),
            Opt::Noise => Value::Int(self.cfg.noise as i64),
            Opt::SyzygyProbeDepth => Value::Int(i64::from(e.syzygy_probe_depth())),
            Opt::Syzygy50MoveRule => Value::Bool(e.syzygy_50_move_rule()),
            Opt::Swindle => Value::Bool(e.swindle()),
            Opt::EvalFile => Value::Text(self.eval_file.clone()),
            Opt::Eval => Value::Text(if e.eval_nnue() { "nnue" } else { "hce" }.into()),
            Opt::Strength => Value::Int(i64::from(e.strength().unwrap_or(0))),
            _ => Value::Press,
        }
    }

    /// The event loop: commands and search progress until `quit` or end of input.
    pub fn run(&mut self) {
        while !self.quit {
            match self.runner.next(None) {
                Some(Ev::Input(InputEvent::Line(l))) => {
                    self.files.log_line(&format!("< {l}"));
                    self.handle_line(&l);
                }
                Some(Ev::Input(InputEvent::TooLong(n))) => {
                    self.send(&format!("Error (line too long, {n} bytes): ignored"));
                }
                Some(Ev::Input(InputEvent::Eof)) | None => break,
                Some(Ev::Info(info)) => self.on_info(*info),
                Some(Ev::RootMove(_)) | Some(Ev::Trace(_)) => {}
                Some(Ev::Finished(r)) => self.on_finished(r),
            }
            self.learn_if_over();
        }
        self.runner.abandon();
        self.save_game_file();
    }

    fn restart_analysis_if_on(&mut self) {
        if self.analyzing() {
            self.start_analysis();
        }
    }

    /// Handles one input line.
    pub fn handle_line(&mut self, line: &str) {
        if let Some(ed) = self.editor.as_mut() {
            // `quit` and `ping` keep working inside edit mode.
            let t = line.trim();
            if t == "quit" || t.starts_with("ping") {
                self.handle(parse(t), t);
                return;
            }
            match ed.step(line) {
                EditStep::Continue => {}
                EditStep::Done(b) => {
                    self.editor = None;
                    self.reset_game(b);
                    self.restart_analysis_if_on();
                }
                EditStep::Error(e) | EditStep::Invalid(e) => {
                    let e = paren_safe(&e);
                    self.send(&format!("Error ({e}): edit"));
                }
            }
            return;
        }
        if line.trim().is_empty() {
            return;
        }
        let cmd = parse(line);
        self.handle(cmd, line.trim());
    }

    fn handle(&mut self, cmd: XbCommand, raw: &str) {
        use XbCommand as C;
        match cmd {
            C::Xboard | C::Accepted(_) | C::Rejected(_) | C::Random | C::Ignored(_) => {}
            C::Protover(_) => {
                for l in features::feature_lines(|o| self.option_value(o)) {
                    self.send(&l);
                }
                // Which evaluation is in use (the embedded network by its checksum, or
                // the hand-written one): a comment line, which interfaces ignore.
                let eval = self.runner.engine.eval_description();
                self.send(&format!("# eval {eval}"));
            }
            C::New => {
                let analyzing = self.analyzing();
                self.abandon_search();
                self.force = false;
                self.fischerandom = false;
                self.engine_side = Color::Black;
                self.sd = None;
                self.my_time = None;
                self.opp_time = None;
                self.reset_game(Board::default());
                self.runner.engine.new_game();
                if analyzing {
                    self.start_analysis();
                }
            }
            C::Variant(v) => match v.as_str() {
                "normal" => self.fischerandom = false,
                // The position comes with the `setboard` that follows.
                "fischerandom" => self.fischerandom = true,
                _ => {
                    let v = paren_safe(&v);
                    self.send(&format!("Error (unsupported variant): {v}"));
                }
            },
            C::Quit => {
                self.abandon_search();
                self.quit = true;
            }
            C::Force => {
                if !self.analyzing() {
                    self.abandon_search();
                }
                self.force = true;
            }
            C::Go => {
                if self.analyzing() {
                    self.send("Error (command not legal now): go");
                    return;
                }
                self.abandon_search();
                self.force = false;
                self.engine_side = self.game.side_to_move();
                self.set_player_tags();
                self.think_if_due();
            }
            C::Playother => {
                self.abandon_search();
                self.force = false;
                self.engine_side = !self.game.side_to_move();
                self.set_player_tags();
                self.start_pondering();
            }
            C::White | C::Black => {
                let side = if matches!(cmd, C::White) {
                    Color::White
                } else {
                    Color::Black
                };
                self.abandon_search();
                if self.game.side_to_move() != side {
                    if let Some(b) = with_side_to_move(self.game.board(), side) {
                        self.reset_game(b);
                    }
                }
                self.engine_side = !side;
            }
            C::Level(tc) => {
                self.tc = tc;
                self.st = None;
            }
            C::St(d) => self.st = Some(d),
            C::Sd(d) => self.sd = Some(d),
            C::Nps(n) => self.nps = (n > 0).then_some(n),
            C::Time(cs) => self.my_time = Some(centiseconds(cs)),
            C::Otim(cs) => self.opp_time = Some(centiseconds(cs)),
            C::Usermove(m) => self.usermove(&m),
            C::MoveNow => {
                if matches!(self.search, Search::Think { .. }) {
                    self.runner.stop();
                }
            }
            C::Ping(n) => self.send(&format!("pong {n}")),
            C::Draw => {
                if self.game.outcome.is_none()
                    && !self.force
                    && self.policy.accept_draw(&self.policy_settings())
                {
                    self.send("offer draw");
                }
            }
            C::Result { result, comment } => {
                self.abandon_search();
                if let Some(score) = Score::from_pgn(&result) {
                    let reason = comment.trim_matches(|c| c == '{' || c == '}').trim();
                    let reason = if reason.is_empty() {
                        "Game ended"
                    } else {
                        reason
                    };
                    self.game.finish(Outcome::new(score, reason));
                }
                self.save_game_file();
                self.ics_goodbye();
            }
            C::Setboard(fen) => match parse_fen(&fen) {
                Ok(b) => {
                    let analyzing = self.analyzing();
                    self.abandon_search();
                    self.reset_game(b);
                    if analyzing {
                        self.start_analysis();
                    }
                }
                Err(e) => {
                    let e = paren_safe(&e.to_string());
                    self.send("tellusererror Illegal position");
                    self.send(&format!("Error (illegal position): {e}"));
                }
            },
            C::Edit => {
                if !self.analyzing() {
                    self.abandon_search();
                }
                self.editor = Some(Editor::new(self.game.board()));
            }
            C::Hint => {
                let hint = self
                    .ponder_move
                    .filter(|m| self.game.board().is_legal(*m))
                    .map(|m| self.move_text(self.game.board(), m));
                if let Some(h) = hint {
                    self.send(&format!("Hint: {h}"));
                }
            }
            C::Bk => {
                let lines = super::search::book_lines(self);
                for l in lines {
                    self.send(&format!(" {l}"));
                }
                self.send("");
            }
            C::Undo | C::Remove => {
                let n = if matches!(cmd, C::Undo) { 1 } else { 2 };
                let analyzing = self.analyzing();
                self.abandon_search();
                for _ in 0..n {
                    if !self.undo() {
                        break;
                    }
                }
                self.save_game_file();
                if analyzing {
                    self.start_analysis();
                }
            }
            C::Hard => self.cfg.ponder = true,
            C::Easy => {
                self.cfg.ponder = false;
                if matches!(self.search, Search::Ponder { .. }) {
                    self.abandon_search();
                }
            }
            C::Post => self.post = true,
            C::Nopost => self.post = false,
            C::Analyze => {
                self.abandon_search();
                self.start_analysis();
            }
            C::Exit => {
                if self.analyzing() {
                    self.abandon_search();
                }
            }
            C::Dot => super::search::analysis_status(self),
            C::Name(n) => {
                let n: String = n.chars().filter(|c| !c.is_control()).take(64).collect();
                self.opponent = Some(n);
                self.set_player_tags();
                self.tune_for_opponent();
            }
            C::Rating { engine, opponent } => {
                self.ratings = Some((engine, opponent));
                self.set_player_tags();
            }
            C::Ics(host) => {
                self.ics = (host != "-" && !host.is_empty()).then_some(host);
                self.set_player_tags();
                self.tune_for_opponent();
            }
            C::Computer => {
                self.opponent_is_computer = true;
                self.tune_for_opponent();
            }
            C::Pause | C::Resume => self.send(&format!("Error (not supported): {raw}")),
            C::Memory(mb) => self.set_memory(mb as usize),
            C::Cores(n) => self.set_threads(n),
            C::Egtpath { kind, path } => self.set_egtpath(&kind, &path),
            C::Option { name, value } => self.set_option(&name, value.as_deref()),
            C::Bad(command, reason) => {
                let reason = paren_safe(&reason);
                self.send(&format!("Error ({reason}): {command}"));
            }
            C::Unknown(text) => {
                if !self.crafty_command(&text) {
                    let shown: String = paren_safe(&text).chars().take(80).collect();
                    self.send(&format!("Error (unknown command): {shown}"));
                }
            }
        }
    }

    /// Console-style settings Crafty also accepts in xboard mode (from zippy's setup).
    fn crafty_command(&mut self, text: &str) -> bool {
        let words: Vec<&str> = text.split_whitespace().collect();
        let num = |i: usize| words.get(i).and_then(|w| w.parse::<i64>().ok());
        match (words.first().copied(), num(1)) {
            (Some("whisper"), Some(n)) if (0..=6).contains(&n) => self.cfg.whisper = n as u8,
            (Some("kibitz"), Some(n)) if (0..=6).contains(&n) => self.cfg.kibitz = n as u8,
            (Some("noise"), Some(n)) if n >= 0 => self.cfg.noise = n as u64,
            (Some("resign"), Some(n)) if (0..=100).contains(&n) => self.cfg.resign = n as i32,
            (Some("drawscore"), Some(n)) if (-1000..=1000).contains(&n) => {
                self.cfg.draw_score = n as i32;
                self.runner.engine.set_draw_score(n as i32);
            }
            (Some("log"), _) if words.len() == 2 && ["on", "off"].contains(&words[1]) => {
                self.files.set_enabled(words[1] == "on")
            }
            _ => return false,
        }
        true
    }

    fn set_hash(&mut self, mb: usize) {
        self.abandon_search();
        let mb = mb.clamp(1, engine::max_hash_mb());
        self.cfg.hash_mb = mb;
        self.runner.engine.set_hash_mb(mb);
    }

    /// `memory N`: N MB for both tables. Each search thread's pawn hash table gets
    /// N/32 MB divided by the threads (at least 1 MB), the hash table the rest.
    fn set_memory(&mut self, mb: usize) {
        let threads = self.cfg.threads.max(1);
        let pawn_mb = (mb / 32 / threads).max(1);
        self.abandon_search();
        self.runner.engine.set_pawn_hash_bytes(pawn_mb << 20);
        self.set_hash(mb.saturating_sub(pawn_mb * threads).max(1));
    }

    /// `egtpath syzygy PATH`: loads the tables; `#` lines say what loaded and what was
    /// left out, an error says why nothing did (the engine goes on without).
    fn set_egtpath(&mut self, kind: &str, path: &str) {
        if !kind.eq_ignore_ascii_case("syzygy") {
            let k = paren_safe(kind);
            self.send(&format!("Error (only syzygy tablebases): egtpath {k}"));
            return;
        }
        self.abandon_search();
        match self.runner.engine.set_syzygy_path(path) {
            Ok(text) => text
                .lines()
                .for_each(|l| self.send(&format!("# {}", l.trim()))),
            Err(e) => {
                let first = paren_safe(e.lines().next().unwrap_or(""));
                self.send(&format!("Error ({first}): egtpath syzygy"));
            }
        }
    }

    fn set_threads(&mut self, n: usize) {
        self.abandon_search();
        let n = n.clamp(1, 256);
        self.cfg.threads = n;
        self.runner.engine.set_threads(n);
    }

    /// `option NAME=VALUE`: an xboard row of `options.rs`'s table, its value in range.
    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let Some(o) = options::find_xboard(name) else {
            let n = paren_safe(name);
            self.send(&format!("Error (unknown option): {n}"));
            return;
        };
        let Some(v) = o.parse_xboard(value) else {
            let n = paren_safe(name);
            self.send(&format!("Error (bad option value): option {n}"));
            return;
        };
        match o.opt {
            Opt::Hash => self.set_hash(v.int() as usize),
            Opt::Threads => self.set_threads(v.int() as usize),
            Opt::Ponder => self.cfg.ponder = v.flag(),
            Opt::DrawScore => {
                self.cfg.draw_score = v.int() as i32;
                self.runner.engine.set_draw_score(v.int() as i32);
            }
            Opt::SyzygyProbeDepth => self.runner.engine.set_syzygy_probe_depth(v.int() as i32),
            Opt::Syzygy50MoveRule => self.runner.engine.set_syzygy_50_move_rule(v.flag()),
            Opt::Swindle => self.runner.engine.set_swindle(v.flag()),
            Opt::EvalFile => {
                self.abandon_search();
                match self.runner.engine.set_eval_file(v.text()) {
                    Ok(m) => {
                        self.eval_file = v.text().to_string();
                        self.send(&format!("# {m}"));
                    }
                    Err(e) => self.send(&format!("Error (EvalFile): {}", paren_safe(&e))),
                }
            }
            Opt::Eval => {
                self.abandon_search();
                if let Err(e) = self.runner.engine.set_eval_nnue(v.text() == "nnue") {
                    self.send(&format!("Error (Eval): {}", paren_safe(&e)));
                }
            }
            Opt::Resign => self.cfg.resign = v.int() as i32,
            Opt::Whisper => self.cfg.whisper = v.int() as u8,
            Opt::Kibitz => self.cfg.kibitz = v.int() as u8,
            Opt::Noise => self.cfg.noise = v.int() as u64,
            Opt::Strength => match v.int() {
                0 => self.runner.engine.set_strength(None),
                elo => self.runner.engine.set_strength(Some(elo as u32)),
            },
            Opt::ClearHash => {
                self.abandon_search();
                self.runner.engine.clear_hash();
            }
            // The UCI-only rows are never found by an xboard name.
            Opt::PawnHash
            | Opt::MultiPv
            | Opt::MoveOverhead
            | Opt::Chess960
            | Opt::Contempt
            | Opt::SyzygyPath
            | Opt::LimitStrength
            | Opt::Elo => {}
        }
    }

    /// A move from the interface.
    fn usermove(&mut self, text: &str) {
        let mv = match self.game.parse_move(text) {
            Ok(m) => m,
            Err(_) => {
                let shown: String = paren_safe(text).chars().take(20).collect();
                self.send(&format!("Illegal move: {shown}"));
                return;
            }
        };
        if self.game.outcome.is_some() {
            let shown: String = paren_safe(text).chars().take(20).collect();
            self.send(&format!("Illegal move (game is over): {shown}"));
            return;
        }
        match self.search.clone() {
            Search::Think { .. } => {
                let shown: String = paren_safe(text).chars().take(20).collect();
                self.send(&format!("Illegal move (not your turn): {shown}"));
            }
            Search::Analyze { .. } => {
                self.runner.abandon();
                if let Err(e) = self.play(mv, None) {
                    self.send(&format!("Error ({}): usermove", paren_safe(&e)));
                }
                self.start_analysis();
            }
            Search::Ponder { predicted, .. } if predicted == mv => {
                if let Err(e) = self.play(mv, None) {
                    self.send(&format!("Error ({}): usermove", paren_safe(&e)));
                    self.abandon_search();
                    return;
                }
                if self.game.outcome.is_some() {
                    self.abandon_search();
                    return;
                }
                self.runner.ponderhit();
                self.search = Search::Think {
                    board: self.game.board().clone(),
                    started: Instant::now(),
                };
            }
            Search::Ponder { .. } | Search::Idle => {
                self.abandon_search();
                if let Err(e) = self.play(mv, None) {
                    self.send(&format!("Error ({}): usermove", paren_safe(&e)));
                    return;
                }
                self.think_if_due();
            }
        }
    }

    /// Starts thinking when the engine is to move and the game goes on.
    pub fn think_if_due(&mut self) {
        if !self.force
            && self.game.outcome.is_none()
            && self.editor.is_none()
            && self.engine_side == self.game.side_to_move()
        {
            self.start_thinking();
        }
    }
}

/// A clock reading in centiseconds (negative readings count as zero).
fn centiseconds(cs: i64) -> Duration {
    Duration::from_millis((cs.max(0) as u64).saturating_mul(10))
}

/// `board` with `side` to move (en passant cleared), if that is a legal position.
fn with_side_to_move(board: &Board, side: Color) -> Option<Board> {
    let fen = to_fen(board);
    let mut f: Vec<&str> = fen.split(' ').collect();
    if f.len() < 4 {
        return None;
    }
    f[1] = if side == Color::White { "w" } else { "b" };
    f[3] = "-";
    parse_fen(&f.join(" ")).ok()
}
