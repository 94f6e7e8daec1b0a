//! PGN text for a [`Game`]: the tag section (seven-tag roster first, `SetUp`/`FEN` for games
//! from a set-up position) and wrapped movetext with optional per-move comments.
//!
//! The console's game files, `savegame` and the annotator write through [`write_pgn`]; the
//! bot can use it for its records too.

use crate::game::Game;
use chess::pgn::write_game;

/// The seven tags every PGN game carries, in their required order.
pub const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// PGN tag pairs, kept in insertion order (roster order when written).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tags(Vec<(String, String)>);

impl Tags {
    /// Sets `name` to `value` (replacing an earlier value).
    pub fn set(&mut self, name: &str, value: &str) {
        let value = clean_value(value);
        match self.0.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = value,
            None => self.0.push((name.to_string(), value)),
        }
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn remove(&mut self, name: &str) {
        self.0.retain(|(n, _)| n != name);
    }

    /// All pairs in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }
}

/// A tag name is a letter followed by letters, digits or `_`.
pub fn valid_tag_name(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name.len() <= 64
}

fn clean_value(v: &str) -> String {
    v.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// Writes `game` as one PGN game (through `chess::pgn::write_game`). `comments[i]`, when
/// present, follows move `i`. The `Result` tag and the final token come from the game's
/// outcome (`*` while it goes on), whose reason ends the movetext as a comment; a missing
/// `Date` tag is today's date.
pub fn write_pgn(game: &Game, tags: &Tags, comments: &[Option<String>]) -> String {
    let result = game.outcome.as_ref().map_or("*", |o| o.score.as_pgn());
    let mut pairs: Vec<(String, String)> = tags
        .iter()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect();
    if tags.get("Date").is_none() {
        let today = chrono::Local::now().format("%Y.%m.%d").to_string();
        pairs.push(("Date".to_string(), today));
    }
    let n = game.moves().len();
    let mut notes: Vec<Option<String>> = comments.iter().take(n).cloned().collect();
    notes.resize(n, None);
    if let (Some(o), Some(last)) = (&game.outcome, notes.last_mut()) {
        *last = Some(match last.take() {
            Some(c) if !c.trim().is_empty() => format!("{c}; {}", o.reason),
            _ => o.reason.clone(),
        });
    }
    write_game(&pairs, game.start(), game.moves(), &notes, result)
}

/// Joins tokens with spaces into lines of at most `width` characters (a longer token keeps
/// its own line; comments may be split at spaces).
pub fn wrap(tokens: &[String], width: usize) -> String {
    let mut lines: Vec<String> = Vec::new();
    let mut cur = String::new();
    for tok in tokens.iter().flat_map(|t| t.split(' ')) {
        if !cur.is_empty() && cur.len() + 1 + tok.len() > width {
            lines.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(tok);
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Outcome, Score};
    use chess::fen::parse_fen;

    #[test]
    fn writes_roster_moves_and_comments() {
        let mut g = Game::default();
        for m in ["e4", "e5", "Nf3"] {
            let mv = g.parse_move(m).unwrap();
            g.play(mv).unwrap();
        }
        g.finish(Outcome::new(Score::WhiteWins, "Black resigns"));
        let mut tags = Tags::default();
        tags.set("White", "wily");
        tags.set("Black", "Some \"quoted\" name");
        tags.set("Annotator", "wily");
        let pgn = write_pgn(&g, &tags, &[None, Some("a {bad} idea".into())]);
        assert!(pgn.starts_with("[Event \"?\"]\n"));
        assert!(pgn.contains("[Black \"Some \\\"quoted\\\" name\"]"));
        assert!(pgn.contains("[Result \"1-0\"]"));
        assert!(pgn.contains("[Annotator \"wily\"]"));
        assert!(pgn.contains("1. e4 e5 {a (bad) idea} 2. Nf3 {Black resigns} 1-0"));
    }

    #[test]
    fn setup_games_carry_fen_and_black_first_numbers() {
        let b = parse_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 7").unwrap();
        let mut g = Game::new(b);
        let mv = g.parse_move("Kd7").unwrap();
        g.play(mv).unwrap();
        let pgn = write_pgn(&g, &Tags::default(), &[]);
        assert!(pgn.contains("[SetUp \"1\"]"));
        assert!(pgn.contains("[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 7\"]"));
        assert!(pgn.contains("7... Kd7 *"));
    }

    #[test]
    fn long_games_wrap() {
        let mut g = Game::default();
        for _ in 0..10 {
            for m in ["Nf3", "Nf6", "Ng1", "Ng8"] {
                if g.outcome.is_some() {
                    break;
                }
                let mv = g.parse_move(m).unwrap();
                g.play(mv).unwrap();
            }
        }
        let pgn = write_pgn(&g, &Tags::default(), &[]);
        assert!(pgn.lines().all(|l| l.len() <= 79));
        assert!(valid_tag_name("WhiteElo"));
        assert!(!valid_tag_name("1x"));
        assert!(!valid_tag_name("a b"));
    }
}
