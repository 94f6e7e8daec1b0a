//! `wily nnue train`: fits the network to positions written by `wily datagen` and writes
//! the quantised network file the engine loads.
//!
//! The loss is the squared error in win-probability space: the network's output through
//! a sigmoid (output 1 = `SCALE` centipawns) against a blend of the position's score
//! through the same sigmoid and the game's result, `wdl * result + (1 - wdl) *
//! sigmoid(score / SCALE)`. Adam updates every parameter after each batch; a batch's
//! gradient is summed over its positions by all threads at once (each thread its own
//! share and gradient buffer). A twentieth of the positions (at most 100 000) is kept
//! out of training to report a validation loss each epoch.

use super::data::{read_records, Record};
use super::net::{sigmoid, FloatNet, Sample, PARAMS};
use engine::nnue::features::feature_index;
use engine::nnue::SCALE;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::path::PathBuf;
use std::time::Instant;

/// What `wily nnue train` does.
#[derive(Clone, Debug)]
pub struct TrainSettings {
    pub data: Vec<PathBuf>,
    pub out: PathBuf,
    pub epochs: usize,
    pub batch: usize,
    pub lr: f32,
    /// Weight of the game result in the target (0: score only, 1: result only).
    pub wdl: f32,
    pub threads: usize,
    pub seed: u64,
}

impl Default for TrainSettings {
    fn default() -> Self {
        TrainSettings {
            data: Vec::new(),
            out: PathBuf::from("wily.wnn"),
            epochs: 10,
            batch: 16384,
            lr: 0.001,
            wdl: 0.3,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            seed: 1,
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
    pub seconds: f64,
}

/// A training run's outcome.
#[derive(Clone, Debug)]
pub struct TrainSummary {
    pub positions: usize,
    pub validation: usize,
    pub epochs: Vec<EpochReport>,
    pub net: FloatNet,
}

/// The sample of a record with target blend `wdl`.
pub fn sample_of(r: &Record, wdl: f32) -> Sample {
    let stm = usize::from(r.black_to_move);
    let mut s = Sample {
        us: [0; 32],
        them: [0; 32],
        n: 0,
        target: 0.0,
    };
    for (i, (c, p, sq)) in r.placements().enumerate().take(32) {
        s.us[i] = feature_index(stm, c, p, sq) as u16;
        s.them[i] = feature_index(1 - stm, c, p, sq) as u16;
        s.n = i as u8 + 1;
    }
    let score = sigmoid(f32::from(r.score) / SCALE as f32);
    s.target = wdl * r.outcome.value() + (1.0 - wdl) * score;
    s
}

/// Adam's state.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl Adam {
    #[allow(clippy::needless_range_loop)]
    fn step(&mut self, params: &mut [f32], grad: &[f32], lr: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        for i in 0..params.len() {
            let g = grad[i];
            self.m[i] = B1 * self.m[i] + (1.0 - B1) * g;
            self.v[i] = B2 * self.v[i] + (1.0 - B2) * g * g;
            params[i] -= lr * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + 1e-8);
        }
    }
}

