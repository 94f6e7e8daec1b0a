//! What the scripted sparring player reacts to, whichever dialect it came in: a board
//! where it plays (read from a style-12 line, or from the position ICC's datagrams keep),
//! a result, a challenge, an offer in its game, a refused move, a seek ad. The FICS text
//! is read here ([`fics_input`], [`parse_style12`], [`parse_result`]); ICC's datagrams in
//! `icc/sparring.rs`.

use chess::castling::{CastleFlags, CastlingRooks};
use chess::fen::parse_fen;
use cozy_chess::Board;

/// One thing the sparring player reacts to.
#[derive(Debug, Clone)]
pub enum Input {
    /// A board of one of its games (or any game: it checks the names).
    Board(Board12),
    /// A game ended: number, white, black, the reason in words, `1-0`/`0-1`/`1/2-1/2`/`*`.
    Result {
        number: u32,
        white: String,
        black: String,
        reason: String,
        result: String,
    },
    /// A challenge from this player.
    Challenge { from: String },
    /// The opponent asks for a draw, an abort or an adjournment.
    Asked(Asked),
    /// The server refused a move as illegal.
    Illegal,
    /// The seek it answered is gone (or `play` failed).
    SeekGone,
    /// Someone's seek ad.
    Ad { id: u32, name: String },
}

/// What an opponent asks for in a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Asked {
    Draw,
    Abort,
    Adjourn,
}

/// The input a FICS text line (prompts stripped) carries, if any.
pub fn fics_input(line: &str) -> Option<Input> {
    if line.starts_with("<12> ") {
        return parse_style12(line).map(Input::Board);
    }
    if let Some((number, white, black, reason, result)) = parse_result(line) {
        return Some(Input::Result {
            number,
            white,
            black,
            reason,
            result,
        });
    }
    if let Some(rest) = line.strip_prefix("Challenge: ") {
        let from = rest.split_whitespace().next()?;
        return Some(Input::Challenge { from: from.into() });
    }
    if line.ends_with(" offers you a draw.") {
        return Some(Input::Asked(Asked::Draw));
    }
    if line.contains(" would like to abort the game;") {
        return Some(Input::Asked(Asked::Abort));
    }
    if line.contains(" would like to adjourn the game;") {
        return Some(Input::Asked(Asked::Adjourn));
    }
    if line == "Illegal move." {
        return Some(Input::Illegal);
    }
    // The ad it answered, a manual one, became a challenge that went: its owner left,
    // declined or withdrew it.
    if line == "That seek is not available."
        || line.starts_with("ERROR: ")
        || line.ends_with(", whom you were challenging, has departed.")
        || line.ends_with(" declines the match offer.")
        || (line.starts_with("Challenge to ") && line.ends_with(" withdrawn."))
    {
        return Some(Input::SeekGone);
    }
    let f: Vec<&str> = line.split_whitespace().collect();
    if let [id, _rating, name, _base, _inc, "rated" | "unrated", ..] = f.as_slice() {
        if let Ok(id) = id.parse::<u32>() {
            return Some(Input::Ad {
                id,
                name: name.to_string(),
            });
        }
    }
    None
}

/// A parsed style 12 line (the fields the sparring player needs).
#[derive(Debug, Clone)]
pub struct Board12 {
    /// The position, castling rights read as the outermost rooks (X-FEN); a game's
    /// later boards should go through [`CastlingRooks::apply`] with its first board's
    /// rooks and [`Board12::castling`].
    pub board: Board,
    pub castling: CastleFlags,
    pub game: u32,
    pub white: String,
    pub black: String,
    pub relation: i32,
    pub white_time: i64,
    pub black_time: i64,
    pub pretty: String,
    pub ticking: bool,
}

