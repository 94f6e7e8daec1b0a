//! The `wily tune` command: its arguments, and the run that reads the positions, fits K and
//! the weights, prints the figures and writes the new defaults.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::dataset::Dataset;
use super::model::Model;
use super::optimize::{center, descend, fit_k, ridge, rounded, targets, usage, Settings};
use super::render;
use super::sources::SourceStats;
use super::sources::{csv_positions, learn_positions, pgn_positions, GameSampling, Sample};
use engine::eval::layout::{fields, Role};
use engine::eval::EvalParams;

/// `wily tune` arguments.
#[derive(clap::Args, Debug, Clone)]
pub struct TuneArgs {
    /// Games to sample positions from (e.g. ../shared/data/pgn/masters-2400.pgn); repeatable.
    #[arg(long, value_name = "FILE")]
    pub pgn: Vec<PathBuf>,
    /// Training samples as `wily match -sample` writes them (CSV: c-chess-cli's
    /// `FEN,Eval,Result`, or wily's `fen,score,result` after that header); repeatable.
    #[arg(long, value_name = "FILE")]
    pub csv: Vec<PathBuf>,
    /// A learning store whose training samples to use (e.g. book/learn.db); repeatable.
    #[arg(long, value_name = "FILE")]
    pub learn: Vec<PathBuf>,
    /// Most positions used (samples and learning stores first, then games).
    #[arg(long, default_value_t = 1_000_000)]
    pub positions: usize,
    /// Chance that a game position is sampled.
    #[arg(long, default_value_t = 0.35)]
    pub sample_rate: f64,
    /// Plies skipped at the start of every game.
    #[arg(long, default_value_t = 16)]
    pub skip_plies: usize,
    /// Seed of the game sampling.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Passes of gradient descent (0: fit K and report the error only).
    #[arg(long, default_value_t = 300)]
    pub iterations: usize,
    /// Adam's step size (centipawns).
    #[arg(long, default_value_t = 2.0)]
    pub rate: f64,
    /// Share of a sample's search score in its target (0: the game result alone).
    #[arg(long, default_value_t = 0.0)]
    pub lambda: f64,
    /// Pull of every weight towards its current value, as strong as this many positions
    /// (keeps weights seen in few positions from fitting noise; 0: none).
    #[arg(long, default_value_t = 300.0)]
    pub prior: f64,
    /// Share of the positions (the last ones read) kept out of the fit to measure the
    /// error on positions it did not see.
    #[arg(long, default_value_t = 0.1)]
    pub holdout: f64,
    /// Threads.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Fit only these fields of the weights (comma-separated names, as in `tuned.rs`),
    /// leaving every other weight as it is: for new terms beside weights already proven
    /// in games.
    #[arg(long, value_delimiter = ',')]
    pub only: Vec<String>,
    /// Where to write the tuned weights: the engine compiles its defaults from this file.
    #[arg(long, default_value = "crates/engine/src/eval/tuned.rs")]
    pub out: PathBuf,
    /// Fit and report, but write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print the error every N passes.
    #[arg(long, default_value_t = 100)]
    pub report_every: usize,
}

/// Samples handed to the workers at a time.
const CHUNK: usize = 1 << 15;

/// Gathers samples into the set, a chunk at a time, up to the cap.
struct Collector<'a> {
    data: Dataset,
    pending: Vec<Sample>,
    cap: usize,
    params: &'a EvalParams,
    threads: usize,
}

impl Collector<'_> {
    fn flush(&mut self) {
        self.data.extend(&self.pending, self.params, self.threads);
        self.pending.clear();
    }

    /// Takes a sample; false once the set is full.
    fn take(&mut self, s: Sample) -> bool {
        self.pending.push(s);
        if self.pending.len() >= CHUNK {
            self.flush();
        }
        self.data.positions.len() < self.cap
    }
}

/// `n` with thousands separators.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The command that repeats the run `args` describes (every setting spelled out).
fn command_line(args: &TuneArgs) -> String {
    let mut words = vec!["wily tune".to_string()];
    for (flag, paths) in [
        ("--pgn", &args.pgn),
        ("--csv", &args.csv),
        ("--learn", &args.learn),
    ] {
        words.extend(paths.iter().map(|p| format!("{flag} {}", p.display())));
    }
    words.push(format!(
        "--positions {} --sample-rate {} --skip-plies {} --seed {} --iterations {} --rate {} \
         --lambda {} --prior {} --holdout {} --threads {}",
        args.positions,
        args.sample_rate,
        args.skip_plies,
        args.seed,
        args.iterations,
        args.rate,
        args.lambda,
        args.prior,
        args.holdout,
        args.threads
    ));
    if !args.only.is_empty() {
        words.push(format!("--only {}", args.only.join(",")));
    }
    words.join(" ")
}

/// `text` in lines of at most `width` characters (a longer word stands alone).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

