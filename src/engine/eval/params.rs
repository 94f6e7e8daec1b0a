//! `EvalParams`: every weight of wily's evaluation in one table, plus the Crafty-style scale
//! knobs (percentages, 100 = unchanged).
//!
//! Conventions: an [`S`] is a (middlegame, endgame) pair in centipawns, always written as
//! a bonus for the side that owns the feature (penalties are negative). Arrays indexed by
//! rank use the owner's relative rank (0 = its first rank, 7 = its last). Endgame scale
//! factors are out of 128 (128 = unchanged, 0 = dead draw).

use super::pst::default_pst;
use super::score::{s, S};

/// Every tunable weight of the evaluation.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalParams {
    // ---- material and placement -------------------------------------------------------
    /// Material value by `Piece as usize` (pawn, knight, bishop, rook, queen, king = 0).
    pub piece_value: [S; 6],
    /// Piece-square tables `[piece][square]`, White's view (a1 = 0); Black mirrors ranks.
    pub pst: [[S; 64]; 6],

    // ---- mobility: indexed by the number of safe squares reached -----------------------
    /// Knight mobility; safe = not occupied by own pawns/king, not attacked by enemy pawns.
    pub mobility_knight: [S; 9],
    /// Bishop mobility.
    pub mobility_bishop: [S; 14],
    /// Rook mobility.
    pub mobility_rook: [S; 15],
    /// Queen mobility.
    pub mobility_queen: [S; 28],

    // ---- pawn structure (cached in the pawn hash table) --------------------------------
    /// Pawn with a friendly pawn in front of it on the same file.
    pub pawn_doubled: S,
    /// Pawn with no friendly pawn on either neighbouring file.
    pub pawn_isolated: S,
    /// Extra for an isolated pawn with no enemy pawn in front (exposed on a half-open file).
    pub pawn_isolated_open: S,
    /// Pawn whose neighbours are all in front of it and whose stop square an enemy pawn
    /// controls.
    pub pawn_backward: S,
    /// Extra for a backward pawn on a half-open file.
    pub pawn_backward_open: S,
    /// Pawn defended by a friendly pawn, by relative rank.
    pub pawn_supported: [S; 8],
    /// Pawn with a friendly pawn beside it (phalanx), by relative rank.
    pub pawn_phalanx: [S; 8],
    /// Candidate passed pawn (half-open file, at least as many helpers as sentries).
    pub pawn_candidate: [S; 8],

    // ---- passed pawns ------------------------------------------------------------------
    /// Base bonus of a passed pawn by relative rank (cached with the pawn structure).
    pub passed_rank: [S; 8],
    /// Endgame bonus per square of distance between the *enemy* king and the square in front
    /// of the passer, by relative rank.
    pub passed_enemy_king_distance: [i32; 8],
    /// Endgame penalty per square of distance between the passer's *own* king and the square
    /// in front of it, by relative rank.
    pub passed_own_king_distance: [i32; 8],
    /// Passer whose stop square holds an enemy piece (blockade), by relative rank.
    pub passed_blockaded: [S; 8],
    /// Passer with no piece at all on its way to promotion, by relative rank.
    pub passed_free_path: [S; 8],
    /// Passer whose way to promotion is free and not attacked by the enemy, by relative rank.
    pub passed_safe_path: [S; 8],
    /// Passer the enemy king cannot catch when the enemy has only king and pawns.
    pub passed_unstoppable: S,

    // ---- blocked pawns ----------------------------------------------------------------
    /// Non-passed pawn that cannot advance because its stop square is occupied, by relative
    /// rank (cramping pawns on low ranks hurt most).
    pub pawn_blocked: [S; 8],

    // ---- king safety -------------------------------------------------------------------
    /// Attack weight added for each enemy piece of this kind hitting the king zone.
    pub king_attack_weight: [i32; 6],
    /// Danger per attack (piece × zone square) on the king zone.
    pub king_zone_attack: i32,
    /// Danger per zone square attacked by the enemy and defended by nothing but the king.
    pub king_weak_square: i32,
    /// Danger for a safe checking possibility by a piece of this kind.
    pub king_safe_check: [i32; 6],
    /// Danger subtracted when the attacker has no queen.
    pub king_no_queen: i32,
    /// Middlegame penalty = danger² / this.
    pub king_danger_divisor: i32,
    /// Endgame penalty = danger / this.
    pub king_danger_eg_divisor: i32,
    /// Cap on danger (keeps the quadratic sane with many attackers).
    pub king_danger_max: i32,
    /// Pawn shelter on the king's file and its neighbours, indexed by how many ranks in
    /// front of the king the nearest own pawn stands (0 = no own pawn on the file).
    pub king_shield: [S; 8],
    /// Enemy pawn storm on those files, indexed by how many ranks in front of the king the
    /// nearest enemy pawn stands (0 = none).
    pub king_storm: [S; 8],
    /// As `king_storm` when the storming pawn is blocked by an own pawn.
    pub king_storm_blocked: [S; 8],

    // ---- king tropism -----------------------------------------------------------------
    /// Bonus per piece of this kind and per unit of closeness (7 - distance) to the enemy king.
    pub tropism: [S; 6],

    // ---- pieces -----------------------------------------------------------------------
    /// Two or more bishops.
    pub bishop_pair: S,
    /// Per own pawn standing on squares of a bishop's colour.
    pub bishop_pawns: S,
    /// Rook on a file without pawns.
    pub rook_open_file: S,
    /// Rook on a file without own pawns but with an enemy pawn.
    pub rook_half_open_file: S,
    /// Rook (or queen, at half weight) on the 7th rank with the enemy king on the 8th or
    /// enemy pawns on the 7th.
    pub rook_seventh: S,
    /// Knight on an outpost (relative rank 4-6, never attackable by enemy pawns):
    /// `[unsupported, supported by an own pawn]`.
    pub knight_outpost: [S; 2],
    /// Bishop on an outpost: `[unsupported, supported]`.
    pub bishop_outpost: [S; 2],

    // ---- threats ------------------------------------------------------------------------
    /// Enemy piece of this kind attacked by one of our pawns.
    pub threat_by_pawn: [S; 6],
    /// Enemy piece of this kind attacked by our knight or bishop (only rooks, queens, and
    /// pieces not defended by a pawn count).
    pub threat_by_minor: [S; 6],
    /// Enemy piece of this kind attacked by our rook (queens, and undefended pieces).
    pub threat_by_rook: [S; 6],
    /// Enemy piece (not pawn, not king) attacked by us and defended by nothing.
    pub hanging: S,
    /// Enemy pawn attacked by us and defended by nothing.
    pub hanging_pawn: S,

    // ---- side to move -------------------------------------------------------------------
    /// Bonus for having the move.
    pub tempo: S,

    // ---- endgame scaling (out of 128) ---------------------------------------------------
    /// Opposite-coloured bishops with no other pieces.
    pub scale_ocb: i32,
    /// Opposite-coloured bishops with other pieces on the board.
    pub scale_ocb_pieces: i32,
    /// Stronger side has no pawns and is up less than `pawnless_margin`.
    pub scale_pawnless: i32,
    /// Material edge (in the fixed 1/3/3/5/9 scale, centipawns) below which a pawnless
    /// side is considered unable to win.
    pub pawnless_margin: i32,
    /// Stronger side has a single pawn and the same piece material as the other side.
    pub scale_one_pawn: i32,
    /// Two knights against a king with pawns (KNN vs K alone scales to 0).
    pub scale_knn_vs_pawns: i32,
    /// Extra endgame bonus in a won KPK position (the bitbase says so).
    pub kpk_win: S,

    // ---- Crafty-style scale knobs (percent, 100 = unchanged) ---------------------------
    /// Scales every king-safety term (attack danger, shelter, storm) for both kings.
    pub king_safety_scale: i32,
    /// Further scales the danger to wily's *own* king when the evaluator knows wily's side
    /// (`Evaluator::set_own_side`). Above 100 plays more cautiously.
    pub king_safety_own: i32,
    /// Further scales the danger to the *opponent's* king when wily's side is known. Above 100
    /// plays more aggressively. With both at 100, or no side set, king safety is symmetric.
    pub king_safety_opponent: i32,
    /// Scales king tropism (pieces closing in on the enemy king).
    pub tropism_scale: i32,
    /// Scales the static pawn-structure terms (doubled, isolated, backward, connected,
    /// candidates).
    pub pawn_structure_scale: i32,
    /// Scales every passed-pawn term (base, king distances, blockade, path, unstoppable).
    pub passed_pawn_scale: i32,
    /// Scales the blocked-pawn penalty (`pawn_blocked`).
    pub blocked_pawn_scale: i32,
}

