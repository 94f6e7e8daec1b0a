//! wily's training-position file (`*.wpos`), written by `wily datagen`, `wily nnue
//! convert` and the bot (its own server games, `paths.training_positions`) and read by
//! `wily nnue train`. The format depends on no engine: a 16-byte header, then records of
//! 32 bytes each, all integers little-endian.
//!
//! Header: the magic `WILYPOS1` (8 bytes), the version (`u32`, 1) and the record size
//! (`u32`, 32).
//!
//! Record:
//!
//! | bytes | field |
//! | --- | --- |
//! | 0..8 | occupancy (`u64`, bit `i` = square `i`, a1 = 0, h8 = 63) |
//! | 8..24 | one nibble per occupied square, in ascending square order, low nibble first: colour << 3 \| piece (pawn 0, knight 1, bishop 2, rook 3, queen 4, king 5) |
//! | 24..26 | score (`i16`), centipawns from the side to move's view |
//! | 26 | flags: bit 0 black to move; bits 1-2 the game's result from the side to move's view (0 loss, 1 draw, 2 win); bit 3 the game's last record |
//! | 27 | full-move number, capped at 255 |
//! | 28..32 | the game's number in the file's generation (`u32`) |
//!
//! A game's records are appended in one write; the last-record flag lets a resumed
//! generation drop a game cut off by a crash (see [`open_for_append`]).

use cozy_chess::{Board, Color, Piece};
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};

use std::path::Path;

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"WILYPOS1";
/// The format's version.
pub const VERSION: u32 = 1;
/// Bytes of the header.
pub const HEADER_BYTES: usize = 16;
/// Bytes of one record.
pub const RECORD_BYTES: usize = 32;

/// A game's result from one side's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Loss = 0,
    Draw = 1,
    Win = 2,
}

impl Outcome {
    /// The same result seen from the other side.
    pub fn flip(self) -> Outcome {
        match self {
            Outcome::Loss => Outcome::Win,
            Outcome::Draw => Outcome::Draw,
            Outcome::Win => Outcome::Loss,
        }
    }

    /// 0, 0.5 or 1.
    pub fn value(self) -> f32 {
        self as u8 as f32 / 2.0
    }
}

/// One training position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    pub occupied: u64,
    pub pieces: [u8; 16],
    /// Centipawns from the side to move's view.
    pub score: i16,
    pub black_to_move: bool,
    /// From the side to move's view.
    pub outcome: Outcome,
    pub last_of_game: bool,
    pub fullmove: u8,
    pub game: u32,
}

impl Record {
    /// The record of `board` (at most 32 pieces, which every legal position has).
    pub fn from_board(board: &Board, score: i16, outcome: Outcome, game: u32) -> Record {
        let mut pieces = [0u8; 16];
        let occ = board.occupied();
        for (i, sq) in occ.into_iter().enumerate().take(32) {
            let piece = board.piece_on(sq).map_or(0, |p| p as u8);
            let color = board.color_on(sq).map_or(0, |c| c as u8);
            let code = color << 3 | piece;
            pieces[i / 2] |= code << (4 * (i % 2));
        }
        Record {
            occupied: occ.0,
            pieces,
            score,
            black_to_move: board.side_to_move() == Color::Black,
            outcome,
            last_of_game: false,
            fullmove: board.fullmove_number().min(255) as u8,
            game,
        }
    }

    /// The record's 32 bytes.
    pub fn encode(&self) -> [u8; RECORD_BYTES] {
        let mut b = [0u8; RECORD_BYTES];
        b[0..8].copy_from_slice(&self.occupied.to_le_bytes());
        b[8..24].copy_from_slice(&self.pieces);
        b[24..26].copy_from_slice(&self.score.to_le_bytes());
        b[26] = u8::from(self.black_to_move)
            | (self.outcome as u8) << 1
            | u8::from(self.last_of_game) << 3;
        b[27] = self.fullmove;
        b[28..32].copy_from_slice(&self.game.to_le_bytes());
        b
    }

    /// Reads a record, refusing impossible contents.
    pub fn decode(b: &[u8; RECORD_BYTES]) -> Result<Record, String> {
        let occupied = u64::from_le_bytes(b[0..8].try_into().expect("8 bytes"));
        if occupied.count_ones() > 32 {
            return Err(format!("{} pieces on the board", occupied.count_ones()));
        }
        let mut pieces = [0u8; 16];
        pieces.copy_from_slice(&b[8..24]);
        let n = occupied.count_ones() as usize;
        for i in 0..n {
            let code = (pieces[i / 2] >> (4 * (i % 2))) & 15;
            if code & 7 > 5 {
                return Err(format!("piece code {code}"));
            }
        }
        let flags = b[26];
        let outcome = match (flags >> 1) & 3 {
            0 => Outcome::Loss,
            1 => Outcome::Draw,
            2 => Outcome::Win,
            r => return Err(format!("result code {r}")),
        };
        if flags >> 4 != 0 {
            return Err(format!("unknown flags {flags:#x}"));
        }
        Ok(Record {
            occupied,
            pieces,
            score: i16::from_le_bytes([b[24], b[25]]),
            black_to_move: flags & 1 != 0,
            outcome,
            last_of_game: flags & 8 != 0,
            fullmove: b[27],
            game: u32::from_le_bytes(b[28..32].try_into().expect("4 bytes")),
        })
    }

