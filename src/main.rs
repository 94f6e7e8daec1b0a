//! The `wily` command line: argument parsing only; every command lives in the library.

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "wily",
    version,
    about = "wily: chess engine and chess-server bot"
)]
struct Cli {
    /// Reload the last game's moves (as `crafty c`; `wily c` works too).
    #[arg(long)]
    resume: bool,
    /// Console startup command file (default: $WILY_RC, else .wilyrc in the working directory).
    #[arg(long, value_name = "FILE")]
    rc: Option<PathBuf>,
    /// Folder for the numbered per-game log and game files (default: logs).
    #[arg(long, value_name = "DIR", global = true)]
    log_dir: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count leaf nodes of the legal move tree.
    Perft {
        /// Depth in plies.
        depth: Option<u32>,
        /// Position to start from (default: the initial position).
        #[arg(long)]
        fen: Option<String>,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
        /// Check every line of an EPD perft suite (`;D1 n ;D2 n ...`).
        #[arg(long)]
        suite: Option<PathBuf>,
        /// Deepest level checked with --suite (default 6).
        #[arg(long = "depth", alias = "depth-limit", value_name = "D")]
        suite_depth: Option<u32>,
    },
    /// Search a fixed set of positions and print the node count and speed.
    Bench {
        /// Search depth per position.
        #[arg(long)]
        depth: Option<u32>,
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Compare speed with another wily binary: both benches run alternately, in pairs.
        #[arg(long, value_name = "WILY")]
        against: Option<PathBuf>,
        /// Pairs of runs with --against.
        #[arg(long, default_value_t = 10, requires = "against")]
        pairs: usize,
        /// With --against: seconds one bench run may take before it is stopped as hung.
        #[arg(long, value_name = "SECONDS", default_value_t = wily::tools::benchcmp::DEFAULT_RUN_LIMIT_S,
              value_parser = clap::value_parser!(u64).range(1..), requires = "against")]
        run_limit: u64,
    },
    /// Run a test suite (Crafty's title/setboard/solution/end format or EPD bm/am) and
    /// print `solved K/N`.
    Test {
        file: PathBuf,
        /// Seconds per position.
        #[arg(long)]
        time: Option<f64>,
        /// Fixed depth per position.
        #[arg(long)]
        depth: Option<u32>,
        /// Fixed node budget per position.
        #[arg(long)]
        nodes: Option<u64>,
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Syzygy tablebase folders (`:`-separated).
        #[arg(long)]
        syzygy: Option<String>,
        /// End a position once N iterations in a row chose a solving move (Crafty's
        /// `test FILE N`).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
        early: Option<u32>,
        /// Evaluate with this network (`Eval=nnue`; see docs/nnue.md).
        #[arg(long, value_name = "NET")]
        eval_file: Option<PathBuf>,
        /// Evaluate by hand (`Eval=hce`) even when the build embeds a network.
        #[arg(long, conflicts_with = "eval_file")]
        hce: bool,
    },
    /// Play every position of FILE (a bare king against mating material) to its end, the
    /// engine against itself with no tablebases; print `mated K/N` and the average moves.
    Mates {
        file: PathBuf,
        /// Seconds per move.
        #[arg(long, default_value_t = 0.1)]
        time: f64,
        /// Fixed node budget per move (instead of the time).
        #[arg(long)]
        nodes: Option<u64>,
    },
    /// Self-play games at a fixed node count that write training positions for
    /// `wily nnue train` (see docs/nnue.md).
    Datagen {
        /// The position file (appended to; a generation resumes where the last stopped).
        #[arg(long, default_value = "data.wpos")]
        out: PathBuf,
        /// Games in the file when done (games already there count).
        #[arg(long, default_value_t = 100)]
        games: u32,
        /// Nodes per move.
        #[arg(long, default_value_t = 5000)]
        nodes: u64,
        /// Games played at once (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// EPD openings; without it games start from the initial position.
        #[arg(long)]
        book: Option<PathBuf>,
        /// Random legal moves after the opening (default 8 without --book, 0 with it).
        #[arg(long)]
        random_plies: Option<u32>,
        /// Syzygy folders (`:`-separated): positions they decide end the game.
        #[arg(long)]
        syzygy: Option<String>,
        /// Hash table per game thread, MiB.
        #[arg(long, default_value_t = 8)]
        hash: usize,
        /// Play with this network (`Eval=nnue`) rather than the default evaluation.
        #[arg(long, value_name = "NET")]
        eval_file: Option<PathBuf>,
        /// Play with the hand-written evaluation.
        #[arg(long, conflicts_with = "eval_file")]
        hce: bool,
    },
    /// The evaluation network's tools (see docs/nnue.md).
    #[command(subcommand)]
    Nnue(wily::tools::nnue::cli::NnueCmd),
    /// Speak the UCI protocol on stdin/stdout.
    Uci {
        /// `uci` lists the search's tunable constants too, as `ucifull` does (for tuners
        /// such as `wily spsa`, whose driver sends only `uci`).
        #[arg(long)]
        full: bool,
    },
    /// Speak the xboard / WinBoard protocol (CECP v2) on stdin/stdout.
    Xboard,
    /// Opening book: `book create FILE.pgn M [N] [WPCT]`, `book show`, `book info`.
    #[command(subcommand)]
    Book(wily::tools::book::BookCmd),
    /// The small hand-edited book: `books create FILE.pgn M`.
    #[command(subcommand)]
    Books(wily::tools::book::BooksCmd),
    /// The learning store: status, export, import, check.
    #[command(subcommand)]
    Learn(wily::tools::learn::LearnCmd),
    /// Play on a chess server unattended (FICS/ICC), or offline with --local.
    Ics {
        #[command(subcommand)]
        action: Option<IcsAction>,
        /// Settings file (default: ./config.toml when present, else built-in defaults).
        #[arg(long)]
        config: Option<PathBuf>,
        /// Play offline: start the local server with a sparring partner and watch.
        #[arg(long)]
        local: bool,
        /// Stop after this many games.
        #[arg(long)]
        games: Option<u32>,
        /// Log every line sent and received to logs/wire.log (passwords masked).
        #[arg(long)]
        wire_debug: bool,
        /// No running commentary on stdout (local mode).
        #[arg(long)]
        quiet: bool,
    },
    /// Play engines against each other: `wily match -engine cmd=... -engine cmd=...
    /// -each tc=10+0.1 -games 100 -concurrency 2 ...` (see docs/match.md).
    #[command(disable_help_flag = true)]
    Match {
        /// c-chess-cli's options with its meanings, and wily's own (`wily match -help`
        /// lists them): -version, -file MATCH.toml, -engine, -each, -games, -rounds,
        /// -gauntlet, -repeat, -concurrency, -openings, -variant, -resign, -draw,
        /// -maxmoves, -sprt, -pgn, -sample, -log, -srand, -event, -quiet.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Tune integer engine options (wily's search constants) by SPSA self-play: `wily spsa
    /// -engine cmd='./wily uci --full' -each nodes=10000 -params wily -iterations 2000 ...`
    /// (`wily spsa -help` lists the options).
    #[command(disable_help_flag = true)]
    Spsa {
        /// -engine, -param NAME=V,MIN,MAX,C, -params wily, -iterations, -pairs, -r, -out,
        /// -resume, -list, and the `wily match` options that shape the games.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Fit every evaluation weight to game results (Texel tuning) and write the defaults.
    Tune(wily::tune::cli::TuneArgs),
    /// The bot's fault soak: games against the local server through a proxy that injects
    /// garbage, cut lines, lag, drops, adjournments and a server restart; prints figures
    /// and fails when a must-be-0 figure (crashes, time forfeits, games missing from the
    /// PGN or the learning store, games never resumed) is not 0.
    Soak {
        /// Finished games to play in all.
        #[arg(long, default_value_t = 1000)]
        games: u32,
        /// Bot/sparring pairs playing at once (each bot its own account).
        #[arg(long, default_value_t = 4)]
        pairs: u32,
        /// Time control `MIN+INC` (minutes, increment seconds).
        #[arg(long, default_value = "1+0")]
        tc: String,
        /// The bots' search depth limit (0: think by the clock).
        #[arg(long, default_value_t = 4)]
        depth: u32,
        /// Seed of the fault plan, the steady faults and the sparring moves.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Connections dropped mid-game (default: one every 40 games).
        #[arg(long)]
        drops: Option<u32>,
        /// Server lines cut with the connection dropped after the first half (default:
        /// one every 100 games).
        #[arg(long)]
        cut_drops: Option<u32>,
        /// Adjournments by agreement, each resumed (default: one every 100 games).
        #[arg(long)]
        adjourns: Option<u32>,
        /// Full server restarts.
        #[arg(long, default_value_t = 1)]
        restarts: u32,
        /// Keep the bots' PGN archives and learning stores in this folder (default: a
        /// temporary folder, removed at the end).
        #[arg(long)]
        dir: Option<PathBuf>,
        /// Give up after this many minutes.
        #[arg(long, default_value_t = 60)]
        minutes: u64,
        /// `fics` or `icc`: what the local server, the bots and their partners speak.
        #[arg(long, default_value = "fics")]
        dialect: wily::ics::Dialect,
    },
    /// Run the local chess server (FICS or ICC dialect) for offline play and tests.
    Serve {
        /// Port to listen on (0: any free port).
        #[arg(long, default_value_t = wily::server::DEFAULT_PORT)]
        port: u16,
        /// Accounts file: `handle password [flags]` a line.
        #[arg(long)]
        accounts: Option<PathBuf>,
        /// Address to listen on.
        #[arg(long, default_value = "127.0.0.1")]
        bind: std::net::IpAddr,
        /// End games by themselves when a clock runs out (FICS waits for `flag`).
        #[arg(long)]
        auto_flag: bool,
        /// Log out players idle this many minutes while not playing.
        #[arg(long)]
        idle_minutes: Option<u64>,
        /// `fics` (text, lasker flavour) or `icc` (ICC's level-2 datagrams).
        #[arg(long, default_value = "fics")]
        dialect: wily::ics::Dialect,
        #[command(flatten)]
        director: DirectorArgs,
    },
}

/// `wily serve`'s tournament director account (docs/server.md).
#[derive(clap::Args)]
struct DirectorArgs {
    /// Run a tournament director account (mamer's shapes): it announces a tournament
    /// on its channel, takes `tell mamer join N`, pairs and starts the rounds.
    #[arg(long)]
    director: bool,
    /// The director's handle.
    #[arg(long, default_value = "mamer")]
    director_name: String,
    /// Entrants needed before the entry closes and round 1 starts.
    #[arg(long, default_value_t = 4)]
    director_entrants: usize,
    /// Close the entry at once when this many have joined (0: no limit).
    #[arg(long, default_value_t = 0)]
    director_max_entrants: usize,
    /// Rounds of a swiss tournament (a round robin plays as many as it needs).
    #[arg(long, default_value_t = 3)]
    director_rounds: u32,
    /// Time control of the games, `MIN+INC` (or `MIN INC`).
    #[arg(long, default_value = "1+0")]
    director_time: String,
    /// `swiss` or `rr` (round robin).
    #[arg(long, default_value = "swiss")]
    director_style: wily::server::PairingStyle,
    /// Rated games (between registered players).
    #[arg(long)]
    director_rated: bool,
    /// Seconds to wait for more entrants once enough have joined.
    #[arg(long, default_value_t = 30)]
    director_wait_secs: u64,
}

impl DirectorArgs {
    fn config(&self) -> Result<Option<wily::server::DirectorConfig>, String> {
        if !self.director {
            return Ok(None);
        }
        if !wily::server::valid_handle(&self.director_name) {
            return Err(format!(
                "--director-name {:?}: not a handle",
                self.director_name
            ));
        }
        let (base, inc) = parse_tc(&self.director_time).map_err(|_| {
            format!(
                "--director-time {:?}: expected MIN+INC, e.g. 1+0",
                self.director_time
            )
        })?;
        Ok(Some(wily::server::DirectorConfig {
            name: self.director_name.clone(),
            style: self.director_style,
            rounds: self.director_rounds.max(1),
            base,
            inc,
            rated: self.director_rated,
            min_entrants: self.director_entrants.max(2),
            max_entrants: self.director_max_entrants,
            close_after: std::time::Duration::from_secs(self.director_wait_secs),
            ..wily::server::DirectorConfig::default()
        }))
    }
}

#[derive(Subcommand)]
enum IcsAction {
    /// Print the settings reference as a Markdown table: every key declared in the
    /// settings code, with its default, its legal range and what it does.
    Keys,
    /// Print what a server sent as typed events, one JSON object a line: FILE is a wire
    /// log (`--wire-debug`) or a raw capture, `-` reads standard input.
    Replay {
        file: PathBuf,
        /// The server's dialect: fics or icc (icc reads level-2 datagrams).
        #[arg(long, default_value = "fics")]
        dialect: String,
        /// Print every ICC datagram instead (number, name, each field typed), announced
        /// game or not, with level-1 unit headers and the text lines between them.
        #[arg(long)]
        datagrams: bool,
    },
}

fn serve(
    port: u16,
    accounts: Option<PathBuf>,
    bind: std::net::IpAddr,
    auto_flag: bool,
    idle_minutes: Option<u64>,
    dialect: wily::ics::Dialect,
    director: &DirectorArgs,
) -> Result<(), String> {
    wily::server::serve_cli(
        port,
        accounts.as_deref(),
        bind,
        auto_flag,
        idle_minutes,
        dialect,
        director.config()?,
    )
    .map_err(|e| e.to_string())
}

/// `MIN+INC` (or `MIN INC`, `MIN`) as minutes and increment seconds.
fn parse_tc(tc: &str) -> Result<(u32, u32), String> {
    let mut parts = tc.split(['+', ' ']).filter(|p| !p.is_empty());
    let num = |p: Option<&str>| p.map(|x| x.trim().parse::<u32>());
    match (num(parts.next()), num(parts.next()), parts.next()) {
        (Some(Ok(b)), None, None) if b > 0 => Ok((b, 0)),
        (Some(Ok(b)), Some(Ok(i)), None) if b > 0 || i > 0 => Ok((b, i)),
        _ => Err(format!("--tc {tc:?}: expected MIN+INC, e.g. 1+0")),
    }
}

/// Crafty's path settings, given on the command line only: `bookpath=DIR` (the book
/// folder), `tbpath=DIR[:DIR...]` (Syzygy tablebases, console), `logpath=DIR` (log and
/// game files). Taken out of the arguments before clap reads the rest, with Crafty's `c`
/// as the first argument (`crafty c`: go on with the last game, as `--resume`).
#[derive(Default)]
struct CraftyPaths {
    book: Option<String>,
    tb: Option<String>,
    log: Option<String>,
    resume: bool,
}

fn crafty_paths(args: Vec<std::ffi::OsString>) -> (Vec<std::ffi::OsString>, CraftyPaths) {
    let mut paths = CraftyPaths::default();
    let mut rest = Vec::with_capacity(args.len());
    for (i, a) in args.into_iter().enumerate() {
        let text = a.to_str().map(str::to_string);
        match text.as_deref().and_then(|t| t.split_once('=')) {
            Some(("bookpath", v)) if i > 0 => paths.book = Some(v.to_string()),
            // Crafty also takes `tbpath=(A:B)`.
            Some(("tbpath", v)) if i > 0 => {
                paths.tb = Some(v.trim_start_matches('(').trim_end_matches(')').to_string())
            }
            Some(("logpath", v)) if i > 0 => paths.log = Some(v.to_string()),
            _ if i == 1 && text.as_deref() == Some("c") => paths.resume = true,
            _ => rest.push(a),
        }
    }
    (rest, paths)
}

fn main() -> ExitCode {
    // OpenBench's data-generation call: one command an argument (docs/nnue.md).
    let raw: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    if wily::tools::nnue::genfens::is_genfens_call(&raw) {
        return match wily::tools::nnue::genfens::run_commands(&raw, &mut std::io::stdout()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("wily: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let (args, paths) = crafty_paths(std::env::args_os().collect());
    let cli = Cli::parse_from(args);
    if let Some(dir) = &paths.book {
        std::env::set_var("WILY_BOOK_DIR", dir);
    }
    let log_dir = cli.log_dir.or(paths.log.map(PathBuf::from));
    let result = match cli.command {
        None => wily::protocol::console::run(wily::protocol::console::ConsoleOptions {
            resume: cli.resume || paths.resume,
            rc_file: cli.rc,
            log_dir,
            startup_commands: paths.tb.iter().map(|t| format!("tbpath {t}")).collect(),
        }),
        Some(Command::Perft {
            depth,
            fen,
            divide,
            suite,
            suite_depth,
        }) => {
            let mut out = std::io::stdout();
            match suite {
                Some(path) => wily::tools::perft::run_suite(
                    &path,
                    suite_depth.or(depth).unwrap_or(6),
                    &mut out,
                )
                .and_then(|(passed, total)| {
                    if passed == total {
                        Ok(())
                    } else {
                        Err(format!("{} of {total} positions failed", total - passed))
                    }
                }),
                None => wily::tools::perft::run_perft(
                    depth.or(suite_depth).unwrap_or(5),
                    fen.as_deref(),
                    divide,
                    &mut out,
                )
                .map(|_| ()),
            }
        }
        Some(Command::Bench {
            depth,
            threads,
            against,
            pairs,
            run_limit,
        }) => {
            let depth = depth.unwrap_or(wily::tools::bench::DEFAULT_DEPTH);
            match against {
                Some(other) => wily::tools::benchcmp::run_compare(
                    &other,
                    depth,
                    threads,
                    pairs,
                    std::time::Duration::from_secs(run_limit),
                    &mut std::io::stdout(),
                )
                .map(|_| ()),
                None => wily::tools::bench::run_bench(depth, threads, &mut std::io::stdout())
                    .map(|_| ()),
            }
        }
        Some(Command::Test {
            file,
            time,
            depth,
            nodes,
            threads,
            syzygy,
            early,
            eval_file,
            hce,
        }) => {
            let settings = wily::tools::testsuite::SuiteSettings {
                eval: match (eval_file, hce) {
                    (Some(f), _) => wily::tools::nnue::datagen::EvalChoice::File(f),
                    (None, true) => wily::tools::nnue::datagen::EvalChoice::Hce,
                    (None, false) => wily::tools::nnue::datagen::EvalChoice::Default,
                },
                time: time
                    .filter(|t| t.is_finite() && *t > 0.0)
                    .map(|t| std::time::Duration::from_secs_f64(t.min(86_400.0))),
                depth,
                nodes,
                threads,
                syzygy,
                early,
                ..Default::default()
            };
            wily::tools::testsuite::run_suite(&file, &settings, &mut std::io::stdout()).map(|_| ())
        }
        Some(Command::Mates { file, time, nodes }) => {
            let limits = match nodes {
                Some(n) => wily::engine::Limits::nodes(n),
                None => wily::engine::Limits::movetime(std::time::Duration::from_secs_f64(
                    time.clamp(0.001, 3600.0),
                )),
            };
            let settings = wily::tools::mates::MateSettings {
                attacker: limits.clone(),
                defender: limits,
                hash_mb: 16,
            };
            wily::tools::mates::run_file(&file, &settings, &mut std::io::stdout()).map(|_| ())
        }
        Some(Command::Datagen {
            out,
            games,
            nodes,
            threads,
            seed,
            book,
            random_plies,
            syzygy,
            hash,
            eval_file,
            hce,
        }) => {
            let defaults = wily::tools::nnue::datagen::DatagenSettings::default();
            let eval = match (eval_file, hce) {
                (Some(f), _) => wily::tools::nnue::datagen::EvalChoice::File(f),
                (None, true) => wily::tools::nnue::datagen::EvalChoice::Hce,
                (None, false) => wily::tools::nnue::datagen::EvalChoice::Default,
            };
            let settings = wily::tools::nnue::datagen::DatagenSettings {
                random_plies: random_plies.unwrap_or(if book.is_some() { 0 } else { 8 }),
                out,
                games,
                nodes: nodes.max(1),
                threads: threads.unwrap_or(defaults.threads).max(1),
                seed,
                book,
                syzygy,
                hash_mb: hash.clamp(1, 4096),
                eval,
                ..defaults
            };
            let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
            wily::tools::nnue::datagen::run(&settings, stop).map(|s| {
                println!(
                    "{} games, {} positions written to {} (resumed at game {})",
                    s.games,
                    s.positions,
                    settings.out.display(),
                    s.resumed_at
                )
            })
        }
        Some(Command::Nnue(cmd)) => wily::tools::nnue::cli::run_nnue(cmd),
        Some(Command::Uci { full }) => wily::protocol::uci::run(full),
        Some(Command::Xboard) => wily::protocol::xboard::run(log_dir),
        Some(Command::Book(cmd)) => wily::tools::book::run_book(cmd).map(|s| print!("{s}")),
        Some(Command::Books(cmd)) => wily::tools::book::run_books(cmd).map(|s| print!("{s}")),
        Some(Command::Learn(cmd)) => wily::tools::learn::run_learn(cmd).map(|s| print!("{s}")),
        Some(Command::Ics {
            action: Some(IcsAction::Keys),
            ..
        }) => {
            print!("{}", wily::config::Config::settings_table());
            Ok(())
        }
        Some(Command::Ics {
            action:
                Some(IcsAction::Replay {
                    file,
                    dialect,
                    datagrams,
                }),
            ..
        }) => wily::bot::replay::run(&file, &dialect, datagrams, &mut std::io::stdout().lock()),
        Some(Command::Ics {
            action: None,
            config,
            local,
            games,
            wire_debug,
            quiet,
        }) => wily::bot::run::app::ics_cli(wily::bot::run::app::IcsArgs {
            config,
            local,
            games,
            wire_debug,
            quiet,
            dashboard: Some(std::sync::Arc::new(|cfg, status, monitor| {
                let opts = wily::web::WebOptions::from_config(cfg)?;
                let server = wily::web::start_monitored(opts, status, Some(monitor))?;
                eprintln!("wily dashboard: http://{}/", server.addr());
                Ok(Box::new(server) as Box<dyn Send>)
            })),
        }),
        Some(Command::Match { args }) => wily_match::run_cli(&args),
        Some(Command::Spsa { args }) => wily_match::spsa::run_cli(&args),
        Some(Command::Tune(args)) => wily::tune::cli::run_tune(&args, &mut std::io::stdout()),
        Some(Command::Soak {
            games,
            pairs,
            tc,
            depth,
            seed,
            drops,
            cut_drops,
            adjourns,
            restarts,
            dir,
            minutes,
            dialect,
        }) => parse_tc(&tc).and_then(|(base, inc)| {
            let d = wily::soak::SoakOptions::for_games(games);
            wily::soak::soak_cli(wily::soak::SoakOptions {
                pairs,
                base,
                inc,
                depth,
                seed,
                drops: drops.unwrap_or(d.drops),
                cut_drops: cut_drops.unwrap_or(d.cut_drops),
                adjourns: adjourns.unwrap_or(d.adjourns),
                restarts,
                dir,
                time_limit: std::time::Duration::from_secs(minutes.saturating_mul(60)),
                dialect,
                ..d
            })
        }),
        Some(Command::Serve {
            port,
            accounts,
            bind,
            auto_flag,
            idle_minutes,
            dialect,
            director,
        }) => serve(
            port,
            accounts,
            bind,
            auto_flag,
            idle_minutes,
            dialect,
            &director,
        ),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("wily: {e}");
            ExitCode::FAILURE
        }
    }
}
