//! Crafty's own `book.lrn` format, read by `import` and written, one record per game, to
//! the learning log (`LearnSettings::lrn_log`): PGN-like records whose tags name the
//! players and the date, and whose movetext is the book line played from the start,
//! closed by a comment `{value, depth, rating_difference}`:
//!
//! ```text
//! [White "wily"]
//! [Black "someone"]
//! [Date "2026.12.01"]
//! 1. e4 c5 2. Nf3 d6 {-53, 12, -150}
//! ```
//!
//! The value (centipawns, for the side that played the last move of the line) and depth
//! come from the searches after the book; the rating difference is the learning side's
//! rating minus its opponent's (negative: the opponent was stronger). On import the value
//! is learned for the last move of the line and weighed by the rating difference as
//! wily's own book learning weighs it (`learn::game::scale_by_rating`: a loss against a
//! weaker opponent counts more, against a stronger one less).

use chess::san::{parse_san, to_san};
use cozy_chess::{Board, Color, Move};

/// One line of a Crafty learning file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CraftyLine {
    pub white: String,
    pub black: String,
    pub date: String,
    /// The book line, from the standard start position.
    pub moves: Vec<Move>,
    pub value: i64,
    pub depth: i64,
    pub rating_diff: Option<i64>,
}

impl CraftyLine {
    /// The position before the line's last move, and that move (where the value is
    /// learned).
    pub fn learned_move(&self) -> Option<(Board, Move)> {
        let (&last, before) = self.moves.split_last()?;
        let mut board = Board::default();
        for &m in before {
            board.try_play(m).ok()?;
        }
        board.is_legal(last).then_some((board, last))
    }

    /// The record as Crafty's `book.lrn` shows it (blank line after).
    pub fn to_text(&self) -> String {
        let clean = |s: &str| -> String {
            s.chars()
                .filter(|c| !c.is_control() && *c != '"' && *c != '\\')
                .collect()
        };
        let mut out = format!(
            "[White \"{}\"]\n[Black \"{}\"]\n[Date \"{}\"]\n",
            clean(&self.white),
            clean(&self.black),
            clean(&self.date)
        );
        let mut board = Board::default();
        let mut text = Vec::new();
        for &m in &self.moves {
            if board.side_to_move() == Color::White {
                text.push(format!("{}.", board.fullmove_number()));
            }
            text.push(to_san(&board, m));
            if board.try_play(m).is_err() {
                break;
            }
        }
        let rd = self.rating_diff.unwrap_or(0);
        out.push_str(&format!(
            "{} {{{}, {}, {rd}}}\n\n",
            text.join(" "),
            self.value,
            self.depth
        ));
        out
    }
}

/// Reads the movetext of one record (`1. e4 c5 2. Nf3 {v, d, rd}`): the moves and the
/// three numbers (commas or blanks between them).
pub fn parse_movetext(text: &str) -> Result<(Vec<Move>, i64, i64, Option<i64>), String> {
    let open = text
        .find('{')
        .ok_or("no {value, depth, rating_difference} comment")?;
    let close = text[open..]
        .find('}')
        .map(|i| i + open)
        .ok_or("the {value, depth, rating_difference} comment is not closed")?;
    let nums: Vec<&str> = text[open + 1..close]
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .collect();
    let num = |i: usize, what: &str| -> Result<i64, String> {
        let t = nums.get(i).ok_or(format!("no {what} in the comment"))?;
        t.trim_start_matches('+')
            .parse::<i64>()
            .map_err(|_| format!("{what} '{t}' is not a number"))
    };
    let value = num(0, "value")?.clamp(-32_000, 32_000);
    let depth = num(1, "depth")?.clamp(0, 1000);
    let rating_diff = if nums.len() > 2 {
        Some(num(2, "rating difference")?.clamp(-10_000, 10_000))
    } else {
        None
    };
    let mut board = Board::default();
    let mut moves = Vec::new();
    for tok in text[..open].split_whitespace() {
        let san = tok.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        if san.is_empty() || san == "*" {
            continue;
        }
        let mv = parse_san(&board, san).map_err(|_| format!("illegal move {san}"))?;
        board.play_unchecked(mv);
        moves.push(mv);
    }
    if moves.is_empty() {
        return Err("no moves".into());
    }
    Ok((moves, value, depth, rating_diff))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let (moves, value, depth, rd) =
            parse_movetext("1. e4 c5 2. Nf3 d6 {-53, 12, -150}").unwrap();
        assert_eq!((moves.len(), value, depth, rd), (4, -53, 12, Some(-150)));
        let line = CraftyLine {
            white: "wily".into(),
            black: "some\"one".into(),
            date: "2026.12.01".into(),
            moves,
            value,
            depth,
            rating_diff: rd,
        };
        let text = line.to_text();
        assert!(text.contains("[Black \"someone\"]"), "{text}");
        assert!(
            text.contains("1. e4 c5 2. Nf3 d6 {-53, 12, -150}"),
            "{text}"
        );
        let (b, m) = line.learned_move().unwrap();
        assert_eq!(to_san(&b, m), "d6");
        // Blanks instead of commas, no rating difference.
        let (_, v, d, rd) = parse_movetext("1. d4 {+20 9}").unwrap();
        assert_eq!((v, d, rd), (20, 9, None));
    }

    #[test]
    fn broken_records_say_why() {
        for (text, why) in [
            ("1. e4 e5", "no {value"),
            ("1. e4 {12, 3", "not closed"),
            ("1. e4 Ke7?? {1, 2, 3}", "illegal move"),
            ("{1, 2, 3}", "no moves"),
            ("1. e4 {x, 2, 3}", "value 'x'"),
        ] {
            let e = parse_movetext(text).unwrap_err();
            assert!(e.contains(why), "{text}: {e}");
        }
    }
}