fn check(args: &TuneArgs) -> Result<(), String> {
    if args.pgn.is_empty() && args.csv.is_empty() && args.learn.is_empty() {
        return Err("no positions: give --pgn, --csv or --learn".into());
    }
    if !(args.sample_rate > 0.0 && args.sample_rate <= 1.0) {
        return Err("--sample-rate must be in (0, 1]".into());
    }
    if !(0.0..=1.0).contains(&args.lambda) {
        return Err("--lambda must be in [0, 1]".into());
    }
    if !(0.0..0.9).contains(&args.holdout) {
        return Err("--holdout must be in [0, 0.9)".into());
    }
    let names: Vec<&str> = fields().iter().map(|f| f.name).collect();
    if let Some(bad) = args.only.iter().find(|n| !names.contains(&n.as_str())) {
        return Err(format!("--only: no weight field is called `{bad}`"));
    }
    if !(args.prior >= 0.0 && args.prior.is_finite()) {
        return Err("--prior must be 0 or more".into());
    }
    if !(args.rate > 0.0 && args.rate.is_finite()) {
        return Err("--rate must be positive".into());
    }
    if args.positions == 0 || !(1..=256).contains(&args.threads) {
        return Err("--positions must be positive and --threads 1..=256".into());
    }
    if !args.dry_run {
        let dir = args.out.parent().filter(|d| !d.as_os_str().is_empty());
        if dir.is_some_and(|d| !d.is_dir()) {
            return Err(format!(
                "no folder for {} (run from the repository root, or give --out or --dry-run)",
                args.out.display()
            ));
        }
    }
    Ok(())
}

/// Prints what a source gave.
fn report_source(
    out: &mut impl Write,
    kind: &str,
    path: &Path,
    stats: &SourceStats,
) -> std::io::Result<()> {
    writeln!(
        out,
        "{kind} {}: {} read, {} skipped, {} positions offered",
        path.display(),
        thousands(stats.records),
        thousands(stats.skipped),
        thousands(stats.positions)
    )?;
    for p in &stats.problems {
        writeln!(out, "  skipped: {p}")?;
    }
    Ok(())
}

/// Reads every source into the set (at most `args.positions` positions).
fn gather(args: &TuneArgs, params: &EvalParams, out: &mut impl Write) -> Result<Dataset, String> {
    let io = |e: std::io::Error| e.to_string();
    let mut c = Collector {
        data: Dataset::default(),
        pending: Vec::new(),
        cap: args.positions,
        params,
        threads: args.threads,
    };
    for path in &args.csv {
        let stats = csv_positions(path, |s| c.take(s))?;
        report_source(out, "samples", path, &stats).map_err(io)?;
    }
    for path in &args.learn {
        let stats = learn_positions(path, |s| c.take(s))?;
        report_source(out, "learning store", path, &stats).map_err(io)?;
    }
    let sampling = GameSampling {
        skip_plies: args.skip_plies,
        rate: args.sample_rate,
        seed: args.seed,
    };
    for path in &args.pgn {
        if c.data.positions.len() + c.pending.len() >= c.cap {
            break;
        }
        let stats = pgn_positions(path, &sampling, |s| c.take(s))?;
        report_source(out, "games", path, &stats).map_err(io)?;
    }
    c.flush();
    c.data.truncate(args.positions);
    Ok(c.data)
}

