//! `wily spsa`: tunes an engine's integer options by simultaneous perturbation stochastic
//! approximation. Each iteration plays a few game pairs between two copies of one engine,
//! every parameter nudged up in one copy and down in the other (the direction of each drawn
//! at random), and moves all parameters together by the result. The schedule is the usual
//! one: the perturbation shrinks as `c / k^0.101`, the step as `a / (A + k)^0.602`, both set
//! from each parameter's perturbation at the end of the run (`c_end`) and one learning rate
//! (`r_end`, the step at the end in units of `c_end` squared). Every iteration is appended to
//! a log file and flushed, so a killed run loses at most the iteration in progress and
//! `-resume` goes on from the last line.

use super::args::{group_args, Group};
use super::cli::settings_from_groups;
use super::runner;
use super::settings::MatchSettings;
use engine::tunables::TUNABLES;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::io::Write;
use std::path::PathBuf;

/// The help text of `wily spsa`.
pub const HELP: &str = "\
wily spsa: tune integer engine options by SPSA self-play

  wily spsa -engine cmd=\"./wily uci --full\" -each nodes=10000 option.Hash=16 \\
            -openings file=OPENINGS.epd order=random -concurrency 2 \\
            -params wily -iterations 2000 -pairs 2 -out spsa.csv

  -engine ...            the one engine to tune (played against itself), as in `wily match`
  -param NAME=V,MIN,MAX,C  a UCI spin option: start value, range and its perturbation at
                         the end of the run (repeatable)
  -params wily           every search constant of wily (`wily spsa -list`), from its
                         default, with its own range and step (`wily uci --full` lists
                         them as UCI options, so the runner sees every one it sets)
  -iterations N          iterations (default 1000)
  -pairs K               game pairs an iteration (default 2; colours reversed in a pair)
  -r R                   learning rate at the end, r_end (default 0.002)
  -out FILE              append every iteration here (default spsa.csv)
  -resume                go on from the last line of FILE
  -list                  print wily's tunables as -param lines and stop
  Also every `wily match` option that shapes the games: -each, -openings, -concurrency,
  -resign, -draw, -maxmoves, -variant, -srand, -log. An opening file is read in order,
  K openings an iteration, so iterations see different positions.
";

/// One tuned parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: String,
    pub value: f64,
    pub min: f64,
    pub max: f64,
    /// Perturbation at the last iteration.
    pub c_end: f64,
}

/// The whole run.
#[derive(Clone, Debug)]
pub struct SpsaSpec {
    pub params: Vec<Param>,
    pub iterations: u32,
    pub pairs: u32,
    pub r_end: f64,
    pub out: PathBuf,
    pub resume: bool,
    pub seed: u64,
}

const ALPHA: f64 = 0.602;
const GAMMA: f64 = 0.101;

impl SpsaSpec {
    /// The stability constant A: a tenth of the run.
    fn big_a(&self) -> f64 {
        f64::from(self.iterations) / 10.0
    }

    /// Perturbation of parameter `i` at iteration `k` (0-based).
    pub fn c_k(&self, i: usize, k: u32) -> f64 {
        let n = f64::from(self.iterations.max(1));
        self.params[i].c_end * n.powf(GAMMA) / f64::from(k + 1).powf(GAMMA)
    }

    /// Step size of parameter `i` at iteration `k` (0-based).
    pub fn a_k(&self, i: usize, k: u32) -> f64 {
        let n = f64::from(self.iterations.max(1));
        let c = self.params[i].c_end;
        let a_end = self.r_end * c * c;
        a_end * (self.big_a() + n).powf(ALPHA) / (self.big_a() + f64::from(k + 1)).powf(ALPHA)
    }
}

