//! `wily nnue train`: fits the network to positions written by `wily datagen` (or
//! converted by `wily nnue convert`) and writes the quantised network file the engine
//! loads.
//!
//! The loss is the squared error in win-probability space: the network's output in
//! centipawns through a sigmoid, `sigmoid(cp / scale)`, against a blend of the
//! position's score through the same sigmoid and the game's result, `wdl * result +
//! (1 - wdl) * sigmoid(score / scale)`. The scale is fitted to the data unless given
//! (`scale.rs` says why it matters); the network's output stays `SCALE` centipawns a
//! unit whatever the loss's scale, so the engine reads every network alike. Adam updates every parameter after each batch, with the
//! learning rate following the schedule (cosine from `lr` to `lr_final`, or steps); a
//! batch's gradient is summed over its positions by all threads at once (each thread its
//! own share and gradient buffer, added in a fixed order, so a run is the same for the
//! same seed and thread count).
//!
//! Every position of every file is shuffled together each epoch (the order of epoch `e`
//! comes from the seed and `e` alone, so a resumed run continues the same sequence).
//! Whole games are held out for validation: a game goes to the validation set when a
//! hash of its file and game number says so (one game in twenty), so no position of a
//! validation game is trained on. After each epoch the network and the optimiser's
//! state are written to a checkpoint (`OUT.ckpt`, atomically); `--resume` continues from
//! it. The network file holds the network of the epoch with the lowest validation loss
//! so far (a network that starts to learn its games by heart is not kept). A loss that
//! becomes NaN, or an epoch whose training loss is more than twice the
//! best so far, stops the run with a message, and the network file keeps the last good
//! epoch's network. With `mirror` (the default) half the positions of each epoch are
//! shown flipped left to right, the same position for a network that sees no castling
//! rights: twice the data for the price of none.

use super::checkpoint::Checkpoint;
use super::data::Record;
use super::net::{sigmoid, FloatNet, Sample, Scratch};
use super::read::read_records_lenient;
use super::scale::{fit_scale, SCALE_RANGE};
use engine::nnue::{Activation, Arch, SCALE};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::path::PathBuf;
use std::time::Instant;

/// How the learning rate falls over the run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Schedule {
    /// From `lr` at the first batch to `lr_final` at the last, along half a cosine.
    Cosine,
    /// `lr` times `gamma` for every `every` epochs done.
    Step { every: usize, gamma: f32 },
    /// `lr` throughout.
    Constant,
}

impl Schedule {
    /// `cosine`, `constant`, or `step:EVERY:GAMMA` (e.g. `step:4:0.3`).
    pub fn parse(s: &str) -> Result<Schedule, String> {
        match s.split(':').collect::<Vec<_>>().as_slice() {
            ["cosine"] => Ok(Schedule::Cosine),
            ["constant"] => Ok(Schedule::Constant),
            ["step", every, gamma] => {
                let every: usize =
                    every.parse().ok().filter(|&e| e > 0).ok_or_else(|| {
                        format!("--schedule {s}: EVERY must be a positive number")
                    })?;
                let gamma: f32 = gamma
                    .parse()
                    .ok()
                    .filter(|g: &f32| *g > 0.0 && *g <= 1.0)
                    .ok_or_else(|| format!("--schedule {s}: GAMMA must be in (0, 1]"))?;
                Ok(Schedule::Step { every, gamma })
            }
            _ => Err(format!(
                "--schedule {s}: expected cosine, constant or step:EVERY:GAMMA"
            )),
        }
    }

    /// The learning rate at `progress` (0 first batch .. 1 end) of a run of `epochs`,
    /// in epoch `epoch` (1-based).
    pub fn rate(&self, lr: f32, lr_final: f32, epoch: usize, progress: f64) -> f32 {
        match *self {
            Schedule::Cosine => {
                let c = 0.5 * (1.0 + (std::f64::consts::PI * progress.clamp(0.0, 1.0)).cos());
                (f64::from(lr_final) + (f64::from(lr) - f64::from(lr_final)) * c) as f32
            }
            Schedule::Step { every, gamma } => lr * gamma.powi(((epoch - 1) / every) as i32),
            Schedule::Constant => lr,
        }
    }
}

