//! Console commands that drive the game: new, go/move, force, back, reset, white/black,
//! setboard, edit, wild, load, analyze, and leaving (quit/end/exit, xboard, uci).

use super::state::{Awaiting, CmdResult, Console, Flow};
use super::think;
use crate::edit::Editor;
use chess::chess960;
use chess::fen::{parse_fen, parse_setboard, to_fen};
use cozy_chess::{Board, Color};

fn no_args(name: &str, args: &[&str]) -> Result<(), String> {
    if args.is_empty() {
        Ok(())
    } else {
        Err(format!("{name} takes no arguments"))
    }
}

/// Refuses position changes in the middle of a tournament game.
fn tournament_guard(c: &Console, what: &str) -> Result<(), String> {
    if c.settings.tournament && !c.game.moves().is_empty() && c.game.outcome.is_none() {
        Err(format!(
            "{what} is not allowed in tournament mode during a game ('mode normal' allows it)"
        ))
    } else {
        Ok(())
    }
}

/// `new`, or `new N|FEN` for a Chess960 game from position N (0-959) or a FEN.
pub fn new(c: &mut Console, args: &[&str]) -> CmdResult {
    let board = if args.is_empty() {
        Board::default()
    } else {
        chess960::parse_start(&args.join(" ")).map_err(|e| format!("new: {e}"))?
    };
    let what = match (args.is_empty(), chess960::index_of(&board)) {
        (true, _) => "new game".to_string(),
        (false, Some(n)) => format!(
            "new Chess960 game, position {n} ({})",
            chess960::back_rank(n).unwrap_or_default()
        ),
        (false, None) => "new game from the given position".to_string(),
    };
    c.computer = Some(Color::Black);
    c.new_game_from(board);
    c.set_player_tags();
    c.note(&format!("{what}: the computer plays Black"));
    Ok(Flow::Continue)
}

pub fn go(c: &mut Console, args: &[&str]) -> CmdResult {
    no_args("go", args)?;
    if let Some(o) = &c.game.outcome {
        return Err(format!(
            "the game is over ({}); type 'new' to start another",
            o.describe()
        ));
    }
    c.computer = Some(c.game.side_to_move());
    c.set_player_tags();
    Ok(Flow::Think)
}

/// Whether the last move played is the computer's (so `force` may replace it).
fn computer_moved_last(c: &Console) -> bool {
    c.computer
        .is_some_and(|comp| c.game.side_to_move() != comp && !c.game.moves().is_empty())
}

pub fn force(c: &mut Console, args: &[&str]) -> CmdResult {
    match args {
        // Crafty: without a move, it asks for the move to play instead of its own; with no
        // move of the computer's to replace, force mode (the computer plays neither side).
        [] if computer_moved_last(c) && c.game.outcome.is_none() => {
            tournament_guard(c, "force")?;
            c.stop_pondering();
            let shown = c.game.sans().last().cloned().unwrap_or_default();
            c.say(&format!(
                "force: type the move to play instead of {shown} (the computer's last move)"
            ));
            c.awaiting = Some(Awaiting::ForceMove);
            Ok(Flow::Continue)
        }
        [] => {
            c.stop_pondering();
            c.computer = None;
            c.note("force mode: the computer plays neither side ('go' ends it)");
            Ok(Flow::Continue)
        }
        [text] => {
            tournament_guard(c, "force MOVE")?;
            if c.computer.is_none() {
                return Err(
                    "force MOVE replaces the computer's move; in force mode just type the move"
                        .into(),
                );
            }
            if !computer_moved_last(c) {
                return Err(
                    "force MOVE needs the computer's move to be the last one played".into(),
                );
            }
            c.stop_pondering();
            let Some(undone) = c.undo_move() else {
                return Err("force: no move to replace".into());
            };
            match c.game.parse_move(text) {
                Ok(mv) => {
                    c.play_move(mv, Some("forced".into()))?;
                    c.note(&format!("the computer's move is now {text}"));
                    Ok(Flow::Continue)
                }
                Err(e) => {
                    // Put the computer's own move back.
                    let _ = c.play_move(undone, None);
                    Err(format!("Illegal move: {text} ({e})"))
                }
            }
        }
        _ => Err("usage: force [MOVE]".into()),
    }
}

pub fn back(c: &mut Console, args: &[&str]) -> CmdResult {
    let n = match args {
        [] => 1,
        [n] => n
            .parse::<usize>()
            .ok()
            .filter(|&n| n >= 1)
            .ok_or_else(|| format!("back: '{n}' is not a number of plies (1 or more)"))?,
        _ => return Err("usage: back [N]".into()),
    };
    tournament_guard(c, "back")?;
    c.stop_pondering();
    let mut undone = 0;
    while undone < n && c.undo_move().is_some() {
        undone += 1;
    }
    if undone == 0 {
        return Err("back: no moves to take back".into());
    }
    c.ponder_move = None;
    c.note(&format!("took back {undone} plies"));
    Ok(Flow::Continue)
}

