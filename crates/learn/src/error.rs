//! Errors of the learning store: each names the file and the way out.

use std::fmt;
use std::path::{Path, PathBuf};

/// What went wrong with the learning store or a learning command.
#[derive(Debug)]
pub enum LearnError {
    /// The file is damaged or is not a SQLite database at all.
    Corrupt { path: PathBuf, detail: String },
    /// A SQLite database that some other program made.
    Foreign { path: PathBuf },
    /// Made by a newer wily (a schema version this one does not know).
    TooNew {
        path: PathBuf,
        found: i64,
        supported: i64,
    },
    /// A database operation failed.
    Sql {
        path: PathBuf,
        op: &'static str,
        source: rusqlite::Error,
    },
    /// Reading or writing a text file (import/export) failed.
    Io {
        path: PathBuf,
        op: &'static str,
        source: std::io::Error,
    },
    /// A bad line in an imported file.
    Parse {
        path: PathBuf,
        line: usize,
        detail: String,
    },
    /// A bad argument to a learning command.
    Usage(String),
}

fn fresh_hint(path: &Path) -> String {
    format!(
        "move it aside to start a fresh store (e.g. `mv {p} {p}.bad`; wily creates a new one \
         on the next start), or restore it from a backup or from `learn export` files with \
         `import`",
        p = path.display()
    )
}

impl fmt::Display for LearnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LearnError::Corrupt { path, detail } => write!(
                f,
                "learning store {} is damaged or not a database ({detail}); {}",
                path.display(),
                fresh_hint(path)
            ),
            LearnError::Foreign { path } => write!(
                f,
                "{} is a SQLite database of some other program, not a wily learning store; \
                 point the learning store setting elsewhere, or {}",
                path.display(),
                fresh_hint(path)
            ),
            LearnError::TooNew {
                path,
                found,
                supported,
            } => write!(
                f,
                "learning store {} has schema version {found}, this wily knows up to \
                 {supported}; use a newer wily, or {}",
                path.display(),
                fresh_hint(path)
            ),
            LearnError::Sql { path, op, source } => {
                write!(
                    f,
                    "learning store {}: cannot {op}: {source}",
                    path.display()
                )
            }
            LearnError::Io { path, op, source } => {
                write!(f, "cannot {op} {}: {source}", path.display())
            }
            LearnError::Parse { path, line, detail } => {
                write!(f, "{}:{line}: {detail}", path.display())
            }
            LearnError::Usage(msg) => f.write_str(msg),
        }
    }
}

impl std::error::Error for LearnError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LearnError::Sql { source, .. } => Some(source),
            LearnError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
