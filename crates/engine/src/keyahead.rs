//! The hash key of the position after a move, worked out before the move is made.
//!
//! The search prefetches the child's hash-table bucket as soon as a move is picked, so
//! that the memory load overlaps the pruning decisions and the making of the move. The
//! key is cozy-chess's own Zobrist key (`Board::hash`, the table's key); its random
//! numbers are not public, so they are recovered once, through the public board builder,
//! as the key differences between positions that differ in one feature. A wrong
//! prediction (never seen in the tests) would only make a prefetch useless.

use cozy_chess::{BitBoard, Board, BoardBuilder, Color, File, Move, Piece, Rank, Square};
use std::sync::OnceLock;

/// Key differences, each recovered from two boards that differ in one feature.
struct KeyTable {
    /// Placing a (colour, piece) on a square; kings relative to a reference square.
    piece: [[[u64; 64]; 6]; 2],
    side: u64,
    en_passant: [u64; 8],
    /// A castling right (per colour and rook file).
    castle: [[u64; 8]; 2],
}

fn build(pieces: &[(Piece, Color, Square)], stm: Color) -> BoardBuilder {
    let mut b = BoardBuilder::empty();
    for &(p, c, sq) in pieces {
        b.board[sq as usize] = Some((p, c));
    }
    b.side_to_move = stm;
    b
}

fn hash(b: &BoardBuilder) -> Option<u64> {
    b.build().ok().map(|board| board.hash())
}

const CORNERS: [Square; 4] = [Square::A1, Square::H8, Square::H1, Square::A8];

fn adjacent_or_same(a: Square, b: Square) -> bool {
    (a.file() as i32 - b.file() as i32).abs() <= 1 && (a.rank() as i32 - b.rank() as i32).abs() <= 1
}

impl KeyTable {
    fn recover() -> KeyTable {
        let mut t = KeyTable {
            piece: [[[0; 64]; 6]; 2],
            side: 0,
            en_passant: [0; 8],
            castle: [[0; 8]; 2],
        };
        let kings = |wk: Square, bk: Square| {
            vec![
                (Piece::King, Color::White, wk),
                (Piece::King, Color::Black, bk),
            ]
        };
        // Side to move: bare kings, either side to move.
        let base = kings(Square::A1, Square::H8);
        t.side = hash(&build(&base, Color::White)).unwrap_or(0)
            ^ hash(&build(&base, Color::Black)).unwrap_or(0);
        // Pieces other than kings: with and without the piece, kings elsewhere.
        for color in Color::ALL {
            // Piece::ALL is pawn..queen, then the king.
            for &piece in &Piece::ALL[..Piece::King as usize] {
                for sq in Square::ALL {
                    'found: for (i, &wk) in CORNERS.iter().enumerate() {
                        let bk = CORNERS[i ^ 1];
                        if wk == sq || bk == sq {
                            continue;
                        }
                        for stm in Color::ALL {
                            let mut with = kings(wk, bk);
                            with.push((piece, color, sq));
                            if let (Some(a), Some(b)) =
                                (hash(&build(&with, stm)), hash(&build(&kings(wk, bk), stm)))
                            {
                                t.piece[color as usize][piece as usize][sq as usize] = a ^ b;
                                break 'found;
                            }
                        }
                    }
                }
            }
            // Kings: the difference to the same king on d4 (only differences are used).
            for sq in Square::ALL {
                let Some(&other) = CORNERS
                    .iter()
                    .find(|&&x| !adjacent_or_same(x, sq) && !adjacent_or_same(x, Square::D4))
                else {
                    continue;
                };
                let place = |k: Square| match color {
                    Color::White => kings(k, other),
                    Color::Black => kings(other, k),
                };
                if let (Some(a), Some(b)) = (
                    hash(&build(&place(sq), Color::White)),
                    hash(&build(&place(Square::D4), Color::White)),
                ) {
                    t.piece[color as usize][Piece::King as usize][sq as usize] = a ^ b;
                }
            }
            // Castling rights: a king and a rook on their back rank (the key depends on the
            // colour and the rook's file only).
            let back = Rank::First.relative_to(color);
            for file in File::ALL {
                let king_file = if file == File::E { File::F } else { File::E };
                // The other king off the rook's file, so it is not in check.
                let far = if file <= File::D { File::H } else { File::A };
                let (wk, bk) = match color {
                    Color::White => (Square::new(king_file, back), Square::new(far, Rank::Eighth)),
                    Color::Black => (Square::new(far, Rank::First), Square::new(king_file, back)),
                };
                let mut pieces = kings(wk, bk);
                pieces.push((Piece::Rook, color, Square::new(file, back)));
                let without = build(&pieces, Color::White);
                let mut with = without.clone();
                let rights = &mut with.castle_rights[color as usize];
                if file > king_file {
                    rights.short = Some(file);
                } else {
                    rights.long = Some(file);
                }
                if let (Some(a), Some(b)) = (hash(&with), hash(&without)) {
                    t.castle[color as usize][file as usize] = a ^ b;
                }
            }
        }
        // En passant: a black pawn just pushed two squares, White to move.
        for file in File::ALL {
            let mut pieces = kings(Square::E1, Square::E8);
            pieces.push((Piece::Pawn, Color::Black, Square::new(file, Rank::Fifth)));
            let without = build(&pieces, Color::White);
            let mut with = without.clone();
            with.en_passant = Some(Square::new(file, Rank::Sixth));
            if let (Some(a), Some(b)) = (hash(&with), hash(&without)) {
                t.en_passant[file as usize] = a ^ b;
            }
        }
        t
    }
}

