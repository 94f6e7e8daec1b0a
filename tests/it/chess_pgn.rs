//! PGN: the streaming reader on every syntax feature (variations nested to any depth) and
//! on broken input, replay from FEN tags, writer round trips over random games, and the
//! first 2,000 games of the shared masters file read and replayed legally.

use crate::shared_data;

use cozy_chess::{Board, Move};
use rand::{rngs::StdRng, Rng, SeedableRng};
use std::fs::File;
use std::io::BufReader;

use wily::chess::pgn::{
    replay, write_game, write_pgn_game, PgnErrorKind, PgnGame, PgnMove, PgnReader, ReplayError,
    MAX_NESTING,
};

fn read_all(text: &str) -> Vec<Result<PgnGame, wily::chess::pgn::PgnError>> {
    PgnReader::new(text.as_bytes()).collect()
}

const FEATURES: &str = "\u{feff}[Event \"Test \\\"quoted\\\"\"]\r
[Site \"Here\"]\r
[Result \"1-0\"]\r
\r
{Opening comment} 1. e4! e5 2. Nf3 $1 Nc6?! (2... d6 {a (paren) in a comment} 3. d4 (3. Bc4)) 3.Bb5 a6
; a rest-of-line comment
% an escape line with { and ( that must be ignored
4. Ba4 {multi
line comment} 4... Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 1-0

1. d4 d5 2. c4 *

[Event \"No result token\"]

1. e4 c5 2. Nf3

[Event \"second\"]
[Result \"0-1\"]
1. f3 e5 2. g4 Qh4# 0-1
";

#[test]
fn reader_handles_every_feature() {
    let games = read_all(FEATURES);
    assert_eq!(games.len(), 4, "{games:?}");
    let g = games[0].as_ref().expect("first game");
    assert_eq!(g.tag("Event"), Some("Test \"quoted\""));
    assert_eq!(g.result, "1-0");
    assert_eq!(g.comment.as_deref(), Some("Opening comment"));
    let sans: Vec<&str> = g.moves.iter().map(|m| m.san.as_str()).collect();
    assert_eq!(
        sans,
        "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O"
            .split(' ')
            .collect::<Vec<_>>()
    );
    assert_eq!(g.moves[0].nags, vec![1]);
    assert_eq!(g.moves[2].nags, vec![1]);
    assert_eq!(g.moves[3].nags, vec![6]);
    // The variation after 2... Nc6 is kept with the one nested in it after 3. d4;
    // others have none.
    let sans = |line: &[PgnMove]| line.iter().map(|m| m.san.clone()).collect::<Vec<_>>();
    assert_eq!(g.moves[3].variations.len(), 1);
    let var = &g.moves[3].variations[0];
    assert_eq!(sans(var), ["d6", "d4"]);
    assert!(var[0].variations.is_empty());
    assert_eq!(var[1].variations.len(), 1);
    assert_eq!(sans(&var[1].variations[0]), ["Bc4"]);
    assert!(var[1].variations[0][0].variations.is_empty());
    assert!(g
        .moves
        .iter()
        .enumerate()
        .all(|(i, m)| i == 3 || m.variations.is_empty()));
    assert_eq!(
        g.moves[5].comment.as_deref(),
        Some("a rest-of-line comment")
    );
    assert_eq!(g.moves[6].comment.as_deref(), Some("multi line comment"));
    assert_eq!(g.line, 1);
    let pos = g.replay().expect("replay");
    assert_eq!(pos.ply(), 16);

    let g = games[1].as_ref().expect("tagless game");
    assert!(g.tags.is_empty());
    assert_eq!(g.moves.len(), 3);
    assert_eq!(g.result, "*");

    let g = games[2].as_ref().expect("game without result");
    assert_eq!(g.tag("Event"), Some("No result token"));
    assert_eq!(g.moves.len(), 3);
    assert_eq!(g.result, "*");

    let g = games[3].as_ref().expect("fool's mate");
    assert_eq!(g.result, "0-1");
    let pos = replay(g).expect("replay");
    assert!(pos.status().is_over());
}

#[test]
fn broken_games_give_errors_and_the_reader_resyncs() {
    let text = "[Event \"good1\"]\n\n1. e4 e5 1-0\n\
        this is garbage between games\n\
        more garbage\n\n\
        [Event \"good2\"]\n\n1. d4 d5 0-1\n\
        [Event \"bad tag\n\n1. c4 c5 *\n\n\
        [Event \"good3\"]\n\n1. Nf3 *\n\
        [Event \"unclosed comment\"]\n\n1. e4 { never closed\n\n\
        [Event \"good4\"]\n\n1. g3 *\n\
        [Event \"unmatched paren\"]\n\n1. e4 ) e5 *\n\
        [Event \"good5\"]\n\n1. b3 (1. b4 *\n\
        [Event \"non-ascii\"]\n\n1. h3 \u{e9}\u{e9} *\n\
        [Event \"good6\"]\n\n1. h3 Qz9 *\n\
        [Event \"last\"]\n\n1. a3 *\n";
    let games = read_all(text);
    let summary: Vec<String> = games
        .iter()
        .map(|g| match g {
            Ok(g) => g.tag("Event").unwrap_or("-").to_string(),
            Err(e) => format!("ERR {:?}", e.kind),
        })
        .collect();
    assert_eq!(
        summary,
        vec![
            "good1",
            "ERR BadToken(\"this\")",
            "good2",
            "ERR BadTag(\"[Event \\\"bad tag\")",
            "good3",
            "ERR UnterminatedComment",
            "good4",
            "ERR UnmatchedParen",
            "ERR UnterminatedVariation",
            "ERR BadToken(\"\u{e9}\u{e9}\")",
            "good6",
            "last",
        ],
        "{games:?}"
    );
    for g in games.iter().flatten() {
        if g.tag("Event") == Some("good6") {
            // Garbage moves are the replay's business, with a clear error.
            let e = g.replay().expect_err("bad move");
            assert_eq!(e.ply(), 1);
            assert!(e.to_string().contains("1..."), "{e}");
        }
    }
    for e in games.iter().filter_map(|g| g.as_ref().err()) {
        assert!(e.to_string().starts_with("PGN line"), "{e}");
    }
}

#[test]
fn binary_junk_never_panics() {
    let mut rng = StdRng::seed_from_u64(5);
    let alphabet = b"[]{}()\";%$!?.0123456789 \nabcdefghKQRBNOx=+#-/*\r\t\xff\xc3";
    let mut total = 0;
    for _ in 0..300 {
        let len = rng.gen_range(0..2000);
        let bytes: Vec<u8> = (0..len)
            .map(|_| alphabet[rng.gen_range(0..alphabet.len())])
            .collect();
        for g in PgnReader::new(&bytes[..]).flatten() {
            let _ = g.replay();
            let _ = write_pgn_game(&g);
            total += 1;
        }
    }
    // A line longer than the limit is an error, not an allocation of unbounded size.
    let mut long = b"[Event \"x\"]\n\n1. e4 ".to_vec();
    long.extend(std::iter::repeat_n(b'a', 3 << 20));
    long.extend(b"\n[Event \"after\"]\n\n1. d4 *\n");
    let games: Vec<_> = PgnReader::new(&long[..]).collect();
    assert!(matches!(&games[0], Err(e) if e.kind == PgnErrorKind::LineTooLong));
    assert_eq!(games[1].as_ref().map(|g| g.moves.len()), Ok(1));
    let _ = total;
}

#[test]
fn replay_from_fen_and_variants() {
    let text = "[Event \"setup\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 40\"]\n\n40... Kd7 41. e4 Ke6 *\n\n\
        [Event \"zh\"]\n[Variant \"crazyhouse\"]\n\n1. e4 *\n\n\
        [Event \"badfen\"]\n[FEN \"8/8/8 w - - 0 1\"]\n\n1. e4 *\n";
    let games: Vec<PgnGame> = read_all(text)
        .into_iter()
        .map(|g| g.expect("game"))
        .collect();
    let pos = games[0].replay().expect("setup replay");
    assert_eq!(pos.ply(), 3);
    assert_eq!(pos.board().fullmove_number(), 42);
    assert!(matches!(
        games[1].replay(),
        Err(ReplayError::UnsupportedVariant(_))
    ));
    assert!(matches!(games[2].replay(), Err(ReplayError::BadFen(_))));
    let written = write_pgn_game(&games[0]);
    assert!(written.contains("[SetUp \"1\"]"), "{written}");
    assert!(written.contains("40... Kd7 41. e4 Ke6 *"), "{written}");
}

fn random_game(rng: &mut StdRng, start: &Board) -> Vec<Move> {
    let mut b = start.clone();
    let mut moves = Vec::new();
    for _ in 0..rng.gen_range(0..250) {
        let mut legal = Vec::new();
        b.generate_moves(|pm| {
            legal.extend(pm);
            false
        });
        if legal.is_empty() {
            break;
        }
        let mv = legal[rng.gen_range(0..legal.len())];
        b.play_unchecked(mv);
        moves.push(mv);
    }
    moves
}

#[test]
fn writer_round_trip() {
    let mut rng = StdRng::seed_from_u64(42);
    let starts = [
        Board::default(),
        wily::chess::fen::parse_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 3 17",
        )
        .expect("fen"),
    ];
    let mut text = String::new();
    let mut expected = Vec::new();
    for i in 0..60 {
        let start = &starts[i % 2];
        let moves = random_game(&mut rng, start);
        let comments: Vec<Option<String>> = (0..moves.len())
            .map(|j| (j % 7 == 3).then(|| format!("note {j} {{with braces}} and more words")))
            .collect();
        let tags = vec![
            ("White".to_string(), format!("Player \"{i}\"")),
            ("Event".to_string(), "Round trip".to_string()),
            ("Annotator".to_string(), "wily".to_string()),
        ];
        let pgn = write_game(&tags, start, &moves, &comments, "*");
        for line in pgn.lines() {
            assert!(
                line.len() <= 79 || line.starts_with('['),
                "long line: {line}"
            );
        }
        let first: Vec<&str> = pgn.lines().take(7).collect();
        assert!(
            first[0].starts_with("[Event ") && first[6].starts_with("[Result "),
            "{pgn}"
        );
        text.push_str(&pgn);
        expected.push((start.clone(), moves, comments));
    }
    let games: Vec<PgnGame> = read_all(&text)
        .into_iter()
        .map(|g| g.expect("game"))
        .collect();
    assert_eq!(games.len(), expected.len());
    for (g, (start, moves, comments)) in games.iter().zip(&expected) {
        assert_eq!(g.tag("Annotator"), Some("wily"));
        assert!(g.tag("White").is_some_and(|w| w.starts_with("Player \"")));
        let (b, replayed) = g.replay_moves().expect("replay");
        assert_eq!(&b, start);
        assert_eq!(&replayed, moves);
        for (m, c) in g.moves.iter().zip(comments) {
            assert_eq!(m.comment.is_some(), c.is_some());
        }
        // Writing the parsed game again gives the same text.
        let again = write_pgn_game(g);
        let mut reparsed = read_all(&again).remove(0).expect("reparse");
        reparsed.line = g.line;
        assert_eq!(&reparsed, g);
    }
}

#[test]
fn masters_first_2000_games_replay() {
    let Some(dir) = shared_data::dir() else {
        return;
    };
    let path = dir.join("data/pgn/masters-2400.pgn");
    let file = File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut n = 0;
    let mut plies = 0;
    for game in PgnReader::new(BufReader::new(file)).take(2000) {
        let game = game.unwrap_or_else(|e| panic!("{e}"));
        let pos = game
            .replay()
            .unwrap_or_else(|e| panic!("game at line {}: {e}", game.line));
        plies += pos.ply();
        if let Some(pc) = game.tag("PlyCount").and_then(|p| p.parse::<usize>().ok()) {
            assert_eq!(pc, pos.ply(), "game at line {}", game.line);
        }
        n += 1;
    }
    assert_eq!(n, 2000);
    assert!(plies > 100_000, "{plies}");
}

#[test]
fn chess960_game_written_and_read_back() {
    let start =
        wily::chess::fen::parse_fen("bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1")
            .expect("960 start");
    let mut b = start.clone();
    let mut moves = Vec::new();
    for text in ["O-O", "O-O", "e4", "e5"] {
        let mv = wily::chess::san::parse_san(&b, text).expect(text);
        b.play_unchecked(mv);
        moves.push(mv);
    }
    let pgn = write_game(&[], &start, &moves, &[], "*");
    assert!(pgn.contains("[Variant \"Chess960\"]"), "{pgn}");
    assert!(pgn.contains("1. O-O O-O 2. e4 e5 *"), "{pgn}");
    let game = read_all(&pgn).remove(0).expect("game");
    let (b2, replayed) = game.replay_moves().expect("replay");
    assert_eq!(b2, start);
    assert_eq!(replayed, moves);
    // An unreadable FEN tag survives rewriting.
    let bad = read_all("[FEN \"nonsense\"]\n\n1. e4 *\n")
        .remove(0)
        .expect("game");
    assert!(write_pgn_game(&bad).contains("[FEN \"nonsense\"]"));
}

#[test]
fn closing_comment_before_the_result() {
    let start = cozy_chess::Board::default();
    let mut b = start.clone();
    let mut moves = Vec::new();
    for text in ["f3", "e5", "g4", "Qh4#"] {
        let mv = wily::chess::san::parse_san(&b, text).expect(text);
        b.play_unchecked(mv);
        moves.push(mv);
    }
    let comments = vec![None, Some("+0.35/18 1.2s".to_string())];
    let pgn = wily::chess::pgn::write_game_ending(
        &[],
        &start,
        &moves,
        &comments,
        "0-1",
        Some("Black mates {really}"),
    );
    assert!(
        pgn.contains("1. f3 e5 {+0.35/18 1.2s} 2. g4 Qh4# {Black mates (really)} 0-1"),
        "{pgn}"
    );
    let game = read_all(&pgn).remove(0).expect("game");
    assert_eq!(game.moves.len(), 4);
    assert_eq!(game.result, "0-1");
}

#[test]
fn variations_nest_to_any_depth_and_deeper_ones_are_capped() {
    let text = "1. e4 e5 (1... c5 2. Nf3 (2. c3 d5 (2... Nf6 3. e5)) 2... d6) 2. Nf3 *\n";
    let games = read_all(text);
    let g = games[0].as_ref().expect("game");
    assert_eq!(g.moves.len(), 3);
    let c5 = &g.moves[1].variations[0];
    assert_eq!(c5.len(), 3, "{c5:?}");
    let c3 = &c5[1].variations[0];
    assert_eq!(c3.len(), 2);
    assert_eq!(c3[1].variations[0].len(), 2);
    assert_eq!(c3[1].variations[0][1].san, "e5");
    // Nesting past the cap is read and skipped; the game and its main line stay whole.
    let deep = MAX_NESTING + 5;
    let mut text = String::from("1. e4 ");
    for _ in 0..deep {
        text.push_str("(1. d4 ");
    }
    for _ in 0..deep {
        text.push(')');
    }
    text.push_str(" 1... e5 *\n");
    let games = read_all(&text);
    let g = games[0].as_ref().expect("deep game");
    assert_eq!(g.moves.len(), 2);
    let mut levels = 0;
    let mut line = &g.moves[0].variations;
    while let Some(v) = line.first() {
        levels += 1;
        line = &v[0].variations;
    }
    assert_eq!(levels, MAX_NESTING);
}
