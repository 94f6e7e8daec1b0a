//! The tuner's positions in compact form: for each quiet position, the coefficients of its
//! evaluation (White's counts minus Black's, per weight), its kings' danger inputs, phase,
//! scale rules, game result and search score, all in flat arrays. Built in parallel from
//! [`Sample`]s: each is resolved to a quiet position, its coefficients recorded, and the
//! record checked against the real evaluation.

use cozy_chess::Board;

use super::quiet::resolve;
use super::sources::Sample;
use engine::eval::{coefficients, Coefficients, EvalParams, Evaluator, ScaleRule};

/// One position of the set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Position {
    /// First entry of its linear coefficients in [`Dataset::entries`]; the danger inputs of
    /// White's king, then Black's, follow them.
    pub start: u32,
    /// Number of linear entries.
    pub linear: u16,
    /// Number of danger entries of White's and Black's king (0: no danger).
    pub danger: [u8; 2],
    /// Game phase, 0..=24.
    pub phase: u8,
    /// Scale rule when White is ahead in the endgame score, Black is, neither.
    pub rules: [ScaleRule; 3],
    /// The game's result, White's view.
    pub result: f32,
    /// A search score from White's view, or NaN.
    pub score: f32,
}

/// Quiet positions with their evaluation coefficients.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// (flat weight index, coefficient) entries of every position.
    pub entries: Vec<(u16, i16)>,
    pub positions: Vec<Position>,
    /// Samples offered.
    pub offered: u64,
    /// Samples not used: in check, resolving into check or no legal move, dead draws,
    /// a bare king against mating material, coefficients out of range.
    pub rejected: u64,
    /// Positions whose coefficients gave exactly `Evaluator::evaluate` with the weights
    /// they were recorded with (the rest: `mismatched`, with the largest difference).
    pub exact: u64,
    pub mismatched: u64,
    pub max_mismatch: i32,
}

/// A position's record before it joins the set.
struct Record {
    position: Position,
    entries: Vec<(u16, i16)>,
    exact: bool,
    mismatch: i32,
}

/// White's coefficient minus Black's per index, for one list sorted by index per side.
fn white_minus_black(c: &Coefficients) -> Vec<(u16, i32)> {
    let mut out: Vec<(u16, i32)> = c.linear[0].clone();
    for &(i, n) in &c.linear[1] {
        match out.binary_search_by_key(&i, |e| e.0) {
            Ok(k) => out[k].1 -= n,
            Err(k) => out.insert(k, (i, -n)),
        }
    }
    out.retain(|e| e.1 != 0);
    out
}

/// The record of one sample, or `None` when it is not used.
fn record(ev: &mut Evaluator, params: &EvalParams, sample: &Sample) -> Option<Record> {
    let quiet: Board = resolve(ev, &sample.board)?;
    let c = coefficients(&quiet, params)?;
    if c.mate != 0 {
        // A bare king against mating material: the mating drive, which no weight moves,
        // decides the score there.
        return None;
    }
    let replay = c.evaluate(params);
    let real = ev.evaluate(&quiet);
    let small = |(i, n): (u16, i32)| Some((i, i16::try_from(n).ok()?));
    let mut entries: Vec<(u16, i16)> = white_minus_black(&c)
        .into_iter()
        .map(small)
        .collect::<Option<_>>()?;
    let linear = u16::try_from(entries.len()).ok()?;
    let mut danger = [0u8; 2];
    for (k, inputs) in c.danger.iter().enumerate() {
        if let Some(inputs) = inputs {
            danger[k] = u8::try_from(inputs.len()).ok()?;
            for &e in inputs {
                entries.push(small(e)?);
            }
        }
    }
    Some(Record {
        position: Position {
            start: 0,
            linear,
            danger,
            phase: c.phase as u8,
            rules: c.rules,
            result: sample.result,
            score: sample.score.map_or(f32::NAN, |s| s as f32),
        },
        entries,
        exact: replay == real,
        mismatch: (replay - real).abs(),
    })
}

impl Dataset {
    /// Adds `samples` (resolved, recorded with the weights `params` and checked) on
    /// `threads` threads; the set's order is the samples' order whatever the threads.
    pub fn extend(&mut self, samples: &[Sample], params: &EvalParams, threads: usize) {
        let threads = threads.max(1);
        let chunk = samples.len().div_ceil(threads).max(1);
        let parts: Vec<Vec<Option<Record>>> = std::thread::scope(|scope| {
            let handles: Vec<_> = samples
                .chunks(chunk)
                .map(|part| {
                    scope.spawn(move || {
                        let mut ev = Evaluator::new(params.clone());
                        part.iter().map(|s| record(&mut ev, params, s)).collect()
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a tuning worker panicked"))
                .collect()
        });
        for rec in parts.into_iter().flatten() {
            self.offered += 1;
            let Some(mut rec) = rec else {
                self.rejected += 1;
                continue;
            };
            let Ok(start) = u32::try_from(self.entries.len()) else {
                self.rejected += 1;
                continue;
            };
            if rec.exact {
                self.exact += 1;
            } else {
                self.mismatched += 1;
                self.max_mismatch = self.max_mismatch.max(rec.mismatch);
            }
            rec.position.start = start;
            self.entries.extend_from_slice(&rec.entries);
            self.positions.push(rec.position);
        }
    }

    /// Keeps the first `n` positions.
    pub fn truncate(&mut self, n: usize) {
        if let Some(first_dropped) = self.positions.get(n) {
            self.entries.truncate(first_dropped.start as usize);
            self.positions.truncate(n);
        }
    }

    /// The linear entries of position `p`, then White's and Black's king danger inputs.
    #[inline]
    pub fn parts(&self, p: &Position) -> [&[(u16, i16)]; 3] {
        let a = p.start as usize;
        let b = a + p.linear as usize;
        let c = b + p.danger[0] as usize;
        let d = c + p.danger[1] as usize;
        [
            &self.entries[a..b],
            &self.entries[b..c],
            &self.entries[c..d],
        ]
    }

    /// Bytes the set occupies.
    pub fn bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<(u16, i16)>()
            + self.positions.len() * std::mem::size_of::<Position>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_become_checked_records_in_order() {
        let params = EvalParams::default();
        let fens = [
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "4k3/8/8/8/8/8/8/r3K3 w - - 0 1",
            "8/8/4k3/8/8/8/2B5/4K3 w - - 0 1",
            "6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        ];
        let samples: Vec<Sample> = fens
            .iter()
            .enumerate()
            .map(|(i, f)| Sample {
                board: Board::from_fen(f, false).expect("test FEN"),
                result: [1.0, 0.5, 0.0][i % 3],
                score: (i == 0).then_some(40),
            })
            .collect();
        let mut one = Dataset::default();
        one.extend(&samples, &params, 1);
        let mut three = Dataset::default();
        three.extend(&samples, &params, 3);
        // The check and the dead draw are rejected.
        assert_eq!((one.offered, one.rejected, one.positions.len()), (5, 2, 3));
        assert_eq!(
            format!("{:?}", one.positions),
            format!("{:?}", three.positions)
        );
        assert_eq!(one.entries, three.entries);
        assert_eq!(one.exact, 3);
        assert_eq!(one.positions[0].score, 40.0);
        assert!(one.positions[1].score.is_nan());
        assert_eq!(one.positions[2].result, 0.5);
        let [linear, _, _] = one.parts(&one.positions[0]);
        assert!(!linear.is_empty());
    }
}
