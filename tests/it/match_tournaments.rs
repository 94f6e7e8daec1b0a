//! `wily match` with wily itself as the engines, for the cutechess-style choices: an
//! engine's own Polyglot book (`book=FILE bookdepth=N`, `-bookmode`), pondering
//! (`ponder`), knockout and pyramid tournaments with `-seeds`, and `-use-affinity`.

use crate::match_support;
use crate::scratch;

use match_support::{argv, games, run_match, run_one_vs_two, text, wily_cmd};
use wily::book::polyglot::{encode_entries, PolyglotEntry};
use wily::chess::polyglot::{encode_move, polyglot_key};
use wily::chess::{move_from_uci, Position};

/// A Polyglot book of `lines`: each a list of UCI moves from the start, whose last move
/// is the book's move for the position before it.
fn write_book(path: &std::path::Path, lines: &[&[&str]]) {
    let mut entries = Vec::new();
    for line in lines {
        let mut pos = Position::startpos();
        for (i, m) in line.iter().enumerate() {
            let mv = move_from_uci(pos.board(), m, false).expect("a legal book move");
            if i + 1 == line.len() {
                entries.push(PolyglotEntry {
                    key: polyglot_key(pos.board()),
                    mv: encode_move(mv),
                    weight: 1,
                    learn: 0,
                });
            }
            pos.play(mv).expect("legal");
        }
    }
    std::fs::write(path, encode_entries(&mut entries)).unwrap();
}

#[test]
fn an_engines_own_book_is_played_up_to_its_depth() {
    let dir = scratch::dir("match-book");
    let d = dir.path();
    // Moves wily would not choose itself: 1.a3 h6 2.b3. Both engines use the book, one
    // up to move 1 (bookdepth=1), the other as far as it goes.
    write_book(
        &d.join("odd.bin"),
        &[&["a2a3"], &["a2a3", "h7h6"], &["a2a3", "h7h6", "b2b3"]],
    );
    for mode in ["ram", "disk"] {
        let pgn = format!("{mode}.pgn");
        let out = run_match(
            d,
            &argv(&[
                "-engine",
                &wily_cmd("uci"),
                "name=short",
                "bookdepth=1",
                "-engine",
                &wily_cmd("uci"),
                "name=long",
                "@-each book=odd.bin nodes=800 option.Hash=8 -games 2 -repeat -maxmoves 20",
                "-bookmode",
                mode,
                "-pgn",
                &pgn,
            ]),
        );
        let (stdout, stderr) = text(&out);
        assert!(out.status.success(), "{stdout}\n{stderr}");
        let g = games(&d.join(&pgn));
        assert_eq!(g.len(), 2);
        for game in &g {
            let m = &game.moves;
            let book = |i: usize| m[i].comment.as_deref() == Some("book");
            assert_eq!(
                (m[0].san.as_str(), m[1].san.as_str()),
                ("a3", "h6"),
                "{mode}"
            );
            assert!(book(0) && book(1), "{mode}");
            if game.tag("White") == Some("short") {
                // 2.b3 is in the book, but past short's bookdepth: it thinks.
                assert!(!book(2), "{mode}: {:?}", m[2]);
            } else {
                assert_eq!(m[2].san, "b3", "{mode}");
                assert!(book(2) && !book(3), "{mode}");
            }
        }
    }
    // A missing or broken book stops the match before it starts.
    std::fs::write(d.join("bad.bin"), b"not a book").unwrap();
    for book in ["book=missing.bin", "book=bad.bin"] {
        let out = run_match(
            d,
            &argv(&[
                "-engine",
                &wily_cmd("uci"),
                book,
                "-engine",
                &wily_cmd("uci"),
                "@-each nodes=100",
            ]),
        );
        assert!(!out.status.success(), "{book}");
    }
}

