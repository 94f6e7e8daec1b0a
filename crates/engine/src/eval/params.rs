//! `EvalParams`: every weight of wily's evaluation in one table, plus the Crafty-style scale
//! knobs (percentages, 100 = unchanged).
//!
//! Conventions: an [`S`] is a (middlegame, endgame) pair in centipawns, always written as
//! a bonus for the side that owns the feature (penalties are negative). Arrays indexed by
//! rank use the owner's relative rank (0 = its first rank, 7 = its last). Endgame scale
//! factors are out of 128 (128 = unchanged, 0 = dead draw).
//!
//! The default values live in `tuned.rs`, which `wily tune` writes (Texel tuning of every
//! weight to game results; see `tune`). History: they started as hand-set estimates
//! and were then fitted to about 160,000 quiet positions from the masters PGN
//! (`data/pgn/masters-2400.pgn`) by coordinate descent on the mean squared error between the
//! game result and a logistic function of the score, over grouped knobs (single weights,
//! and whole tables scaled by 5% steps); that set beat the hand-set one in fixed-node
//! self-play (+31 Elo over 440 games, about ±30).

use super::score::S;

/// Every tunable weight of the evaluation. Only `i32`s and [`S`]s (`repr(C)`), so the
/// fields form one flat run of `i32` in declaration order (see `layout`, which the tuner
/// reads and writes them through).
#[derive(Clone, Debug, PartialEq)]
#[repr(C)]
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
    /// Passer with an own rook behind it on its file, nothing in between.
    pub passed_rook_behind: S,
    /// Passer with an enemy rook behind it on its file, nothing in between.
    pub passed_enemy_rook_behind: S,

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
    /// Danger per enemy piece kind that can give only an unsafe check (to a square we
    /// attack).
    pub king_unsafe_check: i32,
    /// Danger removed per own knight or bishop in the king zone.
    pub king_defender: i32,
    /// Danger per enemy attack on the king's camp (its flank's files, its own five ranks),
    /// counting squares attacked twice again.
    pub king_flank_attack: i32,
    /// Danger per piece of either colour that alone stands between the king and an enemy
    /// bishop, rook or queen on its line (a pin, or a discovered attack waiting).
    pub king_blocker: i32,
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
    /// King on a flank (its `king_flank_attack` files) with no pawn of either colour.
    pub king_pawnless_flank: S,

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
    /// Rook on the 7th rank with the enemy king on the 8th or enemy pawns on the 7th.
    pub rook_seventh: S,
    /// Queen on the 7th rank under the same condition as `rook_seventh`.
    pub queen_seventh: S,
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
    /// Enemy knight, bishop, rook or queen not attacked by our pawns now that one of our
    /// pawns would attack after a safe push (single or double step).
    pub threat_pawn_push: S,
    /// Enemy piece or pawn attacked by our king and defended by nothing.
    pub threat_by_king: S,
    /// Square attacked by both colours that the enemy attacks without the support of a
    /// pawn or of two attackers against our one (it limits the enemy's pieces).
    pub restricted: S,
    /// Our knight or bishop directly behind a pawn (shielded from the front).
    pub minor_behind_pawn: S,
    /// Our bishop on a long diagonal that, through pawns, sees both centre squares of it.
    pub bishop_long_diagonal: S,
    /// Own queen with one piece alone between it and an enemy bishop or rook on its line
    /// (pinned to the queen, or a discovered attack on it waiting).
    pub weak_queen: S,
    /// Rook on a file with a queen of either colour.
    pub rook_queen_file: S,
    /// Knight not on an outpost that can jump to an empty one.
    pub knight_reachable_outpost: S,
    /// Safe square from which one of our knights could attack the lone enemy queen.
    pub knight_on_queen: S,
    /// Safe square we attack twice from which one of our bishops or rooks could attack
    /// the lone enemy queen.
    pub slider_on_queen: S,
    /// Rook on a file through the enemy king zone that attacks none of the zone.
    pub rook_on_king_ring: S,
    /// Bishop whose diagonals, seen through everything but pawns, reach the enemy king zone
    /// though it attacks none of it.
    pub bishop_on_king_ring: S,
    /// Own knight or bishop, per square of distance to its own king.
    pub king_protector: S,
    /// Queen on the enemy half on a square no enemy pawn can ever attack.
    pub queen_infiltration: S,
    /// Enemy piece or pawn we attack that only its queen defends.
    pub weak_queen_protection: S,
    /// Rook on a file where one of our pawns is blocked by an enemy pawn.
    pub rook_on_closed_file: S,
    /// The king's distance to its nearest own pawn.
    pub king_pawn_distance: S,

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

/// Material plus placement of piece kind `piece` (index) on `sq`, from White's side (a
/// Black piece's square is mirrored by the caller).
#[inline(always)]
pub(crate) fn psq_value(p: &EvalParams, piece: usize, sq: usize) -> S {
    p.piece_value[piece] + p.pst[piece][sq]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sanity of the defaults whatever a tuning makes of them in detail: the signs and
    /// orderings any sound set of weights has.
    #[test]
    fn mobility_is_worth_something() {
        let p = EvalParams::default();
        let tables: [&[S]; 4] = [
            &p.mobility_knight,
            &p.mobility_bishop,
            &p.mobility_rook,
            &p.mobility_queen,
        ];
        for t in tables {
            let (none, most) = (t[0], t[t.len() - 1]);
            assert!(most.mg > none.mg && most.eg > none.eg, "{t:?}");
        }
    }

    #[test]
    fn square_tables_prefer_sensible_squares() {
        let p = EvalParams::default();
        let pst = p.pst;
        // Knight: d4 (27) better than a1 (0).
        assert!(pst[1][27].mg > pst[1][0].mg && pst[1][27].eg > pst[1][0].eg);
        // King: g1 (6) better than d4 (27) in the middlegame, worse in the endgame.
        assert!(pst[5][6].mg > pst[5][27].mg);
        assert!(pst[5][6].eg < pst[5][27].eg);
        // Pawn: e4 (28) better than e2 (12) in the middlegame.
        assert!(pst[0][28].mg > pst[0][12].mg);
        // Nothing on the pawns' impossible ranks.
        assert!(pst[0][..8]
            .iter()
            .chain(&pst[0][56..])
            .all(|v| *v == S::ZERO));
        // Material: pawn < knight, bishop < rook < queen in both halves.
        let v = p.piece_value;
        for half in [|s: S| s.mg, |s: S| s.eg] {
            assert!(half(v[0]) < half(v[1]).min(half(v[2])));
            assert!(half(v[1]).max(half(v[2])) < half(v[3]) && half(v[3]) < half(v[4]));
        }
    }
}
