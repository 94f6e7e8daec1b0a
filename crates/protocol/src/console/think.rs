//! The console's searches: the computer's move (with Crafty-shaped output, clocks, draw
//! and resign decisions), pondering on the opponent's time, and the `analyze` mode.

use super::state::{Console, Flow};
use crate::game::{color_name, Outcome, Score as GameScore};
use crate::input::InputEvent;
use crate::output::{
    fmt_move, fmt_pv_as, fmt_score, fmt_time, header, info_line_as, root_move_line, stats_line,
};
use crate::policy::PolicySettings;
use crate::runner::{Ev, Reports};
use crate::timecontrol::{fmt_clock, process_cpu_time, Timing};
use cozy_chess::{Board, Color, Move};
use engine::{Bound, Limits, RootMoveInfo, Score, SearchInfo, SearchRequest, SearchResult};
use std::time::{Duration, Instant};

impl Console {
    pub fn policy_settings(&self) -> PolicySettings {
        PolicySettings {
            draw_score: if self.settings.opponent_is_computer {
                0
            } else {
                self.settings.draw_score
            },
            resign_pawns: self.settings.resign,
            resign_count: self.settings.resign_count,
            swindle: self.settings.swindle,
        }
    }

    /// Search limits for `side` to move under the current settings and clocks.
    pub fn limits_for(&self, side: Color) -> Limits {
        let s = &self.settings;
        let mut l = Limits {
            depth: s.sd,
            nodes: s.sn,
            ..Limits::default()
        };
        if let Some(st) = s.st {
            l.movetime = Some(st.max(Duration::from_millis(1)));
            return l;
        }
        if s.sd.is_some() || s.sn.is_some() {
            // A depth or node limit alone: no clock.
            return l;
        }
        let clock = |c: Color| {
            let ms = self.clocks.remaining(c).max(10) as u64;
            Some(
                Duration::from_millis(ms)
                    .saturating_sub(s.operator_time)
                    .max(Duration::from_millis(10)),
            )
        };
        // `operator N`: N minutes of the clock are kept back for the operator.
        let inc = Some(s.tc.increment);
        l.wtime = clock(Color::White);
        l.btime = clock(Color::Black);
        l.winc = inc;
        l.binc = inc;
        let mtg = self.clocks.moves_to_go(&s.tc, side);
        let extra = timebook_extra(s.timebook, self.out_of_book);
        l.movestogo = if s.usage == 0 && extra == 0 {
            mtg
        } else {
            // `usage` and `timebook`: spread the time over proportionally fewer (more time
            // per move) or more moves; sudden death counts as 30 moves to go, as the
            // engine assumes.
            let base = f64::from(mtg.unwrap_or(30));
            let factor =
                f64::from((100 + s.usage).max(10)) / 100.0 * f64::from(100 + extra) / 100.0;
            let scaled = base / factor;
            Some((scaled.round() as u32).clamp(1, 60))
        };
        l
    }

    fn request(&mut self, board: Board, history: Vec<u64>, limits: Limits) -> SearchRequest {
        SearchRequest {
            board,
            history,
            limits,
            searchmoves: std::mem::take(&mut self.searchmoves),
        }
    }

    /// Prints one progress report of the search on `board`.
    pub fn show_info(&mut self, board: &Board, info: &SearchInfo, last_depth: &mut u32) {
        let finished = info.bound == Bound::Exact && info.depth > *last_depth;
        if finished {
            *last_depth = info.depth;
        }
        if info.bound == Bound::Exact {
            self.last_score = Some(info.score.white_pov(board.side_to_move()));
        }
        if info.nodes < self.settings.noise {
            // Below the noise level: nothing yet; a search that ends before reaching it
            // still shows its last finished iteration ([`Console::show_held_back`]).
            if finished {
                self.held_back = Some(info.clone());
            }
            return;
        }
        self.held_back = None;
        let show = if finished {
            self.settings.display.variation
        } else {
            self.settings.display.changes
        };
        if show {
            let line = info_line_as(
                board,
                info,
                finished,
                self.settings.display.movenum,
                self.settings.long_output,
            );
            self.say(&line);
        }
    }