/// Parses `NAME=V,MIN,MAX,C`.
pub fn parse_param(text: &str) -> Result<Param, String> {
    let bad = || format!("-param wants NAME=VALUE,MIN,MAX,C_END, not '{text}'");
    let (name, rest) = text.split_once('=').ok_or_else(bad)?;
    let nums: Vec<f64> = rest
        .split(',')
        .map(|v| v.trim().parse::<f64>().map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    let [value, min, max, c_end] = nums[..] else {
        return Err(bad());
    };
    if name.trim().is_empty()
        || min >= max
        || c_end <= 0.0
        || !c_end.is_finite()
        || !value.is_finite()
        || min.is_nan()
        || max.is_nan()
    {
        return Err(bad());
    }
    Ok(Param {
        name: name.trim().to_string(),
        value: value.clamp(min, max),
        min,
        max,
        c_end,
    })
}

/// wily's own tunables as parameters at their defaults.
pub fn wily_params() -> Vec<Param> {
    TUNABLES
        .iter()
        .map(|t| Param {
            name: t.name.to_string(),
            value: f64::from(t.default),
            min: f64::from(t.min),
            max: f64::from(t.max),
            c_end: f64::from(t.step),
        })
        .collect()
}

/// The `-param` lines of wily's tunables, with what each means.
pub fn list_text() -> String {
    let mut s = String::new();
    for t in TUNABLES {
        s.push_str(&format!(
            "-param {}={},{},{},{}    # {}\n",
            t.name, t.default, t.min, t.max, t.step, t.doc
        ));
    }
    s
}

fn one(g: &Group) -> Result<&str, String> {
    match &g.values[..] {
        [v] => Ok(v),
        _ => Err(format!("-{} takes one value", g.name)),
    }
}

/// Splits the command line into the SPSA spec and the match settings of one iteration
/// (two engines, `plus` and `minus`, both the one `-engine`).
pub fn parse(args: &[String]) -> Result<(SpsaSpec, MatchSettings), String> {
    let mut spec = SpsaSpec {
        params: Vec::new(),
        iterations: 1000,
        pairs: 2,
        r_end: 0.002,
        out: PathBuf::from("spsa.csv"),
        resume: false,
        seed: 0,
    };
    let mut rest = Vec::new();
    let mut engines = 0;
    for g in group_args(args)? {
        let num = |what: &str| -> Result<u32, String> {
            one(&g)?
                .parse::<u32>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| format!("-{what} wants a positive whole number"))
        };
        match g.name.as_str() {
            "param" => {
                for v in &g.values {
                    spec.params.push(parse_param(v)?);
                }
            }
            "params" => match one(&g)? {
                "wily" => spec.params.extend(wily_params()),
                other => return Err(format!("-params knows only 'wily', not '{other}'")),
            },
            "iterations" => spec.iterations = num("iterations")?,
            "pairs" => spec.pairs = num("pairs")?,
            "r" => {
                spec.r_end = one(&g)?
                    .parse::<f64>()
                    .ok()
                    .filter(|r| *r > 0.0 && r.is_finite())
                    .ok_or("-r wants a positive number")?
            }
            "out" => spec.out = PathBuf::from(one(&g)?),
            "resume" => spec.resume = true,
            "games" | "rounds" | "repeat" | "sprt" | "pgn" | "sample" | "gauntlet" | "file" => {
                return Err(format!("-{} is set by wily spsa itself", g.name))
            }
            "engine" => {
                engines += 1;
                rest.push(g);
            }
            "srand" => {
                // The perturbations' seed, and the match's own (opening order).
                spec.seed = one(&g)?.parse().map_err(|_| "-srand wants a number")?;
                rest.push(g);
            }
            _ => rest.push(g),
        }
    }
    if engines != 1 {
        return Err("wily spsa tunes one -engine against itself".into());
    }
    if spec.params.is_empty() {
        return Err("nothing to tune: give -param NAME=V,MIN,MAX,C or -params wily".into());
    }
    let mut names: Vec<&str> = spec.params.iter().map(|p| p.name.as_str()).collect();
    names.sort_unstable();
    if names.windows(2).any(|w| w[0].eq_ignore_ascii_case(w[1])) {
        return Err("a parameter is named twice".into());
    }
    let engine = rest
        .iter()
        .find(|g| g.name == "engine")
        .cloned()
        .ok_or("no -engine")?;
    rest.push(engine);
    rest.push(Group {
        name: "games".into(),
        values: vec![(2 * spec.pairs).to_string()],
    });
    rest.push(Group {
        name: "repeat".into(),
        values: vec![],
    });
    let mut settings = settings_from_groups(&rest)?;
    // Every iteration and a resumed run read the openings in one order: a random order
    // follows -srand (0 when not given) rather than the clock.
    if let Some(o) = settings.openings.as_mut().filter(|o| o.drawn) {
        o.seed = spec.seed;
        o.drawn = false;
    }
    settings.engines[0].name = "plus".into();
    settings.engines[1].name = "minus".into();
    settings.progress = false;
    settings.pgn = None;
    settings.sample = None;
    settings.sprt = None;
    Ok((spec, settings))
}

/// Rounds a perturbed value into the parameter's range (options take whole numbers).
fn perturbed(p: &Param, delta: f64) -> i64 {
    (p.value + delta).clamp(p.min, p.max).round() as i64
}

/// The header line of the log: the parameter names.
fn header(spec: &SpsaSpec) -> String {
    let names: Vec<&str> = spec.params.iter().map(|p| p.name.as_str()).collect();
    format!("iteration,wins,draws,losses,{}", names.join(","))
}

