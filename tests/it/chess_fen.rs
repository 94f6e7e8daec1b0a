//! FEN reading and writing: every error case, Chess960 castling forms, and a fuzz run
//! over random and mutated strings that must never panic.

use cozy_chess::{Board, Color, File, Square};
use rand::{rngs::StdRng, Rng, SeedableRng};
use wily::chess::fen::{parse_fen, to_fen, to_shredder_fen, FenError, STARTPOS_FEN};

fn err(fen: &str) -> FenError {
    match parse_fen(fen) {
        Ok(b) => panic!("FEN {fen:?} should not parse, got {}", to_fen(&b)),
        Err(e) => {
            assert!(!e.to_string().is_empty());
            e
        }
    }
}

#[test]
fn each_error_case_is_reported() {
    assert_eq!(err(""), FenError::Empty);
    assert!(matches!(
        err("rnbqkbnx/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::BadPiece { ch: 'x', rank: 8 }
    ));
    assert!(matches!(
        err("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::RankLength {
            rank: 7,
            squares: 7
        }
    ));
    assert!(matches!(
        err("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::BadPiece { ch: '9', rank: 6 }
    ));
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::RankCount(7)
    );
    assert_eq!(
        err("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1"),
        FenError::KingCount {
            color: Color::Black,
            count: 0
        }
    );
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w - - 0 1"),
        FenError::KingCount {
            color: Color::White,
            count: 2
        }
    );
    assert!(matches!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"),
        FenError::BadSide(_)
    ));
    assert!(matches!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1"),
        FenError::BadCastling { .. }
    ));
    assert!(matches!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqz - 0 1"),
        FenError::BadCastling { .. }
    ));
    assert!(matches!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKQkq - 0 1"),
        FenError::BadCastling { .. }
    ));
    // King not on its first rank but castling claimed.
    assert!(matches!(
        err("r3k2r/8/8/8/8/8/4K3/R6R w KQ - 0 1"),
        FenError::BadCastling { .. }
    ));
    assert!(matches!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1"),
        FenError::BadEnPassant { .. }
    ));
    assert!(matches!(
        err("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1"),
        FenError::BadEnPassant { .. }
    ));
    assert!(matches!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1"),
        FenError::BadCounter { .. }
    ));
    assert!(matches!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -3"),
        FenError::BadCounter { .. }
    ));
    assert!(matches!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra"),
        FenError::TooManyFields(7)
    ));
    // Black king attacked by the white queen with White to move.
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4QK2 w - - 0 1").to_string(),
        FenError::OpponentInCheck.to_string()
    );
    assert_eq!(
        err("4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1"),
        FenError::OpponentInCheck
    );
    assert!(matches!(
        err("P3k3/8/8/8/8/8/8/4K3 w - - 0 1"),
        FenError::PawnOnBackRank(Square::A8)
    ));
    assert!(matches!(
        err("4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1"),
        FenError::TooManyPieces(Color::Black)
    ));
    // Three checkers.
    assert!(matches!(
        err("4k3/8/8/8/1b6/5n2/8/r3K3 w - - 0 1"),
        FenError::TooManyCheckers(3)
    ));
}

#[test]
fn tolerant_forms_are_accepted() {
    let b =
        parse_fen("  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR   w KQkq -  ").expect("4 fields");
    assert_eq!(to_fen(&b), STARTPOS_FEN);
    let b = parse_fen("4k3/8/8/8/8/8/8/4K3 w - - 150 0").expect("large clock");
    assert_eq!(b.halfmove_clock(), 100);
    assert_eq!(b.fullmove_number(), 1);
    let b = parse_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2").expect("ep");
    assert_eq!(b.en_passant(), Some(File::E));
}

#[test]
fn chess960_castling_forms() {
    // Shredder-FEN, X-FEN with outermost rooks, and X-FEN with an inner rook.
    let shredder = "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1";
    let b = parse_fen(shredder).expect("shredder");
    assert_eq!(to_shredder_fen(&b), shredder);
    assert_eq!(
        to_fen(&b),
        "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1"
    );
    assert_eq!(parse_fen(&to_fen(&b)), Ok(b.clone()));
    assert_eq!(b.castle_rights(Color::White).short, Some(File::G));
    assert_eq!(b.castle_rights(Color::White).long, Some(File::E));

    // Two rooks on the king side; castling with the inner one needs its letter.
    let inner = "4k3/8/8/8/8/8/8/R3K1RR w Ga - 0 1";
    let e = parse_fen(inner);
    assert!(e.is_err(), "black has no rook on a8");
    let inner = "r3k3/8/8/8/8/8/8/R3K1RR w Gq - 0 1";
    let b = parse_fen(inner).expect("inner rook");
    assert_eq!(b.castle_rights(Color::White).short, Some(File::G));
    assert_eq!(to_fen(&b), inner);
    let outer = parse_fen("r3k3/8/8/8/8/8/8/R3K1RR w Kq - 0 1").expect("outer");
    assert_eq!(outer.castle_rights(Color::White).short, Some(File::H));
}

#[test]
fn write_then_read_is_identity_for_many_positions() {
    let mut rng = StdRng::seed_from_u64(7);
    for _ in 0..200 {
        let mut board = Board::default();
        for _ in 0..rng.gen_range(0..120) {
            let mut moves = Vec::new();
            board.generate_moves(|pm| {
                moves.extend(pm);
                false
            });
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.gen_range(0..moves.len())];
            board.play_unchecked(mv);
            let fen = to_fen(&board);
            let back = parse_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert_eq!(back, board, "{fen}");
            assert_eq!(back.hash(), board.hash());
        }
    }
}

#[test]
fn fuzz_never_panics() {
    let mut rng = StdRng::seed_from_u64(0xF3E);
    let alphabet: Vec<char> = "KQRBNPkqrbnp12345678/ -wbWB0x9aeh\u{e9}\u{0}\t"
        .chars()
        .collect();
    let seeds = [
        STARTPOS_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1",
    ];
    let mut parsed = 0;
    for i in 0..40_000 {
        let s: String = if i % 2 == 0 {
            let len = rng.gen_range(0..90);
            (0..len)
                .map(|_| alphabet[rng.gen_range(0..alphabet.len())])
                .collect()
        } else {
            let mut chars: Vec<char> = seeds[rng.gen_range(0..seeds.len())].chars().collect();
            for _ in 0..rng.gen_range(1..4) {
                let pos = rng.gen_range(0..chars.len());
                match rng.gen_range(0..3) {
                    0 => chars[pos] = alphabet[rng.gen_range(0..alphabet.len())],
                    1 => {
                        chars.remove(pos);
                    }
                    _ => chars.insert(pos, alphabet[rng.gen_range(0..alphabet.len())]),
                }
                if chars.is_empty() {
                    break;
                }
            }
            chars.into_iter().collect()
        };
        if let Ok(b) = parse_fen(&s) {
            parsed += 1;
            // Anything accepted must survive a round trip and move generation.
            let again = parse_fen(&to_fen(&b)).expect("round trip of accepted FEN");
            assert_eq!(again, b);
            let mut n = 0;
            b.generate_moves(|pm| {
                n += pm.len();
                false
            });
            let _ = n;
        }
    }
    assert!(
        parsed > 100,
        "mutations should sometimes stay valid ({parsed})"
    );
}
