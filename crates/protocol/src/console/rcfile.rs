//! The startup command file (wily's `.craftyrc`): console commands run before the first
//! prompt. Its path is, in order: the `--rc FILE` option, the `WILY_RC` environment
//! variable, or `.wilyrc` in the working directory. A missing default file is not an
//! error; a missing file that was asked for is reported. `exit` ends the file early.

use super::cmd_files::read_command_file;
use super::state::Console;
use std::path::{Path, PathBuf};

/// Name of the default startup file in the working directory.
pub const DEFAULT_RC: &str = ".wilyrc";
/// Environment variable naming the startup file.
pub const RC_ENV: &str = "WILY_RC";

/// The startup file to read and whether it was asked for explicitly.
pub fn rc_path(explicit: Option<&Path>) -> (PathBuf, bool) {
    if let Some(p) = explicit {
        return (p.to_path_buf(), true);
    }
    match std::env::var_os(RC_ENV) {
        Some(v) if !v.is_empty() => (PathBuf::from(v), true),
        _ => (PathBuf::from(DEFAULT_RC), false),
    }
}

/// Queues the startup file's commands so they run before the first prompt.
pub fn run_startup_file(c: &mut Console, explicit: Option<&Path>) {
    let (path, asked) = rc_path(explicit);
    if !asked && !path.exists() {
        return;
    }
    match read_command_file(&path) {
        Ok(lines) => {
            c.note(&format!("reading startup commands from {}", path.display()));
            c.pending.extend(lines.into_iter().map(|l| (l, 1)));
        }
        Err(e) => c.say(&format!("startup file: {e}")),
    }
}
