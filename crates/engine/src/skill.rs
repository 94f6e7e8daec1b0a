//! Strength limiting ("skill"): one monotone table maps a requested Elo (800 to 2600) to a
//! node budget per move, a depth cap, a number of root lines searched (MultiPV) and a
//! softmax temperature; after the search the move is drawn among those lines with
//! probabilities `exp(-(best - score) / temperature)`, so a weak level mostly misses
//! small differences and sometimes overlooks a bigger one, as a human does, instead of
//! blundering at random. The draw is deterministic given the seed, the position and the
//! game number. Nothing here runs when strength limiting is off.

use super::limits::Limits;
use super::types::{Bound, Score, SearchInfo, SearchResult};
use cozy_chess::{Board, Move};
use rand::{Rng, SeedableRng};

/// Lowest Elo a level can ask for.
pub const ELO_MIN: u32 = 800;
/// Highest Elo a level can ask for (close to full strength at normal time controls).
pub const ELO_MAX: u32 = 2600;

/// One row of the mapping table.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Row {
    elo: u32,
    nodes: u64,
    depth: u32,
    lines: usize,
    temperature: f64,
}

/// The mapping, by increasing Elo: nodes and depth rise, temperature falls, the number of
/// candidate lines falls (every column is monotone; a test checks it). Calibrated with
/// `wily match` (see docs/results/calibration.md).
const TABLE: [Row; 10] = [
    Row {
        elo: 800,
        nodes: 300,
        depth: 2,
        lines: 6,
        temperature: 200.0,
    },
    Row {
        elo: 1000,
        nodes: 600,
        depth: 3,
        lines: 6,
        temperature: 150.0,
    },
    Row {
        elo: 1200,
        nodes: 1_000,
        depth: 4,
        lines: 5,
        temperature: 120.0,
    },
    Row {
        elo: 1400,
        nodes: 4_000,
        depth: 6,
        lines: 4,
        temperature: 67.0,
    },
    Row {
        elo: 1600,
        nodes: 8_700,
        depth: 7,
        lines: 4,
        temperature: 46.0,
    },
    Row {
        elo: 1800,
        nodes: 24_000,
        depth: 9,
        lines: 3,
        temperature: 29.0,
    },
    Row {
        elo: 2000,
        nodes: 51_000,
        depth: 10,
        lines: 3,
        temperature: 20.0,
    },
    Row {
        elo: 2200,
        nodes: 124_000,
        depth: 13,
        lines: 3,
        temperature: 12.0,
    },
    Row {
        elo: 2400,
        nodes: 380_000,
        depth: 24,
        lines: 2,
        temperature: 6.0,
    },
    Row {
        elo: 2600,
        nodes: 2_000_000,
        depth: 64,
        lines: 1,
        temperature: 0.0,
    },
];

/// What a level does to a search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SkillParams {
    /// The requested Elo, clamped to [`ELO_MIN`]..=[`ELO_MAX`].
    pub elo: u32,
    /// Node budget per move.
    pub nodes: u64,
    /// Depth cap per move.
    pub depth: u32,
    /// Root lines searched and drawn from (at least the front end's MultiPV).
    pub lines: usize,
    /// Softmax temperature in centipawns (0: always the best line).
    pub temperature: f64,
}

impl SkillParams {
    /// The parameters of level `elo` (clamped), interpolated between the table's rows:
    /// nodes geometrically, the rest linearly.
    pub fn for_elo(elo: u32) -> SkillParams {
        let elo = elo.clamp(ELO_MIN, ELO_MAX);
        let hi = TABLE
            .iter()
            .position(|r| r.elo >= elo)
            .unwrap_or(TABLE.len() - 1);
        let (a, b) = (TABLE[hi.saturating_sub(1)], TABLE[hi]);
        let t = if b.elo > a.elo {
            f64::from(elo - a.elo) / f64::from(b.elo - a.elo)
        } else {
            1.0
        };
        let lerp = |x: f64, y: f64| x + (y - x) * t;
        let nodes = lerp((a.nodes as f64).ln(), (b.nodes as f64).ln()).exp();
        SkillParams {
            elo,
            nodes: nodes.round() as u64,
            depth: lerp(f64::from(a.depth), f64::from(b.depth)).round() as u32,
            lines: lerp(a.lines as f64, b.lines as f64).round() as usize,
            temperature: lerp(a.temperature, b.temperature),
        }
    }

