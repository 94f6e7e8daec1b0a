//! Endgame knowledge: dead draws by insufficient material, and scale factors (out of 128)
//! that pull drawish endings towards zero: pawnless small edges, two knights, rook pawns
//! with no bishop or the wrong one, opposite-coloured bishops, one-pawn endings, and exact
//! KPK from the bitbase.

use cozy_chess::{Board, Color, Piece};

use super::kpk::kpk;
use super::params::EvalParams;
use super::sink::{Sink, Term};
use super::tables::{distance, DARK_SQUARES, FILE_A, FILE_H};

/// Full weight for a scale factor.
pub const SCALE_NORMAL: i32 = 128;

/// Piece counts per colour.
struct Counts {
    pawns: [u32; 2],
    knights: [u32; 2],
    bishops: [u32; 2],
    rooks: [u32; 2],
    queens: [u32; 2],
    /// Non-pawn material in a fixed 300/300/500/900 scale (independent of tuning).
    npm: [i32; 2],
}

fn counts(board: &Board) -> Counts {
    let n = |c: Color, p: Piece| board.colored_pieces(c, p).len();
    let mut out = Counts {
        pawns: [0; 2],
        knights: [0; 2],
        bishops: [0; 2],
        rooks: [0; 2],
        queens: [0; 2],
        npm: [0; 2],
    };
    for c in [Color::White, Color::Black] {
        let i = c as usize;
        out.pawns[i] = n(c, Piece::Pawn);
        out.knights[i] = n(c, Piece::Knight);
        out.bishops[i] = n(c, Piece::Bishop);
        out.rooks[i] = n(c, Piece::Rook);
        out.queens[i] = n(c, Piece::Queen);
        out.npm[i] = 300 * (out.knights[i] + out.bishops[i]) as i32
            + 500 * out.rooks[i] as i32
            + 900 * out.queens[i] as i32;
    }
    out
}

/// True when neither side can possibly mate: no pawns, rooks or queens, and either each side
/// has at most one minor piece or all the minor pieces are bishops on one colour of square.
/// (KN vs KB and similar have only helpmates and are treated as dead too.)
pub fn is_insufficient_material(board: &Board) -> bool {
    if !(board.pieces(Piece::Pawn) | board.pieces(Piece::Rook) | board.pieces(Piece::Queen))
        .is_empty()
    {
        return false;
    }
    let minors = board.pieces(Piece::Knight) | board.pieces(Piece::Bishop);
    let w = (minors & board.colors(Color::White)).len();
    let b = (minors & board.colors(Color::Black)).len();
    if w <= 1 && b <= 1 {
        return true;
    }
    let bishops = board.pieces(Piece::Bishop).0;
    board.pieces(Piece::Knight).is_empty()
        && (bishops & DARK_SQUARES == 0 || bishops & !DARK_SQUARES == 0)
}

/// The endgame scale rule that applies to a position (see [`scale_rule`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScaleRule {
    /// None: full weight.
    Normal,
    /// A dead draw: a lone minor piece or nothing against anything, two knights against a
    /// bare king, rook pawns with no bishop or the wrong one against a king in the corner,
    /// KPK drawn by the bitbase.
    Draw,
    /// KPK won (by the bitbase) for the pawn's side, which gets `kpk_win`.
    KpkWin(Color),
    /// Two knights against pawns: `scale_knn_vs_pawns` on both halves.
    KnnVsPawns,
    /// No pawns for the stronger side and a small edge: `scale_pawnless` on both halves.
    Pawnless,
    /// Opposite-coloured bishops alone: `scale_ocb` on the endgame half.
    Ocb,
    /// Opposite-coloured bishops with other pieces: `scale_ocb_pieces` on the endgame half.
    OcbPieces,
    /// One pawn and equal pieces: `scale_one_pawn` on the endgame half.
    OnePawn,
}

impl ScaleRule {
    /// The scale factors `(mg, eg)` out of 128.
    #[inline(always)]
    pub fn factors(self, p: &EvalParams) -> (i32, i32) {
        match self {
            ScaleRule::Normal | ScaleRule::KpkWin(_) => (SCALE_NORMAL, SCALE_NORMAL),
            ScaleRule::Draw => (0, 0),
            ScaleRule::KnnVsPawns => (p.scale_knn_vs_pawns, p.scale_knn_vs_pawns),
            ScaleRule::Pawnless => (p.scale_pawnless, p.scale_pawnless),
            ScaleRule::Ocb => (SCALE_NORMAL, p.scale_ocb),
            ScaleRule::OcbPieces => (SCALE_NORMAL, p.scale_ocb_pieces),
            ScaleRule::OnePawn => (SCALE_NORMAL, p.scale_one_pawn),
        }
    }
}

/// Scale factors `(mg, eg)` out of 128 for the position, given the endgame score so far
/// (`eg`, White's view) that decides which side is "stronger". Adds the KPK win bonus to
/// the `Endgame` term.
#[inline(always)]
pub(crate) fn scale<K: Sink>(board: &Board, p: &EvalParams, eg: i32, sink: &mut K) -> (i32, i32) {
    let strong = match eg.signum() {
        1 => Some(Color::White),
        -1 => Some(Color::Black),
        _ => None,
    };
    let rule = scale_rule(board, p, strong);
    if let ScaleRule::KpkWin(side) = rule {
        let bonus = sink.weigh(side, &p.kpk_win, 1);
        sink.add(Term::Endgame, side, bonus);
    }
    rule.factors(p)
}

