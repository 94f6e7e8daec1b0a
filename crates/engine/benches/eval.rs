//! Evaluation speed: evaluations per second over a fixed set of varied positions and over
//! many positions from seeded random games (more distinct pawn structures, so more pawn
//! hash misses). Run with `cargo bench --bench eval`; `-- --trace` also prints the trace
//! of each fixed position.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

use cozy_chess::{Board, Move};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use wily_engine::eval::{trace, EvalParams, Evaluator};

const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "r1b1k2r/ppppnppp/2n2q2/2b5/3NP3/2P1B3/PP3PPP/RN1QKB1R w KQkq - 1 7",
    "8/pp3k2/2p1b3/2P2p2/1P1B1P2/4K3/8/8 w - - 0 40",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1",
    "r2q1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9",
    "2kr3r/ppp2ppp/2n5/2b1p3/4P1b1/2NP1N2/PPP2PPP/R1B1KB1R w KQ - 0 9",
    "8/8/4k3/8/2K5/3P4/8/8 w - - 0 1",
];

fn shared_dir() -> PathBuf {
    match std::env::var_os("WILY_SHARED") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    }
}

fn fixed_positions() -> Vec<Board> {
    let mut out: Vec<Board> = FENS
        .iter()
        .filter_map(|f| Board::from_fen(f, false).ok())
        .collect();
    let wac = shared_dir().join("data/epd/wac.epd");
    if let Ok(text) = std::fs::read_to_string(&wac) {
        for line in text.lines() {
            let fields: Vec<&str> = line.split_whitespace().take(4).collect();
            if fields.len() == 4 {
                if let Ok(b) = Board::from_fen(&format!("{} 0 1", fields.join(" ")), false) {
                    out.push(b);
                }
            }
        }
    } else {
        println!("note: {} not found, built-in positions only", wac.display());
    }
    out
}

fn random_positions(n: usize) -> Vec<Board> {
    let mut rng = StdRng::seed_from_u64(20_240_601);
    let mut out = Vec::with_capacity(n);
    let mut moves: Vec<Move> = Vec::new();
    while out.len() < n {
        let mut b = Board::default();
        let plies = rng.gen_range(10..160);
        for _ in 0..plies {
            moves.clear();
            b.generate_moves(|ms| {
                moves.extend(ms);
                false
            });
            if moves.is_empty() {
                break;
            }
            b.play_unchecked(moves[rng.gen_range(0..moves.len())]);
            out.push(b.clone());
        }
    }
    out.truncate(n);
    out
}

/// Nanoseconds this process has spent on a CPU (Linux `/proc/self/schedstat`), so figures
/// stay meaningful when other jobs share the cores. `None` elsewhere.
fn cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

fn report(name: &str, n: usize, wall: f64, cpu: Option<f64>) {
    let line = format!(
        "{name}: {n} evals, wall {wall:.3} s: {:.0} evals/s",
        n as f64 / wall
    );
    match cpu {
        Some(c) if c > 0.0 => println!(
            "{line}; on-CPU {c:.3} s: {:.0} evals/s ({:.0} ns/eval)",
            n as f64 / c,
            c * 1e9 / n as f64
        ),
        _ => println!("{line}"),
    }
}

fn measure(name: &str, ev: &mut Evaluator, boards: &[Board], min_evals: usize) {
    // Warm-up pass (fills the pawn table, the KPK bitbase is already built).
    let mut sum = 0i64;
    for b in boards {
        sum += i64::from(ev.evaluate(b));
    }
    let rounds = min_evals.div_ceil(boards.len()).max(1);
    let cpu0 = cpu_ns();
    let start = Instant::now();
    for _ in 0..rounds {
        for b in boards {
            sum += i64::from(ev.evaluate(black_box(b)));
        }
    }
    let wall = start.elapsed().as_secs_f64();
    let cpu = cpu0
        .zip(cpu_ns())
        .map(|(a, b)| b.saturating_sub(a) as f64 / 1e9);
    black_box(sum);
    report(name, rounds * boards.len(), wall, cpu);
}

fn main() {
    let show_trace = std::env::args().any(|a| a == "--trace");
    let params = EvalParams::default();
    let start = Instant::now();
    let mut ev = Evaluator::new(params.clone());
    println!(
        "first Evaluator::new (KPK bitbase + pawn table): {:.1} ms",
        start.elapsed().as_secs_f64() * 1e3
    );
    let fixed = fixed_positions();
    if show_trace {
        for b in &fixed {
            println!("{b}\n{}\n", trace(b, &params));
        }
    }
    let random = random_positions(200_000);
    measure("fixed positions", &mut ev, &fixed, 3_000_000);
    measure("random-game positions", &mut ev, &random, 3_000_000);
    let mut fresh = Evaluator::new(params);
    let cpu0 = cpu_ns();
    let start = Instant::now();
    let mut sum = 0i64;
    for b in &random {
        sum += i64::from(fresh.evaluate(black_box(b)));
    }
    let wall = start.elapsed().as_secs_f64();
    let cpu = cpu0
        .zip(cpu_ns())
        .map(|(a, b)| b.saturating_sub(a) as f64 / 1e9);
    black_box(sum);
    report(
        "random-game positions, cold pawn table",
        random.len(),
        wall,
        cpu,
    );
}
