//! The learning store: an embedded SQLite database (WAL journal, `synchronous=FULL`)
//! with a schema-version table and forward migrations. A finished game is written in one
//! transaction, so a kill -9 at any moment loses at most that game.
//!
//! Identification: the SQLite header's application id is set to "WILY"; a database with
//! tables but another id is a foreign file and is refused, never modified.

use super::error::LearnError;
use rusqlite::{Connection, ErrorCode, OpenFlags};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// `PRAGMA application_id` of a wily learning store ("WILY" in ASCII).
pub const APPLICATION_ID: i64 = 0x5749_4C59;

/// Migrations in order; entry `i` brings the schema to version `i + 1`.
const MIGRATIONS: &[&str] = &[
    // Version 1.
    "CREATE TABLE book_learn (
        key INTEGER NOT NULL,          -- Polyglot key of the position (u64 bits)
        mv TEXT NOT NULL,              -- the book move, coordinates, castling as e1h1
        value INTEGER NOT NULL,        -- learned value, centipawns, mover's view
        depth INTEGER NOT NULL,        -- mean depth of the searches it came from
        games INTEGER NOT NULL,        -- games that contributed
        fen TEXT NOT NULL,             -- the position before the move
        updated INTEGER NOT NULL,      -- unix seconds
        PRIMARY KEY (key, mv)
     ) WITHOUT ROWID;
     CREATE TABLE positions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        key INTEGER NOT NULL UNIQUE,   -- Polyglot key
        fen TEXT NOT NULL,
        score INTEGER NOT NULL,        -- centipawns, side to move
        depth INTEGER NOT NULL,
        best TEXT,                     -- best move, coordinates, castling as e1h1
        ts INTEGER NOT NULL            -- unix seconds; the oldest go first
     );
     CREATE INDEX positions_age ON positions (ts, id);
     CREATE TABLE forbidden (
        key INTEGER NOT NULL,
        mv TEXT NOT NULL,
        fen TEXT NOT NULL,
        game_id INTEGER,
        ts INTEGER NOT NULL,
        PRIMARY KEY (key, mv)
     ) WITHOUT ROWID;
     CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        ts INTEGER NOT NULL,
        date TEXT NOT NULL,
        opponent TEXT NOT NULL,
        wily_color TEXT NOT NULL,      -- 'white' or 'black'
        wily_rating INTEGER,
        opponent_rating INTEGER,
        time_control TEXT NOT NULL,
        result TEXT NOT NULL,          -- '1-0', '0-1', '1/2-1/2', '*'
        reason TEXT NOT NULL,
        plies INTEGER NOT NULL,
        book_exit_ply INTEGER,
        start_fen TEXT,
        moves TEXT NOT NULL            -- coordinates separated by spaces
     );
     CREATE INDEX games_opponent ON games (opponent);
     CREATE TABLE samples (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id INTEGER NOT NULL REFERENCES games (id),
        ply INTEGER NOT NULL,
        fen TEXT NOT NULL,
        score INTEGER NOT NULL,        -- centipawns, White's view
        result REAL NOT NULL           -- 1, 0.5, 0 from White's view
     );",
    // Version 2: where a learned book value came from, for Crafty's book.lrn on export
    // (NULL in rows learned before it; the export looks those up in `games`).
    "ALTER TABLE book_learn ADD COLUMN line TEXT;   -- moves from the start up to mv, coordinates
     ALTER TABLE book_learn ADD COLUMN opponent TEXT;
     ALTER TABLE book_learn ADD COLUMN rating_diff INTEGER;  -- learner's rating minus the opponent's
     ALTER TABLE book_learn ADD COLUMN learned TEXT;         -- date, YYYY.MM.DD",
];

/// Stores up to this size get a `quick_check` when opened.
const QUICK_CHECK_LIMIT: u64 = 512 << 20;

/// The newest schema version this wily knows.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// An open learning store.
pub struct Store {
    pub(crate) conn: Connection,
    path: PathBuf,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").field("path", &self.path).finish()
    }
}

/// Maps a SQLite error to a store error, recognising damaged and foreign files.
/// Learns one position (position learning): its key, FEN, score and depth from the side
/// to move, and best move, replacing what was learned of the same key before.
pub(crate) fn upsert_position(
    c: &Connection,
    key: i64,
    fen: &str,
    score: i64,
    depth: i64,
    best: &str,
    ts: i64,
) -> rusqlite::Result<usize> {
    c.execute(
        "INSERT INTO positions (key, fen, score, depth, best, ts)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)
         ON CONFLICT (key) DO UPDATE SET fen = excluded.fen, score = excluded.score,
            depth = excluded.depth, best = excluded.best, ts = excluded.ts",
        rusqlite::params![key, fen, score, depth, best, ts],
    )
}

