//! The tuner's view of one evaluation: how many times each weight counts for each side (the
//! evaluation is linear in nearly all of them), the inputs of each king's danger (whose
//! middlegame penalty is their square), the game phase and the endgame scale rules. They
//! are recorded by running the evaluation itself with a counting sink, so they cannot
//! drift from it; [`Coefficients::evaluate`] recomputes the evaluation from them with the
//! evaluation's own integer arithmetic, and a test holds that equal to
//! `Evaluator::evaluate`.
//!
//! What the record takes as fixed: which castled square the king's shelter is judged on
//! (the best under the weights it was recorded with) and whether a king's danger counts at
//! all (two attackers, or one with a queen, which no weight changes). The scale rule is
//! kept for either side being ahead in the endgame score, so the tuner can re-decide it.
//! The mating drive against a bare king is kept as the constant it is.

use std::sync::OnceLock;

use cozy_chess::{Board, Color};

use super::endgame::{scale_rule, ScaleRule};
use super::evaluate::{evaluate_terms, Blend};
use super::layout::{roles, Group, Role, Values};
use super::mate::mate_bonus;
use super::params::EvalParams;
use super::score::{s, S};
use super::sink::{Sink, Sum, Term};

/// The record of one evaluation (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct Coefficients {
    /// Per colour (`Color as usize`): the linear weights it used, as (flat index, times),
    /// one entry per index, by index (see `layout` for the flat indices).
    pub linear: [Vec<(u16, i32)>; 2],
    /// Per colour: the danger weights counted against its king, as (flat index, times), when
    /// its danger was computed (`None`: too few attackers, no danger whatever the weights).
    pub danger: [Option<Vec<(u16, i32)>>; 2],
    /// Game phase, 0 (pawn ending) ..= 24.
    pub phase: i32,
    /// The endgame scale rule when White is ahead in the endgame score, when Black is, and
    /// when neither.
    pub rules: [ScaleRule; 3],
    /// The side to move (the evaluation is from its point of view).
    pub side_to_move: Color,
    /// The mating drive against a bare king (centipawns, White's view, added after the
    /// blend): no weight changes it, and it is 0 outside those endings.
    pub mate: i32,
}

/// The role of every flat index (the same for every `EvalParams`).
fn flat_roles() -> &'static [Role] {
    static ROLES: OnceLock<Vec<Role>> = OnceLock::new();
    ROLES.get_or_init(roles)
}

/// The counting sink.
struct Recorder<'a> {
    p: &'a EvalParams,
    roles: &'a [Role],
    sum: Sum,
    linear: [Vec<(u16, i32)>; 2],
    /// Danger weights counted for each king whose danger is not yet computed.
    pending: [Vec<(u16, i32)>; 2],
    danger: [Option<Vec<(u16, i32)>>; 2],
}

impl Sink for Recorder<'_> {
    fn add(&mut self, term: Term, color: Color, s: S) {
        self.sum.add(term, color, s);
        if term == Term::KingSafety {
            // The king's safety is complete: danger inputs not used are dropped.
            self.pending[color as usize].clear();
        }
    }

    fn total(&self) -> S {
        self.sum.total()
    }

    fn count<W: Values>(&mut self, color: Color, w: &W, n: i32) {
        let Some(i) = self.p.flat_index(w.first_i32()) else {
            debug_assert!(false, "a weight counted from outside the parameters");
            return;
        };
        if n == 0 {
            return;
        }
        let entry = (i as u16, n);
        match self.roles[i] {
            Role::Linear(_) | Role::EndgameLinear(_) => self.linear[color as usize].push(entry),
            Role::Danger => self.pending[color as usize].push(entry),
            role => debug_assert!(false, "weight {i} ({role:?}) counted"),
        }
    }

    fn danger(&mut self, king: Color) {
        let k = king as usize;
        self.danger[k] = Some(merged(std::mem::take(&mut self.pending[k])));
    }
}

