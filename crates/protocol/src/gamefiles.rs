//! Numbered per-game files under `logs/`: `log.NNN` (everything the program printed and
//! read during the game) and `game.NNN` (the game as PGN, rewritten atomically after every
//! move so a crash never loses a finished move).
//!
//! A game's number is taken when its game file is first written (its first move): one above
//! the highest number already in the folder (or the number set by `log N`). Log lines from
//! before that are kept in memory and written then, so a session that never plays a move
//! leaves no files behind. Write failures are reported once on stderr and then the files
//! are skipped; they never stop play.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` atomically: a temporary file in the same folder, fsync, rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty());
    let name = path
        .file_name()
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "no file name"))?;
    let tmp_name = format!(".{}.{}.tmp", name.to_string_lossy(), std::process::id());
    let tmp = match dir {
        Some(d) => d.join(tmp_name),
        None => PathBuf::from(tmp_name),
    };
    let result = (|| {
        let mut f = File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        fs::rename(&tmp, path)?;
        if let Some(d) = dir {
            // Make the rename itself durable; not every platform allows opening a folder.
            if let Ok(df) = File::open(d) {
                let _ = df.sync_all();
            }
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// Highest `N` among files named `PREFIX.N` in `dir`.
fn highest_number(dir: &Path, prefixes: &[&str]) -> Option<u32> {
    let entries = fs::read_dir(dir).ok()?;
    entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().to_string();
            let (prefix, num) = name.split_once('.')?;
            if !prefixes.contains(&prefix) || num.is_empty() || num.len() > 9 {
                return None;
            }
            num.parse::<u32>().ok()
        })
        .max()
}

/// The newest game file in `dir` (`game.NNN` with the highest number), if any.
pub fn last_game_file(dir: &Path) -> Option<PathBuf> {
    let n = highest_number(dir, &["game"])?;
    Some(dir.join(file_name("game", n)))
}

fn file_name(prefix: &str, n: u32) -> String {
    format!("{prefix}.{n:03}")
}

/// The log and game files of the current game.
pub struct GameFiles {
    dir: PathBuf,
    enabled: bool,
    number: Option<u32>,
    next_number: Option<u32>,
    log: Option<File>,
    failed: bool,
    /// Log lines waiting for the game's first move.
    early: Vec<String>,
}

/// Most log lines kept in memory before a game's first move.
const MAX_EARLY_LINES: usize = 5000;

impl GameFiles {
    /// Files in `dir` (created on first use); `enabled` false writes nothing.
    pub fn new(dir: impl Into<PathBuf>, enabled: bool) -> Self {
        GameFiles {
            dir: dir.into(),
            enabled,
            number: None,
            next_number: None,
            log: None,
            failed: false,
            early: Vec::new(),
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// `log on` / `log off`.
    pub fn set_enabled(&mut self, on: bool) {
        self.enabled = on;
        if !on {
            self.log = None;
            self.early.clear();
        }
    }

    /// `log N`: the number the next game's files get.
    pub fn set_next_number(&mut self, n: u32) {
        self.next_number = Some(n);
    }

    /// The number of the current game's files, once something was written.
    pub fn number(&self) -> Option<u32> {
        self.number
    }

    /// Path of the current game's log file, once it exists.
    pub fn log_path(&self) -> Option<PathBuf> {
        self.number.map(|n| self.dir.join(file_name("log", n)))
    }

    /// Path of the current game's PGN file, once it exists.
    pub fn game_path(&self) -> Option<PathBuf> {
        self.number.map(|n| self.dir.join(file_name("game", n)))
    }

    /// Ends the current game: the next write opens files with a new number.
    pub fn start_new_game(&mut self) {
        self.number = None;
        self.log = None;
    }

    fn report(&mut self, what: &str, e: &std::io::Error) {
        if !self.failed {
            let _ = writeln!(
                std::io::stderr(),
                "wily: cannot write {what} in {}: {e}; game files are off for this run",
                self.dir.display()
            );
            self.failed = true;
        }
    }

    fn ensure_number(&mut self) -> Option<u32> {
        if !self.enabled || self.failed {
            return None;
        }
        if let Some(n) = self.number {
            return Some(n);
        }
        if let Err(e) = fs::create_dir_all(&self.dir) {
            self.report("the logs folder", &e);
            return None;
        }
        let n = self.next_number.take().unwrap_or_else(|| {
            highest_number(&self.dir, &["log", "game"]).map_or(1, |h| h.saturating_add(1))
        });
        self.number = Some(n);
        Some(n)
    }

    /// Appends one line to the log file (held in memory until the game's first move).
    pub fn log_line(&mut self, line: &str) {
        if !self.enabled || self.failed {
            return;
        }
        if self.number.is_none() {
            if self.early.len() < MAX_EARLY_LINES {
                self.early.push(line.to_string());
            }
            return;
        }
        self.write_log(line);
    }

    fn write_log(&mut self, line: &str) {
        let Some(n) = self.ensure_number() else {
            return;
        };
        if self.log.is_none() {
            let path = self.dir.join(file_name("log", n));
            match OpenOptions::new().create(true).append(true).open(&path) {
                Ok(f) => self.log = Some(f),
                Err(e) => {
                    self.report("the log file", &e);
                    return;
                }
            }
        }
        let res = match self.log.as_mut() {
            Some(f) => writeln!(f, "{line}"),
            None => Ok(()),
        };
        if let Err(e) = res {
            self.report("the log file", &e);
            self.log = None;
        }
    }

    /// Replaces the game file with `pgn`.
    pub fn save_game(&mut self, pgn: &str) {
        let Some(n) = self.ensure_number() else {
            return;
        };
        let path = self.dir.join(file_name("game", n));
        if let Err(e) = write_atomic(&path, pgn.as_bytes()) {
            self.report("the game file", &e);
        }
        for line in std::mem::take(&mut self.early) {
            self.write_log(&line);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scratch folder's guard and a `logs` path inside it that does not exist yet.
    fn temp_dir(tag: &str) -> (tempfile::TempDir, PathBuf) {
        let scratch = testkit::scratch::dir(&format!("gamefiles-{tag}"));
        let d = scratch.path().join("logs");
        (scratch, d)
    }

    #[test]
    fn numbers_files_and_finds_the_last_game() {
        let (_scratch, d) = temp_dir("num");
        let mut g = GameFiles::new(&d, true);
        assert!(last_game_file(&d).is_none());
        g.log_line("hello");
        assert!(!d.exists(), "nothing is written before the first move");
        g.save_game("1. e4 *\n");
        assert_eq!(g.number(), Some(1));
        g.start_new_game();
        g.save_game("1. d4 *\n");
        assert_eq!(g.number(), Some(2));
        assert_eq!(last_game_file(&d), Some(d.join("game.002")));
        assert_eq!(fs::read_to_string(d.join("log.001")).unwrap(), "hello\n");
        g.start_new_game();
        g.set_next_number(40);
        g.log_line("x");
        g.save_game("1. c4 *\n");
        assert!(d.join("log.040").exists());
    }

    #[test]
    fn disabled_writes_nothing() {
        let (_scratch, d) = temp_dir("off");
        let mut g = GameFiles::new(&d, false);
        g.log_line("x");
        g.save_game("y");
        assert!(!d.exists());
    }

    #[test]
    fn unwritable_folder_is_not_fatal() {
        let mut g = GameFiles::new("/proc/wily-cannot-exist/logs", true);
        g.log_line("x");
        g.save_game("y");
        assert_eq!(g.number(), None);
    }
}
