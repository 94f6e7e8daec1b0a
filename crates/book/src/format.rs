//! wily's own book file: a sorted array of fixed-size entries behind a checked header,
//! read through a memory map with binary search and written atomically.
//!
//! Layout (all integers little-endian):
//!
//! ```text
//! header, 64 bytes
//!   0  magic        b"WILYBOOK"
//!   8  version      u32 (1)
//!  12  entry size   u32 (24)
//!  16  entry count  u64
//!  24  checksum     u64 (FNV-1a over the entry bytes, 8 bytes at a time)
//!  32  games        u64 (games read from the source PGN)
//!  40  max plies    u16, min games u16, win percentage u16 (build parameters)
//!  46  kind         u8 (0 big book, 1 small hand-edited book)
//!  47  reserved     17 bytes of zero
//! entries, 24 bytes each, sorted by (key, move)
//!   0  key          u64  Polyglot key of the position (chess::polyglot)
//!   8  move         u16  Polyglot move code (castling as king takes rook)
//!  10  flags        u8   bit 0 `!`, bit 1 `?`, bit 2 a `{play NN%}` is set
//!  11  play         u8   the NN of `{play NN%}`
//!  12  wins         u32  games the side to move won after this move
//!  16  draws        u32
//!  20  losses       u32
//! ```

use super::atomic::write_atomically;
use super::error::BookError;
use memmap2::Mmap;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

pub const MAGIC: &[u8; 8] = b"WILYBOOK";
pub const VERSION: u32 = 1;
pub const HEADER_LEN: usize = 64;
pub const ENTRY_LEN: usize = 24;

/// Entry flag: `!` in the small book (play only such moves).
pub const FLAG_GOOD: u8 = 1;
/// Entry flag: `?` in the small book (never play this move).
pub const FLAG_BAD: u8 = 2;
/// Entry flag: `{play NN%}` given; the percentage is in [`BookEntry::play`].
pub const FLAG_PLAY: u8 = 4;

/// Which kind of book a file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BookKind {
    /// Built from a large game collection (`book create`).
    Big,
    /// Hand-edited repertoire with `!`, `?` and `{play NN%}` (`books create`).
    Small,
}

/// One (position, move) record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct BookEntry {
    pub key: u64,
    /// Polyglot move code; decode with [`chess::polyglot::decode_move`].
    pub mv: u16,
    pub flags: u8,
    pub play: u8,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl BookEntry {
    pub fn games(&self) -> u64 {
        u64::from(self.wins) + u64::from(self.draws) + u64::from(self.losses)
    }

    fn encode(&self, out: &mut [u8; ENTRY_LEN]) {
        out[0..8].copy_from_slice(&self.key.to_le_bytes());
        out[8..10].copy_from_slice(&self.mv.to_le_bytes());
        out[10] = self.flags;
        out[11] = self.play;
        out[12..16].copy_from_slice(&self.wins.to_le_bytes());
        out[16..20].copy_from_slice(&self.draws.to_le_bytes());
        out[20..24].copy_from_slice(&self.losses.to_le_bytes());
    }

    fn decode(b: &[u8]) -> Option<BookEntry> {
        Some(BookEntry {
            key: u64::from_le_bytes(b.get(0..8)?.try_into().ok()?),
            mv: u16::from_le_bytes(b.get(8..10)?.try_into().ok()?),
            flags: *b.get(10)?,
            play: *b.get(11)?,
            wins: u32::from_le_bytes(b.get(12..16)?.try_into().ok()?),
            draws: u32::from_le_bytes(b.get(16..20)?.try_into().ok()?),
            losses: u32::from_le_bytes(b.get(20..24)?.try_into().ok()?),
        })
    }
}

/// Build parameters and counts recorded in the header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookHeader {
    pub kind: BookKind,
    pub entries: u64,
    pub games: u64,
    pub max_plies: u16,
    pub min_games: u16,
    pub wpct: u16,
}

/// The remedy printed with every error about a damaged book file.
pub fn rebuild_hint(kind: Option<BookKind>) -> String {
    match kind {
        Some(BookKind::Small) => {
            "rebuild it with `wily books create FILE.pgn M` (see docs/book.md)".to_string()
        }
        _ => "rebuild it with `wily book create FILE.pgn M [N] [WPCT]` \
              (see docs/book.md)"
            .to_string(),
    }
}

fn checksum(bytes: &[u8]) -> u64 {
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        h = (h ^ u64::from_le_bytes(w)).wrapping_mul(PRIME);
    }
    for &b in chunks.remainder() {
        h = (h ^ u64::from(b)).wrapping_mul(PRIME);
    }
    h
}