/// Runs `wily tune`, printing to `out`.
pub fn run_tune(args: &TuneArgs, out: &mut impl Write) -> Result<(), String> {
    check(args)?;
    let io = |e: std::io::Error| e.to_string();
    let start = Instant::now();
    let base = EvalParams::default();
    let data = gather(args, &base, out)?;
    let n = data.positions.len();
    if n == 0 {
        return Err("no usable positions in the sources".into());
    }
    let checked = data.exact + data.mismatched;
    writeln!(
        out,
        "positions: {} quiet ({} offered, {} not used: in check, no quiet resolution, dead \
         draws); {:.0} MB",
        thousands(n as u64),
        thousands(data.offered),
        thousands(data.rejected),
        data.bytes() as f64 / 1e6
    )
    .map_err(io)?;
    writeln!(
        out,
        "coefficients reproduce the evaluation exactly for {} of {} positions ({:.3}%), \
         largest difference {} cp",
        thousands(data.exact),
        thousands(checked),
        100.0 * data.exact as f64 / checked.max(1) as f64,
        data.max_mismatch
    )
    .map_err(io)?;
    let gathered = start.elapsed();
    writeln!(out, "positions read in {:.1} s", gathered.as_secs_f64()).map_err(io)?;

    let model = Model::new(&base);
    let th0: Vec<f64> = base.to_flat().into_iter().map(f64::from).collect();
    let cut = n - (n as f64 * args.holdout) as usize;
    let (train, held) = data.positions.split_at(cut);
    let k = fit_k(&model, &data, train, &th0, args.lambda);
    let (t_train, t_held) = (
        targets(train, k, args.lambda),
        targets(held, k, args.lambda),
    );
    let error = |positions, targets, th: &[f64]| {
        model
            .error(&data, positions, targets, th, k, args.threads, false)
            .0
    };
    let before = error(train, &t_train, &th0);
    writeln!(out, "K = {k:.4}").map_err(io)?;
    writeln!(out, "error before: {before:.7}").map_err(io)?;
    let held_before = error(held, &t_held, &th0);
    if !held.is_empty() {
        writeln!(
            out,
            "held-out error before: {held_before:.7} ({} positions)",
            thousands(held.len() as u64)
        )
        .map_err(io)?;
    }

    let settings = Settings {
        iterations: args.iterations,
        rate: args.rate,
        prior: args.prior,
        threads: args.threads,
        only: only_mask(&args.only),
    };
    let ridge = ridge(&model, &data, train, &th0, k, settings.prior);
    let fit_start = Instant::now();
    let mut th = th0.clone();
    let every = args.report_every.max(1);
    let mut progress_error = None;
    descend(
        &model,
        &data,
        train,
        &t_train,
        k,
        ridge,
        &mut th,
        &settings,
        |i, e| {
            if i.is_multiple_of(every) {
                progress_error = writeln!(out, "iteration {i}: error {e:.7}").err();
            }
        },
    );
    if let Some(e) = progress_error {
        return Err(e.to_string());
    }
    let fitting = fit_start.elapsed();
    let fitted = error(train, &t_train, &th);
    // Centring moves a table's mean change into the piece's value, a weight `--only` may
    // have kept: with `--only` the fitted tables keep their means instead.
    if args.only.is_empty() {
        center(&base, &usage(&data, train, th.len()), &mut th);
    }
    let tuned = rounded(&base, model.roles(), &th);
    let th_rounded: Vec<f64> = tuned.to_flat().into_iter().map(f64::from).collect();
    let after = error(train, &t_train, &th_rounded);
    writeln!(
        out,
        "error after: {after:.7} (rounded weights; {fitted:.7} before rounding)"
    )
    .map_err(io)?;
    let held_after = error(held, &t_held, &th_rounded);
    if !held.is_empty() {
        writeln!(out, "held-out error after: {held_after:.7}").map_err(io)?;
    }
    let tunable = model
        .roles()
        .iter()
        .zip(&settings.only)
        .filter(|(r, fit)| **r != Role::Fixed && **fit)
        .count();
    let changed = base
        .to_flat()
        .iter()
        .zip(tuned.to_flat())
        .filter(|(a, b)| **a != *b)
        .count();
    let kept = if args.only.is_empty() {
        "fixed: king_danger_divisor, king_danger_max, pawnless_margin and the percentage knobs"
    } else {
        "--only: every other weight kept"
    };
    writeln!(
        out,
        "{changed} weights changed of {tunable} fitted ({kept})"
    )
    .map_err(io)?;
    writeln!(
        out,
        "{} iterations over {} positions on {} threads: tuning {:.1} s ({:.3} s a pass), \
         total {:.1} s",
        args.iterations,
        thousands(train.len() as u64),
        args.threads,
        fitting.as_secs_f64(),
        fitting.as_secs_f64() / args.iterations.max(1) as f64,
        start.elapsed().as_secs_f64()
    )
    .map_err(io)?;
    if args.dry_run || args.iterations == 0 {
        writeln!(out, "nothing written").map_err(io)?;
        return Ok(());
    }
    let held_note = if held.is_empty() {
        String::new()
    } else {
        format!(
            " (on {} held-out positions {held_before:.7} -> {held_after:.7})",
            thousands(held.len() as u64)
        )
    };
    let summary = format!(
        "Fitted by `wily tune` to {} quiet positions, K = {k:.4}: mean squared error \
         {before:.7} -> {after:.7}{held_note} after {} passes. Command: {}",
        thousands(train.len() as u64),
        args.iterations,
        command_line(args)
    );
    let provenance = wrap(&summary, 88);
    render::write(&args.out, &tuned, &provenance)?;
    writeln!(out, "wrote {}", args.out.display()).map_err(io)?;
    Ok(())
}

/// Which flat weights `--only` leaves free: all of them when no field is named.
fn only_mask(only: &[String]) -> Vec<bool> {
    fields()
        .iter()
        .flat_map(|f| {
            std::iter::repeat_n(only.is_empty() || only.iter().any(|n| n == f.name), f.len)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_keeps_every_word() {
        let text = "one two three four five six seven";
        let lines = wrap(text, 9);
        assert_eq!(lines, ["one two", "three", "four five", "six seven"]);
        assert_eq!(wrap("a-very-long-word x", 4), ["a-very-long-word", "x"]);
        assert!(wrap("", 10).is_empty());
    }

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
