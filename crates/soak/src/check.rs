//! The soak's cross-checks: every game the server scored for a bot must be in that bot's
//! PGN archive and in its learning store. A game is known in all three by its players,
//! its result and its final position (placement and side to move), which the server
//! keeps, the PGN replays to (from its `FEN` tag when the game was resumed by a bot that
//! had restarted), and the store's move list replays to from its start position. Also the
//! process's resident memory, from `/proc/self/status`.

use chess::fen::parse_fen;
use chess::PgnReader;
use cozy_chess::{Board, Move};
use server::FinishedRecord;
use std::collections::HashMap;
use std::path::Path;

/// Players (lower case), result and final position: what identifies a finished game.
pub type GameKey = (String, String, String, String);

/// Placement and side to move of a board (the first two FEN fields).
fn position_key(board: &Board) -> String {
    let fen = format!("{board}");
    fen.split_whitespace().take(2).collect::<Vec<_>>().join(" ")
}

fn key(white: &str, black: &str, result: &str, board: &Board) -> GameKey {
    (
        white.to_ascii_lowercase(),
        black.to_ascii_lowercase(),
        result.to_string(),
        position_key(board),
    )
}

/// The key of a game the server finished (`None`: its FEN does not read, which would be
/// a server bug, and counts as missing everywhere).
pub fn server_key(f: &FinishedRecord) -> Option<GameKey> {
    let board = parse_fen(&f.final_fen).ok()?;
    Some(key(&f.white, &f.black, &f.result, &board))
}

/// Keys of the finished games in a PGN file (games with the result `*`, which did not
/// finish, are left out; so are games that do not replay, which are counted).
pub fn pgn_keys(path: &Path) -> (Vec<GameKey>, usize) {
    let Ok(file) = std::fs::File::open(path) else {
        return (Vec::new(), 0);
    };
    let mut keys = Vec::new();
    let mut unreadable = 0;
    for g in PgnReader::new(std::io::BufReader::new(file)) {
        let Ok(g) = g else {
            unreadable += 1;
            continue;
        };
        let result = g.tag("Result").unwrap_or("*").to_string();
        if result == "*" {
            continue;
        }
        match g.replay_moves() {
            Ok((mut board, moves)) => {
                for m in moves {
                    board.play_unchecked(m);
                }
                let (w, b) = (g.tag("White").unwrap_or(""), g.tag("Black").unwrap_or(""));
                keys.push(key(w, b, &result, &board));
            }
            Err(_) => unreadable += 1,
        }
    }
    (keys, unreadable)
}

/// Keys of the finished games in a learning store, `me` being the bot's handle.
pub fn store_keys(path: &Path, me: &str) -> Result<(Vec<GameKey>, usize), String> {
    use rusqlite::{Connection, OpenFlags};
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let mut stmt = conn
        .prepare("SELECT opponent, wily_color, result, start_fen, moves FROM games ORDER BY id")
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let rows = stmt
        .query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, Option<String>>(3)?,
                r.get::<_, String>(4)?,
            ))
        })
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let mut keys = Vec::new();
    let mut unreadable = 0;
    for row in rows {
        let Ok((opponent, color, result, start_fen, moves)) = row else {
            unreadable += 1;
            continue;
        };
        if result == "*" {
            continue;
        }
        let start = match start_fen.as_deref().map(parse_fen) {
            None => Ok(Board::default()),
            Some(r) => r,
        };
        let Ok(mut board) = start else {
            unreadable += 1;
            continue;
        };
        let mut ok = true;
        for m in moves.split_whitespace() {
            match m.parse::<Move>() {
                Ok(mv) if board.try_play(mv).is_ok() => {}
                _ => {
                    ok = false;
                    break;
                }
            }
        }
        if !ok {
            unreadable += 1;
            continue;
        }
        let (w, b) = if color == "white" {
            (me, opponent.as_str())
        } else {
            (opponent.as_str(), me)
        };
        keys.push(key(w, b, &result, &board));
    }
    Ok((keys, unreadable))
}

/// The places in `wanted` of the keys not in `have` (as multisets), and how many of
/// `have` are not in `wanted`.
pub fn missing_indices(wanted: &[GameKey], have: &[GameKey]) -> (Vec<usize>, usize) {
    let mut bag: HashMap<&GameKey, i64> = HashMap::new();
    for k in have {
        *bag.entry(k).or_default() += 1;
    }
    let mut missing = Vec::new();
    for (i, k) in wanted.iter().enumerate() {
        match bag.get_mut(k) {
            Some(n) if *n > 0 => *n -= 1,
            _ => missing.push(i),
        }
    }
    let extra = bag.values().filter(|n| **n > 0).map(|n| *n as usize).sum();
    (missing, extra)
}

/// Resident memory of this process in KiB (`VmRSS`), 0 where `/proc` has none.
pub fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(s: &str) -> GameKey {
        (s.into(), "b".into(), "1-0".into(), "x w".into())
    }

    #[test]
    fn multiset_difference_counts_each_game() {
        let wanted = vec![k("a"), k("a"), k("c")];
        let have = vec![k("a"), k("d")];
        assert_eq!(missing_indices(&wanted, &have), (vec![1, 2], 1));
        assert_eq!(missing_indices(&have, &have), (vec![], 0));
    }

    #[test]
    fn pgn_games_are_keyed_by_their_final_position() {
        let dir = testkit::scratch::dir("soak-check");
        let path = dir.path().join("games.pgn");
        let pgn = "[Event \"x\"]\n[White \"Wily1\"]\n[Black \"Spar1\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n\
                   [Event \"x\"]\n[White \"wily1\"]\n[Black \"spar1\"]\n[Result \"*\"]\n\n1. e4 *\n\n";
        std::fs::write(&path, pgn).expect("write");
        let (keys, bad) = pgn_keys(&path);
        assert_eq!(bad, 0);
        assert_eq!(keys.len(), 1, "the unfinished game is left out");
        let mut b = Board::default();
        for m in ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"] {
            b.play(m.parse().expect("move"));
        }
        let rec = FinishedRecord {
            white: "wily1".into(),
            black: "Spar1".into(),
            result: "1-0".into(),
            reason: "Spar1 checkmated".into(),
            time_forfeit: None,
            final_fen: format!("{b}"),
            plies: 7,
            resumed: 0,
        };
        assert_eq!(server_key(&rec).as_ref(), keys.first());
    }

    #[test]
    fn resident_memory_is_read() {
        if Path::new("/proc/self/status").exists() {
            assert!(rss_kib() > 0);
        }
    }
}
