//! Tests of the staged move picker: every legal move once, the hash move first, the
//! refutations first among quiet moves, and the checking quiet moves left under late-move
//! pruning.

use super::*;

/// A fixed order of moves, for comparing move sets.
fn order(m: &Move) -> (u8, u8, Option<u8>) {
    (m.from as u8, m.to as u8, m.promotion.map(|p| p as u8))
}

fn all_moves(fen: &str, captures_only: bool) -> Vec<Move> {
    let board: Board = fen.parse().expect("fen");
    let hist = History::new();
    // As at the root: the threat ordering's maps, no path, no killers.
    let ctx = OrderContext::root(&board);
    let mut p = MovePicker::new(None, captures_only);
    let mut v = Vec::new();
    while let Some(m) = p.next(&board, &hist, &ctx) {
        v.push(m);
    }
    v
}

#[test]
fn picker_returns_every_legal_move_once_with_captures_first() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let v = all_moves(fen, false);
    assert_eq!(v.len(), 48);
    let mut dedup = v.clone();
    dedup.sort_by_key(order);
    dedup.dedup();
    assert_eq!(dedup.len(), 48);
    let board: Board = fen.parse().expect("fen");
    // The first move is a capture that does not lose material.
    assert!(captured_piece(&board, v[0]).is_some());
    let caps = all_moves(fen, true);
    assert_eq!(caps.len(), 8);
    assert!(caps.iter().all(|m| captured_piece(&board, *m).is_some()));
}

#[test]
fn hash_move_comes_first_and_is_not_repeated() {
    let board = Board::default();
    let tt: Move = "g1f3".parse().expect("move");
    let hist = History::new();
    let ctx = OrderContext::default();
    let mut p = MovePicker::new(Some(tt), false);
    let first = p.next(&board, &hist, &ctx);
    assert_eq!(first, Some(tt));
    let mut n = 1;
    while let Some(m) = p.next(&board, &hist, &ctx) {
        assert_ne!(m, tt);
        n += 1;
    }
    assert_eq!(n, 20);
}

#[test]
fn refutations_come_first_among_quiet_moves_and_every_move_comes_once() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    let hist = History::new();
    let mut early_seen = 0;
    let mut others: Vec<Move> = Vec::new();
    for _ in 0..60 {
        let mut board = Board::default();
        for _ in 0..80 {
            let legal = MoveList::legal(&board);
            if legal.is_empty() {
                break;
            }
            // Refutation candidates: legal moves here (quiet or not) and moves of
            // other positions (often illegal here).
            let pick = |rng: &mut rand::rngs::StdRng| -> Option<Move> {
                match rng.gen_range(0..4) {
                    0 => None,
                    1 if !others.is_empty() => Some(others[rng.gen_range(0..others.len())]),
                    _ => Some(legal.as_slice()[rng.gen_range(0..legal.len())]),
                }
            };
            let ctx = OrderContext {
                killers: [pick(&mut rng), pick(&mut rng)],
                counter: pick(&mut rng),
                ..OrderContext::default()
            };
            let enemy = board.colors(!board.side_to_move());
            let ep = ep_square(&board);
            let quiet_here = |m: &Move| {
                legal.as_slice().contains(m)
                    && !enemy.has(m.to)
                    && m.promotion.is_none()
                    && !(board.pieces(Piece::Pawn).has(m.from) && Some(m.to) == ep)
            };
            let mut want_first: Vec<Move> = Vec::new();
            for m in [ctx.killers[0], ctx.killers[1], ctx.counter]
                .into_iter()
                .flatten()
            {
                if quiet_here(&m) && !want_first.contains(&m) {
                    want_first.push(m);
                }
            }
            let mut p = MovePicker::new(None, false);
            let mut got = Vec::new();
            while let Some(m) = p.next(&board, &hist, &ctx) {
                got.push(m);
            }
            let got_quiets: Vec<Move> = got.iter().copied().filter(quiet_here).collect();
            assert_eq!(got_quiets[..want_first.len()], want_first[..], "{board}");
            early_seen += want_first.len();
            let mut want: Vec<Move> = legal.as_slice().to_vec();
            want.sort_by_key(order);
            got.sort_by_key(order);
            assert_eq!(got, want, "{board}");
            let mv = legal.as_slice()[rng.gen_range(0..legal.len())];
            others.push(mv);
            board.play_unchecked(mv);
        }
    }
    assert!(early_seen > 1000, "only {early_seen} refutations met");
}

#[test]
fn with_quiets_skipped_exactly_the_checking_quiet_moves_remain() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    let hist = History::new();
    let ctx = OrderContext::default();
    let mut checks_seen = 0;
    for _ in 0..100 {
        let mut board = Board::default();
        for _ in 0..100 {
            let legal = MoveList::legal(&board);
            if legal.is_empty() {
                break;
            }
            let info = CheckInfo::new(&board);
            let mut p = MovePicker::new(None, false);
            p.skip_quiets(info);
            let mut got = Vec::new();
            while let Some(m) = p.next(&board, &hist, &ctx) {
                got.push(m);
            }
            let enemy = board.colors(!board.side_to_move());
            let ep = ep_square(&board);
            let tactical = |m: &Move| {
                enemy.has(m.to)
                    || m.promotion.is_some()
                    || (board.pieces(Piece::Pawn).has(m.from) && Some(m.to) == ep)
            };
            let mut want: Vec<Move> = legal
                .as_slice()
                .iter()
                .copied()
                .filter(|m| tactical(m) || info.gives_check(&board, *m))
                .collect();
            checks_seen += want.iter().filter(|m| !tactical(m)).count();
            want.sort_by_key(order);
            got.sort_by_key(order);
            assert_eq!(got, want, "{board}");
            board.play_unchecked(legal.as_slice()[rng.gen_range(0..legal.len())]);
        }
    }
    assert!(checks_seen > 500, "only {checks_seen} quiet checks met");
}

