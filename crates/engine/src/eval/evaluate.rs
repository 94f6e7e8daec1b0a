//! The evaluation pipeline shared by the fast path, the trace and the tuner's coefficient
//! record: pieces, king safety, threats, passed pawns (the parts that depend on pieces),
//! the king's distance to its pawns, blocked pawns, tempo, endgame scaling, and the final
//! blend of middlegame and endgame by phase; and the uncached whole evaluation that the
//! trace and the tuner run.

use cozy_chess::get_rook_rays;
use cozy_chess::{get_bishop_moves, get_bishop_rays, get_knight_moves, get_rook_moves};
use cozy_chess::{Board, Color, Piece};

use super::endgame::{is_insufficient_material, phase, scale, SCALE_NORMAL};
use super::king::king_safety;
use super::params::EvalParams;
use super::pawns::{evaluate_pawns, PawnEntry};
use super::pieces::{material_and_pst, pieces, Maps, PieceTables};
use super::score::S;
use super::shelter::best_shelter_counted;
use super::sink::{Sink, Term};
use super::tables::{
    distance, lone_blockers, pawn_attacks, rank_bb, relative_rank, shift_forward, square, squares,
    FORWARD_FILE,
};

/// How the summed (mg, eg) score turns into one number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Blend {
    /// 0 (pawn ending) ..= 24 (all pieces).
    pub phase: i32,
    /// Middlegame scale factor out of 128.
    pub scale_mg: i32,
    /// Endgame scale factor out of 128.
    pub scale_eg: i32,
}

impl Blend {
    /// The tapered value of `total` (White's view), truncated towards zero so that a
    /// colour-mirrored position gives exactly the negated value. The usual full scale
    /// (128) skips its multiplication and division (the same result).
    #[inline(always)]
    pub fn apply(self, total: S) -> i32 {
        let scaled = |v: i32, scale: i32| {
            if scale == SCALE_NORMAL {
                v
            } else {
                v * scale / SCALE_NORMAL
            }
        };
        let mg = scaled(total.mg, self.scale_mg);
        let eg = scaled(total.eg, self.scale_eg);
        (mg * self.phase + eg * (24 - self.phase)) / 24
    }
}

/// Both kings' squares, `[color]` (`& 63`: a legal board has one king per colour, and
/// tables indexed by the square need no bounds check).
#[inline(always)]
pub(crate) fn king_squares(board: &Board) -> [usize; 2] {
    [Color::White, Color::Black]
        .map(|c| board.colored_pieces(c, Piece::King).0.trailing_zeros() as usize & 63)
}

/// Threats against `them` by `us`: pieces attacked by pawns, by minors, by rooks, and
/// hanging pieces and pawns.
fn threats<K: Sink>(board: &Board, p: &EvalParams, pe: &PawnEntry, m: &Maps, sink: &mut K) {
    threats_by(Color::White, board, p, pe, m, sink);
    threats_by(Color::Black, board, p, pe, m, sink);
}

