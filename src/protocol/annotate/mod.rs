//! `annotate`, `annotateh` and `annotatet`: read games from a PGN file, search the chosen side's moves
//! (a move range, a time per move), and where the move played scores worse than wily's
//! choice by more than a margin, add a comment with both scores and the better line.
//! Output is PGN text with comments and variations (`.can`), an HTML page (`.html`) or
//! a LaTeX document (`.tex`, [`latex`]).
//!
//! Arguments, as in Crafty: `annotate FILE COLORS MOVES MARGIN TIME [N]`: COLORS is `w`,
//! `b`, `wb`/`bw` or a player's name; MOVES is `N` or `N-M` (move numbers); MARGIN is in
//! pawns; TIME is seconds per move; N, when given, shows the N best lines.
//!
//! The moves of the variations the game's PGN gives (`(...)`, one level deep) are
//! checked the same way, with the same options, and written back with their comments.
//!
//! [`options`] reads the arguments, this file searches the games ([`annotate_game`]),
//! [`writer`] turns the results into PGN or HTML. The console's command that drives it is
//! in `console/cmd_tools.rs`; nothing here knows the console.

pub mod latex;
pub mod options;
pub mod writer;

pub use options::{parse_options, AnnotateOptions, Colors};
pub use writer::{AnnotatedGame, MoveNote, UserLine};

use crate::chess::pgn::PgnGame;
use crate::engine::{Bound, Limits, Score, SearchInfo, SearchRequest};
use crate::protocol::input::InputEvent;
use crate::protocol::policy::as_cp;
use crate::protocol::runner::{Ev, Runner};
use cozy_chess::{Board, Color, Move};
use std::path::{Path, PathBuf};
use std::time::Duration;

fn wants(opts: &AnnotateOptions, game: &PgnGame, mover: Color, number: u32) -> bool {
    if number < opts.first_move || number > opts.last_move {
        return false;
    }
    match &opts.colors {
        Colors::White => mover == Color::White,
        Colors::Black => mover == Color::Black,
        Colors::Both => true,
        Colors::Player(name) => {
            let tag = if mover == Color::White {
                "White"
            } else {
                "Black"
            };
            game.tag(tag)
                .is_some_and(|v| v.to_lowercase().contains(&name.to_lowercase()))
        }
    }
}

/// The search's outcome for one position: the lines (best first) with their scores from
/// the side to move.
fn search_lines(
    runner: &mut Runner,
    board: &Board,
    history: &[u64],
    time: Duration,
    pending: &mut Vec<String>,
) -> Result<Vec<(Score, Vec<Move>)>, String> {
    runner.start(SearchRequest {
        board: board.clone(),
        history: history.to_vec(),
        limits: Limits {
            movetime: Some(time),
            ..Limits::default()
        },
        searchmoves: Vec::new(),
    });
    let mut lines: Vec<(Score, Vec<Move>)> = Vec::new();
    loop {
        match runner.next(None) {
            Some(Ev::Info(info)) => record_line(&mut lines, &info),
            Some(Ev::RootMove(_)) => {}
            Some(Ev::Finished(r)) => {
                if lines.is_empty() {
                    if let Some(b) = r.best {
                        let pv = if r.pv.is_empty() { vec![b] } else { r.pv };
                        lines.push((r.score, pv));
                    }
                }
                if let Some(b) = r.best {
                    // The search's final choice leads the list.
                    if let Some(i) = lines.iter().position(|(_, pv)| pv.first() == Some(&b)) {
                        let l = lines.remove(i);
                        lines.insert(0, l);
                    }
                }
                return Ok(lines);
            }
            Some(Ev::Input(InputEvent::Line(l))) if l.trim() == "exit" => {
                runner.abandon();
                return Err("annotate: interrupted".into());
            }
            // Other lines wait until the annotation is done.
            Some(Ev::Input(InputEvent::Line(l))) => pending.push(l),
            Some(Ev::Input(_)) => {}
            None => return Err("annotate: search ended unexpectedly".into()),
        }
    }
}

/// The score of `played` from the mover's side: a search of the position after it (a
/// mate or stalemate on the board is scored directly).
fn score_after(
    runner: &mut Runner,
    board: &Board,
    history: &[u64],
    played: Move,
    time: Duration,
    pending: &mut Vec<String>,
) -> Result<Option<Score>, String> {
    let mut after = board.clone();
    if after.try_play(played).is_err() {
        return Ok(None);
    }
    if !after.generate_moves(|_| true) {
        return Ok(Some(if after.checkers().is_empty() {
            Score::Cp(0)
        } else {
            Score::Mate(1)
        }));
    }
    let mut hist = history.to_vec();
    hist.push(board.hash());
    let lines = search_lines(runner, &after, &hist, time, pending)?;
    Ok(lines.first().map(|(s, _)| s.negate()))
}

fn record_line(lines: &mut Vec<(Score, Vec<Move>)>, info: &SearchInfo) {
    if info.bound != Bound::Exact || info.pv.is_empty() {
        return;
    }
    let slot = info.multipv.max(1) - 1;
    if slot == 0 {
        // A new iteration's best line replaces the whole set from the previous one.
        lines.clear();
    }
    if slot == lines.len() {
        lines.push((info.score, info.pv.clone()));
    } else if slot < lines.len() {
        lines[slot] = (info.score, info.pv.clone());
    }
}

