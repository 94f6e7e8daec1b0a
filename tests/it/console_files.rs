//! Files around the console: the startup command file, `--resume`, `savegame`/`read`,
//! `log off`, and command files read with `input`.

use crate::console_child;
use console_child::{temp_dir, Wily};

#[test]
fn startup_file_runs_before_the_prompt() {
    let tmp = temp_dir("console-rc");
    let dir = tmp.path();
    std::fs::write(dir.join(".wilyrc"), "echo from-the-rc-file\nsd 2\n").unwrap();
    let mut w = Wily::spawn(&[], dir);
    w.expect("from-the-rc-file", 10);
    w.send("info");
    w.expect("search depth limit: 2", 10);
    w.send("quit");
    assert!(w.wait_exit(10));

    std::fs::write(dir.join("other.rc"), "echo other-rc\n").unwrap();
    let mut w = Wily::spawn(&["--rc", "other.rc"], dir);
    w.expect("other-rc", 10);
    w.send("quit");
    assert!(w.wait_exit(10));
}

#[test]
fn resume_reloads_the_last_game() {
    let tmp = temp_dir("console-resume");
    let dir = tmp.path();
    let mut w = Wily::spawn(&[], dir);
    w.send("force");
    for m in ["e4", "c5", "Nf3", "d6"] {
        w.send(m);
    }
    w.send("quit");
    assert!(w.wait_exit(10));
    assert!(dir.join("logs/game.001").exists());

    let mut w = Wily::spawn(&["--resume"], dir);
    w.expect("resumed", 10);
    w.send("history");
    w.expect("2. Nf3", 10);
    w.send("quit");
    assert!(w.wait_exit(10));
    // The resumed game keeps its number.
    assert!(!dir.join("logs/game.002").exists());
}

#[test]
fn savegame_read_log_off_and_input() {
    let tmp = temp_dir("console-savegame");
    let dir = tmp.path();
    std::fs::write(
        dir.join("cmds.txt"),
        "pgn Event Test match\necho input-file-ran\n",
    )
    .unwrap();
    let mut w = Wily::spawn(&[], dir);
    w.send("log off");
    w.send("force");
    w.send("d4");
    w.send("Nf6");
    w.send("input cmds.txt");
    w.expect("input-file-ran", 10);
    w.send("savegame out.pgn");
    w.expect("game saved", 10);
    w.send("new");
    w.send("read out.pgn");
    w.expect("read 2 moves", 10);
    w.send("tags");
    w.expect("[Event \"Test match\"]", 10);
    w.send("quit");
    assert!(w.wait_exit(10));
    let pgn = std::fs::read_to_string(dir.join("out.pgn")).unwrap();
    assert!(pgn.contains("1. d4 Nf6"), "{pgn}");
    assert!(
        !dir.join("logs").exists(),
        "log off must write no game files"
    );
}
