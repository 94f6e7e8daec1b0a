//! Move ordering: a staged picker that returns the hash move first (before any move
//! generation), then good captures by MVV/LVA and capture history (losing ones, checked by
//! SEE when picked, are pushed back), killers, the counter move, quiet moves by history,
//! losing captures and under-promotions. Fixed-size arrays: no allocation; the search keeps
//! one picker per ply and resets it, so a node never clears the arrays either.

use super::checks::CheckInfo;
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
    GoodCaptures,
    ScoreQuiets,
    Quiets,
    BadCaptures,
}

/// Quiet moves picked one by one (best first) before the rest are sorted at once: most
/// nodes cut off or prune after a few quiet moves, so sorting them all is wasted work.
const QUIET_SELECTIONS: usize = 6;

/// The staged move picker of one node.
///
/// Moves live in one array: captures and promotions (`0..n_captures`, scored at
/// generation) then quiet moves (`n_captures..len`, scored only when the quiet stage is
/// reached, so a capture cutoff never pays for history lookups). The moving piece of each
/// move is kept alongside, so neither scoring nor the caller has to look it up.
pub struct MovePicker {
    moves: [Move; MAX_MOVES],
    pieces: [Piece; MAX_MOVES],
    scores: [i32; MAX_MOVES],
    len: usize,
    n_captures: usize,
    /// Next unpicked capture / quiet.
    cap_idx: usize,
    quiet_idx: usize,
    stage: Stage,
    tt_move: Option<Move>,
    captures_only: bool,
    /// Set by late-move pruning: quiet moves are skipped unless they give check.
    skip_quiets: Option<CheckInfo>,
    /// Quiet moves returned so far (selection, then one sort of the rest).
    quiets_picked: usize,
    /// The remaining quiet moves were cut down to checking ones (after `skip_quiets`).
    quiets_filtered: bool,
    /// The moving piece of the move returned last.
    last_piece: Piece,
    /// The history score of the move returned last, when it was an ordinary quiet move.
    last_history: Option<i32>,
}

/// Squares where a pawn arrives to promote (either side).
const PROMO_RANKS: BitBoard = BitBoard(0xFF00_0000_0000_00FF);

impl MovePicker {
    /// Picker over all legal moves (`captures_only` false) or captures and queen
    /// promotions only (quiescence search).
    pub fn new(tt_move: Option<Move>, captures_only: bool) -> MovePicker {
        MovePicker {
            moves: [NULL_MOVE; MAX_MOVES],
            pieces: [Piece::Pawn; MAX_MOVES],
            scores: [0; MAX_MOVES],
            len: 0,
            n_captures: 0,
            cap_idx: 0,
            quiet_idx: 0,
            stage: Stage::TtMove,
            tt_move,
            captures_only,
            skip_quiets: None,
            quiets_picked: 0,
            quiets_filtered: false,
            last_piece: Piece::Pawn,
            last_history: None,
        }
    }

    /// Makes this picker start over for a new node, as [`MovePicker::new`] would, without
    /// clearing its arrays (the stages only read what generation wrote).
    #[inline]
    pub fn reset(&mut self, tt_move: Option<Move>, captures_only: bool) {
        self.len = 0;
        self.n_captures = 0;
        self.cap_idx = 0;
        self.quiet_idx = 0;
        self.stage = Stage::TtMove;
        self.tt_move = tt_move;
        self.captures_only = captures_only;
        self.skip_quiets = None;
        self.quiets_picked = 0;
        self.quiets_filtered = false;
        self.last_piece = Piece::Pawn;
        self.last_history = None;
    }

    /// The moving piece of the move [`MovePicker::next`] returned last.
    #[inline]
    pub fn last_piece(&self) -> Piece {
        self.last_piece
    }

    /// The history score ([`History::quiet_score`]) of the move returned last, when it was
    /// a quiet move ordered by history (not the hash move, a killer or the counter move).
    #[inline]
    pub fn last_history(&self) -> Option<i32> {
        self.last_history
    }

