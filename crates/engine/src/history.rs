//! Move-ordering memory of one search thread: killer moves, butterfly history (split by
//! whether the enemy attacks the move's origin and its destination), continuation
//! history (one and two plies back), counter moves and capture history. All counters are
//! saturating ("gravity" update), so they never overflow and adapt to new evidence.

use super::correction::Correction;
use super::types::MAX_PLY;
use cozy_chess::{BitBoard, Color, Move, Piece, Square};

/// Largest magnitude any history counter reaches.
pub const HISTORY_MAX: i32 = 16_384;

/// Saturating update towards `bonus` (positive or negative).
#[inline]
fn gravity(entry: &mut i16, bonus: i32) {
    let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let v = *entry as i32;
    let nv = v + b - v * b.abs() / HISTORY_MAX;
    *entry = nv.clamp(-HISTORY_MAX, HISTORY_MAX) as i16;
}

/// Index of a coloured piece on a square (0..768).
#[inline]
fn psq(color: Color, piece: Piece, sq: Square) -> usize {
    ((color as usize) * 6 + piece as usize) * 64 + sq as usize
}

const PSQ: usize = 768;

/// One continuation-history row: [coloured piece][destination] of the current move.
type PsqRow = [[i16; 64]; 12];

/// One side's butterfly tables: [origin attacked * 2 + destination attacked][from][to]
/// (attacked: by any enemy piece in the position the move is made from).
type Butterfly = [[[i16; 64]; 64]; 4];

/// Which of a side's four butterfly tables a move from `from` to `to` reads.
#[inline(always)]
fn threat_index(attacked: BitBoard, from: Square, to: Square) -> usize {
    usize::from(attacked.has(from)) * 2 + usize::from(attacked.has(to))
}

/// The continuation-history row of "no previous move": always zero, never updated, so a
/// missing earlier move adds nothing without a branch.
pub const NO_ROW: usize = PSQ;

/// A (colour, piece, destination) triple of a move played earlier on the path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    pub color: Color,
    pub piece: Piece,
    pub to: Square,
}

impl Played {
    #[inline]
    fn index(self) -> usize {
        psq(self.color, self.piece, self.to)
    }

    /// The continuation-history row of an optional earlier move ([`NO_ROW`] for none).
    #[inline]
    pub fn row(prev: Option<Played>) -> usize {
        prev.map_or(NO_ROW, Played::index)
    }
}

/// Ordering tables of one thread.
pub struct History {
    killers: [[Option<Move>; 2]; MAX_PLY + 2],
    /// [colour][origin attacked * 2 + destination attacked][from][to].
    butterfly: Vec<Butterfly>,
    /// Indexed by the previous move's coloured piece and destination.
    counter: Vec<Option<Move>>,
    /// [previous played psq][current psq] (used for 1 and 2 plies back); one more row,
    /// [`NO_ROW`], stays zero.
    cont: Vec<PsqRow>,
    /// [current psq][victim piece], flattened.
    capture: Vec<i16>,
    /// How far search results came out from the static evaluation (see `correction.rs`).
    pub corr: Correction,
}

impl Default for History {
    fn default() -> Self {
        History::new()
    }
}

impl History {
    pub fn new() -> History {
        History {
            killers: [[None; 2]; MAX_PLY + 2],
            butterfly: vec![[[[0; 64]; 64]; 4]; 2],
            counter: vec![None; PSQ],
            cont: vec![[[0; 64]; 12]; PSQ + 1],
            capture: vec![0; PSQ * 6],
            corr: Correction::new(),
        }
    }

    /// Forgets everything (new game).
    pub fn clear(&mut self) {
        self.killers = [[None; 2]; MAX_PLY + 2];
        self.butterfly.fill([[[0; 64]; 64]; 4]);
        self.counter.fill(None);
        self.cont.fill([[0; 64]; 12]);
        self.capture.fill(0);
        self.corr.clear();
    }

    /// Prepares for a new search of the same game (killers are position specific).
    pub fn new_search(&mut self) {
        self.killers = [[None; 2]; MAX_PLY + 2];
    }

    #[inline]
    pub fn killers(&self, ply: usize) -> [Option<Move>; 2] {
        self.killers[ply]
    }

    #[inline]
    pub fn clear_killers(&mut self, ply: usize) {
        self.killers[ply] = [None; 2];
    }

    #[inline]
    pub fn add_killer(&mut self, ply: usize, mv: Move) {
        let k = &mut self.killers[ply];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
    }

    #[inline]
    pub fn counter(&self, prev: Option<Played>) -> Option<Move> {
        self.counter[prev?.index()]
    }

    #[inline]
    pub fn set_counter(&mut self, prev: Option<Played>, mv: Move) {
        if let Some(p) = prev {
            self.counter[p.index()] = Some(mv);
        }
    }

    /// Ordering score of a quiet move: butterfly + continuation histories (`attacked`: the
    /// squares the enemy attacks).
    #[inline]
    pub fn quiet_score(
        &self,
        color: Color,
        mv: Move,
        piece: Piece,
        prev1: Option<Played>,
        prev2: Option<Played>,
        attacked: BitBoard,
    ) -> i32 {
        self.quiet_scorer(color, Played::row(prev1), Played::row(prev2), attacked)
            .score(mv, piece)
    }

