//! The match settings from the command line's option groups (c-chess-cli style:
//! `-engine cmd=./wily name=new tc=10+0.1 option.Hash=16`, `-each ...`, `-openings
//! file=... order=random`, `-sprt elo0=0 elo1=5`; see [`super::args`] for how words and
//! the TOML match file become groups), with defaults and checks, and the `-help` text.

use super::adjudicate::{DrawRule, ResignRule, Rules};
use super::args::{group_args, toml_args, Group};
use super::config::{PgnSpec, Tournament, Variant};
use super::draft::{parse_bool, parse_num, split_kv, Draft};
use super::openings::{parse_frc_range, OpeningSpec, Order};
use super::resume::AutosaveSpec;
use super::sample::SampleSpec;
use super::settings::MatchSettings;
use super::sprt::{EloModel, SprtSpec};
use std::path::PathBuf;
use std::time::Duration;

/// A seed nobody can predict (nanoseconds of the clock and the process id), never 0.
fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(1);
    (nanos ^ ((std::process::id() as u64) << 32)).max(1)
}

fn one_value(g: &Group) -> Result<&str, String> {
    match g.values.as_slice() {
        [v] => Ok(v),
        _ => Err(format!("-{} takes one value", g.name)),
    }
}

fn flag(g: &Group) -> Result<bool, String> {
    match g.values.as_slice() {
        [] => Ok(true),
        [v] => parse_bool(&g.name, v),
        _ => Err(format!("-{} takes at most one value", g.name)),
    }
}

fn parse_openings(values: &[String], seed: &mut Option<u64>) -> Result<OpeningSpec, String> {
    let mut s = OpeningSpec::default();
    let mut format = None;
    for v in values {
        let (k, val) = split_kv(v);
        match k {
            "file" => s.file = Some(PathBuf::from(val)),
            "format" => format = Some(val.to_ascii_lowercase()),
            "order" => {
                s.order = match val {
                    "random" => Order::Random,
                    "sequential" => Order::Sequential,
                    _ => return Err(format!("openings order '{val}': use random or sequential")),
                }
            }
            "srand" => *seed = Some(parse_num("openings srand", val)?),
            "plies" => s.plies = Some(parse_num("openings plies", val)?),
            "start" => s.start = parse_num("openings start", val)?,
            "frc" | "chess960" => s.frc = Some(parse_frc_range(val)?),
            _ => return Err(format!("unknown -openings setting '{v}'")),
        }
    }
    s.pgn = match (format.as_deref(), &s.file) {
        (Some("pgn"), _) => true,
        (Some("epd"), _) => false,
        (Some(f), _) => return Err(format!("openings format '{f}': use epd or pgn")),
        (None, Some(p)) => p.extension().is_some_and(|e| e.eq_ignore_ascii_case("pgn")),
        (None, None) => false,
    };
    if s.file.is_some() && s.frc.is_some() {
        return Err("-openings takes file= or frc=, not both".into());
    }
    Ok(s)
}

fn parse_sprt(values: &[String]) -> Result<SprtSpec, String> {
    let mut s = SprtSpec::default();
    for v in values {
        let (k, val) = split_kv(v);
        match k {
            "elo0" => s.elo0 = parse_num("sprt elo0", val)?,
            "elo1" => s.elo1 = parse_num("sprt elo1", val)?,
            "alpha" => s.alpha = parse_num("sprt alpha", val)?,
            "beta" => s.beta = parse_num("sprt beta", val)?,
            "model" => {
                s.model = match val {
                    "logistic" => EloModel::Logistic,
                    "normalized" => EloModel::Normalized,
                    _ => return Err(format!("sprt model '{val}': use logistic or normalized")),
                }
            }
            _ => return Err(format!("unknown -sprt setting '{v}'")),
        }
    }
    s.validate()?;
    Ok(s)
}