#[test]
fn pondering_engines_get_go_ponder_and_ponderhit() {
    let dir = scratch::dir("match-ponder");
    let d = dir.path();
    let (stdout, _) = run_one_vs_two(
        d,
        &[
            "@-each tc=10+0.1 nodes=3000 option.Hash=8 ponder -games 2 -repeat -maxmoves 30",
            "@-pgn g.pgn -log logs",
        ],
    );
    let g = games(&d.join("g.pgn"));
    assert_eq!(g.len(), 2);
    for game in &g {
        let t = game.tag("Termination").unwrap_or_default();
        assert!(["normal", "adjudication"].contains(&t), "{t}: {stdout}");
    }
    let mut logs = String::new();
    for e in std::fs::read_dir(d.join("logs")).unwrap() {
        logs.push_str(&std::fs::read_to_string(e.unwrap().path()).unwrap());
    }
    assert!(logs.contains("setoption name Ponder value true"), "{logs}");
    assert!(logs.contains("go ponder wtime "), "{logs}");
    assert!(logs.contains("ponderhit"), "{logs}");
}

/// Three engines, the first seeded: it has a bye, the other two meet. Every game is drawn
/// at move 6 (`-maxmoves`), so every pairing is tied after its tie-breaks and the better
/// seed goes on: the whole event is known in advance.
#[test]
fn a_knockout_with_a_seed_byes_and_tie_breaks() {
    let dir = scratch::dir("match-knockout");
    let d = dir.path();
    let out = run_match(
        d,
        &argv(&[
            "-engine",
            &wily_cmd("uci"),
            "name=a",
            "-engine",
            &wily_cmd("uci"),
            "name=b",
            "-engine",
            &wily_cmd("uci"),
            "name=c",
            "@-each nodes=200 option.Hash=8 -tournament knockout -seeds 1 -srand 3",
            "@-games 2 -repeat -maxmoves 6 -concurrency 2 -pgn k.pgn",
        ]),
    );
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("Knockout round 1:\n  a has a bye\n"),
        "{stdout}"
    );
    let tie = "11 - 11, ";
    let round1 = stdout
        .lines()
        .find(|l| l.starts_with("  b - c") || l.starts_with("  c - b"))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(
        round1.contains(tie) && round1.ends_with("(tied: the better seed)"),
        "{round1}"
    );
    let second = round1[2..3].to_string();
    let round2 =
        format!("Knockout round 2:\n  a - {second}: 11 - 11, a goes on (tied: the better seed)\n");
    assert!(stdout.contains(&round2), "{stdout}");
    assert!(stdout.contains("Knockout winner: a (44 games"), "{stdout}");
    let g = games(&d.join("k.pgn"));
    assert_eq!(g.len(), 44, "2 games and 10 tie-breaks of 2, twice");
    let mut rounds: Vec<usize> = g
        .iter()
        .map(|x| x.tag("Round").unwrap().parse().unwrap())
        .collect();
    rounds.sort();
    assert_eq!(
        rounds,
        (1..=44).collect::<Vec<_>>(),
        "numbered on across rounds"
    );
    assert!(g[..22].iter().all(|x| x.tag("White") != Some("a")));
    assert!(g[22..]
        .iter()
        .all(|x| x.tag("White") == Some("a") || x.tag("Black") == Some("a")));
}

#[test]
fn a_pyramid_plays_each_engine_against_those_before_it_in_turn() {
    let dir = scratch::dir("match-pyramid");
    let d = dir.path();
    let out = run_match(
        d,
        &argv(&[
            "-engine",
            &wily_cmd("uci"),
            "name=a",
            "-engine",
            &wily_cmd("uci"),
            "name=b",
            "-engine",
            &wily_cmd("uci"),
            "name=c",
            "@-each nodes=200 option.Hash=8 -tournament pyramid -games 2 -repeat",
            "@-maxmoves 6 -pgn p.pgn -use-affinity",
        ]),
    );
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let g = games(&d.join("p.pgn"));
    let players: Vec<(String, String)> = g
        .iter()
        .map(|x| {
            let mut p = [x.tag("White").unwrap(), x.tag("Black").unwrap()];
            p.sort();
            (p[0].to_string(), p[1].to_string())
        })
        .collect();
    let ab = ("a".to_string(), "b".to_string());
    let ac = ("a".to_string(), "c".to_string());
    let bc = ("b".to_string(), "c".to_string());
    assert_eq!(
        players,
        vec![ab.clone(), ab, ac.clone(), ac, bc.clone(), bc]
    );
    // -use-affinity: the summary names the cores of the one concurrent game.
    let line = stdout
        .lines()
        .find(|l| l.starts_with("CPU affinity: game 1: cores "))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(!line.contains("game 2"), "{line}");
}
