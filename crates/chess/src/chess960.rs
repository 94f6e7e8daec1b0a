//! Chess960 (Fischer random chess) start positions by their standard number, 0 to 959
//! in Scharnagl's numbering (518 is the standard array), the reverse look-up, and a start
//! given as text (a number or a FEN). Every front end that starts 960 games (console,
//! match, bot, local server) gets its positions here.

use super::fen::parse_fen;
use cozy_chess::{Board, Color, File, Piece, Rank, Square};

/// How many Chess960 start positions there are.
pub const POSITIONS: u32 = 960;

/// The number of the standard array (`RNBQKBNR`).
pub const STANDARD: u32 = 518;

/// The start position with number `index` (0..960), with full castling rights, White to
/// move; `None` for a number out of range.
pub fn start_position(index: u32) -> Option<Board> {
    // cozy-chess numbers the positions the same way (Scharnagl); it panics out of range.
    (index < POSITIONS).then(|| Board::chess960_startpos(index))
}

/// White's back rank of position `index` as piece letters, a-file first (`RNBQKBNR`).
pub fn back_rank(index: u32) -> Option<String> {
    let b = start_position(index)?;
    Some(
        File::ALL
            .iter()
            .filter_map(|&f| b.piece_on(Square::new(f, Rank::First)))
            .map(|p| char::from(p).to_ascii_uppercase())
            .collect(),
    )
}

/// The number of the start position `board` is, if it is one: pieces as in the start
/// array (both sides), whatever the castling rights and move counters say.
pub fn index_of(board: &Board) -> Option<u32> {
    let same = |a: &Board| {
        Color::ALL.iter().all(|&c| a.colors(c) == board.colors(c))
            && Piece::ALL.iter().all(|&p| a.pieces(p) == board.pieces(p))
    };
    (0..POSITIONS).find(|&i| start_position(i).is_some_and(|b| same(&b)))
}

/// A random start number from `seed` (the same seed always gives the same number).
pub fn index_from_seed(seed: u64) -> u32 {
    use rand::{Rng, SeedableRng};
    rand::rngs::StdRng::seed_from_u64(seed).gen_range(0..POSITIONS)
}

/// Reads a start position given as its number (`0`-`959`) or as a FEN (standard, X-FEN
/// or Shredder-FEN castling).
pub fn parse_start(text: &str) -> Result<Board, String> {
    let t = text.trim();
    if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
        return t
            .parse::<u32>()
            .ok()
            .and_then(start_position)
            .ok_or_else(|| format!("'{t}' is not a Chess960 position number (0-959)"));
    }
    parse_fen(t).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen::{to_fen, to_shredder_fen};

    #[test]
    fn known_numbers() {
        // Scharnagl's table: 0 BBQNNRKR, 518 the standard array, 959 RKRNNQBB, and a few
        // taken from the published list.
        for (n, rank) in [
            (0, "BBQNNRKR"),
            (1, "BQNBNRKR"),
            (2, "BQNNRBKR"),
            (100, "QBBNRNKR"),
            (518, "RNBQKBNR"),
            (534, "RNBKQBNR"),
            (959, "RKRNNQBB"),
        ] {
            assert_eq!(back_rank(n).as_deref(), Some(rank), "position {n}");
        }
        assert_eq!(start_position(STANDARD), Some(Board::default()));
        assert!(start_position(960).is_none());
        assert_eq!(
            to_shredder_fen(&start_position(0).unwrap()),
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"
        );
    }

    #[test]
    fn every_number_is_distinct_and_found_again() {
        let mut seen = std::collections::HashSet::new();
        for i in 0..POSITIONS {
            let rank = back_rank(i).unwrap();
            // Bishops on opposite colours, the king between the rooks.
            let (k, r1, r2) = (
                rank.find('K').unwrap(),
                rank.find('R').unwrap(),
                rank.rfind('R').unwrap(),
            );
            assert!(r1 < k && k < r2, "{i} {rank}");
            let bishops: Vec<usize> = rank.match_indices('B').map(|(j, _)| j).collect();
            assert_eq!(bishops.len(), 2);
            assert_ne!(bishops[0] % 2, bishops[1] % 2, "{i} {rank}");
            assert!(seen.insert(rank), "{i} repeats");
        }
        for i in [0, 1, 517, 518, 519, 777, 959] {
            assert_eq!(index_of(&start_position(i).unwrap()), Some(i));
        }
        let moved = parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        assert_eq!(index_of(&moved.unwrap()), None);
    }

    #[test]
    fn start_as_number_or_fen() {
        assert_eq!(
            to_fen(&parse_start(" 518 ").unwrap()),
            to_fen(&Board::default())
        );
        let b = parse_start("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1").unwrap();
        assert_eq!(index_of(&b), Some(0));
        assert_eq!(b.castle_rights(Color::White).long, Some(File::F));
        assert!(parse_start("960").unwrap_err().contains("0-959"));
        assert!(parse_start("99999999999999999999").is_err());
        assert!(parse_start("").is_err());
        assert!(parse_start("rnbq w").is_err());
    }

    #[test]
    fn seeds_give_fixed_numbers_in_range() {
        assert_eq!(index_from_seed(7), index_from_seed(7));
        assert!((0..200).all(|s| index_from_seed(s) < POSITIONS));
        let distinct: std::collections::HashSet<u32> = (0..200).map(index_from_seed).collect();
        assert!(distinct.len() > 100);
    }
}
