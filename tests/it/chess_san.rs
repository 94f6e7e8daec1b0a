//! SAN, coordinate and ICS move notation: round trips over random legal games and the
//! awkward cases (double disambiguation, pins, promotions, castling with check, `bxc3`).

use cozy_chess::{Board, Move, Piece};
use rand::{rngs::StdRng, Rng, SeedableRng};
use wily::chess::coord::{move_from_uci, move_to_uci, MoveParseError};
use wily::chess::fen::parse_fen;
use wily::chess::san::{
    line_to_san, parse_any_move, parse_ics_verbose, parse_san, to_ics_move, to_san,
};

fn board(fen: &str) -> Board {
    parse_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn legal_moves(b: &Board) -> Vec<Move> {
    let mut v = Vec::new();
    b.generate_moves(|pm| {
        v.extend(pm);
        false
    });
    v
}

fn san(fen: &str, uci: &str) -> String {
    let b = board(fen);
    let mv = move_from_uci(&b, uci, false).unwrap_or_else(|e| panic!("{uci}: {e}"));
    to_san(&b, mv)
}

fn parsed(fen: &str, text: &str) -> String {
    let b = board(fen);
    match parse_san(&b, text) {
        Ok(mv) => move_to_uci(&b, mv, false),
        Err(e) => panic!("{text} on {fen}: {e}"),
    }
}

#[test]
fn random_games_round_trip_every_legal_move() {
    let mut rng = StdRng::seed_from_u64(20240601);
    let mut checked = 0usize;
    for game in 0..150 {
        let mut b = if game % 10 == 9 {
            board("bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1")
        } else {
            Board::default()
        };
        for _ in 0..200 {
            let moves = legal_moves(&b);
            if moves.is_empty() {
                break;
            }
            let sans: Vec<String> = moves.iter().map(|&m| to_san(&b, m)).collect();
            for (i, (&mv, s)) in moves.iter().zip(&sans).enumerate() {
                assert!(
                    !sans[..i].contains(s),
                    "duplicate SAN {s} in {}",
                    wily::chess::fen::to_fen(&b)
                );
                assert_eq!(parse_san(&b, s), Ok(mv), "{s}");
                assert_eq!(parse_any_move(&b, s), Ok(mv), "{s}");
                // Decorations and an omitted capture mark are tolerated.
                assert_eq!(parse_san(&b, &format!("{s}!?")), Ok(mv));
                let bare = s.trim_end_matches(['+', '#']);
                assert_eq!(parse_san(&b, bare), Ok(mv));
                if s.contains('x') {
                    assert_eq!(parse_san(&b, &s.replace('x', "")), Ok(mv), "{s}");
                }
                for chess960 in [false, true] {
                    let u = move_to_uci(&b, mv, chess960);
                    assert_eq!(move_from_uci(&b, &u, chess960), Ok(mv), "{u}");
                    assert_eq!(parse_any_move(&b, &u), Ok(mv), "{u}");
                }
                let ics = to_ics_move(&b, mv);
                assert_eq!(parse_any_move(&b, &ics), Ok(mv), "{ics}");
                checked += 1;
            }
            let mv = moves[rng.gen_range(0..moves.len())];
            b.play_unchecked(mv);
        }
    }
    assert!(checked > 100_000, "only {checked} moves checked");
}

#[test]
fn disambiguation() {
    // Three queens: a1 shares a file with a3 and a rank with c1.
    let fen = "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1";
    assert_eq!(san(fen, "a1b2"), "Qa1b2");
    assert_eq!(san(fen, "a3b2"), "Q3b2");
    assert_eq!(san(fen, "c1b2"), "Qcb2");
    assert_eq!(parsed(fen, "Qa1b2"), "a1b2");
    assert_eq!(parsed(fen, "Qa1-b2"), "a1b2");
    assert_eq!(parsed(fen, "Q3b2"), "a3b2");
    assert_eq!(parsed(fen, "Qcb2"), "c1b2");
    let b = board(fen);
    assert!(matches!(
        parse_san(&b, "Qb2"),
        Err(MoveParseError::Ambiguous { ref candidates, .. }) if candidates.len() == 3
    ));
    assert!(matches!(
        parse_san(&b, "Qab2"),
        Err(MoveParseError::Ambiguous { .. })
    ));
    // Rooks on one file need the rank; knights need the file.
    assert_eq!(san("4k3/R7/8/8/8/8/8/R3K3 w - - 0 1", "a1a4"), "R1a4");
    assert_eq!(san("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "b1d2"), "Nbd2");
    // A pinned knight does not count as a rival.
    assert_eq!(san("k7/8/8/3b4/8/5N2/8/1N5K w - - 0 1", "b1d2"), "Nd2");
    assert_eq!(parsed("k7/8/8/3b4/8/5N2/8/1N5K w - - 0 1", "Nd2"), "b1d2");
}

#[test]
fn promotions_castling_checks() {
    let fen = "1n2k2r/P5P1/8/8/8/8/8/R3K2R w KQk - 0 1";
    assert_eq!(san(fen, "a7b8q"), "axb8=Q+");
    assert_eq!(san(fen, "g7h8n"), "gxh8=N");
    assert_eq!(san(fen, "a7a8r"), "a8=R");
    for text in [
        "axb8=Q+", "axb8Q", "axb8q", "axb8=q", "ab8Q", "axb8(Q)", "axb8/Q",
    ] {
        assert_eq!(parsed(fen, text), "a7b8q", "{text}");
    }
    assert_eq!(parsed(fen, "gxh8=N"), "g7h8n");
    // Missing promotion letter: a queen.
    assert_eq!(parsed(fen, "a8"), "a7a8q");
    assert_eq!(san(fen, "e1g1"), "O-O");
    assert_eq!(san(fen, "e1c1"), "O-O-O");
    for text in ["O-O", "0-0", "o-o", "O-O+", "O-O!", "OO"] {
        assert_eq!(parsed(fen, text), "e1g1", "{text}");
    }
    for text in ["O-O-O", "0-0-0", "o-o-o"] {
        assert_eq!(parsed(fen, text), "e1c1", "{text}");
    }
    // Castling that gives check, and mate.
    assert_eq!(san("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"), "O-O+");
    assert_eq!(san("7k/8/6K1/8/8/8/8/R7 w - - 0 1", "a1a8"), "Ra8#");
    assert_eq!(san("r3k3/8/8/8/8/8/5PPP/6K1 b q - 0 1", "e8c8"), "O-O-O");
    assert_eq!(san("2kr4/8/8/8/8/8/8/3B2K1 b - - 0 1", "d8d1"), "Rxd1+");
    // Castling not allowed: a clear error.
    let b = board("5k2/8/8/8/8/8/8/4K2R w - - 0 1");
    let e = parse_san(&b, "O-O").expect_err("no rights");
    assert!(e.to_string().contains("castle"), "{e}");
}

#[test]
fn pawn_or_bishop_and_en_passant() {
    // Both the b2 pawn and the e5 bishop can take on c3; `bxc3` is the pawn.
    let fen = "4k3/8/8/4B3/8/2n5/1P6/4K3 w - - 0 1";
    assert_eq!(parsed(fen, "bxc3"), "b2c3");
    assert_eq!(parsed(fen, "Bxc3"), "e5c3");
    // Without a pawn move, lower-case `b` is the bishop.
    let fen = "4k3/8/8/4B3/8/2n5/8/4K3 w - - 0 1";
    assert_eq!(parsed(fen, "bxc3"), "e5c3");
    assert_eq!(parsed(fen, "bc3"), "e5c3");
    assert_eq!(parsed("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", "nf3"), "g1f3");
    let ep = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1";
    assert_eq!(san(ep, "e5d6"), "exd6");
    for text in [
        "exd6",
        "exd6 e.p.",
        "exd6e.p.",
        "exd6ep",
        "ed6",
        "e5d6",
        "Pe5xd6",
    ] {
        assert_eq!(parsed(ep, text), "e5d6", "{text}");
    }
    assert_eq!(
        parsed(Board::default().to_string().as_str(), "e4!!"),
        "e2e4"
    );
    assert_eq!(parsed(&Board::default().to_string(), "Nf3??"), "g1f3");
    assert_eq!(parsed(&Board::default().to_string(), "Ng1f3"), "g1f3");
}

#[test]
fn errors_are_values() {
    let b = Board::default();
    for text in [
        "", "   ", "+", "Nf6", "Ke2", "e5", "Qh5", "xx", "N", "Z0", "--", "e9", "Kx", "O-O",
        "O-O-O", "Bb5", "e2e5", "a", "P/e2-e5", "\u{e9}4", "Nf3=Q", "e8=", "Pe5",
    ] {
        let r = parse_any_move(&b, text);
        assert!(r.is_err(), "{text:?} accepted as {r:?}");
        if let Err(e) = r {
            assert!(!e.to_string().is_empty());
        }
    }
}

#[test]
fn ics_verbose_and_server_form() {
    let b = Board::default();
    assert_eq!(
        parse_ics_verbose(&b, "N/g1-f3", Some("Nf3")).map(|m| m.to_string()),
        Ok("g1f3".into())
    );
    assert!(parse_ics_verbose(&b, "none", None).is_err());
    assert!(parse_ics_verbose(&b, "B/g1-f3", None).is_err());
    let fen = "r3k2r/6P1/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let b = board(fen);
    let promo = |hint| parse_ics_verbose(&b, "P/g7-h8", hint).map(|m| m.promotion);
    assert_eq!(promo(Some("gxh8=Q")), Ok(Some(Piece::Queen)));
    assert_eq!(promo(Some("gxh8=N")), Ok(Some(Piece::Knight)));
    assert_eq!(promo(None), Ok(Some(Piece::Queen)));
    assert_eq!(
        parse_ics_verbose(&b, "P/g7-h8=R", None).map(|m| m.promotion),
        Ok(Some(Piece::Rook))
    );
    let oo = parse_ics_verbose(&b, "o-o", Some("O-O")).expect("o-o");
    assert_eq!(move_to_uci(&b, oo, false), "e1g1");
    assert_eq!(to_ics_move(&b, oo), "o-o");
    let ooo = parse_ics_verbose(&b, "K/e1-c1", None).expect("K/e1-c1");
    assert_eq!(to_ics_move(&b, ooo), "o-o-o");
    let knight = move_from_uci(&b, "g7h8n", false).expect("g7h8n");
    assert_eq!(to_ics_move(&b, knight), "g7h8=n");
    assert_eq!(parse_any_move(&b, "g7h8=n"), Ok(knight));
    assert_eq!(line_to_san(&b, &[oo, knight]), vec!["O-O".to_string()]);
}

#[test]
fn fuzz_move_readers_never_panic() {
    let mut rng = StdRng::seed_from_u64(31337);
    let alphabet: Vec<char> = "abcdefgh12345678KQRBNPkqrbnpOo0x-=+#!?/(). e\u{e9}\u{0}Z@"
        .chars()
        .collect();
    let boards = [
        Board::default(),
        board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
        board("1n2k2r/P5P1/8/8/8/8/8/R3K2R w KQk - 0 1"),
        board("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"),
    ];
    let mut accepted = 0;
    for i in 0..60_000 {
        let len = rng.gen_range(0..9);
        let s: String = (0..len)
            .map(|_| alphabet[rng.gen_range(0..alphabet.len())])
            .collect();
        let b = &boards[i % boards.len()];
        let results = [
            parse_any_move(b, &s),
            parse_san(b, &s),
            parse_ics_verbose(b, &s, Some(&s)),
            move_from_uci(b, &s, i % 2 == 0),
        ];
        for mv in results.into_iter().flatten() {
            assert!(b.is_legal(mv), "{s:?} gave illegal {mv}");
            accepted += 1;
        }
    }
    assert!(accepted > 0);
}
