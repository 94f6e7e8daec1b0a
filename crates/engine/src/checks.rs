//! Does a move give check? Answered before the move is made (so pruning can spare checking
//! moves) from per-node data: the squares from which each piece type would attack the
//! enemy king, and our pieces that block one of our sliders' lines to it. Rare cases
//! (castling, en passant, promotions) are answered exactly by playing the move on a copy.

use cozy_chess::{
    get_between_rays, get_bishop_moves, get_bishop_rays, get_knight_moves, get_line_rays,
    get_pawn_attacks, get_rook_moves, get_rook_rays, BitBoard, Board, Color, Move, Piece, Square,
};

/// Check-detection data of one position (side to move gives the checks).
#[derive(Clone, Copy)]
pub struct CheckInfo {
    king: Square,
    by_piece: [BitBoard; 6],
    blockers: BitBoard,
}

impl CheckInfo {
    pub fn new(board: &Board) -> CheckInfo {
        let us = board.side_to_move();
        let them = !us;
        let king = board.king(them);
        let occ = board.occupied();
        let bishop = get_bishop_moves(king, occ);
        let rook = get_rook_moves(king, occ);
        let by_piece = [
            get_pawn_attacks(king, them),
            get_knight_moves(king),
            bishop,
            rook,
            bishop | rook,
            BitBoard::EMPTY,
        ];
        // Our pieces standing alone between one of our sliders and their king.
        let ours = board.colors(us);
        let diag = (board.pieces(Piece::Bishop) | board.pieces(Piece::Queen)) & ours;
        let orth = (board.pieces(Piece::Rook) | board.pieces(Piece::Queen)) & ours;
        let snipers = (get_bishop_rays(king) & diag) | (get_rook_rays(king) & orth);
        let mut blockers = BitBoard::EMPTY;
        for s in snipers {
            let between = get_between_rays(s, king) & occ;
            if between.len() == 1 {
                blockers |= between & ours;
            }
        }
        CheckInfo {
            king,
            by_piece,
            blockers,
        }
    }

    /// Squares from which a `piece` of the side to move would attack the enemy king.
    #[inline]
    pub fn check_squares(&self, piece: Piece) -> BitBoard {
        self.by_piece[piece as usize]
    }

    /// Our pieces whose move off the line may give a discovered check.
    #[inline]
    pub fn blockers(&self) -> BitBoard {
        self.blockers
    }

    /// Our pieces that may have a non-capturing move giving check: those whose move off a
    /// line would uncover one ([`CheckInfo::blockers`]), and those that reach an empty
    /// checking square in one move (pawns by a single or double push). A superset, so a
    /// generator asked only for these pieces still finds every quiet check. The king is
    /// left out unless it is a blocker (it never checks by itself).
    pub fn quiet_checker_candidates(&self, board: &Board) -> BitBoard {
        let us = board.side_to_move();
        let occ = board.occupied();
        let empty = !occ;
        let mut mask = self.blockers;
        for sq in board.colored_pieces(us, Piece::Knight) {
            if !(get_knight_moves(sq) & self.by_piece[Piece::Knight as usize] & empty).is_empty() {
                mask |= sq.bitboard();
            }
        }
        for sq in board.colored_pieces(us, Piece::Bishop) {
            let targets = self.by_piece[Piece::Bishop as usize] & empty;
            if !(get_bishop_moves(sq, occ) & targets).is_empty() {
                mask |= sq.bitboard();
            }
        }
        for sq in board.colored_pieces(us, Piece::Rook) {
            let targets = self.by_piece[Piece::Rook as usize] & empty;
            if !(get_rook_moves(sq, occ) & targets).is_empty() {
                mask |= sq.bitboard();
            }
        }
        // A queen checks along either kind of line from wherever it lands.
        for sq in board.colored_pieces(us, Piece::Queen) {
            let targets = self.by_piece[Piece::Queen as usize] & empty;
            let reach = get_bishop_moves(sq, occ) | get_rook_moves(sq, occ);
            if !(reach & targets).is_empty() {
                mask |= sq.bitboard();
            }
        }
        // Pawns one or two squares behind an empty pawn-checking square.
        let pawn_targets = (self.by_piece[Piece::Pawn as usize] & empty).0;
        let behind = match us {
            Color::White => (pawn_targets >> 8) | (pawn_targets >> 16),
            Color::Black => (pawn_targets << 8) | (pawn_targets << 16),
        };
        mask |= board.colored_pieces(us, Piece::Pawn) & BitBoard(behind);
        mask
    }

