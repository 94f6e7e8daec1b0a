//! Iterative deepening at the root: aspiration windows around the previous score, MultiPV
//! lines, root move ordering (the best move moves to the front as soon as it is found, so
//! a search stopped at any instant still has a fully searched best move), progress reports
//! (finished lines, fail highs and lows, the root move being searched) and the main
//! thread's per-iteration time decisions.

use super::extend;
use super::history::Played;
use super::types::{Bound, Score, SearchInfo, INF, MAX_PLY, TB_WIN_BOUND};
use super::watch::RootMoveInfo;
use super::worker::Searcher;
use cozy_chess::{Board, Move, Piece};
use std::sync::atomic::Ordering;

impl<'a> Searcher<'a> {
    /// Whether helper thread `id` skips iteration `depth` (diversifies Lazy SMP threads).
    fn skip_depth(&self, depth: i32) -> bool {
        if self.id == 0 || depth <= 2 {
            return false;
        }
        let id = self.id as i32;
        // Half the helpers search odd-offset depths ahead of the main thread.
        (depth + id) % 3 == 0 && id % 2 == 1
    }

    /// Runs iterative deepening until a limit or the stop flag ends it.
    pub fn iterate(&mut self, board: &Board) {
        if self.root_moves.is_empty() {
            return;
        }
        let max_depth = self.limits.depth.map_or(MAX_PLY as i32 - 8, |d| {
            (d as i32).clamp(1, MAX_PLY as i32 - 8)
        });
        let mut last_best = self.root_moves[0].mv;
        let mut prev_iter_score = -INF;
        for depth in 1..=max_depth {
            if self.skip_depth(depth) {
                continue;
            }
            self.root_depth = depth;
            for rm in self.root_moves.iter_mut() {
                rm.prev_score = rm.score;
            }
            let lines = self.multipv.clamp(1, self.root_moves.len());
            for pv_idx in 0..lines {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                self.aspiration(board, depth);
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                break;
            }
            self.completed_depth = depth as u32;
            self.publish_completed();
            if self.id != 0 {
                continue;
            }
            self.report_lines(lines, depth as u32);
            // Mate-search limit reached?
            if let Some(m) = self.limits.mate {
                if let Score::Mate(n) = Score::from_internal(self.root_moves[0].score) {
                    if n > 0 && n as u32 <= m {
                        break;
                    }
                }
            }
            // Time decisions (not while pondering: the clock is not ours yet).
            let tm = &self.shared.tm;
            if tm.is_limited() && !self.shared.pondering.load(Ordering::Relaxed) {
                let best = &self.root_moves[0];
                if best.mv != last_best {
                    last_best = best.mv;
                }
                let score = best.score;
                let falling = if prev_iter_score > -INF {
                    ((prev_iter_score - score).clamp(0, 200) as f64) / 200.0
                } else {
                    0.0
                };
                let instability = 1.0 + self.best_move_changes.min(4.0) * 0.35;
                let total: u64 = self.root_moves.iter().map(|r| r.nodes).sum();
                let frac = if total > 0 {
                    best.nodes as f64 / total as f64
                } else {
                    0.5
                };
                let effort = if depth >= 8 { (1.6 - frac) * 1.2 } else { 1.0 };
                let mut scale = (1.0 + 0.8 * falling) * instability * effort;
                if self.root_moves.len() == 1 {
                    scale = 0.0;
                }
                self.best_move_changes *= 0.5;
                if tm.soft_expired(scale) {
                    break;
                }
            }
            prev_iter_score = self.root_moves[0].score;
        }
        let _ = last_best;
    }

