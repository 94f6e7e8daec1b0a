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
//! The moves of the variations the game's PGN gives (`(...)`, nested to any depth) are
//! checked the same way, with the same options, and written back in place with their
//! comments.
//!
//! [`options`] reads the arguments, this file searches the games ([`annotate_game`]) into
//! the tree of [`line`], and [`writer`] and [`latex`] write it as PGN, HTML or LaTeX from
//! one walk of it. The console's command that drives it is
//! in `console/cmd_tools.rs`; nothing here knows the console.

pub mod html;
pub mod latex;
pub mod line;
pub mod markup;
pub mod options;
pub mod writer;

pub use line::{AnnotatedGame, MoveNote, UserLine};
pub use options::{parse_options, AnnotateOptions, Colors};

use crate::input::InputEvent;
use crate::policy::as_cp;
use crate::runner::{Ev, Runner};
use chess::pgn::{PgnGame, PgnMove};
use cozy_chess::{Board, Color, Move};
use engine::{Bound, Limits, Score, SearchInfo, SearchRequest};
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
            Some(Ev::RootMove(_)) | Some(Ev::Trace(_)) => {}
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

/// The moves of a variation written in the game, played from `board`: the legal ones up
/// to the first that is not.
fn variation_moves(board: &Board, written: &[PgnMove]) -> Vec<Move> {
    let mut b = board.clone();
    let mut out = Vec::new();
    for m in written {
        let Ok(mv) = chess::san::parse_san(&b, &m.san) else {
            break;
        };
        b.play_unchecked(mv);
        out.push(mv);
    }
    out
}

/// What the walk over a game's lines needs: the engine, the game, the options, and where
/// progress and waiting input go.
struct Job<'a> {
    runner: &'a mut Runner,
    game: &'a PgnGame,
    opts: &'a AnnotateOptions,
    progress: &'a mut dyn FnMut(&str),
    pending: &'a mut Vec<String>,
}

/// Annotates `moves` played from `board` (`written`: the same moves as the PGN gives them,
/// with the variations after each), and the variations in turn, to any depth: each move
/// the options select is judged, the main line's and the variations' alike (`depth` 0 is
/// the main line).
fn annotate_line(
    job: &mut Job<'_>,
    board: &Board,
    history: &[u64],
    moves: &[Move],
    written: &[PgnMove],
    depth: usize,
) -> Result<UserLine, String> {
    let mut line = UserLine::default();
    let mut b = board.clone();
    let mut h = history.to_vec();
    for (j, &mv) in moves.iter().enumerate() {
        let number = u32::from(b.fullmove_number());
        let note = if wants(job.opts, job.game, b.side_to_move(), number) {
            judge_move(
                job.runner,
                &b,
                &h,
                mv,
                job.opts,
                job.progress,
                job.pending,
                depth > 0,
            )?
        } else {
            None
        };
        let mut variations = Vec::new();
        for v in written.get(j).map_or(&[][..], |m| &m.variations[..]) {
            let vm = variation_moves(&b, v);
            if !vm.is_empty() {
                variations.push(annotate_line(job, &b, &h, &vm, v, depth + 1)?);
            }
        }
        line.moves.push(mv);
        line.notes.push(note);
        line.variations.push(variations);
        h.push(b.hash());
        b.play_unchecked(mv);
    }
    Ok(line)
}

/// Annotates one game: the moves of the main line and those of the variations written
/// in the game (nested to any depth) that the options select. `progress` is told about
/// each move searched; input lines that arrive meanwhile (other than `exit`, which
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
    let mut job = Job {
        runner,
        game,
        opts,
        progress,
        pending,
    };
    let line = annotate_line(&mut job, &start, &[], pos.moves(), &game.moves, 0)?;
    Ok(AnnotatedGame {
        tags: game.tags.clone(),
        start,
        line,
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
