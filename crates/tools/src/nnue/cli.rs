//! `wily nnue ...`: the command line of the network tools (`main.rs` routes here).

use super::train::{run, Schedule, TrainSettings};
use clap::Subcommand;
use engine::nnue::{Activation, Arch};
use std::path::PathBuf;

/// `wily nnue` subcommands.
#[derive(Subcommand, Debug)]
pub enum NnueCmd {
    /// Turn PGN games with runners' score comments (fastchess, cutechess, OpenBench:
    /// `{+0.35/12 0.1s}`) into a position file for `wily nnue train`.
    Convert {
        /// PGN files.
        #[arg(required = true)]
        pgn: Vec<PathBuf>,
        /// The position file written (replaced when complete).
        #[arg(long)]
        out: PathBuf,
    },
    /// Train a network on `wily datagen` position files and write its file.
    Train {
        /// Position files (`*.wpos`).
        #[arg(required = true)]
        data: Vec<PathBuf>,
        /// The network file written.
        #[arg(long, default_value = "wily.wnn")]
        out: PathBuf,
        #[arg(long, default_value_t = 20)]
        epochs: usize,
        /// Hidden units per perspective (a multiple of 32: 128, 256, 512 ...).
        #[arg(long, default_value_t = 256)]
        hidden: usize,
        /// The hidden layer's activation: `screlu` (squared clipped ReLU) or `crelu`.
        #[arg(long, default_value = "screlu")]
        activation: String,
        /// Output buckets by the number of pieces on the board (1: none).
        #[arg(long, default_value_t = 8)]
        buckets: usize,
        /// Positions per batch.
        #[arg(long, default_value_t = 16384)]
        batch: usize,
        /// Adam's learning rate at the start.
        #[arg(long, default_value_t = 0.001)]
        lr: f32,
        /// The learning rate at the end (the cosine schedule's floor).
        #[arg(long, default_value_t = 0.00003)]
        lr_final: f32,
        /// How the learning rate falls: `cosine` (from --lr to --lr-final), `constant`,
        /// or `step:EVERY:GAMMA` (times GAMMA every EVERY epochs).
        #[arg(long, default_value = "cosine")]
        schedule: String,
        /// Weight of the game result in the target, 0..=1 (the rest is the score).
        #[arg(long, default_value_t = 0.3)]
        wdl: f32,
        /// Centipawns of the loss's sigmoid, or `auto`: fitted to the data's scores and
        /// results (docs/nnue.md).
        #[arg(long, default_value = "auto")]
        scale: String,
        /// Threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Continue an interrupted run from its checkpoint (`OUT.ckpt`).
        #[arg(long)]
        resume: bool,
        /// Never show positions mirrored left to right.
        #[arg(long)]
        no_mirror: bool,
        /// No progress bar.
        #[arg(long)]
        quiet: bool,
    },
}

/// Runs a `wily nnue` subcommand, printing its progress.
pub fn run_nnue(cmd: NnueCmd) -> Result<(), String> {
    match cmd {
        NnueCmd::Convert { pgn, out } => {
            let s = super::convert::convert(&pgn, &out)?;
            println!(
                "{} games, {} positions written to {} ({} games skipped)",
                s.games,
                s.positions,
                out.display(),
                s.skipped_games
            );
            Ok(())
        }
        NnueCmd::Train {
            data,
            out,
            epochs,
            hidden,
            activation,
            buckets,
            batch,
            lr,
            lr_final,
            schedule,
            wdl,
            scale,
            threads,
            seed,
            resume,
            no_mirror,
            quiet,
        } => {
            let scale = match scale.as_str() {
                "auto" => None,
                cp => Some(cp.parse::<f32>().map_err(|_| {
                    format!("--scale {cp}: expected a number of centipawns or auto")
                })?),
            };
            let defaults = TrainSettings::default();
            let activation = Activation::parse(&activation)
                .ok_or_else(|| format!("--activation {activation}: expected screlu or crelu"))?;
            let s = TrainSettings {
                data,
                out,
                arch: Arch {
                    hidden,
                    activation,
                    buckets,
                },
                epochs,
                batch: batch.max(1),
                lr,
                lr_final,
                schedule: Schedule::parse(&schedule)?,
                wdl,
                scale,
                threads: threads.unwrap_or(defaults.threads).max(1),
                seed,
                resume,
                mirror: !no_mirror,
                progress: !quiet,
            };
            println!("training a {} network", s.arch);
            let summary = run(&s, &mut |r| {
                let v = r
                    .validation_loss
                    .map_or_else(String::new, |v| format!(", validation loss {v:.6}"));
                println!(
                    "epoch {:>3}: train loss {:.6}{v}, lr {:.2e} ({:.1} s)",
                    r.epoch, r.train_loss, r.lr, r.seconds
                );
            })?;
            println!(
                "trained on {} positions ({} held out), loss scale {:.0} cp{}; wrote {}",
                summary.positions,
                summary.validation,
                summary.scale,
                if s.scale.is_none() { " (fitted)" } else { "" },
                s.out.display()
            );
            if let Some(why) = summary.stopped {
                return Err(why);
            }
            Ok(())
        }
    }
}
