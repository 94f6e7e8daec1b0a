//! Errors of the opening-book code: every message names the file and says how to recover.

use std::fmt;
use std::path::{Path, PathBuf};

/// What went wrong with a book file or a book command.
#[derive(Debug)]
pub enum BookError {
    /// The file could not be opened, read or written.
    Io {
        path: PathBuf,
        op: &'static str,
        source: std::io::Error,
    },
    /// The file is not a wily book (wrong magic) or is damaged (truncated, bad checksum,
    /// unsorted entries).
    Corrupt {
        path: PathBuf,
        what: String,
        remedy: String,
    },
    /// The file was written by a newer wily (unknown format version).
    Version {
        path: PathBuf,
        found: u32,
        supported: u32,
    },
    /// A bad argument to a book command.
    Usage(String),
    /// Building a book failed (bad PGN source and the like).
    Build(String),
}

impl BookError {
    pub(crate) fn io(path: &Path, op: &'static str, source: std::io::Error) -> Self {
        BookError::Io {
            path: path.to_path_buf(),
            op,
            source,
        }
    }

    pub(crate) fn corrupt(path: &Path, what: impl Into<String>, remedy: impl Into<String>) -> Self {
        BookError::Corrupt {
            path: path.to_path_buf(),
            what: what.into(),
            remedy: remedy.into(),
        }
    }
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Io { path, op, source } => {
                write!(f, "cannot {op} {}: {source}", path.display())
            }
            BookError::Corrupt { path, what, remedy } => {
                write!(
                    f,
                    "{} is not a usable book file ({what}); {remedy}",
                    path.display()
                )
            }
            BookError::Version {
                path,
                found,
                supported,
            } => write!(
                f,
                "{} has book format version {found}, this wily reads version {supported}; \
                 rebuild it with `wily book create ...` or use a newer wily",
                path.display()
            ),
            BookError::Usage(msg) | BookError::Build(msg) => f.write_str(msg),
        }
    }
}

impl std::error::Error for BookError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BookError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
