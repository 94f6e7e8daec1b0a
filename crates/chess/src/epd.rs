//! EPD records: a four-field position followed by operations (`bm`, `am`, `id`, `c0`,
//! `D1`..`Dn`, `hmvc`, `fmvn`, ...).
//!
//! Tolerates what real suites contain: a missing trailing `;`, perft-suite style
//! ` ;D1 20 ;D2 400`, quoted strings holding spaces or `;`, full six-field FENs (the
//! counters follow the castling and en-passant fields), and `#` comment lines (reported
//! as [`EpdError::Blank`] so file readers can skip them).

use super::coord::MoveParseError;
use super::fen::{parse_fen, to_fen, FenError};
use super::san::parse_any_move;
use cozy_chess::{Board, Move};
use std::fmt;
use std::io::BufRead;

/// One operation: its opcode and operands (quotes removed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EpdOp {
    /// The opcode, e.g. `bm`, `id`, `D3`.
    pub opcode: String,
    /// The operands in order.
    pub operands: Vec<String>,
}

/// A parsed EPD line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EpdRecord {
    /// The position (with `hmvc`/`fmvn` or trailing FEN counters applied).
    pub board: Board,
    /// The operations in file order.
    pub ops: Vec<EpdOp>,
}

/// Why an EPD line could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EpdError {
    /// An empty line or a `#` comment: nothing to read.
    Blank,
    /// Fewer than the four position fields.
    MissingFields(usize),
    /// The position fields do not form a legal position.
    Fen(FenError),
    /// A quoted string that is never closed.
    UnterminatedString,
    /// An operation that cannot be understood.
    BadOperation(String),
    /// The underlying reader failed.
    Io(String),
    /// A move operand that does not name a legal move.
    BadMove {
        /// The opcode it belongs to.
        opcode: String,
        /// The underlying error.
        error: MoveParseError,
    },
}

impl fmt::Display for EpdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EpdError::Blank => write!(f, "blank or comment line"),
            EpdError::MissingFields(n) => write!(
                f,
                "EPD line has {n} position fields, 4 expected (board, side, castling, en passant)"
            ),
            EpdError::Fen(e) => write!(f, "bad EPD position: {e}"),
            EpdError::UnterminatedString => write!(f, "EPD operand string is never closed"),
            EpdError::BadOperation(s) => write!(f, "bad EPD operation: {s}"),
            EpdError::Io(e) => write!(f, "read error: {e}"),
            EpdError::BadMove { opcode, error } => write!(f, "bad move in '{opcode}': {error}"),
        }
    }
}

impl std::error::Error for EpdError {}

/// Splits off the first whitespace-separated token, returning it and the rest.
fn next_token(s: &str) -> Option<(&str, &str)> {
    let s = s.trim_start();
    if s.is_empty() {
        return None;
    }
    let end = s.find(char::is_whitespace).unwrap_or(s.len());
    Some((&s[..end], &s[end..]))
}

fn is_counter(tok: &str) -> bool {
    !tok.is_empty() && tok.len() <= 6 && tok.bytes().all(|b| b.is_ascii_digit())
}

/// Parses the operation text after the position.
fn parse_ops(text: &str) -> Result<Vec<EpdOp>, EpdError> {
    let mut ops = Vec::new();
    let mut tokens: Vec<String> = Vec::new();
    let mut chars = text.chars().peekable();
    let mut cur = String::new();
    let flush_op = |tokens: &mut Vec<String>, ops: &mut Vec<EpdOp>| -> Result<(), EpdError> {
        if tokens.is_empty() {
            return Ok(());
        }
        let opcode = tokens.remove(0);
        let valid = opcode
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic())
            && opcode
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid || opcode.len() > 15 {
            return Err(EpdError::BadOperation(format!("bad opcode '{opcode}'")));
        }
        ops.push(EpdOp {
            opcode,
            operands: std::mem::take(tokens),
        });
        Ok(())
    };
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                // A quoted operand; it may hold spaces and semicolons.
                let mut s = String::new();
                let mut closed = false;
                for q in chars.by_ref() {
                    if q == '"' {
                        closed = true;
                        break;
                    }
                    s.push(q);
                }
                if !closed {
                    return Err(EpdError::UnterminatedString);
                }
                if !cur.is_empty() {
                    tokens.push(std::mem::take(&mut cur));
                }
                tokens.push(s);
            }
            ';' => {
                if !cur.is_empty() {
                    tokens.push(std::mem::take(&mut cur));
                }
                flush_op(&mut tokens, &mut ops)?;
            }
            c if c.is_whitespace() => {
                if !cur.is_empty() {
                    tokens.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        tokens.push(cur);
    }
    flush_op(&mut tokens, &mut ops)?;
    Ok(ops)
}

/// Parses one EPD line (see the module doc for what is tolerated).
pub fn parse_epd_line(line: &str) -> Result<EpdRecord, EpdError> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Err(EpdError::Blank);
    }
    let mut rest = line;
    let mut fields = Vec::with_capacity(6);
    for _ in 0..4 {
        match next_token(rest) {
            Some((tok, r)) if !tok.starts_with(';') => {
                fields.push(tok);
                rest = r;
            }
            _ => return Err(EpdError::MissingFields(fields.len())),
        }
    }
    // Optional FEN counters (the openings file stores full FENs).
    for _ in 0..2 {
        match next_token(rest) {
            Some((tok, r)) if is_counter(tok) => {
                fields.push(tok);
                rest = r;
            }
            _ => break,
        }
    }
    let board = parse_fen(&fields.join(" ")).map_err(EpdError::Fen)?;
    let ops = parse_ops(rest)?;
    let mut record = EpdRecord { board, ops };
    record.apply_counters()?;
    Ok(record)
}

