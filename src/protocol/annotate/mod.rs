//! `annotate` and `annotateh`: read games from a PGN file, search the chosen side's moves
//! (a move range, a time per move), and where the move played scores worse than wily's
//! choice by more than a margin, add a comment with both scores and the better line.
//! Output is PGN text with comments and variations (`.can`) or an HTML page (`.html`).
//!
//! Arguments, as in Crafty: `annotate FILE COLORS MOVES MARGIN TIME [N]`: COLORS is `w`,
//! `b`, `wb`/`bw` or a player's name; MOVES is `N` or `N-M` (move numbers); MARGIN is in
//! pawns; TIME is seconds per move; N, when given, shows the N best lines.

pub mod writer;

use crate::chess::pgn::{PgnGame, PgnReader};
use crate::engine::{Bound, Limits, Score, SearchInfo, SearchRequest};
use crate::protocol::console::{CmdResult, Console, Flow};
use crate::protocol::input::InputEvent;
use crate::protocol::policy::as_cp;
use crate::protocol::runner::{Ev, Runner};
use crate::protocol::timecontrol::parse_seconds;
use cozy_chess::{Board, Color, Move};
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Whose moves are annotated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Colors {
    White,
    Black,
    Both,
    /// The player whose name contains this text (case-insensitive).
    Player(String),
}

/// What to annotate and how long to think.
#[derive(Clone, Debug, PartialEq)]
pub struct AnnotateOptions {
    pub colors: Colors,
    pub first_move: u32,
    pub last_move: u32,
    /// Centipawns by which the played move must fall short to get a comment.
    pub margin_cp: i32,
    pub time: Duration,
    /// Number of best lines shown for a commented move.
    pub lines: usize,
}

/// Parses the arguments after `annotate FILE`.
pub fn parse_options(args: &[&str]) -> Result<AnnotateOptions, String> {
    let usage = "usage: annotate FILE COLORS MOVES MARGIN TIME [N] (e.g. annotate game.pgn wb 1-999 0.5 10)";
    if args.len() < 4 || args.len() > 5 {
        return Err(usage.into());
    }
    let colors = match args[0].to_ascii_lowercase().as_str() {
        "w" | "white" => Colors::White,
        "b" | "black" => Colors::Black,
        "wb" | "bw" => Colors::Both,
        _ => Colors::Player(args[0].to_string()),
    };
    let range_err = || format!("annotate: '{}' is not a move range (N or N-M)", args[1]);
    let (first_move, last_move) = match args[1].split_once('-') {
        Some((a, b)) => (
            a.parse::<u32>().map_err(|_| range_err())?,
            b.parse::<u32>().map_err(|_| range_err())?,
        ),
        None => {
            let n = args[1].parse::<u32>().map_err(|_| range_err())?;
            (n, n)
        }
    };
    if first_move == 0 || last_move < first_move {
        return Err(range_err());
    }
    let margin: f64 = args[2]
        .parse()
        .ok()
        .filter(|m: &f64| m.is_finite() && (0.0..=100.0).contains(m))
        .ok_or_else(|| format!("annotate: '{}' is not a margin in pawns", args[2]))?;
    let time = parse_seconds(args[3])?;
    if time.is_zero() || time > Duration::from_secs(3600) {
        return Err("annotate: time per move must be above 0 and at most 3600 seconds".into());
    }
    let lines = match args.get(4) {
        None => 1,
        Some(n) => n
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=10).contains(n))
            .ok_or_else(|| format!("annotate: '{n}' is not a number of lines (1 to 10)"))?,
    };
    Ok(AnnotateOptions {
        colors,
        first_move,
        last_move,
        margin_cp: (margin * 100.0).round() as i32,
        time,
        lines,
    })
}

/// wily's view of one move: the lines it preferred, when the move played fell short.
#[derive(Clone, Debug)]
pub struct MoveNote {
    /// Score of the move played, White's view.
    pub played: Score,
    /// Best lines found (best first), with their scores from White's view.
    pub better: Vec<(Score, Vec<Move>)>,
    /// The loss in centipawns from the mover's side.
    pub loss: i32,
}

/// One annotated game.
pub struct AnnotatedGame {
    pub tags: Vec<(String, String)>,
    pub start: Board,
    pub moves: Vec<Move>,
    /// `notes[i]` belongs to move `i`.
    pub notes: Vec<Option<MoveNote>>,
    pub result: String,
}

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

