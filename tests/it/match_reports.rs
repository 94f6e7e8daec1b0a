//! `wily match` reports with wily itself as the engines: the standings every N games
//! (`-ratinginterval`), the cutechess-cli style `Score of` / `Elo difference` lines that
//! agree with the PGN, and `-epdout` writing each game's final position.

use crate::match_support;
use crate::scratch;

use match_support::{games, run_one_vs_two};

#[test]
fn rating_interval_cutechess_lines_and_final_positions() {
    let dir = scratch::dir("match-reports");
    let d = dir.path();
    let (stdout, _) = run_one_vs_two(
        d,
        &[
            "@-each nodes=1500 option.Hash=8 -games 6 -repeat -concurrency 2",
            "@-ratinginterval 2 -pgn g.pgn -epdout final.epd -maxmoves 60",
        ],
    );
    for n in [2, 4, 6] {
        assert!(
            stdout.contains(&format!("Standings after {n} of 6 games:\none vs two:\n")),
            "{stdout}"
        );
    }
    let g = games(&d.join("g.pgn"));
    assert_eq!(g.len(), 6);
    let (mut w, mut l, mut dr) = (0, 0, 0);
    for game in &g {
        let one_white = game.tag("White") == Some("one");
        match (game.result.as_str(), one_white) {
            ("1/2-1/2", _) => dr += 1,
            ("1-0", true) | ("0-1", false) => w += 1,
            _ => l += 1,
        }
    }
    let score = (w as f64 + dr as f64 / 2.0) / 6.0;
    let line = format!("Score of one vs two: {w} - {l} - {dr}  [{score:.3}] 6\n");
    assert!(stdout.contains(&line), "want {line:?} in {stdout}");
    assert!(stdout.contains("Elo difference: "), "{stdout}");
    assert!(
        stdout.contains(", LOS: ") && stdout.contains(" %, DrawRatio: "),
        "{stdout}"
    );
    // The EPD: one line per game, each the final position of a PGN game.
    let epd = std::fs::read_to_string(d.join("final.epd")).unwrap();
    let mut finals: Vec<String> = g
        .iter()
        .map(|game| {
            let fen = game.replay().expect("legal").fen();
            fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ")
        })
        .collect();
    let mut written: Vec<String> = epd
        .lines()
        .map(|l| {
            assert!(l.contains(" hmvc ") && l.contains("; c0 \""), "{l}");
            l.split_whitespace().take(4).collect::<Vec<_>>().join(" ")
        })
        .collect();
    finals.sort();
    written.sort();
    assert_eq!(written, finals);
}

#[test]
fn pgn_extras_and_colour_options() {
    let dir = scratch::dir("match-extras");
    let d = dir.path();
    run_one_vs_two(
        d,
        &[
            "@-each tc=20+0.2 depth=4 option.Hash=8 -games 2 -repeat -noswap -reverse -wait 50",
            "@-maxmoves 20 -pgn g.pgn nodes=on seldepth=on nps=on timeleft=on latency=on",
        ],
    );
    let g = games(&d.join("g.pgn"));
    assert_eq!(g.len(), 2);
    for game in &g {
        assert_eq!(game.tag("White"), Some("two"), "-reverse -noswap");
        let comments: Vec<&str> = game
            .moves
            .iter()
            .filter_map(|m| m.comment.as_deref())
            .collect();
        assert!(comments.len() >= 20, "{comments:?}");
        let c = comments[0];
        for key in [" n=", " sd=", " nps=", " tl=", " lat="] {
            assert!(c.contains(key), "{key} in {c}");
        }
        assert!(!c.contains(" hf="), "not asked for: {c}");
    }
}