/// What `wily nnue train` does.
#[derive(Clone, Debug)]
pub struct TrainSettings {
    pub data: Vec<PathBuf>,
    pub out: PathBuf,
    pub arch: Arch,
    pub epochs: usize,
    pub batch: usize,
    pub lr: f32,
    pub lr_final: f32,
    pub schedule: Schedule,
    /// Weight of the game result in the target (0: score only, 1: result only).
    pub wdl: f32,
    /// Centipawns of the loss's sigmoid (`sigmoid(cp / scale)`); `None`: fitted to the
    /// data's scores and results.
    pub scale: Option<f32>,
    pub threads: usize,
    pub seed: u64,
    /// Continue from `OUT.ckpt`.
    pub resume: bool,
    /// Show half the positions mirrored left to right (a different half each epoch).
    pub mirror: bool,
    pub progress: bool,
}

impl Default for TrainSettings {
    fn default() -> Self {
        TrainSettings {
            data: Vec::new(),
            out: PathBuf::from("wily.wnn"),
            arch: Arch {
                hidden: 256,
                activation: Activation::SCRelu,
                buckets: 8,
            },
            epochs: 20,
            batch: 16384,
            lr: 0.001,
            lr_final: 0.00003,
            schedule: Schedule::Cosine,
            wdl: 0.3,
            scale: None,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            seed: 1,
            resume: false,
            mirror: true,
            progress: false,
        }
    }
}

/// One epoch's figures.
#[derive(Clone, Debug)]
pub struct EpochReport {
    pub epoch: usize,
    pub train_loss: f64,
    /// `None` without validation positions.
    pub validation_loss: Option<f64>,
    pub lr: f32,
    pub seconds: f64,
}

/// What the checkpoint callback is told after a good epoch.
pub struct Saved<'a> {
    pub checkpoint: &'a Checkpoint,
    /// The epoch's validation loss is the lowest so far (or there is no validation).
    pub best: bool,
}

/// A training run's outcome.
#[derive(Clone, Debug)]
pub struct TrainSummary {
    pub positions: usize,
    pub validation: usize,
    pub epochs: Vec<EpochReport>,
    pub net: FloatNet,
    /// The loss's scale, centipawns (given or fitted).
    pub scale: f32,
    /// The network of the epoch with the lowest validation loss (the last good epoch's
    /// without validation positions). Why the run stopped early, if it did.
    pub stopped: Option<String>,
}

/// The sample of a record with target blend `wdl`, the score through a sigmoid of
/// `scale` centipawns.
pub fn sample_of(r: &Record, wdl: f32, scale: f32) -> Sample {
    let score = sigmoid(f32::from(r.score) / scale);
    Sample {
        occupied: r.occupied,
        pieces: r.pieces,
        black_to_move: r.black_to_move,
        target: wdl * r.outcome.value() + (1.0 - wdl) * score,
    }
}

/// Adam's state.
#[derive(Clone, Debug)]
pub struct Adam {
    pub m: Vec<f32>,
    pub v: Vec<f32>,
    pub t: i32,
}

impl Adam {
    pub fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            t: 0,
        }
    }

    fn step(&mut self, params: &mut [f32], grad: &[f32], lr: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        for (((p, &g), m), v) in params
            .iter_mut()
            .zip(grad)
            .zip(self.m.iter_mut())
            .zip(self.v.iter_mut())
        {
            *m = B1 * *m + (1.0 - B1) * g;
            *v = B2 * *v + (1.0 - B2) * g * g;
            *p -= lr * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
        }
    }
}

/// The factor from the network's output to the loss's sigmoid: `SCALE / scale`.
pub fn loss_factor(scale: f32) -> f32 {
    SCALE as f32 / scale
}

