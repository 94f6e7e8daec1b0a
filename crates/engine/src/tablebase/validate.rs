//! Checks a Syzygy table file before the prober may map it. The prober trusts the file
//! completely (it reads through raw pointers into a memory map), so a truncated or
//! garbled file would crash the engine at its first probe. This walks the file's layout
//! from its header (piece lists, the compression headers of every sub-table, DTZ value
//! maps) to the exact length the header describes, and accepts the file only when that
//! length, padded to 64 bytes, plus the 16-byte checksum every table ends with, is the
//! file's size; on the
//! way it checks the magic number, that the header's pieces are those of the file name,
//! and that each symbol table is a well-formed tree whose codes stay in range.
//!
//! Not checked: the compressed blocks themselves (a file of the right size whose data
//! was corrupted in place is only caught by the published checksums).

use super::material::Material;
use cozy_chess::Piece;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::Path;

/// Win/draw/loss or distance-to-zero table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableKind {
    Wdl,
    Dtz,
}

impl TableKind {
    pub fn suffix(self) -> &'static str {
        match self {
            TableKind::Wdl => ".rtbw",
            TableKind::Dtz => ".rtbz",
        }
    }

    fn magic(self) -> [u8; 4] {
        match self {
            TableKind::Wdl => [0x71, 0xe8, 0x23, 0x5d],
            TableKind::Dtz => [0xd7, 0x66, 0x0c, 0xa5],
        }
    }
}

/// Bytes read after the compressed data: a 16-byte checksum.
const TRAILER: u64 = 16;

/// A file read on demand from its start (headers are small, tables can be gigabytes).
struct Bytes {
    file: File,
    size: u64,
    buf: Vec<u8>,
}

impl Bytes {
    fn get(&mut self, off: u64, len: u64) -> Result<&[u8], String> {
        let end = off
            .checked_add(len)
            .filter(|&e| e <= self.size)
            .ok_or_else(|| format!("the header reaches past the end of the file (offset {off})"))?;
        if end > self.buf.len() as u64 {
            let want = end.max(2 * self.buf.len() as u64).max(4096).min(self.size);
            let have = self.buf.len();
            self.buf.resize(want as usize, 0);
            self.file
                .read_exact_at(&mut self.buf[have..], have as u64)
                .map_err(|e| format!("reading: {e}"))?;
        }
        Ok(&self.buf[off as usize..end as usize])
    }

    fn u8(&mut self, off: u64) -> Result<u8, String> {
        Ok(self.get(off, 1)?[0])
    }

    fn u16(&mut self, off: u64) -> Result<u16, String> {
        let b = self.get(off, 2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
}

fn add(a: u64, b: u64) -> Result<u64, String> {
    a.checked_add(b)
        .ok_or_else(|| "sizes in the header overflow".to_string())
}

fn mul(a: u64, b: u64) -> Result<u64, String> {
    a.checked_mul(b)
        .ok_or_else(|| "sizes in the header overflow".to_string())
}

fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u64, |acc, i| acc * (n - i) / (i + 1))
}

/// Placements of the leading pawns when the first of them stands on `file` (0..=3, a..d,
/// the others mirrored) and `others` more stand behind it in the table's pawn order.
fn lead_pawn_factor(others: u64, file: u64) -> u64 {
    (0..6u64)
        .map(|r| binomial(47 - 12 * file - 2 * r, others))
        .sum()
}

/// Shape of one material's index: how the pieces group for the index computation.
struct Encoding {
    has_pawns: bool,
    /// Pawns of the side whose pawns lead the index, and of the other side.
    lead: usize,
    other: usize,
    /// Only the two kings are unique pieces (they then share one 462-entry index).
    kk: bool,
}

impl Encoding {
    fn new(m: &Material) -> Encoding {
        let (wp, bp) = (
            m.count(0, Piece::Pawn) as usize,
            m.count(1, Piece::Pawn) as usize,
        );
        let (lead, other) = if bp > 0 && (wp == 0 || wp > bp) {
            (bp, wp)
        } else {
            (wp, bp)
        };
        let codes = m.piece_codes();
        let unique = codes
            .iter()
            .filter(|&&c| codes.iter().filter(|&&d| d == c).count() == 1)
            .count();
        Encoding {
            has_pawns: m.has_pawns(),
            lead,
            other,
            kk: unique == 2,
        }
    }

    fn more_pawns(&self) -> bool {
        self.has_pawns && self.other > 0
    }

