//! The root moves a tablebase position allows: every legal move is valued by the tables
//! (DTZ when the root's table is there, else WDL one ply down), and only the moves that
//! keep the best value are searched. A win keeps only the moves that reach a zeroing move
//! (capture, pawn move or mate) soonest, so the win is converted within the 50-move rule;
//! a draw keeps every drawing move; a loss keeps the moves that put the loss off longest.

use super::{RootMoveTb, Tablebases, Wdl};
use crate::types::{MAX_PLY, TB_WIN};
use cozy_chess::{Board, Move};

/// The root's tablebase verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootTb {
    /// The moves to search (never empty).
    pub moves: Vec<Move>,
    /// The root's value for the side to move, on the search's score scale.
    pub score: i32,
    /// DTZ ranked the moves (else WDL did, and the search should keep probing).
    pub by_dtz: bool,
    /// The root is a draw (a cursed win or blessed loss too, with the 50-move rule
    /// counted): see `swindle.rs`.
    pub drawn: bool,
}

/// With the 50-move rule ignored, cursed wins and blessed losses are real ones.
fn counted(w: Wdl, rule50: bool) -> Wdl {
    match (w, rule50) {
        (Wdl::CursedWin, false) => Wdl::Win,
        (Wdl::BlessedLoss, false) => Wdl::Loss,
        _ => w,
    }
}

/// Larger is better: faster wins, then 50-move-rule wins, draws, slower losses.
fn rank(w: Wdl, dtz: u32) -> i32 {
    let d = dtz.min(999) as i32;
    match w {
        Wdl::Win => 2000 - d,
        Wdl::CursedWin => 1,
        Wdl::Draw => 0,
        Wdl::BlessedLoss => -1,
        Wdl::Loss => -2000 + d,
    }
}

/// The score reported for a root of value `w` at distance `dtz` (`draw` = the draw
/// value for the side to move).
fn score(w: Wdl, dtz: u32, draw: i32) -> i32 {
    let d = dtz.min(999) as i32;
    match w {
        Wdl::Win => TB_WIN - d,
        Wdl::CursedWin => draw + 1,
        Wdl::Draw => draw,
        Wdl::BlessedLoss => draw - 1,
        Wdl::Loss => -TB_WIN + d,
    }
}

/// Values the moves of `board` (only those in `candidates` when it is not empty) and keeps
/// the best ones; `None` when the root is not in the usable tables or a probe fails.
pub fn rank_root(
    tb: &Tablebases,
    board: &Board,
    candidates: &[Move],
    rule50: bool,
    draw: i32,
) -> Option<RootTb> {
    let (valued, by_dtz) = match tb.probe_root(board) {
        Some(list) => (list, true),
        None => (by_wdl(tb, board)?, false),
    };
    let valued: Vec<RootMoveTb> = valued
        .into_iter()
        .filter(|v| candidates.is_empty() || candidates.contains(&v.mv))
        .map(|v| RootMoveTb {
            wdl: counted(v.wdl, rule50),
            ..v
        })
        .collect();
    let best = valued.iter().map(|v| rank(v.wdl, v.dtz)).max()?;
    let top = valued.iter().find(|v| rank(v.wdl, v.dtz) == best)?;
    Some(RootTb {
        score: score(top.wdl, if by_dtz { top.dtz } else { MAX_PLY as u32 }, draw),
        moves: valued
            .iter()
            .filter(|v| rank(v.wdl, v.dtz) == best)
            .map(|v| v.mv)
            .collect(),
        by_dtz,
        drawn: matches!(top.wdl, Wdl::Draw | Wdl::CursedWin | Wdl::BlessedLoss),
    })
}

/// Every legal move valued by the WDL table of the position after it (no distances).
fn by_wdl(tb: &Tablebases, board: &Board) -> Option<Vec<RootMoveTb>> {
    let mut moves = Vec::new();
    board.generate_moves(|pm| {
        moves.extend(pm);
        false
    });
    moves
        .into_iter()
        .map(|mv| {
            let mut child = board.clone();
            child.play_unchecked(mv);
            let wdl = tb.probe_wdl(&child)?.flip();
            Some(RootMoveTb { mv, wdl, dtz: 0 })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_prefer_fast_wins_then_draws_then_slow_losses() {
        assert!(rank(Wdl::Win, 3) > rank(Wdl::Win, 9));
        assert!(rank(Wdl::Win, 99) > rank(Wdl::CursedWin, 1));
        assert!(rank(Wdl::CursedWin, 150) > rank(Wdl::Draw, 0));
        assert!(rank(Wdl::Draw, 0) > rank(Wdl::BlessedLoss, 150));
        assert!(rank(Wdl::BlessedLoss, 1) > rank(Wdl::Loss, 99));
        assert!(rank(Wdl::Loss, 30) > rank(Wdl::Loss, 10));
        assert_eq!(counted(Wdl::CursedWin, false), Wdl::Win);
        assert_eq!(counted(Wdl::CursedWin, true), Wdl::CursedWin);
        assert_eq!(counted(Wdl::BlessedLoss, false), Wdl::Loss);
        assert_eq!(score(Wdl::Win, 15, 0), TB_WIN - 15);
        assert_eq!(score(Wdl::Loss, 16, 0), -TB_WIN + 16);
        assert_eq!(score(Wdl::Draw, 0, -20), -20);
    }
}
