//! The soak's sparring moves: walk into a mate in one whenever there is one (from a given
//! move on), otherwise a pseudo-random legal move from a seeded sequence. Games against it
//! end by checkmate in a few dozen moves, so a thousand of them fit in minutes, and every
//! one has a result.

use cozy_chess::{Board, GameStatus, Move};
use server::MoveChooser;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Whether the side to move after `m` can mate at once.
fn allows_mate(board: &Board, m: Move) -> bool {
    let mut b = board.clone();
    b.play_unchecked(m);
    let mut mate = false;
    b.generate_moves(|ms| {
        for r in ms {
            let mut c = b.clone();
            c.play_unchecked(r);
            if c.status() == GameStatus::Won {
                mate = true;
                return true;
            }
        }
        false
    });
    mate
}

/// A move chooser that walks into mates from move `from_move` on (see the file's doc);
/// `seed` picks the sequence of the other moves.
pub fn suicidal_seeded(seed: u64, from_move: u16) -> MoveChooser {
    let counter = Arc::new(AtomicU64::new(seed | 1));
    MoveChooser::Callback(Arc::new(move |board: &Board| {
        let mut moves: Vec<Move> = Vec::new();
        board.generate_moves(|ms| {
            moves.extend(ms);
            false
        });
        if board.fullmove_number() >= from_move {
            if let Some(&m) = moves.iter().find(|&&m| allows_mate(board, m)) {
                return Some(m);
            }
        }
        if moves.is_empty() {
            return None;
        }
        let n = counter.fetch_add(7919, Ordering::Relaxed);
        moves.get((n as usize) % moves.len()).copied()
    }))
}

/// [`suicidal_seeded`] with the sequence the loopback tests use.
pub fn suicidal() -> MoveChooser {
    suicidal_seeded(1, 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::fen::parse_fen;

    #[test]
    fn walks_into_a_mate_in_one() {
        // Black to move; ...g5 lets Qh5# (the fool's mate pattern, colours swapped).
        let b =
            parse_fen("rnbqkbnr/ppppp2p/5p2/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2").expect("fen");
        let MoveChooser::Callback(f) = suicidal() else {
            panic!("a callback");
        };
        let m = f(&b).expect("a move");
        assert!(allows_mate(&b, m), "{m}");
    }
}
