//! Swindle mode: what the search does with a root the tables call drawn. On (Crafty's
//! swindle, the default), the drawing moves are searched with the evaluation and no probes
//! below the root, so a line that simplifies into a dead draw scores the draw while one
//! that keeps material scores the evaluation's edge; and a drawing move after which no
//! reply of the opponent loses is dropped while another sets at least one such trap
//! (counted by WDL probes two plies down). Off, the tables' verdict stands: one drawing
//! move is kept, a capture when there is one (the simplest way to the draw), and it is
//! played at once.

use super::rank::RootTb;
use super::{Tablebases, Wdl};
use cozy_chess::{Board, Move};

/// The opponent's replies to `mv` after which the side to move at the root wins by the
/// tables (cursed wins too when the 50-move rule is not counted).
pub fn losing_replies(tb: &Tablebases, board: &Board, mv: Move, rule50: bool) -> usize {
    let mut child = board.clone();
    if child.try_play(mv).is_err() {
        return 0;
    }
    let mut replies = Vec::new();
    child.generate_moves(|pm| {
        replies.extend(pm);
        false
    });
    replies
        .into_iter()
        .filter(|&r| {
            let mut grand = child.clone();
            grand.play_unchecked(r);
            match tb.probe_wdl(&grand) {
                Some(Wdl::Win) => true,
                Some(Wdl::CursedWin) => !rule50,
                _ => false,
            }
        })
        .count()
}

/// The root moves to search for a drawn root under swindle mode `on` (a root that is not
/// drawn, or has one move, is returned as it is).
pub fn swindle_root(
    tb: &Tablebases,
    board: &Board,
    root: RootTb,
    on: bool,
    rule50: bool,
) -> RootTb {
    if !root.drawn || root.moves.len() < 2 {
        return root;
    }
    if !on {
        let capture = root
            .moves
            .iter()
            .copied()
            .find(|m| board.color_on(m.to) == Some(!board.side_to_move()));
        let one = capture.unwrap_or(root.moves[0]);
        return RootTb {
            moves: vec![one],
            ..root
        };
    }
    let traps: Vec<Move> = root
        .moves
        .iter()
        .copied()
        .filter(|&m| losing_replies(tb, board, m, rule50) > 0)
        .collect();
    if traps.is_empty() {
        return root;
    }
    RootTb {
        moves: traps,
        ..root
    }
}
