//! One search thread's state (`Searcher`: its tables, stack, principal variation, root
//! moves, node counts and observers) and the small helpers every part of the search
//! shares: the stop and time check, draws and their value, evaluation with correction,
//! the repetition keys and move-ordering context. The search itself is in `search.rs`,
//! `qsearch.rs`, `tbsearch.rs` and `root.rs`, all below nothing but this file.

use super::eval::Evaluator;
use super::history::{History, Played};
use super::learned::LearnedTable;
use super::limits::Limits;
use super::movelist::NULL_MOVE;
use super::movepick::{MoveList, MovePicker, OrderContext, Threats};
use super::shared::Shared;
use super::tablebase::Tablebases;
use super::tt::TranspositionTable;
use super::tunables::SearchParams;
use super::types::{Bound, InfoCallback, INF, MAX_PLY, TB_WIN_BOUND};
use super::watch::{RootMoveCallback, TraceCallback, TraceNode, MAX_TRACE_PLY};
use cozy_chess::{Board, Color, Move, Piece};
use std::sync::atomic::Ordering;

/// What a tablebase probe means for a node (see `tbsearch.rs`).
pub(crate) enum TbOutcome {
    /// The node's value: return it.
    Cut(i32),
    /// The value is at least this (a win not yet proven by mate).
    Floor(i32),
    /// The value is at most this (a loss).
    Ceiling(i32),
}

/// A raw static evaluation with a correction added, kept clear of mate and tablebase
/// scores.
#[inline]
pub(crate) fn with_correction(raw: i32, correction: i32) -> i32 {
    (raw + correction).clamp(-TB_WIN_BOUND + 1, TB_WIN_BOUND - 1)
}

/// Per-ply scratch data of the current path.
#[derive(Clone, Copy, Default)]
pub struct StackEntry {
    pub eval: i32,
    /// The move played from this ply (for counter moves and continuation history).
    pub played: Option<Played>,
    pub null: bool,
    /// The move a singular-extension search leaves out at this ply.
    pub excluded: Option<Move>,
    /// The piece the move played from this ply took (with `played`, for recaptures).
    pub captured: Option<Piece>,
    /// Whether that move was extended as a recapture (one in two plies at most).
    pub recaptured: bool,
    /// The fraction of a ply of extension carried into this ply (hundredths; `extend.rs`),
    /// written by the node above before it searches this one.
    pub ext_carry: i32,
}

/// The moves a node searched without raising alpha, for the history penalties when a
/// later move cuts off. One per ply, made once per search: a node resets the counts and
/// never clears the arrays (only the first `n_*` entries are read).
#[derive(Clone, Copy)]
pub struct TriedMoves {
    pub(crate) quiets: [(Move, Piece); 64],
    pub(crate) n_quiets: usize,
    pub(crate) captures: [(Move, Piece, Piece); 32],
    pub(crate) n_captures: usize,
}

impl Default for TriedMoves {
    fn default() -> Self {
        TriedMoves {
            quiets: [(NULL_MOVE, Piece::Pawn); 64],
            n_quiets: 0,
            captures: [(NULL_MOVE, Piece::Pawn, Piece::Pawn); 32],
            n_captures: 0,
        }
    }
}

/// A root move with what the search learnt about it.
#[derive(Clone, Debug)]
pub struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub prev_score: i32,
    pub bound: Bound,
    pub seldepth: usize,
    pub pv: Vec<Move>,
    pub nodes: u64,
}

impl RootMove {
    pub fn new(mv: Move) -> RootMove {
        RootMove {
            mv,
            score: -INF,
            prev_score: -INF,
            bound: Bound::Upper,
            seldepth: 0,
            pv: vec![mv],
            nodes: 0,
        }
    }
}

/// One thread's search state for one search.
pub struct Searcher<'a> {
    pub id: usize,
    pub tt: &'a TranspositionTable,
    /// Learned positions: trusted at any node, PV included, when deep enough.
    pub learned: &'a LearnedTable,
    pub shared: &'a Shared,
    pub hist: &'a mut History,
    pub eval: &'a mut Evaluator,
    /// The tunable constants (margins, reductions) and the reduction table.
    pub sp: &'a SearchParams,
    pub limits: &'a Limits,
    pub on_info: Option<InfoCallback>,
    /// Told each root move as it is searched (main thread only; `None`: nobody asks).
    pub on_root_move: Option<RootMoveCallback>,
    /// `trace n`: the nodes to ply `trace_ply` are told to `on_trace` (0: no trace; main
    /// thread only), the moves leading to them kept in `trace_line`.
    pub(crate) trace_ply: usize,
    pub(crate) on_trace: Option<TraceCallback>,
    pub(crate) trace_line: [Move; MAX_TRACE_PLY],
    pub nodes: u64,
    pub seldepth: usize,
    pub stopped: bool,
    pub root_depth: i32,
    pub root_color: Color,
    pub draw_score: i32,
    pub multipv: usize,
    pub pv_idx: usize,
    pub root_moves: Vec<RootMove>,
    pub completed_depth: u32,
    pub best_move_changes: f64,
    pub(crate) keys: Vec<u64>,
    pub(crate) root_key_index: usize,
    pub(crate) rep_floor: usize,
    pub(crate) stack: Vec<StackEntry>,
    /// One move picker per ply, reused node after node (no clearing, no allocation).
    pub(crate) pickers: Vec<MovePicker>,
    /// One list per ply for quiescence's quiet checks (made once, not per node).
    pub(crate) check_moves: Vec<MoveList>,
    /// One record per ply of the moves tried without success.
    pub(crate) tried: Vec<TriedMoves>,
    pub(crate) pv: Vec<[Option<Move>; MAX_PLY + 1]>,
    pub(crate) pv_len: [usize; MAX_PLY + 2],
    /// Node limit when it must be exact (single thread), else u64::MAX.
    pub(crate) exact_node_limit: u64,
    /// Tablebases probed in the tree (see `tbsearch.rs`); `tb_pieces` 0 = no probing.
    pub(crate) tb: Option<&'a Tablebases>,
    pub(crate) tb_pieces: u32,
    pub(crate) tb_depth: i32,
    /// Cursed wins and blessed losses count as draws.
    pub(crate) tb_rule50: bool,
    pub tb_hits: u64,
    /// The root's tablebase value, reported while the search has no mate score.
    pub(crate) tb_root_score: Option<i32>,
}

