//! The evaluation terms and the `Sink` the evaluation code reports them to.
//!
//! One generic evaluation routine serves the fast path (a `Sum` sink that only keeps
//! per-colour totals), the `score` trace (a sink that keeps every term apart) and the
//! tuner's coefficient record (a sink that also counts every weight used, through the
//! [`Sink::count`] and [`Sink::danger`] hooks that the other sinks ignore), so none of them
//! can disagree with what the search sees.

use cozy_chess::Color;

use super::layout::Values;
use super::score::S;

/// One named group of evaluation features.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Term {
    Material,
    PieceSquare,
    Mobility,
    PawnStructure,
    PassedPawns,
    BlockedPawns,
    KingSafety,
    Tropism,
    Bishops,
    Rooks,
    Outposts,
    Threats,
    Endgame,
    Tempo,
}

impl Term {
    /// Number of terms.
    pub const COUNT: usize = 14;
    /// Every term in display order.
    pub const ALL: [Term; Term::COUNT] = [
        Term::Material,
        Term::PieceSquare,
        Term::Mobility,
        Term::PawnStructure,
        Term::PassedPawns,
        Term::BlockedPawns,
        Term::KingSafety,
        Term::Tropism,
        Term::Bishops,
        Term::Rooks,
        Term::Outposts,
        Term::Threats,
        Term::Endgame,
        Term::Tempo,
    ];

    /// Short lower-case name for tables.
    pub fn name(self) -> &'static str {
        match self {
            Term::Material => "material",
            Term::PieceSquare => "piece squares",
            Term::Mobility => "mobility",
            Term::PawnStructure => "pawn structure",
            Term::PassedPawns => "passed pawns",
            Term::BlockedPawns => "blocked pawns",
            Term::KingSafety => "king safety",
            Term::Tropism => "king tropism",
            Term::Bishops => "bishops",
            Term::Rooks => "rooks",
            Term::Outposts => "outposts",
            Term::Threats => "threats",
            Term::Endgame => "endgame",
            Term::Tempo => "tempo",
        }
    }
}

/// Receives every evaluation contribution: `s` is a bonus for `color`.
pub(crate) trait Sink {
    fn add(&mut self, term: Term, color: Color, s: S);
    /// Sum of everything added so far, White minus Black.
    fn total(&self) -> S;

    /// The tuner's hook: `w`, a weight (an [`S`] or an `i32`) of the `EvalParams` being
    /// evaluated (a reference into it), counted `n` times for `color`. King-danger weights are counted for the king in
    /// danger. The evaluation's own sinks ignore it (and the optimiser removes the call).
    #[inline(always)]
    fn count<W: Values>(&mut self, _color: Color, _w: &W, _n: i32) {}

    /// The tuner's hook: the danger to `king` was computed from the king-danger weights
    /// counted for it (a king whose danger is never computed gets no call).
    #[inline(always)]
    fn danger(&mut self, _king: Color) {}

    /// `w * n`, counted (see [`Sink::count`]).
    #[inline(always)]
    fn weigh(&mut self, color: Color, w: &S, n: i32) -> S {
        self.count(color, w, n);
        *w * n
    }
}

/// The fast sink: per-colour running totals only.
#[derive(Default)]
pub(crate) struct Sum {
    pub acc: [S; 2],
}

impl Sink for Sum {
    #[inline(always)]
    fn add(&mut self, _term: Term, color: Color, s: S) {
        self.acc[color as usize] += s;
    }

    #[inline(always)]
    fn total(&self) -> S {
        self.acc[0] - self.acc[1]
    }
}

/// The tracing sink: every term per colour.
#[derive(Default)]
pub(crate) struct Breakdown {
    pub terms: [[S; 2]; Term::COUNT],
}

impl Sink for Breakdown {
    fn add(&mut self, term: Term, color: Color, s: S) {
        self.terms[term as usize][color as usize] += s;
    }

    fn total(&self) -> S {
        self.terms.iter().fold(S::ZERO, |acc, t| acc + t[0] - t[1])
    }
}
