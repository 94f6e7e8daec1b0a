//! c-chess-cli compatibility of the command line: its options, with its defaults and
//! meanings, as its README states them (tests only; the behaviour behind them is tested
//! where it lives and in `tests/it/match_ccc.rs`).

use crate::cli::parse;
use crate::openings::Order;
use std::path::PathBuf;
use std::time::Duration;

fn args(s: &str) -> Vec<String> {
    shlex::split(s).unwrap()
}

const TWO: &str = "-engine cmd=a nodes=1 -engine cmd=b nodes=1";

fn with(extra: &str) -> crate::settings::MatchSettings {
    parse(&args(&format!("{TWO} {extra}"))).unwrap()
}

#[test]
fn defaults_as_the_readme_gives_them() {
    let s = with("");
    // games 1, rounds 1, concurrency 1, round robin, no repeat.
    assert_eq!(
        (s.games, s.rounds, s.concurrency, s.repeat),
        (1, 1, 1, false)
    );
    // -draw: number defaults to 0; -resign: number 0 and the loser's score alone.
    let s = with("-draw count=8 score=10 -resign count=3 score=700");
    let d = s.rules.draw.unwrap();
    assert_eq!((d.number, d.count, d.score), (0, 8, 10));
    let r = s.rules.resign.unwrap();
    assert_eq!((r.number, r.count, r.score, r.both), (0, 3, 700, false));
    let r = with("-resign number=20 count=3 score=700 both=on")
        .rules
        .resign
        .unwrap();
    assert_eq!((r.number, r.both), (20, true));
    // -sprt: elo0=0 elo1=4 alpha=beta=0.05.
    let sp = with("-sprt").sprt.unwrap();
    assert_eq!(
        (sp.elo0, sp.elo1, sp.alpha, sp.beta),
        (0.0, 4.0, 0.05, 0.05)
    );
    // timeout=4 s; wily's own waitlimit=30 s for start-up and moves without a clock.
    let e = &s.engines[0];
    assert_eq!(e.timeout, Duration::from_secs(4));
    assert_eq!(e.wait_limit, Duration::from_secs(30));
    let s = with("-each timeout=2.5 waitlimit=60");
    assert_eq!(s.engines[1].timeout, Duration::from_millis(2500));
    assert_eq!(s.engines[1].wait_limit, Duration::from_secs(60));
}

#[test]
fn pgn_verbosity_levels() {
    assert_eq!(with("-pgn out.pgn").pgn.unwrap().verbosity, 3);
    for v in 0..=3u8 {
        let p = with(&format!("-pgn out.pgn {v}")).pgn.unwrap();
        assert_eq!((p.path, p.verbosity), (PathBuf::from("out.pgn"), v));
    }
    assert!(parse(&args(&format!("{TWO} -pgn out.pgn 4"))).is_err());
}

#[test]
fn log_takes_no_value() {
    assert_eq!(with("-log").log_dir, Some(PathBuf::from(".")));
    assert_eq!(with("-log logs").log_dir, Some(PathBuf::from("logs")));
}

#[test]
fn sample_takes_every_readme_key() {
    let s = with("-sample freq=0.25 decay=0.1 resolve=y file=out.csv format=csv").sample;
    let s = s.unwrap();
    assert_eq!((s.freq, s.decay, s.resolve), (0.25, 0.1, true));
    assert_eq!(s.path, PathBuf::from("out.csv"));
    let s = with("-sample format=bin").sample.unwrap();
    assert_eq!(s.path, PathBuf::from("sample.bin"));
    assert_eq!(
        with("-sample").sample.unwrap().path,
        PathBuf::from("sample.csv")
    );
}

#[test]
fn cmd_with_a_slash_runs_in_the_programs_folder() {
    let s = parse(&args(
        "-engine cmd=../Engines/critter_1.6a depth=11 -engine cmd=demolito nodes=10 \
         -engine 'cmd=../fooEngine -foo=1' depth=1 -engine cmd=/opt/e/x dir=/tmp depth=1",
    ))
    .unwrap();
    let l = &s.engines[0].launch;
    assert_eq!(l.program, "./critter_1.6a");
    assert_eq!(l.dir, Some(PathBuf::from("../Engines")));
    let l = &s.engines[1].launch;
    assert_eq!((l.program.as_str(), l.dir.clone()), ("demolito", None));
    let l = &s.engines[2].launch;
    assert_eq!(l.program, "./fooEngine");
    assert_eq!(l.args, ["-foo=1"]);
    assert_eq!(l.dir, Some(PathBuf::from("..")));
    // wily's dir= says where, and the command stays as written.
    let l = &s.engines[3].launch;
    assert_eq!(l.program, "/opt/e/x");
    assert_eq!(l.dir, Some(PathBuf::from("/tmp")));
}

#[test]
fn the_name_comes_from_the_engine_unless_given() {
    let s = parse(&args(
        "-engine cmd=a name=first nodes=1 -engine cmd=b nodes=1",
    ))
    .unwrap();
    assert!(s.engines[0].name_given);
    assert_eq!(s.engines[0].name, "first");
    assert!(
        !s.engines[1].name_given,
        "b is named by its id name when the match starts"
    );
}

#[test]
fn random_order_without_srand_is_unpredictable() {
    let seed = |extra: &str| {
        let o = with(&format!("-openings file=o.epd {extra}"))
            .openings
            .unwrap();
        (o.seed, o.drawn)
    };
    assert_eq!(seed(""), (0, false), "sequential by default");
    assert_eq!(seed("order=random srand=5"), (5, false));
    let (a, drawn) = seed("order=random");
    assert!(drawn && a != 0);
    let b = (0..100)
        .map(|_| {
            std::thread::sleep(Duration::from_millis(1));
            seed("order=random srand=0").0
        })
        .find(|&b| b != a);
    assert!(b.is_some(), "two runs draw different seeds");
    // The seed a run drew, given back (the resume file does this).
    assert_eq!(seed("order=random -autoseed 77"), (77, false));
    let o = with("-openings file=o.epd order=random").openings.unwrap();
    assert_eq!(o.order, Order::Random);
}

/// The README's example, with its engines and files replaced.
#[test]
fn the_readme_example_is_accepted() {
    let s = parse(&args(
        "-each tc=4+0.04 option.Hash=8 option.Threads=1 \
         -engine cmd=demolito \"option.Time Buffer=80\" nodes=200000 \
         -engine cmd=../Engines/critter_1.6a depth=11 \
         -games 1920 -concurrency 8 -openings file=test/chess960.epd order=random -repeat \
         -sprt elo0=1 elo1=5 -resign count=3 score=700 -draw number=40 count=8 score=10 -pgn out.pgn 2",
    ))
    .unwrap();
    assert_eq!((s.games, s.concurrency, s.repeat), (1920, 8, true));
    let a = &s.engines[0];
    assert_eq!(a.limits.to_string(), "4+0.04 nodes=200000");
    assert!(a
        .options
        .contains(&("Time Buffer".to_string(), "80".to_string())));
    assert!(a.options.contains(&("Hash".to_string(), "8".to_string())));
    let sp = s.sprt.unwrap();
    assert_eq!((sp.elo0, sp.elo1), (1.0, 5.0));
    assert_eq!(s.pgn.unwrap().verbosity, 2);
    assert_eq!(s.rules.draw.unwrap().number, 40);
}