    /// Number of index values of sub-table `file` for the piece order `pieces`.
    fn index_size(&self, pieces: &[u8], order: u8, order2: u8, file: u64) -> Result<u64, String> {
        let n = pieces.len();
        let mut group = vec![0usize; n];
        group[0] = if self.has_pawns {
            self.lead
        } else if self.kk {
            2
        } else {
            3
        };
        let mut k = group[0];
        if self.more_pawns() {
            group[k] = self.other;
            k += self.other;
        }
        let mut i = k;
        while i < n {
            let mut j = i;
            while j < n && pieces[j] == pieces[i] {
                group[i] += 1;
                j += 1;
            }
            i += group[i];
        }
        let mut free = 64 - k as u64;
        let mut size = 1u64;
        let (mut saw_order, mut saw_order2) = (false, !self.more_pawns());
        let mut step = 0u8;
        while k < n || step == order || step == order2 {
            if step == order {
                saw_order = true;
                let first = if self.has_pawns {
                    lead_pawn_factor(self.lead as u64 - 1, file)
                } else if self.kk {
                    462
                } else {
                    31332
                };
                size = mul(size, first)?;
            } else if step == order2 {
                saw_order2 = true;
                size = mul(size, binomial(48 - self.lead as u64, self.other as u64))?;
            } else {
                size = mul(size, binomial(free, group[k] as u64))?;
                free -= group[k] as u64;
                k += group[k];
            }
            step += 1;
        }
        if !(saw_order && saw_order2) {
            return Err("bad piece order in the header".into());
        }
        Ok(size)
    }
}

/// Sizes of a compressed sub-table's index, block-size table and data.
type PartSizes = [u64; 3];

/// Parses the compression header at `off`; returns where the next one starts, the sizes
/// of the parts it describes, and its flags byte.
fn pairs(b: &mut Bytes, off: u64, entries: u64) -> Result<(u64, PartSizes, u8), String> {
    let flags = b.u8(off)?;
    if flags & 0x80 != 0 {
        // One value for the whole sub-table.
        return Ok((add(off, 2)?, [0; 3], flags));
    }
    let h = b.get(off, 10)?.to_vec();
    let (block_size, idx_bits) = (h[1], h[2]);
    let real_blocks = u32::from_le_bytes([h[4], h[5], h[6], h[7]]) as u64;
    let blocks = real_blocks + h[3] as u64;
    let (max_len, min_len) = (h[8] as u64, h[9] as u64);
    if !(1..=32).contains(&block_size) || !(1..=32).contains(&idx_bits) {
        return Err(format!(
            "bad block size {block_size} or index bits {idx_bits}"
        ));
    }
    if min_len == 0 || max_len < min_len || max_len > 32 {
        return Err(format!("bad code lengths {min_len}..{max_len}"));
    }
    let lengths = max_len - min_len + 1;
    let offsets: Vec<u64> = (0..lengths)
        .map(|i| b.u16(off + 10 + 2 * i).map(u64::from))
        .collect::<Result<_, _>>()?;
    let symbols = b.u16(off + 10 + 2 * lengths)? as u64;
    if symbols == 0 || symbols >= 4096 {
        return Err(format!("bad symbol count {symbols}"));
    }
    check_codes(&offsets, min_len, symbols)?;
    let patterns = b.get(off + 12 + 2 * lengths, 3 * symbols)?.to_vec();
    check_symbol_tree(&patterns, symbols as usize)?;
    let next = off + 12 + 2 * lengths + 3 * symbols + (symbols & 1);
    let indices = entries.div_ceil(1u64 << idx_bits);
    Ok((
        next,
        [
            mul(6, indices)?,
            mul(2, blocks)?,
            mul(real_blocks, 1u64 << block_size)?,
        ],
        flags,
    ))
}

/// The canonical code's first values per length, as the decoder derives them from the
/// per-length symbol offsets: every code of every length must name a symbol below
/// `symbols`.
fn check_codes(offsets: &[u64], min_len: u64, symbols: u64) -> Result<(), String> {
    let n = offsets.len();
    let mut base = vec![0u64; n];
    for i in (0..n - 1).rev() {
        let v = (base[i + 1] + offsets[i])
            .checked_sub(offsets[i + 1])
            .ok_or("bad code offsets")?;
        base[i] = v / 2;
    }
    for i in 0..n {
        let len = min_len + i as u64;
        let limit = if i == 0 {
            1u64 << len
        } else {
            base[i - 1].checked_mul(2).ok_or("bad code offsets")?
        };
        let codes = limit.checked_sub(base[i]).ok_or("bad code offsets")?;
        if offsets[i]
            .checked_add(codes)
            .is_none_or(|top| top > symbols)
        {
            return Err("codes name symbols beyond the symbol table".into());
        }
    }
    Ok(())
}

