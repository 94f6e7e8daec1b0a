//! Material signatures of tablebase positions: the piece counts of each side (kings
//! implied), read from a board or from a Syzygy file name such as `KRPvKR`, packed in a
//! small key, and the materials a capture or a promotion leads to.

use cozy_chess::{Board, Color, Piece};

/// The non-king piece kinds in the order Syzygy names list them.
const KINDS: [Piece; 5] = [
    Piece::Queen,
    Piece::Rook,
    Piece::Bishop,
    Piece::Knight,
    Piece::Pawn,
];

/// Most pieces (kings included) any Syzygy table has.
pub const MAX_TB_PIECES: u32 = 7;

/// Piece counts of both sides, kings not counted: `counts[side][kind]`, kinds as in
/// [`KINDS`] (queen, rook, bishop, knight, pawn), side 0 = White.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    counts: [[u8; 5]; 2],
}

fn kind_index(p: Piece) -> Option<usize> {
    KINDS.iter().position(|&k| k == p)
}

fn letter(p: Piece) -> char {
    match p {
        Piece::Queen => 'Q',
        Piece::Rook => 'R',
        Piece::Bishop => 'B',
        Piece::Knight => 'N',
        Piece::Pawn => 'P',
        Piece::King => 'K',
    }
}

impl Material {
    /// The material on `board`.
    #[inline]
    pub fn of(board: &Board) -> Material {
        let mut counts = [[0u8; 5]; 2];
        for (side, color) in [Color::White, Color::Black].into_iter().enumerate() {
            let ours = board.colors(color);
            for (k, &p) in KINDS.iter().enumerate() {
                counts[side][k] = (ours & board.pieces(p)).len() as u8;
            }
        }
        Material { counts }
    }

    /// Parses a table name such as `KQvKR` (first side White): each side is a king
    /// followed by queens, rooks, bishops, knights and pawns; at most seven pieces.
    pub fn parse(name: &str) -> Option<Material> {
        let (w, b) = name.split_once('v')?;
        let mut counts = [[0u8; 5]; 2];
        for (side, text) in [w, b].into_iter().enumerate() {
            let rest = text.strip_prefix('K')?;
            for c in rest.chars() {
                let k = match c {
                    'Q' => 0,
                    'R' => 1,
                    'B' => 2,
                    'N' => 3,
                    'P' => 4,
                    _ => return None,
                };
                counts[side][k] += 1;
            }
        }
        let m = Material { counts };
        (m.pieces() <= MAX_TB_PIECES).then_some(m)
    }

    /// The Syzygy-style name, `K..vK..` with White's pieces first.
    pub fn name(&self) -> String {
        let mut s = String::new();
        for side in 0..2 {
            if side == 1 {
                s.push('v');
            }
            s.push('K');
            for (k, &p) in KINDS.iter().enumerate() {
                for _ in 0..self.counts[side][k] {
                    s.push(letter(p));
                }
            }
        }
        s
    }

    /// All pieces, both kings included.
    pub fn pieces(&self) -> u32 {
        2 + self.counts.iter().flatten().map(|&c| c as u32).sum::<u32>()
    }

    /// Count of `piece` (not the king) of side `side` (0 = White).
    pub fn count(&self, side: usize, piece: Piece) -> u8 {
        kind_index(piece).map_or(1, |k| self.counts[side][k])
    }

    pub fn has_pawns(&self) -> bool {
        self.counts[0][4] + self.counts[1][4] > 0
    }

    /// The same material with the colours swapped.
    pub fn mirrored(&self) -> Material {
        Material {
            counts: [self.counts[1], self.counts[0]],
        }
    }

    /// Only the two kings.
    pub fn is_bare_kings(&self) -> bool {
        self.pieces() == 2
    }

    /// A number unique to this material (3 bits per count).
    pub fn key(&self) -> u32 {
        self.counts
            .iter()
            .flatten()
            .fold(0u32, |k, &c| (k << 3) | u32::from(c.min(7)))
    }

    /// The materials one capture or one promotion leads to (not the same material).
    pub fn successors(&self) -> Vec<Material> {
        let mut out = Vec::new();
        for side in 0..2 {
            for k in 0..5 {
                if self.counts[side][k] == 0 {
                    continue;
                }
                let mut captured = *self;
                captured.counts[side][k] -= 1;
                out.push(captured);
                if k == 4 {
                    for promoted in 0..4 {
                        let mut m = captured;
                        m.counts[side][promoted] += 1;
                        out.push(m);
                    }
                }
            }
        }
        out
    }

    /// The pieces as the table headers code them: 1..=6 White pawn, knight, bishop, rook,
    /// queen, king; 9..=14 the same for Black. Sorted.
    pub fn piece_codes(&self) -> Vec<u8> {
        let code = |p: Piece| -> u8 {
            match p {
                Piece::Pawn => 1,
                Piece::Knight => 2,
                Piece::Bishop => 3,
                Piece::Rook => 4,
                Piece::Queen => 5,
                Piece::King => 6,
            }
        };
        let mut out = vec![code(Piece::King), 8 | code(Piece::King)];
        for side in 0..2 {
            for (k, &p) in KINDS.iter().enumerate() {
                for _ in 0..self.counts[side][k] {
                    out.push(code(p) | (8 * side as u8));
                }
            }
        }
        out.sort_unstable();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::parse_fen;

    #[test]
    fn names_round_trip_and_bad_names_are_refused() {
        for name in ["KvK", "KQvK", "KRPvKR", "KBNvK", "KPvKP", "KQRBNvKP"] {
            let m = Material::parse(name).expect(name);
            assert_eq!(m.name(), name);
        }
        let m = Material::parse("KRPvKR").unwrap();
        assert_eq!(m.pieces(), 5);
        assert!(m.has_pawns());
        assert_eq!(m.mirrored().name(), "KRvKRP");
        for bad in ["", "KQK", "QvK", "KQvKX", "KQQQQQvKQ", "KQvQ"] {
            assert!(Material::parse(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn material_of_a_board_and_its_key() {
        let b = parse_fen("8/8/8/4k3/8/8/3PK3/6R1 w - - 0 1").unwrap();
        let m = Material::of(&b);
        assert_eq!(m.name(), "KRPvK");
        assert_eq!(m.key(), Material::parse("KRPvK").unwrap().key());
        assert_ne!(m.key(), m.mirrored().key());
        assert_eq!(m.count(0, Piece::Rook), 1);
        assert_eq!(m.count(1, Piece::Rook), 0);
    }

    #[test]
    fn successors_are_captures_and_promotions() {
        let m = Material::parse("KPvKR").unwrap();
        let names: Vec<String> = m.successors().iter().map(|s| s.name()).collect();
        for want in ["KvKR", "KQvKR", "KRvKR", "KBvKR", "KNvKR", "KPvK"] {
            assert!(names.contains(&want.to_string()), "{want} in {names:?}");
        }
        assert_eq!(names.len(), 6);
        assert_eq!(m.piece_codes(), vec![1, 6, 12, 14]);
    }
}
