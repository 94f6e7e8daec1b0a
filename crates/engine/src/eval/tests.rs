//! Tests of the whole evaluation: colour symmetry, trace = evaluate, sensible orderings,
//! endgame scaling, the scale knobs, and robustness on unusual boards.

use std::path::PathBuf;

use cozy_chess::{Board, Color, Move};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::*;

fn board(fen: &str) -> Board {
    Board::from_fen(fen, false).unwrap_or_else(|e| panic!("bad test FEN {fen}: {e:?}"))
}

fn eval(fen: &str) -> i32 {
    Evaluator::new(EvalParams::default()).evaluate(&board(fen))
}

/// Colour-mirrors a FEN: ranks reversed, colours swapped, side to move swapped.
fn mirror_fen(fen: &str) -> String {
    let f: Vec<&str> = fen.split_whitespace().collect();
    let swap = |c: char| {
        if c.is_ascii_uppercase() {
            c.to_ascii_lowercase()
        } else {
            c.to_ascii_uppercase()
        }
    };
    let placement: Vec<String> = f[0]
        .split('/')
        .rev()
        .map(|r| r.chars().map(swap).collect())
        .collect();
    let stm = if f[1] == "w" { "b" } else { "w" };
    let castle: String = if f[2] == "-" {
        "-".into()
    } else {
        let mut c: Vec<char> = f[2].chars().map(swap).collect();
        c.sort_by_key(|ch| (ch.is_ascii_lowercase(), *ch));
        c.into_iter().collect()
    };
    let ep = if f[3] == "-" {
        "-".to_string()
    } else {
        let b = f[3].as_bytes();
        format!("{}{}", b[0] as char, if b[1] == b'3' { '6' } else { '3' })
    };
    let rest: Vec<&str> = f.iter().skip(4).copied().collect();
    format!(
        "{} {} {} {} {}",
        placement.join("/"),
        stm,
        castle,
        ep,
        if rest.is_empty() {
            "0 1".to_string()
        } else {
            rest.join(" ")
        }
    )
}

const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "8/8/4k3/8/2K5/3P4/8/8 w - - 0 1",
    "8/5k2/8/8/8/8/1B6/4K1N1 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1",
    "r1b1k2r/ppppnppp/2n2q2/2b5/3NP3/2P1B3/PP3PPP/RN1QKB1R w KQkq - 1 7",
    "8/pp3k2/2p1b3/2P2p2/1P1B1P2/4K3/8/8 w - - 0 40",
    "4k3/pppppppp/8/8/8/QQQQQQQQ/QQQQQQQ1/K7 w - - 0 1",
    "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
    "7k/P7/8/8/8/8/8/K7 b - - 0 1",
];

fn shared_dir() -> PathBuf {
    testkit::shared_dir()
}

/// A varied set of positions: the fixed list, WAC positions when the shared data is there,
/// and positions from seeded random games.
fn sample_positions() -> Vec<Board> {
    let mut out: Vec<Board> = FENS.iter().map(|f| board(f)).collect();
    let wac = shared_dir().join("data/epd/wac.epd");
    match std::fs::read_to_string(&wac) {
        Ok(text) => {
            for line in text.lines().take(120) {
                let fields: Vec<&str> = line.split_whitespace().take(4).collect();
                if fields.len() == 4 {
                    if let Ok(b) = Board::from_fen(&format!("{} 0 1", fields.join(" ")), false) {
                        out.push(b);
                    }
                }
            }
        }
        Err(_) => eprintln!(
            "skip: {} not found, using built-in positions only",
            wac.display()
        ),
    }
    let mut rng = StdRng::seed_from_u64(0x5EED_0F31);
    for _ in 0..60 {
        let mut b = Board::default();
        let plies = rng.gen_range(4..120);
        for _ in 0..plies {
            let mut moves: Vec<Move> = Vec::new();
            b.generate_moves(|ms| {
                moves.extend(ms);
                false
            });
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.gen_range(0..moves.len())];
            b.play_unchecked(mv);
            out.push(b.clone());
        }
    }
    out
}

fn fen_of(b: &Board) -> String {
    format!("{b}")
}

#[test]
fn mirror_fen_round_trips() {
    for f in FENS {
        let m = mirror_fen(f);
        assert_eq!(mirror_fen(&m), *f, "mirror of mirror of {f}");
        board(&m);
    }
}

