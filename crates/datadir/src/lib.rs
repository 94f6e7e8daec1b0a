//! Where wily's data folders (`book/`, `lists/`) are when no setting names them.
//!
//! A GUI (xboard, a UCI match runner) starts the engine in a folder of its own choosing,
//! so a path relative to the working directory alone would lose the shipped book. The
//! folder is, in order: the environment variable (`WILY_BOOK_DIR`, `WILY_LISTS_DIR`) when
//! set; `NAME/` in the working directory when it exists; `NAME/` beside the executable or
//! up to three folders above it (`target/release/wily` finds the checkout's `book/`);
//! else `NAME` relative to the working directory (created on first write).
//!
//! May depend on: no other wily crate. Its `Cargo.toml` lists them and the compiler keeps
//! the wall; the crate map is `docs/modules.md`.

use std::path::{Path, PathBuf};

/// The `book/` folder (environment variable `WILY_BOOK_DIR`).
pub fn book_dir() -> PathBuf {
    resolve("book", "WILY_BOOK_DIR")
}

/// The `lists/` folder (environment variable `WILY_LISTS_DIR`).
pub fn lists_dir() -> PathBuf {
    resolve("lists", "WILY_LISTS_DIR")
}

fn resolve(name: &str, var: &str) -> PathBuf {
    let env = std::env::var_os(var).filter(|v| !v.is_empty());
    let exe = std::env::current_exe().ok();
    find(name, env.map(PathBuf::from), Path::new("."), exe.as_deref())
}

/// The rule above with its inputs explicit (tested without touching the process).
fn find(name: &str, env: Option<PathBuf>, cwd: &Path, exe: Option<&Path>) -> PathBuf {
    if let Some(dir) = env {
        return dir;
    }
    if cwd.join(name).is_dir() {
        return PathBuf::from(name);
    }
    if let Some(exe) = exe {
        let found = exe
            .ancestors()
            .skip(1)
            .take(4)
            .map(|d| d.join(name))
            .find(|d| d.is_dir());
        if let Some(d) = found {
            return d;
        }
    }
    PathBuf::from(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(tag: &str) -> tempfile::TempDir {
        testkit::scratch::dir(&format!("datadir-{tag}"))
    }

    #[test]
    fn environment_wins() {
        let got = find("book", Some("/x/y".into()), Path::new("/nonexistent"), None);
        assert_eq!(got, PathBuf::from("/x/y"));
    }

    #[test]
    fn beside_or_above_the_executable() {
        let root_dir = temp("exe");
        let root = root_dir.path();
        std::fs::create_dir_all(root.join("book")).unwrap();
        std::fs::create_dir_all(root.join("target/release")).unwrap();
        let exe = root.join("target/release/wily");
        let cwd_dir = temp("cwd");
        let cwd = cwd_dir.path();
        assert_eq!(find("book", None, cwd, Some(&exe)), root.join("book"));
        // Nothing anywhere: the plain relative name.
        assert_eq!(find("lists", None, cwd, Some(&exe)), PathBuf::from("lists"));
    }
}
