//! `wily spsa` end to end: wily tunes two of its search constants against itself for a few
//! iterations at a tiny node count, writes its log, refuses to overwrite it, and resumes
//! from it after a kill cut its last line.

use std::process::Command;

fn wily() -> &'static str {
    env!("CARGO_BIN_EXE_wily")
}

fn spsa(dir: &std::path::Path, extra: &[&str]) -> std::process::Output {
    let engine = format!("cmd={} uci --full", wily());
    let mut args = vec![
        "spsa",
        "-engine",
        &engine,
        "-each",
        "nodes=300",
        "option.Hash=1",
        "-param",
        "rfp_margin=100,40,200,8",
        "-param",
        "lmr_div=225,120,400,15",
        "-pairs",
        "1",
        "-r",
        "0.05",
        "-out",
        "log.csv",
    ];
    args.extend_from_slice(extra);
    Command::new(wily())
        .args(&args)
        .current_dir(dir)
        .output()
        .expect("wily runs")
}

#[test]
fn spsa_runs_logs_every_iteration_and_resumes_after_a_cut_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = spsa(dir.path(), &["-iterations", "3"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("rfp_margin ") && stdout.contains("lmr_div "),
        "{stdout}"
    );
    // `uci --full` lists the tunables, so the runner has nothing to warn about.
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stdout.contains("does not list") && !stderr.contains("does not list"),
        "{stdout}{stderr}"
    );
    let log = dir.path().join("log.csv");
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "iteration,wins,draws,losses,rfp_margin,lmr_div");
    assert_eq!(lines.len(), 4, "{text}");
    for (k, l) in lines[1..].iter().enumerate() {
        let f: Vec<&str> = l.split(',').collect();
        assert_eq!(f[0], k.to_string());
        let games: u32 = f[1..4].iter().map(|v| v.parse::<u32>().unwrap()).sum();
        assert_eq!(games, 2, "{l}");
        let rfp: f64 = f[4].parse().unwrap();
        assert!((40.0..=200.0).contains(&rfp));
    }
    // A second run into the same log is refused.
    let again = spsa(dir.path(), &["-iterations", "3"]);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("-resume"));
    // A kill in the middle of a line: resume goes on after the last complete one.
    std::fs::write(&log, format!("{text}3,1,0")).unwrap();
    let resumed = spsa(dir.path(), &["-iterations", "5", "-resume"]);
    assert!(
        resumed.status.success(),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 7, "{text}");
    assert_eq!(lines[4], "3,1,0");
    assert!(
        lines[5].starts_with("3,") && lines[6].starts_with("4,"),
        "{text}"
    );
    assert_eq!(lines[6].split(',').count(), 6);
}