#[test]
fn colour_mirror_gives_the_same_score() {
    let mut ev = Evaluator::new(EvalParams::default());
    let mut checked = 0;
    for b in sample_positions() {
        let fen = fen_of(&b);
        let mirrored = match Board::from_fen(&mirror_fen(&fen), false) {
            Ok(m) => m,
            Err(_) => continue,
        };
        let a = ev.evaluate(&b);
        let m = ev.evaluate(&mirrored);
        assert_eq!(a, m, "asymmetric evaluation:\n{fen}\n{}", mirror_fen(&fen));
        checked += 1;
    }
    assert!(checked > 500, "only {checked} positions checked");
}

#[test]
fn trace_total_equals_evaluate() {
    let params = EvalParams::default();
    let mut ev = Evaluator::new(params.clone());
    for b in sample_positions() {
        let t = trace(&b, &params);
        assert_eq!(t.total, ev.evaluate(&b), "trace differs for {}", fen_of(&b));
    }
    // With an own side and asymmetric king safety too.
    let params = EvalParams {
        king_safety_own: 150,
        king_safety_opponent: 70,
        ..EvalParams::default()
    };
    let mut ev = Evaluator::new(params.clone());
    ev.set_own_side(Some(Color::Black));
    for f in FENS {
        let b = board(f);
        let t = trace_for_side(&b, &params, Some(Color::Black));
        assert_eq!(t.total, ev.evaluate(&b), "trace differs for {f}");
    }
}

/// Weights moved away from the defaults by up to `spread` (seeded), with every percentage
/// knob off 100 when `knobs`; the king shelter and the pawnless margin stay (see
/// `coefficients`: the shelter's castled square is judged under the recorded weights).
fn perturbed(seed: u64, spread: i32, knobs: bool) -> EvalParams {
    let base = EvalParams::default();
    let mut flat = base.to_flat();
    let mut rng = StdRng::seed_from_u64(seed);
    for f in layout::fields() {
        let keep = matches!(f.role, layout::Role::Fixed)
            || f.name.starts_with("king_shield")
            || f.name.starts_with("king_storm");
        if !keep {
            for v in &mut flat[f.start..f.start + f.len] {
                *v += rng.gen_range(-spread..=spread);
            }
        }
    }
    let mut p = EvalParams::from_flat(&flat).expect("same length");
    p.king_danger_eg_divisor = p.king_danger_eg_divisor.max(1);
    if knobs {
        p.pawn_structure_scale = 70;
        p.passed_pawn_scale = 130;
        p.tropism_scale = 55;
        p.blocked_pawn_scale = 90;
        p.king_safety_scale = 120;
    }
    p
}

#[test]
fn coefficients_reproduce_evaluate_exactly() {
    let positions = sample_positions();
    let default = EvalParams::default();
    let params = [
        default.clone(),
        perturbed(1, 9, false),
        perturbed(2, 25, true),
    ];
    for p in &params {
        let mut ev = Evaluator::new(p.clone());
        let mut recorded = 0;
        for b in &positions {
            let Some(c) = coefficients(b, p) else {
                assert_eq!(ev.evaluate(b), 0, "dead draw {}", fen_of(b));
                continue;
            };
            assert_eq!(c.evaluate(p), ev.evaluate(b), "{}", fen_of(b));
            recorded += 1;
        }
        assert!(recorded > 500, "only {recorded} positions");
    }
    // Linearity: coefficients recorded under the defaults give the evaluation under other
    // weights (shelter weights kept: their castled square is judged once).
    for (i, p) in params.iter().enumerate().skip(1) {
        let mut ev = Evaluator::new(p.clone());
        for b in &positions {
            if let Some(c) = coefficients(b, &default) {
                assert_eq!(c.evaluate(p), ev.evaluate(b), "set {i}: {}", fen_of(b));
            }
        }
    }
}

#[test]
fn coefficients_count_each_side_and_the_danger() {
    let p = EvalParams::default();
    // White: king g1, queen h5, knight g5 on Black's king h8 zone; Black: king h8, rook a8.
    let b = board("r6k/6pp/8/6NQ/8/8/5PPP/6K1 w - - 0 1");
    let c = coefficients(&b, &p).expect("live");
    let idx = |w: &i32| p.flat_index(w).expect("inside") as u16;
    let times =
        |list: &[(u16, i32)], w: &i32| list.iter().find(|e| e.0 == idx(w)).map_or(0, |e| e.1);
    assert_eq!(times(&c.linear[0], &p.piece_value[4].mg), 1);
    assert_eq!(times(&c.linear[1], &p.piece_value[3].mg), 1);
    assert_eq!(times(&c.linear[0], &p.piece_value[3].mg), 0);
    assert_eq!(times(&c.linear[0], &p.tempo.mg), 1);
    assert_eq!(times(&c.linear[1], &p.tempo.mg), 0);
    let danger = c.danger[1]
        .as_ref()
        .expect("Black's king is attacked by two pieces");
    assert_eq!(times(danger, &p.king_attack_weight[1]), 1);
    assert_eq!(times(danger, &p.king_attack_weight[4]), 1);
    assert!(c.danger[0].is_none(), "nothing attacks White's king");
    assert_eq!(c.rules, [ScaleRule::Normal; 3]);
    // KPK: the rule does not depend on the side ahead; a lone minor is a dead draw.
    let kpk = coefficients(&board("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1"), &p).expect("live");
    assert!(matches!(
        kpk.rules[0],
        ScaleRule::KpkWin(_) | ScaleRule::Draw
    ));
    assert!(kpk.rules.iter().all(|r| *r == kpk.rules[0]));
    assert!(coefficients(&board("8/8/4k3/8/8/8/2B5/4K3 w - - 0 1"), &p).is_none());
}

