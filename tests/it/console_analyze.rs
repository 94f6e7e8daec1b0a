//! `analyze` through the real binary: analysis output, moves entered while analysing,
//! `back`, `.` and `exit`.

use crate::console_child;
use console_child::{temp_dir, Wily};

#[test]
fn analyze_moves_back_and_exit() {
    let tmp = temp_dir("console-analyze");
    let dir = tmp.path();
    let mut w = Wily::spawn(&[], dir);
    w.send("analyze");
    w.expect("depth     time       score   variation", 10);
    w.expect("3->", 20);
    w.send("e4");
    // After the move the analysis restarts for Black.
    w.expect("1. ... ", 20);
    w.send(".");
    w.expect("1. ... ", 10);
    w.send("back");
    w.expect_fn("analysis of White's move again", 20, |l| {
        l.contains("->") && l.contains(" 1. ") && !l.contains("...")
    });
    w.send("d4");
    w.send("d5");
    w.send("back 2");
    w.expect_fn("analysis from the start", 20, |l| {
        l.contains("->") && l.contains(" 1. ") && !l.contains("...")
    });
    w.send("back 5");
    w.expect("back: only 0 moves could be taken back", 10);
    w.send("exit");
    w.expect("analysis ended", 10);
    w.send("history");
    w.send("echo still-here");
    w.expect("still-here", 10);
    w.send("quit");
    assert!(w.wait_exit(10));
}