/// Parse a `<12>` line; `None` when it is malformed.
pub fn parse_style12(line: &str) -> Option<Board12> {
    let f: Vec<&str> = line.split_whitespace().collect();
    if f.first() != Some(&"<12>") || f.len() < 31 {
        return None;
    }
    let mut placement = String::new();
    for (i, rank) in f.get(1..9)?.iter().enumerate() {
        if rank.len() != 8 {
            return None;
        }
        let mut empty = 0;
        for c in rank.chars() {
            if c == '-' {
                empty += 1;
            } else {
                if empty > 0 {
                    placement.push_str(&empty.to_string());
                    empty = 0;
                }
                placement.push(c);
            }
        }
        if empty > 0 {
            placement.push_str(&empty.to_string());
        }
        if i < 7 {
            placement.push('/');
        }
    }
    let stm = *f.get(9)?;
    let white_to_move = stm == "W";
    let flag = |i: usize| f.get(i).map(|v| *v == "1");
    let castling = CastleFlags {
        white_short: flag(11)?,
        white_long: flag(12)?,
        black_short: flag(13)?,
        black_long: flag(14)?,
    };
    let dpp: i32 = f.get(10)?.parse().ok()?;
    let ep = if (0..8).contains(&dpp) {
        let file = char::from(b'a' + dpp as u8);
        format!("{file}{}", if white_to_move { 6 } else { 3 })
    } else {
        "-".into()
    };
    let half: u32 = f.get(15)?.parse().ok()?;
    let full: u32 = f.get(26)?.parse().ok()?;
    let side = if white_to_move { 'w' } else { 'b' };
    let board = parse_fen(&format!("{placement} {side} - {ep} {half} {full}"))
        .or_else(|_| parse_fen(&format!("{placement} {side} - - {half} {full}")))
        .ok()?;
    let board = CastlingRooks::of_start(&board).apply(&board, castling);
    Some(Board12 {
        board,
        castling,
        game: f.get(16)?.parse().ok()?,
        white: f.get(17)?.to_string(),
        black: f.get(18)?.to_string(),
        relation: f.get(19)?.parse().ok()?,
        white_time: f.get(24)?.parse().ok()?,
        black_time: f.get(25)?.parse().ok()?,
        pretty: f.get(29)?.to_string(),
        ticking: f.get(31).is_some_and(|t| *t == "1"),
    })
}

/// Parse `{Game N (W vs. B) reason} result`.
pub fn parse_result(line: &str) -> Option<(u32, String, String, String, String)> {
    let rest = line.strip_prefix("{Game ")?;
    let (num, rest) = rest.split_once(" (")?;
    let (white, rest) = rest.split_once(" vs. ")?;
    let (black, rest) = rest.split_once(") ")?;
    let (reason, result) = rest.rsplit_once("} ")?;
    if reason.contains(" Creating ") || reason.contains(" Continuing ") {
        return None;
    }
    Some((
        num.parse().ok()?,
        white.into(),
        black.into(),
        reason.into(),
        result.trim().into(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::notation::legal_moves;
    use cozy_chess::Color;

    #[test]
    fn parses_recorded_style12_and_results() {
        let l = "<12> rnbqkbnr pppp-ppp -------- ----p--- -------- -----P-- PPPPP-PP RNBQKBNR W 4 1 1 1 1 0 1 AlphaBot BetaBot 1 5 0 39 39 300 300 2 P/e7-e5 (0:00) e5 0 1";
        let b = parse_style12(l).expect("parses");
        assert_eq!(b.relation, 1);
        assert_eq!(b.game, 1);
        assert!(b.ticking);
        assert_eq!(b.board.side_to_move(), Color::White);
        assert_eq!(legal_moves(&b.board).len(), 19);
        assert!(parse_style12("<12> junk").is_none());
        let r = parse_result("{Game 1 (AlphaBot vs. BetaBot) AlphaBot checkmated} 0-1")
            .expect("result");
        assert_eq!(r.3, "AlphaBot checkmated");
        assert_eq!(r.4, "0-1");
        assert!(
            parse_result("{Game 1 (AlphaBot vs. BetaBot) Creating rated blitz match.}").is_none()
        );
    }

    #[test]
    fn an_answered_ad_that_went_is_read_as_gone() {
        for l in [
            "That seek is not available.",
            "WilyB, whom you were challenging, has departed.",
            "Challenge to WilyB withdrawn.",
            "WilyB declines the match offer.",
        ] {
            assert!(matches!(fics_input(l), Some(Input::SeekGone)), "{l}");
        }
        // Words about someone else's challenge, or a challenge that became a game, are not.
        assert!(fics_input("WilyB, who was challenging you, has departed.").is_none());
        assert!(fics_input("Challenge to WilyB").is_none());
    }
}