/// Writes a book file atomically. `entries` must be sorted by (key, move) with no
/// duplicates; [`write_book`] checks this and refuses otherwise.
pub fn write_book(
    path: &Path,
    header: &BookHeader,
    entries: &[BookEntry],
) -> Result<(), BookError> {
    if entries
        .windows(2)
        .any(|w| (w[0].key, w[0].mv) >= (w[1].key, w[1].mv))
    {
        return Err(BookError::Build(
            "internal error: book entries are not sorted".to_string(),
        ));
    }
    let mut body = Vec::with_capacity(entries.len() * ENTRY_LEN);
    let mut buf = [0u8; ENTRY_LEN];
    for e in entries {
        e.encode(&mut buf);
        body.extend_from_slice(&buf);
    }
    let mut head = [0u8; HEADER_LEN];
    head[0..8].copy_from_slice(MAGIC);
    head[8..12].copy_from_slice(&VERSION.to_le_bytes());
    head[12..16].copy_from_slice(&(ENTRY_LEN as u32).to_le_bytes());
    head[16..24].copy_from_slice(&(entries.len() as u64).to_le_bytes());
    head[24..32].copy_from_slice(&checksum(&body).to_le_bytes());
    head[32..40].copy_from_slice(&header.games.to_le_bytes());
    head[40..42].copy_from_slice(&header.max_plies.to_le_bytes());
    head[42..44].copy_from_slice(&header.min_games.to_le_bytes());
    head[44..46].copy_from_slice(&header.wpct.to_le_bytes());
    head[46] = match header.kind {
        BookKind::Big => 0,
        BookKind::Small => 1,
    };
    if let Some(dir) = path.parent() {
        if !dir.as_os_str().is_empty() && !dir.exists() {
            std::fs::create_dir_all(dir).map_err(|e| BookError::io(dir, "create directory", e))?;
        }
    }
    write_atomically(path, |w| {
        w.write_all(&head)?;
        w.write_all(&body)
    })
    .map_err(|e| BookError::io(path, "write", e))
}

/// An open, validated book file.
pub struct BookFile {
    path: PathBuf,
    map: Mmap,
    header: BookHeader,
}

impl std::fmt::Debug for BookFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BookFile")
            .field("path", &self.path)
            .field("header", &self.header)
            .finish()
    }
}

impl BookFile {
    /// Opens and validates a book file: magic, version, length, checksum and order are all
    /// checked, so a truncated, foreign or damaged file is refused with a clear message.
    pub fn open(path: &Path) -> Result<BookFile, BookError> {
        let file = File::open(path).map_err(|e| BookError::io(path, "open book", e))?;
        let len = file
            .metadata()
            .map_err(|e| BookError::io(path, "read book", e))?
            .len();
        if len < HEADER_LEN as u64 {
            return Err(BookError::corrupt(
                path,
                format!("only {len} bytes, shorter than the {HEADER_LEN}-byte header"),
                rebuild_hint(None),
            ));
        }
        // SAFETY: the file is opened read-only. wily never writes a book file in place (it
        // writes a temporary file and renames it over the old one), so the mapped inode
        // does not change while it is mapped. The contents are validated below before use
        // and are only ever read through bounds-checked slices.
        let map = unsafe { Mmap::map(&file) }.map_err(|e| BookError::io(path, "map book", e))?;
        let header = Self::validate(path, &map)?;
        Ok(BookFile {
            path: path.to_path_buf(),
            map,
            header,
        })
    }