    /// At the end of a search that stayed below the noise level: its last finished
    /// iteration, so that a quick search still shows what it found.
    pub fn show_held_back(&mut self, board: &Board) {
        let Some(info) = self.held_back.take() else {
            return;
        };
        if self.settings.display.variation {
            let line = info_line_as(
                board,
                &info,
                true,
                self.settings.display.movenum,
                self.settings.long_output,
            );
            self.say(&line);
        }
    }

    /// What the console's searches report besides their lines: the root moves as they are
    /// searched while `display moves` is on.
    pub fn reports(&self) -> Reports {
        Reports {
            root_moves: self.settings.display.moves,
            trace: self.settings.trace,
        }
    }

    /// Prints a node of the traced tree of the search on `board` (`trace n`); `None`: the
    /// search has sent as many nodes as a trace shows.
    pub fn show_trace(&mut self, board: &Board, node: Option<&engine::TraceNode>) {
        let line = match node {
            Some(t) => crate::output::trace_line(
                board,
                t,
                self.settings.display.movenum,
                self.settings.long_output,
            ),
            None => format!(
                "trace: {} nodes shown; the rest of this search is not",
                crate::runner::TRACE_LIMIT
            ),
        };
        self.say(&line);
    }

    /// Prints the root move the search on `board` is on (`display moves`).
    pub fn show_root_move(&mut self, board: &Board, rm: &RootMoveInfo) {
        if !self.settings.display.moves || rm.nodes < self.settings.noise {
            return;
        }
        let line = root_move_line(
            board,
            rm,
            self.settings.display.movenum,
            self.settings.long_output,
        );
        self.say(&line);
    }
}

/// `timebook FACTOR MOVES`: the percent of extra time for the search after `searched`
/// non-book moves: FACTOR on the first move out of book, then a MOVES-th less each move,
/// none from the MOVES-th on (`timebook 100 10`: 100%, 90%, ... 10%, then 0).
pub fn timebook_extra((factor, span): (u32, u32), searched: u32) -> u32 {
    if factor == 0 || searched >= span {
        0
    } else {
        factor * (span - searched) / span
    }
}

/// Lets the computer move if it plays the side to move and the game goes on.
pub fn computer_move_if_due(c: &mut Console) {
    while !c.quit
        && c.game.outcome.is_none()
        && c.computer == Some(c.game.side_to_move())
        && c.editor.is_none()
    {
        if !computer_move(c, None) {
            break;
        }
    }
}