    /// From now on, quiet moves are returned only when they give check (late-move
    /// pruning); `info` is the node's check data.
    pub fn skip_quiets(&mut self, info: CheckInfo) {
        self.skip_quiets = Some(info);
    }

    fn generate(&mut self, board: &Board, hist: &History) {
        let stm = board.side_to_move();
        let enemy = board.colors(!stm);
        let ep_sq = board
            .en_passant()
            .map(|f| Square::new(f, Rank::Sixth.relative_to(stm)));
        let ep = ep_sq.map_or(BitBoard::EMPTY, |s| s.bitboard());
        let captures_only = self.captures_only;
        let tt_move = self.tt_move;
        let moves = &mut self.moves;
        let pieces = &mut self.pieces;
        let scores = &mut self.scores;
        // Captures fill the array from the front, quiet moves from the back.
        let mut front = 0;
        let mut back = MAX_MOVES;
        board.generate_moves(|pm| {
            let piece = pm.piece;
            let mut tactical = pm.to & enemy;
            if piece == Piece::Pawn {
                tactical |= pm.to & (PROMO_RANKS | ep);
            }
            for mv in (PieceMoves { to: tactical, ..pm }) {
                if Some(mv) == tt_move || front >= back {
                    continue;
                }
                if captures_only && matches!(mv.promotion, Some(p) if p != Piece::Queen) {
                    continue;
                }
                let victim = if enemy.has(mv.to) {
                    board.piece_on(mv.to)
                } else if piece == Piece::Pawn && Some(mv.to) == ep_sq {
                    Some(Piece::Pawn)
                } else {
                    None
                };
                moves[front] = mv;
                pieces[front] = piece;
                scores[front] = Self::capture_score(stm, mv, piece, victim, hist);
                front += 1;
            }
            if captures_only {
                return false;
            }
            for mv in (PieceMoves {
                to: pm.to & !tactical,
                ..pm
            }) {
                if Some(mv) == tt_move || front >= back {
                    continue;
                }
                back -= 1;
                moves[back] = mv;
                pieces[back] = piece;
            }
            false
        });
        // Close the gap: quiet moves follow the captures.
        let n_quiets = MAX_MOVES - back;
        self.moves.copy_within(back..MAX_MOVES, front);
        self.pieces.copy_within(back..MAX_MOVES, front);
        self.n_captures = front;
        self.len = front + n_quiets;
        self.cap_idx = 0;
        self.quiet_idx = front;
    }

    #[inline]
    fn capture_score(
        stm: cozy_chess::Color,
        mv: Move,
        piece: Piece,
        victim: Option<Piece>,
        hist: &History,
    ) -> i32 {
        match mv.promotion {
            Some(p) if p != Piece::Queen => UNDER_PROMOTION + victim.map_or(0, piece_value),
            _ => {
                let v = victim.map_or(0, piece_value) + mv.promotion.map_or(0, piece_value);
                let ch = victim.map_or(0, |vp| hist.capture_score(stm, piece, mv.to, vp));
                GOOD_CAPTURE + v * 8 + ch / 32
            }
        }
    }

    fn score_quiets(&mut self, board: &Board, hist: &History, ctx: &OrderContext) {
        let stm = board.side_to_move();
        for i in self.n_captures..self.len {
            let mv = self.moves[i];
            self.scores[i] = if Some(mv) == ctx.killers[0] {
                KILLER_1
            } else if Some(mv) == ctx.killers[1] {
                KILLER_2
            } else if Some(mv) == ctx.counter {
                COUNTER
            } else {
                hist.quiet_score(stm, mv, self.pieces[i], ctx.prev1, ctx.prev2)
            };
        }
    }

    /// Keeps, in order, only the remaining quiet moves that give check (late-move pruning
    /// has started): they are the only ones still returned, so only they need ordering.
    fn keep_checking_quiets(&mut self, board: &Board, info: &CheckInfo) {
        let mut kept = self.quiet_idx;
        for i in self.quiet_idx..self.len {
            if info.gives_check(board, self.moves[i]) {
                self.moves[kept] = self.moves[i];
                self.pieces[kept] = self.pieces[i];
                self.scores[kept] = self.scores[i];
                kept += 1;
            }
        }
        self.len = kept;
    }

