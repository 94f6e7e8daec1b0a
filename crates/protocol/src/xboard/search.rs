//! The xboard session's searches: thinking on its move (limits from `level`/`st`/`sd`/
//! `nps`/`time`/`otim`), pondering, analysis, thinking output (`ply score time nodes pv`),
//! the move itself with draw offers and resignation, and ICS whispers/kibitzes.

use super::state::{Search, Session};
use crate::game::{color_name, Outcome, Score as GameScore};
use crate::output::{fmt_pv, fmt_score, fmt_time};
use cozy_chess::{Board, Color, Move};
use engine::{Limits, Score, SearchInfo, SearchRequest, SearchResult};
use std::time::Instant;

/// xboard's score: centipawns, or ±(100000 + moves) for a mate.
pub fn xboard_score(s: Score) -> i64 {
    match s {
        Score::Cp(c) => i64::from(c),
        Score::Mate(m) if m > 0 => 100_000 + i64::from(m),
        Score::Mate(m) => -100_000 + i64::from(m),
    }
}

/// One thinking line: `ply score time nodes pv` (time in centiseconds, PV in SAN).
pub fn thinking_line(board: &Board, info: &SearchInfo) -> String {
    let mut pv = fmt_pv(board, &info.pv, false);
    match info.bound {
        engine::Bound::Lower => pv.push('!'),
        engine::Bound::Upper => pv.push('?'),
        engine::Bound::Exact => {}
    }
    format!(
        "{} {} {} {} {}",
        info.depth,
        xboard_score(info.score),
        info.time.as_millis() / 10,
        info.nodes,
        pv
    )
}

impl Session {
    /// Moves made so far by `side` in this game.
    fn moves_made_by(&self, side: Color) -> u32 {
        let n = self.game.moves().len();
        (0..n)
            .filter(|&i| {
                self.game
                    .board_at(i)
                    .is_some_and(|b| b.side_to_move() == side)
            })
            .count() as u32
    }

    /// Search limits for the engine to move under the current time settings.
    pub fn limits(&self) -> Limits {
        let side = self.engine_side;
        let mut l = Limits {
            depth: self.sd,
            ..Limits::default()
        };
        if let Some(st) = self.st {
            match self.nps {
                Some(nps) => l.nodes = Some((nps as f64 * st.as_secs_f64()).max(1.0) as u64),
                None => l.movetime = Some(st),
            }
            return l;
        }
        let base = self.tc.first.time;
        let mine = self.my_time.unwrap_or(base);
        let theirs = self.opp_time.unwrap_or(base);
        let inc = self.tc.increment;
        let mtg = self.tc.moves_to_go(self.moves_made_by(side));
        if let Some(nps) = self.nps {
            // Node-count time: the share of the clock this move would get, in nodes.
            let share = mine.as_secs_f64() / f64::from(mtg.unwrap_or(30)) + inc.as_secs_f64();
            l.nodes = Some((nps as f64 * share).max(1.0) as u64);
            return l;
        }
        let (w, b) = if side == Color::White {
            (mine, theirs)
        } else {
            (theirs, mine)
        };
        l.wtime = Some(w);
        l.btime = Some(b);
        l.winc = Some(inc);
        l.binc = Some(inc);
        l.movestogo = mtg;
        l
    }

    pub fn start_thinking(&mut self) {
        let board = self.game.board().clone();
        if let Some(mv) = self.book_move(&board) {
            let text = self.move_text(&board, mv);
            self.send(&format!("move {text}"));
            if let Err(e) = self.play(mv, Some("book".into())) {
                self.send(&format!("# internal: {e}"));
            }
            self.ponder_move = None;
            return;
        }
        let req = SearchRequest {
            board: board.clone(),
            history: self.game.history_hashes(),
            limits: self.limits(),
            searchmoves: Vec::new(),
        };
        self.last_info = None;
        self.runner.start(req);
        self.search = Search::Think {
            board,
            started: Instant::now(),
        };
    }