/// `threats` by `color`, inlined once per colour so that the colour is a constant.
#[inline(always)]
fn threats_by<K: Sink>(
    color: Color,
    board: &Board,
    p: &EvalParams,
    pe: &PawnEntry,
    m: &Maps,
    sink: &mut K,
) {
    let us = color as usize;
    let them = us ^ 1;
    let enemy = !color;
    let defended = m.all[them];
    let mut t = S::ZERO;
    let minor_attacks = m.by[us][Piece::Knight as usize] | m.by[us][Piece::Bishop as usize];
    let rook_attacks = m.by[us][Piece::Rook as usize];
    let majors =
        (board.colored_pieces(enemy, Piece::Rook) | board.colored_pieces(enemy, Piece::Queen)).0;
    let queens = board.colored_pieces(enemy, Piece::Queen).0;
    // Most positions have no threat against a piece at all: one test over every
    // possible victim skips the per-kind loop (which would add nothing).
    let pieces =
        board.colors(enemy).0 & !board.pieces(Piece::Pawn).0 & !board.pieces(Piece::King).0;
    let threatened = pieces
        & (pe.attacks[us]
            | minor_attacks & (majors | !pe.attacks[them])
            | rook_attacks & (queens | !defended)
            | m.all[us] & !defended);
    if threatened != 0 {
        for piece in [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen] {
            let i = piece as usize;
            let victims = board.colored_pieces(enemy, piece).0;
            if victims & threatened == 0 {
                continue;
            }
            let by_pawn = victims & pe.attacks[us];
            let by_minor = victims & minor_attacks & (majors | !pe.attacks[them]);
            let by_rook = victims & rook_attacks & (queens | !defended);
            let hanging = victims & m.all[us] & !defended;
            t += sink.weigh(color, &p.threat_by_pawn[i], by_pawn.count_ones() as i32);
            t += sink.weigh(color, &p.threat_by_minor[i], by_minor.count_ones() as i32);
            t += sink.weigh(color, &p.threat_by_rook[i], by_rook.count_ones() as i32);
            t += sink.weigh(color, &p.hanging, hanging.count_ones() as i32);
        }
    }
    let hanging_pawns = board.colored_pieces(enemy, Piece::Pawn).0 & m.all[us] & !defended;
    if hanging_pawns != 0 {
        t += sink.weigh(color, &p.hanging_pawn, hanging_pawns.count_ones() as i32);
    }
    // Enemy pieces and pawns the king attacks that nothing defends.
    let by_king = m.by[us][Piece::King as usize] & (board.colors(enemy).0 & !defended);
    if by_king != 0 {
        t += sink.weigh(color, &p.threat_by_king, by_king.count_ones() as i32);
    }
    // Safe pawn pushes (one or two steps) that would attack a piece.
    let empty = !board.occupied().0;
    let third = match color {
        Color::White => rank_bb(2),
        Color::Black => rank_bb(5),
    };
    let mut pushes = shift_forward(board.colored_pieces(color, Piece::Pawn).0, color) & empty;
    pushes |= shift_forward(pushes & third, color) & empty;
    pushes &= !pe.attacks[them] & (m.all[us] | !defended);
    let push_threats = pawn_attacks(pushes, color) & pieces & !pe.attacks[us];
    if push_threats != 0 {
        t += sink.weigh(color, &p.threat_pawn_push, push_threats.count_ones() as i32);
    }
    // Squares both attack where the enemy is not strongly protected.
    let strong = pe.attacks[them] | (m.twice[them] & !m.twice[us]);
    let restricted = defended & m.all[us] & !strong;
    if restricted != 0 {
        t += sink.weigh(color, &p.restricted, restricted.count_ones() as i32);
    }
    // Safe squares from which a knight or a slider could attack the lone enemy queen.
    let enemy_queens = board.colored_pieces(enemy, Piece::Queen);
    if enemy_queens.len() == 1 {
        let q = enemy_queens.next_square().unwrap_or(cozy_chess::Square::A1);
        let safe = !board.colors(color).0 & !strong;
        let n = (m.by[us][Piece::Knight as usize] & get_knight_moves(q).0 & safe).count_ones();
        if n != 0 {
            t += sink.weigh(color, &p.knight_on_queen, n as i32);
        }
        let occ = board.occupied();
        let sliders = m.by[us][Piece::Bishop as usize] & get_bishop_moves(q, occ).0
            | m.by[us][Piece::Rook as usize] & get_rook_moves(q, occ).0;
        let n = (sliders & safe & m.twice[us]).count_ones();
        if n != 0 {
            t += sink.weigh(color, &p.slider_on_queen, n as i32);
        }
    }
    // Enemy pieces and pawns we attack that only their queen defends.
    let b = &m.by[them];
    let others = b[Piece::Pawn as usize]
        | b[Piece::Knight as usize]
        | b[Piece::Bishop as usize]
        | b[Piece::Rook as usize]
        | b[Piece::King as usize];
    let only_queen = b[Piece::Queen as usize] & !others;
    let by_queen_alone = board.colors(enemy).0 & m.all[us] & only_queen;
    if by_queen_alone != 0 {
        t += sink.weigh(
            color,
            &p.weak_queen_protection,
            by_queen_alone.count_ones() as i32,
        );
    }
    // Our queen with one piece alone between it and an enemy bishop or rook.
    for q in board.colored_pieces(color, Piece::Queen) {
        let snipers = get_bishop_rays(q) & board.colored_pieces(enemy, Piece::Bishop)
            | get_rook_rays(q) & board.colored_pieces(enemy, Piece::Rook);
        if lone_blockers(q, snipers, board.occupied()) > 0 {
            t += sink.weigh(color, &p.weak_queen, 1);
        }
    }
    sink.add(Term::Threats, color, t);
}

/// The piece-dependent passed-pawn terms, the king's distance to its nearest pawn and the
/// blocked-pawn penalty.
fn passers_and_blocked<K: Sink>(
    board: &Board,
    p: &EvalParams,
    pe: &PawnEntry,
    m: &Maps,
    sink: &mut K,
) {
    passers_and_blocked_of(Color::White, board, p, pe, m, sink);
    passers_and_blocked_of(Color::Black, board, p, pe, m, sink);
}

