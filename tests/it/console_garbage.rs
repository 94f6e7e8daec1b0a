//! Hostile input at the console never stops it: every bad line gets a message and the
//! session goes on.

use crate::console_child;
use console_child::{temp_dir, Wily};

#[test]
fn garbage_lines_are_answered() {
    let tmp = temp_dir("console-garbage");
    let dir = tmp.path();
    let mut w = Wily::spawn(&[], dir);
    w.send("");
    w.send("12345");
    w.expect("unknown command or move: '12345'", 10);
    let long = "x".repeat(10 * 1024);
    w.send(&long);
    w.expect("input line too long", 10);
    w.send_bytes(b"\x00\xff\xfe\x07\n");
    w.expect("unknown command or move", 10);
    w.send("e5");
    w.expect("Illegal move: e5", 10);
    w.send("Qh5");
    w.expect("Illegal move: Qh5", 10);
    w.send("sd banana");
    w.expect("sd: 'banana' is not a whole number", 10);
    w.send("hash=lots");
    w.expect("is not a size", 10);
    w.send("level 40");
    w.expect("usage: level", 10);
    w.send("back");
    w.expect("no moves to take back", 10);
    w.send("exit");
    w.expect("not in analyze mode", 10);
    w.send("setboard not/a/fen");
    w.expect("setboard:", 10);
    w.send("read /nonexistent/file.pgn");
    w.expect("/nonexistent/file.pgn", 10);
    w.send("test /nonexistent/suite.epd");
    w.expect("suite.epd", 10);
    w.send("help nosuchcommand");
    w.expect("no command 'nosuchcommand'", 10);
    w.send("book create x.pgn 10");
    w.expect("cannot open x.pgn", 10);
    w.send("show nothing");
    w.expect("usage: show book", 10);
    w.send("echo alive");
    w.expect("alive", 10);
    // A move still works after all that.
    w.send("force");
    w.send("e4");
    w.send("history");
    w.expect("1. e4", 10);
    w.send("quit");
    assert!(w.wait_exit(10));
}

#[test]
fn help_lists_every_command() {
    let tmp = temp_dir("console-help");
    let dir = tmp.path();
    let mut w = Wily::spawn(&[], dir);
    w.send("help");
    w.send("echo end-of-help");
    let start = w.transcript.len();
    w.expect("end-of-help", 10);
    let text = w.transcript[start..].join("\n");
    for c in [
        "annotate", "analyze", "settc", "smpmt", "xboard", "whisper", "perft",
    ] {
        assert!(text.contains(&format!("\n{c} ")), "help misses {c}");
    }
    w.send("help level");
    w.expect("level MOVES MINUTES INC", 10);
    w.send("quit");
    assert!(w.wait_exit(10));
}
