//! The evaluation's default weights (`EvalParams::default()`), written by `wily tune` (see
//! docs/tuning.md): a tuning run rewrites this whole file, in a fixed layout, so
//! that the diff shows the numbers that changed. The meaning of every field is documented
//! in `params.rs`.
//!
//! Fitted by `wily tune` to 3,240,000 quiet positions, K = 1.1017: mean squared error
//! 0.1163997 -> 0.1161066 (on 360,000 held-out positions 0.1156781 -> 0.1157703) after 300
//! passes. Command: wily tune --pgn ../shared/data/pgn/masters-2400.pgn --csv s1.csv
//! --csv s2.csv --csv s3.csv --positions 3600000 --sample-rate 0.35 --skip-plies 16 --seed
//! 1 --iterations 300 --rate 2 --lambda 0 --prior 3000 --holdout 0.1 --threads 2
//! (`s1.csv`, `s2.csv`, `s3.csv`: 865,901, 911,688 and 917,575 samples of 14,000 games
//! each of three successive weight sets against themselves at 5,000 nodes a move, the
//! last the previous set; the commands are in docs/results/tuning-runs.md).
//! Then eight new fields fitted alone, every other weight kept, to 2,340,000 quiet
//! positions, K = 1.0855: mean squared error 0.1164644 -> 0.1164091 (on 260,000 held-out
//! positions 0.1160933 -> 0.1160090) after 150 passes. Command: wily tune --pgn
//! ../shared/data/pgn/masters-2400.pgn --csv s3.csv --csv s4.csv --positions 2600000
//! --sample-rate 0.35 --skip-plies 16 --seed 1 --iterations 150 --rate 2 --lambda 0
//! --prior 3000 --holdout 0.1 --threads 2 --only threat_pawn_push,threat_by_king,
//! restricted,minor_behind_pawn,bishop_long_diagonal,king_unsafe_check,king_defender,
//! king_flank_attack (`s4.csv`: 929,039 samples of the previous set's own games, made as
//! the others).
//! Then five new fields fitted alone, every other weight kept, to the master games only
//! (no self-play set was at hand), in two runs of 150 passes at `--prior 3000`: first
//! `king_blocker,king_flank_defense,king_pawnless_flank` (1,067,470 quiet positions, K =
//! 0.9668: 0.1145073 -> 0.1144281, held out 0.1143022 -> 0.1142292; the flank defence
//! came out at zero and was dropped), then
//! `passed_rook_behind,passed_enemy_rook_behind,weak_queen,space` (1,067,459 positions, K
//! = 0.9649: 0.1144338 -> 0.1143132, held out 0.1142206 -> 0.1140702; space came out at
//! s(1, -4) and was dropped; so were the knight's and the rook's pawn counts, s(-2, 7) and s(-3, 3):
//! with them the engine solved four to five WAC positions fewer at 1 s, see docs/results/tuning-runs.md). Command: wily tune --pgn
//! ../shared/data/pgn/masters-2400.pgn --positions 1400000 --sample-rate 0.35
//! --skip-plies 16 --seed 1 --iterations 150 --rate 2 --lambda 0 --prior 3000 --holdout
//! 0.1 --threads 1 --only FIELDS. Then six more the same way in one run,
//! `knight_pawns,rook_pawns,rook_queen_file,knight_reachable_outpost,trapped_rook,
//! knight_on_queen,slider_on_queen` (1,067,562 positions, K = 0.9680: 0.1143258 ->
//! 0.1141590, held out 0.1140629 -> 0.1139993; the trapped rook came out at s(1, -3) and
//! was dropped).
//! Then seven more the same way, to the master games, on top of those, in two runs: first
//! `rook_on_king_ring,bishop_on_king_ring,king_protector,queen_infiltration,complexity`
//! (1,067,587 positions, K = 0.9692: 0.1141776 -> 0.1139054, held out 0.1140094 ->
//! 0.1137404; the endgame complexity, eight inputs, was dropped: see docs/results/tuning-runs.md), then
//! `weak_queen_protection,bishop_xray_pawns,rook_on_closed_file,king_pawn_distance`
//! (1,067,598 positions, K = 0.9486: 0.1138811 -> 0.1138028, held out 0.1136758 ->
//! 0.1136363; the bishop's x-ray on pawns came out at s(-2, 1) and was dropped).

use super::params::EvalParams;
use super::score::s;