    /// The pieces as (colour, piece, square) with colour 0 white, piece 0 pawn .. 5 king.
    pub fn placements(&self) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
        let mut occ = self.occupied;
        let mut i = 0;
        std::iter::from_fn(move || {
            if occ == 0 {
                return None;
            }
            let sq = occ.trailing_zeros() as usize;
            occ &= occ - 1;
            let code = (self.pieces[i / 2] >> (4 * (i % 2))) & 15;
            i += 1;
            Some((usize::from(code >> 3), usize::from(code & 7), sq))
        })
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        if self.black_to_move {
            Color::Black
        } else {
            Color::White
        }
    }
}

/// The piece of code `p` (0 pawn .. 5 king).
pub fn piece_of(p: usize) -> Piece {
    Piece::ALL[p.min(5)]
}

/// Scores at least this large are mates: no record is written for them.
pub const MATE_LIMIT: i32 = 20_000;

/// Whether a position searched to `score` (centipawns), where `best` was played, is worth
/// a record: not in check, a quiet move played (no capture or promotion), not a mate.
/// `wily datagen`, `wily nnue convert` and the bot all keep positions by this rule.
pub fn worth_keeping(board: &Board, best: cozy_chess::Move, score: i32) -> bool {
    board.checkers().is_empty()
        && !crate::see::is_capture(board, best)
        && best.promotion.is_none()
        && score.abs() < MATE_LIMIT
}

impl Outcome {
    /// The result of a PGN result string from White's view; `None` for `*` and others.
    pub fn from_pgn_white(result: &str) -> Option<Outcome> {
        match result.trim() {
            "1-0" => Some(Outcome::Win),
            "0-1" => Some(Outcome::Loss),
            "1/2-1/2" => Some(Outcome::Draw),
            _ => None,
        }
    }
}