/// Thinks and plays a move for the side to move. With `pondered`, the search is a ponder
/// search already running (after a ponder hit). Returns false when no move was made.
fn computer_move(c: &mut Console, pondered: Option<Instant>) -> bool {
    let board = c.game.board().clone();
    let side = board.side_to_move();
    let started = pondered.unwrap_or_else(Instant::now);
    let cpu_start = process_cpu_time();
    if pondered.is_none() {
        // `search MOVE` asks for a search of MOVE: the book does not answer for it.
        if c.searchmoves.is_empty() {
            if let Some(mv) = super::book::book_move(c) {
                return play_book_move(c, &board, mv, started);
            }
        }
        if c.settings.display.time {
            let l = c.limits_for(side);
            let budget = match (l.movetime, l.depth, l.nodes) {
                (Some(t), _, _) => format!("{}s per move", fmt_time(t)),
                (None, Some(d), _) => format!("depth {d}"),
                (None, None, Some(n)) => format!("{n} nodes"),
                _ => format!(
                    "clock {} ({} to go)",
                    fmt_clock(c.clocks.remaining(side)),
                    l.movestogo
                        .map_or("sudden death".to_string(), |m| format!("{m} moves"))
                ),
            };
            let extra = timebook_extra(c.settings.timebook, c.out_of_book);
            let budget = if extra > 0 {
                format!("{budget}, timebook +{extra}%")
            } else {
                budget
            };
            c.say(&format!("        time control: {budget}"));
        }
        let limits = c.limits_for(side);
        let req = c.request(board.clone(), c.game.history_hashes(), limits);
        c.runner.start_with(req, c.reports());
    }
    c.say(&header());
    c.held_back = None;
    let mut last_depth = 0;
    let mut last_info: Option<SearchInfo> = None;
    let result = loop {
        match c.runner.next(None) {
            Some(Ev::Info(info)) => {
                c.show_info(&board, &info, &mut last_depth);
                last_info = Some(*info);
            }
            Some(Ev::RootMove(rm)) => c.show_root_move(&board, &rm),
            Some(Ev::Trace(t)) => c.show_trace(&board, t.as_ref()),
            Some(Ev::Finished(r)) => {
                c.show_held_back(&board);
                break r;
            }
            Some(Ev::Input(InputEvent::Line(l))) => {
                let t = l.trim();
                match t {
                    "?" | "move" | "now" | "mn" => c.runner.stop(),
                    "." => {
                        if let Some(i) = &last_info {
                            let line = info_line_as(
                                &board,
                                i,
                                false,
                                c.settings.display.movenum,
                                c.settings.long_output,
                            );
                            c.say(&line);
                        }
                    }
                    "" => {}
                    _ => {
                        // Type-ahead (also `quit`): runs after the move.
                        c.pending.push_back((l, 0));
                    }
                }
            }
            Some(Ev::Input(InputEvent::TooLong(n))) => {
                c.say(&format!("input line too long ({n} bytes); ignored"));
            }
            // End of input: the search still finishes and its move is played.
            Some(Ev::Input(InputEvent::Eof)) | None => c.eof = true,
        }
    };
    if c.quit {
        return false;
    }
    let wall = started.elapsed();
    let used = match (c.settings.timing, cpu_start, process_cpu_time()) {
        (Timing::Cpu, Some(a), Some(b)) => b.saturating_sub(a),
        _ => wall,
    };
    finish_computer_move(c, &board, result, used, last_info)
}

/// Plays the search's move, updates clocks and decides about draws, resignation and the
/// next ponder search.
fn finish_computer_move(
    c: &mut Console,
    board: &Board,
    result: SearchResult,
    used: Duration,
    last_info: Option<SearchInfo>,
) -> bool {
    let side = board.side_to_move();
    let Some(best) = result.best else {
        c.say("no legal move");
        return false;
    };
    if c.settings.display.stats {
        let (sel, hf) = last_info.map_or((0, 0), |i| (i.seldepth, i.hashfull));
        let line = stats_line(
            result.time,
            result.nodes,
            c.runner.engine.last_tbhits(),
            sel,
            hf,
            c.settings.display.extstats,
        );
        c.say(&line);
    }
    let white = result.score.white_pov(side);
    c.last_score = Some(white);
    c.out_of_book = c.out_of_book.saturating_add(1);
    c.policy.record(result.score);
    let comment = format!(
        "{}/{} {}s",
        fmt_score(result.score.in_view(side, c.settings.pgn_scores)),
        result.depth,
        fmt_time(result.time)
    );
    let number = board.fullmove_number();
    let san = fmt_move(board, best, c.settings.long_output);
    if let Err(e) = c.play_move(best, Some(comment)) {
        c.say(&e);
        return false;
    }
    c.clocks.charge(&c.settings.tc, side, used);
    if c.settings.display.time {
        let line = format!(
            "        time used: {}  clock: {} {}",
            fmt_time(used),
            color_name(side),
            fmt_clock(c.clocks.remaining(side))
        );
        c.say(&line);
    }
    announce_move(c, &format!("{}({number}): {san}", color_name(side)));
    c.turn_started = Instant::now();
    if c.game.outcome.is_some() {
        return true;
    }
    let ps = c.policy_settings();
    if c.policy.resign(&ps) {
        c.finish_game(Outcome::new(
            GameScore::win_for(!side),
            format!("{} resigns", color_name(side)),
        ));
        return true;
    }
    if c.settings.offer_draws && c.policy.offer_draw(&ps, u32::from(c.game.move_number())) {
        c.draw_offered = true;
        c.say("wily offers a draw (type 'draw' to accept)");
    }
    c.ponder_move = result.ponder.or_else(|| result.pv.get(1).copied());
    start_pondering(c);
    true
}