/// The default weights.
#[rustfmt::skip]
pub(super) const TUNED: EvalParams = EvalParams {
    piece_value: [s(65, 131), s(239, 483), s(265, 499), s(326, 803), s(766, 1455), s(0, 0)],
    pst: [
        // Pawn
        [
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(-16, 17), s(-7, 14), s(-1, 2), s(-8, 14), s(-5, 25), s(22, 15), s(17, -1), s(-5, -10),
            s(-20, 1), s(-12, 2), s(-15, 1), s(-12, -16), s(-5, -5), s(8, 6), s(18, -11), s(3, -11),
            s(-14, 17), s(-12, 19), s(3, -19), s(0, -30), s(1, -5), s(11, -10), s(5, 9), s(0, -6),
            s(8, 26), s(-6, 27), s(-1, 7), s(25, -12), s(25, -17), s(14, 7), s(-5, 12), s(13, 19),
            s(9, 43), s(6, 57), s(10, 33), s(28, 31), s(47, 22), s(43, 3), s(34, 39), s(-6, 24),
            s(14, -20), s(-18, 22), s(-26, 47), s(56, -2), s(59, -25), s(-58, 37), s(3, 32), s(-23, 36),
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
        ],
        // Knight
        [
            s(-43, -6), s(-1, -16), s(-2, -17), s(20, -12), s(0, -6), s(-1, -29), s(-6, -26), s(-57, -28),
            s(4, 2), s(1, 17), s(10, -11), s(8, -13), s(11, -9), s(14, -17), s(13, -22), s(10, -68),
            s(5, -34), s(-3, -15), s(2, -12), s(4, 27), s(12, 16), s(8, -7), s(7, -1), s(-3, 5),
            s(-11, 27), s(0, -14), s(-7, 54), s(-2, 26), s(3, 43), s(3, 7), s(-9, 1), s(-23, 29),
            s(16, 28), s(-7, 10), s(-4, 53), s(4, 34), s(-15, 51), s(6, 44), s(-14, 24), s(-15, 26),
            s(1, 35), s(-31, 50), s(-23, 53), s(-13, 41), s(16, 32), s(-11, 28), s(22, 51), s(-5, 0),
            s(-25, 16), s(20, 18), s(1, 13), s(7, 13), s(13, 10), s(7, -35), s(18, 21), s(-52, 14),
            s(-48, -85), s(8, 47), s(4, -14), s(2, -1), s(6, -21), s(-25, 69), s(3, -20), s(-53, 12),
        ],
        // Bishop
        [
            s(-11, 15), s(10, -35), s(12, -20), s(-8, -22), s(-21, 32), s(5, -7), s(33, -29), s(-5, -70),
            s(34, -24), s(18, -10), s(12, -11), s(5, -9), s(-5, -3), s(30, -7), s(15, -19), s(26, -24),
            s(20, -26), s(24, -13), s(-1, 28), s(-2, 16), s(8, 16), s(-3, 18), s(14, 12), s(4, 0),
            s(-13, 13), s(-2, 3), s(-9, 16), s(4, 20), s(-6, 20), s(-16, 16), s(-43, 9), s(-9, 4),
            s(-15, 8), s(-24, 29), s(3, -4), s(21, 20), s(-20, 37), s(-20, 16), s(-20, 2), s(-37, 25),
            s(-35, 19), s(-1, -4), s(-54, 62), s(-6, 26), s(-14, 6), s(8, 28), s(-30, 34), s(-28, 15),
            s(-40, 24), s(-30, 23), s(-19, -2), s(-58, 43), s(-34, 12), s(-39, 20), s(-83, 65), s(-41, 19),
            s(-8, 51), s(-69, -17), s(-49, 38), s(-32, 25), s(-17, 38), s(-38, 23), s(-16, -1), s(-29, 1),
        ],
        // Rook
        [
            s(2, -13), s(2, -5), s(2, 5), s(12, -10), s(20, -24), s(6, -8), s(10, -28), s(-4, -25),
            s(-27, 21), s(-7, 17), s(-5, 7), s(-3, -2), s(-27, 8), s(-14, 0), s(-7, -14), s(-22, -2),
            s(-4, -14), s(-26, 15), s(-40, 24), s(-14, 8), s(-10, -7), s(-37, 23), s(22, -13), s(-27, -22),
            s(-24, 38), s(-15, 39), s(-34, 34), s(-25, 44), s(-26, 33), s(-32, 43), s(18, 18), s(-42, 39),
            s(0, 37), s(-19, 46), s(-25, 35), s(3, 30), s(-4, 25), s(-38, 40), s(-2, 10), s(-11, 28),
            s(-13, 49), s(-8, 39), s(-12, 40), s(4, 42), s(26, 44), s(18, 25), s(90, 17), s(-9, 53),
            s(45, 19), s(33, 19), s(29, 23), s(30, 32), s(28, 20), s(14, 18), s(12, 28), s(-8, 50),
            s(-1, 50), s(17, 48), s(-26, 74), s(54, 29), s(16, 68), s(24, 53), s(45, 53), s(53, 53),
        ],
        // Queen
        [
            s(7, 7), s(5, 9), s(7, -27), s(16, 2), s(29, -24), s(-16, -21), s(25, -13), s(-35, 58),
            s(-9, 32), s(10, -23), s(9, -19), s(20, -10), s(15, -3), s(22, -59), s(19, -39), s(18, -10),
            s(3, 3), s(3, -20), s(0, 2), s(-14, -1), s(2, -16), s(4, 28), s(7, 25), s(2, -20),
            s(-8, 26), s(-31, 11), s(-18, 3), s(-17, 3), s(-30, 9), s(-22, 24), s(-14, 20), s(-5, 6),
            s(-17, 55), s(-29, 43), s(-34, 3), s(-58, 67), s(-44, 37), s(-28, 27), s(-55, 46), s(-33, 6),
            s(-21, 46), s(-31, 79), s(-43, 68), s(-20, -17), s(-20, 1), s(-3, 36), s(20, 7), s(-29, 24),
            s(4, 15), s(-13, 25), s(-10, 34), s(18, -4), s(-30, -7), s(7, -33), s(-8, 44), s(14, 13),
            s(-21, 33), s(-11, 33), s(-28, -10), s(-14, 7), s(6, -18), s(-5, 6), s(18, 39), s(-40, 36),
        ],
        // King
        [
            s(-47, -74), s(-4, -15), s(-12, -1), s(-51, -4), s(-39, -29), s(-62, 8), s(-7, -18), s(-19, -48),
            s(61, -69), s(26, -2), s(30, -2), s(35, -7), s(36, -2), s(8, 5), s(38, -13), s(-6, -16),
            s(-42, -18), s(49, -4), s(67, 4), s(9, 13), s(5, 18), s(43, 12), s(26, 4), s(-37, -1),
            s(-16, -24), s(66, 7), s(26, 25), s(-12, 44), s(-25, 42), s(-18, 49), s(-27, 37), s(-60, 1),
            s(-25, -2), s(12, 30), s(6, 43), s(-69, 61), s(-39, 68), s(-55, 66), s(-8, 52), s(-27, 21),
            s(-37, 58), s(-18, 58), s(-13, 68), s(-30, 73), s(-54, 62), s(-20, 81), s(10, 84), s(-13, 29),
            s(-67, 6), s(-38, 50), s(-29, 81), s(-51, 67), s(-43, 71), s(-75, 77), s(-27, 80), s(-55, 25),
            s(-86, -80), s(-59, 24), s(-66, 23), s(-88, 36), s(-62, 50), s(-59, 55), s(-36, 104), s(-98, -83),
        ],
    ],
    mobility_knight: [
        s(-46, -94), s(-18, -64), s(-5, -33), s(3, -10), s(7, 13), s(12, 26), s(19, 30), s(20, 30),
        s(20, 27),
    ],
    mobility_bishop: [
        s(-25, -63), s(-11, -32), s(3, 1), s(5, 15), s(13, 25), s(19, 38), s(22, 44), s(27, 50),
        s(29, 59), s(28, 62), s(40, 56), s(34, 72), s(84, 43), s(50, 59),
    ],
    mobility_rook: [
        s(-69, -87), s(1, -31), s(3, 8), s(6, 16), s(10, 22), s(10, 28), s(12, 36), s(19, 39),
        s(17, 50), s(22, 53), s(17, 64), s(26, 67), s(20, 72), s(37, 57), s(42, 74),
    ],
    mobility_queen: [
        s(-11, -105), s(-80, -66), s(-63, -39), s(17, -130), s(10, -99), s(6, -30), s(6, -16), s(5, 7),
        s(8, 48), s(9, 49), s(14, 57), s(15, 60), s(16, 74), s(16, 83), s(19, 84), s(23, 78),
        s(11, 110), s(28, 90), s(11, 113), s(11, 106), s(22, 121), s(62, 73), s(59, 99), s(55, 88),
        s(30, 81), s(33, 75), s(44, 106), s(33, 102),
    ],
    pawn_doubled: s(-17, -11),
    pawn_isolated: s(-2, -7),
    pawn_isolated_open: s(-1, -13),
    pawn_backward: s(-1, -9),
    pawn_backward_open: s(-8, -11),
    pawn_supported: [
        s(0, 0), s(0, 0), s(10, 16), s(7, 20), s(21, 32), s(32, 85), s(146, 40), s(0, 0),
    ],
    pawn_phalanx: [
        s(0, 0), s(0, 3), s(4, 4), s(11, 15), s(20, 32), s(83, 127), s(161, 249), s(0, 0),
    ],
    pawn_candidate: [
        s(0, 0), s(5, -7), s(-6, 11), s(5, 26), s(16, 20), s(34, 20), s(0, 0), s(0, 0),
    ],
    passed_rank: [
        s(0, 0), s(-5, 49), s(-11, 34), s(2, 66), s(14, 84), s(39, 85), s(69, 156), s(0, 0),
    ],
    passed_enemy_king_distance: [
        0, -7, 2, 15, 25, 49, 55, 0,
    ],
    passed_own_king_distance: [
        0, -1, 4, 16, 21, 27, 32, 0,
    ],
    passed_blockaded: [
        s(0, 0), s(-15, -1), s(10, -19), s(-12, -24), s(-22, -18), s(-15, -5), s(-19, 19), s(0, 0),
    ],
    passed_free_path: [
        s(0, 0), s(8, 5), s(11, -3), s(-13, 13), s(-3, 20), s(1, 31), s(52, 80), s(0, 0),
    ],
    passed_safe_path: [
        s(0, 0), s(-22, 45), s(-62, 19), s(-52, 27), s(-34, 53), s(-21, 91), s(40, 89), s(0, 0),
    ],
    passed_unstoppable: s(-3, 260),
    passed_rook_behind: s(12, 25),
    passed_enemy_rook_behind: s(-16, -42),
    pawn_blocked: [
        s(0, 0), s(-9, -4), s(6, -12), s(1, -17), s(-14, -23), s(-7, -7), s(0, 0), s(0, 0),
    ],
    king_attack_weight: [0, 27, 10, 38, 0, 0],
    king_zone_attack: 19,
    king_weak_square: 32,
    king_safe_check: [0, 129, 69, 149, 119, 0],
    king_no_queen: 239,
    king_unsafe_check: 22,
    king_defender: 23,
    king_flank_attack: 1,
    king_blocker: 40,
    king_danger_divisor: 720,
    king_danger_eg_divisor: 16,
    king_danger_max: 900,
    king_shield: [
        s(-21, -2), s(4, -6), s(-6, -2), s(-12, -9), s(-6, -12), s(-24, 41), s(30, 3), s(-14, 0),
    ],
    king_storm: [
        s(0, 0), s(-2, 12), s(-31, 10), s(-4, 13), s(7, 5), s(17, -6), s(14, -7), s(0, 0),
    ],
    king_storm_blocked: [
        s(0, 0), s(0, 0), s(7, -17), s(1, 11), s(17, 15), s(13, 10), s(54, -41), s(0, 0),
    ],
    king_pawnless_flank: s(-11, -44),
    tropism: [s(0, 0), s(8, -2), s(8, -6), s(5, -2), s(9, 19), s(0, 0)],
    bishop_pair: s(18, 91),
    bishop_pawns: s(-3, -11),
    rook_open_file: s(32, 1),
    rook_half_open_file: s(14, 13),
    rook_seventh: s(-40, 51),
    queen_seventh: s(-36, 25),
    knight_outpost: [s(31, -24), s(34, 11)],
    bishop_outpost: [s(7, 2), s(35, 17)],
    threat_by_pawn: [s(0, 0), s(42, 44), s(41, 59), s(44, 47), s(32, 31), s(0, 0)],
    threat_by_minor: [s(0, 0), s(11, 62), s(23, 29), s(40, 28), s(32, 41), s(0, 0)],
    threat_by_rook: [s(0, 0), s(4, 39), s(2, 44), s(12, 31), s(56, 27), s(0, 0)],
    hanging: s(8, 9),
    hanging_pawn: s(2, 42),
    threat_pawn_push: s(6, 19),
    threat_by_king: s(23, 13),
    restricted: s(2, 2),
    minor_behind_pawn: s(5, 4),
    bishop_long_diagonal: s(3, -2),
    weak_queen: s(-15, -5),
    rook_queen_file: s(4, 18),
    knight_reachable_outpost: s(4, 16),
    knight_on_queen: s(4, 12),
    slider_on_queen: s(12, 17),
    rook_on_king_ring: s(3, -4),
    bishop_on_king_ring: s(15, 23),
    king_protector: s(-1, -1),
    queen_infiltration: s(12, 4),
    weak_queen_protection: s(5, 15),
    rook_on_closed_file: s(4, -18),
    king_pawn_distance: s(-6, -9),
    tempo: s(9, 15),
    scale_ocb: 30,
    scale_ocb_pieces: 118,
    scale_pawnless: 9,
    pawnless_margin: 350,
    scale_one_pawn: 60,
    scale_knn_vs_pawns: 4,
    kpk_win: s(0, 401),
    king_safety_scale: 100,
    king_safety_own: 100,
    king_safety_opponent: 100,
    tropism_scale: 100,
    pawn_structure_scale: 100,
    passed_pawn_scale: 100,
    blocked_pawn_scale: 100,
};