    /// True when `mv` (legal on `board`) gives check.
    #[inline]
    pub fn gives_check(&self, board: &Board, mv: Move) -> bool {
        match board.piece_on(mv.from) {
            Some(piece) => self.gives_check_by(board, mv, piece),
            None => false,
        }
    }

    /// [`CheckInfo::gives_check`] when the moving piece is already known.
    #[inline]
    pub fn gives_check_by(&self, board: &Board, mv: Move, piece: Piece) -> bool {
        let special = mv.promotion.is_some()
            || board.colors(board.side_to_move()).has(mv.to) // castling (king takes own rook)
            || (piece == Piece::Pawn
                && mv.from.file() != mv.to.file()
                && !board.occupied().has(mv.to)); // en passant
        if special {
            return Self::gives_check_played(board, mv);
        }
        if self.by_piece[piece as usize].has(mv.to) {
            return true;
        }
        self.blockers.has(mv.from) && !get_line_rays(self.king, mv.from).has(mv.to)
    }

    /// [`CheckInfo::gives_check_by`] for a move known to capture nothing, promote nothing
    /// and not to be en passant, as the move picker's quiet moves are (castling, the king
    /// onto its own rook, is still answered exactly).
    #[inline(always)]
    pub fn quiet_gives_check(&self, board: &Board, mv: Move, piece: Piece) -> bool {
        if self.by_piece[piece as usize].has(mv.to) {
            return true;
        }
        if piece == Piece::King && board.colors(board.side_to_move()).has(mv.to) {
            return Self::gives_check_played(board, mv);
        }
        self.blockers.has(mv.from) && !get_line_rays(self.king, mv.from).has(mv.to)
    }

    /// The rare cases, answered by playing the move on a copy.
    #[cold]
    #[inline(never)]
    fn gives_check_played(board: &Board, mv: Move) -> bool {
        let mut b = board.clone();
        b.play_unchecked(mv);
        !b.checkers().is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_playing_the_move() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
            "4k3/8/8/3pP3/8/8/8/R3K2R w KQ d6 0 1",
            "3k4/8/8/8/8/8/3B4/3RK3 w - - 0 1",
        ];
        for fen in fens {
            let mut board: Board = fen.parse().expect("fen");
            for _ in 0..2 {
                let info = CheckInfo::new(&board);
                let moves = crate::movepick::MoveList::legal(&board).as_slice().to_vec();
                for &mv in &moves {
                    let mut b = board.clone();
                    b.play_unchecked(mv);
                    assert_eq!(
                        info.gives_check(&board, mv),
                        !b.checkers().is_empty(),
                        "{fen} {mv}"
                    );
                    let piece = board.piece_on(mv.from).expect("a piece moves");
                    let enemy = board.colors(!board.side_to_move());
                    let en_passant = piece == Piece::Pawn && mv.from.file() != mv.to.file();
                    if !enemy.has(mv.to) && mv.promotion.is_none() && !en_passant {
                        assert_eq!(
                            info.quiet_gives_check(&board, mv, piece),
                            !b.checkers().is_empty(),
                            "quiet {fen} {mv}"
                        );
                    }
                }
                // And from the other side's point of view after a null move.
                match board.null_move() {
                    Some(b) => board = b,
                    None => break,
                }
            }
        }
    }

    #[test]
    fn quiet_checker_candidates_cover_every_quiet_check() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        let mut checks_seen = 0;
        for _ in 0..200 {
            let mut board = Board::default();
            for _ in 0..120 {
                let moves = crate::movepick::MoveList::legal(&board).as_slice().to_vec();
                if moves.is_empty() {
                    break;
                }
                let info = CheckInfo::new(&board);
                let candidates = info.quiet_checker_candidates(&board);
                let enemy = board.colors(!board.side_to_move());
                for &mv in &moves {
                    let piece = board.piece_on(mv.from).expect("own piece");
                    let quiet = !enemy.has(mv.to)
                        && mv.promotion.is_none()
                        && !(piece == Piece::Pawn && mv.from.file() != mv.to.file());
                    let by_king_alone = piece == Piece::King && !info.blockers().has(mv.from);
                    if quiet && !by_king_alone && info.gives_check(&board, mv) {
                        checks_seen += 1;
                        assert!(candidates.has(mv.from), "{board} {mv}");
                    }
                }
                board.play_unchecked(moves[rng.gen_range(0..moves.len())]);
            }
        }
        assert!(checks_seen > 1000, "only {checks_seen} quiet checks met");
    }
}
