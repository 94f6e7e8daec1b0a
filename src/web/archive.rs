//! The game archive (`logs/games.pgn`) as the dashboard reads it: the games split at their
//! `[Event` tags, the last ones summarised from their tags, one game's PGN by index.

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

/// The last `n` games, newest first.
pub fn recent(path: &Path, n: usize) -> Vec<RecentGame> {
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
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_and_summarises() {
        let dir = crate::scratch::dir("web-archive");
        let p = dir.path().join("games.pgn");
        assert!(recent(&p, 5).is_empty());
        std::fs::write(
            &p,
            "[Event \"a\"]\n[White \"wily\"]\n[Black \"x\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n\
             [Event \"b\"]\n[White \"y\"]\n[Black \"wily\"]\n[Result \"0-1\"]\n\n1. d4 0-1\n",
        )
        .expect("write");
        let g = games(&p);
        assert_eq!(g.len(), 2);
        assert!(g[1].contains("1. d4"));
        let r = recent(&p, 1);
        assert_eq!(r.len(), 1);
        assert_eq!((r[0].index, r[0].white.as_str()), (1, "y"));
        assert_eq!(r[0].result, "0-1");
        assert_eq!(r[0].date, "?");
    }
}
