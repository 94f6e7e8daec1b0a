//! Chess960 on the local server, line for line against the lasker 2.2 server's own bytes
//! (`tests/fixtures/ics/lasker/chess960_match_castling.*.raw`): `match NAME 1 0 white fr`
//! gives the same wrapped `Loaded from fischerandom/0` challenge, the `fischerandom`
//! creation lines and a Chess960 start array with all four castling flags; castling typed
//! `o-o` / `o-o-o` is echoed as `o-o (0:00) O-O` and clears that side's flags; `seek ...
//! fr` ads read `fischerandom`, and `wild` alone is refused.

use crate::server_support;

use cozy_chess::{Board, Move, Piece, Rank};
use server_support::*;
use std::path::PathBuf;
use wily::chess::chess960;
use wily::chess::coord::is_castling;
use wily::chess::san::to_ics_move;
use wily::chess::Position;
use wily::server::parse_style12;

fn fixture(name: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/ics/lasker")
        .join(name);
    let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    String::from_utf8_lossy(&bytes).replace('\r', "")
}

/// The text from `from` to the end of the line after it.
fn cut(text: &str, from: &str, lines: usize) -> String {
    let i = text
        .find(from)
        .unwrap_or_else(|| panic!("{from:?} not in {text}"));
    text[i..].split_inclusive('\n').take(lines).collect()
}

/// A style-12 line's board (castling rights from the flags, read as the outermost rooks:
/// these are start positions), through the sparring client's own parser.
fn board_of(line: &str) -> Board {
    parse_style12(line)
        .unwrap_or_else(|| panic!("not a style-12 line: {line:?}"))
        .board
}

/// The test's player: castles when it may on the wing it wants (either when `want` is
/// `None`), else moves a knight, bishop or queen off its back rank to an empty square,
/// else pushes a pawn, else plays the first legal move.
fn pick(board: &Board, want: Option<bool>) -> Move {
    let mut legal = Vec::new();
    board.generate_moves(|m| {
        legal.extend(m);
        false
    });
    let back = Rank::First.relative_to(board.side_to_move());
    let castle = |m: &Move| {
        is_castling(board, *m) && want.is_none_or(|short| (m.to.file() > m.from.file()) == short)
    };
    let develop = |m: &Move| {
        let minor = matches!(
            board.piece_on(m.from),
            Some(Piece::Knight | Piece::Bishop | Piece::Queen)
        );
        minor && m.from.rank() == back && m.to.rank() != back && board.color_on(m.to).is_none()
    };
    let push =
        |m: &Move| board.piece_on(m.from) == Some(Piece::Pawn) && board.color_on(m.to).is_none();
    let found = legal
        .iter()
        .find(|m| castle(m))
        .or_else(|| legal.iter().find(|m| develop(m)));
    *found
        .or_else(|| legal.iter().find(|m| push(m)))
        .unwrap_or(&legal[0])
}

