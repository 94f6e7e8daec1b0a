//! Pawn shelter and storm in front of a king: the pawns on the three files around it, the
//! best of its own square and the squares castling would take it to, and the key under which
//! the pawn table caches that score. Used by the pawn table (`pawns.rs`), which caches it,
//! and by the trace and the tuner's record (`best_shelter_counted`, which also counts the
//! weights of the shelter chosen).

use cozy_chess::{Board, Color, Piece};

use super::params::EvalParams;
use super::score::S;
use super::sink::Sink;
use super::tables::{file_bb, relative_rank, FORWARD_RANKS};

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
