//! A game's result (`1-0`, `0-1`, `1/2-1/2`) and the points it gives each side.

use cozy_chess::Color;

/// A game's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    WhiteWins,
    BlackWins,
    Draw,
}

impl Outcome {
    /// A win for `c`.
    pub fn win_for(c: Color) -> Outcome {
        match c {
            Color::White => Outcome::WhiteWins,
            Color::Black => Outcome::BlackWins,
        }
    }

    /// The PGN result token.
    pub fn pgn(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }

    /// Points for `c`: 1, ½ or 0, in half points (2, 1, 0).
    pub fn half_points(self, c: Color) -> u32 {
        match (self, c) {
            (Outcome::Draw, _) => 1,
            (Outcome::WhiteWins, Color::White) | (Outcome::BlackWins, Color::Black) => 2,
            _ => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes() {
        assert_eq!(Outcome::win_for(Color::Black).pgn(), "0-1");
        assert_eq!(Outcome::WhiteWins.half_points(Color::White), 2);
        assert_eq!(Outcome::WhiteWins.half_points(Color::Black), 0);
        assert_eq!(Outcome::Draw.half_points(Color::Black), 1);
    }
}
