//! `Position`: draw rules (repetition, fifty moves, insufficient material, stalemate),
//! mate, undo, history hashes, and perft through play/undo at small depths.

use cozy_chess::{Board, Color};
use rand::{rngs::StdRng, Rng, SeedableRng};
use wily::chess::fen::to_fen;
use wily::chess::position::{insufficient_material, DrawReason, GameStatus, Position};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn play_all(p: &mut Position, moves: &str) {
    for m in moves.split_whitespace() {
        p.play_str(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

#[test]
fn threefold_repetition() {
    let mut p = Position::startpos();
    assert_eq!(p.repetition_count(), 1);
    play_all(&mut p, "Nf3 Nf6 Ng1 Ng8");
    assert_eq!(p.repetition_count(), 2);
    assert!(!p.is_threefold());
    play_all(&mut p, "Nf3 Nf6 Ng1");
    assert_eq!(p.status(), GameStatus::Ongoing);
    p.play_str("Ng8").expect("Ng8");
    assert!(p.is_threefold());
    assert_eq!(p.status(), GameStatus::Draw(DrawReason::Repetition));
    assert_eq!(p.status().result(), Some("1/2-1/2"));
    p.undo();
    assert!(!p.is_threefold());
}

#[test]
fn repetition_ignores_uncapturable_en_passant() {
    // After 1.e4 the board records an e3 square no black pawn can use; the position after
    // 1.e4 Nf6 2.Nf3 Ng8 3.Ng1 Nf6 4.Nf3... must still count the first occurrence.
    let mut p = Position::startpos();
    play_all(&mut p, "e4");
    let first = p.repetition_count();
    play_all(&mut p, "Nc6 Nf3 Nb8 Ng1");
    assert_eq!(first, 1);
    assert_eq!(p.repetition_count(), 2, "{}", p.fen());
    play_all(&mut p, "Nc6 Nf3 Nb8 Ng1");
    assert!(p.is_threefold());

    // A capturable en-passant square makes the position different.
    let mut p = pos("4k3/8/8/8/4p3/8/3P4/4K3 w - - 0 1");
    play_all(&mut p, "d4");
    let with_ep = p.repetition_count();
    play_all(&mut p, "Kd7 Kd1 Ke8 Ke1");
    assert_eq!(with_ep, 1);
    assert_eq!(p.repetition_count(), 1);
    play_all(&mut p, "Kd7 Kd1 Ke8 Ke1");
    assert_eq!(p.repetition_count(), 2);
}

#[test]
fn fifty_moves_and_mate_priority() {
    let mut p = pos("4k3/8/8/8/8/8/R7/4K3 w - - 98 80");
    play_all(&mut p, "Ra3 Kd7");
    assert!(p.is_fifty_move());
    assert_eq!(p.status(), GameStatus::Draw(DrawReason::FiftyMoves));
    // Mate on the hundredth half-move is still mate.
    let mut p = pos("7k/8/6K1/8/8/8/8/R7 w - - 99 80");
    play_all(&mut p, "Ra8");
    assert_eq!(p.status(), GameStatus::Checkmate(Color::White));
    assert_eq!(p.status().result(), Some("1-0"));
}

#[test]
fn mate_and_stalemate() {
    let mut p = Position::startpos();
    play_all(&mut p, "f3 e5 g4 Qh4#");
    assert_eq!(p.status(), GameStatus::Checkmate(Color::Black));
    assert_eq!(p.status().result(), Some("0-1"));
    assert_eq!(p.moves_san(), vec!["f3", "e5", "g4", "Qh4#"]);
    let p = pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!(p.status(), GameStatus::Stalemate);
    assert!(p.status().is_over());
}

#[test]
fn insufficient_material_cases() {
    let yes = [
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/1N2K3 b - - 0 1",
        "2b1k3/8/8/8/8/8/8/4K3 w - - 0 1",
        // Bishops of both sides, all on dark squares.
        "4k3/8/8/8/8/8/8/B1b1K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/B1B1K3 w - - 0 1",
    ];
    for fen in yes {
        let p = pos(fen);
        assert!(p.insufficient_material(), "{fen}");
        assert_eq!(
            p.status(),
            GameStatus::Draw(DrawReason::InsufficientMaterial),
            "{fen}"
        );
    }
    let no = [
        "4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/1BB1K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/2BNK3 w - - 0 1",
        "4kn2/8/8/8/8/8/8/4KN2 w - - 0 1",
        "4k3/8/8/8/8/8/P7/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
        "4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1",
    ];
    for fen in no {
        assert!(!pos(fen).insufficient_material(), "{fen}");
    }
}

#[test]
fn undo_restores_everything() {
    let mut rng = StdRng::seed_from_u64(99);
    let mut p = Position::startpos();
    let mut fens = vec![p.fen()];
    for _ in 0..300 {
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.gen_range(0..moves.len())];
        p.play(mv).expect("legal");
        fens.push(p.fen());
        assert_eq!(p.history_hashes().len(), p.ply());
        assert_eq!(
            p.history_hashes().last().copied(),
            p.previous_boards().last().map(Board::hash)
        );
    }
    while p.undo().is_some() {
        fens.pop();
        assert_eq!(Some(&p.fen()), fens.last());
    }
    assert_eq!(p.ply(), 0);
    assert_eq!(p.board(), &Board::default());
    assert!(p.history_hashes().is_empty());
    assert!(p.undo().is_none());
}

#[test]
fn illegal_moves_change_nothing() {
    let mut p = Position::startpos();
    for bad in ["e5", "Ke2", "e2e5", "", "O-O", "xyz"] {
        assert!(p.play_str(bad).is_err(), "{bad}");
    }
    let bogus = cozy_chess::Move {
        from: cozy_chess::Square::E1,
        to: cozy_chess::Square::E8,
        promotion: None,
    };
    assert!(p.play(bogus).is_err());
    assert_eq!(p.ply(), 0);
    assert_eq!(p.fen(), to_fen(&Board::default()));
}

#[test]
fn keys() {
    let a = pos("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1");
    let b = pos("4k3/p1p5/8/8/8/8/PP6/4K3 w - - 0 1");
    let c = pos("3k4/pp6/8/8/8/8/PP6/3K4 b - - 0 1");
    assert_eq!(a.material_key(), b.material_key());
    assert_ne!(a.pawn_key(), b.pawn_key());
    assert_eq!(a.pawn_key(), c.pawn_key());
    assert_ne!(a.material_key(), Position::startpos().material_key());
}

#[test]
fn chess960_position_uses_king_takes_rook() {
    let mut p = pos("bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1");
    assert!(p.chess960());
    assert!(!Position::startpos().chess960());
    // King f1 and rook g1 swap over at once.
    let mv = p.play_uci("f1g1").expect("castle");
    p.undo();
    assert_eq!(p.to_uci(mv), "f1g1");
    assert_eq!(p.play_str("O-O"), Ok(mv));
}

fn perft(p: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut n = 0;
    for mv in p.legal_moves() {
        p.play(mv).expect("legal");
        n += perft(p, depth - 1);
        assert!(p.undo().is_some());
    }
    n
}

#[test]
fn perft_through_position() {
    let cases = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            [20, 400, 8902],
        ),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            [48, 2039, 97862],
        ),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", [14, 191, 2812]),
        (
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            [6, 264, 9467],
        ),
    ];
    for (fen, counts) in cases {
        let mut p = pos(fen);
        for (d, &want) in counts.iter().enumerate() {
            assert_eq!(perft(&mut p, d as u32 + 1), want, "{fen} depth {}", d + 1);
        }
        assert_eq!(p.fen(), to_fen(&p.start_board().clone()));
    }
    assert!(insufficient_material(
        &pos("8/8/8/8/8/8/8/k1K5 w - - 0 1").board().clone()
    ));
}
