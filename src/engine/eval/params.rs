//! `EvalParams`: every weight of wily's evaluation in one table, plus the Crafty-style scale
//! knobs (percentages, 100 = unchanged).
//!
//! Conventions: an [`S`] is a (middlegame, endgame) pair in centipawns, always written as
//! a bonus for the side that owns the feature (penalties are negative). Arrays indexed by
//! rank use the owner's relative rank (0 = its first rank, 7 = its last). Endgame scale
//! factors are out of 128 (128 = unchanged, 0 = dead draw).
//!
//! The default values started as hand-set estimates and were then fitted to about 160,000
//! quiet positions from the masters PGN (`data/pgn/masters-2400.pgn`): coordinate descent on
//! the mean squared error between the game result and a logistic function of the score,
//! over grouped knobs (single weights, and whole tables scaled by 5% steps). The fitted set
//! was kept because it also beat the hand-set one in fixed-node self-play (+31 Elo over 440
//! games, about ±30).

use super::pst::PST;
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

impl Default for EvalParams {
    /// Weights fitted to positions from master games (see the module docs).
    #[rustfmt::skip]
    fn default() -> Self {
        EvalParams {
            piece_value: [s(63, 136), s(323, 327), s(351, 334), s(432, 576), s(972, 1030), s(0, 0)],
            pst: PST,
            mobility_knight: [
                s(-16, -79), s(0, -15), s(2, -5), s(2, 2), s(7, 8),
                s(12, 13), s(16, 18), s(18, 40), s(20, 48),
            ],
            mobility_bishop: [
                s(-3, -61), s(2, -8), s(5, 3), s(8, 12), s(14, 19),
                s(19, 30), s(19, 46), s(20, 53), s(22, 59), s(26, 66),
                s(29, 77), s(31, 84), s(33, 91), s(34, 98),
            ],
            mobility_rook: [
                s(-25, -66), s(-7, -17), s(-1, -3), s(3, 6), s(7, 14),
                s(10, 30), s(13, 36), s(15, 42), s(18, 53), s(25, 61),
                s(27, 67), s(29, 75), s(31, 82), s(33, 89), s(35, 95),
            ],
            mobility_queen: [
                s(-20, -69), s(-8, -22), s(-4, -7), s(-1, -1), s(1, 4),
                s(4, 8), s(6, 12), s(7, 15), s(9, 39), s(11, 42),
                s(12, 46), s(14, 54), s(15, 62), s(17, 69), s(18, 76),
                s(19, 86), s(20, 91), s(22, 95), s(23, 102), s(24, 107),
                s(25, 112), s(26, 120), s(27, 125), s(28, 130), s(29, 137),
                s(32, 138), s(33, 144), s(34, 150),
            ],
            pawn_doubled: s(0, -33),
            pawn_isolated: s(-4, -16),
            pawn_isolated_open: s(-17, -2),
            pawn_backward: s(-13, -13),
            pawn_backward_open: s(-6, -2),
            pawn_supported: [
                s(0, 0), s(0, 0), s(5, 0), s(7, 1),
                s(12, 8), s(89, 28), s(159, 48), s(0, 0),
            ],
            pawn_phalanx: [
                s(0, 0), s(2, 0), s(5, 2), s(10, 6),
                s(18, 16), s(72, 81), s(111, 159), s(0, 0),
            ],
            pawn_candidate: [
                s(0, 0), s(0, 0), s(0, 0), s(0, 3),
                s(6, 12), s(12, 19), s(0, 0), s(0, 0),
            ],
            passed_rank: [
                s(0, 0), s(0, 8), s(1, 12), s(5, 25),
                s(24, 50), s(51, 106), s(90, 177), s(0, 0),
            ],
            passed_enemy_king_distance: [0, 0, 0, 4, 9, 15, 20, 0],
            passed_own_king_distance: [0, 0, 0, 2, 4, 6, 8, 0],
            passed_blockaded: [
                s(0, 0), s(0, 0), s(0, -2), s(-2, -6),
                s(-5, -12), s(-8, -20), s(-10, -25), s(0, 0),
            ],
            passed_free_path: [
                s(0, 0), s(0, 0), s(0, 0), s(2, 0),
                s(5, 4), s(10, 14), s(15, 19), s(0, 0),
            ],
            passed_safe_path: [
                s(0, 0), s(0, 0), s(0, 0), s(0, 4),
                s(4, 15), s(11, 28), s(18, 42), s(0, 0),
            ],
            passed_unstoppable: s(0, 500),
            pawn_blocked: [
                s(0, 0), s(-6, -4), s(-3, -3), s(0, -2),
                s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            ],
            king_attack_weight: [0, 30, 24, 50, 55, 0],
            king_zone_attack: 14,
            king_weak_square: 27,
            king_safe_check: [0, 138, 40, 116, 102, 0],
            king_no_queen: 146,
            king_danger_divisor: 720,
            king_danger_eg_divisor: 9,
            king_danger_max: 900,
            king_shield: [
                s(-14, 0), s(0, 0), s(0, 0), s(-6, 0),
                s(-10, 0), s(-12, 0), s(-13, 0), s(-14, 0),
            ],
            king_storm: [
                s(0, 0), s(-1, 0), s(-22, -4), s(-14, -2),
                s(-3, 0), s(0, 0), s(0, 0), s(0, 0),
            ],
            king_storm_blocked: [
                s(0, 0), s(0, 0), s(-4, -2), s(-8, -2),
                s(-4, 0), s(0, 0), s(0, 0), s(0, 0),
            ],
            tropism: [s(0, 0), s(2, 0), s(4, 0), s(6, 1), s(1, 2), s(0, 0)],
            bishop_pair: s(20, 94),
            bishop_pawns: s(-7, -9),
            rook_open_file: s(25, 8),
            rook_half_open_file: s(15, 11),
            rook_seventh: s(3, 40),
            knight_outpost: [s(31, 6), s(12, 40)],
            bishop_outpost: [s(6, 2), s(28, 6)],
            threat_by_pawn: [s(0, 0), s(14, 18), s(14, 18), s(19, 22), s(24, 29), s(0, 0)],
            threat_by_minor: [s(0, 0), s(11, 15), s(11, 15), s(32, 40), s(38, 50), s(0, 0)],
            threat_by_rook: [s(0, 0), s(9, 6), s(9, 6), s(4, 1), s(52, 23), s(0, 0)],
            hanging: s(-5, 18),
            hanging_pawn: s(16, 47),
            tempo: s(11, 13),
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

/// Material plus placement of piece kind `piece` (index) on `sq`, from White's side (a
/// Black piece's square is mirrored by the caller).
#[inline(always)]
pub(crate) fn psq_value(p: &EvalParams, piece: usize, sq: usize) -> S {
    p.piece_value[piece] + p.pst[piece][sq]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mobility_tables_never_decrease() {
        let p = EvalParams::default();
        for w in p.mobility_queen.windows(2) {
            assert!(w[1].mg >= w[0].mg && w[1].eg >= w[0].eg);
        }
    }
}