/// Keeps at most `max` learned positions, forgetting the oldest first.
pub(crate) fn trim_positions(c: &Connection, max: i64) -> rusqlite::Result<()> {
    let n: i64 = c.query_row("SELECT count(*) FROM positions", [], |r| r.get(0))?;
    if n > max {
        c.execute(
            "DELETE FROM positions WHERE id IN
                (SELECT id FROM positions ORDER BY ts, id LIMIT ?1)",
            rusqlite::params![n - max],
        )?;
    }
    Ok(())
}

pub(crate) fn sql_err(path: &Path, op: &'static str, e: rusqlite::Error) -> LearnError {
    if let rusqlite::Error::SqliteFailure(f, msg) = &e {
        if matches!(f.code, ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt) {
            return LearnError::Corrupt {
                path: path.to_path_buf(),
                detail: msg.clone().unwrap_or_else(|| f.to_string()),
            };
        }
    }
    LearnError::Sql {
        path: path.to_path_buf(),
        op,
        source: e,
    }
}

impl Store {
    /// Opens (creating it when absent) and checks the store, then brings its schema up to
    /// date. Damaged, foreign and too-new files are refused with a message naming the
    /// file and the way out; they are never modified.
    pub fn open(path: &Path) -> Result<Store, LearnError> {
        if let Some(dir) = path.parent() {
            if !dir.as_os_str().is_empty() && !dir.exists() {
                std::fs::create_dir_all(dir).map_err(|e| LearnError::Io {
                    path: dir.to_path_buf(),
                    op: "create directory",
                    source: e,
                })?;
            }
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn =
            Connection::open_with_flags(path, flags).map_err(|e| sql_err(path, "open", e))?;
        let store = Store {
            conn,
            path: path.to_path_buf(),
        };
        store.check_and_migrate()?;
        Ok(store)
    }

    /// Opens an existing store for reading only (the tuner's `--learn`): checked as
    /// [`Store::open`] checks it, but never created, migrated or written.
    pub fn open_read_only(path: &Path) -> Result<Store, LearnError> {
        if !path.is_file() {
            return Err(LearnError::Usage(format!(
                "no learning store at {}",
                path.display()
            )));
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn =
            Connection::open_with_flags(path, flags).map_err(|e| sql_err(path, "open", e))?;
        let store = Store {
            conn,
            path: path.to_path_buf(),
        };
        let c = &store.conn;
        c.busy_timeout(Duration::from_secs(10))
            .map_err(store.err("set busy timeout"))?;
        let app_id: i64 = c
            .pragma_query_value(None, "application_id", |r| r.get(0))
            .map_err(store.err("read header"))?;
        if app_id != APPLICATION_ID {
            return Err(LearnError::Foreign {
                path: path.to_path_buf(),
            });
        }
        let version = store.schema_version()?;
        if version > SCHEMA_VERSION {
            return Err(LearnError::TooNew {
                path: path.to_path_buf(),
                found: version,
                supported: SCHEMA_VERSION,
            });
        }
        Ok(store)
    }

    /// Calls `f` with every training sample, oldest first: the FEN, the search score
    /// (centipawns) and the game's result (1, 0.5 or 0), both from White's point of view.
    /// Returns the number of samples.
    pub fn for_each_sample(&self, mut f: impl FnMut(&str, i32, f64)) -> Result<u64, LearnError> {
        let mut stmt = self
            .conn
            .prepare("SELECT fen, score, result FROM samples ORDER BY id")
            .map_err(self.err("read samples"))?;
        let mut rows = stmt.query([]).map_err(self.err("read samples"))?;
        let mut n = 0;
        while let Some(row) = rows.next().map_err(self.err("read samples"))? {
            let fen: String = row.get(0).map_err(self.err("read samples"))?;
            let score: i32 = row.get(1).map_err(self.err("read samples"))?;
            let result: f64 = row.get(2).map_err(self.err("read samples"))?;
            f(&fen, score, result);
            n += 1;
        }
        Ok(n)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    fn err(&self, op: &'static str) -> impl Fn(rusqlite::Error) -> LearnError + '_ {
        move |e| sql_err(&self.path, op, e)
    }

    fn check_and_migrate(&self) -> Result<(), LearnError> {
        let c = &self.conn;
        c.busy_timeout(Duration::from_secs(10))
            .map_err(self.err("set busy timeout"))?;
        // Reading the header and the schema catches files that are not databases.
        let app_id: i64 = c
            .pragma_query_value(None, "application_id", |r| r.get(0))
            .map_err(self.err("read header"))?;
        let tables: i64 = c
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' \
                 AND name NOT LIKE 'sqlite_%'",
                [],
                |r| r.get(0),
            )
            .map_err(self.err("read schema"))?;
        if app_id != APPLICATION_ID && (app_id != 0 || tables > 0) {
            return Err(LearnError::Foreign {
                path: self.path.clone(),
            });
        }
        // A quick structural check at every start (skipped for very large stores, where
        // it would delay the start by seconds; `wily learn check` runs the full one).
        let size = std::fs::metadata(&self.path).map(|m| m.len()).unwrap_or(0);
        let ok: String = if size <= QUICK_CHECK_LIMIT {
            c.query_row("PRAGMA quick_check", [], |r| r.get(0))
                .map_err(self.err("check"))?
        } else {
            "ok".to_string()
        };
        if ok != "ok" {
            return Err(LearnError::Corrupt {
                path: self.path.clone(),
                detail: format!("integrity check: {ok}"),
            });
        }
        let mode: String = c
            .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
            .map_err(self.err("set journal mode"))?;
        if !mode.eq_ignore_ascii_case("wal") {
            // Some file systems cannot do WAL; the rollback journal is as safe with
            // synchronous=FULL, only slower.
            c.query_row("PRAGMA journal_mode = DELETE", [], |r| {
                r.get::<_, String>(0)
            })
            .map_err(self.err("set journal mode"))?;
        }
        c.pragma_update(None, "synchronous", "FULL")
            .map_err(self.err("set synchronous"))?;
        c.pragma_update(None, "foreign_keys", "ON")
            .map_err(self.err("enable foreign keys"))?;
        c.execute_batch(
            "CREATE TABLE IF NOT EXISTS schema_version (
                version INTEGER NOT NULL,
                applied TEXT NOT NULL
             );",
        )
        .map_err(self.err("create schema table"))?;
        if app_id == 0 {
            c.pragma_update(None, "application_id", APPLICATION_ID)
                .map_err(self.err("write header"))?;
        }
        let current: i64 = c
            .query_row(
                "SELECT coalesce(max(version), 0) FROM schema_version",
                [],
                |r| r.get(0),
            )
            .map_err(self.err("read schema version"))?;
        if current > SCHEMA_VERSION {
            return Err(LearnError::TooNew {
                path: self.path.clone(),
                found: current,
                supported: SCHEMA_VERSION,
            });
        }
        for (i, sql) in MIGRATIONS.iter().enumerate().skip(current.max(0) as usize) {
            let version = i as i64 + 1;
            let now = chrono::Utc::now().to_rfc3339();
            c.execute_batch("BEGIN IMMEDIATE")
                .map_err(self.err("begin migration"))?;
            let r = c.execute_batch(sql).and_then(|_| {
                c.execute(
                    "INSERT INTO schema_version (version, applied) VALUES (?1, ?2)",
                    rusqlite::params![version, now],
                )
            });
            match r {
                Ok(_) => c.execute_batch("COMMIT").map_err(self.err("migrate"))?,
                Err(e) => {
                    let _ = c.execute_batch("ROLLBACK");
                    return Err(sql_err(&self.path, "migrate", e));
                }
            }
        }
        Ok(())
    }

    /// The schema version of the open store.
    pub fn schema_version(&self) -> Result<i64, LearnError> {
        self.conn
            .query_row("SELECT max(version) FROM schema_version", [], |r| r.get(0))
            .map_err(self.err("read schema version"))
    }

    /// Row count of a table (for `learn` status and tests).
    pub fn count(&self, table: &str) -> Result<i64, LearnError> {
        let table = match table {
            "book_learn" | "positions" | "forbidden" | "games" | "samples" => table,
            _ => return Err(LearnError::Usage(format!("no table {table}"))),
        };
        self.conn
            .query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
            .map_err(self.err("count rows"))
    }

    /// Runs SQLite's full integrity check; `Ok(())` when the file is sound.
    pub fn integrity_check(&self) -> Result<(), LearnError> {
        let ok: String = self
            .conn
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .map_err(self.err("check"))?;
        if ok == "ok" {
            Ok(())
        } else {
            Err(LearnError::Corrupt {
                path: self.path.clone(),
                detail: ok,
            })
        }
    }
}
