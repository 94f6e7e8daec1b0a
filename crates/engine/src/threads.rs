//! Lazy SMP: the per-thread persistent data, running one search on N threads sharing the
//! transposition table and the [`Shared`] state of `shared.rs`, and choosing the move from
//! the threads' results (by depth and score, with votes).

use super::eval::Evaluator;
use super::history::History;
use super::learned::LearnedTable;
use super::limits::{EngineOptions, SearchRequest};
use super::movepick::{MoveList, MovePicker, OrderContext};
use super::shared::{Shared, ThreadResult};
use super::tablebase::rank::{rank_root, RootTb};
use super::tablebase::swindle::swindle_root;
use super::tablebase::TbConfig;
use super::tt::TranspositionTable;
use super::tunables::SearchParams;
use super::types::{InfoCallback, Score, SearchResult, INF, MATE, MAX_PLY, TB_WIN_BOUND};
use super::watch::Watchers;
use super::worker::{RootMove, Searcher, StackEntry, TriedMoves};
use cozy_chess::{Board, Move};
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Persistent per-thread data (survives between searches).
pub struct Worker {
    pub hist: History,
    pub eval: Evaluator,
}

/// Everything one search needs besides the workers.
pub struct SearchSetup<'a> {
    pub tt: &'a TranspositionTable,
    /// Position learning's entries (read only).
    pub learned: &'a LearnedTable,
    pub shared: &'a Shared,
    pub sp: &'a SearchParams,
    pub request: &'a SearchRequest,
    pub options: &'a EngineOptions,
    pub tb: &'a TbConfig,
}

/// Root moves in a sensible first order (hash move, good captures, ...), restricted to
/// `searchmoves` when that names at least one legal move.
fn root_moves(
    board: &Board,
    searchmoves: &[Move],
    tt: &TranspositionTable,
    hist: &History,
) -> Vec<RootMove> {
    let tt_move = tt.probe(board.hash(), 0).and_then(|h| h.mv);
    let mut picker = MovePicker::new(tt_move, false);
    let ctx = OrderContext::root(board);
    let mut out = Vec::new();
    while let Some(mv) = picker.next(board, hist, &ctx) {
        out.push(RootMove::new(mv));
    }
    if !searchmoves.is_empty() {
        let filtered: Vec<RootMove> = out
            .iter()
            .filter(|r| searchmoves.contains(&r.mv))
            .cloned()
            .collect();
        if !filtered.is_empty() {
            return filtered;
        }
    }
    out
}

