//! Test-suite files through both front ends, the console's `test FILE [N]` and
//! `wily test FILE`: Crafty's format (every position run, anti-solutions, the early-exit
//! counter) and EPD, with a clear line for every broken entry.

use crate::console_child;
use console_child::{temp_dir, Wily};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// The example of Crafty's documentation: two Win At Chess positions in Crafty's format.
const WAC_CRAFTY: &str = "title wac299
setboard 1n2rr2/1pk3pp/pNn2p2/2N1p3/8/6P1/PP2PPKP/2RR4 w
solution Nca4

title wac300
setboard b2b1r1k/3R1ppp/4qP2/4p1PQ/4P3/5B2/4N1K1/8 w
solution g6

end
";

/// A mate in one with White to move (Rd8#), for anti-solution and broken-file checks.
const BACK_RANK: &str = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w";

fn wily_test(dir: &Path, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_wily"))
        .arg("test")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run wily test");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "wily test failed: {text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

/// At the console in `dir`: `depth` (an `sd` command), then `test` (a `test` command on
/// the two-position `wac.txt`), which must solve both positions.
fn console_solves_both(dir: &Path, depth: &str, test: &str) {
    let mut w = Wily::spawn(&[], dir);
    w.send(depth);
    w.send(test);
    w.expect("wac299: solved Nca4", 120);
    w.expect("wac300: solved g6", 120);
    w.expect("solved 2/2", 30);
    w.send("quit");
    assert!(w.wait_exit(10));
}

#[test]
fn crafty_example_solves_both_positions_at_the_console() {
    let tmp = temp_dir("suite-console");
    let dir = tmp.path();
    std::fs::write(dir.join("wac.txt"), WAC_CRAFTY).unwrap();
    console_solves_both(dir, "sd 14", "test wac.txt");
}

#[test]
fn crafty_example_solves_both_positions_with_wily_test() {
    let tmp = temp_dir("suite-cli");
    let dir = tmp.path();
    std::fs::write(dir.join("wac.txt"), WAC_CRAFTY).unwrap();
    let out = wily_test(dir, &["wac.txt", "--depth", "14"]);
    assert!(out.contains("wac299") && out.contains("wac300"), "{out}");
    assert!(out.contains("solved 2/2"), "{out}");
    assert!(!out.contains("unreadable"), "{out}");
}

#[test]
fn early_exit_counter_ends_each_position() {
    // Depth 60 would run for hours: only the early exit can finish this in time.
    let tmp = temp_dir("suite-early");
    let dir = tmp.path();
    std::fs::write(dir.join("wac.txt"), WAC_CRAFTY).unwrap();
    let started = Instant::now();
    let out = wily_test(dir, &["wac.txt", "--depth", "60", "--early", "2"]);
    assert!(out.contains("solved 2/2"), "{out}");
    assert!(started.elapsed() < Duration::from_secs(120), "{out}");

    console_solves_both(dir, "sd 60", "test wac.txt 2");
}

#[test]
fn anti_solutions_count_against_the_move() {
    let tmp = temp_dir("suite-anti");
    let dir = tmp.path();
    // The engine plays the mate Rd8#: an anti-solution of it fails, one of another move
    // passes.
    std::fs::write(
        dir.join("anti.txt"),
        format!(
            "title avoid-the-mate\nsetboard {BACK_RANK}\nsolution Rd8?\n\
             title avoid-a-king-move\nsetboard {BACK_RANK}\nsolution Kf1?\nend\n"
        ),
    )
    .unwrap();
    let out = wily_test(dir, &["anti.txt", "--depth", "6"]);
    let line = |t: &str| {
        out.lines()
            .find(|l| l.contains(t))
            .unwrap_or("")
            .to_string()
    };
    assert!(line("avoid-the-mate").contains("MISS"), "{out}");
    assert!(line("avoid-a-king-move").contains("ok"), "{out}");
    assert!(out.contains("solved 1/2"), "{out}");

    let mut w = Wily::spawn(&[], dir);
    w.send("sd 6");
    w.send("test anti.txt");
    w.expect("avoid-the-mate: not solved Rd8", 60);
    w.expect("avoid-a-king-move: solved Rd8", 60);
    w.expect("solved 1/2", 30);
    w.send("quit");
    assert!(w.wait_exit(10));
}

#[test]
fn broken_entries_are_named_and_the_rest_runs() {
    let tmp = temp_dir("suite-broken");
    let dir = tmp.path();
    let text = format!(
        "title good-crafty\nsetboard {BACK_RANK}\nsolution Rd8\n\
         title bad-fen\nsetboard 9/8/8 w\nsolution e4\n\
         title bad-move\nsetboard {BACK_RANK}\nsolution Qh7\n\
         solution Rd8\n\
         this is not a position\n\
         {BACK_RANK} - - bm Rd8#; id \"good-epd\";\n\
         {BACK_RANK} - - bm Zz9; id \"bad-epd\";\n\
         \u{0}\u{7f}\u{ff}garbage\n"
    );
    std::fs::write(dir.join("broken.txt"), text).unwrap();
    let out = wily_test(dir, &["broken.txt", "--depth", "4"]);
    for n in [5, 9, 10, 11, 13, 14] {
        assert!(
            out.contains(&format!("line {n}:")),
            "no error for line {n}:\n{out}"
        );
    }
    assert!(out.contains("solved 2/2"), "{out}");
    assert!(out.contains("6 unreadable entries skipped"), "{out}");

    let mut w = Wily::spawn(&[], dir);
    w.send("sd 4");
    w.send("test broken.txt");
    w.expect("line 5: setboard:", 30);
    w.expect("line 9: solution Qh7", 30);
    w.expect("good-crafty: solved Rd8", 60);
    w.expect("good-epd: solved Rd8", 60);
    w.expect("solved 2/2", 30);
    // A file of nothing but garbage is an error, not a crash.
    std::fs::write(dir.join("junk.txt"), [0xffu8, 0, 1, 2, b'\n'].repeat(50)).unwrap();
    w.send("test junk.txt");
    w.expect("no positions to test", 30);
    w.send("echo still-here");
    w.expect("still-here", 10);
    w.send("quit");
    assert!(w.wait_exit(10));
}
