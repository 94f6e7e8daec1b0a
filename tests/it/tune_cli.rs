//! `wily tune` end to end: positions from a sample CSV (with bad lines, skipped and named),
//! from games in PGN and from a learning store (opened read-only, left unchanged); the
//! figures it prints; the weights file it writes (the format the engine compiles its
//! defaults from); clear errors for bad arguments. The masters PGN is used when the shared
//! data is there.

use crate::shared_data;

use crate::scratch;

use cozy_chess::{Board, Color, Move};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn wily(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wily"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run wily")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// A sample CSV of `n` positions from seeded random games, the result decided by material
/// (so that there is something to fit), plus a few bad lines.
fn sample_csv(n: usize) -> String {
    let mut rng = StdRng::seed_from_u64(11);
    let mut out = String::from("fen,score,result\n");
    let mut written = 0;
    while written < n {
        let mut b = Board::default();
        for _ in 0..rng.gen_range(8..90) {
            let mut moves: Vec<Move> = Vec::new();
            b.generate_moves(|ms| {
                moves.extend(ms);
                false
            });
            if moves.is_empty() {
                break;
            }
            b.play_unchecked(moves[rng.gen_range(0..moves.len())]);
        }
        let material = |c: Color| {
            [
                (cozy_chess::Piece::Pawn, 1),
                (cozy_chess::Piece::Knight, 3),
                (cozy_chess::Piece::Bishop, 3),
                (cozy_chess::Piece::Rook, 5),
                (cozy_chess::Piece::Queen, 9),
            ]
            .iter()
            .map(|&(p, v)| v * b.colored_pieces(c, p).len() as i32)
            .sum::<i32>()
        };
        let us = b.side_to_move();
        let edge = material(us) - material(!us);
        let result = if edge > 1 {
            "1"
        } else if edge < -1 {
            "0"
        } else {
            "0.5"
        };
        let score = if written % 3 == 0 {
            String::new()
        } else {
            (edge * 100).to_string()
        };
        out.push_str(&format!("{b},{score},{result}\n"));
        written += 1;
    }
    out.push_str("not a position,10,1\n");
    out.push_str("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1,10,2\n");
    out
}

#[test]
fn tune_fits_csv_samples_and_writes_the_weights_file() {
    let tmp = scratch::dir("tune-csv");
    let dir = tmp.path();
    std::fs::write(dir.join("samples.csv"), sample_csv(400)).expect("write csv");
    let out = wily(
        &[
            "tune",
            "--csv",
            "samples.csv",
            "--iterations",
            "30",
            "--report-every",
            "10",
            "--holdout",
            "0.2",
            "--out",
            "tuned.rs",
        ],
        dir,
    );
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(
        t.contains("samples samples.csv: 402 read, 2 skipped"),
        "{t}"
    );
    assert!(t.contains("line 402: bad FEN"), "{t}");
    assert!(t.contains("line 403: bad result '2'"), "{t}");
    assert!(t.contains("(100.000%), largest difference 0 cp"), "{t}");
    for needle in [
        "K = ",
        "error before: ",
        "held-out error before: ",
        "iteration 30: error ",
        "error after: ",
        "held-out error after: ",
        "30 iterations over ",
        "wrote tuned.rs",
    ] {
        assert!(t.contains(needle), "no '{needle}' in:\n{t}");
    }
    let error = |prefix: &str| -> f64 {
        let line = t.lines().find(|l| l.starts_with(prefix)).expect(prefix);
        line[prefix.len()..]
            .split_whitespace()
            .next()
            .and_then(|v| v.parse().ok())
            .expect("a number")
    };
    assert!(error("error after: ") < error("error before: "), "{t}");
    let written = std::fs::read_to_string(dir.join("tuned.rs")).expect("weights file");
    assert!(written.starts_with("//! The evaluation's default weights"));
    assert!(written.contains("//! Fitted by `wily tune` to "));
    assert!(written.contains("pub(super) const TUNED: EvalParams = EvalParams {"));
    assert!(written.contains("    piece_value: [s("));
    assert!(written.trim_end().ends_with("};"));
}

