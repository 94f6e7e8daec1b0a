//! The evaluation trace behind the console's `score` command: every term with its White and
//! Black middlegame/endgame parts and its phase-weighted share, printed as a table.
//!
//! The trace runs the very same code as `Evaluator::evaluate` (with a sink that keeps the
//! terms apart), so its total always equals the evaluation.

use std::fmt;

use cozy_chess::{Board, Color};

use super::evaluate::{evaluate_terms, Blend};
use super::mate::mate_bonus;
use super::params::EvalParams;
use super::score::S;
use super::sink::{Breakdown, Sink, Term};

/// One line of the trace.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceTerm {
    /// Which term.
    pub term: Term,
    /// White's (mg, eg) contribution.
    pub white: S,
    /// Black's (mg, eg) contribution.
    pub black: S,
    /// Phase-weighted and scaled value of white - black, centipawns from White's view.
    /// (Per-term values are rounded separately, so they may not add up to `white_total`
    /// to the last centipawn.)
    pub total: i32,
}

/// A full breakdown of one evaluation.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalTrace {
    /// Every term, in display order.
    pub terms: Vec<TraceTerm>,
    /// Game phase, 0 (pawn ending) ..= 24 (all pieces).
    pub phase: i32,
    /// Middlegame scale factor out of 128.
    pub scale_mg: i32,
    /// Endgame scale factor out of 128 (opposite bishops, KPK, ...).
    pub scale_eg: i32,
    /// True when neither side can mate (the score is 0).
    pub insufficient_material: bool,
    /// Sum of all terms, White minus Black.
    pub sum: S,
    /// The mating drive against a bare king, added after the blend (White's view; 0 in
    /// every other position).
    pub mate: i32,
    /// Final score in centipawns from White's point of view.
    pub white_total: i32,
    /// Final score in centipawns from the side to move's point of view; equals
    /// `Evaluator::evaluate` for the same parameters and own side.
    pub total: i32,
    /// The side to move.
    pub side_to_move: Color,
}

/// Traces the evaluation of `board` with symmetric king safety (no own side).
pub fn trace(board: &Board, params: &EvalParams) -> EvalTrace {
    trace_for_side(board, params, None)
}

/// Traces the evaluation as an evaluator with `set_own_side(own)` would compute it.
pub fn trace_for_side(board: &Board, params: &EvalParams, own: Option<Color>) -> EvalTrace {
    let stm = board.side_to_move();
    let mut sink = Breakdown::default();
    let (blend, dead) = evaluate_terms(board, params, own, &mut sink);
    let sum = sink.total();
    let mate = if dead { 0 } else { mate_bonus(board) };
    let white_total = if dead { 0 } else { blend.apply(sum) + mate };
    let terms = Term::ALL
        .iter()
        .map(|&term| {
            let [white, black] = sink.terms[term as usize];
            TraceTerm {
                term,
                white,
                black,
                total: if dead { 0 } else { blend.apply(white - black) },
            }
        })
        .collect();
    let Blend {
        phase,
        scale_mg,
        scale_eg,
    } = blend;
    EvalTrace {
        terms,
        phase,
        scale_mg,
        scale_eg,
        insufficient_material: dead,
        sum,
        mate,
        white_total,
        total: if stm == Color::White {
            white_total
        } else {
            -white_total
        },
        side_to_move: stm,
    }
}

fn pawns_str(cp: i32) -> String {
    let sign = if cp < 0 { "-" } else { "+" };
    format!("{}{}.{:02}", sign, cp.abs() / 100, cp.abs() % 100)
}

impl fmt::Display for EvalTrace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<16} {:>6} {:>6} | {:>6} {:>6} | {:>7}",
            "term", "w mg", "w eg", "b mg", "b eg", "total"
        )?;
        writeln!(f, "{}", "-".repeat(58))?;
        for t in &self.terms {
            if t.white == S::ZERO && t.black == S::ZERO {
                continue;
            }
            writeln!(
                f,
                "{:<16} {:>6} {:>6} | {:>6} {:>6} | {:>7}",
                t.term.name(),
                t.white.mg,
                t.white.eg,
                t.black.mg,
                t.black.eg,
                pawns_str(t.total)
            )?;
        }
        writeln!(f, "{}", "-".repeat(58))?;
        writeln!(
            f,
            "sum (white - black)     mg {:>6}  eg {:>6}",
            self.sum.mg, self.sum.eg
        )?;
        writeln!(
            f,
            "phase {}/24 (24 = middlegame), scale mg {}/128 eg {}/128",
            self.phase, self.scale_mg, self.scale_eg
        )?;
        if self.mate != 0 {
            writeln!(
                f,
                "mating drive against the bare king {}",
                pawns_str(self.mate)
            )?;
        }
        if self.insufficient_material {
            writeln!(f, "insufficient material: dead draw")?;
        }
        let side = if self.side_to_move == Color::White {
            "white"
        } else {
            "black"
        };
        write!(
            f,
            "score {} (white's view), {} for {} to move",
            pawns_str(self.white_total),
            pawns_str(self.total),
            side
        )
    }
}