/// Mean loss of `net` over `samples` (its output times `k` through the sigmoid), on
/// `threads` threads.
pub fn mean_loss(net: &FloatNet, samples: &[Sample], threads: usize, k: f32) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let chunk = samples.len().div_ceil(threads.max(1));
    let total: f64 = std::thread::scope(|sc| {
        let hs: Vec<_> = samples
            .chunks(chunk)
            .map(|part| {
                sc.spawn(move || {
                    let mut scratch = Scratch::default();
                    part.iter()
                        .map(|s| {
                            let y = sigmoid(k * net.forward(s, &mut scratch));
                            f64::from((y - s.target).powi(2))
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap_or(f64::NAN)).sum()
    });
    total / samples.len() as f64
}

/// Whether a game (file index, game number) is held out for validation.
pub fn held_out(file: usize, game: u32) -> bool {
    let mut h = (file as u64) << 32 | u64::from(game);
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^= h >> 33;
    h.is_multiple_of(20)
}

/// Trains on `samples`, checking the loss on `held`, reporting each epoch; starts from
/// `start` (a checkpoint) when given. `checkpoint` is called after each good epoch.
pub fn train_samples(
    samples: &[Sample],
    held: &[Sample],
    s: &TrainSettings,
    start: Option<Checkpoint>,
    report: &mut dyn FnMut(&EpochReport),
    checkpoint: &mut dyn FnMut(Saved) -> Result<(), String>,
) -> Result<TrainSummary, String> {
    let (mut net, mut adam, first_epoch, mut best, mut best_validation) = match start {
        Some(c) => (c.net, c.adam, c.epoch + 1, c.best_loss, c.best_validation),
        None => {
            let mut rng = StdRng::seed_from_u64(s.seed);
            let net = FloatNet::random(s.arch, &mut rng);
            let n = net.params.len();
            (net, Adam::new(n), 1, f64::INFINITY, f64::INFINITY)
        }
    };
    let scale = s.scale.unwrap_or(SCALE as f32);
    let k = loss_factor(scale);
    let threads = s.threads.max(1);
    let batch = s.batch.max(1);
    let n_params = net.params.len();
    let mut grads: Vec<Vec<f32>> = vec![vec![0.0; n_params]; threads];
    let mut epochs = Vec::new();
    let batches_per_epoch = samples.len().div_ceil(batch).max(1);
    let total_batches = (batches_per_epoch * s.epochs.max(1)) as f64;
    let mut good = net.clone();
    let mut stopped = None;
    let mut order: Vec<u32> = Vec::with_capacity(samples.len());
    for epoch in first_epoch..=s.epochs {
        let start = Instant::now();
        // Each epoch's order depends on the seed and the epoch alone.
        let mut rng = StdRng::seed_from_u64(s.seed ^ (epoch as u64).wrapping_mul(0x9e37_79b9));
        order.clear();
        order.extend(0..samples.len() as u32);
        order.shuffle(&mut rng);
        let bar = s.progress.then(|| {
            let b = indicatif::ProgressBar::new(batches_per_epoch as u64);
            b.set_style(
                indicatif::ProgressStyle::with_template(
                    "epoch {msg} [{bar:40}] {pos}/{len} batches ({eta})",
                )
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
            );
            b.set_message(format!("{epoch}/{}", s.epochs));
            b
        });
        let mut loss_sum = 0f64;
        let mut lr = s.lr;
        for (bi, b) in order.chunks(batch).enumerate() {
            let done = ((epoch - 1) * batches_per_epoch + bi) as f64;
            lr = s
                .schedule
                .rate(s.lr, s.lr_final, epoch, done / total_batches);
            let part = b.len().div_ceil(threads);
            let netr = &net;
            let losses: Vec<f64> = std::thread::scope(|sc| {
                let hs: Vec<_> = b
                    .chunks(part)
                    .zip(grads.iter_mut())
                    .map(|(chunk, g)| {
                        sc.spawn(move || {
                            g.fill(0.0);
                            let mut scratch = Scratch::default();
                            chunk
                                .iter()
                                .map(|&i| {
                                    // Half the positions, a different half each
                                    // epoch, are seen mirrored left to right.
                                    let mirror = s.mirror && (i as usize ^ epoch) & 1 == 1;
                                    f64::from(netr.backward(
                                        &samples[i as usize],
                                        mirror,
                                        k,
                                        g,
                                        &mut scratch,
                                    ))
                                })
                                .sum::<f64>()
                        })
                    })
                    .collect();
                hs.into_iter()
                    .map(|h| h.join().unwrap_or(f64::NAN))
                    .collect()
            });
            let used = b.len().div_ceil(part);
            loss_sum += losses.iter().sum::<f64>();
            let (first, rest) = grads.split_at_mut(1);
            let total = &mut first[0];
            for g in rest.iter().take(used.saturating_sub(1)) {
                for (t, x) in total.iter_mut().zip(g.iter()) {
                    *t += x;
                }
            }
            let inv = 1.0 / b.len() as f32;
            for t in total.iter_mut() {
                *t *= inv;
            }
            adam.step(&mut net.params, total, lr);
            net.clip();
            if let Some(bar) = &bar {
                bar.inc(1);
            }
        }
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        let train_loss = loss_sum / samples.len().max(1) as f64;
        let validation_loss = (!held.is_empty()).then(|| mean_loss(&net, held, threads, k));
        let r = EpochReport {
            epoch,
            train_loss,
            validation_loss,
            lr,
            seconds: start.elapsed().as_secs_f64(),
        };
        report(&r);
        epochs.push(r);
        if !train_loss.is_finite()
            || !net.is_finite()
            || validation_loss.is_some_and(|v| !v.is_finite())
        {
            stopped = Some(format!(
                "epoch {epoch}: the loss is not a number; stopped, keeping epoch {}'s network",
                epoch - 1
            ));
            break;
        }
        if train_loss > 2.0 * best {
            stopped = Some(format!(
                "epoch {epoch}: the training loss {train_loss:.6} is more than twice the best \
                 ({best:.6}), the run diverges; stopped, keeping epoch {}'s network",
                epoch - 1
            ));
            break;
        }
        best = best.min(train_loss);
        let improved = validation_loss.is_none_or(|v| v < best_validation);
        if let Some(v) = validation_loss {
            best_validation = best_validation.min(v);
        }
        if improved {
            good = net.clone();
        }
        checkpoint(Saved {
            checkpoint: &Checkpoint {
                net: net.clone(),
                adam: adam.clone(),
                epoch,
                best_loss: best,
                best_validation,
                seed: s.seed,
            },
            best: improved,
        })?;
    }
    Ok(TrainSummary {
        positions: samples.len(),
        validation: held.len(),
        epochs,
        net: good,
        scale,
        stopped,
    })
}

/// Reads every file's records into training and validation samples (whole games held
/// out), warning about damaged records; the scale is `s.scale` or, without one, fitted
/// to the training records. Returns the samples and the scale.
pub fn load(s: &TrainSettings) -> Result<(Vec<Sample>, Vec<Sample>, f32), String> {
    let mut train_records = Vec::new();
    let mut held_records = Vec::new();
    for (i, p) in s.data.iter().enumerate() {
        let (records, skipped) = read_records_lenient(p)?;
        if skipped > 0 {
            eprintln!(
                "warning: {}: skipped {skipped} damaged records",
                p.display()
            );
        }
        for r in records {
            if held_out(i, r.game) {
                held_records.push(r);
            } else {
                train_records.push(r);
            }
        }
    }
    let scale = match s.scale {
        Some(scale) => scale,
        None => fit_scale(&train_records).unwrap_or(SCALE as f32),
    };
    let train: Vec<Sample> = train_records
        .iter()
        .map(|r| sample_of(r, s.wdl, scale))
        .collect();
    drop(train_records);
    let mut held: Vec<Sample> = held_records
        .iter()
        .map(|r| sample_of(r, s.wdl, scale))
        .collect();
    // Validation is a check, not a second training set: at most 200 000 positions.
    if held.len() > 200_000 {
        let mut rng = StdRng::seed_from_u64(s.seed);
        held.shuffle(&mut rng);
        held.truncate(200_000);
    }
    Ok((train, held, scale))
}

/// `wily nnue train`: reads the data, trains, writes the network file.
pub fn run(
    s: &TrainSettings,
    report: &mut dyn FnMut(&EpochReport),
) -> Result<TrainSummary, String> {
    if s.data.is_empty() {
        return Err("no position file given".into());
    }
    if !(0.0..=1.0).contains(&s.wdl) {
        return Err(format!("--wdl {} is not between 0 and 1", s.wdl));
    }
    if let Some(scale) = s.scale {
        let (lo, hi) = SCALE_RANGE;
        if !(lo..=hi).contains(&scale) {
            return Err(format!("--scale {scale}: expected {lo}..={hi} centipawns"));
        }
    }
    s.arch.check()?;
    let ckpt_path = Checkpoint::path_for(&s.out);
    let start = if s.resume {
        let c = Checkpoint::load(&ckpt_path)?;
        if c.net.arch != s.arch {
            return Err(format!(
                "{}: the checkpoint's network is {}, not the {} asked for",
                ckpt_path.display(),
                c.net.arch,
                s.arch
            ));
        }
        if c.seed != s.seed {
            return Err(format!(
                "{}: the checkpoint was made with --seed {}, not {}",
                ckpt_path.display(),
                c.seed,
                s.seed
            ));
        }
        Some(c)
    } else {
        None
    };
    let (samples, held, scale) = load(s)?;
    if samples.is_empty() {
        return Err("the position files hold no position to train on".into());
    }
    let s = &TrainSettings {
        scale: Some(scale),
        ..s.clone()
    };
    let summary = train_samples(&samples, &held, s, start, report, &mut |saved| {
        saved.checkpoint.save(&ckpt_path)?;
        if saved.best {
            saved.checkpoint.net.quantise().save(&s.out)?;
        }
        Ok(())
    })?;
    if summary.epochs.is_empty() {
        return Err(format!(
            "nothing to do: the checkpoint has all {} epochs already",
            s.epochs
        ));
    }
    Ok(summary)
}

#[cfg(test)]
mod tests;
