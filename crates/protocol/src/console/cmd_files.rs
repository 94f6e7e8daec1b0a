//! Console commands that read and write files: read/reada, savegame, savepos, input, log,
//! pgn/tags and `--resume`.

use super::loadgame::{load, parse, replay, LoadedGame};
use super::state::{Awaiting, CmdResult, Console, Flow};
use crate::gamefiles::{last_game_file, write_atomic};
use crate::record::{valid_tag_name, write_pgn};
use chess::fen::to_fen;
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
        .map(|l| crate::input::clean(l.as_bytes()))
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
        ["number", n] => {
            let n: u32 = n
                .parse()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| format!("log: '{n}' is not a game number"))?;
            c.files.set_next_number(n);
            c.note(&format!("the next game files are numbered {n:03}"));
        }
        [n] | [n, _] => {
            let n: usize = n
                .parse()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| format!("log: '{n}' is not on, off or a number of lines"))?;
            let path = c
                .files
                .log_path()
                .ok_or("log: no log file (log off, or no game yet)")?;
            let text = tail_lines(&path, n).map_err(|e| format!("log: {}: {e}", path.display()))?;
            match args.get(1) {
                None => {
                    for l in text.lines() {
                        c.say(l);
                    }
                }
                Some(file) => {
                    crate::gamefiles::write_atomic(Path::new(file), text.as_bytes())
                        .map_err(|e| format!("log: {file}: {e}"))?;
                    c.note(&format!(
                        "the last {} lines of {} copied to {file}",
                        text.lines().count(),
                        path.display()
                    ));
                }
            }
        }
        _ => return Err("usage: log on|off|N [FILE]|number N".into()),
    }
    Ok(Flow::Continue)
}

/// The last `n` lines of the file at `path` (read from the end, at most 8 MiB).
fn tail_lines(path: &Path, n: usize) -> std::io::Result<String> {
    use std::io::{Read, Seek, SeekFrom};
    let mut f = std::fs::File::open(path)?;
    let len = f.metadata()?.len();
    let start = len.saturating_sub(8 << 20);
    f.seek(SeekFrom::Start(start))?;
    let mut bytes = Vec::new();
    f.read_to_end(&mut bytes)?;
    let text = String::from_utf8_lossy(&bytes);
    let lines: Vec<&str> = text.lines().collect();
    let from = lines.len().saturating_sub(n);
    Ok(lines[from..].iter().map(|l| format!("{l}\n")).collect())
}

/// `ls [PATTERN]`: the files matching PATTERN (`*` and `?` in the last part; a folder
/// lists its contents), sorted.
pub fn ls(c: &mut Console, args: &[&str]) -> CmdResult {
    let pattern = match args {
        [] => ".",
        [p] => p,
        _ => return Err("usage: ls [PATTERN]".into()),
    };
    let given = Path::new(pattern);
    let (dir, mask) = if given.is_dir() {
        (given.to_path_buf(), "*".to_string())
    } else {
        let dir = given
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let mask = given
            .file_name()
            .map_or("*".into(), |m| m.to_string_lossy().to_string());
        (dir.to_path_buf(), mask)
    };
    let entries = std::fs::read_dir(&dir).map_err(|e| format!("ls: {}: {e}", dir.display()))?;
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().to_string();
            let slash = if e.path().is_dir() { "/" } else { "" };
            wildcard(&mask, &name).then(|| format!("{name}{slash}"))
        })
        .collect();
    names.sort();
    if names.is_empty() {
        return Err(format!("ls: no file matches {pattern}"));
    }
    for n in names {
        c.say(&n);
    }
    Ok(Flow::Continue)
}

