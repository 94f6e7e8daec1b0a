//! Console commands that show things: display (the board and output switches),
//! history, info, echo.

use super::state::{CmdResult, Console, Flow};
use crate::timecontrol::fmt_clock;
use chess::fen::to_fen;
use cozy_chess::{Board, Color, File, Piece, Rank, Square};

/// The board as text, White at the bottom: upper case White, lower case Black.
pub fn board_diagram(b: &Board) -> Vec<String> {
    let rule = "       +---+---+---+---+---+---+---+---+".to_string();
    let mut lines = vec![rule.clone()];
    for r in (0..8).rev() {
        let mut row = format!("    {}  |", r + 1);
        for f in 0..8 {
            let sq = Square::new(File::index(f), Rank::index(r));
            let cell = match (b.piece_on(sq), b.color_on(sq)) {
                (Some(p), Some(c)) => {
                    let ch = match p {
                        Piece::Pawn => 'p',
                        Piece::Knight => 'n',
                        Piece::Bishop => 'b',
                        Piece::Rook => 'r',
                        Piece::Queen => 'q',
                        Piece::King => 'k',
                    };
                    let ch = if c == Color::White {
                        ch.to_ascii_uppercase()
                    } else {
                        ch
                    };
                    format!(" {ch} ")
                }
                _ if (r + f) % 2 == 0 => " . ".to_string(),
                _ => "   ".to_string(),
            };
            row.push_str(&cell);
            row.push('|');
        }
        lines.push(row);
        lines.push(rule.clone());
    }
    lines.push("         a   b   c   d   e   f   g   h".to_string());
    lines
}

/// The evaluation's table index of a piece name (`pawn` ... `king`).
fn piece_index(name: &str) -> Option<usize> {
    ["pawn", "knight", "bishop", "rook", "queen", "king"]
        .iter()
        .position(|p| p.eq_ignore_ascii_case(name))
}

/// A piece-square table as a board (rank 8 at the top, White's view): each square's
/// middlegame/endgame bonus in centipawns.
fn piece_table(table: &[engine::eval::S; 64], name: &str) -> Vec<String> {
    let mut lines = vec![format!(
        "{name} square table (centipawns, middlegame/endgame, White's view; Black's is mirrored):"
    )];
    for rank in (0..8).rev() {
        let row: Vec<String> = (0..8)
            .map(|file| {
                let s = table[rank * 8 + file];
                format!("{:>4}/{:<4}", s.mg, s.eg)
            })
            .collect();
        lines.push(format!("  {} {}", rank + 1, row.join(" ")));
    }
    lines.push(format!(
        "    {}",
        ["a", "b", "c", "d", "e", "f", "g", "h"]
            .iter()
            .map(|f| format!("{f:^9}"))
            .collect::<Vec<_>>()
            .join(" ")
    ));
    lines
}

pub fn display(c: &mut Console, args: &[&str]) -> CmdResult {
    match args {
        [] | ["board"] => {
            let mut lines = board_diagram(c.game.board());
            lines.push(format!(
                "  {} to move; {}",
                if c.game.side_to_move() == Color::White {
                    "White"
                } else {
                    "Black"
                },
                to_fen(c.game.board())
            ));
            for l in lines {
                c.say(&l);
            }
        }
        [piece] if piece_index(piece).is_some() => {
            let index = piece_index(piece).unwrap_or(0);
            let lines = piece_table(&c.runner.engine.eval_params().pst[index], piece);
            for l in lines {
                c.say(&l);
            }
        }
        ["all"] | ["options"] => {
            let l = format!("display: {}", c.settings.display.listing());
            c.say(&l);
        }
        opts => {
            for opt in opts {
                let (name, on) = match opt.strip_prefix("no") {
                    Some(rest) if c.settings.display.flag_mut(rest).is_some() => (rest, false),
                    _ => (*opt, true),
                };
                match c.settings.display.flag_mut(name) {
                    Some(flag) => *flag = on,
                    None => {
                        return Err(format!(
                            "display: unknown option '{opt}' (time changes variation stats extstats movenum moves general, or noOPTION)"
                        ))
                    }
                }
            }
            let l = format!("display: {}", c.settings.display.listing());
            c.note(&l);
        }
    }
    Ok(Flow::Continue)
}

pub fn echo(c: &mut Console, args: &[&str]) -> CmdResult {
    let text = args.join(" ");
    c.say(&text);
    Ok(Flow::Continue)
}

pub fn history(c: &mut Console, args: &[&str]) -> CmdResult {
    if !args.is_empty() {
        return Err("history takes no arguments".into());
    }
    let mut lines = vec!["    White       Black".to_string()];
    let start = c.game.start();
    let mut n = start.fullmove_number();
    let mut row = String::new();
    let mut col_black = start.side_to_move() == Color::Black;
    if col_black {
        row = format!("{n:>3}. {:<10} ", "...");
    }
    for san in c.game.sans() {
        if !col_black {
            row = format!("{n:>3}. {san:<10} ");
        } else {
            row.push_str(san);
            lines.push(std::mem::take(&mut row));
            n += 1;
        }
        col_black = !col_black;
    }
    if !row.is_empty() {
        lines.push(row);
    }
    if let Some(o) = &c.game.outcome {
        lines.push(o.describe());
    }
    for l in lines {
        c.say(&l);
    }
    Ok(Flow::Continue)
}

pub fn info(c: &mut Console, args: &[&str]) -> CmdResult {
    if !args.is_empty() {
        return Err("info takes no arguments".into());
    }
    let mut lines = vec![format!("wily {}", env!("CARGO_PKG_VERSION"))];
    // The embedded network by its checksum, another network file, or the hand-written
    // evaluation.
    lines.push(format!("eval: {}", c.runner.engine.eval_description()));
    lines.extend(c.settings.describe());
    lines.push(format!(
        "clocks: White {} Black {}; computer plays {}",
        fmt_clock(c.clocks.remaining(Color::White)),
        fmt_clock(c.clocks.remaining(Color::Black)),
        match c.computer {
            Some(Color::White) => "White",
            Some(Color::Black) => "Black",
            None => "neither side (force mode)",
        }
    ));
    lines.push(format!(
        "game files: {}{}",
        if c.files.enabled() { "on" } else { "off" },
        c.files
            .game_path()
            .map_or(String::new(), |p| format!(" ({})", p.display()))
    ));
    for l in lines {
        c.say(&l);
    }
    Ok(Flow::Continue)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagram_of_the_start() {
        let d = board_diagram(&Board::default());
        assert_eq!(d.len(), 18);
        assert!(d[1].contains("| r | n | b | q | k | b | n | r |"));
        assert!(d[15].contains("| R | N | B | Q | K | B | N | R |"));
    }
}