#[test]
fn a_piece_attacked_by_a_pawn_moves_away_first_and_not_into_another_pawns_reach() {
    // No captures, fresh history: only the threat terms order the quiet moves. Black's e5
    // pawn attacks the knight on d4, so all eight knight moves (none to a square a black
    // pawn attacks) come before the rook's and the king's.
    let v = all_moves("4k3/8/8/4p3/3N4/8/8/R3K3 w - - 0 1", false);
    assert_eq!(v.iter().filter(|m| m.from == Square::D4).count(), 8);
    assert!(v[..8].iter().all(|m| m.from == Square::D4), "{v:?}");
    // The b4 pawn attacks the bishop on c3: of the quiet moves, its retreats to d2, b2 and
    // a1 come first, the king's next, and its step to d4 (where the e5 pawn would attack
    // it) last.
    let fen = "4k3/8/8/4p3/1p6/2B5/8/4K3 w - - 0 1";
    let board: Board = fen.parse().expect("fen");
    let quiet: Vec<Move> = all_moves(fen, false)
        .into_iter()
        .filter(|m| board.piece_on(m.to).is_none())
        .collect();
    let mut first: Vec<Square> = quiet[..3].iter().map(|m| m.to).collect();
    first.sort_by_key(|s| *s as u8);
    assert_eq!(first, vec![Square::A1, Square::B2, Square::D2], "{quiet:?}");
    assert!(quiet[..3].iter().all(|m| m.from == Square::C3));
    let last = quiet[quiet.len() - 1];
    assert_eq!((last.from, last.to), (Square::C3, Square::D4), "{quiet:?}");
    assert!(quiet[3..quiet.len() - 1]
        .iter()
        .all(|m| m.from == Square::E1));
}

#[test]
fn enemy_attacks_are_every_square_an_enemy_piece_reaches_with_sliders_stopped_by_pieces() {
    // White to move: the map is Black's. Black: king g8, queen d8, knight f6, pawn h7;
    // a white pawn on d4 stops the queen's file.
    let board: Board = "3q2k1/7p/5n2/8/3P4/8/8/4K3 w - - 0 1".parse().expect("fen");
    let att = enemy_attacks(&board);
    for sq in [
        Square::D4, // the queen's file, as far as the white pawn
        Square::D5,
        Square::A5, // the queen's diagonal
        Square::E4, // the knight
        Square::G6, // the pawn
        Square::F8, // the king
    ] {
        assert!(att.has(sq), "{sq} should be attacked");
    }
    for sq in [Square::D3, Square::E1, Square::H6, Square::A1] {
        assert!(!att.has(sq), "{sq} should not be attacked");
    }
    // Black to move: the map is White's (pawn d4, king e1).
    let board: Board = "3q2k1/7p/5n2/8/3P4/8/8/4K3 b - - 0 1".parse().expect("fen");
    let att = enemy_attacks(&board);
    assert_eq!(
        att,
        Square::C5.bitboard()
            | Square::E5.bitboard()
            | Square::D1.bitboard()
            | Square::D2.bitboard()
            | Square::E2.bitboard()
            | Square::F2.bitboard()
            | Square::F1.bitboard()
    );
}

#[test]
fn the_threat_layers_nest_by_attacker_class_and_end_in_every_attacked_square() {
    // White to move, Black's map: pawns c5 and h7, knight a5, bishop b7, rook h8 (hemmed
    // in by its own king and h7 pawn), queen d8, king g8.
    let board: Board = "3q2kr/1b5p/8/n1p5/8/8/8/4K3 w - - 0 1"
        .parse()
        .expect("fen");
    let (t, all) = Threats::of_node(&board);
    assert_eq!(all, enemy_attacks(&board));
    assert_eq!(
        t.pawns,
        Square::B4.bitboard() | Square::D4.bitboard() | Square::G6.bitboard()
    );
    assert!([Square::C4, Square::E4, Square::A6, Square::H1]
        .iter()
        .all(|&s| t.minors.has(s)));
    assert!(!t.minors.has(Square::G8) && !t.minors.has(Square::D7));
    // The rook reaches g8 (its king) and h7 (its pawn), no further.
    assert_eq!(
        t.rooks & !t.minors,
        Square::H7.bitboard() | Square::G8.bitboard()
    );
    // The queen and the king add the rest.
    assert!(!t.rooks.has(Square::D1) && all.has(Square::D1) && all.has(Square::F8));
    assert_eq!(t.pawns & !t.minors, BitBoard::EMPTY);
    assert_eq!(t.minors & !t.rooks, BitBoard::EMPTY);
    assert_eq!(t.rooks & !all, BitBoard::EMPTY);
}
