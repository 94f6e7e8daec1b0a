//! c-chess-cli's tactical resolution of a sample (`-sample resolve=y`): from the position
//! an engine moved from, the tactical moves (captures and promotions) at the start of its
//! principal variation are played to reach the first quiet position; the last position of
//! that line not in check is recorded (none when all are), with the engine's score from
//! that position's side to move. Samples with a mate score are dropped.

use super::is_capture;
use crate::engine::Score;
use chess::coord::move_from_uci;
use cozy_chess::{Board, Move};

/// True for a capture or a promotion.
fn tactical(board: &Board, mv: Move) -> bool {
    mv.promotion.is_some() || is_capture(board, mv)
}

/// The position to record for the engine that played `played` from `board` with the
/// principal variation `pv` (UCI moves, normally starting with `played`) and `score`
/// (its side to move's), or `None` when the sample is dropped.
pub fn resolve(
    board: &Board,
    played: Move,
    pv: &str,
    score: Option<Score>,
) -> Option<(Board, Option<Score>)> {
    let cp = match score? {
        Score::Cp(c) => c,
        Score::Mate(_) => return None,
    };
    let mut line = vec![(board.clone(), cp)];
    let mut words = pv.split_ascii_whitespace().peekable();
    // A PV that does not start with the move played says nothing about this position.
    let first_ok = words.peek().is_some_and(|w| {
        [false, true]
            .iter()
            .any(|&c| move_from_uci(board, w, c).ok() == Some(played))
    });
    if first_ok {
        let mut b = board.clone();
        let mut s = cp;
        for w in words {
            let mv = [false, true]
                .iter()
                .find_map(|&c| move_from_uci(&b, w, c).ok().filter(|m| b.is_legal(*m)));
            let Some(mv) = mv else { break };
            if !tactical(&b, mv) {
                break;
            }
            b.play_unchecked(mv);
            s = -s;
            line.push((b.clone(), s));
        }
    }
    line.into_iter()
        .rev()
        .find(|(b, _)| b.checkers().is_empty())
        .map(|(b, s)| (b, Some(Score::Cp(s))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str) -> Board {
        chess::parse_fen(fen).unwrap()
    }

    fn mv(b: &Board, s: &str) -> Move {
        move_from_uci(b, s, false).unwrap()
    }

    #[test]
    fn plays_the_captures_at_the_start_of_the_pv() {
        // 1. e4 d5: White's PV exd5 Qxd5 Nc3 reaches the quiet position after Qxd5.
        let b = board("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2");
        let (at, score) = resolve(
            &b,
            mv(&b, "e4d5"),
            "e4d5 d8d5 b1c3 d5a5",
            Some(Score::Cp(20)),
        )
        .unwrap();
        assert_eq!(
            chess::fen::to_fen(&at),
            "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3"
        );
        // Two plies later White is to move again: the same sign.
        assert_eq!(score, Some(Score::Cp(20)));
        // A quiet first move: the position itself.
        let (at, score) = resolve(&b, mv(&b, "g1f3"), "g1f3 d5e4", Some(Score::Cp(-7))).unwrap();
        assert_eq!(at, b);
        assert_eq!(score, Some(Score::Cp(-7)));
        // A PV that is not about the move played: the position itself.
        let (at, _) = resolve(&b, mv(&b, "g1f3"), "e4d5 d8d5", Some(Score::Cp(5))).unwrap();
        assert_eq!(at, b);
    }

    #[test]
    fn checks_are_stepped_back_over_and_mates_dropped() {
        // White to move captures with check: Bxf7+ leaves Black in check.
        let b = board("rnbqkbnr/pppp1ppp/8/4p3/2B1P3/8/PPPP1PPP/RNBQK1NR w KQkq - 0 3");
        let (at, score) = resolve(&b, mv(&b, "c4f7"), "c4f7 e8f7", Some(Score::Cp(-150))).unwrap();
        // Kxf7 is a capture too: the line ends after it, Black's king no longer in check.
        assert_eq!(at.side_to_move(), cozy_chess::Color::White);
        assert_eq!(score, Some(Score::Cp(-150)));
        // The line stops after Bxf7+, in check: the position before it is recorded.
        let (at, score) = resolve(&b, mv(&b, "c4f7"), "c4f7", Some(Score::Cp(-150))).unwrap();
        assert_eq!((at, score), (b.clone(), Some(Score::Cp(-150))));
        assert!(resolve(&b, mv(&b, "c4f7"), "c4f7", Some(Score::Mate(4))).is_none());
        assert!(resolve(&b, mv(&b, "c4f7"), "c4f7", None).is_none());
        // In check at the root and after every tactical move: nothing to record.
        let checked = board("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1");
        assert!(resolve(&checked, mv(&checked, "e1e2"), "e1e2", Some(Score::Cp(0))).is_some());
        assert!(resolve(&checked, mv(&checked, "e1d1"), "e1d1", Some(Score::Cp(0))).is_none());
    }
}