    /// Tightens `limits` to this level's node budget and depth cap.
    pub fn restrict(&self, limits: &mut Limits) {
        limits.nodes = Some(limits.nodes.map_or(self.nodes, |n| n.min(self.nodes)));
        limits.depth = Some(limits.depth.map_or(self.depth, |d| d.min(self.depth)));
    }
}

/// The random stream of one move: a function of the seed, the game number and the
/// position only.
pub fn rng_for(seed: u64, board: &Board, game: u64) -> rand::rngs::StdRng {
    let key = seed ^ board.hash().rotate_left(17) ^ game.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    rand::rngs::StdRng::seed_from_u64(key)
}

/// The root lines of the deepest iteration the search completed, collected from its
/// progress reports (complete iterations report every line, in order, as exact scores).
#[derive(Clone, Debug, Default)]
pub struct Lines {
    /// Lines of the iteration being reported.
    pending: Vec<(Score, Vec<Move>)>,
    pending_depth: u32,
    /// The last complete set.
    complete: Vec<(Score, Vec<Move>)>,
    /// Lines a complete iteration reports (MultiPV, at most the number of root moves).
    wanted: usize,
}

impl Lines {
    pub fn new(wanted: usize) -> Lines {
        Lines {
            wanted: wanted.max(1),
            ..Lines::default()
        }
    }

    /// Takes one progress report into account.
    pub fn observe(&mut self, info: &SearchInfo) {
        if info.bound != Bound::Exact || info.pv.is_empty() {
            return;
        }
        if info.multipv <= 1 || info.depth != self.pending_depth {
            self.pending.clear();
            self.pending_depth = info.depth;
        }
        if info.multipv == self.pending.len() + 1 {
            self.pending.push((info.score, info.pv.clone()));
        }
        if self.pending.len() == self.wanted {
            self.complete.clone_from(&self.pending);
        }
    }

    pub fn complete(&self) -> &[(Score, Vec<Move>)] {
        &self.complete
    }
}

/// A score on one centipawn-like scale where mates dominate (mate scores stay apart
/// from any evaluation).
fn scale(score: Score) -> f64 {
    match score {
        Score::Cp(c) => f64::from(c.clamp(-5_000, 5_000)),
        Score::Mate(m) if m > 0 => 100_000.0 - f64::from(m),
        Score::Mate(m) => -100_000.0 - f64::from(m),
    }
}

/// Draws the index of the line to play: `exp(-(best - score) / temperature)` weights,
/// lines worse than the best by more than four temperatures (or 900 cp) left out.
pub fn draw(scores: &[Score], temperature: f64, rng: &mut impl Rng) -> usize {
    if scores.len() <= 1 || temperature <= 0.0 {
        return 0;
    }
    let best = scores.iter().map(|&s| scale(s)).fold(f64::MIN, f64::max);
    let cap = (4.0 * temperature).min(900.0);
    let weights: Vec<f64> = scores
        .iter()
        .map(|&s| {
            let loss = best - scale(s);
            if loss > cap {
                0.0
            } else {
                (-loss / temperature).exp()
            }
        })
        .collect();
    let total: f64 = weights.iter().sum();
    if total <= 0.0 {
        return 0;
    }
    let mut x = rng.gen::<f64>() * total;
    for (i, w) in weights.iter().enumerate() {
        if x < *w {
            return i;
        }
        x -= w;
    }
    0
}