impl EpdRecord {
    fn apply_counters(&mut self) -> Result<(), EpdError> {
        let mut fen_fields: Vec<String> =
            to_fen(&self.board).split(' ').map(str::to_string).collect();
        let mut changed = false;
        for (op, idx) in [("hmvc", 4), ("fmvn", 5)] {
            if let Some(v) = self.operand(op) {
                if !is_counter(v) {
                    return Err(EpdError::BadOperation(format!(
                        "{op} needs a number, got '{v}'"
                    )));
                }
                if let Some(slot) = fen_fields.get_mut(idx) {
                    *slot = v.to_string();
                    changed = true;
                }
            }
        }
        if changed {
            self.board = parse_fen(&fen_fields.join(" ")).map_err(EpdError::Fen)?;
        }
        Ok(())
    }

    /// The operands of the first operation named `opcode`.
    pub fn op(&self, opcode: &str) -> Option<&[String]> {
        self.ops
            .iter()
            .find(|o| o.opcode == opcode)
            .map(|o| o.operands.as_slice())
    }

    /// The first operand of `opcode`.
    pub fn operand(&self, opcode: &str) -> Option<&str> {
        self.op(opcode)?.first().map(String::as_str)
    }

    /// The `id` operation.
    pub fn id(&self) -> Option<&str> {
        self.operand("id")
    }

    /// The `c0` comment.
    pub fn comment(&self) -> Option<&str> {
        self.operand("c0")
    }

    /// The position as FEN.
    pub fn fen(&self) -> String {
        to_fen(&self.board)
    }

    /// The moves of a move-list operation (`bm`, `am`, `pm`, `sm`), checked for legality.
    pub fn moves(&self, opcode: &str) -> Result<Vec<Move>, EpdError> {
        let Some(list) = self.op(opcode) else {
            return Ok(Vec::new());
        };
        list.iter()
            .map(|s| {
                parse_any_move(&self.board, s).map_err(|error| EpdError::BadMove {
                    opcode: opcode.to_string(),
                    error,
                })
            })
            .collect()
    }

    /// The best moves (`bm`); operands that name no legal move are left out.
    pub fn best_moves(&self) -> Vec<Move> {
        self.lenient_moves("bm")
    }

    /// The moves to avoid (`am`); operands that name no legal move are left out.
    pub fn avoid_moves(&self) -> Vec<Move> {
        self.lenient_moves("am")
    }

    fn lenient_moves(&self, opcode: &str) -> Vec<Move> {
        self.op(opcode)
            .unwrap_or(&[])
            .iter()
            .filter_map(|s| parse_any_move(&self.board, s).ok())
            .collect()
    }

    /// Perft counts from `D1`..`Dn` operations, as (depth, nodes), sorted by depth.
    pub fn perft_counts(&self) -> Result<Vec<(u32, u64)>, EpdError> {
        let mut out = Vec::new();
        for op in &self.ops {
            let Some(depth) = op.opcode.strip_prefix('D') else {
                continue;
            };
            let Ok(depth) = depth.parse::<u32>() else {
                continue;
            };
            let nodes = op
                .operands
                .first()
                .and_then(|n| n.parse::<u64>().ok())
                .ok_or_else(|| {
                    EpdError::BadOperation(format!("{} needs a node count", op.opcode))
                })?;
            out.push((depth, nodes));
        }
        out.sort_unstable();
        Ok(out)
    }

    /// Writes the record back as an EPD line (four position fields, then the operations).
    pub fn to_line(&self) -> String {
        let fen = self.fen();
        let mut s: String = fen.split(' ').take(4).collect::<Vec<_>>().join(" ");
        for op in &self.ops {
            s.push(' ');
            s.push_str(&op.opcode);
            for o in &op.operands {
                s.push(' ');
                if o.is_empty()
                    || o.contains([' ', ';', '"'])
                    || op.opcode == "id"
                    || op.opcode.starts_with('c')
                {
                    s.push('"');
                    s.push_str(&o.replace('"', "'"));
                    s.push('"');
                } else {
                    s.push_str(o);
                }
            }
            s.push(';');
        }
        s
    }
}

/// Reads EPD records from any `BufRead`, one line at a time, skipping blank and comment
/// lines. Each item is the 1-based line number and the record or that line's error;
/// invalid UTF-8 is replaced, not fatal. An I/O error is yielded once and ends the reader.
pub struct EpdReader<R> {
    inner: R,
    line_no: usize,
    done: bool,
    buf: Vec<u8>,
}

impl<R: BufRead> EpdReader<R> {
    /// Wraps a reader.
    pub fn new(inner: R) -> Self {
        EpdReader {
            inner,
            line_no: 0,
            done: false,
            buf: Vec::new(),
        }
    }
}

impl<R: BufRead> Iterator for EpdReader<R> {
    type Item = (usize, Result<EpdRecord, EpdError>);

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            self.buf.clear();
            match self.inner.read_until(b'\n', &mut self.buf) {
                Ok(0) => self.done = true,
                Ok(_) => {
                    self.line_no += 1;
                    let line = String::from_utf8_lossy(&self.buf);
                    match parse_epd_line(&line) {
                        Err(EpdError::Blank) => continue,
                        r => return Some((self.line_no, r)),
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.done = true;
                    return Some((self.line_no + 1, Err(EpdError::Io(e.to_string()))));
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wac_style_line() {
        let r = parse_epd_line(
            "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";",
        )
        .expect("wac");
        assert_eq!(r.id(), Some("WAC.001"));
        assert_eq!(r.best_moves().len(), 1);
    }
}
