//! Streams a PGN file through wily's reader and replays every game, printing counts and
//! timings: `cargo run --release --example pgn_stream [FILE.pgn]` (default: the shared
//! masters file under `$WILY_SHARED` or `../shared`).

use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;
use std::time::Instant;
use wily_chess::pgn::PgnReader;

fn main() {
    let path = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let shared = std::env::var_os("WILY_SHARED")
                .map(PathBuf::from)
                .unwrap_or_else(|| {
                    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared")
                });
            shared.join("data/pgn/masters-2400.pgn")
        });
    let file = match File::open(&path) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("cannot open {}: {e}", path.display());
            std::process::exit(1);
        }
    };
    let t0 = Instant::now();
    let (mut games, mut read_errors, mut replay_errors, mut plies) = (0u64, 0u64, 0u64, 0u64);
    let mut read_time = 0.0;
    let mut replay_time = 0.0;
    let mut reader = PgnReader::new(BufReader::with_capacity(1 << 16, file));
    loop {
        let t = Instant::now();
        let Some(item) = reader.next() else { break };
        read_time += t.elapsed().as_secs_f64();
        match item {
            Ok(game) => {
                games += 1;
                let t = Instant::now();
                match game.replay() {
                    Ok(pos) => plies += pos.ply() as u64,
                    Err(e) => {
                        replay_errors += 1;
                        if replay_errors <= 5 {
                            eprintln!("game at line {}: {e}", game.line);
                        }
                    }
                }
                replay_time += t.elapsed().as_secs_f64();
            }
            Err(e) => {
                read_errors += 1;
                if read_errors <= 5 {
                    eprintln!("{e}");
                }
            }
        }
    }
    let total = t0.elapsed().as_secs_f64();
    println!("games {games} read_errors {read_errors} replay_errors {replay_errors} plies {plies}");
    println!(
        "read {read_time:.2}s replay {replay_time:.2}s total {total:.2}s ({:.0} games/s)",
        games as f64 / total.max(1e-9)
    );
}
