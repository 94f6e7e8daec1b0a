//! Perft: the number of leaf nodes of the legal move tree below a position (bulk counting
//! at the last ply), in all and per root move. The rules layer's own check, used by
//! `wily perft`, the console's `perft` and UCI's `go perft`.

use cozy_chess::{Board, Move};

/// Number of leaf nodes `depth` plies below `board`.
pub fn perft(board: &Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => {
            let mut n = 0u64;
            board.generate_moves(|pm| {
                n += pm.len() as u64;
                false
            });
            n
        }
        _ => {
            let mut n = 0u64;
            board.generate_moves(|pm| {
                for mv in pm {
                    let mut child = board.clone();
                    child.play_unchecked(mv);
                    n += perft(&child, depth - 1);
                }
                false
            });
            n
        }
    }
}

/// Leaf counts below each root move (in generation order).
pub fn divide(board: &Board, depth: u32) -> Vec<(Move, u64)> {
    let mut out = Vec::new();
    board.generate_moves(|pm| {
        for mv in pm {
            let mut child = board.clone();
            child.play_unchecked(mv);
            out.push((mv, perft(&child, depth.saturating_sub(1))));
        }
        false
    });
    out
}

/// Formats the closing summary line: `nodes <N> time <s> nps <N>`.
pub fn summary_line(nodes: u64, secs: f64) -> String {
    let nps = if secs > 0.0 {
        (nodes as f64 / secs) as u64
    } else {
        0
    };
    format!("nodes {nodes} time {secs:.3} nps {nps}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_counts() {
        let b = Board::default();
        assert_eq!(perft(&b, 0), 1);
        assert_eq!(perft(&b, 1), 20);
        assert_eq!(perft(&b, 3), 8_902);
        let d: u64 = divide(&b, 3).iter().map(|(_, n)| n).sum();
        assert_eq!(d, 8_902);
    }
}