#[test]
fn trace_prints_a_table() {
    let t = trace(&board(FENS[2]), &EvalParams::default());
    let text = t.to_string();
    assert!(text.contains("material"));
    assert!(text.contains("king safety"));
    assert!(text.contains("score"));
    assert_eq!(t.terms.len(), Term::COUNT);
}

#[test]
fn extra_piece_is_good_for_its_owner() {
    // White has an extra knight (worth well over a pawn even in the opening, where the
    // tuned middlegame values are compressed: master games rarely leave a piece for nothing).
    let fen = "rnbqkb1r/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert!(eval(fen) > 120, "{}", eval(fen));
    // Same position, Black to move: negative for Black.
    let fen = "rnbqkb1r/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1";
    assert!(eval(fen) < -120);
    // Start position is close to level.
    let start = eval(FENS[0]);
    assert!(start.abs() < 40, "start position {start}");
}

#[test]
fn advanced_passed_pawn_is_worth_more() {
    let on_7th = eval("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    let on_3rd = eval("4k3/8/8/8/8/1P6/8/4K3 w - - 0 1");
    assert!(on_7th > on_3rd + 100, "7th {on_7th} vs 3rd {on_3rd}");
    // With other material on the board too (no KPK shortcut).
    let on_7th = eval("r3k3/1P4p1/8/8/8/8/6P1/R3K3 w - - 0 1");
    let on_3rd = eval("r3k3/6p1/8/8/8/1P6/6P1/R3K3 w - - 0 1");
    assert!(on_7th > on_3rd + 50, "7th {on_7th} vs 3rd {on_3rd}");
}

#[test]
fn insufficient_and_drawish_material() {
    assert_eq!(eval("8/5k2/8/8/8/8/8/4K1N1 w - - 0 1"), 0, "KNK");
    assert_eq!(eval("8/5k2/8/8/8/8/8/4KB2 b - - 0 1"), 0, "KBK");
    assert_eq!(eval("8/5k2/8/8/8/8/8/4K3 w - - 0 1"), 0, "KK");
    assert_eq!(eval("8/5kb1/8/8/8/8/8/4KB2 w - - 0 1"), 0, "KBKB");
    // Bishops all on one colour cannot mate.
    assert_eq!(
        eval("8/5k2/8/8/8/8/1B6/B3K3 w - - 0 1"),
        0,
        "KBBK same colour"
    );
    // KBNK is a win and must not be scaled away.
    let kbnk = eval("8/5k2/8/8/8/8/1B6/4K1N1 w - - 0 1");
    assert!(kbnk > 400, "KBNK {kbnk}");
    assert!(!is_insufficient_material(&board(
        "8/5k2/8/8/8/8/1B6/4K1N1 w - - 0 1"
    )));
    // KNNK: drawish, scaled to zero.
    assert_eq!(eval("8/5k2/8/8/8/8/8/3NK1N1 w - - 0 1"), 0, "KNNK");
    // KRKB: pawnless and a small edge, strongly scaled down.
    let krkb = eval("8/5k2/4b3/8/8/8/8/3RK3 w - - 0 1");
    assert!((0..80).contains(&krkb), "KRKB {krkb}");
}

#[test]
fn opposite_bishops_are_scaled_down() {
    // White is a pawn up in both; bishops of opposite colours vs same colour.
    let opposite = eval("4k3/5p2/4b3/8/4P3/3P4/3B4/4K3 w - - 0 1");
    let same = eval("4k3/5p2/3b4/8/4P3/3P4/3B4/4K3 w - - 0 1");
    assert!(
        opposite > 0 && same > opposite,
        "ocb {opposite} vs same {same}"
    );
    let t = trace(
        &board("4k3/5p2/4b3/8/4P3/3P4/3B4/4K3 w - - 0 1"),
        &EvalParams::default(),
    );
    assert!(t.scale_eg < 128);
}

#[test]
fn kpk_and_wrong_bishop() {
    // Defending king in front of the pawn with the opposition: draw.
    assert_eq!(eval("8/8/8/8/4k3/8/4P3/4K3 w - - 0 1"), 0);
    // King on the 6th ahead of its pawn: a clear win.
    assert!(eval("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1") > 400);
    // Rook pawn and the wrong bishop with the defender in the corner: draw.
    assert_eq!(eval("7k/8/8/6KP/8/8/8/3B4 w - - 0 1"), 0);
    // The right bishop wins.
    assert!(eval("7k/8/8/6KP/8/8/8/2B5 w - - 0 1") > 300);
}

#[test]
fn unstoppable_passer_in_pawn_ending() {
    // Black's king is outside the square of the a-pawn.
    let outside_fen = "8/8/8/P7/8/5k2/7p/6K1 w - - 0 1";
    let outside = eval(outside_fen);
    let inside = eval("8/8/8/P1k5/8/8/7p/6K1 w - - 0 1");
    assert!(outside > inside + 100, "outside {outside} inside {inside}");
    // The rule of the square is what makes the difference: without its bonus the pawn
    // outside the king's reach is worth far less.
    let no_rule = EvalParams {
        passed_unstoppable: s(0, 0),
        ..EvalParams::default()
    };
    let outside_no_rule = Evaluator::new(no_rule).evaluate(&board(outside_fen));
    assert!(
        outside > outside_no_rule + 100,
        "outside {outside} without the rule of the square {outside_no_rule}"
    );
}

#[test]
fn king_safety_knobs_change_the_score() {
    // White's king is exposed to a heavy attack.
    let fen = "r1b2rk1/ppp2ppp/2n5/3q4/3P4/2PB1N2/P4PPP/q4RK1 w - - 0 1";
    let fen = if Board::from_fen(fen, false).is_ok() {
        fen
    } else {
        FENS[5]
    };
    let b = board(fen);
    let base = EvalParams::default();
    let cautious = EvalParams {
        king_safety_own: 200,
        ..EvalParams::default()
    };
    let mut sym = Evaluator::new(base);
    let mut asym = Evaluator::new(cautious.clone());
    asym.set_own_side(Some(Color::White));
    let t = trace(&b, &cautious);
    let ks = &t.terms[Term::KingSafety as usize];
    assert!(ks.white != S::ZERO || ks.black != S::ZERO);
    if ks.white.mg < 0 {
        assert!(asym.evaluate(&b) < sym.evaluate(&b));
    }
    // Scaling passed pawns to zero removes the passed-pawn term entirely.
    let no_passers = EvalParams {
        passed_pawn_scale: 0,
        ..EvalParams::default()
    };
    let t = trace(&board("4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1"), &no_passers);
    let pp = &t.terms[Term::PassedPawns as usize];
    assert_eq!((pp.white, pp.black), (S::ZERO, S::ZERO));
}

#[test]
fn unusual_boards_do_not_panic() {
    let fens = [
        "4k3/pppppppp/8/8/8/QQQQQQQQ/QQQQQQQ1/K7 w - - 0 1",
        "k7/qqqqqqq1/qqqqqqqq/8/8/8/PPPPPPPP/4K3 b - - 0 1",
        "rrrrkrrr/8/8/8/8/8/8/RRRRKRRR w - - 0 1",
        "nnnnknnn/bbbbbbbb/8/8/8/8/BBBBBBBB/NNNNKNNN w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "K7/8/8/8/8/8/8/7k b - - 0 1",
        "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1",
        "3k4/PP4PP/8/8/8/8/pp4pp/3K4 w - - 0 1",
    ];
    let mut ev = Evaluator::new(EvalParams::default());
    for f in fens {
        let b = board(f);
        let v = ev.evaluate(&b);
        assert!(v.abs() < 30_000, "{f}: {v}");
        let t = trace(&b, ev.params());
        assert_eq!(t.total, v);
    }
}

#[test]
fn pawn_cache_gives_stable_results() {
    let mut ev = Evaluator::new(EvalParams::default());
    let boards = sample_positions();
    let first: Vec<i32> = boards.iter().map(|b| ev.evaluate(b)).collect();
    let second: Vec<i32> = boards.iter().map(|b| ev.evaluate(b)).collect();
    assert_eq!(first, second);
    // Changing the weights through set_params must not reuse stale pawn scores.
    let params = EvalParams {
        pawn_structure_scale: 300,
        ..EvalParams::default()
    };
    ev.set_params(params.clone());
    let mut fresh = Evaluator::new(params);
    for b in &boards {
        assert_eq!(ev.evaluate(b), fresh.evaluate(b));
    }
}

#[test]
fn evaluation_cache_never_returns_a_stale_score() {
    let boards = sample_positions();
    // King safety weighs differently for wily's side, so the own side changes scores.
    let params = EvalParams {
        king_safety_own: 150,
        king_safety_opponent: 60,
        ..EvalParams::default()
    };
    // The same evaluator again and again (every later call a cache hit) agrees with a
    // fresh one, for both own sides, switched back and forth.
    let mut ev = Evaluator::new(params.clone());
    let mut changed = 0;
    for own in [None, Some(Color::White), Some(Color::Black), None] {
        ev.set_own_side(own);
        let mut fresh = Evaluator::new(params.clone());
        fresh.set_own_side(own);
        for _ in 0..2 {
            for b in &boards {
                assert_eq!(ev.evaluate(b), fresh.evaluate(b), "{b} own {own:?}");
            }
        }
        let mut neutral = Evaluator::new(params.clone());
        changed += boards
            .iter()
            .filter(|b| neutral.evaluate(b) != fresh.evaluate(b))
            .count();
    }
    // Otherwise the test would not notice a stale cache.
    assert!(changed > 0);
}

fn term(fen: &str, t: Term) -> TraceTerm {
    trace(&board(fen), &EvalParams::default()).terms[t as usize].clone()
}

#[test]
fn asymmetric_king_safety_mirrors_with_the_own_side() {
    let params = EvalParams {
        king_safety_own: 160,
        king_safety_opponent: 60,
        ..EvalParams::default()
    };
    let mut ev = Evaluator::new(params);
    for b in sample_positions() {
        let fen = fen_of(&b);
        let Ok(mirrored) = Board::from_fen(&mirror_fen(&fen), false) else {
            continue;
        };
        ev.set_own_side(Some(Color::White));
        let a = ev.evaluate(&b);
        ev.set_own_side(Some(Color::Black));
        let m = ev.evaluate(&mirrored);
        assert_eq!(a, m, "{fen}");
    }
}

#[test]
fn rook_files_and_seventh_rank() {
    // Rook on the open d-file vs the same rook on the closed a-file.
    let open = term("4k3/pp3ppp/8/8/8/8/PP3PPP/3RK3 w - - 0 1", Term::Rooks);
    let closed = term("4k3/pp3ppp/8/8/8/8/PP3PPP/R3K3 w - - 0 1", Term::Rooks);
    assert!(open.white.mg > closed.white.mg);
    // Rook on the 7th with the enemy king on the 8th.
    let seventh = term("4k3/R4ppp/8/8/8/8/5PPP/6K1 w - - 0 1", Term::Rooks);
    let sixth = term("4k3/5ppp/R7/8/8/8/5PPP/6K1 w - - 0 1", Term::Rooks);
    assert!(seventh.white.eg > sixth.white.eg);
}

#[test]
fn knight_outpost_and_pawn_weaknesses() {
    // Knight on d5, supported by e4, no black c/e pawns able to attack it.
    let outpost = term(
        "4k3/pp3ppp/3p4/3N4/4P3/8/PP3PPP/4K3 w - - 0 1",
        Term::Outposts,
    );
    assert!(outpost.white.mg > 0);
    // With a black c-pawn that can still chase it away, d5 is no outpost: what is left is
    // the knight's place right behind the d6 pawn.
    let chased = term(
        "4k3/ppp2ppp/3p4/3N4/4P3/8/PP3PPP/4K3 w - - 0 1",
        Term::Outposts,
    );
    // (and the knight's distance from its king on e1, four squares).
    let p = EvalParams::default();
    assert_eq!(chased.white, p.minor_behind_pawn + p.king_protector * 4);
    // Isolated, doubled pawns cost more than a healthy chain.
    let weak = term("4k3/8/8/8/8/2P5/2P4P/4K3 w - - 0 1", Term::PawnStructure);
    let healthy = term("4k3/8/8/8/8/2P5/1P5P/4K3 w - - 0 1", Term::PawnStructure);
    assert!(weak.white.eg < healthy.white.eg);
    // Backward d-pawn: c- and e-pawns advanced, d6 stop square hit by a black pawn on e5/c5.
    let backward = term("4k3/8/8/2p5/2P1P3/3P4/8/4K3 w - - 0 1", Term::PawnStructure);
    let level = term("4k3/8/8/2p5/2PPP3/8/8/4K3 w - - 0 1", Term::PawnStructure);
    assert!(backward.white.eg < level.white.eg);
}

#[test]
fn king_shelter_and_attack() {
    // Castled king behind intact pawns vs the same king with its pawns gone.
    let sheltered = term(
        "r1bq1rk1/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPP1PPP/R1BQ1RK1 w - - 0 1",
        Term::KingSafety,
    );
    let exposed = term(
        "r1bq1rk1/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPP4/R1BQ1RK1 w - - 0 1",
        Term::KingSafety,
    );
    assert!(sheltered.white.mg > exposed.white.mg);
    // Heavy pieces next to a king raise the danger.
    let attacked = term("6k1/5ppp/8/8/8/5q2/5r2/6K1 w - - 0 1", Term::KingSafety);
    let quiet = term("6k1/5ppp/8/8/8/8/8/q4rK1 w - - 0 1", Term::KingSafety);
    assert!(attacked.white.mg < quiet.white.mg);
}

#[test]
fn threats_and_hanging_pieces() {
    // A black knight attacked by a white pawn.
    let t = term("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", Term::Threats);
    assert!(t.white.mg > 0);
    // A hanging black rook attacked by a white bishop.
    let t = term("4k3/8/5r2/8/8/2B5/8/4K3 w - - 0 1", Term::Threats);
    assert!(t.white.mg >= EvalParams::default().hanging.mg);
}

#[test]
fn candidate_and_connected_pawns() {
    // The c2-pawn faces one sentry (b7) and has a helper (b2): a candidate. Without the
    // b-pawn it has no helper and is not.
    let cand = term("4k3/1p6/8/8/8/8/1PP5/4K3 w - - 0 1", Term::PawnStructure);
    let no_helper = term("4k3/1p6/8/8/8/8/2P5/4K3 w - - 0 1", Term::PawnStructure);
    assert!(cand.white.eg > no_helper.white.eg);
    // Side-by-side pawns on the 4th earn the phalanx bonus; split pawns do not.
    let phalanx = term("4k3/8/8/8/3PP3/8/8/4K3 w - - 0 1", Term::PawnStructure);
    let split = term("4k3/8/8/8/3P4/8/6P1/4K3 w - - 0 1", Term::PawnStructure);
    assert!(phalanx.white.mg > split.white.mg);
}

#[test]
fn pawn_push_and_king_threats() {
    let p = EvalParams::default();
    // e3-e4 would attack the knight on d5, and e4 is safe: a push threat (and f4, which
    // the pawn and the knight both attack, is a square the knight does not hold firmly).
    let push = term("4k3/8/8/3n4/8/4P3/8/4K3 w - - 0 1", Term::Threats);
    assert_eq!(push.white, p.threat_pawn_push + p.restricted);
    // With e4 taken by a black pawn nothing can be pushed there (f4 stays contested).
    let blocked = term("4k3/8/8/3n4/4p3/4P3/8/4K3 w - - 0 1", Term::Threats);
    assert_eq!(blocked.white, p.restricted);
    // An undefended knight next to the white king: hanging, and a king threat (and f1 is
    // contested by the king and the knight).
    let by_king = term("4k3/8/8/8/8/8/3n4/4K3 w - - 0 1", Term::Threats);
    assert_eq!(by_king.white, p.hanging + p.threat_by_king + p.restricted);
}

/// White's and Black's contributions to term `t` from the weights that `zero` sets to zero.
fn share(fen: &str, t: Term, zero: impl Fn(&mut EvalParams)) -> (S, S) {
    let b = board(fen);
    let p = EvalParams::default();
    let mut z = p.clone();
    zero(&mut z);
    let (with, without) = (trace(&b, &p), trace(&b, &z));
    let (w, wo) = (&with.terms[t as usize], &without.terms[t as usize]);
    (w.white - wo.white, w.black - wo.black)
}

#[test]
fn king_blockers_pins_and_discoveries() {
    let blockers = |fen: &str, c: Color| {
        let b = board(fen);
        super::king::blockers(&b, c, b.king(c))
    };
    // The e2 knight is pinned to the white king by the e8 rook.
    assert_eq!(
        blockers("4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1", Color::White),
        1
    );
    // An enemy knight there holds a discovered check instead: it counts too.
    assert_eq!(
        blockers("4r1k1/8/8/8/8/8/4n3/4K3 w - - 0 1", Color::White),
        1
    );
    // Two pieces between: neither is pinned. No slider on the line: nothing.
    assert_eq!(
        blockers("4r1k1/8/8/8/4N3/8/4N3/4K3 w - - 0 1", Color::White),
        0
    );
    assert_eq!(blockers("6k1/8/8/8/8/8/4N3/4K3 w - - 0 1", Color::White), 0);
    // A bishop's diagonal and a queen's line count once each.
    assert_eq!(
        blockers("6k1/8/8/b7/4q3/8/3PP3/4K3 w - - 0 1", Color::White),
        2
    );
}

#[test]
fn king_on_a_pawnless_flank() {
    let p = EvalParams::default();
    // Both kings on the king's side with every pawn on the queen's side.
    let (w, b) = share(
        "6k1/pppp4/8/8/8/8/PPPP4/6K1 w - - 0 1",
        Term::KingSafety,
        |z| z.king_pawnless_flank = S::ZERO,
    );
    assert_eq!((w, b), (p.king_pawnless_flank, p.king_pawnless_flank));
    // A pawn on the h-file shelters both flanks' view: no penalty.
    let (w, b) = share(
        "6k1/pppp3p/8/8/8/8/PPPP4/6K1 w - - 0 1",
        Term::KingSafety,
        |z| z.king_pawnless_flank = S::ZERO,
    );
    assert_eq!((w, b), (S::ZERO, S::ZERO));
}

#[test]
fn rooks_behind_passed_pawns() {
    let p = EvalParams::default();
    let zero = |z: &mut EvalParams| {
        z.passed_rook_behind = S::ZERO;
        z.passed_enemy_rook_behind = S::ZERO;
    };
    // White's rook behind its d5 passer (Tarrasch), and one beside it that is not.
    let (w, _) = share("4k3/8/8/3P4/8/8/8/3RK3 w - - 0 1", Term::PassedPawns, zero);
    assert_eq!(w, p.passed_rook_behind);
    let (w, _) = share("4k3/8/8/3P4/8/8/8/R3K3 w - - 0 1", Term::PassedPawns, zero);
    assert_eq!(w, S::ZERO);
    // A black rook behind the white passer; with a piece in between it is not.
    let (w, _) = share("4k3/8/8/3P4/8/8/8/3r2K1 w - - 0 1", Term::PassedPawns, zero);
    assert_eq!(w, p.passed_enemy_rook_behind);
    let (w, _) = share(
        "4k3/8/8/3P4/8/3N4/8/3r2K1 w - - 0 1",
        Term::PassedPawns,
        zero,
    );
    assert_eq!(w, S::ZERO);
}

#[test]
fn weak_queen_on_a_line_with_one_blocker() {
    let p = EvalParams::default();
    let zero = |z: &mut EvalParams| z.weak_queen = S::ZERO;
    // The d2 knight is pinned to the white queen by the d8 rook.
    let (w, b) = share("3rk3/8/8/8/8/8/3N4/3QK3 w - - 0 1", Term::Threats, zero);
    assert_eq!((w, b), (p.weak_queen, S::ZERO));
    // Nothing between: the queen is attacked, not weak by this term (the threat terms
    // see it); two between: safe.
    let (w, _) = share("3rk3/8/8/8/8/8/8/3QK3 w - - 0 1", Term::Threats, zero);
    assert_eq!(w, S::ZERO);
    let (w, _) = share("3rk3/8/8/3N4/8/8/3N4/3QK3 w - - 0 1", Term::Threats, zero);
    assert_eq!(w, S::ZERO);
    // A bishop's diagonal, through a black pawn (a discovered attack waiting).
    let (w, _) = share("7k/8/8/b7/8/2p5/8/4Q1K1 w - - 0 1", Term::Threats, zero);
    assert_eq!(w, p.weak_queen);
}

#[test]
fn rook_on_a_queen_file_and_a_reachable_outpost() {
    let p = EvalParams::default();
    // The d1 rook shares its file with the black queen.
    let (w, _) = share("3qk3/8/8/8/8/8/8/3RK3 w - - 0 1", Term::Rooks, |z| {
        z.rook_queen_file = S::ZERO
    });
    assert_eq!(w, p.rook_queen_file);
    // The f3 knight can jump to e5 (no black pawn can ever attack it); on e5 it sits on
    // the outpost instead.
    let zero = |z: &mut EvalParams| z.knight_reachable_outpost = S::ZERO;
    let (w, _) = share("4k3/p6p/8/8/8/5N2/P6P/4K3 w - - 0 1", Term::Outposts, zero);
    assert_eq!(w, p.knight_reachable_outpost);
    let (w, _) = share("4k3/p6p/8/4N3/8/8/P6P/4K3 w - - 0 1", Term::Outposts, zero);
    assert_eq!(w, S::ZERO);
}

#[test]
fn squares_that_attack_the_enemy_queen() {
    let p = EvalParams::default();
    // The b1 knight reaches c3 and d2; from each it would attack the d5 (c3) queen: only
    // c3 is a knight's square against a queen on d5 (b4, b6, c7, e7, f6, f4, e3, c3).
    let (w, _) = share("4k3/8/8/3q4/8/8/8/1N2K3 w - - 0 1", Term::Threats, |z| {
        z.knight_on_queen = S::ZERO
    });
    assert_eq!(w, p.knight_on_queen);
    // With two queens for Black the term is off.
    let (w, _) = share("3qk3/8/8/3q4/8/8/8/1N2K3 w - - 0 1", Term::Threats, |z| {
        z.knight_on_queen = S::ZERO
    });
    assert_eq!(w, S::ZERO);
}

#[test]
fn rooks_and_bishops_on_the_enemy_king_ring() {
    let p = EvalParams::default();
    let rook = |z: &mut EvalParams| z.rook_on_king_ring = S::ZERO;
    // The g1 rook's file runs into the h8 king's zone, its own g2 pawn in the way.
    let (w, _) = share("7k/8/8/8/8/8/6P1/4K1R1 w - - 0 1", Term::Rooks, rook);
    assert_eq!(w, p.rook_on_king_ring);
    // On the open file it attacks the zone: the king-danger terms see it instead.
    let (w, _) = share("7k/8/8/8/8/8/8/4K1R1 w - - 0 1", Term::Rooks, rook);
    assert_eq!(w, S::ZERO);
    let bishop = |z: &mut EvalParams| z.bishop_on_king_ring = S::ZERO;
    // The b1 bishop sees g6 and h7 through its own d3 knight, but not through a pawn.
    let (w, _) = share("6k1/8/8/8/8/3N4/8/1B2K3 w - - 0 1", Term::Bishops, bishop);
    assert_eq!(w, p.bishop_on_king_ring);
    let (w, _) = share("6k1/8/8/8/8/3P4/8/1B2K3 w - - 0 1", Term::Bishops, bishop);
    assert_eq!(w, S::ZERO);
}

#[test]
fn queen_infiltration_closed_files_and_queen_defence() {
    let p = EvalParams::default();
    // A queen on d6 that no black pawn can ever chase; with a pawn on e7 it can be.
    let zero = |z: &mut EvalParams| z.queen_infiltration = S::ZERO;
    let (w, _) = share("4k3/8/3Q4/8/8/8/8/4K3 w - - 0 1", Term::Rooks, zero);
    assert_eq!(w, p.queen_infiltration);
    let (w, _) = share("4k3/4p3/3Q4/8/8/8/8/4K3 w - - 0 1", Term::Rooks, zero);
    assert_eq!(w, S::ZERO);
    // The e1 rook's file is shut by the e4/e5 pawns; on the d-file it is not.
    let zero = |z: &mut EvalParams| z.rook_on_closed_file = S::ZERO;
    let (w, _) = share("4k3/8/8/4p3/4P3/8/8/4RK2 w - - 0 1", Term::Rooks, zero);
    assert_eq!(w, p.rook_on_closed_file);
    let (w, _) = share("4k3/8/8/4p3/4P3/8/8/3R1K2 w - - 0 1", Term::Rooks, zero);
    assert_eq!(w, S::ZERO);
    // The b5 bishop attacks the c6 knight, which only the d7 queen defends.
    let zero = |z: &mut EvalParams| z.weak_queen_protection = S::ZERO;
    let (w, b) = share("4k3/3q4/2n5/1B6/8/8/8/4K3 w - - 0 1", Term::Threats, zero);
    assert_eq!((w, b), (p.weak_queen_protection, S::ZERO));
    // A pawn on b7 defends it as well.
    let (w, _) = share("4k3/1p1q4/2n5/1B6/8/8/8/4K3 w - - 0 1", Term::Threats, zero);
    assert_eq!(w, S::ZERO);
}

#[test]
fn king_distance_to_its_pawns() {
    let p = EvalParams::default();
    let zero = |z: &mut EvalParams| z.king_pawn_distance = S::ZERO;
    // White's h1 king is seven squares from its a2 pawn; Black has no pawn.
    let (w, b) = share("4k3/8/8/8/8/8/P7/7K w - - 0 1", Term::Endgame, zero);
    assert_eq!((w, b), (p.king_pawn_distance * 7, S::ZERO));
    // The nearest pawn counts.
    let (w, _) = share("4k3/8/8/8/8/8/P5P1/7K w - - 0 1", Term::Endgame, zero);
    assert_eq!(w, p.king_pawn_distance);
}