/// `entries` with one entry per index (times summed, zeros dropped), by index.
fn merged(mut entries: Vec<(u16, i32)>) -> Vec<(u16, i32)> {
    entries.sort_unstable_by_key(|e| e.0);
    let mut out: Vec<(u16, i32)> = Vec::with_capacity(entries.len());
    for (i, n) in entries {
        match out.last_mut() {
            Some(last) if last.0 == i => last.1 += n,
            _ => out.push((i, n)),
        }
    }
    out.retain(|e| e.1 != 0);
    out
}

/// The coefficients of `board`'s evaluation with the weights `p` (symmetric king safety:
/// no own side); `None` when the material is insufficient (the evaluation is then 0 whatever
/// the weights).
pub fn coefficients(board: &Board, p: &EvalParams) -> Option<Coefficients> {
    let mut rec = Recorder {
        p,
        roles: flat_roles(),
        sum: Sum::default(),
        linear: [Vec::new(), Vec::new()],
        pending: [Vec::new(), Vec::new()],
        danger: [None, None],
    };
    let (blend, dead) = evaluate_terms(board, p, None, &mut rec);
    if dead {
        return None;
    }
    let [white, black] = rec.linear;
    Some(Coefficients {
        linear: [merged(white), merged(black)],
        danger: rec.danger,
        phase: blend.phase,
        rules: [Some(Color::White), Some(Color::Black), None].map(|s| scale_rule(board, p, s)),
        side_to_move: board.side_to_move(),
        mate: mate_bonus(board),
    })
}

/// A king's danger from its inputs with the weights `flat`, as the evaluation caps it.
pub fn danger_value(inputs: &[(u16, i32)], flat: &[i32], p: &EvalParams) -> i32 {
    let d: i32 = inputs.iter().map(|&(i, n)| flat[i as usize] * n).sum();
    d.clamp(0, p.king_danger_max.max(0))
}

impl Coefficients {
    /// The evaluation (centipawns, side to move's view) these coefficients give with the
    /// weights `p`, by the evaluation's own integer arithmetic: equal to
    /// `Evaluator::evaluate` with `p` when `p` is the set they were recorded with (and,
    /// within the limits in the module docs, close to it for other weights).
    pub fn evaluate(&self, p: &EvalParams) -> i32 {
        let flat = p.to_flat();
        let roles = flat_roles();
        let mut total = S::ZERO;
        for (c, sign) in [(0, 1), (1, -1)] {
            let mut groups = [S::ZERO; Group::ALL.len()];
            for &(i, n) in &self.linear[c] {
                let i = i as usize;
                match roles[i] {
                    Role::Linear(g) => groups[g as usize] += s(flat[i], flat[i + 1]) * n,
                    Role::EndgameLinear(g) => groups[g as usize].eg += flat[i] * n,
                    _ => {}
                }
            }
            if let Some(inputs) = &self.danger[c] {
                let d = danger_value(inputs, &flat, p);
                if d != 0 {
                    let penalty = s(
                        d * d / p.king_danger_divisor.max(1),
                        d / p.king_danger_eg_divisor.max(1),
                    );
                    groups[Group::KingSafety as usize] -= penalty;
                }
            }
            let side = Group::ALL.iter().fold(S::ZERO, |acc, g| {
                acc + groups[*g as usize].pct(g.percent(p))
            });
            total += side * sign;
        }
        // A KPK rule (the only one that adds a weight) is the same for either side ahead, so
        // the total with its bonus picks the same rule as the evaluation (without it).
        let rule = match total.eg.signum() {
            1 => self.rules[0],
            -1 => self.rules[1],
            _ => self.rules[2],
        };
        let (scale_mg, scale_eg) = rule.factors(p);
        let blend = Blend {
            phase: self.phase,
            scale_mg,
            scale_eg,
        };
        let white = blend.apply(total) + self.mate;
        if self.side_to_move == Color::White {
            white
        } else {
            -white
        }
    }
}
