//! Tablebase adjudication for `wily match -tb PATH`: the engine's Syzygy tables behind
//! the runner's [`Tablebase`] seam. A position right after a capture or pawn move takes
//! the WDL tables' value; any other position is valued by DTZ from its 50-move counter (a
//! win that the counter spoils is a cursed win, so a draw), falling back to WDL where the
//! DTZ table is missing. `-tbpieces N` limits adjudication to positions of at most N
//! pieces; `-tbignore50` takes the tables' verdict without the 50-move rule (a cursed win
//! is a win, a blessed loss a loss).

use super::adjudicate::{Tablebase, Wdl};
use cozy_chess::Board;
use engine::tablebase::{self, Tablebases};
use std::sync::Arc;

/// The loaded tables as a match adjudicator.
pub struct SyzygyAdjudicator {
    tables: Arc<Tablebases>,
    /// At most this many pieces (`-tbpieces`).
    pub pieces: Option<u32>,
    /// The verdict without the 50-move rule (`-tbignore50`).
    pub ignore50: bool,
}

/// Loads the tables of the `:`-separated folders `path` for adjudication.
pub fn adjudicator(path: &str) -> Result<SyzygyAdjudicator, String> {
    let tables = tablebase::open(path).map_err(|e| format!("-tb {path}: {e}"))?;
    Ok(SyzygyAdjudicator {
        tables,
        pieces: None,
        ignore50: false,
    })
}

impl SyzygyAdjudicator {
    /// What was loaded (one line) and what was left out.
    pub fn summary(&self) -> String {
        let mut s = self.tables.summary();
        if let Some(n) = self.pieces {
            s.push_str(&format!(
                "; adjudicating at {} pieces or fewer",
                n.min(self.tables.largest())
            ));
        }
        if self.ignore50 {
            s.push_str("; the 50-move rule ignored");
        }
        for p in self.tables.problems() {
            s.push_str("\n  left out: ");
            s.push_str(p);
        }
        s
    }
}

impl Tablebase for SyzygyAdjudicator {
    fn max_pieces(&self) -> u32 {
        let n = self.tables.largest();
        self.pieces.map_or(n, |p| p.min(n))
    }

    fn probe_wdl(&self, board: &Board) -> Option<Wdl> {
        if self.ignore50 {
            return self.tables.probe_wdl(board).map(|w| match w {
                Wdl::CursedWin => Wdl::Win,
                Wdl::BlessedLoss => Wdl::Loss,
                w => w,
            });
        }
        let counted = if board.halfmove_clock() == 0 {
            None
        } else {
            // Each move's value already counts the clock; the position's is the best.
            self.tables
                .probe_root(board)
                .and_then(|moves| moves.iter().map(|m| m.wdl).max())
        };
        counted.or_else(|| self.tables.probe_wdl(board))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::parse_fen;

    #[test]
    fn values_count_the_fifty_move_counter() {
        let Some(dir) = testkit::syzygy::syzygy_dir() else {
            return;
        };
        let _g = testkit::syzygy::serial();
        let adj = adjudicator(dir.to_str().unwrap()).expect("tables");
        assert!(adj.summary().contains("up to 4 pieces"));
        assert_eq!(adj.max_pieces(), 4);
        let b = |f: &str| parse_fen(f).unwrap();
        // KRvK won in 23 plies: a win with a fresh counter, only a cursed win when 80 of
        // the 100 plies are gone.
        assert_eq!(
            adj.probe_wdl(&b("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")),
            Some(Wdl::Win)
        );
        assert_eq!(
            adj.probe_wdl(&b("4k3/8/8/8/8/8/8/R3K3 w - - 80 60")),
            Some(Wdl::CursedWin)
        );
        assert_eq!(
            adj.probe_wdl(&b("4k3/8/8/8/8/8/8/R3K3 b - - 3 60")),
            Some(Wdl::Loss)
        );
        assert_eq!(
            adj.probe_wdl(&b("8/8/8/8/8/4k3/4P3/4K3 w - - 0 1")),
            Some(Wdl::Draw)
        );
        assert_eq!(
            adj.probe_wdl(&b("4k3/8/8/8/8/8/2PPP3/3QK3 w - - 0 1")),
            None
        );
        let mut adj = adj;
        adj.ignore50 = true;
        adj.pieces = Some(3);
        assert_eq!(adj.max_pieces(), 3);
        assert_eq!(
            adj.probe_wdl(&b("4k3/8/8/8/8/8/8/R3K3 w - - 80 60")),
            Some(Wdl::Win),
            "no 50-move rule"
        );
    }
}