/// Annotates one game. `progress` is told about each move searched; input lines that
/// arrive meanwhile (other than `exit`, which interrupts) go to `pending`.
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
    let mut board = start.clone();
    let mut history: Vec<u64> = Vec::new();
    for (i, &played) in moves.iter().enumerate() {
        let mover = board.side_to_move();
        let number = u32::from(board.fullmove_number());
        if wants(opts, game, mover, number) {
            let lines = search_lines(runner, &board, &history, opts.time, pending)?;
            if let Some((best_score, best_pv)) = lines.first().cloned() {
                if best_pv.first() != Some(&played) {
                    let played_score =
                        score_after(runner, &board, &history, played, opts.time, pending)?
                            .unwrap_or(best_score);
                    let loss = as_cp(best_score) - as_cp(played_score);
                    progress(&format!(
                        "move {number}{}: loss {:.2}",
                        if mover == Color::White { "" } else { "..." },
                        f64::from(loss) / 100.0
                    ));
                    if loss >= opts.margin_cp && loss > 0 {
                        let better = lines
                            .into_iter()
                            .filter(|(_, pv)| pv.first() != Some(&played))
                            .take(opts.lines)
                            .map(|(s, pv)| (s.white_pov(mover), pv))
                            .collect();
                        notes[i] = Some(MoveNote {
                            played: played_score.white_pov(mover),
                            better,
                            loss,
                        });
                    }
                }
            }
        }
        history.push(board.hash());
        board.play_unchecked(played);
    }
    Ok(AnnotatedGame {
        tags: game.tags.clone(),
        start,
        moves,
        notes,
        result: game.result.clone(),
    })
}

/// `FILE.pgn` -> `FILE.can` / `FILE.html`.
pub fn output_path(input: &Path, html: bool) -> PathBuf {
    input.with_extension(if html { "html" } else { "can" })
}

/// The console's `annotate` / `annotateh`.
pub fn console_command(c: &mut Console, args: &[&str], html: bool) -> CmdResult {
    let Some((file, rest)) = args.split_first() else {
        return Err(parse_options(&[]).err().unwrap_or_default());
    };
    let opts = parse_options(rest)?;
    let input = PathBuf::from(file);
    let f = std::fs::File::open(&input).map_err(|e| format!("annotate: {file}: {e}"))?;
    c.stop_pondering();
    let out_path = output_path(&input, html);
    let old_multipv = c.runner.engine.options().multipv;
    c.runner.engine.set_multipv(opts.lines);
    let mut done = Vec::new();
    let mut notes = 0;
    let mut failure = None;
    for (n, item) in PgnReader::new(BufReader::new(f)).enumerate() {
        let game = match item {
            Ok(g) => g,
            Err(e) => {
                c.say(&format!("annotate: game {} skipped: {e}", n + 1));
                continue;
            }
        };
        let names = format!(
            "{} - {}",
            game.tag("White").unwrap_or("?"),
            game.tag("Black").unwrap_or("?")
        );
        c.say(&format!("annotating game {}: {names}", n + 1));
        let mut lines = Vec::new();
        let mut typed = Vec::new();
        let res = annotate_game(
            &mut c.runner,
            &game,
            &opts,
            &mut |s| lines.push(s.to_string()),
            &mut typed,
        );
        c.pending.extend(typed.into_iter().map(|l| (l, 0)));
        for l in lines {
            c.note(&format!("  {l}"));
        }
        match res {
            Ok(a) => {
                notes += a.notes.iter().filter(|n| n.is_some()).count();
                done.push(a);
            }
            Err(e) if e.contains("interrupted") => {
                failure = Some(e);
                break;
            }
            Err(e) => c.say(&format!("annotate: game {} skipped: {e}", n + 1)),
        }
    }
    c.runner.engine.set_multipv(old_multipv);
    if let Some(e) = failure {
        return Err(e);
    }
    let text = if html {
        writer::html(&done, &opts)
    } else {
        done.iter().map(writer::pgn).collect::<Vec<_>>().join("")
    };
    crate::protocol::gamefiles::write_atomic(&out_path, text.as_bytes())
        .map_err(|e| format!("annotate: {}: {e}", out_path.display()))?;
    c.say(&format!(
        "annotated {} games ({notes} comments) into {}",
        done.len(),
        out_path.display()
    ));
    Ok(Flow::Continue)
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
            output_path(Path::new("a/g.pgn"), false),
            PathBuf::from("a/g.can")
        );
        assert_eq!(output_path(Path::new("g"), true), PathBuf::from("g.html"));
    }
}
