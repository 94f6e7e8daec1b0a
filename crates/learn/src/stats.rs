//! Read-only summaries of the learning store for dashboards: per-opponent results, wily's
//! rating after each game, and row counts. Opens the file read-only (a writer in the bot
//! may hold it at the same time) and never creates or migrates it.

use rusqlite::{Connection, OpenFlags};
use serde::Serialize;
use std::path::Path;

/// Results against one opponent, from wily's side.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OpponentStat {
    pub opponent: String,
    pub games: i64,
    pub wins: i64,
    pub draws: i64,
    pub losses: i64,
    /// The opponent's rating in the last game against it.
    pub last_rating: Option<i64>,
}

/// wily's rating at one finished game.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RatingPoint {
    pub unix: i64,
    pub rating: i64,
}

/// What a dashboard shows of the store.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct StoreSummary {
    pub games: i64,
    pub book_values: i64,
    pub positions: i64,
    pub forbidden: i64,
    pub samples: i64,
    /// Most-played opponents first (at most `limit`).
    pub opponents: Vec<OpponentStat>,
    /// Oldest first (at most the last 500 rated points).
    pub rating: Vec<RatingPoint>,
}

/// Reads the summary; `Err` with a message when the file is absent or unreadable.
pub fn summary(path: &Path, limit: usize) -> Result<StoreSummary, String> {
    if !path.exists() {
        return Err(format!("no learning store at {}", path.display()));
    }
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| format!("{}: {e}", path.display()))?;
    let _ = conn.busy_timeout(std::time::Duration::from_secs(2));
    let q = |e: rusqlite::Error| format!("{}: {e}", path.display());
    let count = |t: &str| -> Result<i64, String> {
        conn.query_row(&format!("SELECT count(*) FROM {t}"), [], |r| r.get(0))
            .map_err(q)
    };
    let mut s = StoreSummary {
        games: count("games")?,
        book_values: count("book_learn")?,
        positions: count("positions")?,
        forbidden: count("forbidden")?,
        samples: count("samples")?,
        ..StoreSummary::default()
    };
    let mut st = conn
        .prepare(
            "SELECT opponent, count(*),
                sum(CASE WHEN (result = '1-0' AND wily_color = 'white')
                           OR (result = '0-1' AND wily_color = 'black') THEN 1 ELSE 0 END),
                sum(CASE WHEN result = '1/2-1/2' THEN 1 ELSE 0 END),
                sum(CASE WHEN (result = '0-1' AND wily_color = 'white')
                           OR (result = '1-0' AND wily_color = 'black') THEN 1 ELSE 0 END),
                (SELECT g2.opponent_rating FROM games g2 WHERE g2.opponent = games.opponent
                 ORDER BY g2.id DESC LIMIT 1)
             FROM games GROUP BY opponent ORDER BY count(*) DESC, opponent LIMIT ?1",
        )
        .map_err(q)?;
    let rows = st
        .query_map([limit as i64], |r| {
            Ok(OpponentStat {
                opponent: r.get(0)?,
                games: r.get(1)?,
                wins: r.get(2)?,
                draws: r.get(3)?,
                losses: r.get(4)?,
                last_rating: r.get(5)?,
            })
        })
        .map_err(q)?;
    for r in rows {
        s.opponents.push(r.map_err(q)?);
    }
    let mut st = conn
        .prepare(
            "SELECT ts, wily_rating FROM (SELECT id, ts, wily_rating FROM games
             WHERE wily_rating IS NOT NULL ORDER BY id DESC LIMIT 500) ORDER BY id",
        )
        .map_err(q)?;
    let rows = st
        .query_map([], |r| {
            Ok(RatingPoint {
                unix: r.get(0)?,
                rating: r.get(1)?,
            })
        })
        .map_err(q)?;
    for r in rows {
        s.rating.push(r.map_err(q)?);
    }
    Ok(s)
}
