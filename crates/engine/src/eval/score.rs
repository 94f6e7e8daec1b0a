//! `S`: a middlegame/endgame pair of centipawn values, the unit every evaluation weight and
//! every partial score is expressed in.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A (middlegame, endgame) pair of centipawn values. The evaluation sums these and blends
/// the two halves by the game phase at the end ("tapered" evaluation). Laid out as two
/// `i32`s (`repr(C)`), so that [`EvalParams`](super::EvalParams) is one flat run of `i32`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct S {
    /// Middlegame value in centipawns.
    pub mg: i32,
    /// Endgame value in centipawns.
    pub eg: i32,
}

/// Shorthand constructor for [`S`].
#[inline(always)]
pub const fn s(mg: i32, eg: i32) -> S {
    S { mg, eg }
}

impl S {
    /// Both halves zero.
    pub const ZERO: S = S { mg: 0, eg: 0 };

    /// Scales both halves by `percent` / 100 (truncating towards zero, so a scaled value
    /// and its negation stay exact opposites). The usual 100 returns `self` without the
    /// two divisions (the same result: evaluation values are far below `i32::MAX / 100`).
    #[inline(always)]
    pub fn pct(self, percent: i32) -> S {
        if percent == 100 {
            return self;
        }
        S {
            mg: self.mg * percent / 100,
            eg: self.eg * percent / 100,
        }
    }
}

impl Add for S {
    type Output = S;
    #[inline(always)]
    fn add(self, o: S) -> S {
        S {
            mg: self.mg + o.mg,
            eg: self.eg + o.eg,
        }
    }
}

impl Sub for S {
    type Output = S;
    #[inline(always)]
    fn sub(self, o: S) -> S {
        S {
            mg: self.mg - o.mg,
            eg: self.eg - o.eg,
        }
    }
}

impl AddAssign for S {
    #[inline(always)]
    fn add_assign(&mut self, o: S) {
        self.mg += o.mg;
        self.eg += o.eg;
    }
}

impl SubAssign for S {
    #[inline(always)]
    fn sub_assign(&mut self, o: S) {
        self.mg -= o.mg;
        self.eg -= o.eg;
    }
}

impl Neg for S {
    type Output = S;
    #[inline(always)]
    fn neg(self) -> S {
        S {
            mg: -self.mg,
            eg: -self.eg,
        }
    }
}

impl Mul<i32> for S {
    type Output = S;
    #[inline(always)]
    fn mul(self, k: i32) -> S {
        S {
            mg: self.mg * k,
            eg: self.eg * k,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_and_percent_scaling() {
        let a = s(10, -7);
        assert_eq!(a + s(1, 1), s(11, -6));
        assert_eq!(a - s(1, 1), s(9, -8));
        assert_eq!(-a, s(-10, 7));
        assert_eq!(a * 3, s(30, -21));
        assert_eq!(s(150, -150).pct(50), s(75, -75));
        // Truncation towards zero keeps negation exact.
        assert_eq!(s(7, -7).pct(33), -(s(-7, 7).pct(33)));
    }
}
