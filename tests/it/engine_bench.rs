//! `wily bench` from the command line: its node count (the search's signature) is the same
//! from run to run, its last line has the shape other tools read, and `--against` compares
//! the speed of two binaries (here the binary with itself) or says clearly why it cannot.

use std::process::{Command, Output};

use crate::scratch;

fn wily(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wily"))
        .args(args)
        .output()
        .expect("wily runs")
}

/// The `<nodes>` and `<nps>` of a bench's last line.
fn last_line(out: &Output) -> (u64, u64) {
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().last().expect("a last line");
    let f: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(f.len(), 4, "{last}");
    assert_eq!((f[1], f[3]), ("nodes", "nps"), "{last}");
    (f[0].parse().expect("nodes"), f[2].parse().expect("nps"))
}

#[test]
fn bench_node_count_is_a_signature() {
    let a = wily(&["bench", "--depth", "5"]);
    let b = wily(&["bench", "--depth", "5"]);
    assert!(a.status.success() && b.status.success());
    let text = String::from_utf8_lossy(&a.stdout);
    // One line per position, then the totals.
    assert!(text.lines().any(|l| l.starts_with("48/48 ")), "{text}");
    let (na, nps) = last_line(&a);
    assert!(na > 1000 && nps > 0, "{text}");
    assert_eq!(na, last_line(&b).0, "the same node count every run");
    // A deeper bench searches more.
    let c = wily(&["bench", "--depth", "6"]);
    assert!(last_line(&c).0 > na);
}

#[test]
fn bench_against_itself_reports_pairs_and_a_ratio() {
    let exe = env!("CARGO_BIN_EXE_wily");
    let out = wily(&["bench", "--depth", "4", "--against", exe, "--pairs", "3"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for i in 1..=3 {
        assert!(
            text.lines()
                .any(|l| l.starts_with(&format!("pair {i:>3}/3: this "))),
            "{text}"
        );
    }
    // Both sides are this binary: the same signature, the plain bench's.
    let plain = last_line(&wily(&["bench", "--depth", "4"])).0;
    let signature = format!(" nps, {plain} nodes");
    assert!(
        text.lines()
            .any(|l| l.starts_with("this build: median ") && l.ends_with(&signature)),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with("other: median ") && l.ends_with(&signature)),
        "{text}"
    );
    let summary = text
        .lines()
        .find(|l| l.starts_with("this build / other: "))
        .expect("a summary line");
    // `<ratio> times the node rate (95% <low>-<high>, 3 pairs)`, low <= ratio <= high.
    let nums: Vec<f64> = summary
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .filter_map(|t| t.parse().ok())
        .collect();
    assert!(summary.ends_with(", 3 pairs)"), "{summary}");
    let (ratio, low, high) = (nums[0], nums[2], nums[3]);
    assert!(low <= ratio && ratio <= high && low > 0.0, "{summary}");
}

#[test]
fn bench_against_says_why_it_cannot_compare() {
    let missing = wily(&[
        "bench",
        "--depth",
        "1",
        "--against",
        "/nonexistent/wily",
        "--pairs",
        "2",
    ]);
    assert!(!missing.status.success());
    let err = String::from_utf8_lossy(&missing.stderr);
    assert!(err.contains("cannot run /nonexistent/wily"), "{err}");

    let too_few = wily(&[
        "bench",
        "--against",
        env!("CARGO_BIN_EXE_wily"),
        "--pairs",
        "1",
    ]);
    assert!(!too_few.status.success());
    assert!(String::from_utf8_lossy(&too_few.stderr).contains("at least 2"));

    // --pairs means nothing without --against.
    assert!(!wily(&["bench", "--pairs", "3"]).status.success());

    // A program that runs but is not wily (prints nothing, exits 0).
    #[cfg(unix)]
    if std::path::Path::new("/bin/true").exists() {
        let not_wily = wily(&["bench", "--depth", "1", "--against", "/bin/true"]);
        assert!(!not_wily.status.success());
        let err = String::from_utf8_lossy(&not_wily.stderr);
        assert!(err.contains("is it a wily binary"), "{err}");
    }
}

#[cfg(unix)]
#[test]
fn bench_against_stops_a_hung_binary() {
    use std::os::unix::fs::PermissionsExt;
    // A program that never finishes its bench: the comparison stops it after --run-limit
    // and says so, instead of waiting for it for good.
    let dir = scratch::dir("hung-bench");
    let script = dir.path().join("hung-wily");
    std::fs::write(&script, "#!/bin/sh\nexec sleep 60\n").unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let start = std::time::Instant::now();
    let hung = wily(&[
        "bench",
        "--depth",
        "1",
        "--against",
        script.to_str().unwrap(),
        "--pairs",
        "2",
        "--run-limit",
        "1",
    ]);
    let took = start.elapsed();
    assert!(!hung.status.success());
    let err = String::from_utf8_lossy(&hung.stderr);
    assert!(err.contains("did not finish within 1 s"), "{err}");
    assert!(
        took.as_secs() < 30,
        "the hung child was not stopped: {took:?}"
    );

    // A limit of 0 would stop every run at once: refused.
    assert!(
        !wily(&["bench", "--against", "/bin/true", "--run-limit", "0"])
            .status
            .success()
    );
    // --run-limit means nothing without --against.
    assert!(!wily(&["bench", "--run-limit", "5"]).status.success());
}
