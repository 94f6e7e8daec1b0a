//! The alpha-beta search of one thread: principal variation search with reverse futility
//! and null-move pruning, late-move reductions and pruning, futility, history and SEE
//! pruning (checking moves are never pruned), check extension, internal iterative
//! reduction and mate-distance pruning, over the shared transposition table, with
//! tablebase probes after zeroing moves (`tbsearch.rs`) and static evaluations corrected by
//! the correction history (`correction.rs`). Repetition and 50-move draws
//! score the draw value (contempt) from wily's side. No allocation and no locks per node.
//!
//! The node is read in order, its steps numbered (Step 1 to Step 20) in comments.

use super::checks::CheckInfo;
use super::correction::Correction;
use super::extend;
use super::history::{History, Played};
use super::keyahead::key_after;
use super::see::{captured_piece, is_capture, see_ge_known};
use super::tt::TtBound;
use super::types::{INF, MATE, MATE_BOUND, MAX_PLY, NO_EVAL, TB_WIN_BOUND};
use super::worker::{with_correction, Searcher, TbOutcome};
use cozy_chess::{Board, Move, Piece};

impl<'a> Searcher<'a> {
    /// Principal variation search of a non-root node.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn search<const PV: bool>(
        &mut self,
        board: &Board,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        let in_check = !board.checkers().is_empty();
        // Step 1. The horizon (quiescence search), the stop signal, draws and the
        // deepest ply.
        if depth <= 0 {
            return self.qsearch::<PV>(board, alpha, beta, ply, true);
        }
        if PV {
            self.pv_len[ply] = ply;
        }
        if self.tick() {
            return 0;
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if self.is_draw(board) {
            return self.draw_value(ply);
        }
        if ply >= MAX_PLY - 2 {
            return if in_check {
                self.draw_value(ply)
            } else {
                self.evaluate(board, ply)
            };
        }
        // Step 2. Mate-distance pruning.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        let key = board.hash();
        // A singular-extension search of this node without one move: no shortcut that
        // speaks for the node with every move may end it.
        let excluded = self.stack[ply].excluded;
        // The fraction of a ply of extension the line has carried to here (`extend.rs`).
        let carry = self.stack[ply].ext_carry;
        // Step 3. Position learning: a learned result deep enough for this node ends it, also on
        // the principal variation (see `learned.rs`).
        if let Some(l) = self.learned.probe(key, ply).filter(|_| excluded.is_none()) {
            if l.depth >= depth {
                if PV {
                    self.pv[ply][ply] = l.mv;
                    self.pv_len[ply] = ply + usize::from(l.mv.is_some());
                }
                return l.score;
            }
        }
        // Step 4. The transposition table: a deep enough entry whose bound settles the
        // window ends a non-PV node.
        let tt_hit = self.tt.probe(key, ply);
        let tt_move = tt_hit.and_then(|h| h.mv);
        if let Some(h) = tt_hit {
            if !PV && excluded.is_none() && h.depth >= depth && h.settles(alpha, beta) {
                return h.score;
            }
        }

        // Step 5. Tablebases, right after a capture or pawn move (see `tbsearch.rs`).
        let (mut tb_floor, mut tb_ceiling) = (-INF, INF);
        if self.tb_pieces != 0 && board.halfmove_clock() == 0 && excluded.is_none() {
            match self.probe_tb::<PV>(board, alpha, beta, depth, ply) {
                Some(TbOutcome::Cut(v)) => return v,
                Some(TbOutcome::Floor(v)) => tb_floor = v,
                Some(TbOutcome::Ceiling(v)) => tb_ceiling = v,
                None => {}
            }
        }

        // Step 6. Static evaluation (corrected by the table's score when its bound allows).
        // The table keeps the raw evaluation; the correction history's (see
        // `correction.rs`) is added to it here.
        let raw_eval;
        let static_eval;
        let eval;
        // The correction's entries for this node, found once for the read here and the
        // update at the end (neither happens in check, so they are not looked for then).
        let corr_slots;
        if in_check {
            corr_slots = [0; 3];
            raw_eval = NO_EVAL;
            static_eval = NO_EVAL;
            eval = NO_EVAL;
        } else {
            // The entries are found first and start loading while the evaluation runs.
            corr_slots = Correction::slots(board);
            self.hist.corr.prefetch(corr_slots);
            raw_eval = match tt_hit {
                Some(h) if h.eval != NO_EVAL => h.eval,
                _ => self.evaluate(board, ply),
            };
            static_eval = with_correction(raw_eval, self.hist.corr.of_slots(corr_slots));
            eval = tt_hit.map_or(static_eval, |h| h.refine(static_eval));
        }
        self.stack[ply].eval = static_eval;
        let improving = !in_check
            && ply >= 2
            && (self.stack[ply - 2].eval == NO_EVAL || static_eval > self.stack[ply - 2].eval);
        self.hist.clear_killers(ply + 2);

        // Whether passing would be mated (the null move below says): the mate extension.
        let mut mate_threat = false;
        if !PV && !in_check && excluded.is_none() {
            // Step 7. Reverse futility pruning (static null move): near the leaves, a static score
            // above beta by a margin for each remaining ply (one ply less while improving)
            // is trusted, and the node fails high at once.
            if depth <= self.sp.rfp_depth
                && eval - self.sp.rfp_margin * (depth - i32::from(improving)) >= beta
                && beta.abs() < TB_WIN_BOUND
                && eval.abs() < TB_WIN_BOUND
            {
                return eval;
            }
            // Step 8. Razoring: far below alpha near the leaves, only captures can save the node;
            // when quiescence agrees, it fails low at once.
            if depth <= self.sp.razor_depth
                && eval + self.sp.razor_margin * depth < alpha
                && alpha.abs() < TB_WIN_BOUND
            {
                let v = self.qsearch::<false>(board, alpha, alpha + 1, ply, true);
                if self.stopped {
                    return 0;
                }
                if v <= alpha {
                    return v;
                }
            }
            // Step 9. Null move with adaptive reduction and a zugzwang guard.
            if depth >= 3
                && eval >= beta
                && static_eval >= beta - self.sp.nmp_slope * depth + self.sp.nmp_base
                && ply >= 1
                && !self.stack[ply - 1].null
                && beta.abs() < TB_WIN_BOUND
                && Self::has_non_pawn_material(board)
            {
                if let Some(child) = board.null_move() {
                    let r = self.sp.nmp_r_base
                        + depth / self.sp.nmp_depth_div
                        + ((eval - beta) / self.sp.nmp_eval_div).min(2);
                    self.stack[ply].played = None;
                    self.stack[ply].null = true;
                    self.stack[ply + 1].ext_carry = carry;
                    let saved_floor = self.rep_floor;
                    self.push_key(child.hash());
                    self.rep_floor = self.keys.len() - 1;
                    let v = -self.search::<false>(
                        &child,
                        -beta,
                        -beta + 1,
                        depth - r,
                        ply + 1,
                        !cut_node,
                    );
                    self.pop_key();
                    self.rep_floor = saved_floor;
                    self.stack[ply].null = false;
                    if self.stopped {
                        return 0;
                    }
                    if v >= beta {
                        return if v >= TB_WIN_BOUND { beta } else { v };
                    }
                    mate_threat = v <= -MATE_BOUND;
                }
            }
        }
        self.stack[ply].null = false;

        // Step 10. Internal iterative reduction: no hash move to guide a deep search.
        if tt_move.is_none() && depth >= self.sp.iir_depth && (PV || cut_node) {
            depth -= 1;
        }

        // Step 11. Singular extension: when the hash move's lower bound stands out (every
        // other move fails low against a margin below it in a reduced search), it is
        // extended. The search here runs before this node's move picker starts, since it
        // uses the same ply's scratch data.
        let mut singular_ext = 0;
        if let (Some(h), Some(tm)) = (tt_hit, tt_move) {
            if depth >= self.sp.se_depth
                && excluded.is_none()
                && ply < 2 * self.root_depth as usize
                && h.depth >= depth - 3
                && matches!(h.bound, TtBound::Lower | TtBound::Exact)
                && h.score.abs() < TB_WIN_BOUND
            {
                let s_beta = h.score - self.sp.se_margin * depth / 10;
                self.stack[ply].excluded = Some(tm);
                let v =
                    self.search::<false>(board, s_beta - 1, s_beta, (depth - 1) / 2, ply, cut_node);
                self.stack[ply].excluded = None;
                if self.stopped {
                    return 0;
                }
                if v < s_beta {
                    singular_ext = 1;
                } else if s_beta >= beta {
                    // Several moves beat beta even without the hash move: multi-cut.
                    return s_beta;
                }
            }
        }

        // Step 12. The move loop: moves in the picker's order (hash move, good captures,
        // killers and counter-move, quiets by history, bad captures) until one cuts off.
        let ctx = self.order_context(board, ply);
        self.pickers[ply].reset(tt_move, false);
        let us = board.side_to_move();
        let mut best_score = tb_floor;
        let mut best_move: Option<Move> = None;
        let mut moves_searched = 0usize;
        self.tried[ply].n_quiets = 0;
        self.tried[ply].n_captures = 0;
        let lmp_limit = (self.sp.lmp_base + depth * depth) as usize / if improving { 1 } else { 2 };
        let original_alpha = alpha;
        // Check data, made on first need: a node that cuts off on its first move never
        // needs it (whether a move made gives check is read off the child position).
        let mut check_info: Option<CheckInfo> = None;
        let non_pawn = Self::has_non_pawn_material(board);
        let mut quiets_skipped = false;
        // Crafty's extensions other than the check (off by default): what the node knows
        // of them before its moves.
        let one_reply = in_check && self.sp.ext_onerep > 0 && extend::one_reply(board);
        let node_ext = if one_reply { self.sp.ext_onerep } else { 0 }
            + if mate_threat { self.sp.ext_mate } else { 0 };
        let prev = if ply >= 1 && !self.stack[ply - 1].recaptured {
            self.stack[ply - 1]
                .played
                .map(|p| (p, self.stack[ply - 1].captured))
        } else {
            None
        };

        while let Some(mv) = self.pickers[ply].next(board, self.hist, &ctx) {
            if Some(mv) == excluded {
                continue;
            }
            let piece = self.pickers[ply].last_piece();
            let victim = self.pickers[ply].last_victim();
            // SEE >= 0 when the picker already worked it out (then it implies any lower
            // threshold too).
            let see_known = self.pickers[ply].last_see();
            // Start loading the child's hash bucket and evaluation-cache slot now, so the
            // loads overlap the pruning decisions and the making of the move.
            let child_key = key_after(board, mv, piece, victim);
            self.tt.prefetch(child_key);
            self.eval.prefetch(child_key);
            let quiet = victim.is_none() && mv.promotion.is_none();
            // The quiet move's history score, looked up on first need (history pruning near
            // the leaves, late-move reductions): most moves need neither.
            let history_of =
                |h: &History| h.quiet_score(us, mv, piece, ctx.prev1, ctx.prev2, ctx.attacked);
            let mut hist_score: Option<i32> = None;

            // Step 13. Shallow-depth pruning once a non-losing score is secured. Late-move and
            // futility pruning of quiet moves happen in the picker (see `skip_quiets` after
            // each searched move below), so no non-checking quiet move reaches here then.
            // Whether the move gives check is asked last, only of a move that would
            // otherwise be pruned (most are not, and the test costs more than the others).
            if ply > 0 && best_score > -TB_WIN_BOUND && non_pawn {
                let prune = if quiet {
                    let lmr_depth = (depth - 1 - self.sp.lmr(depth, moves_searched)).max(0);
                    lmr_depth <= self.sp.hist_prune_depth
                        && *hist_score.get_or_insert_with(|| history_of(self.hist))
                            < -self.sp.hist_prune * depth
                        || !see_ge_known(
                            board,
                            mv,
                            piece,
                            victim,
                            -self.sp.see_quiet * lmr_depth * lmr_depth,
                        )
                } else {
                    depth <= self.sp.see_capture_depth
                        && see_known != Some(true)
                        && !see_ge_known(board, mv, piece, victim, -self.sp.see_capture * depth)
                };
                if prune
                    && !check_info
                        .get_or_insert_with(|| CheckInfo::new(board))
                        .gives_check_by(board, mv, piece)
                {
                    continue;
                }
            }

            let mut child = board.clone();
            child.play_unchecked(mv);
            let gives_check = !child.checkers().is_empty();

            // Step 14. Extensions: the singular hash move, and within twice the iteration's
            // depth Crafty's kinds (`extend.rs`): checks (a ply by default), and, when set,
            // the one reply to a check, a mate threat, a recapture and a passed pawn's push.
            let mut recaptured = false;
            let mut child_carry = carry;
            let extension = if Some(mv) == tt_move && singular_ext > 0 {
                singular_ext
            } else if ply < 2 * self.root_depth as usize {
                let mut amount = node_ext;
                if gives_check {
                    amount += self.sp.ext_incheck;
                }
                if self.sp.ext_recapture > 0 {
                    if let Some((p, taken)) = prev {
                        if extend::is_recapture(mv, victim, p.piece, p.to, taken) {
                            amount += self.sp.ext_recapture;
                            recaptured = true;
                        }
                    }
                }
                if self.sp.ext_pushpp > 0 && extend::passed_pawn_push(board, mv, piece, us) {
                    amount += self.sp.ext_pushpp;
                }
                let (plies, left) = extend::add_fraction(carry, amount);
                child_carry = left;
                plies
            } else {
                0
            };
            let new_depth = depth - 1 + extension;
            self.stack[ply].played = Some(Played {
                color: us,
                piece,
                to: mv.to,
            });
            self.stack[ply].captured = victim;
            self.stack[ply].recaptured = recaptured;
            self.stack[ply + 1].ext_carry = child_carry;
            self.push_key(child.hash());
            if ply < self.trace_ply {
                self.trace_line[ply] = mv;
            }
            // Step 15. The search of the child: the first move with the full window, later
            // ones with a null window at a depth reduced by late-move reductions, searched
            // again at full depth and then with the full window when they beat alpha.
            let mut score;
            if moves_searched == 0 {
                score = -self.search::<PV>(&child, -beta, -alpha, new_depth, ply + 1, false);
            } else {
                let mut r = 0;
                if depth >= 3
                    && moves_searched > 2 * PV as usize
                    && (quiet
                        || !see_known.unwrap_or_else(|| see_ge_known(board, mv, piece, victim, 0)))
                {
                    r = self.sp.lmr(depth, moves_searched);
                    if !PV {
                        r += 1;
                    }
                    if cut_node {
                        r += 1;
                    }
                    if !improving {
                        r += 1;
                    }
                    if in_check || gives_check {
                        r -= 1;
                    }
                    if Some(mv) == ctx.killers[0]
                        || Some(mv) == ctx.killers[1]
                        || Some(mv) == ctx.counter
                    {
                        r -= 1;
                    }
                    if quiet {
                        r -= *hist_score.get_or_insert_with(|| history_of(self.hist))
                            / self.sp.lmr_hist_div;
                    }
                    r = r.min(new_depth - 1).max(0);
                }
                score =
                    -self.search::<false>(&child, -alpha - 1, -alpha, new_depth - r, ply + 1, true);
                if score > alpha && r > 0 {
                    score = -self.search::<false>(
                        &child,
                        -alpha - 1,
                        -alpha,
                        new_depth,
                        ply + 1,
                        !cut_node,
                    );
                }
                if PV && score > alpha && score < beta {
                    score = -self.search::<true>(&child, -beta, -alpha, new_depth, ply + 1, false);
                }
            }
            self.pop_key();
            if self.stopped {
                return 0;
            }
            if ply < self.trace_ply {
                self.report_trace(ply, new_depth, (alpha, beta), score);
            }
            moves_searched += 1;

            // Step 16. A new best move: the principal variation, alpha, or the cut-off.
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(mv);
                    if PV {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
            // Step 17. Late-move and futility pruning: once every later quiet move that does not
            // give check would be pruned (the conditions only tighten as moves are searched
            // and alpha rises), the picker drops them, before even scoring them.
            if !quiets_skipped && ply > 0 && best_score > -TB_WIN_BOUND && non_pawn {
                let lmr_depth = (depth - 1 - self.sp.lmr(depth, moves_searched)).max(0);
                if moves_searched >= lmp_limit
                    || !in_check
                        && lmr_depth <= self.sp.fut_depth
                        && eval + self.sp.fut_base + self.sp.fut_slope * lmr_depth <= alpha
                {
                    let info = *check_info.get_or_insert_with(|| CheckInfo::new(board));
                    self.pickers[ply].skip_quiets(info);
                    quiets_skipped = true;
                }
            }
            if Some(mv) != best_move {
                let t = &mut self.tried[ply];
                if quiet {
                    if t.n_quiets < t.quiets.len() {
                        t.quiets[t.n_quiets] = (mv, piece);
                        t.n_quiets += 1;
                    }
                } else if let Some(v) = victim {
                    if t.n_captures < t.captures.len() {
                        t.captures[t.n_captures] = (mv, piece, v);
                        t.n_captures += 1;
                    }
                }
            }
        }

        // Step 18. No move searched and no tablebase win known: mate or stalemate.
        if moves_searched == 0 && tb_floor == -INF {
            return if excluded.is_some() {
                alpha
            } else if in_check {
                -MATE + ply as i32
            } else {
                self.draw_value(ply)
            };
        }

        // Step 19. History: the cut-off move rewarded, the moves tried before it punished.
        if best_score >= beta {
            if let Some(bm) = best_move {
                let b = self.sp.history_bonus(depth);
                let malus = -b * self.sp.hist_malus_pct / 100;
                let piece = board.piece_on(bm.from).unwrap_or(Piece::Pawn);
                let quiet = !is_capture(board, bm) && bm.promotion.is_none();
                let tried = &self.tried[ply];
                if quiet {
                    self.hist.add_killer(ply, bm);
                    self.hist.set_counter(ctx.prev1, bm);
                    self.hist
                        .update_quiet(us, bm, piece, ctx.prev1, ctx.prev2, ctx.attacked, b);
                    for &(m, p) in &tried.quiets[..tried.n_quiets] {
                        self.hist
                            .update_quiet(us, m, p, ctx.prev1, ctx.prev2, ctx.attacked, malus);
                    }
                } else if let Some(v) = captured_piece(board, bm) {
                    self.hist.update_capture(us, piece, bm.to, v, b);
                }
                for &(m, p, v) in &tried.captures[..tried.n_captures] {
                    self.hist.update_capture(us, p, m.to, v, malus);
                }
            }
        }

        best_score = best_score.min(tb_ceiling);
        // Step 20. The transposition table's store and the correction history's update.
        let bound = if best_score >= beta {
            TtBound::Lower
        } else if PV && best_score > original_alpha {
            TtBound::Exact
        } else {
            TtBound::Upper
        };
        if excluded.is_some() {
            return best_score;
        }
        // Correction history: a result the bound shows to be off the static evaluation,
        // from a node whose best move is not a capture or promotion (which the evaluation
        // is not expected to see).
        if !in_check
            && best_score.abs() < TB_WIN_BOUND
            && best_move.is_none_or(|m| !is_capture(board, m) && m.promotion.is_none())
            && !(bound == TtBound::Lower && best_score <= static_eval)
            && !(bound == TtBound::Upper && best_score >= static_eval)
        {
            self.hist
                .corr
                .update_slots(corr_slots, best_score - raw_eval, depth);
        }
        self.tt
            .store(key, best_move, best_score, raw_eval, depth, bound, ply);
        best_score
    }
}