/// `passers_and_blocked` for `color`, inlined once per colour so that the colour is a constant.
#[inline(always)]
fn passers_and_blocked_of<K: Sink>(
    color: Color,
    board: &Board,
    p: &EvalParams,
    pe: &PawnEntry,
    m: &Maps,
    sink: &mut K,
) {
    let occ = board.occupied().0;
    let stm = board.side_to_move();
    let us = color as usize;
    let them = us ^ 1;
    let enemy = !color;
    let own_king = m.kings[us];
    let enemy_king = m.kings[them];
    let enemy_pieces = board.colors(enemy).0;
    let enemy_has_pieces =
        (enemy_pieces & !board.pieces(Piece::Pawn).0 & !board.pieces(Piece::King).0) != 0;
    let mut passed = S::ZERO;
    let mut unstoppable = false;
    let rooks = [Color::White, Color::Black].map(|c| board.colored_pieces(c, Piece::Rook).0);
    for sq in squares(pe.passed[us]) {
        let r = relative_rank(color, sq);
        // A passer is never on its last rank, so the stop square exists.
        let stop = match color {
            Color::White => (sq + 8) & 63,
            Color::Black => sq.wrapping_sub(8) & 63,
        };
        let (enemy_distance, own_distance) = (distance(enemy_king, stop), distance(own_king, stop));
        passed.eg += p.passed_enemy_king_distance[r] * enemy_distance
            - p.passed_own_king_distance[r] * own_distance;
        sink.count(color, &p.passed_enemy_king_distance[r], enemy_distance);
        sink.count(color, &p.passed_own_king_distance[r], -own_distance);
        if enemy_pieces & (1u64 << stop) != 0 {
            passed += sink.weigh(color, &p.passed_blockaded[r], 1);
        }
        // A rook behind the passer on its file, nothing in between.
        let behind = get_rook_moves(square(sq), board.occupied()).0 & FORWARD_FILE[them][sq];
        if behind & rooks[us] != 0 {
            passed += sink.weigh(color, &p.passed_rook_behind, 1);
        }
        if behind & rooks[them] != 0 {
            passed += sink.weigh(color, &p.passed_enemy_rook_behind, 1);
        }
        let path = FORWARD_FILE[us][sq];
        if path & occ == 0 {
            passed += sink.weigh(color, &p.passed_free_path[r], 1);
            if path & m.all[them] == 0 {
                passed += sink.weigh(color, &p.passed_safe_path[r], 1);
            }
            if !enemy_has_pieces {
                // Rule of the square, counting the double step from the 2nd rank.
                let promo = if color == Color::White {
                    56 + (sq & 7)
                } else {
                    sq & 7
                };
                let pawn_steps = 7 - r as i32 - i32::from(r == 1);
                let king_steps = distance(enemy_king, promo) - i32::from(stm == enemy);
                if king_steps > pawn_steps {
                    unstoppable = true;
                }
            }
        }
    }
    if unstoppable {
        passed += sink.weigh(color, &p.passed_unstoppable, 1);
    }
    sink.add(Term::PassedPawns, color, passed.pct(p.passed_pawn_scale));

    // The king's distance to its nearest own pawn.
    let all_own_pawns = board.colored_pieces(color, Piece::Pawn).0;
    if all_own_pawns != 0 {
        let nearest = squares(all_own_pawns)
            .map(|sq| distance(own_king, sq))
            .min()
            .unwrap_or(0);
        let k = sink.weigh(color, &p.king_pawn_distance, nearest);
        sink.add(Term::Endgame, color, k);
    }

    // Non-passed pawns whose stop square is occupied.
    let own_pawns = board.colored_pieces(color, Piece::Pawn).0 & !pe.passed[us];
    let blocked = match color {
        Color::White => own_pawns & (occ >> 8),
        Color::Black => own_pawns & (occ << 8),
    };
    let mut b = S::ZERO;
    for sq in squares(blocked) {
        b += sink.weigh(color, &p.pawn_blocked[relative_rank(color, sq)], 1);
    }
    sink.add(Term::BlockedPawns, color, b.pct(p.blocked_pawn_scale));
}

/// Everything after material, placement and the static pawn terms (which the caller
/// reports, cached or not).
/// Returns how to blend the sink's total.
pub(crate) fn evaluate_rest<K: Sink>(
    board: &Board,
    p: &EvalParams,
    t: &PieceTables,
    own: Option<Color>,
    pe: &PawnEntry,
    shelter: [S; 2],
    sink: &mut K,
) -> Blend {
    let mut m = Maps {
        kings: king_squares(board),
        ..Maps::default()
    };
    pieces(board, p, t, pe, &mut m, sink);
    king_safety(board, p, own, &m, shelter, sink);
    threats(board, p, pe, &m, sink);
    passers_and_blocked(board, p, pe, &m, sink);
    let stm = board.side_to_move();
    let tempo = sink.weigh(stm, &p.tempo, 1);
    sink.add(Term::Tempo, stm, tempo);
    let (scale_mg, scale_eg) = scale(board, p, sink.total().eg, sink);
    Blend {
        phase: phase(board),
        scale_mg,
        scale_eg,
    }
}

/// The whole evaluation with nothing cached, every term reported to `sink` and every weight
/// counted (the trace's and the tuner's path; the search's is `Evaluator::evaluate`).
/// Returns the blend of the sink's total and whether the material is insufficient (the
/// score is then 0 whatever the terms say).
pub(crate) fn evaluate_terms<K: Sink>(
    board: &Board,
    p: &EvalParams,
    own: Option<Color>,
    sink: &mut K,
) -> (Blend, bool) {
    let pawns = |c: Color| board.colored_pieces(c, Piece::Pawn).0;
    let entry = evaluate_pawns(pawns(Color::White), pawns(Color::Black), p, sink);
    let shelter = [Color::White, Color::Black]
        .map(|c| best_shelter_counted(p, board, c, board.king(c) as usize, sink));
    material_and_pst(board, p, sink);
    let tables = PieceTables::without_placement(p);
    let blend = evaluate_rest(board, p, &tables, own, &entry, shelter, sink);
    (blend, is_insufficient_material(board))
}
