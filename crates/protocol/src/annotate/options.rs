//! The annotator's arguments (`COLORS MOVES MARGIN TIME [N]`, as in Crafty) and what they
//! become: whose moves, which move numbers, the margin and the time per move.

use crate::timecontrol::parse_seconds;
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

impl Colors {
    /// Whose moves, in words, for the heading of an annotated file.
    pub fn describe(&self) -> String {
        match self {
            Colors::White => "White".to_string(),
            Colors::Black => "Black".to_string(),
            Colors::Both => "both sides".to_string(),
            Colors::Player(p) => p.clone(),
        }
    }
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
