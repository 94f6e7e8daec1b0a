//! King safety: the attack danger built from the pieces hitting the king zone, weak zone
//! squares, safe and unsafe checks, attacks on the king's flank and pieces alone between
//! the king and an enemy slider (pins, discovered attacks), less for the king's own minor
//! pieces in its zone, with the pawn shelter and storm of `shelter.rs` and a penalty for a
//! king on a flank without pawns.
//!
//! The danger grows quadratically in the middlegame (a lone attacker is harmless, a pack is
//! deadly) and linearly in the endgame. Crafty's knobs scale the result: `king_safety_scale`
//! for both kings, and `king_safety_own` / `king_safety_opponent` once wily's side is known.

use cozy_chess::{get_bishop_moves, get_bishop_rays, get_knight_moves, get_rook_moves};
use cozy_chess::{get_rook_rays, Square};
use cozy_chess::{Board, Color, Piece};

use super::params::EvalParams;
use super::pieces::Maps;
use super::score::{s, S};
use super::sink::{Sink, Term};
use super::tables::{file_bb, lone_blockers, rank_bb, square, KING_ZONE};

/// The files of a king's flank, by the king's file: a-d, c-f, e-h.
const FLANK: [u64; 8] = {
    let qside = file_bb(0) | file_bb(1) | file_bb(2) | file_bb(3);
    let center = file_bb(2) | file_bb(3) | file_bb(4) | file_bb(5);
    let kside = file_bb(4) | file_bb(5) | file_bb(6) | file_bb(7);
    [qside, qside, qside, center, center, kside, kside, kside]
};
/// A colour's own five ranks, `[color]`.
const CAMP: [u64; 2] = [
    rank_bb(0) | rank_bb(1) | rank_bb(2) | rank_bb(3) | rank_bb(4),
    rank_bb(3) | rank_bb(4) | rank_bb(5) | rank_bb(6) | rank_bb(7),
];

/// Danger to the king of `color` from the enemy pieces recorded in `m`. The common "no
/// attack" answer is decided inline; the rest is `attack_danger`.
#[inline(always)]
fn danger<K: Sink>(p: &EvalParams, board: &Board, color: Color, m: &Maps, sink: &mut K) -> i32 {
    let attackers = m.zone_attackers[color as usize ^ 1];
    let enemy_queen = board.colored_pieces(!color, Piece::Queen).0 != 0;
    if attackers < 2 && !(attackers == 1 && enemy_queen) {
        return 0;
    }
    attack_danger(p, board, color, m, enemy_queen, sink)
}

/// `danger` once the king zone is attacked by two pieces, or by one with a queen on board.
#[inline(never)]
fn attack_danger<K: Sink>(
    p: &EvalParams,
    board: &Board,
    color: Color,
    m: &Maps,
    enemy_queen: bool,
    sink: &mut K,
) -> i32 {
    let us = color as usize;
    let them = us ^ 1;
    let k = m.kings[us];
    let ksq = square(k);
    let mut d = m.zone_weight[them] + p.king_zone_attack * m.zone_hits[them];
    sink.count(color, &p.king_zone_attack, m.zone_hits[them]);
    let zone = KING_ZONE[us][k];
    let weak = zone & m.all[them] & !m.all_no_king[us];
    d += p.king_weak_square * weak.count_ones() as i32;
    sink.count(color, &p.king_weak_square, weak.count_ones() as i32);

    let occ = board.occupied();
    let enemy = board.colors(!color).0;
    let safe = !enemy & !m.all[us];
    let diag = get_bishop_moves(ksq, occ).0;
    let line = get_rook_moves(ksq, occ).0;
    let knight_sq = get_knight_moves(ksq).0;
    let checks = [
        (Piece::Knight, knight_sq),
        (Piece::Bishop, diag),
        (Piece::Rook, line),
        (Piece::Queen, diag | line),
    ];
    let mut unsafe_checks = 0;
    for (piece, from) in checks {
        let reach = from & m.by[them][piece as usize] & !enemy;
        if reach & safe != 0 {
            d += p.king_safe_check[piece as usize];
            sink.count(color, &p.king_safe_check[piece as usize], 1);
        } else if reach != 0 {
            unsafe_checks += 1;
        }
    }
    d += p.king_unsafe_check * unsafe_checks;
    sink.count(color, &p.king_unsafe_check, unsafe_checks);
    let minors =
        board.colored_pieces(color, Piece::Knight) | board.colored_pieces(color, Piece::Bishop);
    let defenders = (minors.0 & zone).count_ones() as i32;
    d -= p.king_defender * defenders;
    sink.count(color, &p.king_defender, -defenders);
    let camp = FLANK[k & 7] & CAMP[us];
    let flank = (camp & m.all[them]).count_ones() + (camp & m.twice[them]).count_ones();
    d += p.king_flank_attack * flank as i32;
    sink.count(color, &p.king_flank_attack, flank as i32);
    let blockers = blockers(board, color, ksq);
    d += p.king_blocker * blockers;
    sink.count(color, &p.king_blocker, blockers);
    if !enemy_queen {
        d -= p.king_no_queen;
        sink.count(color, &p.king_no_queen, -1);
    }
    sink.danger(color);
    d.clamp(0, p.king_danger_max.max(0))
}

/// Pieces of either colour that alone stand between `color`'s king on `ksq` and an enemy
/// slider that would attack it along its line.
pub(super) fn blockers(board: &Board, color: Color, ksq: Square) -> i32 {
    let them = board.colors(!color);
    let queens = board.pieces(Piece::Queen);
    let snipers = (get_bishop_rays(ksq) & (board.pieces(Piece::Bishop) | queens)
        | get_rook_rays(ksq) & (board.pieces(Piece::Rook) | queens))
        & them;
    lone_blockers(ksq, snipers, board.occupied())
}

/// King safety for both kings. `own` is wily's side for the asymmetric knobs; `shelter` is
/// `best_shelter` of each colour (possibly from the pawn table).
pub(crate) fn king_safety<K: Sink>(
    board: &Board,
    p: &EvalParams,
    own: Option<Color>,
    m: &Maps,
    shelter: [S; 2],
    sink: &mut K,
) {
    king_safety_of(Color::White, board, p, own, m, shelter, sink);
    king_safety_of(Color::Black, board, p, own, m, shelter, sink);
}

/// `king_safety` for `color`'s king, inlined once per colour so that the colour is a constant.
#[inline(always)]
fn king_safety_of<K: Sink>(
    color: Color,
    board: &Board,
    p: &EvalParams,
    own: Option<Color>,
    m: &Maps,
    shelter: [S; 2],
    sink: &mut K,
) {
    let mut cover = shelter[color as usize];
    let k = m.kings[color as usize];
    if board.pieces(Piece::Pawn).0 & FLANK[k & 7] == 0 {
        cover += sink.weigh(color, &p.king_pawnless_flank, 1);
    }
    let d = danger(p, board, color, m, sink);
    // No danger (the common case) costs nothing; skipping the divisions gives the
    // same zero.
    let penalty = if d == 0 {
        S::ZERO
    } else {
        s(
            d * d / p.king_danger_divisor.max(1),
            d / p.king_danger_eg_divisor.max(1),
        )
    };
    let side_pct = match own {
        Some(c) if c == color => p.king_safety_own,
        Some(_) => p.king_safety_opponent,
        None => 100,
    };
    let total = (cover - penalty).pct(p.king_safety_scale).pct(side_pct);
    sink.add(Term::KingSafety, color, total);
}
