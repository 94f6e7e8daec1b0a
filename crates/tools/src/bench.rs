//! `wily bench`: searches a fixed set of varied positions (openings, middlegames with
//! tactics, endgames) to a fixed depth from a fresh state, and prints the total node count
//! (a signature of the search: identical from run to run with one thread) and the speed.

use crate::perft::parse_board;
use engine::{Engine, EngineOptions, Limits, SearchRequest};
use std::io::Write;
use std::time::Instant;

/// Default depth of `wily bench`.
pub const DEFAULT_DEPTH: u32 = 12;

/// The node count `wily bench` prints with its defaults (depth 12, one thread): the
/// search's signature. A change that alters it is a functional change and updates this
/// number in the same commit, with a `Bench: N` trailer and its SPRT (`CONTRIBUTING.md`);
/// `tests/it/bench_signature.rs` and `.ci/bench-signature` check it.
pub const BENCH_SIGNATURE: u64 = 2_351_011;

/// The built-in positions.
pub const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5",
    "rnbqk2r/ppp1bppp/4pn2/3p4/2PP4/2N2N2/PP2PPPP/R1BQKB1R w KQkq - 4 5",
    "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2PP1N2/PP3PPP/RNBQ1RK1 w - - 1 7",
    "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
    "3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - 0 1",
    "2q1rr1k/3bbnnp/p2p1pp1/2pPp3/PpP1P1P1/1P2BNNP/2BQ1PRK/7R b - - 0 1",
    "rnbqkb1r/p3pppp/1p6/2ppP3/3N4/2P5/PPP1QPPP/R1B1KB1R w KQkq - 0 1",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
    "2r3k1/pppR1pp1/4p3/4P1P1/5P2/1P4K1/P1P5/8 w - - 0 1",
    "1nk1r1r1/pp2n1pp/4p3/q2pPp1N/b1pP1P2/B1P2R2/2P1B1PP/R2Q2K1 w - - 0 1",
    "4b3/p3kp2/6p1/3pP2p/2pP1P2/4K1P1/P3N2P/8 w - - 0 1",
    "2kr1bnr/pbpq4/2n1pp2/3p3p/3P1P1B/2N2N1Q/PPP3PP/2KR1B1R w - - 0 1",
    "3rr1k1/pp3pp1/1qn2np1/8/3p4/PP1R1P2/2P1NQPP/R1B3K1 b - - 0 1",
    "2r1nrk1/p2q1ppp/bp1p4/n1pPp3/P1P1P3/2PBB1N1/4QPPP/R4RK1 w - - 0 1",
    "r3r1k1/ppqb1ppp/8/4p1NQ/8/2P5/PP3PPP/R3R1K1 b - - 0 1",
    "r2q1rk1/4bppp/p2p4/2pP4/3pP3/3Q4/PP1B1PPP/R3R1K1 w - - 0 1",
    "rnb2r1k/pp2p2p/2pp2p1/q2P1p2/8/1Pb2NP1/PB2PPBP/R2Q1RK1 w - - 0 1",
    "2r3k1/1p2q1pp/2b1pr2/p1pp4/6Q1/1P1PP1R1/P1PN2PP/5RK1 w - - 0 1",
    "r1bqkb1r/4npp1/p1p4p/1p1pP1B1/8/1B6/PPPN1PPP/R2Q1RK1 w kq - 0 1",
    "r2q1rk1/1ppnbppp/p2p1nb1/3Pp3/2P1P1P1/2N2N1P/PPB1QP2/R1B2RK1 b - - 0 1",
    "r1bq1rk1/pp2ppbp/2np2p1/2n5/P3PP2/N1P2N2/1PB3PP/R1B1QRK1 b - - 0 1",
    "3rr3/2pq2pk/p2p1pnp/8/2QBPP2/1P6/P5PP/4RRK1 b - - 0 1",
    "r4k2/pb2bp1r/1p1qp2p/3pNp2/3P1P2/2N3P1/PPP1Q2P/2KRR3 w - - 0 1",
    "3rn2k/ppb2rpp/2ppqp2/5N2/2P1P3/1P5Q/PB3PPP/3RR1K1 w - - 0 1",
    "2r2rk1/1bqnbpp1/1p1ppn1p/pP6/N1P1P3/P2B1N1P/1B2QPP1/R2R2K1 b - - 0 1",
    "r1bqk2r/pp2bppp/2p5/3pP3/P2Q1P2/2N1B3/1PP3PP/R4RK1 b kq - 0 1",
    "r2qnrnk/p2b2b1/1p1p2pp/2pPpp2/1PP1P3/PRNBB3/3QNPPP/5RK1 w - - 0 1",
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "r1b1kb1r/3q1ppp/pBp1pn2/8/Np3P2/5B2/PPP3PP/R2Q1RK1 w kq - 0 1",
    "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1",
    "r1q2rk1/p3bppb/3p1n1p/2nPp3/1p2P1P1/6NP/PP2QPB1/R1BNK2R b KQ - 0 1",
    "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",
    "8/8/1p6/1P1k4/8/3K4/8/8 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "8/8/4kpp1/3p1b2/p6P/2B5/6P1/6K1 b - - 0 47",
    "8/3k4/8/8/2K5/8/4Q3/8 w - - 0 1",
    "8/5k2/8/3R4/8/2r5/5K2/8 w - - 0 1",
    "8/pp3k2/2p1r1p1/5p1p/3P1P1P/P4KP1/1P3R2/8 w - - 0 35",
    "6k1/3b3r/1p1p4/p1n2p2/1PPNpP1q/P3Q1p1/1R1RB1P1/5K2 b - - 0 1",
    "4r1k1/r1q2ppp/ppp2n2/4P3/5Rb1/1N1BQ3/PPP3PP/R5K1 w - - 1 17",
    "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
];