/// The scale rule for `board` when `strong` is ahead in the endgame score (`None`: level).
/// Of `p` only `pawnless_margin` is read (the tuner asks for both possible strong sides).
#[inline(always)]
pub fn scale_rule(board: &Board, p: &EvalParams, strong: Option<Color>) -> ScaleRule {
    // Fast exit for the common case: the stronger side has two or more pawns, not all on
    // one rook file, and the bishops are not one against one on opposite colours. No rule
    // below applies then.
    if let Some(strong) = strong {
        let sp = board.colored_pieces(strong, Piece::Pawn).0;
        let one = |x: u64| x != 0 && x & x.wrapping_sub(1) == 0;
        let wb = board.colored_pieces(Color::White, Piece::Bishop).0;
        let bb = board.colored_pieces(Color::Black, Piece::Bishop).0;
        let ocb = one(wb) && one(bb) && (wb & DARK_SQUARES == 0) != (bb & DARK_SQUARES == 0);
        if sp & sp.wrapping_sub(1) != 0 && sp & !FILE_A != 0 && sp & !FILE_H != 0 && !ocb {
            return ScaleRule::Normal;
        }
    }
    special_rule(board, p, strong)
}

/// `scale_rule` past its fast exit.
fn special_rule(board: &Board, p: &EvalParams, strong: Option<Color>) -> ScaleRule {
    let c = counts(board);
    let npm_total = c.npm[0] + c.npm[1];

    // KPK: exact from the bitbase, built on the first probe (only these endings need it).
    if npm_total == 0 && c.pawns[0] + c.pawns[1] == 1 {
        let strong = if c.pawns[0] == 1 {
            Color::White
        } else {
            Color::Black
        };
        let pawn = board.colored_pieces(strong, Piece::Pawn).0.trailing_zeros() as usize;
        let win = kpk().probe(
            strong,
            board.king(strong) as usize,
            pawn,
            board.king(!strong) as usize,
            board.side_to_move() == strong,
        );
        return if win {
            ScaleRule::KpkWin(strong)
        } else {
            ScaleRule::Draw
        };
    }
    let Some(strong) = strong else {
        return ScaleRule::Normal;
    };
    let s = strong as usize;
    let w = s ^ 1;

    if c.pawns[s] == 0 {
        // A lone minor piece (or nothing) cannot win.
        if c.rooks[s] == 0 && c.queens[s] == 0 && c.knights[s] + c.bishops[s] <= 1 {
            return ScaleRule::Draw;
        }
        // Two knights cannot force mate against a bare king.
        if c.knights[s] == 2 && c.bishops[s] == 0 && c.rooks[s] == 0 && c.queens[s] == 0 {
            if c.npm[w] == 0 && c.pawns[w] == 0 {
                return ScaleRule::Draw;
            }
            if c.npm[w] == 0 {
                return ScaleRule::KnnVsPawns;
            }
        }
        if c.npm[s] - c.npm[w] < p.pawnless_margin {
            return ScaleRule::Pawnless;
        }
    }

    // Rook pawns only, with no bishop or a bishop of the wrong colour, and the defending
    // king in the promotion corner.
    let strong_pawns = board.colored_pieces(strong, Piece::Pawn).0;
    if strong_pawns != 0
        && c.knights[s] == 0
        && c.rooks[s] == 0
        && c.queens[s] == 0
        && c.bishops[s] <= 1
        && (strong_pawns & !FILE_A == 0 || strong_pawns & !FILE_H == 0)
    {
        let file = if strong_pawns & !FILE_A == 0 { 0 } else { 7 };
        let promo = if strong == Color::White {
            56 + file
        } else {
            file
        };
        let bishop = board.colored_pieces(strong, Piece::Bishop).0;
        let promo_dark = DARK_SQUARES & (1u64 << promo) != 0;
        let right_bishop = bishop != 0 && ((bishop & DARK_SQUARES != 0) == promo_dark);
        if !right_bishop && distance(board.king(!strong) as usize, promo) <= 1 {
            return ScaleRule::Draw;
        }
    }

    // Opposite-coloured bishops.
    if c.bishops == [1, 1] {
        let bishops = board.pieces(Piece::Bishop).0;
        if bishops & DARK_SQUARES != 0 && bishops & !DARK_SQUARES != 0 {
            let others =
                c.knights[0] + c.knights[1] + c.rooks[0] + c.rooks[1] + c.queens[0] + c.queens[1];
            return if others == 0 {
                ScaleRule::Ocb
            } else {
                ScaleRule::OcbPieces
            };
        }
    }

    if c.pawns[s] == 1 && c.npm[s] == c.npm[w] && c.npm[s] > 0 {
        return ScaleRule::OnePawn;
    }
    ScaleRule::Normal
}

/// Game phase from 0 (bare kings and pawns) to 24 (all pieces on): knights and bishops
/// count 1, rooks 2, queens 4; extra promoted material is capped at 24.
pub fn phase(board: &Board) -> i32 {
    let minors = (board.pieces(Piece::Knight) | board.pieces(Piece::Bishop)).len() as i32;
    let rooks = board.pieces(Piece::Rook).len() as i32;
    let queens = board.pieces(Piece::Queen).len() as i32;
    (minors + 2 * rooks + 4 * queens).min(24)
}