    fn validate(path: &Path, bytes: &[u8]) -> Result<BookHeader, BookError> {
        let head = bytes.get(..HEADER_LEN).unwrap_or_default();
        if head.get(0..8) != Some(&MAGIC[..]) {
            let what = if bytes.len() >= 16 && bytes.len().is_multiple_of(16) {
                "no wily book header; if it is a Polyglot .bin book, load it with \
                 `book polyglot FILE`"
            } else {
                "no wily book header"
            };
            return Err(BookError::corrupt(path, what, rebuild_hint(None)));
        }
        let u16_at = |o: usize| u16::from_le_bytes([head[o], head[o + 1]]);
        let u32_at = |o: usize| {
            let mut b = [0u8; 4];
            b.copy_from_slice(&head[o..o + 4]);
            u32::from_le_bytes(b)
        };
        let u64_at = |o: usize| {
            let mut b = [0u8; 8];
            b.copy_from_slice(&head[o..o + 8]);
            u64::from_le_bytes(b)
        };
        let kind = match head[46] {
            0 => BookKind::Big,
            1 => BookKind::Small,
            k => {
                return Err(BookError::corrupt(
                    path,
                    format!("unknown book kind {k} in the header"),
                    rebuild_hint(None),
                ))
            }
        };
        let version = u32_at(8);
        if version != VERSION {
            return Err(BookError::Version {
                path: path.to_path_buf(),
                found: version,
                supported: VERSION,
            });
        }
        if u32_at(12) as usize != ENTRY_LEN {
            return Err(BookError::corrupt(
                path,
                format!("entry size {} instead of {ENTRY_LEN}", u32_at(12)),
                rebuild_hint(Some(kind)),
            ));
        }
        let entries = u64_at(16);
        let expected = entries
            .checked_mul(ENTRY_LEN as u64)
            .and_then(|n| n.checked_add(HEADER_LEN as u64));
        if expected != Some(bytes.len() as u64) {
            return Err(BookError::corrupt(
                path,
                format!(
                    "the header promises {entries} entries but the file has {} bytes \
                     (truncated or damaged)",
                    bytes.len()
                ),
                rebuild_hint(Some(kind)),
            ));
        }
        let body = &bytes[HEADER_LEN..];
        if checksum(body) != u64_at(24) {
            return Err(BookError::corrupt(
                path,
                "checksum mismatch (the file is damaged)",
                rebuild_hint(Some(kind)),
            ));
        }
        let mut prev: Option<(u64, u16)> = None;
        for chunk in body.chunks_exact(ENTRY_LEN) {
            let e = BookEntry::decode(chunk).unwrap_or_default();
            if prev.is_some_and(|p| p >= (e.key, e.mv)) {
                return Err(BookError::corrupt(
                    path,
                    "entries out of order",
                    rebuild_hint(Some(kind)),
                ));
            }
            prev = Some((e.key, e.mv));
        }
        Ok(BookHeader {
            kind,
            entries,
            games: u64_at(32),
            max_plies: u16_at(40),
            min_games: u16_at(42),
            wpct: u16_at(44),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn header(&self) -> &BookHeader {
        &self.header
    }

    pub fn len(&self) -> usize {
        self.header.entries as usize
    }

    pub fn is_empty(&self) -> bool {
        self.header.entries == 0
    }

    /// Entry `i` (in key order).
    pub fn entry(&self, i: usize) -> Option<BookEntry> {
        let start = HEADER_LEN.checked_add(i.checked_mul(ENTRY_LEN)?)?;
        BookEntry::decode(self.map.get(start..start.checked_add(ENTRY_LEN)?)?)
    }

    fn key_at(&self, i: usize) -> u64 {
        let start = HEADER_LEN + i * ENTRY_LEN;
        match self.map.get(start..start + 8) {
            Some(b) => {
                let mut k = [0u8; 8];
                k.copy_from_slice(b);
                u64::from_le_bytes(k)
            }
            None => u64::MAX,
        }
    }

    /// Every entry stored for `key` (binary search; no allocation when there is none).
    pub fn probe(&self, key: u64) -> Vec<BookEntry> {
        // First index whose key is >= `key`.
        let (mut lo, mut hi) = (0usize, self.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.key_at(mid) < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        let mut out = Vec::new();
        let mut i = lo;
        while i < self.len() && self.key_at(i) == key {
            if let Some(e) = self.entry(i) {
                out.push(e);
            }
            i += 1;
        }
        out
    }

    /// All entries in key order.
    pub fn iter(&self) -> impl Iterator<Item = BookEntry> + '_ {
        (0..self.len()).filter_map(move |i| self.entry(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file `name` in a fresh scratch folder, with the folder's guard.
    fn tmp(name: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = testkit::scratch::dir("format");
        let path = dir.path().join(name);
        (dir, path)
    }

    fn header() -> BookHeader {
        BookHeader {
            kind: BookKind::Big,
            entries: 0,
            games: 7,
            max_plies: 20,
            min_games: 1,
            wpct: 0,
        }
    }

    #[test]
    fn round_trip_and_probe() {
        let (_dir, path) = tmp("rt.wbk");
        let entries: Vec<BookEntry> = [(1u64, 5u16), (3, 1), (3, 9), (8, 2)]
            .iter()
            .map(|&(key, mv)| BookEntry {
                key,
                mv,
                wins: u32::from(mv),
                ..Default::default()
            })
            .collect();
        write_book(&path, &header(), &entries).expect("write");
        let book = BookFile::open(&path).expect("open");
        assert_eq!(book.len(), 4);
        assert_eq!(book.header().games, 7);
        assert_eq!(book.probe(3).len(), 2);
        assert_eq!(book.probe(3)[1].wins, 9);
        assert!(book.probe(2).is_empty());
        assert!(book.probe(9).is_empty());
        assert_eq!(book.probe(1)[0].mv, 5);
    }

    #[test]
    fn damaged_files_are_refused() {
        let (_dir, path) = tmp("dmg.wbk");
        let entries = vec![BookEntry {
            key: 1,
            mv: 2,
            ..Default::default()
        }];
        write_book(&path, &header(), &entries).expect("write");
        let good = std::fs::read(&path).expect("read");
        // Truncated.
        std::fs::write(&path, &good[..good.len() - 3]).expect("write");
        let e = BookFile::open(&path).expect_err("truncated").to_string();
        assert!(
            e.contains("truncated") && e.contains("wily book create"),
            "{e}"
        );
        // Flipped byte in the body.
        let mut bad = good.clone();
        let last = bad.len() - 1;
        bad[last] ^= 1;
        std::fs::write(&path, &bad).expect("write");
        let e = BookFile::open(&path).expect_err("checksum").to_string();
        assert!(e.contains("checksum"), "{e}");
        // Garbage and empty.
        std::fs::write(&path, b"hello, not a book").expect("write");
        assert!(BookFile::open(&path).is_err());
        std::fs::write(&path, b"").expect("write");
        let e = BookFile::open(&path).expect_err("empty").to_string();
        assert!(e.contains(path.to_string_lossy().as_ref()), "{e}");
    }
}