/// Mean loss of `net` over `samples`, on `threads` threads.
pub fn mean_loss(net: &FloatNet, samples: &[Sample], threads: usize) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let chunk = samples.len().div_ceil(threads.max(1));
    let total: f64 = std::thread::scope(|sc| {
        let hs: Vec<_> = samples
            .chunks(chunk)
            .map(|part| {
                sc.spawn(move || {
                    part.iter()
                        .map(|s| f64::from((sigmoid(net.forward(s)) - s.target).powi(2)))
                        .sum::<f64>()
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap_or(0.0)).sum()
    });
    total / samples.len() as f64
}

/// Trains on `samples` (shuffled and split here), reporting each epoch.
pub fn train_samples(
    mut samples: Vec<Sample>,
    s: &TrainSettings,
    report: &mut dyn FnMut(&EpochReport),
) -> TrainSummary {
    let mut rng = StdRng::seed_from_u64(s.seed);
    samples.shuffle(&mut rng);
    let validation = if samples.len() >= 1000 {
        (samples.len() / 20).min(100_000)
    } else {
        0
    };
    let held = samples.split_off(samples.len() - validation);
    let mut net = FloatNet::random(&mut rng);
    let mut adam = Adam {
        m: vec![0.0; PARAMS],
        v: vec![0.0; PARAMS],
        t: 0,
    };
    let threads = s.threads.max(1);
    let batch = s.batch.max(1);
    let mut grads: Vec<Vec<f32>> = vec![vec![0.0; PARAMS]; threads];
    let mut epochs = Vec::new();
    for epoch in 1..=s.epochs {
        let start = Instant::now();
        samples.shuffle(&mut rng);
        let mut loss_sum = 0f64;
        for b in samples.chunks(batch) {
            let part = b.len().div_ceil(threads);
            let netr = &net;
            let losses: Vec<f64> = std::thread::scope(|sc| {
                let hs: Vec<_> = b
                    .chunks(part)
                    .zip(grads.iter_mut())
                    .map(|(chunk, g)| {
                        sc.spawn(move || {
                            g.fill(0.0);
                            chunk
                                .iter()
                                .map(|x| f64::from(netr.backward(x, g)))
                                .sum::<f64>()
                        })
                    })
                    .collect();
                hs.into_iter().map(|h| h.join().unwrap_or(0.0)).collect()
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
            adam.step(&mut net.params, total, s.lr);
            net.clip();
        }
        let r = EpochReport {
            epoch,
            train_loss: loss_sum / samples.len().max(1) as f64,
            validation_loss: (!held.is_empty()).then(|| mean_loss(&net, &held, threads)),
            seconds: start.elapsed().as_secs_f64(),
        };
        report(&r);
        epochs.push(r);
    }
    TrainSummary {
        positions: samples.len(),
        validation,
        epochs,
        net,
    }
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
    let mut samples = Vec::new();
    for p in &s.data {
        for r in read_records(p)? {
            samples.push(sample_of(&r, s.wdl));
        }
    }
    if samples.is_empty() {
        return Err("the position files hold no position".into());
    }
    let summary = train_samples(samples, s, report);
    summary.net.quantise().save(&s.out)?;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::super::data::Outcome;
    use super::*;
    use cozy_chess::Board;
    use engine::nnue::Nnue;
    use std::sync::Arc;

    /// Positions whose score is the material balance: a net must learn to count.
    fn material_samples(n: usize) -> (Vec<Board>, Vec<Sample>) {
        use rand::Rng;
        let mut rng = StdRng::seed_from_u64(9);
        let mut boards = Vec::new();
        let mut samples = Vec::new();
        while boards.len() < n {
            let mut b = Board::default();
            for _ in 0..rng.gen_range(10..60) {
                let mut ms = Vec::new();
                b.generate_moves(|m| {
                    ms.extend(m);
                    false
                });
                if ms.is_empty() {
                    break;
                }
                b.play_unchecked(ms[rng.gen_range(0..ms.len())]);
            }
            if b.status() != cozy_chess::GameStatus::Ongoing {
                continue;
            }
            let value = [100, 300, 300, 500, 900, 0];
            let mut white = 0i32;
            for (i, piece) in cozy_chess::Piece::ALL.iter().enumerate() {
                white += value[i]
                    * (b.colored_pieces(cozy_chess::Color::White, *piece).len() as i32
                        - b.colored_pieces(cozy_chess::Color::Black, *piece).len() as i32);
            }
            let stm = if b.side_to_move() == cozy_chess::Color::White {
                white
            } else {
                -white
            };
            let r = Record::from_board(&b, stm as i16, Outcome::Draw, 0);
            samples.push(sample_of(&r, 0.0));
            boards.push(b);
        }
        (boards, samples)
    }

    #[test]
    fn training_lowers_the_loss_and_the_engine_agrees_with_the_trainer() {
        let (boards, samples) = material_samples(3000);
        let s = TrainSettings {
            epochs: 8,
            batch: 256,
            lr: 0.005,
            threads: 2,
            ..TrainSettings::default()
        };
        let mut seen = Vec::new();
        let summary = train_samples(samples.clone(), &s, &mut |r| seen.push(r.train_loss));
        assert_eq!(seen.len(), 8);
        assert!(seen[7] < seen[0] * 0.7, "losses {seen:?}");
        let v = summary.epochs[7].validation_loss.unwrap();
        assert!(v < seen[0], "validation {v} vs first epoch {}", seen[0]);
        // The quantised network in the engine gives the float network's centipawns.
        let net = Arc::new(summary.net.quantise());
        let mut nnue = Nnue::new(net);
        // Output weights are rounded to 1/64: a few percent of error, no more.
        let mut total = 0f32;
        for (b, x) in boards.iter().zip(&samples).take(200) {
            let float_cp = summary.net.forward(x) * SCALE as f32;
            let int_cp = nnue.evaluate(b, 0) as f32;
            let diff = (float_cp - int_cp).abs();
            assert!(
                diff < 25.0 + 0.1 * float_cp.abs(),
                "float {float_cp} vs engine {int_cp}"
            );
            total += diff;
        }
        assert!(total / 200.0 < 10.0, "mean difference {}", total / 200.0);
    }

    #[test]
    fn bad_settings_are_refused() {
        let s = TrainSettings::default();
        assert!(run(&s, &mut |_| {}).is_err());
        let s = TrainSettings {
            data: vec![PathBuf::from("/nonexistent.wpos")],
            ..TrainSettings::default()
        };
        assert!(run(&s, &mut |_| {}).unwrap_err().contains("nonexistent"));
        let s = TrainSettings {
            data: vec![PathBuf::from("/nonexistent.wpos")],
            wdl: 1.5,
            ..TrainSettings::default()
        };
        assert!(run(&s, &mut |_| {}).unwrap_err().contains("--wdl"));
    }
}