/// The file's 16 header bytes.
pub fn header() -> [u8; HEADER_BYTES] {
    let mut h = [0u8; HEADER_BYTES];
    h[0..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h[12..16].copy_from_slice(&(RECORD_BYTES as u32).to_le_bytes());
    h
}

fn check_header(h: &[u8], path: &Path) -> Result<(), String> {
    if h.len() < HEADER_BYTES || &h[0..8] != MAGIC {
        return Err(format!("{}: not a wily position file", path.display()));
    }
    if h[8..16] != header()[8..16] {
        return Err(format!(
            "{}: position file version or record size not supported",
            path.display()
        ));
    }
    Ok(())
}

/// Opens `path` for appending games (creating it with its header when missing or empty)
/// and returns the file and the number of the next game. A trailing partial record and a
/// game without its last record (a generation killed while writing) are cut off, with a
/// warning.
pub fn open_for_append(path: &Path) -> Result<(File, u32), String> {
    let err = |e: std::io::Error| format!("{}: {e}", path.display());
    let mut f = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(err)?;
    let len = f.metadata().map_err(err)?.len() as usize;
    if len == 0 {
        f.write_all(&header()).map_err(err)?;
        return Ok((f, 0));
    }
    let mut h = [0u8; HEADER_BYTES];
    f.read_exact(&mut h)
        .map_err(|_| format!("{}: not a wily position file (too short)", path.display()))?;
    check_header(&h, path)?;
    let body = len - HEADER_BYTES;
    let whole = body / RECORD_BYTES;
    if !body.is_multiple_of(RECORD_BYTES) {
        tracing::warn!(
            "{}: dropping a truncated last record ({} bytes)",
            path.display(),
            body % RECORD_BYTES
        );
        eprintln!(
            "warning: {}: dropping a truncated last record ({} bytes)",
            path.display(),
            body % RECORD_BYTES
        );
    }
    // Walk back to the last record that ends a game.
    let mut keep = whole;
    let mut next_game = 0;
    let mut rec = [0u8; RECORD_BYTES];
    while keep > 0 {
        f.seek(SeekFrom::Start(
            (HEADER_BYTES + (keep - 1) * RECORD_BYTES) as u64,
        ))
        .map_err(err)?;
        f.read_exact(&mut rec).map_err(err)?;
        let r = Record::decode(&rec)
            .map_err(|e| format!("{}: record {}: {e}", path.display(), keep - 1))?;
        if r.last_of_game {
            next_game = r.game + 1;
            break;
        }
        keep -= 1;
    }
    if keep < whole {
        eprintln!(
            "warning: {}: dropping {} records of an unfinished game",
            path.display(),
            whole - keep
        );
    }
    f.set_len((HEADER_BYTES + keep * RECORD_BYTES) as u64)
        .map_err(err)?;
    f.seek(SeekFrom::End(0)).map_err(err)?;
    Ok((f, next_game))
}

/// Every good record of a position file's bytes (`name` for messages) and how many
/// damaged ones were skipped; a trailing partial record is left out with a warning. Bytes
/// without the header are an error.
pub fn parse_records(bytes: &[u8], name: &Path) -> Result<(Vec<Record>, usize), String> {
    check_header(bytes, name)?;
    let body = &bytes[HEADER_BYTES..];
    if !body.len().is_multiple_of(RECORD_BYTES) {
        eprintln!(
            "warning: {}: ignoring a truncated last record",
            name.display()
        );
    }
    let mut records = Vec::with_capacity(body.len() / RECORD_BYTES);
    let mut skipped = 0;
    for c in body.chunks_exact(RECORD_BYTES) {
        match Record::decode(c.try_into().expect("32 bytes")) {
            Ok(r) => records.push(r),
            Err(_) => skipped += 1,
        }
    }
    Ok((records, skipped))
}

/// Every record of `path` (a plain `.wpos`); a damaged record is an error.
pub fn read_records(path: &Path) -> Result<Vec<Record>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let (records, skipped) = parse_records(&bytes, path)?;
    if skipped > 0 {
        return Err(format!("{}: {skipped} damaged records", path.display()));
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_and_keep_the_pieces() {
        let board: Board = "r3k2r/pppq1ppp/2n5/3Pp3/8/5N2/PPP2PPP/R2QKB1R b KQkq - 3 11"
            .parse()
            .unwrap();
        let mut r = Record::from_board(&board, -123, Outcome::Win, 77);
        r.last_of_game = true;
        let back = Record::decode(&r.encode()).unwrap();
        assert_eq!(back, r);
        assert!(back.black_to_move);
        assert_eq!(back.fullmove, 11);
        let mut n = 0;
        for (c, p, sq) in back.placements() {
            let square = cozy_chess::Square::index(sq);
            assert_eq!(board.piece_on(square), Some(piece_of(p)));
            assert_eq!(board.color_on(square).map(|c| c as usize), Some(c));
            n += 1;
        }
        assert_eq!(n, board.occupied().len());
    }

    #[test]
    fn bad_records_are_refused() {
        let board = Board::default();
        let mut b = Record::from_board(&board, 0, Outcome::Draw, 0).encode();
        b[26] = 3 << 1;
        assert!(Record::decode(&b).is_err());
        let mut b = Record::from_board(&board, 0, Outcome::Draw, 0).encode();
        b[8] = 0x07;
        assert!(Record::decode(&b).is_err());
    }

    #[test]
    fn append_drops_a_torn_record_and_an_unfinished_game() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.wpos");
        let (mut f, next) = open_for_append(&path).unwrap();
        assert_eq!(next, 0);
        let board = Board::default();
        let mut a = Record::from_board(&board, 5, Outcome::Draw, 0);
        a.last_of_game = true;
        let b = Record::from_board(&board, 7, Outcome::Win, 1);
        f.write_all(&a.encode()).unwrap();
        f.write_all(&b.encode()).unwrap();
        f.write_all(&b.encode()[..13]).unwrap();
        drop(f);
        let (f, next) = open_for_append(&path).unwrap();
        drop(f);
        assert_eq!(next, 1);
        let recs = read_records(&path).unwrap();
        assert_eq!(recs, vec![a]);
        // A damaged record is skipped by the lenient reader and refused by the strict one.
        let mut bytes = std::fs::read(&path).unwrap();
        bytes.extend_from_slice(&a.encode());
        bytes[HEADER_BYTES + 26] = 0xff;
        std::fs::write(&path, &bytes).unwrap();
        let (recs, skipped) = parse_records(&std::fs::read(&path).unwrap(), &path).unwrap();
        assert_eq!((recs.len(), skipped), (1, 1));
        assert!(read_records(&path).unwrap_err().contains("1 damaged"));
        std::fs::write(&path, b"not a position file").unwrap();
        assert!(open_for_append(&path).is_err());
        assert!(read_records(&path).is_err());
    }
}
