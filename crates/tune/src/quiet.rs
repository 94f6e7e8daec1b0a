//! Quiet positions for the tuner: a small quiescence search (captures and queen promotions
//! that do not lose material by static exchange, best first, standing pat on the static
//! evaluation) and the position at the end of its principal variation, where the static
//! evaluation is the quiescence value. Positions in check, or whose resolution ends in
//! check or with no legal move, are not used.

use cozy_chess::{Board, Move, Piece};

use engine::eval::Evaluator;
use engine::see::{captured_piece, piece_value, see_ge};

/// Deepest capture sequence followed.
const MAX_PLY: usize = 12;

/// Captures and queen promotions of `board` that lose nothing by static exchange, most
/// valuable victim first, then least valuable attacker.
fn tactical_moves(board: &Board) -> Vec<Move> {
    let mut moves: Vec<(i32, Move)> = Vec::new();
    board.generate_moves(|ms| {
        for mv in ms {
            let victim = captured_piece(board, mv);
            let promotes = mv.promotion == Some(Piece::Queen);
            if (victim.is_some() || promotes) && mv.promotion.is_none_or(|p| p == Piece::Queen) {
                if !see_ge(board, mv, 0) {
                    continue;
                }
                let attacker = board.piece_on(mv.from).map_or(0, piece_value);
                let key = victim.map_or(0, piece_value) * 16 - attacker / 16
                    + if promotes { 800 } else { 0 };
                moves.push((key, mv));
            }
        }
        false
    });
    moves.sort_by_key(|&(key, _)| std::cmp::Reverse(key));
    moves.into_iter().map(|(_, mv)| mv).collect()
}

/// Fail-hard quiescence search from the side to move's view; `pv` receives the principal
/// variation.
fn qsearch(
    ev: &mut Evaluator,
    board: &Board,
    mut alpha: i32,
    beta: i32,
    ply: usize,
    pv: &mut Vec<Move>,
) -> i32 {
    pv.clear();
    let stand = ev.evaluate(board);
    if stand >= beta {
        return beta;
    }
    alpha = alpha.max(stand);
    if ply >= MAX_PLY {
        return alpha;
    }
    let mut line = Vec::new();
    for mv in tactical_moves(board) {
        let mut child = board.clone();
        child.play_unchecked(mv);
        let score = -qsearch(ev, &child, -beta, -alpha, ply + 1, &mut line);
        if score > alpha {
            alpha = score;
            pv.clear();
            pv.push(mv);
            pv.extend_from_slice(&line);
            if alpha >= beta {
                break;
            }
        }
    }
    alpha
}

/// The quiet position `board` resolves to (the end of the quiescence search's principal
/// variation), or `None` when `board` or that position is in check or has no legal move.
pub fn resolve(ev: &mut Evaluator, board: &Board) -> Option<Board> {
    if !board.checkers().is_empty() {
        return None;
    }
    let mut pv = Vec::new();
    qsearch(ev, board, -100_000, 100_000, 0, &mut pv);
    let mut quiet = board.clone();
    for mv in pv {
        quiet.play_unchecked(mv);
    }
    let mut any = false;
    quiet.generate_moves(|_| {
        any = true;
        true
    });
    (any && quiet.checkers().is_empty()).then_some(quiet)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::eval::EvalParams;

    fn board(fen: &str) -> Board {
        Board::from_fen(fen, false).expect("test FEN")
    }

    #[test]
    fn resolution_plays_out_the_winning_capture() {
        let mut ev = Evaluator::new(EvalParams::default());
        // White's knight can take an undefended queen on d5.
        let b = board("4k3/8/8/3q4/8/4N3/8/4K3 w - - 0 1");
        let q = resolve(&mut ev, &b).expect("quiet");
        assert!(q.pieces(Piece::Queen).is_empty(), "{q}");
        // A quiet position stays as it is.
        let start = Board::default();
        assert_eq!(resolve(&mut ev, &start), Some(start));
        // In check: not used. Stalemate: not used.
        assert_eq!(
            resolve(&mut ev, &board("4k3/8/8/8/8/8/8/r3K3 w - - 0 1")),
            None
        );
        assert_eq!(
            resolve(&mut ev, &board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")),
            None
        );
    }

    #[test]
    fn losing_captures_are_not_resolution() {
        let mut ev = Evaluator::new(EvalParams::default());
        // Qxd5 loses the queen to the pawn on e6: the position is quiet as it is.
        let b = board("4k3/8/4p3/3p4/8/8/3Q4/4K3 w - - 0 1");
        assert_eq!(resolve(&mut ev, &b), Some(b.clone()));
    }
}