/// Whether `name` matches `mask` (`*` any run, `?` any one character).
fn wildcard(mask: &str, name: &str) -> bool {
    fn go(m: &[char], n: &[char]) -> bool {
        match (m.first(), n.first()) {
            (None, None) => true,
            (Some('*'), _) => go(&m[1..], n) || (!n.is_empty() && go(m, &n[1..])),
            (Some('?'), Some(_)) => go(&m[1..], &n[1..]),
            (Some(a), Some(b)) => a == b && go(&m[1..], &n[1..]),
            _ => false,
        }
    }
    let m: Vec<char> = mask.chars().collect();
    let n: Vec<char> = name.chars().collect();
    go(&m, &n)
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
    if *name == "Result" {
        return set_result(c, &rest.join(" "));
    }
    if ["SetUp", "FEN"].contains(name) {
        return Err(format!("pgn: {name} is set from the game itself"));
    }
    let value = rest.join(" ");
    let value = value.trim_matches('"');
    c.tags.set(name, value);
    c.save_game_file();
    Ok(Flow::Continue)
}

/// `pgn Result R`: the operator records the game's result (a game decided away from the
/// board: adjudication, a flag, a resignation); the game ends with it.
fn set_result(c: &mut Console, value: &str) -> CmdResult {
    use crate::game::{Outcome, Score as GameScore};
    let score = match value.trim_matches('"') {
        "1-0" => GameScore::WhiteWins,
        "0-1" => GameScore::BlackWins,
        "1/2-1/2" | "1/2" => GameScore::Draw,
        other => return Err(format!("pgn: Result '{other}' is not 1-0, 0-1 or 1/2-1/2")),
    };
    if let Some(o) = &c.game.outcome {
        return Err(format!(
            "pgn: the game is already over ({} {})",
            o.score.as_pgn(),
            o.reason
        ));
    }
    c.stop_pondering();
    c.finish_game(Outcome::new(score, "result set by the operator"));
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
    play_loaded(c, &loaded, from_start, &path.display().to_string())
}

/// Plays the moves of a game read from `source` after an optional reset to its start
/// position (and its tags).
fn play_loaded(
    c: &mut Console,
    loaded: &LoadedGame,
    from_start: bool,
    source: &str,
) -> Result<usize, String> {
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
        c.say(&format!("{source}: stopped at {e}"));
    }
    Ok(moves.len())
}

pub fn read(c: &mut Console, args: &[&str]) -> CmdResult {
    read_command(c, args, true)
}

pub fn reada(c: &mut Console, args: &[&str]) -> CmdResult {
    read_command(c, args, false)
}

/// `read [FILE]` / `reada [FILE]`: with a file, its moves at once; without one, as Crafty,
/// the lines typed at the console (or the rest of a command file) until `exit`.
fn read_command(c: &mut Console, args: &[&str], from_start: bool) -> CmdResult {
    let name = if from_start { "read" } else { "reada" };
    c.stop_pondering();
    match args {
        [] => {
            c.say(&format!(
                "{name}: type the game (PGN tags and moves), then 'exit' on a line of its own"
            ));
            c.awaiting = Some(Awaiting::Read {
                from_start,
                text: String::new(),
            });
        }
        [p] => {
            let path = PathBuf::from(p);
            let loaded = load(&path)?;
            let n = play_loaded(c, &loaded, from_start, &path.display().to_string())?;
            let what = if from_start { "read" } else { "appended" };
            c.note(&format!("{what} {n} moves from {}", path.display()));
        }
        _ => return Err(format!("usage: {name} [FILE]")),
    }
    Ok(Flow::Continue)
}

/// One line for a bare `read`/`reada`: kept, or at `exit` (or the end of input, `None`)
/// the text read as a game and its moves played.
pub fn read_line(c: &mut Console, line: Option<&str>) {
    let Some(Awaiting::Read {
        from_start,
        mut text,
    }) = c.awaiting.take()
    else {
        return;
    };
    if let Some(l) = line.filter(|l| l.trim() != "exit") {
        text.push_str(l);
        text.push('\n');
        c.awaiting = Some(Awaiting::Read { from_start, text });
        return;
    }
    let result = parse(&text).and_then(|g| play_loaded(c, &g, from_start, "input"));
    match result {
        Ok(n) => {
            let what = if from_start { "read" } else { "appended" };
            c.say(&format!("{what} {n} moves from the console"));
        }
        Err(e) => c.say(&format!("read: {e}")),
    }
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
        crate::game::color_name(c.game.side_to_move())
    ));
    Ok(())
}
