//! Material, piece-square tables, and the piece pass: attack maps, mobility, king-zone
//! attack counting, king tropism, minors' distance to their own king, bishops, rooks
//! (open, closed and queen files, the seventh, the enemy king's ring), queens on the enemy
//! half, outposts and minors behind pawns.

use cozy_chess::{get_bishop_moves, get_king_moves, get_knight_moves, get_rook_moves};
use cozy_chess::{BitBoard, Board, Color, Piece};

use super::params::{psq_value, EvalParams};
use super::pawns::PawnEntry;
use super::score::S;
use super::sink::{Sink, Term};
use super::tables::{
    file_bb, pawn_double_attacks, rank_bb, relative_rank, shift_forward, square, squares,
    DARK_SQUARES, DISTANCE, KING_ZONE,
};

/// The four centre squares.
const CENTER: u64 = 0x0000_0018_1800_0000;
/// The two long diagonals without the centre squares.
const LONG_DIAGONALS: u64 = (0x8040_2010_0804_0201 | 0x0102_0408_1020_4080) & !CENTER;

/// Attack information gathered by the piece pass, used by king safety and threats.
#[derive(Default)]
pub(crate) struct Maps {
    /// Each colour's king square (set before the pass).
    pub kings: [usize; 2],
    /// Squares attacked by each colour's pieces of each kind: `[color][piece]`.
    pub by: [[u64; 6]; 2],
    /// Squares attacked by each colour (all pieces, king included).
    pub all: [u64; 2],
    /// Squares attacked by each colour without counting its king.
    pub all_no_king: [u64; 2],
    /// Squares attacked at least twice by each colour (king included).
    pub twice: [u64; 2],
    /// Number of pieces of this colour attacking the enemy king zone.
    pub zone_attackers: [i32; 2],
    /// Sum of `king_attack_weight` over those pieces.
    pub zone_weight: [i32; 2],
    /// Number of (piece, zone square) attacks on the enemy king zone.
    pub zone_hits: [i32; 2],
}

/// Material and piece-square terms for both colours, reported separately (trace form).
pub(crate) fn material_and_pst<K: Sink>(board: &Board, p: &EvalParams, sink: &mut K) {
    for color in [Color::White, Color::Black] {
        let flip = if color == Color::White { 0 } else { 56 };
        let mut material = S::ZERO;
        let mut placement = S::ZERO;
        for piece in Piece::ALL {
            let bb = board.colored_pieces(color, piece).0;
            let table = &p.pst[piece as usize];
            material += sink.weigh(
                color,
                &p.piece_value[piece as usize],
                bb.count_ones() as i32,
            );
            for sq in squares(bb) {
                placement += sink.weigh(color, &table[sq ^ flip], 1);
            }
        }
        sink.add(Term::Material, color, material);
        sink.add(Term::PieceSquare, color, placement);
    }
}

/// The piece pass's running sums for one colour, and what each visit needs to know.
struct Visit<'a> {
    p: &'a EvalParams,
    t: &'a PieceTables,
    color: Color,
    us: usize,
    /// The enemy king zone.
    zone: u64,
    /// Squares that count for mobility.
    area: u64,
    /// Distance of every square to the enemy king.
    king_distance: &'a [u8; 64],
    material: S,
    mobility: S,
    tropism: S,
}

impl Visit<'_> {
    /// What every knight, bishop, rook and queen adds: its attacks (`a`) recorded in `m`
    /// and counted on the enemy king zone, its material and placement, mobility and
    /// tropism. (Material and placement are counted for the tuner by `material_and_pst`.)
    #[inline(always)]
    fn piece<K: Sink>(&mut self, m: &mut Maps, sink: &mut K, piece: Piece, sq: usize, a: u64) {
        let us = self.us;
        let i = piece as usize;
        m.by[us][i] |= a;
        m.twice[us] |= m.all[us] & a;
        m.all[us] |= a;
        let hits = a & self.zone;
        if hits != 0 {
            m.zone_attackers[us] += 1;
            m.zone_weight[us] += self.p.king_attack_weight[i];
            sink.count(!self.color, &self.p.king_attack_weight[i], 1);
            m.zone_hits[us] += hits.count_ones() as i32;
        }
        self.material += self.t.placement[us][i][sq & 63];
        let reach = (a & self.area).count_ones() as usize;
        self.mobility += self.t.mobility[i - 1][reach];
        sink.count(self.color, mobility_weight(self.p, piece, reach), 1);
        let distance = self.king_distance[sq & 63] as usize & 7;
        self.tropism += self.t.tropism[i - 1][distance];
        sink.count(self.color, &self.p.tropism[i], 7 - distance as i32);
    }
}

/// The mobility weight of a `piece` (knight to queen) reaching `reach` safe squares (the
/// last entry of its table for any more).
#[inline(always)]
fn mobility_weight(p: &EvalParams, piece: Piece, reach: usize) -> &S {
    let table: &[S] = match piece {
        Piece::Knight => &p.mobility_knight,
        Piece::Bishop => &p.mobility_bishop,
        Piece::Rook => &p.mobility_rook,
        _ => &p.mobility_queen,
    };
    &table[reach.min(table.len() - 1)]
}

