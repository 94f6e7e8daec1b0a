//! `wily mates FILE`: plays every position of an EPD or Crafty-format file (a bare king
//! against mating material, such as `tests/fixtures/bare_king_mates.epd`) to its end, the
//! engine against itself with no tablebases, and counts the positions the stronger side
//! (the side to move at the start) mates before the fifty-move rule, a repetition, a
//! stalemate or a lost piece draws. Prints one line per position and a summary: how many
//! were mated and the average number of moves, beside the optimal length where the file
//! gives one (`c0 "dtz N"`, plies).

use cozy_chess::{Board, GameStatus};
use engine::eval::is_insufficient_material;
use engine::{Engine, EngineOptions, Limits, SearchRequest};
use std::io::Write;
use std::path::Path;

/// How the two sides search.
#[derive(Clone, Debug)]
pub struct MateSettings {
    /// The stronger side's limits per move.
    pub attacker: Limits,
    /// The defending side's limits per move.
    pub defender: Limits,
    pub hash_mb: usize,
}

/// How a play-out ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The stronger side mated.
    Mated,
    /// The side to move had no move and was not in check.
    Stalemate,
    /// A hundred plies without a capture or a pawn move.
    FiftyMoves,
    /// The same position a third time.
    Repetition,
    /// Not enough material left to mate (the defender took a piece).
    Insufficient,
}

/// The end of one play-out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayOut {
    pub ending: Ending,
    /// Moves the stronger side played.
    pub moves: u32,
}

/// Plays `start` out, the side to move attacking, until mate or a draw.
pub fn play_out(start: &Board, settings: &MateSettings) -> Result<PlayOut, String> {
    let options = EngineOptions {
        hash_mb: settings.hash_mb,
        move_overhead_ms: 0,
        ..EngineOptions::default()
    };
    let mut engines = [Engine::new(options.clone()), Engine::new(options)];
    let strong = start.side_to_move();
    let mut board = start.clone();
    let mut history: Vec<u64> = Vec::new();
    let mut moves = 0;
    loop {
        let ending = match board.status() {
            GameStatus::Won => Some(Ending::Mated),
            GameStatus::Drawn if board.halfmove_clock() >= 100 => Some(Ending::FiftyMoves),
            GameStatus::Drawn => Some(Ending::Stalemate),
            GameStatus::Ongoing if is_insufficient_material(&board) => Some(Ending::Insufficient),
            GameStatus::Ongoing => {
                let again = history.iter().filter(|&&h| h == board.hash()).count();
                (again >= 2).then_some(Ending::Repetition)
            }
        };
        if let Some(ending) = ending {
            // Mate is given by the side that just moved: the stronger side, unless the
            // defender somehow mated, which a bare king cannot.
            return Ok(PlayOut { ending, moves });
        }
        let attacking = board.side_to_move() == strong;
        let limits = if attacking {
            settings.attacker.clone()
        } else {
            settings.defender.clone()
        };
        let mut request = SearchRequest::new(board.clone(), limits);
        request.history = history.clone();
        let engine = &mut engines[usize::from(!attacking)];
        let result = engine.search(request, Box::new(|_| {}));
        let mv = result
            .best
            .ok_or_else(|| "the search returned no move".to_string())?;
        history.push(board.hash());
        board
            .try_play(mv)
            .map_err(|_| format!("the search returned an illegal move {mv}"))?;
        if attacking {
            moves += 1;
        }
    }
}

/// One position of a play-out file.
#[derive(Clone, Debug)]
pub struct MatePosition {
    /// The EPD `id` (`line N` when there is none).
    pub id: String,
    pub board: Board,
    /// The optimal length in plies when the line gives one (`c0 "dtz N"`).
    pub dtz: Option<u32>,
}

/// The positions of an EPD file (the four position fields, then operations such as
/// `id "..."` and `c0 "dtz N"`; no `bm` needed); `#` lines and blank lines are skipped.
pub fn read_positions(text: &str) -> Result<Vec<MatePosition>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().take(4).collect();
        let fen = format!("{} 0 1", fields.join(" "));
        let board =
            Board::from_fen(&fen, false).map_err(|e| format!("line {}: {fen}: {e:?}", i + 1))?;
        let id = line
            .split_once("id \"")
            .and_then(|(_, rest)| rest.split_once('"'))
            .map_or_else(|| format!("line {}", i + 1), |(id, _)| id.to_string());
        out.push(MatePosition {
            id,
            board,
            dtz: dtz_of(line),
        });
    }
    Ok(out)
}

/// The `dtz N` of an EPD line's `c0` comment.
fn dtz_of(line: &str) -> Option<u32> {
    let at = line.find("\"dtz ")? + 5;
    let digits: String = line[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// The summary of a file's run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MateSummary {
    pub positions: usize,
    pub mated: usize,
    /// The stronger side's moves over the mated positions.
    pub moves: u64,
    /// The optimal moves (from `dtz`) over the mated positions that give one.
    pub optimal: u64,
    pub with_optimal: usize,
}

/// Plays every position of the file at `path`; prints a line per position and the summary.
pub fn run_file(
    path: &Path,
    settings: &MateSettings,
    out: &mut dyn Write,
) -> Result<MateSummary, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let positions = read_positions(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let w = |out: &mut dyn Write, s: String| writeln!(out, "{s}").map_err(|e| e.to_string());
    let mut sum = MateSummary::default();
    for p in &positions {
        let end = play_out(&p.board, settings)?;
        let optimal = p.dtz.map(|d| d.div_ceil(2));
        sum.positions += 1;
        let what = match end.ending {
            Ending::Mated => {
                sum.mated += 1;
                sum.moves += u64::from(end.moves);
                if let Some(o) = optimal {
                    sum.optimal += u64::from(o);
                    sum.with_optimal += 1;
                }
                format!("mated in {} moves", end.moves)
            }
            other => format!("not mated ({other:?} after {} moves)", end.moves),
        };
        let best = optimal.map_or(String::new(), |o| format!(" (optimal about {o})"));
        w(out, format!("{:<16} {what}{best}", p.id))?;
        out.flush().map_err(|e| e.to_string())?;
    }
    let avg = |n: u64, d: usize| if d == 0 { 0.0 } else { n as f64 / d as f64 };
    w(
        out,
        format!(
            "mated {}/{}, average {:.1} moves (optimal about {:.1})",
            sum.mated,
            sum.positions,
            avg(sum.moves, sum.mated),
            avg(sum.optimal, sum.with_optimal)
        ),
    )?;
    Ok(sum)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dtz_is_read_from_the_comment() {
        assert_eq!(dtz_of(r#"8/8 w - - id "a"; c0 "dtz 40";"#), Some(40));
        assert_eq!(dtz_of(r#"8/8 w - - id "a";"#), None);
    }

    #[test]
    fn positions_are_read_with_their_ids() {
        let text = "# comment\n\n8/8/8/3k4/8/8/8/R3K3 w - - id \"krk\"; c0 \"dtz 9\";\n";
        let p = read_positions(text).expect("reads");
        assert_eq!(p.len(), 1);
        assert_eq!((p[0].id.as_str(), p[0].dtz), ("krk", Some(9)));
        assert!(read_positions("8/8/8 w - -\n").is_err());
    }
}