/// The option summary `wily match -help` prints.
pub const HELP: &str = "\
wily match: play engines against each other (c-chess-cli's options and meanings)

  -version               print the version and stop

  -engine KEY=VALUE...   one engine (repeat for more):
        cmd=COMMAND        program and arguments (quoted like a shell)
        name=NAME          name in the PGN and tables (default: the engine's id name)
        proto=uci|xboard   protocol (default uci)
        dir=DIR            working directory (default: the program's folder when cmd=
                           has a '/', else the current one)
        tc=[M/]BASE[+INC]  clock: 10+0.1, 40/60, 1:30+1 (seconds)
        movetime=SECONDS   fixed time per move (also st=);  depth=N;  nodes=N
        option.NAME=VALUE  engine option (UCI setoption / xboard option)
        memory=MB cores=N  xboard memory/cores (UCI: Hash/Threads unless given)
        book=FILE bookdepth=N  Polyglot book the runner plays from (up to move N)
        ponder             think on the opponent's time (UCI go ponder, xboard hard)
        restart=on         new process every game (also when xboard says reuse=0)
        score=white        the engine reports scores from White's side (Crafty)
        timemargin=MS      grace past the clock before a loss on time (100)
        timeout=SECONDS    an answer due at once (readyok, pong) or the engine hangs (4)
        waitlimit=SECONDS  start-up handshake and a move without a clock (30)
  -each KEY=VALUE...     the same keys, for every engine that does not set them
  -games N               games per pairing and round (1; with -sprt: until decided)
  -rounds N              repeat the whole schedule (1)
  -gauntlet              the first engine plays each other one (default: round robin)
  -tournament round-robin|gauntlet|knockout|pyramid
                         knockout: single elimination; pyramid: each engine plays all
                         those before it, one engine's games after another's
  -seeds N               the first N engines are the knockout's seeds (kept apart)
  -repeat                play each opening twice, colours reversed (game pairs)
  -concurrency N         games at once (1)
  -use-affinity          pin each concurrent game's engines to cores of their own (Linux)
  -noswap                the same colours in every game of a pairing (no reversal)
  -reverse               the second engine of a pairing takes White first
  -wait MS               pause between a worker's games
  -bookmode ram|disk     engines' books read into memory (default) or from disk
  -openings file=F [format=epd|pgn] [order=sequential|random] [srand=N] [plies=N]
            [start=K]  or  frc=N[-M]|all (Chess960 start positions by number);
            random order with srand=0 (or none) draws its seed from the clock
  -variant standard|chess960 (alias fischerandom)
  -resign [number=0] [count=3] [score=700] [both=on]
                         a loss when an engine's own score is -score or worse for count
                         moves, from move number (both=on: the winner must agree)
  -draw [number=0] [count=8] [score=10]
  -maxmoves N            draw after N moves
  -tb PATH               adjudicate by the Syzygy tables of PATH (':'-separated folders)
  -tbpieces N            only positions of at most N pieces (default: the largest table)
  -tbignore50            the tables' verdict without the 50-move rule
  -sprt [elo0=0] [elo1=4] [alpha=0.05] [beta=0.05] [model=logistic|normalized]
  -pgn FILE [VERBOSITY]  append games; verbosity 0 tags and result, 1 moves, 2 adds
                         {score/depth}, 3 (default) {score/depth time}
        [nodes=on] [seldepth=on] [nps=on] [hashfull=on] [tbhits=on] [timeleft=on]
        [latency=on]       more in each move's comment (n= sd= nps= hf= tb= tl= lat=)
  -sample [freq=1] [decay=0] [resolve=y|n] [file=sample.csv|bin] [format=csv|bin]
         [srand=N] [quiet=on] [format=wily]   training positions
  -log [DIR]             each engine's I/O per game (in DIR, default the current folder)
  -srand N               seed for random openings and samples (0)
  -autoseed N            the seed a random opening order without srand drew (the resume
                         file keeps it)
  -event NAME            PGN Event tag
  -quiet                 no progress line
  -ratinginterval N      print the standings on standard output every N games
  -report penta=on|off   the pentanomial lines of the report (on; also true|false)
  -epdout FILE           append each game's final position (EPD) to FILE
  -autosave FILE         keep FILE up to date so that the match can be resumed
  -autosaveinterval N    save after every N finished games (10; always at the end)
  -compliance [-xboard] PROGRAM [ARGS...]
                         check an engine's UCI (or xboard) protocol handling, alone
  -resume FILE           go on with the match saved in FILE (its options are read from
                         it; options given too must build the same schedule)
  -file MATCH.toml       read options from a TOML match file first
";

/// Reads the whole match from the command line; `-file MATCH.toml` groups are read first
/// whatever their place.
pub fn parse(args: &[String]) -> Result<MatchSettings, String> {
    let mut file_groups = Vec::new();
    let mut rest = Vec::new();
    for g in group_args(args)? {
        if g.name == "file" {
            let p = PathBuf::from(one_value(&g)?);
            let text = std::fs::read_to_string(&p)
                .map_err(|e| format!("cannot read {}: {e}", p.display()))?;
            file_groups.extend(toml_args(&text)?);
        } else {
            rest.push(g);
        }
    }
    file_groups.extend(rest);
    settings_from_groups(&file_groups)
}

/// Builds the settings from option groups.
pub fn settings_from_groups(groups: &[Group]) -> Result<MatchSettings, String> {
    let mut engines = Vec::new();
    let mut each = Draft::default();
    let mut games = None;
    let mut rounds = 1;
    let mut gauntlet = false;
    let mut repeat = false;
    let mut concurrency = 1;
    let mut variant = Variant::Standard;
    let mut openings: Option<OpeningSpec> = None;
    let mut open_seed = None;
    let mut auto_seed = None;
    let mut seed = 0u64;
    let mut rules = Rules::default();
    let mut sprt = None;
    let mut pgn = None;
    let mut sample = None;
    let mut sample_seed = None;
    let mut log_dir = None;
    let mut event = "wily match".to_string();
    let mut progress = true;
    let mut autosave: Option<PathBuf> = None;
    let mut autosave_interval = 10u32;
    let mut rating_interval = 0u32;
    let mut report_penta = true;
    let mut epd_out = None;
    let mut colours = super::schedule::Colours::default();
    let mut tb_path: Option<String> = None;
    let mut tb_pieces: Option<u32> = None;
    let mut tb_ignore50 = false;
    let mut wait = Duration::ZERO;
    let mut book_in_ram = true;
    let mut seeds = 0usize;
    let mut affinity = false;
    let mut tournament = None;
    for g in groups {
        let kvs = || g.values.iter().map(|v| split_kv(v));
        match g.name.as_str() {
            "engine" => engines.push(Draft::parse(&g.values)?),
            "each" => each = Draft::parse(&g.values)?.or(&each),
            "games" => games = Some(parse_num("-games", one_value(g)?)?),
            "rounds" => rounds = parse_num("-rounds", one_value(g)?)?,
            "gauntlet" => gauntlet = flag(g)?,
            "roundrobin" | "rr" => gauntlet = !flag(g)?,
            "repeat" => repeat = flag(g)?,
            "concurrency" => concurrency = parse_num("-concurrency", one_value(g)?)?,
            "variant" => {
                variant = match one_value(g)?.to_ascii_lowercase().as_str() {
                    "standard" | "normal" | "chess" => Variant::Standard,
                    "chess960" | "fischerandom" | "frc" | "960" => Variant::Chess960,
                    v => return Err(format!("variant '{v}': use standard or chess960")),
                }
            }
            "openings" => openings = Some(parse_openings(&g.values, &mut open_seed)?),
            "srand" => seed = parse_num("-srand", one_value(g)?)?,
            "autoseed" => auto_seed = Some(parse_num("-autoseed", one_value(g)?)?),
            "version" => return Err("-version is answered before the match is read".into()),
            "resign" => {
                let mut r = ResignRule {
                    number: 0,
                    count: 3,
                    score: 700,
                    both: false,
                };
                for (k, v) in kvs() {
                    match k {
                        "number" => r.number = parse_num("resign number", v)?,
                        "count" => r.count = parse_num("resign count", v)?,
                        "score" => r.score = parse_num("resign score", v)?,
                        "both" => r.both = parse_bool("resign both", v)?,
                        _ => return Err(format!("unknown -resign setting '{k}'")),
                    }
                }
                rules.resign = Some(r);
            }
            "draw" => {
                let mut r = DrawRule {
                    number: 0,
                    count: 8,
                    score: 10,
                };
                for (k, v) in kvs() {
                    match k {
                        "number" => r.number = parse_num("draw number", v)?,
                        "count" => r.count = parse_num("draw count", v)?,
                        "score" => r.score = parse_num("draw score", v)?,
                        _ => return Err(format!("unknown -draw setting '{k}'")),
                    }
                }
                rules.draw = Some(r);
            }
            "maxmoves" => rules.max_moves = Some(parse_num("-maxmoves", one_value(g)?)?),
            "tb" => tb_path = Some(one_value(g)?.to_string()),
            "tbpieces" => tb_pieces = Some(parse_num("-tbpieces", one_value(g)?)?),
            "tbignore50" => tb_ignore50 = flag(g)?,
            "sprt" => sprt = Some(parse_sprt(&g.values)?),
            "pgn" => {
                let mut spec = PgnSpec {
                    path: PathBuf::new(),
                    verbosity: 3,
                    extras: Default::default(),
                };
                for (i, v) in g.values.iter().enumerate() {
                    let (k, val) = split_kv(v);
                    if v.contains('=') && spec.extras.set(k, false) {
                        spec.extras.set(k, parse_bool(k, val)?);
                        continue;
                    }
                    match split_kv(v) {
                        ("file", p) => spec.path = PathBuf::from(p),
                        ("verbosity", n) => spec.verbosity = parse_num("pgn verbosity", n)?,
                        _ if i == 0 => spec.path = PathBuf::from(v),
                        _ if i == 1 => spec.verbosity = parse_num("pgn verbosity", v)?,
                        _ => return Err(format!("-pgn: unexpected '{v}'")),
                    }
                }
                if spec.path.as_os_str().is_empty() {
                    return Err("-pgn needs a file".into());
                }
                if spec.verbosity > 3 {
                    return Err(format!("-pgn verbosity {}: use 0 to 3", spec.verbosity));
                }
                pgn = Some(spec);
            }
            "sample" => sample = Some(SampleSpec::parse(&g.values, &mut sample_seed)?),
            "log" => {
                // c-chess-cli's bare `-log`: the logs go to the current folder.
                let v = match g.values.as_slice() {
                    [] => ".",
                    _ => one_value(g)?,
                };
                log_dir = Some(PathBuf::from(v.strip_prefix("dir=").unwrap_or(v)));
            }
            "event" => event = g.values.join(" "),
            "quiet" | "noprogress" => progress = !flag(g)?,
            "autosave" => autosave = Some(PathBuf::from(one_value(g)?)),
            "autosaveinterval" => {
                autosave_interval = parse_num("-autosaveinterval", one_value(g)?)?;
                if autosave_interval == 0 {
                    return Err("-autosaveinterval must be at least 1".into());
                }
            }
            "ratinginterval" => rating_interval = parse_num("-ratinginterval", one_value(g)?)?,
            "report" => {
                if g.values.is_empty() {
                    return Err("-report needs penta=on|off".into());
                }
                for v in &g.values {
                    match split_kv(v) {
                        ("penta", val) if v.contains('=') => {
                            report_penta = parse_bool("-report penta", val)?
                        }
                        _ => return Err(format!("-report: unexpected '{v}' (use penta=on|off)")),
                    }
                }
            }
            "epdout" => {
                let v = one_value(g)?;
                epd_out = Some(PathBuf::from(v.strip_prefix("file=").unwrap_or(v)));
            }
            "noswap" => colours.noswap = flag(g)?,
            "reverse" => colours.reverse = flag(g)?,
            "seeds" => seeds = parse_num("-seeds", one_value(g)?)?,
            "use-affinity" | "affinity" => affinity = flag(g)?,
            "tournament" => {
                tournament = Some(match one_value(g)? {
                    "round-robin" | "roundrobin" => Tournament::RoundRobin,
                    "gauntlet" => Tournament::Gauntlet,
                    "pyramid" => Tournament::Pyramid,
                    "knockout" => Tournament::Knockout,
                    v => {
                        return Err(format!(
                            "-tournament '{v}': use round-robin, gauntlet, knockout or pyramid"
                        ))
                    }
                })
            }
            "bookmode" => {
                book_in_ram = match one_value(g)? {
                    "ram" => true,
                    "disk" => false,
                    v => return Err(format!("-bookmode '{v}': use ram or disk")),
                }
            }
            "wait" => wait = Duration::from_millis(parse_num("-wait (ms)", one_value(g)?)?),
            "resume" => return Err("-resume FILE is given once, before the match's options".into()),
            other => return Err(format!("unknown option -{other}")),
        }
    }
    if let Some(path) = tb_path {
        let mut adj = super::syzygy::adjudicator(&path)?;
        adj.pieces = tb_pieces;
        adj.ignore50 = tb_ignore50;
        eprintln!("{}", adj.summary());
        rules.tablebase = Some(std::sync::Arc::new(adj));
    } else if tb_pieces.is_some() || tb_ignore50 {
        return Err("-tbpieces and -tbignore50 need -tb PATH".into());
    }
    if engines.len() < 2 {
        return Err("a match needs at least two -engine".into());
    }
    let mut specs = engines
        .into_iter()
        .enumerate()
        .map(|(i, d)| d.or(&each).finish(i, book_in_ram))
        .collect::<Result<Vec<_>, _>>()?;
    super::names::make_unique(&mut specs);
    let tournament = tournament.unwrap_or(if gauntlet {
        Tournament::Gauntlet
    } else {
        Tournament::RoundRobin
    });
    if tournament == Tournament::Knockout && sprt.is_some() {
        return Err("-sprt plays one pairing to a decision; a knockout has its own rules".into());
    }
    if seeds > specs.len() {
        return Err(format!(
            "-seeds {seeds}: there are only {} engines",
            specs.len()
        ));
    }
    if sprt.is_some() && specs.len() != 2 {
        return Err("-sprt tests one engine against another: give exactly two engines".into());
    }
    if concurrency == 0 {
        return Err("-concurrency must be at least 1".into());
    }
    let games: u32 = match (games, sprt.is_some()) {
        (Some(0), _) => return Err("-games must be at least 1".into()),
        (Some(g), _) => g,
        // An SPRT runs until a bound is crossed; this is only a safety cap.
        (None, true) => 200_000,
        (None, false) => 1,
    };
    if rounds == 0 {
        return Err("-rounds must be at least 1".into());
    }
    if variant == Variant::Chess960 && openings.is_none() {
        openings = Some(OpeningSpec {
            frc: Some((0, 959)),
            order: Order::Random,
            ..OpeningSpec::default()
        });
    }
    if let Some(o) = openings.as_mut() {
        o.seed = open_seed.unwrap_or(seed);
        // c-chess-cli: srand=0 (the default) is an unpredictable seed.
        if o.seed == 0 && o.order == Order::Random {
            o.seed = auto_seed.unwrap_or_else(clock_seed);
            o.drawn = auto_seed.is_none();
        }
    }
    if let Some(s) = sample.as_mut() {
        s.seed = sample_seed.unwrap_or(seed);
    }
    Ok(MatchSettings {
        engines: specs,
        tournament,
        games,
        rounds,
        repeat: repeat || sprt.is_some(),
        concurrency,
        variant,
        openings,
        rules,
        sprt,
        pgn,
        sample,
        log_dir,
        event,
        progress,
        autosave: autosave.map(|path| AutosaveSpec {
            path,
            interval: autosave_interval,
        }),
        resume: None,
        command_line: Vec::new(),
        rating_interval,
        report_penta,
        epd_out,
        colours,
        wait,
        seed,
        seeds,
        affinity,
        plan: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Protocol, ScoreView};

    fn args(s: &str) -> Vec<String> {
        shlex::split(s).unwrap()
    }

    #[test]
    fn engines_with_each_and_defaults() {
        let s = parse(
            &args(
                "-engine cmd='./wily uci' name=new option.Hash=32 -engine cmd=/usr/bin/wily tc=40/60 \
                 -each tc=10+0.1 option.Hash=16 option.Threads=1 proto=uci -games 10 -concurrency 2",
            ),
        )
        .unwrap();
        let (a, b) = (&s.engines[0], &s.engines[1]);
        assert_eq!(a.name, "new");
        assert_eq!(a.launch.program, "./wily");
        assert_eq!(a.launch.args, ["uci"]);
        assert_eq!(
            a.options,
            [
                ("Threads".to_string(), "1".to_string()),
                ("Hash".into(), "32".into())
            ]
        );
        assert_eq!(a.limits.to_string(), "10+0.1");
        assert_eq!(b.name, "wily");
        assert_eq!(b.limits.to_string(), "40/60");
        assert_eq!(b.options.len(), 2);
        assert_eq!((s.games, s.concurrency, s.repeat), (10, 2, false));
        assert_eq!(s.tournament, Tournament::RoundRobin);
    }

    #[test]
    fn duplicate_names_and_errors() {
        let s = parse(&args(
            "-engine cmd=x -engine cmd=x -engine cmd=x -each nodes=100 -gauntlet",
        ))
        .unwrap();
        let names: Vec<_> = s.engines.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["x", "x-2", "x-3"]);
        assert_eq!(s.tournament, Tournament::Gauntlet);
        assert!(s.report_penta, "pentanomial lines by default");
        for (words, penta) in [
            ("-report penta=off", false),
            ("-report penta=false", false),
            ("-report penta=true", true),
            ("-report penta=on", true),
        ] {
            let line = format!("-engine cmd=x nodes=1 -engine cmd=y nodes=1 {words}");
            assert_eq!(parse(&args(&line)).unwrap().report_penta, penta, "{words}");
        }
        for bad in [
            "-engine cmd=x nodes=1",
            "-engine cmd=x -engine cmd=y",
            "-engine cmd=x nodes=1 -engine cmd=y nodes=1 -bogus",
            "-engine cmd=x nodes=1 -engine cmd=y nodes=1 proto=fax",
            "-engine cmd=x nodes=1 -engine cmd=y nodes=1 -sprt elo0=5 elo1=0",
            "-engine cmd=x nodes=1 -engine cmd=y nodes=1 -engine cmd=z nodes=1 -sprt",
            "-engine cmd=x nodes=1 -engine cmd=y nodes=1 -openings file=a.epd frc=1",
            "-engine cmd=x tc=0 -engine cmd=y nodes=1",
            "-engine cmd='x nodes=1 -engine cmd=y nodes=1",
            "-engine cmd=x nodes=1 -engine cmd=y nodes=1 -report",
            "-engine cmd=x nodes=1 -engine cmd=y nodes=1 -report penta=maybe",
            "-engine cmd=x nodes=1 -engine cmd=y nodes=1 -report elo=on",
        ] {
            let words: Vec<String> = bad.split_whitespace().map(str::to_string).collect();
            assert!(parse(&words).is_err(), "{bad}");
        }
    }

    #[test]
    fn match_settings() {
        let s = parse(
            &args(
                "-engine cmd=a -engine cmd=b proto=xboard score=white restart=on -each nodes=2000 \
                 -openings file=o.pgn order=random plies=8 -srand 9 -resign count=4 score=900 \
                 -draw number=30 count=6 score=5 -maxmoves 150 -sprt elo0=0 elo1=3 model=normalized \
                 -pgn file=g.pgn verbosity=0 nodes=on latency=true -sample freq=0.25 file=s.csv -log logs -variant fischerandom",
            ),
        )
        .unwrap();
        let o = s.openings.as_ref().unwrap();
        assert!(o.pgn);
        assert_eq!((o.order, o.seed, o.plies), (Order::Random, 9, Some(8)));
        assert_eq!(
            s.rules.resign,
            Some(ResignRule {
                number: 0,
                count: 4,
                score: 900,
                both: false,
            })
        );
        assert_eq!(
            s.rules.draw,
            Some(DrawRule {
                number: 30,
                count: 6,
                score: 5
            })
        );
        assert_eq!(s.rules.max_moves, Some(150));
        let sp = s.sprt.unwrap();
        assert_eq!((sp.elo1, sp.model), (3.0, EloModel::Normalized));
        assert!(s.repeat, "an SPRT plays game pairs");
        assert_eq!(s.games, 200_000);
        assert_eq!(s.pgn.as_ref().unwrap().verbosity, 0);
        let x = s.pgn.as_ref().unwrap().extras;
        assert!(x.nodes && x.latency && !x.seldepth);
        assert_eq!(s.sample.as_ref().unwrap().seed, 9);
        assert_eq!(s.log_dir, Some(PathBuf::from("logs")));
        assert_eq!(s.variant, Variant::Chess960);
        let b = &s.engines[1];
        assert_eq!(
            (b.protocol, b.score_view, b.restart),
            (Protocol::Xboard, ScoreView::White, true)
        );
    }

    #[test]
    fn chess960_defaults_to_random_start_positions() {
        let s = parse(&args(
            "-engine cmd=a -engine cmd=b -each depth=2 -variant chess960 -srand 3",
        ))
        .unwrap();
        let o = s.openings.unwrap();
        assert_eq!((o.frc, o.order, o.seed), (Some((0, 959)), Order::Random, 3));
    }
    #[test]
    fn settings_from_a_toml_file() {
        let text = crate::args::SAMPLE_TOML;
        let groups = toml_args(text).unwrap();
        let s = settings_from_groups(&groups).unwrap();
        assert_eq!(s.games, 20);
        assert!(s.repeat);
        assert_eq!(
            s.engines[0].options,
            [("Hash".to_string(), "16".to_string())]
        );
        assert_eq!(s.engines[1].options.len(), 2);
        assert_eq!(s.engines[1].limits.to_string(), "10+0.1");
        assert_eq!(s.pgn.unwrap().verbosity, 0);
        assert_eq!(s.openings.unwrap().order, Order::Random);
    }
}