impl<'a> Searcher<'a> {
    /// Counts a node and checks, every so often, the stop conditions.
    #[inline]
    pub(crate) fn tick(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        self.nodes += 1;
        if self.nodes >= self.exact_node_limit {
            self.shared.stop.store(true, Ordering::Relaxed);
        }
        if self.nodes & 1023 == 0 {
            self.shared.publish_nodes(self.id, self.nodes);
            if self.id == 0 {
                self.shared.check_limits();
            }
        }
        if self.shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        self.stopped
    }

    /// Tells the trace the child of a node at `ply` just searched (by `trace_line[ply]`),
    /// with its parent's window and the score it gave the parent.
    #[cold]
    pub(crate) fn report_trace(&mut self, ply: usize, depth: i32, window: (i32, i32), score: i32) {
        let Some(cb) = self.on_trace.as_mut() else {
            return;
        };
        // Scores from the root's side to move: a node an odd number of plies down speaks
        // for the other side.
        let (alpha, beta) = window;
        let (alpha, beta, score) = if ply % 2 == 1 {
            (-beta, -alpha, -score)
        } else {
            (alpha, beta, score)
        };
        let line = &self.trace_line[..=ply];
        cb(&TraceNode::new(line, depth, alpha, beta, score, self.nodes));
    }

    /// The draw value from the side to move's view at `ply` (contempt is wily's view).
    #[inline]
    pub(crate) fn draw_value(&self, ply: usize) -> i32 {
        if ply.is_multiple_of(2) {
            self.draw_score
        } else {
            -self.draw_score
        }
    }

    /// Repetition (in the search path, or threefold with the game) or 50-move draw.
    #[inline]
    pub(crate) fn is_draw(&self, board: &Board) -> bool {
        let hm = board.halfmove_clock() as usize;
        if hm >= 100 {
            return true;
        }
        // Bare kings, or king and one minor piece against a king.
        let occ = board.occupied();
        if occ.len() <= 3
            && (board.pieces(Piece::Pawn) | board.pieces(Piece::Rook) | board.pieces(Piece::Queen))
                .is_empty()
        {
            return true;
        }
        let n = self.keys.len();
        if n < 5 || hm < 4 {
            return false;
        }
        let cur = n - 1;
        let key = self.keys[cur];
        let lowest = cur.saturating_sub(hm).max(self.rep_floor);
        let mut count = 0;
        let mut back = 4;
        while back <= cur - lowest.min(cur) {
            let j = cur - back;
            if self.keys[j] == key {
                if j >= self.root_key_index {
                    return true;
                }
                count += 1;
                if count >= 2 {
                    return true;
                }
            }
            back += 2;
        }
        false
    }

    #[inline]
    pub(crate) fn update_pv_public(&mut self, ply: usize, mv: Move) {
        self.update_pv(ply, mv)
    }

    #[inline]
    pub(crate) fn update_pv(&mut self, ply: usize, mv: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = Some(mv);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    #[inline]
    pub(crate) fn evaluate(&mut self, board: &Board, ply: usize) -> i32 {
        self.eval
            .evaluate_at(board, ply)
            .clamp(-TB_WIN_BOUND + 1, TB_WIN_BOUND - 1)
    }

    #[inline]
    pub(crate) fn push_key(&mut self, key: u64) {
        self.keys.push(key);
    }

    #[inline]
    pub(crate) fn pop_key(&mut self) {
        self.keys.pop();
    }

    pub(crate) fn order_context(&self, board: &Board, ply: usize) -> OrderContext {
        let prev1 = if ply >= 1 {
            self.stack[ply - 1].played
        } else {
            None
        };
        let prev2 = if ply >= 2 {
            self.stack[ply - 2].played
        } else {
            None
        };
        let (threats, attacked) = Threats::of_node(board);
        OrderContext {
            prev1,
            prev2,
            rows: [Played::row(prev1), Played::row(prev2)],
            killers: self.hist.killers(ply),
            counter: self.hist.counter(prev1),
            attacked,
            threats,
        }
    }

    /// Non-pawn material of the side to move exists (null-move zugzwang guard).
    #[inline]
    pub(crate) fn has_non_pawn_material(board: &Board) -> bool {
        let us = board.colors(board.side_to_move());
        !(us & (board.pieces(Piece::Knight)
            | board.pieces(Piece::Bishop)
            | board.pieces(Piece::Rook)
            | board.pieces(Piece::Queen)))
        .is_empty()
    }
}