/// The values after the last complete iteration of a log, and its number.
pub fn read_resume(spec: &SpsaSpec, text: &str) -> Result<(u32, Vec<f64>), String> {
    let mut lines = text.lines();
    if lines.next() != Some(header(spec).as_str()) {
        return Err("the log's parameters are not the ones given (header differs)".into());
    }
    let mut last = None;
    for l in lines {
        let f: Vec<&str> = l.split(',').collect();
        // A line cut by a kill is ignored: all fields must read.
        let Ok(k) = f[0].parse::<u32>() else { continue };
        if f.len() != 4 + spec.params.len() {
            continue;
        }
        let Ok(vals) = f[4..]
            .iter()
            .map(|v| v.parse::<f64>())
            .collect::<Result<Vec<_>, _>>()
        else {
            continue;
        };
        last = Some((k, vals));
    }
    last.ok_or_else(|| "the log has no complete iteration to resume from".into())
}

/// One iteration's update: moves every parameter by the result (plus's wins minus losses)
/// along its perturbation direction.
pub fn update(spec: &mut SpsaSpec, k: u32, signs: &[f64], result: f64) {
    for (i, sign) in signs.iter().enumerate().take(spec.params.len()) {
        let (a, c) = (spec.a_k(i, k), spec.c_k(i, k));
        let p = &mut spec.params[i];
        p.value = (p.value + a * result / (c * sign)).clamp(p.min, p.max);
    }
}

/// Runs the whole tuning; returns the final values as text.
pub fn run(mut spec: SpsaSpec, base: MatchSettings) -> Result<String, String> {
    let mut log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&spec.out)
        .map_err(|e| format!("cannot open {}: {e}", spec.out.display()))?;
    let mut first = 0;
    if spec.resume {
        let text = std::fs::read_to_string(&spec.out)
            .map_err(|e| format!("cannot read {}: {e}", spec.out.display()))?;
        if !text.is_empty() {
            let (k, vals) = read_resume(&spec, &text)?;
            // A line cut by a kill stays on its own line (and is skipped when read again).
            if !text.ends_with('\n') {
                writeln!(log).map_err(|e| e.to_string())?;
            }
            for (p, v) in spec.params.iter_mut().zip(vals) {
                p.value = v.clamp(p.min, p.max);
            }
            first = k + 1;
            eprintln!("resuming after iteration {k}");
        }
    }
    if first == 0 {
        if spec.out.metadata().map(|m| m.len()).unwrap_or(0) > 0 {
            return Err(format!(
                "{} exists: give -resume or another -out",
                spec.out.display()
            ));
        }
        writeln!(log, "{}", header(&spec)).map_err(|e| e.to_string())?;
    }
    let (mut wins, mut draws, mut losses) = (0u64, 0u64, 0u64);
    for k in first..spec.iterations {
        let mut rng = StdRng::seed_from_u64(spec.seed ^ (u64::from(k) << 20) ^ 0x5b5a);
        let signs: Vec<f64> = spec
            .params
            .iter()
            .map(|_| if rng.gen::<bool>() { 1.0 } else { -1.0 })
            .collect();
        let mut settings = base.clone();
        for (i, p) in spec.params.iter().enumerate() {
            let c = spec.c_k(i, k) * signs[i];
            let plus = perturbed(p, c).to_string();
            let minus = perturbed(p, -c).to_string();
            settings.engines[0].options.push((p.name.clone(), plus));
            settings.engines[1].options.push((p.name.clone(), minus));
        }
        if let Some(o) = settings.openings.as_mut() {
            o.start = o.start.max(1) + (k as usize) * spec.pairs as usize;
        }
        let summary = runner::run(&settings)?;
        if summary.interrupted {
            eprintln!("interrupted: iteration {k} dropped");
            break;
        }
        let t = &summary.standings.tallies[0];
        let result = f64::from(t.wins) - f64::from(t.losses);
        update(&mut spec, k, &signs, result);
        (wins, draws, losses) = (
            wins + u64::from(t.wins),
            draws + u64::from(t.draws),
            losses + u64::from(t.losses),
        );
        let vals: Vec<String> = spec
            .params
            .iter()
            .map(|p| format!("{:.3}", p.value))
            .collect();
        writeln!(
            log,
            "{k},{},{},{},{}",
            t.wins,
            t.draws,
            t.losses,
            vals.join(",")
        )
        .and_then(|_| log.sync_data())
        .map_err(|e| format!("writing {}: {e}", spec.out.display()))?;
        if (k + 1) % 10 == 0 || k + 1 == spec.iterations {
            eprintln!(
                "iteration {}/{} (+{wins} ={draws} -{losses} this run) {}",
                k + 1,
                spec.iterations,
                spec.params
                    .iter()
                    .map(|p| format!("{}={:.1}", p.name, p.value))
                    .collect::<Vec<_>>()
                    .join(" ")
            );
        }
    }
    let mut out = String::new();
    for p in &spec.params {
        out.push_str(&format!("{} {}\n", p.name, p.value.round() as i64));
    }
    Ok(out)
}