fn make_searcher<'a>(
    id: usize,
    worker: &'a mut Worker,
    setup: &SearchSetup<'a>,
    on_info: Option<InfoCallback>,
    watchers: Watchers,
    tb_root: Option<&RootTb>,
) -> Searcher<'a> {
    let req = setup.request;
    let board = &req.board;
    let mut keys = Vec::with_capacity(req.history.len() + MAX_PLY + 16);
    keys.extend_from_slice(&req.history);
    let root_key_index = keys.len();
    keys.push(board.hash());
    worker.hist.new_search();
    // Asymmetric evaluation terms (king safety) treat the side to move at the root as wily.
    worker.eval.set_own_side(Some(board.side_to_move()));
    let mut root_moves = root_moves(board, &req.searchmoves, setup.tt, &worker.hist);
    if let Some(t) = tb_root {
        root_moves.retain(|r| t.moves.contains(&r.mv));
    }
    let threads = setup.options.threads.max(1);
    let tables = setup.tb.tables.as_deref();
    // A root ranked by DTZ needs no probes below it, nor does a drawn root in swindle
    // mode (the evaluation chooses among the drawing moves); otherwise probe up to the
    // largest table.
    let tb_pieces = match (tables, tb_root) {
        (_, Some(t)) if t.by_dtz || (t.drawn && setup.tb.swindle) => 0,
        (Some(tb), _) => tb.largest(),
        (None, _) => 0,
    };
    Searcher {
        id,
        tt: setup.tt,
        learned: setup.learned,
        shared: setup.shared,
        hist: &mut worker.hist,
        eval: &mut worker.eval,
        sp: setup.sp,
        limits: &req.limits,
        on_info,
        on_root_move: watchers.root_move,
        trace_ply: watchers
            .trace
            .as_ref()
            .map_or(0, |(n, _)| (*n).min(super::watch::MAX_TRACE_PLY)),
        on_trace: watchers.trace.map(|(_, cb)| cb),
        trace_line: [super::movelist::NULL_MOVE; super::watch::MAX_TRACE_PLY],
        nodes: 0,
        seldepth: 0,
        stopped: false,
        root_depth: 1,
        root_color: board.side_to_move(),
        draw_score: setup.options.draw_score,
        multipv: if id == 0 {
            setup.options.multipv.max(1)
        } else {
            1
        },
        pv_idx: 0,
        root_moves,
        completed_depth: 0,
        best_move_changes: 0.0,
        keys,
        root_key_index,
        rep_floor: 0,
        stack: vec![StackEntry::default(); MAX_PLY + 4],
        pickers: (0..MAX_PLY + 4)
            .map(|_| MovePicker::new(None, false))
            .collect(),
        check_moves: (0..MAX_PLY + 4).map(|_| MoveList::new()).collect(),
        tried: vec![TriedMoves::default(); MAX_PLY + 4],
        pv: vec![[None; MAX_PLY + 1]; MAX_PLY + 2],
        pv_len: [0; MAX_PLY + 2],
        exact_node_limit: if threads == 1 {
            req.limits.nodes.unwrap_or(u64::MAX).max(1)
        } else {
            u64::MAX
        },
        tb: tables,
        tb_pieces,
        tb_depth: setup.tb.probe_depth,
        tb_rule50: setup.tb.rule50,
        // The root's own probe counts as the main thread's first hit.
        tb_hits: u64::from(id == 0 && tb_root.is_some()),
        tb_root_score: tb_root.map(|t| t.score),
    }
}

/// Stack size of search threads (deep recursion with boards on the stack).
const STACK_SIZE: usize = 64 * 1024 * 1024;

