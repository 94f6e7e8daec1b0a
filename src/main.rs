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
    /// Reload the last game's moves (as `crafty c`).
    #[arg(long)]
    resume: bool,
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
    },
    /// Run an EPD test suite (bm/am) and print `solved K/N`.
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
    },
    /// Speak the UCI protocol on stdin/stdout.
    Uci,
}

/// No subcommand: commands on stdin. A first line `uci` switches to the UCI protocol.
fn stdin_front_end() -> Result<(), String> {
    let mut first = String::new();
    match std::io::stdin().read_line(&mut first) {
        Ok(0) => Ok(()),
        Ok(_) if first.trim() == "uci" => wily::protocol::uci::run_with_first_line(first),
        Ok(_) => Err(format!(
            "unknown first command '{}' (the console is not built yet; send 'uci')",
            first.trim()
        )),
        Err(e) => Err(format!("reading stdin: {e}")),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => {
            let _ = cli.resume;
            stdin_front_end()
        }
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
        Some(Command::Bench { depth, threads }) => wily::tools::bench::run_bench(
            depth.unwrap_or(wily::tools::bench::DEFAULT_DEPTH),
            threads,
            &mut std::io::stdout(),
        )
        .map(|_| ()),
        Some(Command::Test {
            file,
            time,
            depth,
            nodes,
            threads,
        }) => {
            let settings = wily::tools::testsuite::SuiteSettings {
                time: time
                    .filter(|t| t.is_finite() && *t > 0.0)
                    .map(|t| std::time::Duration::from_secs_f64(t.min(86_400.0))),
                depth,
                nodes,
                threads,
                ..Default::default()
            };
            wily::tools::testsuite::run_suite(&file, &settings, &mut std::io::stdout()).map(|_| ())
        }
        Some(Command::Uci) => wily::protocol::uci::run(),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("wily: {e}");
            ExitCode::FAILURE
        }
    }
}
