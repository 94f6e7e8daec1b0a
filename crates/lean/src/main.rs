//! The lean engine binary, `wily-lean`: what `make EXE=NAME` builds for OpenBench (and what
//! a UCI GUI or match runner needs), without the chess-server bot, its server, the
//! dashboard or the learning store. Started without arguments it speaks UCI on
//! stdin/stdout; `bench [DEPTH [THREADS]]` prints the search benchmark as `wily bench`
//! does (its last line, `<nodes> nodes <nps> nps`, the bench signature); `uci [--full]` is
//! `wily uci [--full]`. OpenBench's data-generation call, one command an argument
//! (`wily-lean "setoption name EvalFile value NET" "genfens N seed S book None" "quit"`),
//! prints `info string genfens FEN` lines as `wily` does (docs/nnue.md). The full program
//! is the `wily` binary.

use std::process::ExitCode;

const USAGE: &str = "usage: wily-lean [uci [--full] | bench [DEPTH [THREADS]]]";

fn number<T: std::str::FromStr>(arg: Option<&String>, what: &str) -> Result<Option<T>, String> {
    arg.map(|a| {
        a.parse()
            .map_err(|_| format!("{what} {a:?}: not a number; {USAGE}"))
    })
    .transpose()
}

fn run(args: &[String]) -> Result<(), String> {
    if tools::nnue::genfens::is_genfens_call(args) {
        return tools::nnue::genfens::run_commands(args, &mut std::io::stdout());
    }
    match args.first().map(String::as_str) {
        None => uci::run(false),
        Some("uci") => match &args[1..] {
            [] => uci::run(false),
            [full] if full == "--full" => uci::run(true),
            _ => Err(USAGE.to_string()),
        },
        Some("bench") if args.len() <= 3 => {
            let depth = number(args.get(1), "depth")?.unwrap_or(tools::bench::DEFAULT_DEPTH);
            let threads = number(args.get(2), "threads")?.unwrap_or(1);
            tools::bench::run_bench(depth, threads, &mut std::io::stdout()).map(|_| ())
        }
        Some(_) => Err(USAGE.to_string()),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("wily-lean: {e}");
            ExitCode::FAILURE
        }
    }
}