/// Runs one search on `workers.len()` threads (the calling thread is the main one) and
/// returns the chosen move. Blocks until the search ends. Only the main thread reports
/// (`on_info`, `watchers`).
pub fn run_search(
    workers: &mut [Worker],
    setup: &SearchSetup<'_>,
    on_info: InfoCallback,
    watchers: Watchers,
) -> SearchResult {
    let shared = setup.shared;
    let board = &setup.request.board;
    let limits = &setup.request.limits;
    let Some((main_worker, helpers)) = workers.split_first_mut() else {
        return SearchResult::default();
    };
    let legal = MoveList::legal(board);
    if legal.is_empty() {
        let score = if board.checkers().is_empty() {
            Score::Cp(setup.options.draw_score)
        } else {
            Score::Mate(0)
        };
        return SearchResult {
            score,
            ..SearchResult::default()
        };
    }
    setup.tt.new_search();
    // A root in the tablebases: only the moves that keep its value are searched.
    let tb_root = setup.tb.tables.as_deref().and_then(|tb| {
        rank_root(
            tb,
            board,
            &setup.request.searchmoves,
            setup.tb.rule50,
            setup.options.draw_score,
        )
        .map(|root| swindle_root(tb, board, root, setup.tb.swindle, setup.tb.rule50))
    });
    let tb_root = tb_root.as_ref();
    let (main_best, main_result) = std::thread::scope(|scope| {
        let mut handles = Vec::new();
        for (i, w) in helpers.iter_mut().enumerate() {
            let id = i + 1;
            let spawned = std::thread::Builder::new()
                .name(format!("wily-search-{id}"))
                .stack_size(STACK_SIZE)
                .spawn_scoped(scope, move || {
                    let mut s = make_searcher(id, w, setup, None, Watchers::default(), tb_root);
                    s.iterate(board);
                    shared.publish_nodes(id, s.nodes);
                    shared.publish_tbhits(id, s.tb_hits);
                });
            if let Ok(h) = spawned {
                handles.push(h);
            }
        }
        let mut s = make_searcher(0, main_worker, setup, Some(on_info), watchers, tb_root);
        s.iterate(board);
        shared.publish_nodes(0, s.nodes);
        shared.publish_tbhits(0, s.tb_hits);
        // In analysis or ponder mode the answer waits for `stop` / `ponderhit`.
        while (limits.infinite || shared.pondering.load(Ordering::Relaxed))
            && !shared.stop.load(Ordering::Relaxed)
        {
            std::thread::sleep(Duration::from_millis(1));
        }
        shared.stop.store(true, Ordering::Relaxed);
        for h in handles {
            let _ = h.join();
        }
        let rm = &s.root_moves[0];
        let main = ThreadResult {
            depth: s.completed_depth,
            score: if rm.score > -INF {
                rm.score
            } else {
                rm.prev_score
            },
            mv: Some(rm.mv),
            pv: rm.pv.clone(),
        };
        (rm.mv, main)
    });

    // Vote among threads that finished at least one iteration.
    let mut chosen = main_result.clone();
    let threads = 1 + helpers.len();
    if threads > 1 && main_result.depth > 0 {
        let results: Vec<ThreadResult> = (1..threads)
            .map(|i| shared.result(i))
            .filter(|r| r.depth > 0 && r.mv.is_some())
            .chain(std::iter::once(main_result.clone()))
            .collect();
        let min_score = results.iter().map(|r| r.score).min().unwrap_or(0);
        let mut votes: Vec<(Move, i64)> = Vec::new();
        for r in &results {
            if let Some(mv) = r.mv {
                let w = (r.score - min_score + 14) as i64 * r.depth as i64;
                match votes.iter_mut().find(|(m, _)| *m == mv) {
                    Some(v) => v.1 += w,
                    None => votes.push((mv, w)),
                }
            }
        }
        let vote_of = |mv: Option<Move>| {
            votes
                .iter()
                .find(|(m, _)| Some(*m) == mv)
                .map_or(0, |v| v.1)
        };
        for r in &results {
            let better = if r.score >= MATE - MAX_PLY as i32 {
                r.score > chosen.score
            } else {
                // A helper that finished fewer iterations than the main thread never
                // replaces it: the answer is at least as deep as the main search got.
                r.depth >= main_result.depth
                    && (vote_of(r.mv) > vote_of(chosen.mv)
                        || (vote_of(r.mv) == vote_of(chosen.mv) && r.depth > chosen.depth))
            };
            if better && r.mv.is_some_and(|m| legal.as_slice().contains(&m)) {
                chosen = r.clone();
            }
        }
    }
    if chosen.mv.is_none() {
        chosen.mv = Some(main_best);
    }
    let pv = legal_prefix(board, &chosen.pv, chosen.mv);
    let best = pv.first().copied().or(chosen.mv);
    let ponder = pv.get(1).copied().or_else(|| {
        let mv = best?;
        let mut b = board.clone();
        b.try_play(mv).ok()?;
        let m = setup.tt.probe(b.hash(), 0)?.mv?;
        b.is_legal(m).then_some(m)
    });
    // A tablebase root reports the tables' value unless the search proved more.
    let score = match tb_root {
        Some(t) if chosen.score.abs() < TB_WIN_BOUND => t.score,
        _ => chosen.score,
    };
    SearchResult {
        best,
        ponder,
        score: if score > -INF {
            Score::from_internal(score)
        } else {
            Score::Cp(0)
        },
        depth: chosen.depth,
        nodes: shared.total_nodes(),
        time: shared.tm.elapsed(),
        pv,
    }
}

/// The longest legal prefix of `pv` (starting with `first` when the pv is empty).
pub fn legal_prefix(board: &Board, pv: &[Move], first: Option<Move>) -> Vec<Move> {
    let mut out = Vec::new();
    let mut b = board.clone();
    let moves: Vec<Move> = if pv.is_empty() {
        first.into_iter().collect()
    } else {
        pv.to_vec()
    };
    for mv in moves {
        if b.try_play(mv).is_err() {
            break;
        }
        out.push(mv);
    }
    out
}