/// Prints the computer's move: in reverse video with `ANSI on`, with a beep with `alarm
/// on`, and in tournament mode followed by both clocks for the operator to check against
/// the real clock.
fn announce_move(c: &mut Console, text: &str) {
    let alarm = if c.settings.alarm { "\x07" } else { "" };
    if c.settings.ansi {
        c.say(&format!("\x1b[7m{text}\x1b[0m{alarm}"));
    } else {
        c.say(&format!("{text}{alarm}"));
    }
    if c.settings.tournament {
        let line = format!(
            "        clock check: White {}  Black {}  (correct with 'clock CTIME OTIME')",
            fmt_clock(c.clocks.remaining(Color::White)),
            fmt_clock(c.clocks.remaining(Color::Black))
        );
        c.say(&line);
    }
}

/// Plays a move from the opening book.
fn play_book_move(c: &mut Console, board: &Board, mv: Move, started: Instant) -> bool {
    let side = board.side_to_move();
    let number = board.fullmove_number();
    let san = fmt_move(board, mv, c.settings.long_output);
    if let Err(e) = c.play_move(mv, Some("book".into())) {
        c.say(&e);
        return false;
    }
    c.clocks.charge(&c.settings.tc, side, started.elapsed());
    c.out_of_book = 0;
    announce_move(c, &format!("{}({number}): {san} (book)", color_name(side)));
    c.turn_started = Instant::now();
    c.ponder_move = None;
    true
}

/// Starts a ponder search on the predicted move when pondering is on.
pub fn start_pondering(c: &mut Console) {
    if !c.settings.ponder || c.game.outcome.is_some() || c.computer.is_none() {
        return;
    }
    let Some(mv) = c.ponder_move else {
        return;
    };
    let mut board = c.game.board().clone();
    if c.computer == Some(board.side_to_move()) || board.try_play(mv).is_err() {
        return;
    }
    let mut history = c.game.history_hashes();
    history.push(c.game.board().hash());
    let mut limits = c.limits_for(board.side_to_move());
    limits.ponder = true;
    let san = fmt_move(c.game.board(), mv, c.settings.long_output);
    let req = c.request(board, history, limits);
    // Root moves are asked for too: they show once a ponder hit makes this the real search.
    c.runner.start_with(req, c.reports());
    c.pondering = true;
    c.note(&format!("        pondering on {san}"));
}

/// A line typed while the computer ponders: the predicted move turns the ponder search
/// into the real one; anything else stops it first.
pub fn line_while_pondering(c: &mut Console, line: &str) -> Flow {
    let predicted = c.ponder_move;
    let mv = c.game.parse_move(line.trim()).ok();
    if mv.is_some() && mv == predicted && c.runner.is_searching() {
        let side = c.game.side_to_move();
        let used = c.turn_started.elapsed();
        if let Some(mv) = mv {
            if let Err(e) = c.play_move(mv, None) {
                c.say(&e);
                c.stop_pondering();
                return Flow::Continue;
            }
        }
        c.clocks.charge(&c.settings.tc, side, used);
        c.pondering = false;
        if c.game.outcome.is_some() {
            c.runner.abandon();
            return Flow::Continue;
        }
        c.runner.ponderhit();
        c.note("        (ponder hit)");
        computer_move(c, Some(Instant::now()));
        return Flow::Think;
    }
    c.stop_pondering();
    c.run_line(line)
}