/// Each symbol is a leaf or a pair of earlier-defined symbols; the pairs must stay inside
/// the table and form no cycle, and no symbol may expand to more than 256 values.
fn check_symbol_tree(patterns: &[u8], symbols: usize) -> Result<(), String> {
    let children = |s: usize| -> Option<(usize, usize)> {
        let w = &patterns[3 * s..3 * s + 3];
        let right = ((w[2] as usize) << 4) | (w[1] as usize >> 4);
        if right == 0xfff {
            None
        } else {
            Some((((w[1] as usize & 0xf) << 8) | w[0] as usize, right))
        }
    };
    // 0 = not seen, 1 = on the current path, 2 = done; `len` = values a symbol expands to.
    let mut state = vec![0u8; symbols];
    let mut len = vec![0u32; symbols];
    for root in 0..symbols {
        let mut stack = vec![root];
        while let Some(&s) = stack.last() {
            match (state[s], children(s)) {
                (2, _) => {
                    stack.pop();
                }
                (_, None) => {
                    len[s] = 1;
                    state[s] = 2;
                    stack.pop();
                }
                (0, Some((l, r))) => {
                    if l >= symbols || r >= symbols {
                        return Err("symbol table refers past its end".into());
                    }
                    state[s] = 1;
                    stack.push(l);
                    stack.push(r);
                }
                (1, Some((l, r))) => {
                    if state[l] != 2 || state[r] != 2 {
                        return Err("symbol table has a cycle".into());
                    }
                    len[s] = len[l] + len[r];
                    if len[s] > 256 {
                        return Err("symbol expands to too many values".into());
                    }
                    state[s] = 2;
                    stack.pop();
                }
                _ => unreachable!("states are 0, 1 or 2"),
            }
        }
    }
    Ok(())
}

/// Length of the table file (checksum excluded) that the header of a `kind` table of
/// material `m` describes.
fn described_length(b: &mut Bytes, m: &Material, kind: TableKind) -> Result<u64, String> {
    let flags = b.u8(4)?;
    let enc = Encoding::new(m);
    if (flags & 2 != 0) != enc.has_pawns {
        return Err("the header and the file name disagree about pawns".into());
    }
    let sides = if kind == TableKind::Wdl && flags & 1 != 0 {
        2
    } else {
        1
    };
    let n = m.pieces() as usize;
    let tables = if enc.has_pawns { 4 } else { 1 };
    let more = enc.more_pawns() as usize;
    let entry = (n + 1 + more) as u64;
    let (codes, mirrored) = (m.piece_codes(), m.mirrored().piece_codes());
    let mut sizes = [[0u64; 2]; 4];
    let mut off = 5u64;
    for (t, row) in sizes.iter_mut().enumerate().take(tables) {
        let hdr = b.get(off, entry)?.to_vec();
        for (s, size) in row.iter_mut().enumerate().take(sides) {
            let nibble = |x: u8| (x >> (4 * s)) & 0xf;
            let order = nibble(hdr[0]);
            let order2 = if more == 1 { nibble(hdr[1]) } else { 0xf };
            let pieces: Vec<u8> = hdr[1 + more..].iter().map(|&x| nibble(x)).collect();
            let mut sorted = pieces.clone();
            sorted.sort_unstable();
            if sorted != codes && sorted != mirrored {
                return Err("the header's pieces are not those of the file name".into());
            }
            *size = enc.index_size(&pieces, order, order2, t as u64)?;
        }
        off += entry;
    }
    off += off & 1;
    let mut parts = [[[0u64; 3]; 2]; 4];
    let mut dtz_flags = [0u8; 4];
    for t in 0..tables {
        for s in 0..sides {
            let (next, p, f) = pairs(b, off, sizes[t][s])?;
            parts[t][s] = p;
            if s == 0 {
                dtz_flags[t] = f;
            }
            off = next;
        }
    }
    if kind == TableKind::Dtz {
        for &f in dtz_flags.iter().take(tables).filter(|&&f| f & 2 != 0) {
            if f & 16 == 0 {
                for _ in 0..4 {
                    off = add(off, 1 + b.u8(off)? as u64)?;
                }
            } else {
                off += off & 1;
                for _ in 0..4 {
                    off = add(off, 2 + 2 * b.u16(off)? as u64)?;
                }
            }
        }
        off += off & 1;
    }
    for part in 0..2 {
        for p in parts.iter().take(tables) {
            for side in p.iter().take(sides) {
                off = add(off, side[part])?;
            }
        }
    }
    for p in parts.iter().take(tables) {
        for side in p.iter().take(sides) {
            off = add(off.next_multiple_of(64), side[2])?;
        }
    }
    Ok(off)
}

/// Checks the `kind` table of material `m` at `path`: Ok, or why it must not be used.
pub fn check_table(path: &Path, m: &Material, kind: TableKind) -> Result<(), String> {
    let file = File::open(path).map_err(|e| format!("cannot open: {e}"))?;
    let size = file
        .metadata()
        .map_err(|e| format!("cannot read its size: {e}"))?
        .len();
    if size % 64 != TRAILER {
        return Err(format!(
            "{size} bytes is not the size of a whole table (truncated or not a table)"
        ));
    }
    let mut b = Bytes {
        file,
        size,
        buf: Vec::new(),
    };
    if b.get(0, 4)? != kind.magic() {
        return Err(format!(
            "not a Syzygy {} table (bad magic number)",
            kind.suffix()
        ));
    }
    // The data is padded to a multiple of 64 bytes before the checksum.
    let length = described_length(&mut b, m, kind)?.next_multiple_of(64) + TRAILER;
    if length != size {
        return Err(format!(
            "the header describes {length} bytes but the file has {size} (truncated or damaged)"
        ));
    }
    Ok(())
}
