//! `wily nnue ...`: the command line of the network tools (`main.rs` routes here).

use super::train::{run, TrainSettings};
use clap::Subcommand;
use std::path::PathBuf;

/// `wily nnue` subcommands.
#[derive(Subcommand, Debug)]
pub enum NnueCmd {
    /// Train a network on `wily datagen` position files and write its file.
    Train {
        /// Position files (`*.wpos`).
        #[arg(required = true)]
        data: Vec<PathBuf>,
        /// The network file written.
        #[arg(long, default_value = "wily.wnn")]
        out: PathBuf,
        #[arg(long, default_value_t = 10)]
        epochs: usize,
        /// Positions per batch.
        #[arg(long, default_value_t = 16384)]
        batch: usize,
        /// Adam's learning rate.
        #[arg(long, default_value_t = 0.001)]
        lr: f32,
        /// Weight of the game result in the target, 0..=1 (the rest is the score).
        #[arg(long, default_value_t = 0.3)]
        wdl: f32,
        /// Threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

/// Runs a `wily nnue` subcommand, printing its progress.
pub fn run_nnue(cmd: NnueCmd) -> Result<(), String> {
    match cmd {
        NnueCmd::Train {
            data,
            out,
            epochs,
            batch,
            lr,
            wdl,
            threads,
            seed,
        } => {
            let defaults = TrainSettings::default();
            let s = TrainSettings {
                data,
                out,
                epochs,
                batch: batch.max(1),
                lr,
                wdl,
                threads: threads.unwrap_or(defaults.threads).max(1),
                seed,
            };
            let summary = run(&s, &mut |r| {
                let v = r
                    .validation_loss
                    .map_or_else(String::new, |v| format!(", validation loss {v:.6}"));
                println!(
                    "epoch {:>3}: train loss {:.6}{v} ({:.1} s)",
                    r.epoch, r.train_loss, r.seconds
                );
            })?;
            println!(
                "trained on {} positions ({} held out); wrote {}",
                summary.positions,
                summary.validation,
                s.out.display()
            );
            Ok(())
        }
    }
}
