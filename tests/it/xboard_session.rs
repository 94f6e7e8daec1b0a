//! The xboard protocol through the real binary: features, strict ping ordering, usermove,
//! setboard, undo/remove, draw offers, results, analysis, pondering, and garbage input.

use crate::console_child;
use console_child::Wily;

fn start(tag: &str, args: &[&str]) -> Wily {
    let mut w = Wily::spawn_in_scratch(args, tag);
    w.send("xboard");
    w.send("protover 2");
    w.expect("feature done=1", 10);
    w
}

/// Sends `ping n` and returns every line up to its `pong n`.
fn sync(w: &mut Wily, n: u32) -> Vec<String> {
    let start = w.transcript.len();
    w.send(&format!("ping {n}"));
    w.expect(&format!("pong {n}"), 30);
    w.transcript[start..]
        .iter()
        .filter(|l| !l.starts_with(">>>"))
        .cloned()
        .collect()
}

#[test]
fn features_ping_usermove_setboard_and_result() {
    let mut w = start("xb-basic", &["xboard"]);
    let lines = w.transcript.join("\n");
    for f in [
        "ping=1",
        "setboard=1",
        "usermove=1",
        "analyze=1",
        "myname=\"wily",
        "done=1",
    ] {
        assert!(lines.contains(f), "feature {f} missing");
    }
    assert!(lines.contains("feature option=\"Hash (MB) -spin"));
    w.send("new");
    w.send("force");
    w.send("usermove e2e4");
    w.send("usermove e2e9");
    // Strict ordering: the answer to the bad move comes before the pong.
    let before = sync(&mut w, 1);
    assert!(
        before.iter().any(|l| l == "Illegal move: e2e9"),
        "{before:?}"
    );
    w.send("setboard 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    w.send("sd 4");
    w.send("go");
    w.expect("move d1d8", 20);
    w.expect("1-0 {White mates}", 10);
    sync(&mut w, 2);
    w.send("quit");
    assert!(w.wait_exit(10));
}

#[test]
fn undo_remove_and_play_on() {
    let mut w = start("xb-undo", &["xboard"]);
    w.send("new");
    w.send("force");
    for m in ["e2e4", "e7e5", "g1f3"] {
        w.send(&format!("usermove {m}"));
    }
    w.send("undo");
    w.send("usermove g1f3");
    w.send("remove");
    w.send("usermove e7e5");
    w.send("usermove g1f3");
    w.send("usermove b8c6");
    let lines = sync(&mut w, 3);
    assert!(!lines.iter().any(|l| l.contains("Illegal")), "{lines:?}");
    // The engine now plays White from move 3.
    w.send("st 0.2");
    w.send("go");
    let mv = w.expect_fn("the engine's move", 20, |l| l.starts_with("move "));
    assert_eq!(mv.len(), "move f1b5".len(), "{mv}");
    sync(&mut w, 4);
    w.send("quit");
    assert!(w.wait_exit(10));
}

#[test]
fn draw_offer_accepted_when_worse_and_result() {
    let mut w = start("xb-draw", &["xboard"]);
    w.send("new");
    w.send("option Resign threshold (pawns)=0");
    w.send("setboard 4k3/8/8/8/8/8/3QQ3/4K3 b - - 0 1");
    w.send("sd 3");
    w.send("go");
    w.expect_fn("black's move", 20, |l| l.starts_with("move e8"));
    w.send("draw");
    let lines = sync(&mut w, 5);
    assert!(lines.iter().any(|l| l == "offer draw"), "{lines:?}");
    w.send("result 1/2-1/2 {Draw agreed}");
    sync(&mut w, 6);
    // A better-off engine declines silently. (`new` clears the depth limit, so set it
    // again; the king stands off the queens' lines so the position is legal.)
    w.send("new");
    w.send("setboard k7/8/8/8/8/8/3QQ3/4K3 w - - 0 1");
    w.send("sd 3");
    let lines = sync(&mut w, 16);
    assert!(!lines.iter().any(|l| l.starts_with("Error")), "{lines:?}");
    w.send("go");
    w.expect_fn("white's move", 20, |l| l.starts_with("move "));
    w.send("draw");
    let lines = sync(&mut w, 7);
    assert!(!lines.iter().any(|l| l == "offer draw"), "{lines:?}");
    w.send("quit");
    assert!(w.wait_exit(10));
}

#[test]
fn garbage_lines_get_errors_and_the_session_goes_on() {
    let mut w = start("xb-garbage", &["xboard"]);
    w.send("frobnicate now");
    w.send("level x y z");
    w.send("sd -3");
    w.send("usermove");
    w.send_bytes(b"\x00\xff\xfe\n");
    w.send(&"y".repeat(10 * 1024));
    w.send("setboard 9/9/9 w - - 0 1");
    w.send("");
    let lines = sync(&mut w, 8);
    let errors = lines.iter().filter(|l| l.starts_with("Error (")).count();
    assert!(errors >= 6, "{lines:?}");
    for l in &lines {
        if l.starts_with("Error (") {
            // One pair of parentheses, as interfaces parse it.
            let inner = &l[7..l.find("):").expect("Error (...): form")];
            assert!(!inner.contains('(') && !inner.contains(')'), "{l}");
        }
    }
    w.send("new");
    w.send("sd 2");
    w.send("usermove e2e4");
    w.expect_fn("a reply", 20, |l| l.starts_with("move "));
    w.send("quit");
    assert!(w.wait_exit(10));
}

#[test]
fn analyze_mode_and_pondering() {
    let mut w = start("xb-analyze", &["xboard"]);
    w.send("new");
    w.send("post");
    w.send("analyze");
    w.expect_fn("a thinking line", 20, |l| {
        l.split_whitespace().count() >= 5 && l.starts_with(|c: char| c.is_ascii_digit())
    });
    w.send(".");
    w.expect("stat01:", 10);
    w.send("usermove e2e4");
    w.send("undo");
    w.send("exit");
    sync(&mut w, 9);
    // Pondering: play the move the engine expects and it answers from the ponder search.
    w.send("nopost");
    w.send("hard");
    w.send("st 0.3");
    w.send("usermove d2d4");
    w.expect_fn("the engine's move", 20, |l| l.starts_with("move "));
    w.send("hint");
    let hint = w.expect("Hint: ", 10);
    let predicted = hint.trim_start_matches("Hint: ").to_string();
    w.send(&format!("usermove {predicted}"));
    w.expect_fn("the answer after a ponder hit", 20, |l| {
        l.starts_with("move ")
    });
    w.send("easy");
    sync(&mut w, 10);
    w.send("quit");
    assert!(w.wait_exit(10));
}

#[test]
fn xboard_typed_at_the_console_and_clock_play() {
    let mut w = start("xb-console", &[]);
    w.send("new");
    w.send("level 40 0:10 0");
    w.send("time 1000");
    w.send("otim 1000");
    w.send("usermove e2e4");
    let t = std::time::Instant::now();
    w.expect_fn("a move", 20, |l| l.starts_with("move "));
    assert!(
        t.elapsed().as_secs_f64() < 5.0,
        "used too much of a 10 s clock"
    );
    sync(&mut w, 11);
    w.send("quit");
    assert!(w.wait_exit(10));
}

#[test]
fn ics_mode_whispers_kibitzes_and_server_commands() {
    let mut w = start("xb-ics", &["xboard"]);
    w.send("new");
    w.send("ics freechess.org");
    w.send("name someone");
    // These searches are short: below the default noise (100000 nodes, Crafty's) nothing
    // would be said.
    w.send("noise 0");
    w.send("kibitz 3");
    w.send("sd 4");
    w.send("usermove e2e4");
    w.expect_fn("the engine's move", 20, |l| l.starts_with("move "));
    let k = w.expect("tellall ", 10);
    assert!(k.contains(" d") && k.contains("pv: 1. ..."), "{k}");
    w.send("kibitz 0");
    w.send("whisper 1");
    w.send("usermove d2d4");
    w.expect_fn("the engine's move", 20, |l| l.starts_with("move "));
    // Level 1 whispers only mate announcements: nothing here.
    let lines = sync(&mut w, 12);
    assert!(
        !lines
            .iter()
            .any(|l| l.starts_with("tellothers") || l.starts_with("tellall")),
        "{lines:?}"
    );
    w.send("whisper 2");
    w.send("usermove g1f3");
    w.expect("tellothers d", 20);
    w.send("result 1-0 {Black resigns}");
    w.expect("tellics say", 10);
    sync(&mut w, 13);
    w.send("quit");
    assert!(w.wait_exit(10));
}