/// CPU time this process has used so far (all threads, including finished ones), from
/// Linux `/proc/self/stat`; `None` elsewhere.
pub fn process_cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which is in parentheses and may contain spaces).
    let rest = &text[text.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the whole line: 11 and 12 after ')'.
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    // The kernel reports clock ticks; USER_HZ is 100 on every Linux ABI wily targets.
    Some((utime + stime) / 100.0)
}

/// Runs the benchmark and writes one line per position, then the totals; the last line
/// is `<nodes> nodes <nps> nps`. Returns the total node count.
pub fn run_bench(depth: u32, threads: usize, out: &mut dyn Write) -> Result<u64, String> {
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 16,
        threads: threads.max(1),
        ..EngineOptions::default()
    });
    let mut total_nodes = 0u64;
    // Only search time counts (not clearing the hash table between positions).
    let mut search_time = 0.0f64;
    let cpu_start = process_cpu_seconds();
    for (i, fen) in POSITIONS.iter().enumerate() {
        let board = parse_board(fen)?;
        engine.new_game();
        let t = Instant::now();
        let r = engine.search(
            SearchRequest::new(board.clone(), Limits::depth(depth)),
            Box::new(|_| {}),
        );
        total_nodes += r.nodes;
        search_time += t.elapsed().as_secs_f64();
        let best = r
            .best
            .map(|m| chess::move_to_uci(&board, m, false))
            .unwrap_or_else(|| "(none)".to_string());
        writeln!(
            out,
            "{:>2}/{} {:>10} nodes {:>6} ms  best {best:<6} score {}",
            i + 1,
            POSITIONS.len(),
            r.nodes,
            t.elapsed().as_millis(),
            r.score.to_uci()
        )
        .map_err(|e| e.to_string())?;
    }
    let secs = search_time.max(1e-9);
    let wall_nps = (total_nodes as f64 / secs) as u64;
    let cpu = cpu_start
        .zip(process_cpu_seconds())
        .map(|(a, b)| b - a)
        .filter(|c| *c > 0.5);
    writeln!(
        out,
        "depth {depth} threads {threads} search time {secs:.3} s wall, {wall_nps} nps by wall clock"
    )
    .map_err(|e| e.to_string())?;
    // On a loaded machine wall time overstates the cost; with one thread the CPU time the
    // process actually got is the fairer measure of speed (it includes hash clearing).
    let nps = match cpu {
        Some(c) if threads <= 1 => {
            writeln!(out, "on-CPU time {c:.3} s (nps below is per CPU second)")
                .map_err(|e| e.to_string())?;
            (total_nodes as f64 / c) as u64
        }
        _ => wall_nps,
    };
    writeln!(out, "{total_nodes} nodes {nps} nps").map_err(|e| e.to_string())?;
    Ok(total_nodes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bench_position_is_a_legal_fen_and_there_are_enough() {
        assert!(POSITIONS.len() >= 40);
        for fen in POSITIONS {
            let b = parse_board(fen).expect("bench FEN parses");
            assert_eq!(b.status(), cozy_chess::GameStatus::Ongoing, "{fen}");
        }
    }
}