    /// One iteration of one MultiPV line with an aspiration window.
    fn aspiration(&mut self, board: &Board, depth: i32) {
        let prev = self.root_moves[self.pv_idx].prev_score;
        let mut delta = self.sp.asp_delta + prev.abs().min(2000) / 80;
        let (mut alpha, mut beta) = if depth >= 4 && prev > -INF {
            ((prev - delta).max(-INF), (prev + delta).min(INF))
        } else {
            (-INF, INF)
        };
        loop {
            let score = self.root_search(board, alpha, beta, depth);
            if self.stopped {
                return;
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INF);
                if self.id == 0 {
                    self.report_bound(depth as u32);
                }
            } else if score >= beta {
                beta = (score + delta).min(INF);
                if self.id == 0 {
                    self.report_bound(depth as u32);
                }
            } else {
                return;
            }
            delta += delta / 2 + 5;
            if delta > 1000 {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    /// Searches the root moves of the current line with window (`alpha`, `beta`).
    fn root_search(&mut self, board: &Board, mut alpha: i32, beta: i32, depth: i32) -> i32 {
        let us = board.side_to_move();
        let mut best = -INF;
        self.pv_len[0] = 0;
        self.hist.clear_killers(2);
        let start = self.pv_idx;
        let root_ext =
            if self.sp.ext_onerep > 0 && !board.checkers().is_empty() && extend::one_reply(board) {
                self.sp.ext_onerep
            } else {
                0
            };
        for i in start..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            if self.on_root_move.is_some() {
                self.report_root_move(i, depth);
            }
            let nodes_before = self.nodes;
            let piece = board.piece_on(mv.from).unwrap_or(Piece::Pawn);
            let quiet = mv.promotion.is_none()
                && !board.occupied().has(mv.to)
                && !(piece == Piece::Pawn && mv.from.file() != mv.to.file());
            let mut child = board.clone();
            child.play_unchecked(mv);
            let gives_check = !child.checkers().is_empty();
            // Crafty's extensions that the root knows of (`extend.rs`): the check (a ply by
            // default), and, when set, the one reply to a check and a passed pawn's push.
            let mut amount = root_ext;
            if gives_check {
                amount += self.sp.ext_incheck;
            }
            if self.sp.ext_pushpp > 0 && extend::passed_pawn_push(board, mv, piece, us) {
                amount += self.sp.ext_pushpp;
            }
            let (extension, carry) = extend::add_fraction(0, amount);
            let new_depth = depth - 1 + extension;
            self.stack[0].played = Some(Played {
                color: us,
                piece,
                to: mv.to,
            });
            self.stack[0].captured = board
                .piece_on(mv.to)
                .filter(|_| board.colors(!us).has(mv.to));
            self.stack[0].recaptured = false;
            self.stack[1].ext_carry = carry;
            self.stack[0].null = false;
            self.push_key(child.hash());
            if self.trace_ply > 0 {
                self.trace_line[0] = mv;
            }
            let mut score;
            if i == start {
                score = -self.search::<true>(&child, -beta, -alpha, new_depth, 1, false);
            } else {
                let r = if depth >= 3 && i >= start + 3 && quiet && !gives_check {
                    (self.sp.lmr(depth, i) - 1).clamp(0, new_depth - 1)
                } else {
                    0
                };
                score = -self.search::<false>(&child, -alpha - 1, -alpha, new_depth - r, 1, true);
                if score > alpha && r > 0 {
                    score = -self.search::<false>(&child, -alpha - 1, -alpha, new_depth, 1, false);
                }
                if score > alpha {
                    score = -self.search::<true>(&child, -beta, -alpha, new_depth, 1, false);
                }
            }
            self.pop_key();
            if self.stopped {
                break;
            }
            if self.trace_ply > 0 {
                self.report_trace(0, new_depth, (alpha, beta), score);
            }
            let seldepth = self.seldepth;
            let rm = &mut self.root_moves[i];
            rm.nodes += self.nodes - nodes_before;
            if i == start || score > alpha {
                rm.score = score;
                rm.seldepth = seldepth;
                rm.bound = if score >= beta {
                    Bound::Lower
                } else if score <= alpha {
                    Bound::Upper
                } else {
                    Bound::Exact
                };
                rm.pv.clear();
                rm.pv.push(mv);
                let len = self.pv_len[1];
                for k in 1..len.min(MAX_PLY) {
                    match self.pv[1][k] {
                        Some(m) => self.root_moves[i].pv.push(m),
                        None => break,
                    }
                }
                if score > alpha && i > start {
                    self.root_moves[start..=i].rotate_right(1);
                    if start == 0 {
                        self.best_move_changes += 1.0;
                    }
                }
            } else {
                rm.score = -INF;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        best
    }

    /// Stores this thread's last completed iteration for the final vote.
    fn publish_completed(&self) {
        let rm = &self.root_moves[0];
        self.shared
            .publish_result(self.id, self.completed_depth, rm.score, rm.mv, &rm.pv);
        self.shared.publish_nodes(self.id, self.nodes);
        self.shared.publish_tbhits(self.id, self.tb_hits);
    }

    fn info_for(&self, line: usize, depth: u32) -> SearchInfo {
        let rm = &self.root_moves[line];
        let mut score = if rm.score > -INF {
            rm.score
        } else {
            rm.prev_score.max(-INF + 1)
        };
        // A tablebase root shows the tables' value until the search proves a mate.
        if let Some(tb) = self.tb_root_score {
            if score.abs() < TB_WIN_BOUND {
                score = tb;
            }
        }
        let nodes = self.shared.total_nodes().max(self.nodes);
        let time = self.shared.tm.elapsed();
        let ms = time.as_millis().max(1) as u64;
        SearchInfo {
            depth,
            seldepth: rm.seldepth.max(depth as usize) as u32,
            multipv: line + 1,
            score: Score::from_internal(score),
            bound: rm.bound,
            nodes,
            nps: nodes.saturating_mul(1000) / ms,
            time,
            hashfull: self.tt.hashfull(),
            tbhits: self.shared.total_tbhits().max(self.tb_hits),
            pv: rm.pv.clone(),
        }
    }

    fn report_lines(&mut self, lines: usize, depth: u32) {
        if self.on_info.is_none() {
            return;
        }
        self.shared.publish_nodes(self.id, self.nodes);
        self.shared.publish_tbhits(self.id, self.tb_hits);
        for l in 0..lines {
            let mut info = self.info_for(l, depth);
            info.bound = Bound::Exact;
            if let Some(cb) = self.on_info.as_mut() {
                cb(&info);
            }
        }
    }

    fn report_bound(&mut self, depth: u32) {
        if self.on_info.is_none() || self.shared.tm.elapsed().as_millis() < 300 {
            return;
        }
        self.shared.publish_nodes(self.id, self.nodes);
        self.shared.publish_tbhits(self.id, self.tb_hits);
        let info = self.info_for(self.pv_idx, depth);
        if let Some(cb) = self.on_info.as_mut() {
            cb(&info);
        }
    }

    /// Tells the root-move observer that root move `i` is searched next.
    fn report_root_move(&mut self, i: usize, depth: i32) {
        let info = RootMoveInfo {
            depth: depth.max(1) as u32,
            number: i + 1,
            total: self.root_moves.len(),
            mv: self.root_moves[i].mv,
            nodes: self.nodes,
            time: self.shared.tm.elapsed(),
        };
        if let Some(cb) = self.on_root_move.as_mut() {
            cb(&info);
        }
    }

    /// The best root move now (always a legal move once root moves exist).
    pub fn best_root_move(&self) -> Option<Move> {
        self.root_moves.first().map(|r| r.mv)
    }
}