    /// Ponders on the expected reply when pondering is on and the opponent is to move.
    pub fn start_pondering(&mut self) {
        if !self.cfg.ponder
            || self.force
            || self.game.outcome.is_some()
            || self.game.side_to_move() == self.engine_side
        {
            return;
        }
        let Some(predicted) = self.ponder_move else {
            return;
        };
        let mut board = self.game.board().clone();
        if board.try_play(predicted).is_err() {
            return;
        }
        let mut history = self.game.history_hashes();
        history.push(self.game.board().hash());
        let mut limits = self.limits();
        limits.ponder = true;
        self.runner.start(SearchRequest {
            board: board.clone(),
            history,
            limits,
            searchmoves: Vec::new(),
        });
        self.search = Search::Ponder { predicted, board };
    }

    /// (Re)starts analysis of the current position.
    pub fn start_analysis(&mut self) {
        self.runner.abandon();
        let board = self.game.board().clone();
        self.last_info = None;
        if self.game.outcome.is_none() {
            self.runner.start(SearchRequest {
                board: board.clone(),
                history: self.game.history_hashes(),
                limits: Limits {
                    infinite: true,
                    ..Limits::default()
                },
                searchmoves: Vec::new(),
            });
        }
        self.search = Search::Analyze { board };
    }

    /// Search progress: thinking output and per-iteration whispers.
    pub fn on_info(&mut self, info: SearchInfo) {
        let board = match &self.search {
            Search::Think { board, .. } | Search::Analyze { board } => board.clone(),
            Search::Ponder { board, .. } => board.clone(),
            Search::Idle => return,
        };
        if self.post {
            let line = thinking_line(&board, &info);
            self.send(&line);
        }
        let thinking = matches!(self.search, Search::Think { .. });
        if thinking && info.bound == engine::Bound::Exact {
            let level = self.talk_level();
            if level >= 5 && info.nodes >= self.cfg.noise && self.ics.is_some() {
                let text = format!(
                    "d{} {} {}",
                    info.depth,
                    fmt_score(info.score.white_pov(board.side_to_move())),
                    fmt_pv(&board, &info.pv, true)
                );
                self.talk(&text);
            }
        }
        self.last_info = Some(info);
    }

    /// A search ended: play the move if it was the engine's own search.
    pub fn on_finished(&mut self, r: SearchResult) {
        let search = std::mem::replace(&mut self.search, Search::Idle);
        match search {
            Search::Think { board, started } => self.play_engine_move(&board, r, started),
            // An analysis search ends by itself only when there is nothing left to search.
            Search::Analyze { board } => self.search = Search::Analyze { board },
            Search::Ponder { .. } | Search::Idle => {}
        }
    }

    fn play_engine_move(&mut self, board: &Board, r: SearchResult, started: Instant) {
        let Some(best) = r.best else {
            // No legal move: the game is over and already announced.
            return;
        };
        if *board != *self.game.board() {
            return;
        }
        let side = board.side_to_move();
        self.policy.record(r.score);
        let comment = format!(
            "{}/{} {}s",
            fmt_score(r.score.in_view(side, self.cfg.pgn_scores)),
            r.depth,
            fmt_time(started.elapsed())
        );
        let text = self.move_text(board, best);
        let ps = self.policy_settings();
        if self.policy.resign(&ps) {
            self.send("resign");
            self.game.finish(Outcome::new(
                GameScore::win_for(!side),
                format!("{} resigns", color_name(side)),
            ));
            self.save_game_file();
            return;
        }
        self.send(&format!("move {text}"));
        self.ics_report(board, &r);
        self.record_search(self.game.moves().len(), r.score, r.depth);
        if let Err(e) = self.play(best, Some(comment)) {
            self.send(&format!("# internal: {e}"));
            return;
        }
        if self.game.outcome.is_some() {
            return;
        }
        if self
            .policy
            .offer_draw(&ps, u32::from(self.game.move_number()))
        {
            self.send("offer draw");
        }
        self.ponder_move = r.ponder.or_else(|| r.pv.get(1).copied());
        self.start_pondering();
    }

