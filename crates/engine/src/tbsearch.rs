//! Tablebase probes inside the search. Right after a capture or a pawn move (the 50-move
//! counter at zero, so the table's value is exact for the position), a position with no
//! more pieces than the largest table is looked up in the WDL tables, at remaining depth
//! `SyzygyProbeDepth` or more (any depth when it has fewer pieces than the largest table).
//! A win scores `TB_WIN - ply` (sooner is better; real mates still score higher), a loss
//! the negation, a draw the draw value; with the 50-move rule counted (the default) a
//! cursed win or blessed loss is a draw, one centipawn either side of it. A result that
//! settles the window ends the node and goes into the hash table (deep, so it is kept);
//! otherwise a principal-variation node searches on with the result as a floor (win) or
//! a ceiling (loss).

use super::tablebase::Wdl;
use super::tt::TtBound;
use super::types::{MAX_PLY, NO_EVAL, TB_WIN};
use super::worker::{Searcher, TbOutcome};
use cozy_chess::Board;

impl<'a> Searcher<'a> {
    /// Probes `board` (reached by a zeroing move) when the tables and the depth allow.
    #[inline(never)]
    pub(crate) fn probe_tb<const PV: bool>(
        &mut self,
        board: &Board,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
    ) -> Option<TbOutcome> {
        let pieces = board.occupied().len();
        if pieces > self.tb_pieces || (pieces == self.tb_pieces && depth < self.tb_depth) {
            return None;
        }
        let wdl = self.tb?.probe_wdl(board)?;
        self.tb_hits += 1;
        let draw = self.draw_value(ply);
        let (score, bound) = match (wdl, self.tb_rule50) {
            (Wdl::Win, _) | (Wdl::CursedWin, false) => (TB_WIN - ply as i32, TtBound::Lower),
            (Wdl::Loss, _) | (Wdl::BlessedLoss, false) => (-TB_WIN + ply as i32, TtBound::Upper),
            (Wdl::CursedWin, true) => (draw + 1, TtBound::Exact),
            (Wdl::BlessedLoss, true) => (draw - 1, TtBound::Exact),
            (Wdl::Draw, _) => (draw, TtBound::Exact),
        };
        let cut = match bound {
            TtBound::Lower => score >= beta,
            TtBound::Upper => score <= alpha,
            _ => true,
        };
        if cut {
            let stored_depth = (depth + 6).min(MAX_PLY as i32 - 1);
            self.tt
                .store(board.hash(), None, score, NO_EVAL, stored_depth, bound, ply);
            return Some(TbOutcome::Cut(score));
        }
        match (PV, bound) {
            (true, TtBound::Lower) => Some(TbOutcome::Floor(score)),
            (true, TtBound::Upper) => Some(TbOutcome::Ceiling(score)),
            _ => None,
        }
    }
}
