//! `wily match`: the match runner and its statistics. Engines (UCI or xboard) play
//! games under the runner's own clocks, concurrently, from opening files, with
//! adjudication and fault handling; results become a PGN, training samples, Elo with
//! error bars, LOS, pentanomial counts and an SPRT.
//!
//! Declared in `lib.rs` as `pub mod r#match;` (`match` is a keyword), so paths read
//! `wily::r#match::...`.
//!
//! Layout, each depending only on those above it:
//! - [`timecontrol`], [`stats`], [`sprt`], [`schedule`]: pure data and formulas;
//! - [`outcome`], [`config`], [`openings`], [`adjudicate`], [`syzygy`], [`settings`]: what a
//!   match is made of;
//! - [`engine`]: engine processes and the two protocols;
//! - [`game`]: one game; [`report`], [`pgnout`], [`sample`], [`progress`]: outputs;
//! - [`runner`]: the whole match; [`args`], [`cli`]: the command line and the TOML match
//!   file;
//! - [`spsa`]: `wily spsa`, which tunes engine options by playing many short matches.
//!
//! May import: `chess`, `engine`, `book`, `learn`, `datadir`, `protocol`, `tools`. The
//! layer table is in `docs/modules.md`; `tests/module_layers.rs` checks it.

pub mod adjudicate;
pub mod args;
pub mod cli;
pub mod config;
pub mod engine;
pub mod game;
pub mod openings;
pub mod outcome;
pub mod pgnout;
pub mod progress;
pub mod report;
pub mod runner;
pub mod sample;
pub mod schedule;
pub mod settings;
mod signal;
pub mod sprt;
pub mod spsa;
pub mod stats;
pub mod syzygy;
pub mod timecontrol;

/// The summary printed at the end of a match.
pub fn summary_text(settings: &settings::MatchSettings, s: &runner::Summary) -> String {
    let mut out = String::new();
    let how = if s.interrupted {
        "stopped by Ctrl-C".to_string()
    } else if let Some(d) = s.decision {
        format!(
            "SPRT finished: {}",
            match d {
                sprt::Decision::H0 => "H0 accepted (the change is not better by elo1)",
                sprt::Decision::H1 => "H1 accepted (the change is better by elo1)",
            }
        )
    } else {
        "finished".to_string()
    };
    let secs = s.wall.as_secs_f64();
    out.push_str(&format!(
        "Match {how}: {} of {} games in {:.1} s ({:.2} games/s)\n",
        s.games,
        s.scheduled,
        secs,
        s.games as f64 / secs.max(1e-9)
    ));
    out.push_str(&s.standings.full_report());
    if let (Some(sp), Some(llr)) = (settings.sprt, s.llr) {
        let (lo, hi) = sp.bounds();
        out.push_str(&format!(
            "SPRT: LLR {llr:.2} [{lo:.2}, {hi:.2}], {} Elo [{}, {}], alpha {} beta {}\n",
            match sp.model {
                sprt::EloModel::Logistic => "logistic",
                sprt::EloModel::Normalized => "normalized",
            },
            sp.elo0,
            sp.elo1,
            sp.alpha,
            sp.beta
        ));
    }
    if s.samples > 0 {
        out.push_str(&format!("Training samples written: {}\n", s.samples));
    }
    out.push_str(&format!("{}\n", s.overhead));
    let moves = s.overhead.moves.max(1) as f64;
    out.push_str(&format!(
        "runner CPU: {:.2} s ({:.0} µs per engine move, engines not included)\n",
        s.cpu.as_secs_f64(),
        s.cpu.as_secs_f64() * 1e6 / moves
    ));
    out
}

/// The `wily match` command: reads the match from `args`, plays it and prints the
/// summary (`-help` prints the option list).
pub fn run_cli(args: &[String]) -> Result<(), String> {
    if args.is_empty()
        || args
            .iter()
            .any(|a| ["-h", "-help", "--help"].contains(&a.as_str()))
    {
        print!("{}", cli::HELP);
        return Ok(());
    }
    let settings = cli::parse(args)?;
    let summary = runner::run(&settings)?;
    print!("{}", summary_text(&settings, &summary));
    Ok(())
}
