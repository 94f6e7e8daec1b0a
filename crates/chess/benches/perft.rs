//! Perft benchmark: wily's perft (`wily_chess::perft::perft`) against a reference bulk
//! perft written directly on cozy-chess's move generator (the algorithm of cozy-chess's
//! own perft example: copy-make, leaf counting from the move sets at the last ply).
//! Prints nodes and nps of both and the ratio. Run with `cargo bench --bench perft`.

use cozy_chess::Board;
use std::hint::black_box;
use std::time::Instant;

fn reference_bulk_perft(board: &Board, depth: u8) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    if depth == 1 {
        board.generate_moves(|moves| {
            nodes += moves.len() as u64;
            false
        });
        return nodes;
    }
    board.generate_moves(|moves| {
        for mv in moves {
            let mut child = board.clone();
            child.play_unchecked(mv);
            nodes += reference_bulk_perft(&child, depth - 1);
        }
        false
    });
    nodes
}

const CASES: &[(&str, u8)] = &[
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        6,
    ),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        5,
    ),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 7),
    (
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        5,
    ),
];

fn main() {
    let rounds = 3;
    let (mut wily_nodes, mut wily_secs) = (0u64, 0f64);
    let (mut ref_nodes, mut ref_secs) = (0u64, 0f64);
    for round in 0..rounds {
        for &(fen, depth) in CASES {
            let board: Board = match fen.parse() {
                Ok(b) => b,
                Err(e) => {
                    eprintln!("bad FEN {fen}: {e:?}");
                    continue;
                }
            };
            // Alternate the order so neither side always runs on a cold cache.
            let run_wily = |acc: &mut (u64, f64)| {
                let t = Instant::now();
                let n = wily_chess::perft::perft(black_box(&board), depth as u32);
                acc.0 += n;
                acc.1 += t.elapsed().as_secs_f64();
                n
            };
            let run_ref = |acc: &mut (u64, f64)| {
                let t = Instant::now();
                let n = reference_bulk_perft(black_box(&board), depth);
                acc.0 += n;
                acc.1 += t.elapsed().as_secs_f64();
                n
            };
            let mut w = (wily_nodes, wily_secs);
            let mut r = (ref_nodes, ref_secs);
            let (a, b) = if round % 2 == 0 {
                let a = run_wily(&mut w);
                (a, run_ref(&mut r))
            } else {
                let b = run_ref(&mut r);
                (run_wily(&mut w), b)
            };
            assert_eq!(a, b, "perft counts differ for {fen}");
            (wily_nodes, wily_secs) = w;
            (ref_nodes, ref_secs) = r;
        }
    }
    let wily_nps = wily_nodes as f64 / wily_secs.max(1e-9);
    let ref_nps = ref_nodes as f64 / ref_secs.max(1e-9);
    println!(
        "wily perft:        {wily_nodes} nodes {wily_secs:.3} s {:.0} nps",
        wily_nps
    );
    println!(
        "cozy-chess bulk:   {ref_nodes} nodes {ref_secs:.3} s {:.0} nps",
        ref_nps
    );
    println!("ratio wily/cozy:   {:.3}", wily_nps / ref_nps);
}