/// Per-evaluator tables of the piece pass. For knights, bishops, rooks and queens:
/// mobility bonuses per attacked-square count, padded to every count a popcount can give
/// (repeating the last entry, as the weights' clamp would), so indexing needs neither a
/// clamp nor a bounds check; and king tropism per distance to the enemy king. For every
/// piece but the pawns (whose share the pawn hash entry holds): material plus placement per
/// colour and square (Black's squares mirrored), which the pass adds as it visits each
/// piece.
#[derive(Clone)]
pub(crate) struct PieceTables {
    mobility: [[S; 65]; 4],
    tropism: [[S; 8]; 4],
    placement: [[[S; 64]; 6]; 2],
}

impl PieceTables {
    /// The tables of the evaluator's fast path.
    pub fn new(p: &EvalParams) -> PieceTables {
        let mut t = PieceTables::without_placement(p);
        for (side, flip) in t.placement.iter_mut().zip([0usize, 56]) {
            for (piece, squares) in side.iter_mut().enumerate().skip(1) {
                for (sq, v) in squares.iter_mut().enumerate() {
                    *v = psq_value(p, piece, sq ^ flip);
                }
            }
        }
        t
    }

    /// The tables with material and placement left at zero, for a caller that reports
    /// them itself, term by term (the trace).
    pub fn without_placement(p: &EvalParams) -> PieceTables {
        fn pad<const N: usize>(weights: &[S; N]) -> [S; 65] {
            std::array::from_fn(|count| weights[count.min(N - 1)])
        }
        PieceTables {
            placement: [[[S::ZERO; 64]; 6]; 2],
            mobility: [
                pad(&p.mobility_knight),
                pad(&p.mobility_bishop),
                pad(&p.mobility_rook),
                pad(&p.mobility_queen),
            ],
            tropism: std::array::from_fn(|i| {
                let weight = p.tropism[Piece::Knight as usize + i];
                std::array::from_fn(|d| weight * (7 - d as i32))
            }),
        }
    }
}

/// The piece pass for both colours. Fills `m` and reports material and placement of the
/// pieces but the pawns (from `t`, zero in the trace), mobility, tropism, bishops, rooks and
/// outposts.
pub(crate) fn pieces<K: Sink>(
    board: &Board,
    p: &EvalParams,
    t: &PieceTables,
    pe: &PawnEntry,
    m: &mut Maps,
    sink: &mut K,
) {
    for color in [Color::White, Color::Black] {
        let us = color as usize;
        m.by[us][Piece::Pawn as usize] = pe.attacks[us];
        m.all[us] = pe.attacks[us];
        m.twice[us] = pawn_double_attacks(board.colored_pieces(color, Piece::Pawn).0, color);
    }
    pieces_of(Color::White, board, p, t, pe, m, sink);
    pieces_of(Color::Black, board, p, t, pe, m, sink);
    for color in [Color::White, Color::Black] {
        let us = color as usize;
        m.all_no_king[us] = m.all[us];
        let a = get_king_moves(square(m.kings[us])).0;
        m.by[us][Piece::King as usize] = a;
        m.twice[us] |= m.all[us] & a;
        m.all[us] |= a;
    }
}