#[tokio::test]
async fn a_fr_match_reads_like_laskers_and_castles_both_ways() {
    bounded(60, async {
        let real = fixture("chess960_match_castling.BetaBot.raw");
        let srv = server().await;
        let addr = srv.local_addr();
        let mut a = Client::login(addr, "AlphaBot", Some("alpha")).await;
        let mut b = Client::login(addr, "BetaBot", Some("beta")).await;
        for c in [&mut a, &mut b] {
            c.cmd("set style 12").await;
        }
        a.send("match BetaBot 1 0 white fr").await;
        let issuing = a.expect("fics% ").await;
        assert!(issuing.starts_with("Issuing: AlphaBot (----) [white] BetaBot (----) rated wild 1 0 Loaded from \n\\   fischerandom/0.\n"), "{issuing}");
        // The challenge wraps where lasker wraps it (its ratings were 4 digits too).
        let challenge = b.expect("You can \"accept\"").await;
        let theirs = cut(&real, "Challenge: ", 2).replace("(1973)", "(----)").replace("(1467)", "(----)");
        assert!(challenge.contains(&theirs), "{challenge:?} vs {theirs:?}");
        b.expect("fics% ").await;
        b.send("accept").await;
        let created = a.expect("<12> ").await;
        assert!(created.contains("Creating: AlphaBot (0) BetaBot (0) rated fischerandom 1 0\n"), "{created}");
        assert!(real.contains("Creating: AlphaBot (1973) BetaBot (1467) rated fischerandom 1 0\n"));
        assert!(created.contains("{Game 1 (AlphaBot vs. BetaBot) Creating rated fischerandom match.}"));
        let rest = a.expect("\n").await;
        let first = format!("<12> {}", rest.trim_end());
        let f = fields(&first);
        assert_eq!(&f[9..15], ["W", "-1", "1", "1", "1", "1"], "{first}");
        let start = board_of(&first);
        assert!(chess960::index_of(&start).is_some(), "{first}");
        b.board().await;

        // Play until each side has castled, one on each wing (see `pick`).
        let mut pos = Position::new(start);
        let mut wings: [Option<bool>; 2] = [None, None];
        let mut seen = Vec::new();
        for _ in 0..80 {
            if wings.iter().all(Option::is_some) {
                break;
            }
            let board = pos.board().clone();
            let side = board.side_to_move() as usize;
            let want = wings[1 - side].map(|short| !short);
            let mv = pick(&board, want);
            if is_castling(&board, mv) {
                wings[side] = Some(mv.to.file() > mv.from.file());
            }
            let text = to_ics_move(&board, mv);
            let (mover, other) = if side == 0 { (&mut a, &mut b) } else { (&mut b, &mut a) };
            mover.send(&text).await;
            let echo = mover.board().await;
            other.board().await;
            pos.play(mv).unwrap();
            if is_castling(&board, mv) {
                let f = fields(&echo);
                // Verbose and SAN as lasker prints them; the mover's flags are cleared.
                assert_eq!(f[27], text, "{echo}");
                assert_eq!(f[29].trim_end_matches(['+', '#']), text.to_ascii_uppercase(), "{echo}");
                let flags = if side == 0 { &f[11..13] } else { &f[13..15] };
                assert_eq!(flags, ["0", "0"], "{echo}");
                seen.push(text);
            }
            // The server's board is the one the rules layer reached.
            assert_eq!(wily::chess::to_fen(&board_of(&echo)).split(' ').next(), wily::chess::to_fen(pos.board()).split(' ').next());
        }
        assert_eq!(wings.iter().flatten().count(), 2, "{:?}", pos.moves_san());
        assert_ne!(wings[0], wings[1], "one castling on each wing");
        // The recorded lasker echoes have the same shape.
        assert!(real.contains(" o-o (0:01) O-O ") && real.contains(" o-o-o (0:01) O-O-O "));
        eprintln!("castled: {seen:?}");
        srv.shutdown().await;
    })
    .await;
}

#[tokio::test]
async fn fr_seeks_read_fischerandom_and_wild_alone_is_refused() {
    bounded(30, async {
        let srv = server().await;
        let addr = srv.local_addr();
        let mut a = Client::login(addr, "AlphaBot", Some("alpha")).await;
        let mut b = Client::login(addr, "BetaBot", Some("beta")).await;
        a.cmd("seek 5 0 unrated fr").await;
        let sought = b.cmd("sought").await;
        assert!(
            sought.contains("AlphaBot") && sought.contains("unrated fischerandom"),
            "{sought}"
        );
        let wild = a.cmd("seek 5 0 wild").await;
        assert!(wild.contains("only wild fr"), "{wild}");
        b.cmd("set style 12").await;
        b.send("play 0").await;
        let board = b.board().await;
        let f = fields(&board);
        let start = board_of(&board);
        assert!(chess960::index_of(&start).is_some(), "{board}");
        assert_eq!(&f[11..15], ["1", "1", "1", "1"]);
        srv.shutdown().await;
    })
    .await;
}
