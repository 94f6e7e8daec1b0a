//! `annotate`, `annotateh` and `annotatet` through the real binary: a short game with an inserted
//! blunder gets a comment with the better line, in the main line, in a variation the game
//! gives and in a variation inside that one.

use crate::console_child;
use console_child::{temp_dir, Wily};

/// Légal's mate: 5...Bxd1?? allows mate in two; the variation 2... Qh4?? loses the queen,
/// and inside it, after 3. Nc3 instead of 3. Nxh4, so does 3... Qxe4??.
const GAME: &str = r#"[Event "Blunder test"]
[Site "?"]
[Date "2024.01.01"]
[Round "1"]
[White "Legal"]
[Black "Saint Brie"]
[Result "1-0"]

1. e4 e5 2. Nf3 d6 (2... Qh4 3. Nxh4 (3. Nc3 Qxe4 4. Nxe4)) 3. Bc4 Bg4 4. Nc3 g6 5. Nxe5 Bxd1 6. Bxf7+ Ke7 7. Nd5# 1-0
"#;

#[test]
fn annotate_comments_the_blunder() {
    let tmp = temp_dir("console-annotate");
    let dir = tmp.path();
    std::fs::write(dir.join("legal.pgn"), GAME).unwrap();
    let mut w = Wily::spawn(&[], dir);
    w.send("annotate legal.pgn b 1-999 1.0 0.3");
    w.expect("annotating game 1: Legal - Saint Brie", 30);
    w.expect("annotated 1 games", 120);
    w.send("annotateh legal.pgn Brie 5 1.0 0.3 2");
    w.expect("annotated 1 games", 120);
    w.send("annotatet legal.pgn Brie 1-999 1.0 0.3");
    w.expect("into legal.tex", 120);
    w.send("annotate legal.pgn b 9-1 1 1");
    w.expect("not a move range", 10);
    w.send("annotate missing.pgn b 1-9 1 1");
    w.expect("missing.pgn", 10);
    w.send("quit");
    assert!(w.wait_exit(10));

    let can = std::fs::read_to_string(dir.join("legal.can")).expect("legal.can");
    assert!(can.contains("[Annotator \"wily"), "{can}");
    // The blunder carries a NAG, a comment and the better line as a variation.
    let flat = can.replace('\n', " ");
    let at = flat.find("Bxd1").expect("the blunder is in the movetext");
    let after = &flat[at..];
    assert!(after.starts_with("Bxd1 $4 {played "), "{can}");
    assert!(after.contains("(5..."), "{can}");
    // The game's own variation is analysed too: its blunder gets a NAG and a comment, and
    // so does the one in the variation nested inside it, written back in place.
    assert!(flat.contains("(2... Qh4 $4 {played "), "{can}");
    assert!(flat.contains(" 3. Nxh4 (3. Nc3 Qxe4+ $4 {played "), "{can}");
    assert!(flat.contains(" 4. Nxe4)) 3. Bc4 "), "{can}");
    let html = std::fs::read_to_string(dir.join("legal.html")).expect("legal.html");
    assert!(html.contains("Bxd1??"), "{html}");
    // annotateh: a board diagram where the analysis is.
    assert!(html.contains("<table class=\"board\""), "{html}");
    // annotatet: a LaTeX document with the blunder in bold and a skak diagram.
    let tex = std::fs::read_to_string(dir.join("legal.tex")).expect("legal.tex");
    assert!(tex.starts_with("\\documentclass"), "{tex}");
    assert!(tex.contains("\\textbf{Bxd1??}"), "{tex}");
    assert!(tex.contains("(3.~Nc3 \\textbf{Qxe4+??}"), "{tex}");
    assert!(tex.contains("\\fenboard{"), "{tex}");
    assert!(tex.trim_end().ends_with("\\end{document}"), "{tex}");
}
