//! The evaluation terms and the `Sink` the evaluation code reports them to.
//!
//! One generic evaluation routine serves both the fast path (a `Sum` sink that only keeps
//! per-colour totals) and the `score` trace (a sink that keeps every term apart), so the trace
//! can never disagree with what the search sees.

use cozy_chess::Color;

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
