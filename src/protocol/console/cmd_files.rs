//! Console commands that read and write files: read/reada, savegame, savepos, input, log,
//! pgn/tags and `--resume`.

use super::loadgame::{load, replay};
use super::state::{CmdResult, Console, Flow};
use crate::chess::fen::to_fen;
use crate::protocol::gamefiles::{last_game_file, write_atomic};
use crate::protocol::record::{valid_tag_name, write_pgn};
use std::path::{Path, PathBuf};

/// Deepest nesting of `input` files (a file that reads itself stops here).
const MAX_INPUT_DEPTH: u32 = 8;

fn one_path(name: &str, args: &[&str]) -> Result<PathBuf, String> {
    match args {
        [p] => Ok(PathBuf::from(p)),
        _ => Err(format!("usage: {name} FILE")),
    }
}

pub fn input(c: &mut Console, args: &[&str]) -> CmdResult {
    let path = one_path("input", args)?;
    let depth = c.input_depth + 1;
    if depth > MAX_INPUT_DEPTH {
        return Err(format!(
            "input: files nested deeper than {MAX_INPUT_DEPTH}; stopped"
        ));
    }
    let lines = read_command_file(&path)?;
    for (i, l) in lines.into_iter().enumerate() {
        c.pending.insert(i, (l, depth));
    }
    Ok(Flow::Continue)
}

/// The lines of a command file (at most 1 MB; blank lines and `#` comments dropped).
pub fn read_command_file(path: &Path) -> Result<Vec<String>, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if meta.len() > 1 << 20 {
        return Err(format!("{}: too large for a command file", path.display()));
    }
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(String::from_utf8_lossy(&bytes)
        .lines()
        .map(|l| crate::protocol::input::clean(l.as_bytes()))
        .filter(|l| {
            let t = l.trim();
            !t.is_empty() && !t.starts_with("# ") && t != "#"
        })
        .collect())
}

pub fn log(c: &mut Console, args: &[&str]) -> CmdResult {
    match args {
        ["on"] => {
            c.files.set_enabled(true);
            c.note(&format!("game files on ({})", c.files.dir().display()));
        }
        ["off"] => {
            c.files.set_enabled(false);
            c.note("game files off");
        }
        [n] => {
            let n: u32 = n
                .parse()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| format!("log: '{n}' is not on, off or a game number"))?;
            c.files.set_next_number(n);
            c.note(&format!("the next game files are numbered {n:03}"));
        }
        _ => return Err("usage: log on|off|N".into()),
    }
    Ok(Flow::Continue)
}

pub fn pgn(c: &mut Console, args: &[&str]) -> CmdResult {
    let [name, rest @ ..] = args else {
        return Err("usage: pgn TAG VALUE".into());
    };
    if rest.is_empty() {
        return Err("usage: pgn TAG VALUE".into());
    }
    if !valid_tag_name(name) {
        return Err(format!("pgn: '{name}' is not a tag name"));
    }
    if ["Result", "SetUp", "FEN"].contains(name) {
        return Err(format!("pgn: {name} is set from the game itself"));
    }
    let value = rest.join(" ");
    let value = value.trim_matches('"');
    c.tags.set(name, value);
    c.save_game_file();
    Ok(Flow::Continue)
}

pub fn tags(c: &mut Console, args: &[&str]) -> CmdResult {
    if !args.is_empty() {
        return Err("tags takes no arguments".into());
    }
    let pgn = write_pgn(&c.game, &c.tags, &[]);
    let lines: Vec<String> = pgn
        .lines()
        .take_while(|l| l.starts_with('['))
        .map(str::to_string)
        .collect();
    for l in lines {
        c.say(&l);
    }
    Ok(Flow::Continue)
}

pub fn savegame(c: &mut Console, args: &[&str]) -> CmdResult {
    let path = one_path("savegame", args)?;
    let pgn = write_pgn(&c.game, &c.tags, &c.comments);
    write_atomic(&path, pgn.as_bytes()).map_err(|e| format!("savegame {}: {e}", path.display()))?;
    c.note(&format!("game saved to {}", path.display()));
    Ok(Flow::Continue)
}

pub fn savepos(c: &mut Console, args: &[&str]) -> CmdResult {
    let path = one_path("savepos", args)?;
    let text = format!("setboard {}\n", to_fen(c.game.board()));
    write_atomic(&path, text.as_bytes()).map_err(|e| format!("savepos {}: {e}", path.display()))?;
    c.note(&format!("position saved to {}", path.display()));
    Ok(Flow::Continue)
}

fn default_read_path(c: &Console) -> Result<PathBuf, String> {
    last_game_file(c.files.dir()).ok_or_else(|| {
        format!(
            "no game file in {} (give a file name)",
            c.files.dir().display()
        )
    })
}

/// Plays the moves of `path` after an optional reset to its start position.
fn read_into(c: &mut Console, path: &Path, from_start: bool) -> Result<usize, String> {
    let loaded = load(path)?;
    if from_start {
        let start = loaded.start.clone().unwrap_or_default();
        c.new_game_from(start);
        for (name, value) in &loaded.tags {
            if valid_tag_name(name) && !["Result", "SetUp", "FEN"].contains(&name.as_str()) {
                c.tags.set(name, value);
            }
        }
    }
    let (moves, err) = replay(c.game.board(), &loaded.moves);
    for mv in &moves {
        c.play_move(*mv, None)?;
    }
    if let Some(e) = err {
        c.say(&format!("{}: stopped at {e}", path.display()));
    }
    Ok(moves.len())
}

pub fn read(c: &mut Console, args: &[&str]) -> CmdResult {
    c.stop_pondering();
    let path = match args {
        [] => default_read_path(c)?,
        [p] => PathBuf::from(p),
        _ => return Err("usage: read [FILE]".into()),
    };
    let n = read_into(c, &path, true)?;
    c.note(&format!("read {n} moves from {}", path.display()));
    Ok(Flow::Continue)
}

pub fn reada(c: &mut Console, args: &[&str]) -> CmdResult {
    c.stop_pondering();
    let path = match args {
        [] => default_read_path(c)?,
        [p] => PathBuf::from(p),
        _ => return Err("usage: reada [FILE]".into()),
    };
    let n = read_into(c, &path, false)?;
    c.note(&format!("appended {n} moves from {}", path.display()));
    Ok(Flow::Continue)
}

/// `wily --resume`: reloads the moves of the newest game file and keeps writing to it.
pub fn resume_last_game(c: &mut Console) -> Result<(), String> {
    let path = default_read_path(c)?;
    // Keep the same number, so the game goes on in its own files.
    if let Some(n) = path
        .extension()
        .and_then(|e| e.to_str())
        .and_then(|e| e.parse::<u32>().ok())
    {
        c.files.set_next_number(n);
    }
    let n = read_into(c, &path, true)?;
    c.say(&format!(
        "resumed {} ({n} moves); {} to move",
        path.display(),
        crate::protocol::game::color_name(c.game.side_to_move())
    ));
    Ok(())
}