/// `reset N` (Crafty's): the game at move N with the same side to move as now, back
/// through the moves played or forward through the moves taken back since.
pub fn reset(c: &mut Console, args: &[&str]) -> CmdResult {
    let [n] = args else {
        return Err("usage: reset N (the move number to go to, the same side to move)".into());
    };
    let n: u16 = n
        .parse()
        .ok()
        .filter(|&n| n >= 1)
        .ok_or_else(|| format!("reset: '{n}' is not a move number"))?;
    tournament_guard(c, "reset")?;
    let side = c.game.side_to_move();
    let side_name = if side == Color::White {
        "White"
    } else {
        "Black"
    };
    let start = c.game.start();
    let black = |s: Color| i64::from(s == Color::Black);
    // Plies from the start to move N with `side` to move.
    let target = (i64::from(n) - i64::from(start.fullmove_number())) * 2 + black(side)
        - black(start.side_to_move());
    if target < 0 {
        return Err(format!(
            "reset: the game starts at move {} ({side_name} to move at move {n} is before it)",
            start.fullmove_number()
        ));
    }
    let target = target as usize;
    let played = c.game.moves().len();
    if target > played + c.taken_back.len() {
        return Err(format!(
            "reset: the game has not reached move {n} with {side_name} to move"
        ));
    }
    c.stop_pondering();
    while c.game.moves().len() > target {
        if c.undo_move().is_none() {
            break;
        }
    }
    while c.game.moves().len() < target {
        let Some(mv) = c.taken_back.last().copied() else {
            break;
        };
        c.play_move(mv, None)?;
    }
    c.ponder_move = None;
    c.note(&format!("reset to move {n}, {side_name} to move"));
    Ok(Flow::Continue)
}

/// `undo` (xboard's, which Crafty's console takes too): take back one ply, as `back 1`.
pub fn undo(c: &mut Console, args: &[&str]) -> CmdResult {
    no_args("undo", args)?;
    back(c, &[])
}

/// `remove` (xboard's): take back two plies, the opponent's move and the computer's.
pub fn remove(c: &mut Console, args: &[&str]) -> CmdResult {
    no_args("remove", args)?;
    back(c, &["2"])
}

/// `hint`: the move wily expects the side to move to play (its last search's prediction,
/// or the move set by `ponder MOVE`), as `Hint: MOVE`.
pub fn hint(c: &mut Console, args: &[&str]) -> CmdResult {
    no_args("hint", args)?;
    let board = c.game.board().clone();
    match c.ponder_move.filter(|m| board.is_legal(*m)) {
        Some(mv) => {
            let text = crate::output::fmt_move(&board, mv, c.settings.long_output);
            c.say(&format!("Hint: {text}"));
            Ok(Flow::Continue)
        }
        None => {
            Err("hint: no move expected yet (the computer has not searched this position)".into())
        }
    }
}

/// Sets the side to move (keeping the pieces) and the computer's colour.
fn set_side(c: &mut Console, side: Color) -> CmdResult {
    c.stop_pondering();
    if c.game.side_to_move() != side {
        tournament_guard(c, "changing the side to move")?;
        let fen = to_fen(c.game.board());
        let mut fields: Vec<&str> = fen.split(' ').collect();
        if fields.len() < 4 {
            return Err("cannot change the side to move here".into());
        }
        fields[1] = if side == Color::White { "w" } else { "b" };
        fields[3] = "-";
        let board = parse_fen(&fields.join(" "))
            .map_err(|e| format!("cannot give the move to that side: {e}"))?;
        c.new_game_from(board);
    }
    c.computer = Some(!side);
    c.set_player_tags();
    Ok(Flow::Continue)
}

pub fn white(c: &mut Console, args: &[&str]) -> CmdResult {
    no_args("white", args)?;
    set_side(c, Color::White)
}

pub fn black(c: &mut Console, args: &[&str]) -> CmdResult {
    no_args("black", args)?;
    set_side(c, Color::Black)
}

pub fn setboard(c: &mut Console, args: &[&str]) -> CmdResult {
    if args.is_empty() {
        return Err("usage: setboard FEN".into());
    }
    tournament_guard(c, "setboard")?;
    let board = parse_setboard(&args.join(" ")).map_err(|e| format!("setboard: {e}"))?;
    c.new_game_from(board);
    Ok(Flow::Continue)
}