fn table() -> &'static KeyTable {
    static TABLE: OnceLock<KeyTable> = OnceLock::new();
    TABLE.get_or_init(KeyTable::recover)
}

/// Makes sure the table is ready (so the first search does not pay for it).
pub fn init() {
    table();
}

/// `board.hash()` after the legal move `mv` of `piece`, capturing `victim` (a pawn for en
/// passant), as `Board::play_unchecked` would leave it.
#[inline]
pub fn key_after(board: &Board, mv: Move, piece: Piece, victim: Option<Piece>) -> u64 {
    let t = table();
    let us = board.side_to_move();
    let them = !us;
    let u = us as usize;
    let th = them as usize;
    let mut h = board.hash() ^ t.side;
    if let Some(f) = board.en_passant() {
        h ^= t.en_passant[f as usize];
    }
    let ours = board.castle_rights(us);
    let clear = |h: &mut u64, color: usize, right: Option<File>| {
        if let Some(f) = right {
            *h ^= t.castle[color][f as usize];
        }
    };
    if piece == Piece::King {
        let king = &t.piece[u][Piece::King as usize];
        if board.colors(us).has(mv.to) {
            // Castling, encoded as the king taking its own rook.
            let back = mv.from.rank();
            let (kf, rf) = if mv.from.file() < mv.to.file() {
                (File::G, File::F)
            } else {
                (File::C, File::D)
            };
            let rook = &t.piece[u][Piece::Rook as usize];
            h ^= king[mv.from as usize]
                ^ king[Square::new(kf, back) as usize]
                ^ rook[mv.to as usize]
                ^ rook[Square::new(rf, back) as usize];
            clear(&mut h, u, ours.short);
            clear(&mut h, u, ours.long);
            return h;
        }
        h ^= king[mv.from as usize] ^ king[mv.to as usize];
        clear(&mut h, u, ours.short);
        clear(&mut h, u, ours.long);
    } else {
        let placed = mv.promotion.unwrap_or(piece);
        h ^= t.piece[u][piece as usize][mv.from as usize]
            ^ t.piece[u][placed as usize][mv.to as usize];
        if piece == Piece::Pawn {
            let double = BitBoard(0x00FF_0000_0000_FF00).has(mv.from)
                && BitBoard(0x0000_00FF_FF00_0000).has(mv.to);
            if double {
                h ^= t.en_passant[mv.to.file() as usize];
            }
        } else if piece == Piece::Rook && mv.from.rank() == Rank::First.relative_to(us) {
            if Some(mv.from.file()) == ours.short {
                clear(&mut h, u, ours.short);
            } else if Some(mv.from.file()) == ours.long {
                clear(&mut h, u, ours.long);
            }
        }
    }
    if let Some(v) = victim {
        if piece == Piece::Pawn && !board.occupied().has(mv.to) {
            let sq = Square::new(mv.to.file(), mv.from.rank());
            h ^= t.piece[th][Piece::Pawn as usize][sq as usize];
            return h;
        }
        h ^= t.piece[th][v as usize][mv.to as usize];
        if mv.to.rank() == Rank::Eighth.relative_to(us) {
            let theirs = board.castle_rights(them);
            if Some(mv.to.file()) == theirs.short {
                clear(&mut h, th, theirs.short);
            } else if Some(mv.to.file()) == theirs.long {
                clear(&mut h, th, theirs.long);
            }
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    fn check_game(mut board: Board, rng: &mut rand::rngs::StdRng, plies: usize) -> usize {
        let mut checked = 0;
        for _ in 0..plies {
            let moves = crate::movepick::MoveList::legal(&board).as_slice().to_vec();
            if moves.is_empty() {
                break;
            }
            for &mv in &moves {
                let piece = board.piece_on(mv.from).expect("mover");
                let victim = if board.colors(board.side_to_move()).has(mv.to) {
                    None
                } else {
                    crate::see::captured_piece(&board, mv)
                };
                let mut child = board.clone();
                child.play_unchecked(mv);
                assert_eq!(
                    key_after(&board, mv, piece, victim),
                    child.hash(),
                    "{board} {mv}"
                );
                checked += 1;
            }
            board.play_unchecked(moves[rng.gen_range(0..moves.len())]);
        }
        checked
    }

    #[test]
    fn predicts_the_key_of_every_move_in_random_games() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        let mut checked = 0;
        for _ in 0..150 {
            checked += check_game(Board::default(), &mut rng, 150);
        }
        // Chess960 castling (king and rooks elsewhere) too.
        for n in [0, 100, 333, 959] {
            let board = BoardBuilder::chess960_startpos(n).build().expect("960");
            checked += check_game(board, &mut rng, 120);
        }
        assert!(checked > 100_000, "{checked}");
    }
}
