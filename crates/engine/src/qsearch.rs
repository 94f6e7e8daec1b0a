//! Quiescence search: resolves captures (and queen promotions) until the position is quiet,
//! so the static evaluation is only trusted in calm positions. Captures are ordered by
//! MVV/LVA; those losing material by SEE and those that cannot lift the score near alpha
//! (delta pruning) are skipped. In check every evasion is searched and mate is detected.
//! Only the horizon node (the first quiescence ply) uses the hash table.

use super::checks::CheckInfo;
use super::correction::Correction;
use super::movepick::OrderContext;
use super::see::{piece_value, see_ge, see_ge_known};
use super::tt::TtBound;
use super::types::{INF, MATE, MAX_PLY, NO_EVAL, TB_WIN_BOUND};
use super::worker::{with_correction, Searcher};
use cozy_chess::{get_pawn_quiets, BitBoard, Board, Move, Piece, PieceMoves};

/// Both back ranks (where pawns promote).
const PROMO_RANKS: BitBoard = BitBoard(0xFF00_0000_0000_00FF);

impl<'a> Searcher<'a> {
    /// Quiescence search at `ply` with window (`alpha`, `beta`). With `checks` (the first
    /// quiescence ply below the main search) quiet moves that give check and do not lose
    /// material are tried too, so mate threats right at the horizon are seen.
    pub(crate) fn qsearch<const PV: bool>(
        &mut self,
        board: &Board,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        checks: bool,
    ) -> i32 {
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
        let in_check = !board.checkers().is_empty();
        if ply >= MAX_PLY - 2 {
            return if in_check {
                self.draw_value(ply)
            } else {
                self.evaluate(board, ply)
            };
        }

        let key = board.hash();
        // Only the first quiescence ply (the horizon node, `checks`) uses the hash table:
        // deeper plies are many, short-lived and rarely transpose, and a table probe there
        // costs a cache miss for little (measured: fewer nodes and more speed on the bench,
        // as many WAC positions solved at a fixed node count).
        let use_tt = checks;
        // The correction history's entries are found first, so that they load while the
        // evaluation runs. The static evaluation comes before the table: the bucket was
        // prefetched when the parent picked this move, and the evaluation's work hides the
        // rest of the load's latency (nine in ten horizon probes miss, so reading the
        // evaluation from the table would rarely save it).
        let (corr_slots, fresh_eval) = if in_check {
            ([0; 3], NO_EVAL)
        } else {
            let slots = Correction::slots(board);
            self.hist.corr.prefetch(slots);
            (slots, self.evaluate(board, ply))
        };
        let tt_hit = if use_tt {
            self.tt.probe(key, ply)
        } else {
            None
        };
        if let Some(h) = tt_hit {
            if !PV && h.settles(alpha, beta) {
                return h.score;
            }
        }

        let static_eval;
        let mut best_score;
        if in_check {
            static_eval = NO_EVAL;
            best_score = -INF;
        } else {
            static_eval = with_correction(fresh_eval, self.hist.corr.of_slots(corr_slots));
            best_score = tt_hit.map_or(static_eval, |h| h.refine(static_eval));
            if best_score >= beta {
                if tt_hit.is_none() && use_tt {
                    self.tt
                        .store(key, None, best_score, fresh_eval, 0, TtBound::Lower, ply);
                }
                return best_score;
            }
            if best_score > alpha {
                alpha = best_score;
            }
        }

        let tt_move = tt_hit.and_then(|h| h.mv);
        // Only evasions (all moves) are ordered by killers and history; captures are not.
        let ctx = if in_check {
            self.order_context(board, ply)
        } else {
            OrderContext::default()
        };
        self.pickers[ply].reset(tt_move, !in_check);
        let mut best_move: Option<Move> = None;
        let mut moves_searched = 0;
        let original_alpha = alpha;
        while let Some(mv) = self.pickers[ply].next(board, self.hist, &ctx) {
            let piece = self.pickers[ply].last_piece();
            let victim = self.pickers[ply].last_victim();
            if !in_check {
                let gain = victim.map_or(0, piece_value)
                    + mv.promotion
                        .map_or(0, |p| piece_value(p) - piece_value(Piece::Pawn));
                if mv.promotion.is_none() && static_eval + gain + self.sp.delta_margin <= alpha {
                    continue;
                }
                if !see_ge_known(board, mv, piece, victim, 0) {
                    continue;
                }
            } else if best_score > -TB_WIN_BOUND && moves_searched >= 3 {
                // In check with a saving move found: skip late quiet evasions that lose material.
                if victim.is_none() && !see_ge_known(board, mv, piece, victim, 0) {
                    continue;
                }
            }
            let mut child = board.clone();
            child.play_unchecked(mv);
            self.eval.prefetch(child.hash());
            self.push_key(child.hash());
            let score = -self.qsearch::<PV>(&child, -beta, -alpha, ply + 1, false);
            self.pop_key();
            if self.stopped {
                return 0;
            }
            moves_searched += 1;
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(mv);
                    if PV {
                        self.update_pv_public(ply, mv);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        if checks && !in_check && best_score < beta {
            let info = CheckInfo::new(board);
            let quiet_checks = &mut self.check_moves[ply];
            quiet_checks.clear();
            let enemy = board.colors(!board.side_to_move());
            board.generate_moves_for(info.quiet_checker_candidates(board), |pm| {
                let mut to = pm.to & !enemy;
                if pm.piece == Piece::Pawn {
                    // Promotions and en passant were searched with the captures.
                    to &= !PROMO_RANKS & !board.occupied();
                    to &= get_pawn_quiets(pm.from, board.side_to_move(), board.occupied());
                }
                if !info.blockers().has(pm.from) {
                    to &= info.check_squares(pm.piece);
                }
                for mv in (PieceMoves { to, ..pm }) {
                    if mv.promotion.is_none() && info.gives_check(board, mv) {
                        quiet_checks.push(mv);
                    }
                }
                false
            });
            // By index: the list is this ply's, and the recursion below borrows `self`.
            for i in 0..self.check_moves[ply].len() {
                let mv = self.check_moves[ply].as_slice()[i];
                if !see_ge(board, mv, 0) {
                    continue;
                }
                let mut child = board.clone();
                child.play_unchecked(mv);
                self.eval.prefetch(child.hash());
                self.push_key(child.hash());
                let score = -self.qsearch::<PV>(&child, -beta, -alpha, ply + 1, false);
                self.pop_key();
                if self.stopped {
                    return 0;
                }
                if score > best_score {
                    best_score = score;
                    if score > alpha {
                        best_move = Some(mv);
                        if PV {
                            self.update_pv_public(ply, mv);
                        }
                        if score >= beta {
                            break;
                        }
                        alpha = score;
                    }
                }
            }
        }
        if in_check && moves_searched == 0 {
            // Either mate, or every evasion was skipped (impossible before a move was found).
            return -MATE + ply as i32;
        }
        let bound = if best_score >= beta {
            TtBound::Lower
        } else if PV && best_score > original_alpha {
            TtBound::Exact
        } else {
            TtBound::Upper
        };
        if use_tt {
            self.tt
                .store(key, best_move, best_score, fresh_eval, 0, bound, ply);
        }
        best_score
    }
}
