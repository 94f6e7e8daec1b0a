//! The game archive (`logs/games.pgn`, shared by all accounts) as the dashboard reads it:
//! the games split at their `[Event` tags, the last ones summarised from their tags with
//! the account that played each, every account's rating history from the Elo tags of its
//! rated games, one game's PGN by index.

use serde::Serialize;
use std::path::Path;

/// One finished game in the list.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RecentGame {
    /// Position in the archive, 0 first (the PGN link is `/games/<index>.pgn`).
    pub index: usize,
    pub date: String,
    pub white: String,
    pub black: String,
    pub result: String,
    /// Which of the accounts played it (empty when none of them did).
    pub account: String,
}

/// One account's rating before each of its rated games in the archive, oldest first.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AccountRatings {
    pub account: String,
    pub points: Vec<RatingPoint>,
}

/// The account's rating as the server gave it at the start of one game.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RatingPoint {
    pub date: String,
    pub rating: u32,
}

/// The one of `handles` (any case) that played `game` as `White` or `Black`, with its
/// colour's tag prefix.
fn account_of<'a>(game: &str, handles: &'a [String]) -> Option<(&'a str, &'static str)> {
    let (white, black) = (tag(game, "White"), tag(game, "Black"));
    handles.iter().find_map(|h| {
        if h.eq_ignore_ascii_case(&white) {
            Some((h.as_str(), "White"))
        } else if h.eq_ignore_ascii_case(&black) {
            Some((h.as_str(), "Black"))
        } else {
            None
        }
    })
}

/// The archive's games as texts, oldest first; an absent file has none.
pub fn games(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut out: Vec<String> = Vec::new();
    for line in text.split_inclusive('\n') {
        if line.starts_with("[Event ") || out.is_empty() {
            out.push(String::new());
        }
        if let Some(g) = out.last_mut() {
            g.push_str(line);
        }
    }
    out.retain(|g| g.contains("[Event "));
    out
}

fn tag(game: &str, name: &str) -> String {
    let prefix = format!("[{name} \"");
    game.lines()
        .find_map(|l| l.strip_prefix(&prefix))
        .and_then(|rest| rest.strip_suffix("\"]"))
        .unwrap_or("?")
        .to_string()
}

/// The last `n` games, newest first, each with the one of `handles` that played it.
pub fn recent(path: &Path, n: usize, handles: &[String]) -> Vec<RecentGame> {
    let all = games(path);
    all.iter()
        .enumerate()
        .rev()
        .take(n)
        .map(|(index, g)| RecentGame {
            index,
            date: tag(g, "Date"),
            white: tag(g, "White"),
            black: tag(g, "Black"),
            result: tag(g, "Result"),
            account: account_of(g, handles).map_or(String::new(), |(h, _)| h.to_string()),
        })
        .collect()
}

/// Each of `handles`' ratings from the rated games of the archive (an `Event` saying
/// `rated`, a number in the account's Elo tag), in the order of `handles`.
pub fn ratings(path: &Path, handles: &[String]) -> Vec<AccountRatings> {
    let mut out: Vec<AccountRatings> = handles
        .iter()
        .map(|h| AccountRatings {
            account: h.clone(),
            points: Vec::new(),
        })
        .collect();
    for g in games(path) {
        let event = tag(&g, "Event");
        if !event.split_whitespace().any(|w| w == "rated") {
            continue;
        }
        let Some((h, colour)) = account_of(&g, handles) else {
            continue;
        };
        let Ok(rating) = tag(&g, &format!("{colour}Elo")).parse::<u32>() else {
            continue;
        };
        if let Some(a) = out.iter_mut().find(|a| a.account == h) {
            a.points.push(RatingPoint {
                date: tag(&g, "Date"),
                rating,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_and_summarises() {
        let dir = testkit::scratch::dir("web-archive");
        let p = dir.path().join("games.pgn");
        let handles = vec!["wily".to_string(), "Other".to_string()];
        assert!(recent(&p, 5, &handles).is_empty());
        std::fs::write(
            &p,
            "[Event \"a\"]\n[White \"wily\"]\n[Black \"x\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n\
             [Event \"b\"]\n[White \"y\"]\n[Black \"wily\"]\n[Result \"0-1\"]\n\n1. d4 0-1\n",
        )
        .expect("write");
        let g = games(&p);
        assert_eq!(g.len(), 2);
        assert!(g[1].contains("1. d4"));
        let r = recent(&p, 1, &handles);
        assert_eq!(r.len(), 1);
        assert_eq!((r[0].index, r[0].white.as_str()), (1, "y"));
        assert_eq!(r[0].result, "0-1");
        assert_eq!(r[0].date, "?");
        assert_eq!(r[0].account, "wily");
    }

    #[test]
    fn ratings_per_account_from_rated_games() {
        let dir = testkit::scratch::dir("web-ratings");
        let p = dir.path().join("games.pgn");
        let game = |event: &str, w: &str, b: &str, we: &str, be: &str| {
            format!(
                "[Event \"{event}\"]\n[Date \"2026.11.25\"]\n[White \"{w}\"]\n[Black \"{b}\"]\n\
                 [Result \"1-0\"]\n[WhiteElo \"{we}\"]\n[BlackElo \"{be}\"]\n\n1. e4 1-0\n\n"
            )
        };
        let text = [
            game("FICS rated blitz game", "one", "x", "1500", "1600"),
            game("FICS unrated blitz game", "one", "x", "1400", "1600"),
            game("FICS rated blitz game", "x", "Two", "1700", "1810"),
            game("FICS rated blitz game", "One", "Two", "1512", "-"),
            game("FICS rated blitz game", "y", "z", "1000", "1000"),
        ]
        .concat();
        std::fs::write(&p, text).expect("write");
        let handles = vec!["One".to_string(), "Two".to_string()];
        let r = ratings(&p, &handles);
        let pts = |i: usize| r[i].points.iter().map(|p| p.rating).collect::<Vec<_>>();
        assert_eq!(r[0].account, "One");
        assert_eq!(pts(0), vec![1500, 1512]);
        assert_eq!(r[1].account, "Two");
        assert_eq!(pts(1), vec![1810], "an unrated game and a `-` are left out");
        assert_eq!(r[0].points[0].date, "2026.11.25");
        let recent = recent(&p, 5, &handles);
        let who: Vec<&str> = recent.iter().map(|g| g.account.as_str()).collect();
        assert_eq!(who, vec!["", "One", "Two", "One", "One"]);
    }
}
