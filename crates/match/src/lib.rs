//! `wily match`: the match runner and its statistics. Engines (UCI or xboard) play
//! games under the runner's own clocks, concurrently, from opening files, with
//! adjudication and fault handling; results become a PGN, training samples, Elo with
//! error bars, LOS, pentanomial counts and an SPRT.
//!
//! The crate is `wily-match` (paths read `wily_match::...`; `match` itself is a keyword).
//!
//! Layout, each depending only on those above it:
//! - [`timecontrol`], [`stats`], [`sprt`], [`schedule`]: pure data and formulas;
//! - [`outcome`], [`config`], [`openings`], [`adjudicate`], [`syzygy`], [`settings`]: what a
//!   match is made of;
//! - [`engine`]: engine processes and the two protocols; [`affinity`]: pinning them to
//!   cores;
//! - [`game`]: one game; [`report`], [`pgnout`], [`sample`], [`progress`]: outputs;
//! - [`runner`]: the whole match; [`knockout`]: a knockout, round by round through the
//!   runner; [`args`], [`draft`], [`cli`]: the command line (c-chess-cli's options and
//!   meanings, with wily's own beside them) and the TOML match file; [`names`]: engines
//!   named by their `id name`;
//! - [`spsa`]: `wily spsa`, which tunes engine options by playing many short matches.
//!
//! May depend on: `chess`, `engine`, `book`, `learn`, `datadir`, `uci`, `protocol`, `tools`. Its
//! `Cargo.toml` lists them and the compiler keeps the wall; the crate map is
//! `docs/modules.md`.

pub mod adjudicate;
pub mod affinity;
pub mod args;
pub mod cli;
#[cfg(test)]
mod cli_ccc_tests;
pub mod compliance;
pub mod config;
pub mod draft;
pub mod engine;
pub mod game;
pub mod knockout;
pub mod names;
pub mod openings;
pub mod outcome;
pub mod pgnout;
pub mod progress;
pub mod report;
pub mod resume;
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
    if s.resumed > 0 {
        out.push_str(&format!(
            "Resumed: {} games were played before this run\n",
            s.resumed
        ));
    }
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
    if let Some(a) = &s.affinity {
        out.push_str(&format!("{a}\n"));
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

/// The settings of `wily match ARGS`: with `-resume FILE` the saved state is read and
/// checked, the match's options come from it (or, when others than `-quiet` are given,
/// from them) and the state goes on being saved to FILE.
fn settings_with_resume(args: &[String]) -> Result<settings::MatchSettings, String> {
    let mut resume_file = None;
    let mut rest = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if ["-resume", "--resume"].contains(&a.as_str()) {
            let f = it.next().ok_or("-resume needs the resume file")?;
            if resume_file.replace(std::path::PathBuf::from(f)).is_some() {
                return Err("-resume is given once".into());
            }
        } else {
            rest.push(a.clone());
        }
    }
    let Some(file) = resume_file else {
        let mut s = cli::parse(args)?;
        s.command_line = args.to_vec();
        // A seed drawn from the clock is saved with the match so that it resumes alike.
        if let Some(o) = s.openings.as_ref().filter(|o| o.drawn) {
            s.command_line
                .extend(["-autoseed".to_string(), o.seed.to_string()]);
        }
        return Ok(s);
    };
    let state = resume::State::load(&file)?;
    let quiet = |a: &String| ["-quiet", "--quiet", "-noprogress"].contains(&a.as_str());
    let own: Vec<String> = rest.iter().filter(|a| !quiet(a)).cloned().collect();
    // Options that change how the rest is run, not what is played (`-concurrency N`,
    // `-ratinginterval N`, `-wait MS`): given alone with `-resume`, they go on top of the
    // saved ones, so a match moved to a machine with more cores keeps its schedule.
    let run_only = own.chunks(2).all(|pair| {
        pair.len() == 2 && ["-concurrency", "-ratinginterval", "-wait"].contains(&pair[0].as_str())
    });
    let mut s = if own.is_empty() || run_only {
        // The saved options, read from the folder the match was started in.
        let cwd = std::env::current_dir().unwrap_or_default();
        if cwd != state.cwd {
            std::env::set_current_dir(&state.cwd).map_err(|e| {
                format!(
                    "the match was started in {}, which cannot be entered: {e}",
                    state.cwd.display()
                )
            })?;
            eprintln!("resume: working in {}", state.cwd.display());
        }
        let mut words = state.args.clone();
        words.extend(rest.iter().filter(|a| quiet(a)).cloned());
        words.extend(own.iter().cloned());
        let mut s = cli::parse(&words)?;
        s.command_line = state.args.clone();
        s.command_line.extend(own.iter().cloned());
        s
    } else {
        let mut s = cli::parse(&rest)?;
        s.command_line = rest.clone();
        s
    };
    if s.autosave.is_none() {
        s.autosave = Some(resume::AutosaveSpec {
            path: file.clone(),
            interval: 10,
        });
    }
    s.resume = Some(state);
    Ok(s)
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
    if args
        .iter()
        .any(|a| ["-version", "--version"].contains(&a.as_str()))
    {
        println!("wily {}", env!("CARGO_PKG_VERSION"));
        return Ok(());
    }
    if matches!(args[0].as_str(), "-compliance" | "--compliance") {
        return compliance::run_cli(&args[1..]);
    }
    let mut settings = settings_with_resume(args)?;
    names::from_engines(&mut settings);
    if settings.tournament == config::Tournament::Knockout {
        print!("{}", knockout::run(&settings)?);
        return Ok(());
    }
    let summary = runner::run(&settings)?;
    print!("{}", summary_text(&settings, &summary));
    Ok(())
}
