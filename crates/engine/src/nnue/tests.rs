//! Tests of the network evaluator: incremental updates against refreshes, every vector
//! form of the loops this processor runs against the scalar one, and the evaluation's
//! symmetry.

use super::accumulator::piece_sets;
use super::*;
use cozy_chess::Move;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// A network of pseudo-random weights (small enough not to overflow) of shape `arch`.
pub fn random_network_of(arch: Arch, seed: u64) -> Network {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut n = Network::zeroed(arch);
    for w in n.feature_weights.iter_mut() {
        *w = rng.gen_range(-60..=60);
    }
    for w in n.feature_bias.iter_mut() {
        *w = rng.gen_range(0..=120);
    }
    for w in n.output_weights.iter_mut() {
        *w = rng.gen_range(-127..=127);
    }
    for b in n.output_bias.iter_mut() {
        *b = rng.gen_range(-5000..=5000);
    }
    n
}

/// The shipped shape with pseudo-random weights.
pub fn random_network(seed: u64) -> Network {
    random_network_of(
        Arch {
            hidden: 256,
            activation: Activation::SCRelu,
            buckets: 8,
        },
        seed,
    )
}

fn moves(board: &Board) -> Vec<Move> {
    let mut v = Vec::new();
    board.generate_moves(|ms| {
        v.extend(ms);
        false
    });
    v
}

#[test]
fn incremental_updates_equal_refreshes_along_random_games() {
    let paths = Path::available();
    eprintln!(
        "loops run here: {:?}",
        paths.iter().map(|p| p.name()).collect::<Vec<_>>()
    );
    if std::env::var("CI").is_ok() && cfg!(target_arch = "x86_64") {
        // CI's machines have AVX2 (and AVX-512): the vector forms must be tested there.
        assert!(
            paths.contains(&Path::Avx2),
            "no AVX2 on this x86-64 machine"
        );
    }
    for (k, arch) in [
        Arch {
            hidden: 256,
            activation: Activation::SCRelu,
            buckets: 8,
        },
        Arch {
            hidden: 128,
            activation: Activation::CRelu,
            buckets: 1,
        },
        Arch {
            hidden: 96,
            activation: Activation::SCRelu,
            buckets: 3,
        },
    ]
    .into_iter()
    .enumerate()
    {
        let net = Arc::new(random_network_of(arch, 1 + k as u64));
        let mut rng = StdRng::seed_from_u64(2);
        let mut evaluators: Vec<Nnue> = paths
            .iter()
            .map(|&p| Nnue::with_path(Arc::clone(&net), p))
            .collect();
        let mut checked = 0;
        for _ in 0..30 {
            let mut board = Board::default();
            // A search-like walk: down a line, sometimes back up to a sibling.
            let mut line = vec![board.clone()];
            for _ in 0..120 {
                let ms = moves(&board);
                if ms.is_empty() {
                    break;
                }
                if line.len() > 2 && rng.gen_bool(0.2) {
                    let back = rng.gen_range(1..line.len());
                    line.truncate(back);
                    board = line[back - 1].clone();
                    continue;
                }
                board.play_unchecked(ms[rng.gen_range(0..ms.len())]);
                line.push(board.clone());
                let ply = line.len() - 1;
                let fresh = Accumulator::refresh(&net, &piece_sets(&board), Path::Scalar);
                let stm = usize::from(board.side_to_move() == Color::Black);
                let pieces = board.occupied().len();
                let want = fresh.output(&net, stm, pieces, Path::Scalar);
                for (e, &path) in evaluators.iter_mut().zip(&paths) {
                    assert_eq!(*e.accumulator(&board, ply), fresh, "{arch} {path:?}");
                    assert_eq!(e.evaluate(&board, ply), want, "{arch} {path:?}");
                    assert_eq!(
                        Accumulator::refresh(&net, &piece_sets(&board), path),
                        fresh,
                        "{arch} {path:?} refresh"
                    );
                    assert_eq!(fresh.output(&net, stm, pieces, path), want);
                }
                checked += 1;
            }
        }
        assert!(checked > 1000);
    }
}

#[test]
fn the_vector_dot_products_wrap_as_the_scalar_one_does() {
    // Extreme accumulators and weights, where the 16-bit product wraps.
    let mut rng = StdRng::seed_from_u64(7);
    for _ in 0..200 {
        let acc: Vec<i16> = (0..256).map(|_| rng.gen()).collect();
        let w: Vec<i16> = (0..256).map(|_| rng.gen()).collect();
        for act in [Activation::CRelu, Activation::SCRelu] {
            let want = kernels::dot(Path::Scalar, act, &acc, &w);
            for p in Path::available() {
                assert_eq!(kernels::dot(p, act, &acc, &w), want, "{p:?} {act:?}");
            }
        }
    }
}

#[test]
fn the_evaluation_is_colour_symmetric() {
    let net = Arc::new(random_network(3));
    let mut nnue = Nnue::new(net);
    for fen in [
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 99 50",
    ] {
        let board: Board = fen.parse().unwrap();
        let mirrored = mirror(&board);
        let a = nnue.evaluate(&board, 0);
        let b = nnue.evaluate(&mirrored, 1);
        assert_eq!(a, b, "{fen}");
    }
    // A zero network says 0.
    let mut zero = Nnue::new(Arc::new(Network::zeroed(random_network(1).arch)));
    assert_eq!(zero.evaluate(&Board::default(), 0), 0);
}

/// The position with colours swapped and the board flipped top to bottom.
fn mirror(board: &Board) -> Board {
    let mut b = cozy_chess::BoardBuilder::empty();
    for sq in board.occupied() {
        let piece = board.piece_on(sq).unwrap();
        let color = board.color_on(sq).unwrap();
        *b.square_mut(sq.flip_rank()) = Some((piece, !color));
    }
    b.side_to_move = !board.side_to_move();
    b.build().unwrap()
}

#[test]
fn the_engine_switches_evaluations_and_refuses_bad_files() {
    use crate::{Engine, EngineOptions, Limits, SearchRequest};
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("net.wnn");
    random_network(4).save(&good).unwrap();
    let bad = dir.path().join("bad.wnn");
    let bytes = random_network(4).to_bytes();
    std::fs::write(&bad, &bytes[..bytes.len() / 2]).unwrap();
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 1,
        ..EngineOptions::default()
    });
    assert!(engine.set_eval_nnue(true).is_err());
    assert!(!engine.eval_nnue());
    let e = engine.set_eval_file(bad.to_str().unwrap()).unwrap_err();
    assert!(e.contains("truncated"), "{e}");
    let board: Board = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
        .parse()
        .unwrap();
    let run = |engine: &mut Engine| {
        engine.new_game();
        let r = engine.search(
            SearchRequest::new(board.clone(), Limits::nodes(3000)),
            Box::new(|_| {}),
        );
        (format!("{:?}", r.score), r.pv)
    };
    let hce = run(&mut engine);
    engine.set_eval_file(good.to_str().unwrap()).unwrap();
    // Loading alone changes nothing.
    assert_eq!(run(&mut engine), hce);
    engine.set_eval_nnue(true).unwrap();
    assert!(engine.eval_nnue());
    let nnue = run(&mut engine);
    assert_ne!(nnue, hce);
    assert_eq!(run(&mut engine), nnue);
    engine.set_eval_nnue(false).unwrap();
    assert_eq!(run(&mut engine), hce);
}