    /// Moves the first best-scored quiet move of `quiet_idx..len` to `quiet_idx`, keeping
    /// the others in order (so the sequence equals a stable sort, best first).
    #[inline]
    fn select_quiet(&mut self) {
        let from = self.quiet_idx;
        let best = self.best_in(from, self.len);
        if best > from {
            self.moves[from..=best].rotate_right(1);
            self.pieces[from..=best].rotate_right(1);
            self.scores[from..=best].rotate_right(1);
        }
    }

    /// Sorts the quiet moves `quiet_idx..len` best first (stable insertion sort: short
    /// lists, mostly ordered).
    fn sort_quiets(&mut self) {
        let start = self.quiet_idx;
        for i in start + 1..self.len {
            let (m, pc, sc) = (self.moves[i], self.pieces[i], self.scores[i]);
            let mut j = i;
            while j > start && self.scores[j - 1] < sc {
                self.moves[j] = self.moves[j - 1];
                self.pieces[j] = self.pieces[j - 1];
                self.scores[j] = self.scores[j - 1];
                j -= 1;
            }
            self.moves[j] = m;
            self.pieces[j] = pc;
            self.scores[j] = sc;
        }
    }

    /// Index of the best-scored move in `from..to` (`to > from`).
    #[inline]
    fn best_in(&self, from: usize, to: usize) -> usize {
        let mut best = from;
        for i in from + 1..to {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        best
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
                            self.last_piece = board.piece_on(mv.from).unwrap_or(Piece::Pawn);
                            self.last_history = None;
                            return Some(mv);
                        }
                        self.tt_move = None;
                    }
                }
                Stage::Generate => {
                    self.generate(board, hist);
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => {
                    if self.cap_idx >= self.n_captures {
                        self.stage = Stage::ScoreQuiets;
                        continue;
                    }
                    let best = self.best_in(self.cap_idx, self.n_captures);
                    let score = self.scores[best];
                    if score < GOOD_CAPTURE {
                        self.stage = Stage::ScoreQuiets;
                        continue;
                    }
                    let mv = self.moves[best];
                    if !self.captures_only && !see_ge(board, mv, 0) {
                        self.scores[best] = BAD_CAPTURE + (score - GOOD_CAPTURE) / 8;
                        continue;
                    }
                    self.take_capture(best);
                    return Some(mv);
                }
                Stage::ScoreQuiets => {
                    if self.captures_only {
                        self.stage = Stage::BadCaptures;
                        continue;
                    }
                    self.score_quiets(board, hist, ctx);
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    if !self.quiets_filtered {
                        if let Some(info) = self.skip_quiets {
                            self.keep_checking_quiets(board, &info);
                            self.quiets_filtered = true;
                        }
                    }
                    if self.quiet_idx >= self.len {
                        self.stage = Stage::BadCaptures;
                        continue;
                    }
                    if self.quiets_picked < QUIET_SELECTIONS {
                        self.select_quiet();
                    } else if self.quiets_picked == QUIET_SELECTIONS {
                        self.sort_quiets();
                    }
                    self.quiets_picked += 1;
                    let i = self.quiet_idx;
                    let mv = self.moves[i];
                    self.quiet_idx += 1;
                    self.last_piece = self.pieces[i];
                    let score = self.scores[i];
                    self.last_history = (score < COUNTER).then_some(score);
                    return Some(mv);
                }
                Stage::BadCaptures => {
                    if self.cap_idx >= self.n_captures {
                        return None;
                    }
                    let best = self.best_in(self.cap_idx, self.n_captures);
                    let mv = self.moves[best];
                    self.take_capture(best);
                    return Some(mv);
                }
            }
        }
    }

    /// Swaps the capture at `best` to the next capture slot and consumes it.
    #[inline]
    fn take_capture(&mut self, best: usize) {
        let i = self.cap_idx;
        self.moves.swap(i, best);
        self.pieces.swap(i, best);
        self.scores.swap(i, best);
        self.last_piece = self.pieces[i];
        self.last_history = None;
        self.cap_idx += 1;
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