    /// The tables [`History::quiet_score`] reads for one node (side to move `color`,
    /// earlier moves' rows from [`Played::row`]), looked up once for all its quiet moves.
    #[inline]
    pub fn quiet_scorer(
        &self,
        color: Color,
        row1: usize,
        row2: usize,
        attacked: BitBoard,
    ) -> QuietScorer<'_> {
        QuietScorer {
            butterfly: &self.butterfly[color as usize],
            attacked,
            cont1: &self.cont[row1],
            cont2: &self.cont[row2],
            base: (color as usize) * 6,
        }
    }

    /// Rewards (positive bonus) or punishes (negative) a quiet move (`attacked`: the squares
    /// the enemy attacks in the position the move is made from).
    #[inline]
    #[allow(clippy::too_many_arguments)] // the node's whole context, as the search holds it
    pub fn update_quiet(
        &mut self,
        color: Color,
        mv: Move,
        piece: Piece,
        prev1: Option<Played>,
        prev2: Option<Played>,
        attacked: BitBoard,
        bonus: i32,
    ) {
        let pc = (color as usize) * 6 + piece as usize;
        let to = mv.to as usize;
        let t = threat_index(attacked, mv.from, mv.to);
        gravity(
            &mut self.butterfly[color as usize][t][mv.from as usize][to],
            bonus,
        );
        if let Some(p) = prev1 {
            gravity(&mut self.cont[p.index()][pc][to], bonus);
        }
        if let Some(p) = prev2 {
            gravity(&mut self.cont[p.index()][pc][to], bonus);
        }
    }

    #[inline]
    pub fn capture_score(&self, color: Color, piece: Piece, to: Square, victim: Piece) -> i32 {
        self.capture[psq(color, piece, to) * 6 + victim as usize] as i32
    }

    #[inline]
    pub fn update_capture(
        &mut self,
        color: Color,
        piece: Piece,
        to: Square,
        victim: Piece,
        bonus: i32,
    ) {
        gravity(
            &mut self.capture[psq(color, piece, to) * 6 + victim as usize],
            bonus,
        );
    }
}

/// Quiet-move scoring for one node: the butterfly row of the side to move and the two
/// continuation rows, borrowed once.
pub struct QuietScorer<'a> {
    butterfly: &'a Butterfly,
    attacked: BitBoard,
    cont1: &'a PsqRow,
    cont2: &'a PsqRow,
    /// Index of the side to move's pawn among the 12 coloured pieces.
    base: usize,
}

impl<'a> QuietScorer<'a> {
    /// Butterfly + continuation histories of `mv` made by `piece`.
    #[inline(always)]
    pub fn score(&self, mv: Move, piece: Piece) -> i32 {
        self.from(mv.from, piece).score(mv.to)
    }

    /// The rows for every move of `piece` standing on `from`.
    #[inline(always)]
    pub fn from(&self, from: Square, piece: Piece) -> PieceScorer<'a> {
        let pc = self.base + piece as usize;
        let f = usize::from(self.attacked.has(from)) * 2;
        PieceScorer {
            butterfly: [
                &self.butterfly[f][from as usize],
                &self.butterfly[f + 1][from as usize],
            ],
            attacked: self.attacked,
            cont1: &self.cont1[pc],
            cont2: &self.cont2[pc],
        }
    }
}

/// [`QuietScorer`] narrowed to one piece on one square: a score per destination.
pub struct PieceScorer<'a> {
    /// The butterfly rows for a safe destination and for an attacked one.
    butterfly: [&'a [i16; 64]; 2],
    attacked: BitBoard,
    cont1: &'a [i16; 64],
    cont2: &'a [i16; 64],
}

impl PieceScorer<'_> {
    /// Butterfly + continuation histories of the move to `to`.
    #[inline(always)]
    pub fn score(&self, to: Square) -> i32 {
        let b = self.butterfly[usize::from(self.attacked.has(to))];
        let to = to as usize;
        b[to] as i32 + self.cont1[to] as i32 + self.cont2[to] as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn butterfly_history_is_kept_apart_by_whether_the_squares_are_attacked() {
        let mut h = History::new();
        let mv: Move = "g1f3".parse().expect("move");
        let to_attacked = Square::F3.bitboard();
        let from_attacked = Square::G1.bitboard();
        h.update_quiet(
            Color::White,
            mv,
            Piece::Knight,
            None,
            None,
            to_attacked,
            2_000,
        );
        let score =
            |h: &History, att| h.quiet_score(Color::White, mv, Piece::Knight, None, None, att);
        assert!(score(&h, to_attacked) > 0);
        assert_eq!(score(&h, BitBoard::EMPTY), 0);
        assert_eq!(score(&h, from_attacked), 0);
        assert_eq!(score(&h, from_attacked | to_attacked), 0);
        // The node's scorer reads the same table as the single-move lookup.
        let scorer = h.quiet_scorer(Color::White, NO_ROW, NO_ROW, to_attacked);
        assert_eq!(scorer.score(mv, Piece::Knight), score(&h, to_attacked));
    }

    #[test]
    fn history_saturates_and_ranks_rewarded_moves_first() {
        let mut h = History::new();
        let a: Move = "e2e4".parse().expect("move");
        let b: Move = "d2d4".parse().expect("move");
        for _ in 0..1000 {
            for (mv, bonus) in [(a, 2_000), (b, -2_000)] {
                h.update_quiet(
                    Color::White,
                    mv,
                    Piece::Pawn,
                    None,
                    None,
                    BitBoard::EMPTY,
                    bonus,
                );
            }
        }
        let sa = h.quiet_score(Color::White, a, Piece::Pawn, None, None, BitBoard::EMPTY);
        let sb = h.quiet_score(Color::White, b, Piece::Pawn, None, None, BitBoard::EMPTY);
        assert!(sa <= HISTORY_MAX && sa > HISTORY_MAX / 2);
        assert!((-HISTORY_MAX..-HISTORY_MAX / 2).contains(&sb));
        h.add_killer(3, a);
        h.add_killer(3, b);
        h.add_killer(3, b);
        assert_eq!(h.killers(3), [Some(b), Some(a)]);
    }
}