    /// `.` in analysis: `stat01: time nodes ply mvleft mvtot mvname`.
    pub fn analysis_status(&mut self) {
        if !self.analyzing() {
            return;
        }
        let board = self.game.board().clone();
        let total = {
            let mut n = 0;
            board.generate_moves(|m| {
                n += m.len();
                false
            });
            n
        };
        let line = match &self.last_info {
            Some(i) => {
                let name =
                    i.pv.first()
                        .map_or("(none)".to_string(), |&m| self.move_text(&board, m));
                format!(
                    "stat01: {} {} {} 0 {} {}",
                    i.time.as_millis() / 10,
                    i.nodes,
                    i.depth,
                    total,
                    name
                )
            }
            None => format!("stat01: 0 0 0 0 {total}"),
        };
        self.send(&line);
    }

    /// Whisper/kibitz level in force: kibitz when set, else whisper.
    fn talk_level(&self) -> u8 {
        self.cfg.kibitz.max(self.cfg.whisper)
    }

    /// Sends text to the chess server's observers (ICS mode only): `tellall` kibitzes,
    /// `tellothers` whispers.
    fn talk(&mut self, text: &str) {
        if self.ics.is_none() {
            return;
        }
        if self.cfg.kibitz > 0 {
            self.send(&format!("tellall {text}"));
        } else if self.cfg.whisper > 0 {
            self.send(&format!("tellothers {text}"));
        }
    }

    /// The whisper/kibitz after a move, by level (1 mates only; 2 adds depth, score, time,
    /// nodes; 3 and up add the principal variation; 6 adds speed and selective depth).
    fn ics_report(&mut self, board: &Board, r: &SearchResult) {
        let level = self.talk_level();
        if self.ics.is_none() || level == 0 || r.nodes < self.cfg.noise {
            return;
        }
        let side = board.side_to_move();
        let white = r.score.white_pov(side);
        let mut text = String::new();
        if let Score::Mate(m) = r.score {
            if m > 0 {
                text = format!("mate in {m}");
            }
        }
        if level >= 2 {
            let secs = r.time.as_secs_f64();
            if !text.is_empty() {
                text.push_str("; ");
            }
            text.push_str(&format!(
                "d{} {} {}s {} nodes",
                r.depth,
                fmt_score(white),
                fmt_time(r.time),
                r.nodes
            ));
            if level >= 6 && secs > 0.0 {
                text.push_str(&format!(" {} nps", (r.nodes as f64 / secs) as u64));
            }
        }
        if level >= 3 && !r.pv.is_empty() {
            text.push_str(&format!(" pv: {}", fmt_pv(board, &r.pv, true)));
        }
        if !text.is_empty() {
            self.talk(&text);
        }
    }
}

impl Session {
    /// The book's choice for `board`, if it has one.
    fn book_move(&mut self, board: &Board) -> Option<Move> {
        if !self.book.settings.enabled || !self.book.contains(board) {
            return None;
        }
        let book = &mut self.book;
        let learner = self.learner.as_ref();
        let choice = crate::books::with_hooks(&mut self.runner.engine, learner, |hooks| {
            book.choose(board, hooks)
        });
        if choice.searched {
            self.send("# book move chosen by a short search among the book moves");
        }
        choice.mv
    }
}

/// The `bk` answer lines (without the leading space and the closing blank line).
pub fn book_lines(s: &mut Session) -> Vec<String> {
    let board = s.game.board().clone();
    let book = &s.book;
    let learner = s.learner.as_ref();
    let table = crate::books::with_hooks(&mut s.runner.engine, learner, |hooks| {
        book.table(&board, hooks)
    });
    table.render(&board).lines().map(str::to_string).collect()
}

/// Free function wrapper used by the command handler.
pub fn analysis_status(s: &mut Session) {
    s.analysis_status();
}
