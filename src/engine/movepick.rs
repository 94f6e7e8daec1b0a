//! Move ordering: a staged picker that returns the hash move first (before any move
//! generation), then good captures by MVV/LVA and capture history (losing ones, checked by
//! SEE when picked, are pushed back), killers, the counter move, quiet moves by history,
//! losing captures and under-promotions. Fixed-size arrays: no allocation.

use super::history::{History, Played};
use super::see::{captured_piece, piece_value, see_ge};
use cozy_chess::{BitBoard, Board, Move, Piece, PieceMoves, Rank, Square};

pub const MAX_MOVES: usize = 256;

const GOOD_CAPTURE: i32 = 40_000_000;
const KILLER_1: i32 = 30_000_000;
const KILLER_2: i32 = 29_000_000;
const COUNTER: i32 = 28_000_000;
const BAD_CAPTURE: i32 = -30_000_000;
const UNDER_PROMOTION: i32 = -40_000_000;

const NULL_MOVE: Move = Move {
    from: Square::A1,
    to: Square::A1,
    promotion: None,
};

/// A fixed-capacity list of moves (legal moves never exceed 218).
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl MoveList {
    pub fn new() -> MoveList {
        MoveList {
            moves: [NULL_MOVE; MAX_MOVES],
            len: 0,
        }
    }

    #[inline]
    pub fn push(&mut self, mv: Move) {
        if self.len < MAX_MOVES {
            self.moves[self.len] = mv;
            self.len += 1;
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// All legal moves of `board`.
    pub fn legal(board: &Board) -> MoveList {
        let mut list = MoveList::new();
        board.generate_moves(|pm| {
            for mv in pm {
                list.push(mv);
            }
            false
        });
        list
    }
}

/// What the picker needs to know about the path leading to this node.
#[derive(Clone, Copy, Default)]
pub struct OrderContext {
    pub prev1: Option<Played>,
    pub prev2: Option<Played>,
    pub killers: [Option<Move>; 2],
    pub counter: Option<Move>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    TtMove,
    Generate,
    Pick,
}

/// The staged move picker of one node.
pub struct MovePicker {
    moves: [Move; MAX_MOVES],
    scores: [i32; MAX_MOVES],
    len: usize,
    idx: usize,
    stage: Stage,
    tt_move: Option<Move>,
    captures_only: bool,
    skip_quiets: bool,
}

/// Squares where a pawn arrives to promote (either side).
const PROMO_RANKS: BitBoard = BitBoard(0xFF00_0000_0000_00FF);

impl MovePicker {
    /// Picker over all legal moves (`captures_only` false) or captures and queen
    /// promotions only (quiescence search).
    pub fn new(tt_move: Option<Move>, captures_only: bool) -> MovePicker {
        MovePicker {
            moves: [NULL_MOVE; MAX_MOVES],
            scores: [0; MAX_MOVES],
            len: 0,
            idx: 0,
            stage: Stage::TtMove,
            tt_move,
            captures_only,
            skip_quiets: false,
        }
    }

    /// From now on, quiet moves are not returned (late-move pruning).
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    fn generate(&mut self, board: &Board, hist: &History, ctx: &OrderContext) {
        let stm = board.side_to_move();
        let enemy = board.colors(!stm);
        let ep = board.en_passant().map_or(BitBoard::EMPTY, |f| {
            Square::new(f, Rank::Sixth.relative_to(stm)).bitboard()
        });
        let captures_only = self.captures_only;
        let tt_move = self.tt_move;
        let mut len = 0;
        let moves = &mut self.moves;
        board.generate_moves(|pm| {
            let mut to = pm.to;
            if captures_only {
                let mut mask = enemy;
                if pm.piece == Piece::Pawn {
                    mask |= PROMO_RANKS | ep;
                }
                to &= mask;
            }
            let pm = PieceMoves { to, ..pm };
            for mv in pm {
                if Some(mv) == tt_move {
                    continue;
                }
                if captures_only && matches!(mv.promotion, Some(p) if p != Piece::Queen) {
                    continue;
                }
                if len < MAX_MOVES {
                    moves[len] = mv;
                    len += 1;
                }
            }
            false
        });
        self.len = len;
        for i in 0..len {
            let mv = self.moves[i];
            self.scores[i] = Self::score(board, mv, hist, ctx);
        }
    }

    #[inline]
    fn score(board: &Board, mv: Move, hist: &History, ctx: &OrderContext) -> i32 {
        let stm = board.side_to_move();
        let piece = board.piece_on(mv.from).unwrap_or(Piece::Pawn);
        let victim = if board.colors(stm).has(mv.to) {
            None // castling
        } else {
            captured_piece(board, mv)
        };
        match mv.promotion {
            Some(p) if p != Piece::Queen => {
                return UNDER_PROMOTION + victim.map_or(0, piece_value);
            }
            _ => {}
        }
        if victim.is_some() || mv.promotion.is_some() {
            let v = victim.map_or(0, piece_value) + mv.promotion.map_or(0, piece_value);
            let ch = victim.map_or(0, |vp| hist.capture_score(stm, piece, mv.to, vp));
            return GOOD_CAPTURE + v * 8 + ch / 32;
        }
        if Some(mv) == ctx.killers[0] {
            KILLER_1
        } else if Some(mv) == ctx.killers[1] {
            KILLER_2
        } else if Some(mv) == ctx.counter {
            COUNTER
        } else {
            hist.quiet_score(stm, mv, piece, ctx.prev1, ctx.prev2)
        }
    }

    /// The next move to try, or `None` when exhausted.
    pub fn next(&mut self, board: &Board, hist: &History, ctx: &OrderContext) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::Generate;
                    if let Some(mv) = self.tt_move {
                        let ok = board.is_legal(mv)
                            && (!self.captures_only
                                || captured_piece(board, mv).is_some()
                                    && !board.colors(board.side_to_move()).has(mv.to)
                                || mv.promotion == Some(Piece::Queen));
                        if ok {
                            return Some(mv);
                        }
                        self.tt_move = None;
                    }
                }
                Stage::Generate => {
                    self.generate(board, hist, ctx);
                    self.stage = Stage::Pick;
                }
                Stage::Pick => {
                    if self.idx >= self.len {
                        return None;
                    }
                    let mut best = self.idx;
                    for i in self.idx + 1..self.len {
                        if self.scores[i] > self.scores[best] {
                            best = i;
                        }
                    }
                    let score = self.scores[best];
                    if self.skip_quiets && score < GOOD_CAPTURE && score > BAD_CAPTURE {
                        // Only quiet moves (and worse) remain above the bad captures:
                        // drop the quiet ones.
                        let mut w = self.idx;
                        for i in self.idx..self.len {
                            let s = self.scores[i];
                            if s >= GOOD_CAPTURE || s <= BAD_CAPTURE {
                                self.moves[w] = self.moves[i];
                                self.scores[w] = s;
                                w += 1;
                            }
                        }
                        self.len = w;
                        continue;
                    }
                    let mv = self.moves[best];
                    if !self.captures_only && score >= GOOD_CAPTURE && !see_ge(board, mv, 0) {
                        self.scores[best] = BAD_CAPTURE + (score - GOOD_CAPTURE) / 8;
                        continue;
                    }
                    self.moves.swap(self.idx, best);
                    self.scores.swap(self.idx, best);
                    self.idx += 1;
                    return Some(mv);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_moves(fen: &str, captures_only: bool) -> Vec<Move> {
        let board: Board = fen.parse().expect("fen");
        let hist = History::new();
        let ctx = OrderContext::default();
        let mut p = MovePicker::new(None, captures_only);
        let mut v = Vec::new();
        while let Some(m) = p.next(&board, &hist, &ctx) {
            v.push(m);
        }
        v
    }

    #[test]
    fn picker_returns_every_legal_move_once_with_captures_first() {
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let v = all_moves(fen, false);
        assert_eq!(v.len(), 48);
        let mut dedup = v.clone();
        dedup.sort_by_key(|m| (m.from as u8, m.to as u8, m.promotion.map(|p| p as u8)));
        dedup.dedup();
        assert_eq!(dedup.len(), 48);
        let board: Board = fen.parse().expect("fen");
        // The first move is a capture that does not lose material.
        assert!(captured_piece(&board, v[0]).is_some());
        let caps = all_moves(fen, true);
        assert_eq!(caps.len(), 8);
        assert!(caps.iter().all(|m| captured_piece(&board, *m).is_some()));
    }

    #[test]
    fn hash_move_comes_first_and_is_not_repeated() {
        let board = Board::default();
        let tt: Move = "g1f3".parse().expect("move");
        let hist = History::new();
        let ctx = OrderContext::default();
        let mut p = MovePicker::new(Some(tt), false);
        let first = p.next(&board, &hist, &ctx);
        assert_eq!(first, Some(tt));
        let mut n = 1;
        while let Some(m) = p.next(&board, &hist, &ctx) {
            assert_ne!(m, tt);
            n += 1;
        }
        assert_eq!(n, 20);
    }
}