/// The piece pass for `color`, inlined once per colour so that everything that depends on
/// the colour is a constant.
#[inline(always)]
fn pieces_of<K: Sink>(
    color: Color,
    board: &Board,
    p: &EvalParams,
    t: &PieceTables,
    pe: &PawnEntry,
    m: &mut Maps,
    sink: &mut K,
) {
    let occ = board.occupied();
    let pawns = [
        board.colored_pieces(Color::White, Piece::Pawn).0,
        board.colored_pieces(Color::Black, Piece::Pawn).0,
    ];
    let all_pawns = pawns[0] | pawns[1];
    let kings = m.kings;
    let us = color as usize;
    let them = us ^ 1;
    let area = !(pawns[us] | (1u64 << kings[us]) | pe.attacks[them]);
    let zone = KING_ZONE[them][kings[them]];
    let enemy_king = kings[them];
    let king_distance = &DISTANCE[enemy_king & 63];
    // Relative ranks 4-6 that no enemy pawn can ever attack.
    let outpost_ranks = match color {
        Color::White => rank_bb(3) | rank_bb(4) | rank_bb(5),
        Color::Black => rank_bb(2) | rank_bb(3) | rank_bb(4),
    };
    let outposts = outpost_ranks & !pe.span[them];
    let seventh = match color {
        Color::White => rank_bb(6),
        Color::Black => rank_bb(1),
    };
    let enemy_half = match color {
        Color::White => 0xFFFF_FFFF_0000_0000u64,
        Color::Black => 0x0000_0000_FFFF_FFFFu64,
    };
    let seventh_matters = relative_rank(color, enemy_king) == 7 || pawns[them] & seventh != 0;

    let mut v = Visit {
        p,
        t,
        color,
        us,
        zone,
        area,
        king_distance,
        material: t.placement[us][Piece::King as usize][kings[us] & 63],
        mobility: S::ZERO,
        tropism: S::ZERO,
    };
    let mut bishops = S::ZERO;
    let mut rooks = S::ZERO;
    let mut outpost = S::ZERO;

    let knights = board.colored_pieces(color, Piece::Knight).0;
    let bishop_bb = board.colored_pieces(color, Piece::Bishop).0;
    let rook_bb = board.colored_pieces(color, Piece::Rook).0;
    let own = board.colors(color).0;
    // Minors right behind a pawn (of either colour).
    let behind = (knights | bishop_bb) & shift_forward(all_pawns, !color);
    if behind != 0 {
        outpost += sink.weigh(color, &p.minor_behind_pawn, behind.count_ones() as i32);
    }
    // Knights and bishops far from their own king.
    let own_king_distance = &DISTANCE[kings[us] & 63];
    let mut protector_distance = 0;
    for sq in squares(knights | bishop_bb) {
        protector_distance += i32::from(own_king_distance[sq & 63]);
    }
    if protector_distance != 0 {
        outpost += sink.weigh(color, &p.king_protector, protector_distance);
    }
    for sq in squares(knights) {
        let a = get_knight_moves(square(sq)).0;
        v.piece(m, sink, Piece::Knight, sq, a);
        if outposts & (1u64 << sq) != 0 {
            let supported = pe.attacks[us] & (1u64 << sq) != 0;
            outpost += sink.weigh(color, &p.knight_outpost[usize::from(supported)], 1);
        } else if a & outposts & !own != 0 {
            outpost += sink.weigh(color, &p.knight_reachable_outpost, 1);
        }
    }

    for sq in squares(bishop_bb) {
        let a = get_bishop_moves(square(sq), occ).0;
        v.piece(m, sink, Piece::Bishop, sq, a);
        if outposts & (1u64 << sq) != 0 {
            let supported = pe.attacks[us] & (1u64 << sq) != 0;
            outpost += sink.weigh(color, &p.bishop_outpost[usize::from(supported)], 1);
        }
        let same_colour = if DARK_SQUARES & (1u64 << sq) != 0 {
            DARK_SQUARES
        } else {
            !DARK_SQUARES
        };
        let hemming = (pawns[us] & same_colour).count_ones() as i32;
        bishops += sink.weigh(color, &p.bishop_pawns, hemming);
        // The diagonals seen through everything but pawns.
        let through = get_bishop_moves(square(sq), BitBoard(all_pawns)).0;
        if a & zone == 0 && through & zone != 0 {
            bishops += sink.weigh(color, &p.bishop_on_king_ring, 1);
        }
        if LONG_DIAGONALS & (1u64 << sq) != 0 && (through & CENTER).count_ones() >= 2 {
            bishops += sink.weigh(color, &p.bishop_long_diagonal, 1);
        }
    }
    if bishop_bb & DARK_SQUARES != 0 && bishop_bb & !DARK_SQUARES != 0 {
        bishops += sink.weigh(color, &p.bishop_pair, 1);
    }

    let queens = board.pieces(Piece::Queen).0;
    // Our pawns blocked by an enemy pawn.
    let closed = pawns[us] & shift_forward(pawns[them], !color);
    for sq in squares(rook_bb) {
        let a = get_rook_moves(square(sq), occ).0;
        v.piece(m, sink, Piece::Rook, sq, a);
        let file = file_bb(sq & 7);
        if pawns[us] & file == 0 {
            let w = if all_pawns & file == 0 {
                &p.rook_open_file
            } else {
                &p.rook_half_open_file
            };
            rooks += sink.weigh(color, w, 1);
        }
        if seventh_matters && seventh & (1u64 << sq) != 0 {
            rooks += sink.weigh(color, &p.rook_seventh, 1);
        }
        if queens & file != 0 {
            rooks += sink.weigh(color, &p.rook_queen_file, 1);
        }
        if closed & file != 0 {
            rooks += sink.weigh(color, &p.rook_on_closed_file, 1);
        }
        if a & zone == 0 && file & zone != 0 {
            rooks += sink.weigh(color, &p.rook_on_king_ring, 1);
        }
    }

    let queen_bb = board.colored_pieces(color, Piece::Queen).0;
    for sq in squares(queen_bb) {
        let s = square(sq);
        let a = (get_bishop_moves(s, occ) | get_rook_moves(s, occ)).0;
        v.piece(m, sink, Piece::Queen, sq, a);
        if seventh_matters && seventh & (1u64 << sq) != 0 {
            rooks += sink.weigh(color, &p.queen_seventh, 1);
        }
        if enemy_half & !pe.span[them] & (1u64 << sq) != 0 {
            rooks += sink.weigh(color, &p.queen_infiltration, 1);
        }
    }

    sink.add(Term::Material, color, v.material);
    sink.add(Term::Mobility, color, v.mobility);
    sink.add(Term::Tropism, color, v.tropism.pct(p.tropism_scale));
    sink.add(Term::Bishops, color, bishops);
    sink.add(Term::Rooks, color, rooks);
    sink.add(Term::Outposts, color, outpost);
}
