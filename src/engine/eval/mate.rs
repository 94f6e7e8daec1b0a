//! Mating knowledge against a bare king, for play without tablebases: when one side has
//! nothing but its king and the other has the material to force mate (a queen, a rook, a
//! bishop and a knight, or bishops on both colours), a bonus for the stronger side drives
//! the defending king to the edge and brings the attacking king close to it. With exactly
//! a bishop and a knight (KBNK) the drive is to a corner of the bishop's colour instead,
//! the only corners where that mate can be forced.
//!
//! The bonus is added after the middlegame/endgame blend, in centipawns, and does not
//! depend on the tuned weights (the tuner's coefficient record carries it as a constant).
//! Every other position gets 0 from a test of two popcounts.

use cozy_chess::{Board, Color, Piece};

use super::tables::{distance, DARK_SQUARES};

/// Per step of the defending king's distance from the centre (0..=6).
const EDGE: i32 = 20;
/// Per step of the defending king's taxicab distance from the nearest corner of the
/// bishop's colour (KBNK: 0..=7 steps, more from the two wrong corners and the centre).
const CORNER: i32 = 30;
/// KBNK: per step the knight is closer than 7 steps to the defending king.
const KNIGHT_CLOSE: i32 = 4;
/// Per step the kings are closer than 14 steps apart (taxicab distance).
const CLOSE: i32 = 8;

/// Taxicab distance between two squares (0..=14).
fn taxicab(a: usize, b: usize) -> i32 {
    let (fa, ra) = ((a & 7) as i32, (a >> 3) as i32);
    let (fb, rb) = ((b & 7) as i32, (b >> 3) as i32);
    (fa - fb).abs() + (ra - rb).abs()
}

/// Taxicab distance of a square from the four centre squares (0..=6).
fn from_centre(sq: usize) -> i32 {
    let off = |x: i32| (3 - x).max(x - 4);
    off((sq & 7) as i32) + off((sq >> 3) as i32)
}

/// The side with mating material against a bare king, if the position is one.
#[inline(always)]
fn attacker(board: &Board) -> Option<Color> {
    let white = board.colors(Color::White).len();
    let black = board.colors(Color::Black).len();
    let strong = match (white, black) {
        (w, 1) if w > 1 => Color::White,
        (1, b) if b > 1 => Color::Black,
        _ => return None,
    };
    let own = |p: Piece| board.colored_pieces(strong, p).0;
    let bishops = own(Piece::Bishop);
    let mates = own(Piece::Queen) | own(Piece::Rook) != 0
        || bishops != 0 && own(Piece::Knight) != 0
        || bishops & DARK_SQUARES != 0 && bishops & !DARK_SQUARES != 0;
    mates.then_some(strong)
}

/// The bonus for the side with mating material against a bare king, in centipawns from
/// White's point of view (0 in every other position).
#[inline(always)]
pub(crate) fn mate_bonus(board: &Board) -> i32 {
    let Some(strong) = attacker(board) else {
        return 0;
    };
    let defender = board.king(!strong) as usize;
    let king = board.king(strong) as usize;
    let close = CLOSE * (14 - taxicab(king, defender));
    let pieces = board.colors(strong).len();
    let bishops = board.colored_pieces(strong, Piece::Bishop).0;
    let knights = board.colored_pieces(strong, Piece::Knight);
    let drive = if pieces == 3 && bishops != 0 && knights.len() == 1 {
        // a1 and h8 are dark, h1 and a8 light.
        let corners = if bishops & DARK_SQUARES != 0 {
            [0, 63]
        } else {
            [7, 56]
        };
        let d = corners.map(|c| taxicab(defender, c)).into_iter().min();
        let knight = knights
            .next_square()
            .map_or(0, |n| distance(n as usize, defender));
        CORNER * (14 - d.unwrap_or(14))
            + EDGE * from_centre(defender) / 2
            + KNIGHT_CLOSE * (7 - knight)
    } else {
        EDGE * from_centre(defender)
    };
    let bonus = drive + close;
    if strong == Color::White {
        bonus
    } else {
        -bonus
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bonus(fen: &str) -> i32 {
        mate_bonus(&fen.parse().expect("test FEN"))
    }

    #[test]
    fn only_a_bare_king_against_mating_material_gets_it() {
        assert_eq!(
            bonus("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            0
        );
        // Two knights, one bishop, pawns only: no forced mate to drive towards.
        assert_eq!(bonus("8/8/4k3/8/8/8/8/2NNK3 w - - 0 1"), 0);
        assert_eq!(bonus("8/8/4k3/8/8/8/8/2B1K3 w - - 0 1"), 0);
        assert_eq!(bonus("8/8/4k3/8/8/8/4PP2/4K3 w - - 0 1"), 0);
        // The defender still has a pawn.
        assert_eq!(bonus("8/8/4k3/4p3/8/8/8/3QK3 w - - 0 1"), 0);
        assert!(bonus("8/8/4k3/8/8/8/8/3QK3 w - - 0 1") > 0);
        assert!(bonus("3qk3/8/8/8/8/4K3/8/8 b - - 0 1") < 0);
        assert!(bonus("8/8/4k3/8/8/8/8/2B1KB2 w - - 0 1") > 0);
    }

    #[test]
    fn the_edge_and_the_own_king_close_score_more() {
        let centre = bonus("8/8/8/3k4/8/8/8/R3K3 w - - 0 1");
        let edge = bonus("3k4/8/8/8/8/8/8/R3K3 w - - 0 1");
        let near = bonus("3k4/8/3K4/8/8/8/8/R7 w - - 0 1");
        assert!(centre < edge && edge < near, "{centre} {edge} {near}");
    }

    #[test]
    fn kbnk_drives_to_a_corner_of_the_bishops_colour() {
        // Light-squared bishop (f1): h1 and a8 are the mating corners.
        let right = bonus("k7/8/8/8/8/8/8/4KBN1 w - - 0 1");
        let wrong = bonus("7k/8/8/8/8/8/8/4KBN1 w - - 0 1");
        assert!(right > wrong, "light bishop: a8 {right}, h8 {wrong}");
        // Dark-squared bishop (c1): a1 and h8.
        let right = bonus("7k/8/8/8/8/8/8/2B1K1N1 w - - 0 1");
        let wrong = bonus("k7/8/8/8/8/8/8/2B1K1N1 w - - 0 1");
        assert!(right > wrong, "dark bishop: h8 {right}, a8 {wrong}");
    }

    #[test]
    fn the_bonus_mirrors_with_the_colours() {
        let white = bonus("k7/8/8/8/8/8/8/4KBN1 w - - 0 1");
        let black = bonus("4kbn1/8/8/8/8/8/8/K7 b - - 0 1");
        assert_eq!(white, -black);
    }
}