/// Replaces the search's move by the line drawn among `lines` (only a legal move; the
/// result is kept as it is when there is nothing to choose from).
pub fn choose(
    result: SearchResult,
    lines: &Lines,
    board: &Board,
    temperature: f64,
    rng: &mut impl Rng,
) -> SearchResult {
    let set = lines.complete();
    if set.len() <= 1 {
        return result;
    }
    let scores: Vec<Score> = set.iter().map(|(s, _)| *s).collect();
    let (score, pv) = &set[draw(&scores, temperature, rng)];
    let Some(&mv) = pv.first() else {
        return result;
    };
    if !board.is_legal(mv) || Some(mv) == result.best {
        return result;
    }
    let pv = super::threads::legal_prefix(board, pv, Some(mv));
    SearchResult {
        best: Some(mv),
        ponder: pv.get(1).copied(),
        score: *score,
        pv,
        ..result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mapping_is_monotone_and_clamped() {
        let mut prev = SkillParams::for_elo(0);
        assert_eq!(prev, SkillParams::for_elo(ELO_MIN));
        assert_eq!(SkillParams::for_elo(9999), SkillParams::for_elo(ELO_MAX));
        for elo in (ELO_MIN..=ELO_MAX).step_by(25) {
            let p = SkillParams::for_elo(elo);
            assert!(p.nodes >= prev.nodes, "nodes fall at {elo}");
            assert!(p.depth >= prev.depth, "depth falls at {elo}");
            assert!(p.lines <= prev.lines, "lines rise at {elo}");
            assert!(
                p.temperature <= prev.temperature,
                "temperature rises at {elo}"
            );
            assert!(p.lines >= 1 && p.nodes >= 1 && p.depth >= 1);
            prev = p;
        }
        assert!(SkillParams::for_elo(ELO_MIN).nodes < SkillParams::for_elo(ELO_MAX).nodes / 100);
        assert_eq!(SkillParams::for_elo(ELO_MAX).temperature, 0.0);
    }

    #[test]
    fn restrict_keeps_tighter_limits() {
        let p = SkillParams::for_elo(1600);
        let mut l = Limits::nodes(10);
        p.restrict(&mut l);
        assert_eq!(l.nodes, Some(10));
        assert_eq!(l.depth, Some(p.depth));
        let mut l = Limits::default();
        p.restrict(&mut l);
        assert_eq!(l.nodes, Some(p.nodes));
    }

    #[test]
    fn draw_prefers_better_lines_and_respects_the_cap() {
        let scores = [
            Score::Cp(50),
            Score::Cp(30),
            Score::Cp(-400),
            Score::Mate(-2),
        ];
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let mut counts = [0usize; 4];
        for _ in 0..2000 {
            counts[draw(&scores, 40.0, &mut rng)] += 1;
        }
        assert!(counts[0] > counts[1] && counts[1] > 200, "{counts:?}");
        assert_eq!(counts[2] + counts[3], 0, "{counts:?}");
        assert_eq!(draw(&scores, 0.0, &mut rng), 0);
        // A mate for us is never traded for an evaluation.
        let mate = [Score::Mate(3), Score::Cp(800)];
        assert!((0..200).all(|_| draw(&mate, 200.0, &mut rng) == 0));
    }

    #[test]
    fn lines_keep_the_last_complete_iteration() {
        let mv = |s: &str| s.parse::<Move>().unwrap();
        let info = |depth, multipv, cp, m: &str, bound| SearchInfo {
            depth,
            multipv,
            score: Score::Cp(cp),
            bound,
            pv: vec![mv(m)],
            ..SearchInfo::default()
        };
        let mut l = Lines::new(2);
        l.observe(&info(1, 1, 10, "e2e4", Bound::Exact));
        l.observe(&info(1, 2, 5, "d2d4", Bound::Exact));
        l.observe(&info(2, 1, 99, "g1f3", Bound::Lower));
        assert_eq!(l.complete().len(), 2);
        l.observe(&info(2, 1, 12, "d2d4", Bound::Exact));
        l.observe(&info(2, 2, 8, "e2e4", Bound::Exact));
        assert_eq!(l.complete()[0].1, vec![mv("d2d4")]);
        assert_eq!(l.complete()[1].0, Score::Cp(8));
    }
}