/// `analyze`: search the side to move until a move is entered or `exit`; `back`/`back N`
/// step back; other commands run between searches.
pub fn analyze(c: &mut Console) -> Flow {
    c.stop_pondering();
    let saved_computer = c.computer.take();
    c.analyzing = true;
    let mut flow = Flow::Continue;
    'outer: while !c.quit {
        let board = c.game.board().clone();
        let running = c.game.outcome.is_none();
        if running {
            let limits = Limits {
                infinite: true,
                ..Limits::default()
            };
            let req = c.request(board.clone(), c.game.history_hashes(), limits);
            c.runner.start_with(req, c.reports());
            c.say(&header());
        } else if let Some(o) = &c.game.outcome {
            let msg = format!(
                "game over ({}): 'back' to step back, 'exit' to leave",
                o.describe()
            );
            c.say(&msg);
        }
        let prompt = c.prompt();
        c.show_prompt(&prompt);
        let mut last_depth = 0;
        let mut last: Option<SearchInfo> = None;
        loop {
            let line = if let Some((l, _)) = c.pending.pop_front() {
                l
            } else {
                match c.runner.next(None) {
                    Some(Ev::Info(info)) => {
                        c.show_info(&board, &info, &mut last_depth);
                        last = Some(*info);
                        continue;
                    }
                    Some(Ev::RootMove(rm)) => {
                        c.show_root_move(&board, &rm);
                        continue;
                    }
                    Some(Ev::Trace(t)) => {
                        c.show_trace(&board, t.as_ref());
                        continue;
                    }
                    Some(Ev::Finished(_)) => continue,
                    Some(Ev::Input(InputEvent::Line(l))) => l,
                    Some(Ev::Input(InputEvent::TooLong(n))) => {
                        c.say(&format!("input line too long ({n} bytes); ignored"));
                        continue;
                    }
                    Some(Ev::Input(InputEvent::Eof)) | None => {
                        c.eof = true;
                        c.quit = true;
                        break 'outer;
                    }
                }
            };
            let t = line.trim();
            let mut words = t.split_whitespace();
            match (words.next(), words.next()) {
                (None, _) => continue,
                (Some("."), _) => {
                    if let Some(i) = &last {
                        let l = info_line_as(
                            &board,
                            i,
                            false,
                            c.settings.display.movenum,
                            c.settings.long_output,
                        );
                        c.say(&l);
                    }
                    continue;
                }
                (Some("exit"), _) => break 'outer,
                (Some("back"), n) => {
                    let n = match n.map(str::parse::<usize>) {
                        None => 1,
                        Some(Ok(n)) if n >= 1 => n,
                        _ => {
                            c.say("usage: back [N] (N plies, at least 1)");
                            continue;
                        }
                    };
                    c.runner.abandon();
                    let mut undone = 0;
                    while undone < n && c.undo_move().is_some() {
                        undone += 1;
                    }
                    if undone < n {
                        c.say(&format!("back: only {undone} moves could be taken back"));
                    }
                    continue 'outer;
                }
                _ => {}
            }
            if let Ok(mv) = c.game.parse_move(t) {
                c.runner.abandon();
                if let Err(e) = c.play_move(mv, None) {
                    c.say(&e);
                }
                continue 'outer;
            }
            // Any other command runs with the search stopped, then analysis resumes.
            c.runner.abandon();
            let f = c.run_line(t);
            if matches!(f, Flow::Quit | Flow::Xboard | Flow::Uci) {
                flow = f;
                break 'outer;
            }
            continue 'outer;
        }
    }
    c.runner.abandon();
    c.analyzing = false;
    c.computer = saved_computer;
    if flow == Flow::Continue {
        c.say("analysis ended");
    }
    flow
}

/// `search MOVE` helper: the legal move named by `text`.
pub fn parse_search_move(c: &Console, text: &str) -> Result<Move, String> {
    c.game.parse_move(text)
}

/// Score text for messages (`0.35` from White's view).
pub fn score_text(s: Option<Score>) -> String {
    s.map_or("(no search yet)".to_string(), fmt_score)
}

/// The line printed by `hint`-like queries: the expected reply.
pub fn predicted_line(c: &Console) -> Option<String> {
    let mv = c.ponder_move?;
    Some(fmt_pv_as(
        c.game.board(),
        &[mv],
        true,
        c.settings.long_output,
    ))
}

#[cfg(test)]
mod tests {
    use super::timebook_extra;

    #[test]
    fn timebook_decays_over_its_moves() {
        let tb = (100, 10);
        let shown: Vec<u32> = (0..12).map(|k| timebook_extra(tb, k)).collect();
        assert_eq!(shown, [100, 90, 80, 70, 60, 50, 40, 30, 20, 10, 0, 0]);
        assert_eq!(timebook_extra((0, 10), 0), 0);
        assert_eq!(timebook_extra((50, 0), 0), 0);
        assert_eq!(timebook_extra((50, 4), 2), 25);
    }
}
