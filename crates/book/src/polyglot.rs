//! Reader for Polyglot `.bin` opening books: 16-byte big-endian entries (key, move,
//! weight, learn) sorted by key, read through a memory map (or, on request, a copy in
//! memory) with binary search.

use super::error::BookError;
use chess::polyglot::{decode_move, polyglot_key};
use cozy_chess::{Board, Move};
use memmap2::Mmap;
use std::fs::File;
use std::path::{Path, PathBuf};

const ENTRY: usize = 16;

/// One raw Polyglot entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PolyglotEntry {
    pub key: u64,
    pub mv: u16,
    pub weight: u16,
    pub learn: u32,
}

/// A book move from a Polyglot book, decoded against the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PolyglotMove {
    pub mv: Move,
    pub weight: u16,
    pub learn: u32,
}

/// Where an open book's bytes are.
enum Bytes {
    Map(Mmap),
    Ram(Vec<u8>),
}

impl Bytes {
    fn as_slice(&self) -> &[u8] {
        match self {
            Bytes::Map(m) => m,
            Bytes::Ram(v) => v,
        }
    }
}

/// An open Polyglot book.
pub struct PolyglotBook {
    path: PathBuf,
    map: Option<Bytes>,
    len: usize,
}

impl std::fmt::Debug for PolyglotBook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PolyglotBook")
            .field("path", &self.path)
            .field("entries", &self.len)
            .finish()
    }
}

fn hint() -> &'static str {
    "use a Polyglot .bin book here, or remove it with `book polyglot off`"
}

impl PolyglotBook {
    /// Opens a Polyglot book and checks that its length is a multiple of 16 and that its
    /// keys are sorted (a foreign or damaged file fails here, not at probe time).
    pub fn open(path: &Path) -> Result<PolyglotBook, BookError> {
        Self::open_as(path, false)
    }

    /// As [`PolyglotBook::open`], but the whole file is read into memory when `in_ram`
    /// (cutechess's `-bookmode ram`) instead of being mapped (`disk`).
    pub fn open_as(path: &Path, in_ram: bool) -> Result<PolyglotBook, BookError> {
        let file = File::open(path).map_err(|e| BookError::io(path, "open Polyglot book", e))?;
        let len = file
            .metadata()
            .map_err(|e| BookError::io(path, "read Polyglot book", e))?
            .len();
        if len % ENTRY as u64 != 0 {
            return Err(BookError::corrupt(
                path,
                format!("{len} bytes is not a whole number of 16-byte Polyglot entries"),
                hint(),
            ));
        }
        if len == 0 {
            return Ok(PolyglotBook {
                path: path.to_path_buf(),
                map: None,
                len: 0,
            });
        }
        let map = if in_ram {
            Bytes::Ram(
                std::fs::read(path).map_err(|e| BookError::io(path, "read Polyglot book", e))?,
            )
        } else {
            // SAFETY: opened read-only and never written by wily; every read below goes
            // through bounds-checked slices.
            Bytes::Map(
                unsafe { Mmap::map(&file) }
                    .map_err(|e| BookError::io(path, "map Polyglot book", e))?,
            )
        };
        let book = PolyglotBook {
            path: path.to_path_buf(),
            len: map.as_slice().len() / ENTRY,
            map: Some(map),
        };
        let mut prev = 0u64;
        for i in 0..book.len {
            let k = book.key_at(i);
            if k < prev {
                return Err(BookError::corrupt(
                    path,
                    format!("keys out of order at entry {i} (not a Polyglot book?)"),
                    hint(),
                ));
            }
            prev = k;
        }
        Ok(book)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn bytes(&self, i: usize) -> Option<&[u8]> {
        let start = i.checked_mul(ENTRY)?;
        self.map.as_ref()?.as_slice().get(start..start + ENTRY)
    }

    fn key_at(&self, i: usize) -> u64 {
        self.entry(i).map_or(u64::MAX, |e| e.key)
    }

    /// Entry `i` in file order.
    pub fn entry(&self, i: usize) -> Option<PolyglotEntry> {
        let b = self.bytes(i)?;
        Some(PolyglotEntry {
            key: u64::from_be_bytes(b.get(0..8)?.try_into().ok()?),
            mv: u16::from_be_bytes(b.get(8..10)?.try_into().ok()?),
            weight: u16::from_be_bytes(b.get(10..12)?.try_into().ok()?),
            learn: u32::from_be_bytes(b.get(12..16)?.try_into().ok()?),
        })
    }

    /// Raw entries for a key.
    pub fn probe_key(&self, key: u64) -> Vec<PolyglotEntry> {
        let (mut lo, mut hi) = (0usize, self.len);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.key_at(mid) < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        let mut out = Vec::new();
        while let Some(e) = self.entry(lo).filter(|e| e.key == key) {
            out.push(e);
            lo += 1;
        }
        out
    }

    /// The legal book moves for `board`, in file order (illegal codes are dropped).
    pub fn probe(&self, board: &Board) -> Vec<PolyglotMove> {
        let mut out: Vec<PolyglotMove> = Vec::new();
        for e in self.probe_key(polyglot_key(board)) {
            if let Some(mv) = decode_move(board, e.mv) {
                if !out.iter().any(|m| m.mv == mv) {
                    out.push(PolyglotMove {
                        mv,
                        weight: e.weight,
                        learn: e.learn,
                    });
                }
            }
        }
        out
    }
}

/// Encodes entries in Polyglot format, sorted by key (used by tests to make small books).
pub fn encode_entries(entries: &mut [PolyglotEntry]) -> Vec<u8> {
    entries.sort_by_key(|e| (e.key, std::cmp::Reverse(e.weight), e.mv));
    let mut out = Vec::with_capacity(entries.len() * ENTRY);
    for e in entries.iter() {
        out.extend_from_slice(&e.key.to_be_bytes());
        out.extend_from_slice(&e.mv.to_be_bytes());
        out.extend_from_slice(&e.weight.to_be_bytes());
        out.extend_from_slice(&e.learn.to_be_bytes());
    }
    out
}
