//! The `wily book`, `wily books` and `wily learn` command lines, through the real binary.

use crate::scratch;

use std::path::Path;
use std::process::Command;

fn wily(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_wily"))
        .args(args)
        .output()
        .expect("run wily");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn create_show_info_and_errors() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // Every `wily` run below has exited (Command::output waits) before this guard drops.
    let tmp = scratch::dir("book-cli");
    let dir = tmp.path();
    let pgn = root.join("tests/fixtures/book_games.pgn");
    let out = dir.join("b.wbk");
    let (ok, stdout, stderr) = wily(&[
        "book",
        "create",
        pgn.to_str().expect("utf8"),
        "20",
        "1",
        "0",
        "-o",
        out.to_str().expect("utf8"),
    ]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("from 10 games"), "{stdout}");
    assert!(
        stdout.contains("1 FEN/SetUp, 1 variant, 1 illegal move, 1 no result"),
        "{stdout}"
    );

    let small = dir.join("s.wbk");
    let small_pgn = root.join("tests/fixtures/book_small.pgn");
    let (ok, _, stderr) = wily(&[
        "books",
        "create",
        small_pgn.to_str().expect("utf8"),
        "20",
        "-o",
        small.to_str().expect("utf8"),
    ]);
    assert!(ok, "{stderr}");

    let (ok, stdout, stderr) = wily(&[
        "book",
        "show",
        "--book",
        out.to_str().expect("utf8"),
        "--small",
        small.to_str().expect("utf8"),
        "--moves",
        "e4",
    ]);
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains("c5") && stdout.contains("not !"),
        "{stdout}"
    );

    // A damaged book: non-zero exit, the file named, the way out given.
    let bad = dir.join("bad.wbk");
    std::fs::write(&bad, b"WILYBOOK but then nothing useful").expect("write");
    let (ok, _, stderr) = wily(&["book", "info", "--book", bad.to_str().expect("utf8")]);
    assert!(!ok);
    assert!(
        stderr.contains("bad.wbk") && stderr.contains("wily book create"),
        "{stderr}"
    );

    // Bad arguments are refused by the argument parser, not a panic.
    let (ok, _, stderr) = wily(&["book", "create", pgn.to_str().expect("utf8"), "many"]);
    assert!(!ok && !stderr.contains("panicked"), "{stderr}");

    // learn: reading commands never create a store; import does.
    let db = dir.join("l.db");
    let (ok, _, stderr) = wily(&["learn", "status", "--db", db.to_str().expect("utf8")]);
    assert!(!ok && stderr.contains("no learning store"), "{stderr}");
    assert!(!db.exists());
    let lrn = dir.join("position.lrn");
    std::fs::write(
        &lrn,
        "position rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\nmove c5\nvalue 35\ndepth 9\n",
    )
    .expect("write");
    let (ok, stdout, stderr) = wily(&[
        "learn",
        "import",
        lrn.to_str().expect("utf8"),
        "--db",
        db.to_str().expect("utf8"),
    ]);
    assert!(ok && stdout.contains("1 positions"), "{stdout}{stderr}");
    let (ok, stdout, stderr) = wily(&["learn", "status", "--db", db.to_str().expect("utf8")]);
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains("learn 7") && stdout.contains("1 positions"),
        "{stdout}"
    );
    let (ok, stdout, _) = wily(&["learn", "check", "--db", db.to_str().expect("utf8")]);
    assert!(ok && stdout.contains(": ok"), "{stdout}");
    let garbage = dir.join("g.db");
    std::fs::write(&garbage, vec![7u8; 5000]).expect("write");
    let (ok, _, stderr) = wily(&["learn", "status", "--db", garbage.to_str().expect("utf8")]);
    assert!(
        !ok && stderr.contains("g.db") && stderr.contains("move it aside"),
        "{stderr}"
    );
}