/// A concave mobility curve from `lo` (no moves) to `hi` (all `n - 1` moves).
fn mobility_curve<const N: usize>(lo: S, hi: S) -> [S; N] {
    let mut t = [S::ZERO; N];
    let max = (N - 1) as f64;
    for (i, v) in t.iter_mut().enumerate() {
        let f = (i as f64 / max).sqrt();
        *v = s(
            lo.mg + ((hi.mg - lo.mg) as f64 * f).round() as i32,
            lo.eg + ((hi.eg - lo.eg) as f64 * f).round() as i32,
        );
    }
    t
}

/// Builds an `[S; 8]` rank table from (mg, eg) pairs.
const fn ranks(t: [(i32, i32); 8]) -> [S; 8] {
    let mut out = [S::ZERO; 8];
    let mut i = 0;
    while i < 8 {
        out[i] = s(t[i].0, t[i].1);
        i += 1;
    }
    out
}

impl Default for EvalParams {
    fn default() -> Self {
        EvalParams {
            piece_value: [
                s(80, 110),
                s(320, 305),
                s(335, 325),
                s(470, 540),
                s(960, 1000),
                S::ZERO,
            ],
            pst: default_pst(),

            mobility_knight: mobility_curve(s(-30, -40), s(30, 25)),
            mobility_bishop: mobility_curve(s(-30, -45), s(50, 50)),
            mobility_rook: mobility_curve(s(-20, -45), s(30, 65)),
            mobility_queen: mobility_curve(s(-15, -30), s(35, 65)),

            pawn_doubled: s(-8, -22),
            pawn_isolated: s(-8, -14),
            pawn_isolated_open: s(-10, -4),
            pawn_backward: s(-6, -10),
            pawn_backward_open: s(-10, -4),
            pawn_supported: ranks([
                (0, 0),
                (0, 0),
                (5, 2),
                (7, 5),
                (12, 12),
                (22, 26),
                (35, 40),
                (0, 0),
            ]),
            pawn_phalanx: ranks([
                (0, 0),
                (2, 0),
                (5, 2),
                (10, 6),
                (18, 16),
                (35, 35),
                (50, 60),
                (0, 0),
            ]),
            pawn_candidate: ranks([
                (0, 0),
                (0, 4),
                (2, 8),
                (6, 14),
                (12, 26),
                (18, 42),
                (0, 0),
                (0, 0),
            ]),

            passed_rank: ranks([
                (0, 0),
                (2, 8),
                (4, 12),
                (8, 20),
                (22, 40),
                (45, 85),
                (75, 140),
                (0, 0),
            ]),
            passed_enemy_king_distance: [0, 0, 0, 4, 9, 15, 20, 0],
            passed_own_king_distance: [0, 0, 0, 2, 4, 6, 8, 0],
            passed_blockaded: ranks([
                (0, 0),
                (0, 0),
                (0, -2),
                (-2, -6),
                (-5, -12),
                (-8, -20),
                (-10, -25),
                (0, 0),
            ]),
            passed_free_path: ranks([
                (0, 0),
                (0, 0),
                (0, 2),
                (2, 5),
                (5, 12),
                (10, 25),
                (15, 35),
                (0, 0),
            ]),
            passed_safe_path: ranks([
                (0, 0),
                (0, 0),
                (1, 4),
                (3, 10),
                (8, 22),
                (15, 40),
                (25, 60),
                (0, 0),
            ]),
            passed_unstoppable: s(0, 500),

            pawn_blocked: ranks([
                (0, 0),
                (-10, -4),
                (-7, -3),
                (-3, -2),
                (-1, 0),
                (0, 0),
                (0, 0),
                (0, 0),
            ]),

            king_attack_weight: [0, 20, 20, 40, 80, 0],
            king_zone_attack: 7,
            king_weak_square: 14,
            king_safe_check: [0, 60, 40, 70, 60, 0],
            king_no_queen: 120,
            king_danger_divisor: 720,
            king_danger_eg_divisor: 10,
            king_danger_max: 900,
            king_shield: ranks([
                (-36, -4),
                (0, 0),
                (-9, -2),
                (-20, -3),
                (-28, -4),
                (-32, -4),
                (-34, -4),
                (-36, -4),
            ]),
            king_storm: ranks([
                (0, 0),
                (-8, 0),
                (-36, -4),
                (-22, -2),
                (-10, 0),
                (-4, 0),
                (0, 0),
                (0, 0),
            ]),
            king_storm_blocked: ranks([
                (0, 0),
                (0, 0),
                (-4, -2),
                (-8, -2),
                (-4, 0),
                (0, 0),
                (0, 0),
                (0, 0),
            ]),

            tropism: [S::ZERO, s(3, 0), s(2, 0), s(2, 1), s(4, 2), S::ZERO],

            bishop_pair: s(30, 55),
            bishop_pawns: s(-2, -4),
            rook_open_file: s(35, 10),
            rook_half_open_file: s(15, 8),
            rook_seventh: s(15, 30),
            knight_outpost: [s(12, 6), s(30, 16)],
            bishop_outpost: [s(6, 2), s(16, 6)],

            threat_by_pawn: [S::ZERO, s(45, 40), s(45, 40), s(60, 50), s(70, 60), S::ZERO],
            threat_by_minor: [S::ZERO, s(15, 15), s(15, 15), s(40, 40), s(50, 50), S::ZERO],
            threat_by_rook: [S::ZERO, s(15, 15), s(15, 15), s(10, 10), s(40, 40), S::ZERO],
            hanging: s(30, 20),
            hanging_pawn: s(4, 12),

            tempo: s(20, 10),

            scale_ocb: 48,
            scale_ocb_pieces: 104,
            scale_pawnless: 24,
            pawnless_margin: 350,
            scale_one_pawn: 100,
            scale_knn_vs_pawns: 64,
            kpk_win: s(0, 400),

            king_safety_scale: 100,
            king_safety_own: 100,
            king_safety_opponent: 100,
            tropism_scale: 100,
            pawn_structure_scale: 100,
            passed_pawn_scale: 100,
            blocked_pawn_scale: 100,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mobility_curves_rise_monotonically() {
        let p = EvalParams::default();
        for w in p.mobility_queen.windows(2) {
            assert!(w[1].mg >= w[0].mg && w[1].eg >= w[0].eg);
        }
        assert_eq!(p.mobility_knight[0], s(-30, -40));
        assert_eq!(p.mobility_knight[8], s(30, 25));
    }
}
