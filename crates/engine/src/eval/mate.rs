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
/// KBNK: per step of [`corner_closeness`] (0..=7), the defending king's nearness to a
/// corner of the bishop's colour.
const CORNER: i32 = 100;
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

/// KBNK: how near `sq` is to a corner of the bishop's colour, 7 in those two corners
/// (a1 and h8 for a dark-squared bishop, h1 and a8 for a light-squared one) down to 0 on
/// the long diagonal that joins the two wrong corners, the centre included: seven less
/// the taxicab distance to the nearer right corner. The table for one colour is the
/// other's mirrored left to right, so the drive is the same for both bishops.
fn corner_closeness(sq: usize, dark: bool) -> i32 {
    let (file, rank) = ((sq & 7) as i32, (sq >> 3) as i32);
    if dark {
        (7 - file - rank).abs()
    } else {
        (file - rank).abs()
    }
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
        let dark = bishops & DARK_SQUARES != 0;
        let knight = knights
            .next_square()
            .map_or(0, |n| distance(n as usize, defender));
        CORNER * corner_closeness(defender, dark)
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

    /// `fen`'s position mirrored left to right (a-file to h-file), which turns a
    /// light-squared bishop into a dark-squared one.
    fn mirror_files(fen: &str) -> String {
        let (placement, rest) = fen.split_once(' ').expect("test FEN");
        let ranks: Vec<String> = placement
            .split('/')
            .map(|r| r.chars().rev().collect())
            .collect();
        format!("{} {rest}", ranks.join("/"))
    }

    /// `fen`'s position with the colours swapped: the board turned top to bottom, White's
    /// pieces Black's and the other side to move (castling and en passant left out).
    fn swap_colours(fen: &str) -> String {
        let mut fields = fen.split(' ');
        let placement = fields.next().expect("test FEN");
        let side = if fields.next() == Some("w") { "b" } else { "w" };
        let swapped: Vec<String> = placement
            .split('/')
            .rev()
            .map(|r| {
                r.chars()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect()
            })
            .collect();
        format!("{} {side} - - 0 1", swapped.join("/"))
    }

    #[test]
    fn the_corner_measure_is_the_same_for_both_bishops() {
        for sq in 0..64 {
            let mirrored = sq ^ 7;
            assert_eq!(
                corner_closeness(sq, true),
                corner_closeness(mirrored, false),
                "square {sq}"
            );
            assert!((0..=7).contains(&corner_closeness(sq, true)));
        }
        // a1 = 0, h1 = 7, a8 = 56, h8 = 63; d4 = 27 and e5 = 36 (dark), e4 = 28 (light).
        for (sq, dark, near) in [
            (0, true, 7),
            (63, true, 7),
            (7, true, 0),
            (56, true, 0),
            (7, false, 7),
            (56, false, 7),
            (0, false, 0),
            (63, false, 0),
            (28, true, 0),
            (27, false, 0),
            (27, true, 1),
            (36, true, 1),
        ] {
            assert_eq!(corner_closeness(sq, dark), near, "square {sq} dark {dark}");
        }
        // One step along the edge from a wrong corner towards a right one is one step nearer.
        for step in 0..7 {
            assert_eq!(corner_closeness(56 - 8 * step, true), step as i32);
            assert_eq!(corner_closeness(step, false), step as i32);
        }
    }

    #[test]
    fn kbnk_positions_mirrored_score_the_same_for_both_bishops() {
        for fen in [
            "k7/8/8/8/8/8/8/4KBN1 w - - 0 1",
            "8/8/3K4/k7/2B5/8/8/2N5 w - - 0 1",
            "8/1B6/8/8/7N/3k4/8/3K4 w - - 0 1",
            "8/8/8/8/8/1KB2k2/8/2N5 w - - 0 1",
            "1k6/7N/8/8/8/B7/4K3/8 w - - 0 1",
            "8/b7/4K3/7n/8/8/7k/8 b - - 0 1",
            "1K6/8/5B2/8/4k3/8/8/N7 w - - 0 1",
        ] {
            let here = bonus(fen);
            assert_ne!(here, 0, "{fen}");
            assert_eq!(
                here,
                bonus(&mirror_files(fen)),
                "{fen} mirrored left to right"
            );
            assert_eq!(
                here,
                -bonus(&swap_colours(fen)),
                "{fen} with the colours swapped"
            );
        }
    }

    #[test]
    fn kbnk_a_wrong_corner_is_worth_little_more_than_the_centre() {
        // Dark-squared bishop: a8 is a wrong corner, e4 on the same long diagonal.
        let wrong = bonus("k7/8/8/8/8/7N/8/2B1K3 w - - 0 1");
        let centre = bonus("8/8/8/8/4k3/7N/8/2B1K3 w - - 0 1");
        let right = bonus("8/8/8/8/8/7N/8/k1B1K3 w - - 0 1");
        assert!(right > wrong && right > centre, "{right} {wrong} {centre}");
        assert!(wrong - centre <= 3 * EDGE, "{wrong} {centre}");
    }

    #[test]
    fn the_bonus_mirrors_with_the_colours() {
        let white = bonus("k7/8/8/8/8/8/8/4KBN1 w - - 0 1");
        let black = bonus("4kbn1/8/8/8/8/8/8/K7 b - - 0 1");
        assert_eq!(white, -black);
    }
}