/// `load FILE TITLE`: sets up the position titled TITLE in a file of titled positions
/// (Crafty's test-suite format: the first `title` line containing TITLE, then its
/// `setboard`; or an EPD line whose `id` contains it).
pub fn load(c: &mut Console, args: &[&str]) -> CmdResult {
    let [file, title @ ..] = args else {
        return Err("usage: load FILE TITLE".into());
    };
    if title.is_empty() {
        return Err("usage: load FILE TITLE".into());
    }
    let title = title.join(" ");
    tournament_guard(c, "load")?;
    let size = std::fs::metadata(file)
        .map_err(|e| format!("load: {file}: {e}"))?
        .len();
    if size > 64 << 20 {
        return Err(format!("load: {file}: too large ({size} bytes)"));
    }
    let bytes = std::fs::read(file).map_err(|e| format!("load: {file}: {e}"))?;
    let (name, board) = chess::suite::find_titled(&String::from_utf8_lossy(&bytes), &title)
        .map_err(|e| format!("load: {file}: {e}"))?;
    c.new_game_from(board);
    c.note(&format!("load: position '{name}' from {file}"));
    Ok(Flow::Continue)
}

/// ICS wild 7: kings and three pawns each (Crafty's one wild position).
const WILD7: &str = "4k3/5ppp/8/8/8/8/PPP5/3K4 w - - 0 1";

/// `wild N`: a new game from an ICS wild start: 7 (kings and three pawns each), 22 or `fr`
/// (Chess960: a random position, or `wild 22 N` for position N of 0-959); 0 is the
/// normal start. Other wild numbers are refused with one line.
pub fn wild(c: &mut Console, args: &[&str]) -> CmdResult {
    let (board, what) = match args {
        ["0"] => (Board::default(), "the normal start".to_string()),
        ["7"] => (
            parse_fen(WILD7).map_err(|e| format!("wild 7: {e}"))?,
            "wild 7 (kings and three pawns each)".to_string(),
        ),
        ["22" | "fr"] | ["22" | "fr", _] => {
            let n = match args.get(1) {
                Some(n) => n
                    .parse::<u32>()
                    .ok()
                    .filter(|n| *n < 960)
                    .ok_or_else(|| format!("wild 22: '{n}' is not a position number 0-959"))?,
                None => {
                    let seed = std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .map_or(0, |d| d.as_nanos() as u64);
                    chess960::index_from_seed(seed)
                }
            };
            let board = chess960::start_position(n)
                .ok_or_else(|| format!("wild 22: no Chess960 position {n}"))?;
            (
                board,
                format!(
                    "wild 22 (Chess960), position {n} ({})",
                    chess960::back_rank(n).unwrap_or_default()
                ),
            )
        }
        [n] => {
            return Err(format!(
                "wild {n}: not played by wily (wild 0, 7 and 22/fr are; other ICS wild boards have rules or starts wily does not set up)"
            ))
        }
        _ => return Err("usage: wild 0|7|22 [N]|fr".into()),
    };
    tournament_guard(c, "wild")?;
    c.computer = Some(Color::Black);
    c.new_game_from(board);
    c.set_player_tags();
    c.note(&format!("new game, {what}: the computer plays Black"));
    Ok(Flow::Continue)
}

pub fn edit(c: &mut Console, args: &[&str]) -> CmdResult {
    no_args("edit", args)?;
    tournament_guard(c, "edit")?;
    c.stop_pondering();
    c.editor = Some(Editor::new(c.game.board()));
    c.say("edit mode: Pe2 places a piece, xe2 clears a square, c switches colour (White first), # clears the board, . ends");
    Ok(Flow::Continue)
}

pub fn analyze(c: &mut Console, args: &[&str]) -> CmdResult {
    no_args("analyze", args)?;
    if c.analyzing {
        return Err("already analyzing ('exit' leaves analyze mode)".into());
    }
    Ok(think::analyze(c))
}

pub fn quit(c: &mut Console, _args: &[&str]) -> CmdResult {
    c.quit = true;
    Ok(Flow::Quit)
}

pub fn exit(c: &mut Console, _args: &[&str]) -> CmdResult {
    if c.input_depth > 0 {
        // Skip the rest of the file being read.
        let depth = c.input_depth;
        c.pending.retain(|(_, d)| *d < depth);
        return Ok(Flow::Continue);
    }
    Err("exit: not in analyze mode ('quit' leaves wily)".into())
}

pub fn xboard(c: &mut Console, _args: &[&str]) -> CmdResult {
    c.stop_pondering();
    Ok(Flow::Xboard)
}

pub fn uci(c: &mut Console, _args: &[&str]) -> CmdResult {
    c.stop_pondering();
    Ok(Flow::Uci)
}