/// wily's note on `played` from `board` when it falls short of wily's choice by the
/// margin (`None` when it is wily's choice too, or close enough).
#[allow(clippy::too_many_arguments)]
fn judge_move(
    runner: &mut Runner,
    board: &Board,
    history: &[u64],
    played: Move,
    opts: &AnnotateOptions,
    progress: &mut dyn FnMut(&str),
    pending: &mut Vec<String>,
    in_variation: bool,
) -> Result<Option<MoveNote>, String> {
    let mover = board.side_to_move();
    let number = board.fullmove_number();
    let lines = search_lines(runner, board, history, opts.time, pending)?;
    let Some((best_score, best_pv)) = lines.first().cloned() else {
        return Ok(None);
    };
    if best_pv.first() == Some(&played) {
        return Ok(None);
    }
    let played_score =
        score_after(runner, board, history, played, opts.time, pending)?.unwrap_or(best_score);
    let loss = as_cp(best_score) - as_cp(played_score);
    progress(&format!(
        "{}move {number}{}: loss {:.2}",
        if in_variation { "variation " } else { "" },
        if mover == Color::White { "" } else { "..." },
        f64::from(loss) / 100.0
    ));
    if loss < opts.margin_cp || loss <= 0 {
        return Ok(None);
    }
    let better = lines
        .into_iter()
        .filter(|(_, pv)| pv.first() != Some(&played))
        .take(opts.lines)
        .map(|(s, pv)| (s.white_pov(mover), pv))
        .collect();
    Ok(Some(MoveNote {
        played: played_score.white_pov(mover),
        better,
        loss,
    }))
}

/// The moves of a variation written in the game (SAN), played from `board`: the legal
/// ones up to the first that is not.
fn variation_moves(board: &Board, sans: &[String]) -> Vec<Move> {
    let mut b = board.clone();
    let mut out = Vec::new();
    for san in sans {
        let Ok(mv) = crate::chess::san::parse_san(&b, san) else {
            break;
        };
        b.play_unchecked(mv);
        out.push(mv);
    }
    out
}

/// Annotates one game: the moves of the main line and those of the variations written
/// in the game (one level deep) that the options select. `progress` is told about each
/// move searched; input lines that arrive meanwhile (other than `exit`, which
/// interrupts) go to `pending`.
pub fn annotate_game(
    runner: &mut Runner,
    game: &PgnGame,
    opts: &AnnotateOptions,
    progress: &mut dyn FnMut(&str),
    pending: &mut Vec<String>,
) -> Result<AnnotatedGame, String> {
    let pos = game
        .replay()
        .map_err(|e| format!("cannot replay the game: {e:?}"))?;
    let start = pos.start_board().clone();
    let moves = pos.moves().to_vec();
    let mut notes = vec![None; moves.len()];
    let mut variations: Vec<Vec<UserLine>> = vec![Vec::new(); moves.len()];
    let mut board = start.clone();
    let mut history: Vec<u64> = Vec::new();
    for (i, &played) in moves.iter().enumerate() {
        let mover = board.side_to_move();
        let number = u32::from(board.fullmove_number());
        if wants(opts, game, mover, number) {
            notes[i] = judge_move(
                runner, &board, &history, played, opts, progress, pending, false,
            )?;
        }
        for sans in game.moves.get(i).map_or(&[][..], |m| &m.variations[..]) {
            let line = variation_moves(&board, sans);
            if line.is_empty() {
                continue;
            }
            let mut vb = board.clone();
            let mut vh = history.clone();
            let mut line_notes = Vec::with_capacity(line.len());
            for &mv in &line {
                let note = if wants(
                    opts,
                    game,
                    vb.side_to_move(),
                    u32::from(vb.fullmove_number()),
                ) {
                    judge_move(runner, &vb, &vh, mv, opts, progress, pending, true)?
                } else {
                    None
                };
                line_notes.push(note);
                vh.push(vb.hash());
                vb.play_unchecked(mv);
            }
            variations[i].push(UserLine {
                moves: line,
                notes: line_notes,
            });
        }
        history.push(board.hash());
        board.play_unchecked(played);
    }
    Ok(AnnotatedGame {
        tags: game.tags.clone(),
        start,
        moves,
        notes,
        variations,
        result: game.result.clone(),
    })
}

/// The kind of file an annotation is written as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// PGN with comments and variations (`annotate`, `.can`).
    Can,
    /// An HTML page with diagrams (`annotateh`).
    Html,
    /// A LaTeX document with diagrams (`annotatet`).
    Tex,
}

/// `FILE.pgn` -> `FILE.can` / `FILE.html` / `FILE.tex`.
pub fn output_path(input: &Path, format: Format) -> PathBuf {
    input.with_extension(match format {
        Format::Can => "can",
        Format::Html => "html",
        Format::Tex => "tex",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options() {
        let o = parse_options(&["wb", "1-999", "0.5", "2"]).unwrap();
        assert_eq!(o.colors, Colors::Both);
        assert_eq!((o.first_move, o.last_move), (1, 999));
        assert_eq!(o.margin_cp, 50);
        assert_eq!(o.lines, 1);
        let o = parse_options(&["Carlsen", "12", "1", "0.1", "3"]).unwrap();
        assert_eq!(o.colors, Colors::Player("Carlsen".into()));
        assert_eq!(o.lines, 3);
        assert!(parse_options(&["w", "9-2", "1", "1"]).is_err());
        assert!(parse_options(&["w", "x", "1", "1"]).is_err());
        assert!(parse_options(&["w", "1-9", "-1", "1"]).is_err());
        assert!(parse_options(&["w", "1-9", "1", "0"]).is_err());
        assert!(parse_options(&["w", "1-9", "1"]).is_err());
    }

    #[test]
    fn output_names() {
        assert_eq!(
            output_path(Path::new("a/g.pgn"), Format::Can),
            PathBuf::from("a/g.can")
        );
        assert_eq!(
            output_path(Path::new("g"), Format::Html),
            PathBuf::from("g.html")
        );
        assert_eq!(
            output_path(Path::new("g.pgn"), Format::Tex),
            PathBuf::from("g.tex")
        );
    }
}
