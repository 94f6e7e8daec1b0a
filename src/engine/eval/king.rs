//! King safety: pawn shelter and storm on the king's files, and the attack danger built from
//! the pieces hitting the king zone, weak zone squares and safe checks.
//!
//! The danger grows quadratically in the middlegame (a lone attacker is harmless, a pack is
//! deadly) and linearly in the endgame. Crafty's knobs scale the result: `king_safety_scale`
//! for both kings, and `king_safety_own` / `king_safety_opponent` once wily's side is known.

use cozy_chess::{get_bishop_moves, get_knight_moves, get_rook_moves};
use cozy_chess::{Board, Color, Piece};

use super::params::EvalParams;
use super::pieces::{square, Maps};
use super::score::{s, S};
use super::sink::{Sink, Term};
use super::tables::{file_bb, relative_rank, FORWARD_RANKS, KING_ZONE};

/// Shelter and storm for a king of `color` standing on `ksq`, over the three files around
/// it (b-g as the middle one). `used` is shown every weight added.
#[inline(always)]
fn shelter(
    p: &EvalParams,
    color: Color,
    ksq: usize,
    own: u64,
    opp: u64,
    mut used: impl FnMut(&S),
) -> S {
    let us = color as usize;
    let centre = (ksq & 7).clamp(1, 6);
    let kr = relative_rank(color, ksq);
    let ahead_ranks = FORWARD_RANKS[us][ksq >> 3];
    // The nearest pawn in front of the king: lowest bit for White, highest for Black.
    let nearest = |bb: u64| -> usize {
        match color {
            Color::White => bb.trailing_zeros() as usize,
            Color::Black => 63 - bb.leading_zeros() as usize,
        }
    };
    // Rank distance from the king to a pawn in front of it: 1..=7 (the mask only spares a
    // bounds check).
    let distance = |sq: usize| (relative_rank(color, sq) - kr) & 7;
    let mut total = S::ZERO;
    for i in 0..3 {
        let ahead = file_bb(centre - 1 + i) & ahead_ranks;
        let ours = own & ahead;
        let shield_idx = if ours == 0 {
            0
        } else {
            distance(nearest(ours))
        };
        used(&p.king_shield[shield_idx]);
        total += p.king_shield[shield_idx];
        let theirs = opp & ahead;
        if theirs != 0 {
            let sq = nearest(theirs);
            // Blocked when our pawn stands right in front of it (from its point of view);
            // the stop square of a pawn ahead of the king is on the board.
            let stop = match color {
                Color::White => sq - 8,
                Color::Black => sq + 8,
            };
            let storm = if ours & (1u64 << stop) != 0 {
                &p.king_storm_blocked[distance(sq)]
            } else {
                &p.king_storm[distance(sq)]
            };
            used(storm);
            total += *storm;
        }
    }
    total
}

/// What the shelter of `color`'s king on `ksq` depends on besides the pawns: the king's rank
/// and file (a and b, g and h count as one: `shelter` looks at the same three files), and
/// which castling rights remain.
#[inline(always)]
pub(crate) fn shelter_key(board: &Board, color: Color, ksq: usize) -> u32 {
    let rights = board.castle_rights(color);
    u32::from(SHELTER_SQUARE[ksq & 63])
        | u32::from(rights.short.is_some()) << 6
        | u32::from(rights.long.is_some()) << 7
}

/// The square part of `shelter_key`: the rank's first square plus the file clamped to b-g.
const SHELTER_SQUARE: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut sq = 0;
    while sq < 64 {
        let file = sq & 7;
        let centre = if file < 1 {
            1
        } else if file > 6 {
            6
        } else {
            file
        };
        t[sq] = ((sq & !7) | centre) as u8;
        sq += 1;
    }
    t
};

/// Best shelter (pawn shield and storm) for `color`'s king on `ksq` among its square and
/// the squares castling would take it to.
#[inline(always)]
pub(crate) fn best_shelter(p: &EvalParams, board: &Board, color: Color, ksq: usize) -> S {
    best_shelter_square(p, board, color, ksq).0
}

/// `best_shelter`, with the weights of the shelter chosen counted in `sink` (the trace's
/// and the tuner's form).
pub(crate) fn best_shelter_counted<K: Sink>(
    p: &EvalParams,
    board: &Board,
    color: Color,
    ksq: usize,
    sink: &mut K,
) -> S {
    let (best, square) = best_shelter_square(p, board, color, ksq);
    let own = board.colored_pieces(color, Piece::Pawn).0;
    let opp = board.colored_pieces(!color, Piece::Pawn).0;
    shelter(p, color, square, own, opp, |w| sink.count(color, w, 1));
    best
}

/// The best shelter and the square it is for.
#[inline(always)]
fn best_shelter_square(p: &EvalParams, board: &Board, color: Color, ksq: usize) -> (S, usize) {
    match color {
        Color::White => best_shelter_of::<0>(p, board, ksq),
        Color::Black => best_shelter_of::<1>(p, board, ksq),
    }
}

/// `best_shelter_square` for the colour of index `US`, a constant in the shelter code.
#[inline(never)]
fn best_shelter_of<const US: usize>(p: &EvalParams, board: &Board, ksq: usize) -> (S, usize) {
    let color = if US == 0 { Color::White } else { Color::Black };
    let own = board.colored_pieces(color, Piece::Pawn).0;
    let opp = board.colored_pieces(!color, Piece::Pawn).0;
    let mut best = (shelter(p, color, ksq, own, opp, |_| ()), ksq);
    let rights = board.castle_rights(color);
    let back = if color == Color::White { 0 } else { 56 };
    if rights.short.is_some() {
        let alt = shelter(p, color, back + 6, own, opp, |_| ());
        if alt.mg > best.0.mg {
            best = (alt, back + 6);
        }
    }
    if rights.long.is_some() {
        let alt = shelter(p, color, back + 2, own, opp, |_| ());
        if alt.mg > best.0.mg {
            best = (alt, back + 2);
        }
    }
    best
}

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
    let safe = !board.colors(!color).0 & !m.all[us];
    let diag = get_bishop_moves(ksq, occ).0;
    let line = get_rook_moves(ksq, occ).0;
    let knight_sq = get_knight_moves(ksq).0;
    let checks = [
        (Piece::Knight, knight_sq),
        (Piece::Bishop, diag),
        (Piece::Rook, line),
        (Piece::Queen, diag | line),
    ];
    for (piece, from) in checks {
        if from & m.by[them][piece as usize] & safe != 0 {
            d += p.king_safe_check[piece as usize];
            sink.count(color, &p.king_safe_check[piece as usize], 1);
        }
    }
    if !enemy_queen {
        d -= p.king_no_queen;
        sink.count(color, &p.king_no_queen, -1);
    }
    sink.danger(color);
    d.clamp(0, p.king_danger_max.max(0))
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
    let cover = shelter[color as usize];
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
