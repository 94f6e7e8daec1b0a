//! The learning commands as the console and operator tells type them: `learn ...` and
//! `import FILE [clear]`. Each takes the whole command line and returns the text to print.

use super::{LearnError, Learner, LEARN_BOOK, LEARN_POSITION, LEARN_RESULT};
use std::path::{Path, PathBuf};

/// Help lines for the commands handled here.
pub const HELP: &str = "\
learn                         show the learning settings and what is stored
learn N, learn=N              learning modes: 1 book, 2 position, 4 result (sum; default 7; 0 off)
learn clear [book|position|result|all]
                              forget learned values (games and samples are kept)
learn export [DIR]            write DIR/book.lrn and DIR/position.lrn (default: beside the store)
learn export crafty [DIR]     the same, book.lrn in Crafty's format (line, players, value, depth, rating difference)
learn samples RATE            fraction 0-1 of searched positions kept as training samples
learn log FILE|off            append each game's learned book line to FILE in Crafty's book.lrn format
learn opponent NAME           wily's results against NAME
import FILE [clear]           read a book.lrn or position.lrn file (clear: replace, not merge)
";

/// Whether `line` is a command this module handles.
pub fn handles(line: &str) -> bool {
    matches!(
        line.split_whitespace().next(),
        Some("learn") | Some("import")
    ) || line.trim_start().starts_with("learn=")
}

fn usage(msg: &str) -> LearnError {
    LearnError::Usage(format!(
        "{msg}; type `help learn` for the learning commands"
    ))
}

fn mode_text(mode: u8) -> String {
    let mut parts = Vec::new();
    if mode & LEARN_BOOK != 0 {
        parts.push("book");
    }
    if mode & LEARN_POSITION != 0 {
        parts.push("position");
    }
    if mode & LEARN_RESULT != 0 {
        parts.push("result");
    }
    if parts.is_empty() {
        "off".to_string()
    } else {
        parts.join("+")
    }
}

/// Status text for `learn` with no argument.
pub fn status(learner: &Learner) -> Result<String, LearnError> {
    let (book, positions, forbidden) = learner.counts();
    let games = learner.store().count("games")?;
    let samples = learner.store().count("samples")?;
    Ok(format!(
        "learn {} ({}); store {}\n\
         {book} learned book values, {positions} positions, {forbidden} forbidden book moves, \
         {games} games, {samples} training samples (sample rate {})\n",
        learner.mode(),
        mode_text(learner.mode()),
        learner.path().display(),
        learner.settings.sample_rate
    ))
}

/// Runs one learning command.
pub fn command(learner: &mut Learner, line: &str) -> Result<String, LearnError> {
    let mut words: Vec<&str> = line.split_whitespace().collect();
    // Crafty's `learn=N` form (the bits as with `learn N`).
    if let Some(n) = words.first().and_then(|w| w.strip_prefix("learn=")) {
        words.splice(0..1, ["learn", n]);
    }
    match words.as_slice() {
        ["learn"] => status(learner),
        ["learn", "clear", rest @ ..] => {
            let what = match rest {
                [] | ["all"] => LEARN_BOOK | LEARN_POSITION | LEARN_RESULT,
                ["book"] => LEARN_BOOK,
                ["position"] => LEARN_POSITION,
                ["result"] => LEARN_RESULT,
                _ => return Err(usage("usage: learn clear [book|position|result|all]")),
            };
            learner.clear(what)?;
            Ok(format!("cleared {} learning\n", mode_text(what)))
        }
        ["learn", "export", rest @ ..] => {
            let (crafty, rest) = match rest {
                ["crafty", rest @ ..] => (true, rest),
                _ => (false, rest),
            };
            let dir = match rest {
                [] => learner
                    .path()
                    .parent()
                    .filter(|p| !p.as_os_str().is_empty())
                    .map(Path::to_path_buf)
                    .unwrap_or_else(|| PathBuf::from(".")),
                [d] => PathBuf::from(d),
                _ => return Err(usage("usage: learn export [crafty] [DIR]")),
            };
            if crafty {
                return Ok(learner.export_crafty(&dir)?.render());
            }
            let (b, p) = learner.export(&dir)?;
            Ok(format!("wrote {} and {}\n", b.display(), p.display()))
        }
        ["learn", "log", "off"] => {
            learner.settings.lrn_log = None;
            Ok("learning log off\n".into())
        }
        ["learn", "log", file] => {
            learner.settings.lrn_log = Some(PathBuf::from(file));
            Ok(format!(
                "each game's learned book line is appended to {file} (Crafty's book.lrn format)\n"
            ))
        }
        ["learn", "samples", rate] => {
            let r: f64 = rate
                .parse()
                .map_err(|_| usage(&format!("`{rate}` is not a number")))?;
            if !(0.0..=1.0).contains(&r) {
                return Err(usage("the sample rate is from 0 to 1"));
            }
            learner.settings.sample_rate = r;
            Ok(format!("learn samples {r}\n"))
        }
        ["learn", "opponent", name] => {
            let s = learner.opponent_stats(name)?;
            Ok(format!(
                "{name}: {} games, +{} ={} -{}{}\n",
                s.games,
                s.wins,
                s.draws,
                s.losses,
                s.last.map(|d| format!(", last {d}")).unwrap_or_default()
            ))
        }
        ["learn", n] => {
            let n: u8 = n
                .parse()
                .map_err(|_| usage(&format!("unknown learn argument `{n}`")))?;
            learner.set_mode(n)?;
            Ok(format!("learn {n} ({})\n", mode_text(n)))
        }
        ["import", file] => Ok(learner
            .import(Path::new(file), false)?
            .render(Path::new(file))),
        ["import", file, "clear"] => Ok(learner
            .import(Path::new(file), true)?
            .render(Path::new(file))),
        ["import", ..] => Err(usage("usage: import FILE [clear]")),
        _ => Err(usage("not a learning command")),
    }
}