#[test]
fn tune_only_fits_the_named_fields() {
    let tmp = scratch::dir("tune-only");
    let dir = tmp.path();
    std::fs::write(dir.join("samples.csv"), sample_csv(400)).expect("write csv");
    let run = |only: &[&str], out: &str| {
        let mut args = vec!["tune", "--csv", "samples.csv", "--iterations", "40"];
        args.extend(["--rate", "8", "--prior", "0", "--out", out]);
        if !only.is_empty() {
            args.extend(["--only", only[0]]);
        }
        let o = wily(&args, dir);
        let t = text(&o);
        assert!(o.status.success(), "{t}");
        (
            t,
            std::fs::read_to_string(dir.join(out)).expect("weights file"),
        )
    };
    // The weights' lines (the header names the command, which differs).
    let weights = |file: &str| -> Vec<String> {
        file.lines()
            .filter(|l| !l.starts_with("//!"))
            .map(str::to_string)
            .collect()
    };
    let (_, all) = run(&[], "all.rs");
    let (t, only) = run(&["tempo,bishop_pair"], "only.rs");
    assert!(
        t.contains("of 4 fitted (--only: every other weight kept)"),
        "{t}"
    );
    // The header names the command (wrapped, so the words may sit on two lines).
    let header: Vec<&str> = only
        .lines()
        .filter_map(|l| l.strip_prefix("//!"))
        .flat_map(str::split_whitespace)
        .collect();
    assert!(
        header
            .windows(2)
            .any(|w| w == ["--only", "tempo,bishop_pair"]),
        "{only}"
    );
    let defaults = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("crates/engine/src/eval/tuned.rs"),
    )
    .expect("the shipped weights");
    let changed = |a: &str, b: &str| -> Vec<String> {
        weights(a)
            .into_iter()
            .zip(weights(b))
            .filter(|(x, y)| x != y)
            .map(|(x, _)| x.split(':').next().unwrap_or("").trim().to_string())
            .collect()
    };
    // A full fit moves many fields; the restricted one moves no field but the two named.
    assert!(changed(&defaults, &all).len() > 10, "{all}");
    let moved = changed(&defaults, &only);
    assert!(!moved.is_empty(), "{t}");
    assert!(
        moved.iter().all(|f| f == "tempo" || f == "bishop_pair"),
        "{moved:?}"
    );
    // A fitted square table keeps its mean change rather than pass it to the piece values.
    let (_, tables) = run(&["pst"], "pst.rs");
    let moved = changed(&defaults, &tables);
    assert!(!moved.is_empty(), "{tables}");
    assert!(!moved.iter().any(|f| f == "piece_value"), "{moved:?}");
}

#[test]
fn tune_reads_games_and_a_learning_store_without_changing_it() {
    let tmp = scratch::dir("tune-sources");
    let dir = tmp.path();
    let pgn = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/book_games.pgn");
    let store = dir.join("learn.db");
    let made = wily(
        &["learn", "stress-write", "--db", "learn.db", "--games", "3"],
        dir,
    );
    assert!(made.status.success(), "{}", text(&made));
    let bytes_before = std::fs::read(&store).expect("store");
    let out = wily(
        &[
            "tune",
            "--learn",
            "learn.db",
            "--pgn",
            pgn.to_str().expect("utf-8 path"),
            "--skip-plies",
            "0",
            "--sample-rate",
            "1",
            "--iterations",
            "5",
            "--dry-run",
        ],
        dir,
    );
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(
        t.contains("learning store learn.db: 120 read, 0 skipped"),
        "{t}"
    );
    // 14 games: one without a result, one with an illegal move (named).
    assert!(t.contains("book_games.pgn: 14 read, 2 skipped"), "{t}");
    assert!(t.contains("line 51: move 2... 'Nf3': illegal move"), "{t}");
    assert!(t.contains("nothing written"), "{t}");
    assert!(!dir.join("src").exists());
    assert_eq!(std::fs::read(&store).expect("store"), bytes_before);
}

#[test]
fn tune_refuses_bad_arguments_clearly() {
    let tmp = scratch::dir("tune-bad");
    let dir = tmp.path();
    let cases: [(&[&str], &str); 6] = [
        (&["tune"], "no positions: give --pgn, --csv or --learn"),
        (
            &["tune", "--csv", "missing.csv", "--dry-run"],
            "missing.csv",
        ),
        (
            &["tune", "--learn", "missing.db", "--dry-run"],
            "no learning store at missing.db",
        ),
        (
            &["tune", "--csv", "x.csv", "--sample-rate", "0", "--dry-run"],
            "--sample-rate must be in (0, 1]",
        ),
        (
            &["tune", "--csv", "x.csv"],
            "run from the repository root, or give --out or --dry-run",
        ),
        (
            &[
                "tune",
                "--csv",
                "x.csv",
                "--only",
                "tempo,kings_value",
                "--dry-run",
            ],
            "--only: no weight field is called `kings_value`",
        ),
    ];
    for (args, message) in cases {
        let out = wily(args, dir);
        let t = text(&out);
        assert!(!out.status.success(), "{args:?} succeeded: {t}");
        assert!(t.contains(message), "{args:?}: expected '{message}' in {t}");
    }
    // A file that is not a learning store is refused, not modified.
    std::fs::write(dir.join("other.db"), b"not a database at all").expect("write");
    let out = wily(&["tune", "--learn", "other.db", "--dry-run"], dir);
    assert!(!out.status.success());
    assert_eq!(
        std::fs::read(dir.join("other.db")).expect("file"),
        b"not a database at all"
    );
}

#[test]
fn tune_on_master_games_reproduces_the_evaluation_exactly() {
    let Some(shared) = shared_data::dir() else {
        return;
    };
    let tmp = scratch::dir("tune-masters");
    let pgn = shared.join("data/pgn/masters-2400.pgn");
    let out = wily(
        &[
            "tune",
            "--pgn",
            pgn.to_str().expect("utf-8 path"),
            "--positions",
            "3000",
            "--iterations",
            "3",
            "--dry-run",
        ],
        tmp.path(),
    );
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(t.contains("positions: 3,000 quiet"), "{t}");
    assert!(t.contains("(100.000%), largest difference 0 cp"), "{t}");
}
