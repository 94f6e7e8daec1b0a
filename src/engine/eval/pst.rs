//! Default piece-square tables for wily, generated from a few simple placement rules
//! (centralisation, advancement, king shelter) rather than typed in by hand.
//!
//! Tables are from White's point of view with a1 = 0; Black uses the rank-mirrored square.
//! Piece material is not included (see `EvalParams::piece_value`).

use super::score::{s, S};

/// Distance of a file or rank index from the nearer edge: 0 on the edge, 3 in the centre.
fn centrality(x: usize) -> i32 {
    x.min(7 - x) as i32
}

fn pawn(sq: usize) -> S {
    let f = sq & 7;
    let r = sq >> 3;
    if r == 0 || r == 7 {
        return S::ZERO;
    }
    // Central files gain in the middlegame when advanced to the 4th/5th rank; flank pawns
    // matter little. Home-rank centre pawns get a small push to develop.
    const FILE_MG: [i32; 8] = [-4, 0, 3, 8, 8, 3, 0, -4];
    const RANK_MG: [i32; 8] = [0, -1, 1, 3, 4, 2, 1, 0];
    let mg = FILE_MG[f] * RANK_MG[r] / 2
        + if (3..=4).contains(&f) && r == 1 {
            -8
        } else {
            0
        };
    // In the endgame every step forward counts a little (passed pawns are valued apart).
    let eg = (r as i32 - 2) * 4;
    s(mg, eg)
}

fn knight(sq: usize) -> S {
    let cf = centrality(sq & 7);
    let cr = centrality(sq >> 3);
    let r = sq >> 3;
    let forward = match r {
        3 => 4,
        4 => 8,
        5 => 6,
        _ => 0,
    };
    let rim = if cf == 0 || cr == 0 { -8 } else { 0 };
    s(
        7 * (cf + cr) - 20 + forward + rim,
        5 * (cf + cr) - 15 + rim / 2,
    )
}

fn bishop(sq: usize) -> S {
    let f = sq & 7;
    let r = sq >> 3;
    let cf = centrality(f);
    let cr = centrality(r);
    let long_diagonal = if f == r || f + r == 7 { 6 } else { 0 };
    let back = if r == 0 { -6 } else { 0 };
    s(3 * (cf + cr) - 8 + long_diagonal + back, 3 * (cf + cr) - 9)
}

fn rook(sq: usize) -> S {
    let f = sq & 7;
    let r = sq >> 3;
    let file = match f {
        3 | 4 => 4,
        0 | 7 => -3,
        _ => 0,
    };
    let rank = match r {
        6 => 10,
        7 => 4,
        _ => 0,
    };
    s(file + rank, if r == 6 { 6 } else { 0 })
}

fn queen(sq: usize) -> S {
    let cf = centrality(sq & 7);
    let cr = centrality(sq >> 3);
    let r = sq >> 3;
    let early = if r >= 5 { -4 } else { 0 };
    s(2 * (cf + cr) - 6 + early, 4 * (cf + cr) - 12)
}

fn king(sq: usize) -> S {
    let f = sq & 7;
    let r = sq >> 3;
    let cf = centrality(f);
    let cr = centrality(r);
    // Middlegame: stay behind the pawns, preferably on a castled square.
    const HOME: [i32; 8] = [18, 26, 8, -6, -6, 6, 28, 18];
    let mg = match r {
        0 => HOME[f],
        1 => HOME[f] / 2 - 10,
        _ => -18 * r as i32 - 4 * cf,
    };
    // Endgame: the king belongs in the centre.
    let eg = 9 * (cf + cr) - 27;
    s(mg, eg)
}

/// The default tables, indexed `[piece as usize][square]`.
pub fn default_pst() -> [[S; 64]; 6] {
    let rules: [fn(usize) -> S; 6] = [pawn, knight, bishop, rook, queen, king];
    let mut t = [[S::ZERO; 64]; 6];
    for (table, rule) in t.iter_mut().zip(rules) {
        for (sq, v) in table.iter_mut().enumerate() {
            *v = rule(sq);
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_prefer_sensible_squares() {
        let t = default_pst();
        // Knight: d4 (27) better than a1 (0).
        assert!(t[1][27].mg > t[1][0].mg && t[1][27].eg > t[1][0].eg);
        // King: g1 (6) better than e3 (20) in the middlegame, worse in the endgame.
        assert!(t[5][6].mg > t[5][20].mg);
        assert!(t[5][6].eg < t[5][27].eg);
        // Pawn: e4 (28) better than e2 (12) in the middlegame.
        assert!(t[0][28].mg > t[0][12].mg);
    }
}
