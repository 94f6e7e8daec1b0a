//! The console's link to the opening book and the learning store: every book, learning
//! and list command arrives at [`command`] (`list` edits the opponent lists the server bot
//! reads); [`book_move`] picks a book move before the
//! computer searches and shows the candidate set.

use super::state::{CmdResult, Console, Flow};
use crate::books::with_hooks;
use cozy_chess::Move;
use learn::Learner;
use lists::OpponentLists;

/// `book`, `books`, `bookw`, `show book`, `import`, `learn` and `list`.
pub fn command(c: &mut Console, _args: &[&str]) -> CmdResult {
    let line = c.current_line.clone();
    let word = line.split_whitespace().next().unwrap_or("");
    if word == "list" {
        return list_command(c, line.trim_start()["list".len()..].trim());
    }
    if word == "show" && line.split_whitespace().nth(1) != Some("book") {
        return Err("usage: show book".into());
    }
    c.stop_pondering();
    let text = if book::console::handles(&line) {
        let board = c.game.board().clone();
        let book = &mut c.book;
        let learner = c.learner.as_ref();
        with_hooks(&mut c.runner.engine, learner, |hooks| {
            book::console::command(book, &line, &board, hooks)
        })
        .map_err(|e| e.to_string())?
    } else {
        if c.learner.is_none() {
            let path = Learner::default_path();
            let l = Learner::open(&path).map_err(|e| format!("{word}: {e}"))?;
            c.learner = Some(l);
        }
        let text = match c.learner.as_mut() {
            Some(l) => learn::console::command(l, &line).map_err(|e| e.to_string())?,
            None => return Err(format!("{word}: the learning store is not open")),
        };
        // `learn N`, `import` and `learn clear` may change what position learning knows.
        if let Some(l) = c.learner.as_ref() {
            c.runner.engine.set_learned(&l.learned_positions());
        }
        text
    };
    for l in text.lines() {
        c.say(l);
    }
    Ok(Flow::Continue)
}

/// `list [GM|IM|C|AK|S [+name] [-name]]`: shows or edits the opponent lists in the lists
/// folder ([`datadir::lists_dir`]) that `wily ics` reads; each change is saved
/// atomically. Problems in the files are reported, never fatal.
fn list_command(c: &mut Console, args: &str) -> CmdResult {
    let dir = datadir::lists_dir();
    let (mut lists, warnings) = OpponentLists::load(&dir);
    for w in &warnings {
        c.say(&format!("list: {w}"));
    }
    let text = lists
        .command(&dir, args)
        .map_err(|e| format!("list: {e}"))?;
    c.say(&text);
    Ok(Flow::Continue)
}

/// The book's move for the current position, if any; prints the candidate set (the full
/// table with `show book`, else one line).
pub fn book_move(c: &mut Console) -> Option<Move> {
    if !c.book.settings.enabled {
        return None;
    }
    let board = c.game.board().clone();
    if !c.book.contains(&board) {
        return None;
    }
    let book = &mut c.book;
    let learner = c.learner.as_ref();
    let choice = with_hooks(&mut c.runner.engine, learner, |hooks| {
        book.choose(&board, hooks)
    });
    if c.book.settings.show {
        let text = choice.table.render(&board);
        for l in text.lines() {
            c.say(l);
        }
    } else {
        let moves: Vec<String> = choice
            .table
            .playable()
            .iter()
            .map(|&m| chess::san::to_san(&board, m))
            .collect();
        if !moves.is_empty() {
            c.say(&format!("        book moves {{{}}}", moves.join(", ")));
        }
    }
    if choice.searched {
        c.say("        (chosen by a short search among the book moves)");
    }
    choice.mv
}