/// `wily spsa ARGS`.
pub fn run_cli(args: &[String]) -> Result<(), String> {
    if args.is_empty()
        || args
            .iter()
            .any(|a| ["-h", "-help", "--help"].contains(&a.as_str()))
    {
        print!("{HELP}");
        return Ok(());
    }
    if args.iter().any(|a| a == "-list") {
        print!("{}", list_text());
        return Ok(());
    }
    let (spec, settings) = parse(args)?;
    print!("{}", run(spec, settings)?);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn a_parameter_reads_from_its_four_numbers_and_bad_ones_are_refused() {
        let p = parse_param("rfp_margin=100,40,200,8").unwrap();
        assert_eq!((p.value, p.min, p.max, p.c_end), (100.0, 40.0, 200.0, 8.0));
        assert_eq!(parse_param("x=500,0,10,1").unwrap().value, 10.0);
        for bad in [
            "x",
            "x=1,2,3",
            "x=1,5,2,1",
            "x=1,0,9,0",
            "=1,0,9,1",
            "x=a,0,9,1",
        ] {
            assert!(parse_param(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_command_line_makes_two_copies_of_one_engine_playing_pairs() {
        let (spec, s) = parse(&words(
            "-engine cmd=./e name=e -each nodes=500 -params wily -param extra=5,0,9,1 \
             -iterations 7 -pairs 3 -r 0.01 -out x.csv -srand 9",
        ))
        .unwrap();
        assert_eq!(spec.params.len(), TUNABLES.len() + 1);
        assert_eq!(
            (spec.iterations, spec.pairs, spec.r_end, spec.seed),
            (7, 3, 0.01, 9)
        );
        assert_eq!(s.engines.len(), 2);
        assert_eq!(
            (s.engines[0].name.as_str(), s.engines[1].name.as_str()),
            ("plus", "minus")
        );
        assert_eq!((s.games, s.repeat, s.progress), (6, true, false));
        assert!(parse(&words("-engine cmd=a -engine cmd=b -params wily")).is_err());
        assert!(parse(&words("-engine cmd=a")).is_err());
        assert!(parse(&words("-engine cmd=a -params wily -games 10")).is_err());
        assert!(parse(&words("-engine cmd=a -param x=1,0,9,1 -param x=2,0,9,1")).is_err());
    }

    #[test]
    fn the_schedule_ends_at_the_given_step_and_moves_towards_the_winner() {
        let (mut spec, _) = parse(&words(
            "-engine cmd=a nodes=9 -param p=50,0,100,4 -param q=50,0,100,4 -iterations 100 -r 0.01",
        ))
        .unwrap();
        assert!((spec.c_k(0, 99) - 4.0).abs() < 1e-9);
        assert!((spec.a_k(0, 99) - 0.01 * 16.0).abs() < 1e-9);
        assert!(spec.c_k(0, 0) > spec.c_k(0, 50) && spec.a_k(0, 0) > spec.a_k(0, 50));
        // plus (p up, q down) won by two: p rises, q falls, by the same amount.
        update(&mut spec, 0, &[1.0, -1.0], 2.0);
        let (p, q) = (spec.params[0].value, spec.params[1].value);
        assert!(p > 50.0 && q < 50.0 && ((p - 50.0) - (50.0 - q)).abs() < 1e-9);
        // Values stay in range.
        for _ in 0..10_000 {
            update(&mut spec, 0, &[1.0, 1.0], 2.0);
        }
        assert_eq!(spec.params[0].value, 100.0);
    }

    #[test]
    fn resuming_reads_the_last_complete_line_and_checks_the_names() {
        let (spec, _) = parse(&words(
            "-engine cmd=a nodes=9 -param p=5,0,9,1 -param q=5,0,9,1",
        ))
        .unwrap();
        let text = format!("{}\n0,1,0,1,5.1,4.9\n1,2,0,0,5.3,4.7\n2,0,1", header(&spec));
        assert_eq!(read_resume(&spec, &text).unwrap(), (1, vec![5.3, 4.7]));
        assert!(read_resume(&spec, "iteration,wins,draws,losses,p\n0,1,0,1,5").is_err());
        assert!(read_resume(&spec, &header(&spec)).is_err());
    }
}
