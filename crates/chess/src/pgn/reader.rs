//! The streaming PGN reader: games one at a time from any `BufRead`, a bounded line at a
//! time, so files of any size stream in constant memory.
//!
//! Handles tag pairs, `{}` and `;` comments (multi-line too), `( )` variations nested to
//! any depth (their moves kept, [`MAX_NESTING`] levels deep), NAGs and `!?`-style
//! glyphs, move numbers (`12.`, `12...`, `12.e4`), `%` escape lines, result tokens, games
//! without tags or without a result. A broken game (garbage tokens, a malformed tag, an
//! unclosed comment running into the next game, a game or line beyond sane size) yields
//! one error and the reader resumes at the next `[Event` tag.

use super::{PgnGame, PgnMove};
use std::fmt;
use std::io::{self, BufRead};

/// Longest line kept (longer lines are an error for their game).
const MAX_LINE: usize = 1 << 20;
/// Largest game text accepted.
const MAX_GAME_BYTES: usize = 8 << 20;
/// Most plies accepted in one game's main line.
const MAX_PLIES: usize = 10_000;
/// Variations kept per move (more are skipped).
const MAX_VARIATIONS: usize = 64;
/// Most levels of variations inside variations kept (deeper ones are read and skipped).
pub const MAX_NESTING: usize = 32;

/// What went wrong with one game (or the stream).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PgnErrorKind {
    /// The underlying reader failed; the stream ends.
    Io(String),
    /// A tag pair line that cannot be read.
    BadTag(String),
    /// A token in the movetext that is neither a move, a number, a glyph nor a result.
    BadToken(String),
    /// A `)` without its `(`.
    UnmatchedParen,
    /// A `{` comment never closed before the next game or the end of the file.
    UnterminatedComment,
    /// A `(` variation never closed before the next game or the end of the file.
    UnterminatedVariation,
    /// A line longer than 1 MiB.
    LineTooLong,
    /// A game longer than 8 MiB or 10,000 plies.
    GameTooLarge,
}

/// A broken game: where and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PgnError {
    /// 1-based line where the problem was found.
    pub line: usize,
    /// 1-based line where the broken game started.
    pub game_line: usize,
    /// What is wrong.
    pub kind: PgnErrorKind,
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "PGN line {} (game from line {}): ",
            self.line, self.game_line
        )?;
        match &self.kind {
            PgnErrorKind::Io(e) => write!(f, "read error: {e}"),
            PgnErrorKind::BadTag(t) => write!(f, "malformed tag pair '{t}'"),
            PgnErrorKind::BadToken(t) => write!(f, "unexpected text '{t}' in the moves"),
            PgnErrorKind::UnmatchedParen => write!(f, "')' without a matching '('"),
            PgnErrorKind::UnterminatedComment => write!(f, "comment '{{' is never closed"),
            PgnErrorKind::UnterminatedVariation => write!(f, "variation '(' is never closed"),
            PgnErrorKind::LineTooLong => write!(f, "line longer than {MAX_LINE} bytes"),
            PgnErrorKind::GameTooLarge => write!(
                f,
                "game longer than {MAX_GAME_BYTES} bytes or {MAX_PLIES} plies"
            ),
        }
    }
}

impl std::error::Error for PgnError {}

/// Streams games from a `BufRead`; see the module doc.
pub struct PgnReader<R> {
    inner: R,
    buf: Vec<u8>,
    line_no: usize,
    pending: Option<(String, usize)>,
    done: bool,
}

enum Feed {
    More,
    /// The game ended (result token); the rest of the line, if any, belongs to the next.
    Done(Option<String>),
    /// This line starts the next game; the current one ended before it.
    EndBefore,
    /// Broken game; `keep` = this line starts the next game.
    Error(PgnErrorKind, bool),
}

#[derive(Default)]
struct Builder {
    game: PgnGame,
    started: bool,
    in_movetext: bool,
    blank_after_tags: bool,
    in_comment: bool,
    comment: String,
    var_depth: u32,
    /// How many of the open variations, from the outermost, are kept (each follows a
    /// move, under the caps); the tokens of the innermost go into it when all are.
    kept: u32,
    bytes: usize,
    result_token: Option<String>,
}

const ANNOTATION_TOKENS: [&str; 14] = [
    "=", "+-", "-+", "+/-", "-/+", "+/=", "=/+", "=+", "+=", "N", "TN", "~", "e.p.", "ep",
];

fn glyph_nag(g: &str) -> Option<u8> {
    Some(match g {
        "!" => 1,
        "?" => 2,
        "!!" => 3,
        "??" => 4,
        "!?" => 5,
        "?!" => 6,
        _ => return None,
    })
}

fn is_result(t: &str) -> bool {
    matches!(t, "1-0" | "0-1" | "1/2-1/2" | "*" | "\u{bd}-\u{bd}")
}

fn looks_like_move(t: &str) -> bool {
    let Some(first) = t.bytes().next() else {
        return false;
    };
    t.len() <= 12
        && b"abcdefghKQRBNPOo0Z-".contains(&first)
        && t.bytes()
            .all(|c| c.is_ascii_alphanumeric() || b"x:=+#-/".contains(&c))
}

/// Parses the tag pairs of a line (`[Name "Value"]`, several per line allowed).
fn parse_tags(line: &str, out: &mut Vec<(String, String)>) -> Result<(), PgnErrorKind> {
    let bad = || PgnErrorKind::BadTag(line.trim().chars().take(80).collect());
    let mut rest = line.trim();
    while !rest.is_empty() {
        rest = rest.strip_prefix('[').ok_or_else(bad)?.trim_start();
        let name_end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if name_end == 0 {
            return Err(bad());
        }
        let name = &rest[..name_end];
        rest = rest[name_end..].trim_start();
        let value;
        if let Some(r) = rest.strip_prefix('"') {
            let mut v = String::new();
            let mut chars = r.char_indices();
            let mut end = None;
            while let Some((i, c)) = chars.next() {
                match c {
                    '\\' => {
                        if let Some((_, n)) = chars.next() {
                            v.push(n);
                        }
                    }
                    '"' => {
                        end = Some(i);
                        break;
                    }
                    c => v.push(c),
                }
            }
            let end = end.ok_or_else(bad)?;
            value = v;
            rest = r[end + 1..].trim_start();
        } else {
            // Tolerate an unquoted value up to the closing bracket.
            let end = rest.find(']').ok_or_else(bad)?;
            value = rest[..end].trim().to_string();
            rest = &rest[end..];
        }
        rest = rest.strip_prefix(']').ok_or_else(bad)?.trim_start();
        out.push((name.to_string(), value));
    }
    Ok(())
}

/// A move token split into the move (`e.p.` dropped) and its trailing `!`/`?` glyph;
/// `None` when it does not look like a move.
fn split_move(t: &str) -> Option<(&str, &str)> {
    let mut san = t;
    for suffix in ["e.p.", "ep"] {
        if san.len() > suffix.len() + 1 {
            if let Some(s) = san.strip_suffix(suffix) {
                san = s;
            }
        }
    }
    // '!' and '?' are one byte each, so this is a char boundary.
    let glyph_start = san.len()
        - san
            .chars()
            .rev()
            .take_while(|&c| c == '!' || c == '?')
            .count();
    let (san, glyph) = san.split_at(glyph_start);
    looks_like_move(san).then_some((san, glyph))
}

impl Builder {
    fn attach_comment(&mut self, text: &str) {
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if text.is_empty() {
            return;
        }
        let slot = match self.game.moves.last_mut() {
            Some(m) => &mut m.comment,
            None => &mut self.game.comment,
        };
        match slot {
            Some(c) => {
                c.push(' ');
                c.push_str(&text);
            }
            None => *slot = Some(text),
        }
    }

    fn add_nag(&mut self, nag: u8) {
        if let Some(m) = self.game.moves.last_mut() {
            m.nags.push(nag);
        }
    }

    /// Handles one movetext token at variation depth 0; `Ok(true)` = result token.
    fn token(&mut self, tok: &str) -> Result<bool, PgnErrorKind> {
        if is_result(tok) {
            self.result_token = Some(
                if tok == "*" || tok.starts_with('1') || tok.starts_with('0') {
                    tok.to_string()
                } else {
                    "1/2-1/2".to_string()
                },
            );
            return Ok(true);
        }
        // Move numbers: `12.`, `12...`, `12.e4`; a bare number is skipped too.
        let mut t = tok;
        let digits = t.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 {
            let after = &t[digits..];
            if after.is_empty() {
                return Ok(false);
            }
            if after.starts_with('.') {
                t = after.trim_start_matches('.');
                if t.is_empty() {
                    return Ok(false);
                }
            }
        }
        if let Some(nag) = glyph_nag(t) {
            self.add_nag(nag);
            return Ok(false);
        }
        if ANNOTATION_TOKENS.contains(&t) {
            return Ok(false);
        }
        let Some((san, glyph)) = split_move(t) else {
            return Err(PgnErrorKind::BadToken(tok.chars().take(40).collect()));
        };
        if self.game.moves.len() >= MAX_PLIES {
            return Err(PgnErrorKind::GameTooLarge);
        }
        let mut mv = PgnMove {
            san: san.to_string(),
            ..PgnMove::default()
        };
        if let Some(n) = glyph_nag(glyph) {
            mv.nags.push(n);
        }
        self.game.moves.push(mv);
        Ok(false)
    }

    /// The line `depth` variations down: the main line at 0, else the last variation of
    /// the last move of the line above.
    fn line_at(&mut self, depth: u32) -> Option<&mut Vec<PgnMove>> {
        let mut line = &mut self.game.moves;
        for _ in 0..depth {
            line = line.last_mut()?.variations.last_mut()?;
        }
        Some(line)
    }

    /// A `(`: a variation opens, an alternative to the last move of the line it is in.
    fn open_variation(&mut self) {
        if self.kept == self.var_depth && (self.var_depth as usize) < MAX_NESTING {
            let parent = self.line_at(self.var_depth).and_then(|l| l.last_mut());
            if let Some(m) = parent {
                if m.variations.len() < MAX_VARIATIONS {
                    m.variations.push(Vec::new());
                    self.kept += 1;
                }
            }
        }
        self.var_depth += 1;
    }

    /// A token inside a variation: a move goes into the variation being read (anything
    /// else there, numbers, glyphs, a stray result, is passed over).
    fn variation_token(&mut self, tok: &str) {
        // Move numbers as on the main line: `12.`, `12...`, `12.e4`, a bare `12`.
        let digits = tok.bytes().take_while(u8::is_ascii_digit).count();
        let after = &tok[digits..];
        let t = if digits > 0 && (after.is_empty() || after.starts_with('.')) {
            after.trim_start_matches('.')
        } else {
            tok
        };
        if t.is_empty()
            || is_result(tok)
            || glyph_nag(t).is_some()
            || ANNOTATION_TOKENS.contains(&t)
        {
            return;
        }
        let Some((san, _)) = split_move(t) else {
            return;
        };
        if self.kept != self.var_depth {
            return;
        }
        if let Some(line) = self.line_at(self.var_depth) {
            if line.len() < MAX_PLIES {
                line.push(PgnMove {
                    san: san.to_string(),
                    ..PgnMove::default()
                });
            }
        }
    }

    fn feed(&mut self, line: &str, no: usize) -> Feed {
        self.bytes += line.len() + 1;
        if self.bytes > MAX_GAME_BYTES {
            return Feed::Error(PgnErrorKind::GameTooLarge, false);
        }
        let trimmed = line.trim().trim_start_matches('\u{feff}');
        if self.in_comment || self.var_depth > 0 {
            if trimmed.starts_with("[Event ") {
                let kind = if self.in_comment {
                    PgnErrorKind::UnterminatedComment
                } else {
                    PgnErrorKind::UnterminatedVariation
                };
                return Feed::Error(kind, true);
            }
        } else {
            if trimmed.is_empty() {
                if self.started && !self.in_movetext {
                    self.blank_after_tags = true;
                }
                return Feed::More;
            }
            if line.starts_with('%') {
                return Feed::More;
            }
            if trimmed.starts_with('[') {
                if self.in_movetext || self.blank_after_tags {
                    return Feed::EndBefore;
                }
                if !self.started {
                    self.game.line = no;
                }
                self.started = true;
                return match parse_tags(trimmed, &mut self.game.tags) {
                    Ok(()) => Feed::More,
                    Err(e) => Feed::Error(e, false),
                };
            }
        }
        if !self.started {
            self.game.line = no;
            self.started = true;
        }
        self.in_movetext = true;
        let b = line.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if self.in_comment {
                match line[i..].find('}') {
                    Some(j) => {
                        self.comment.push_str(&line[i..i + j]);
                        i += j + 1;
                        self.in_comment = false;
                        if self.var_depth == 0 {
                            let c = std::mem::take(&mut self.comment);
                            self.attach_comment(&c);
                        }
                        self.comment.clear();
                    }
                    None => {
                        if self.comment.len() < MAX_LINE {
                            self.comment.push_str(&line[i..]);
                            self.comment.push(' ');
                        }
                        break;
                    }
                }
                continue;
            }
            match b[i] {
                c if c.is_ascii_whitespace() => i += 1,
                b'{' => {
                    self.in_comment = true;
                    self.comment.clear();
                    i += 1;
                }
                b';' => {
                    if self.var_depth == 0 {
                        self.attach_comment(&line[i + 1..]);
                    }
                    break;
                }
                b'(' => {
                    self.open_variation();
                    i += 1;
                }
                b')' => {
                    if self.var_depth == 0 {
                        return Feed::Error(PgnErrorKind::UnmatchedParen, false);
                    }
                    if self.kept == self.var_depth {
                        self.kept -= 1;
                    }
                    self.var_depth -= 1;
                    i += 1;
                }
                b'$' => {
                    let start = i + 1;
                    let mut j = start;
                    while j < b.len() && b[j].is_ascii_digit() {
                        j += 1;
                    }
                    if self.var_depth == 0 {
                        if let Ok(n) = line[start..j].parse::<u8>() {
                            self.add_nag(n);
                        }
                    }
                    i = j.max(start);
                }
                b'}' => return Feed::Error(PgnErrorKind::BadToken("}".into()), false),
                _ => {
                    let start = i;
                    // The first byte is never a delimiter here, so this always advances.
                    i += 1;
                    while i < b.len() && !b[i].is_ascii_whitespace() && !b"{}();$".contains(&b[i]) {
                        i += 1;
                    }
                    if self.var_depth > 0 {
                        self.variation_token(&line[start..i]);
                        continue;
                    }
                    match self.token(&line[start..i]) {
                        Ok(true) => {
                            let rest = line[i..].trim();
                            return Feed::Done((!rest.is_empty()).then(|| rest.to_string()));
                        }
                        Ok(false) => {}
                        Err(e) => return Feed::Error(e, false),
                    }
                }
            }
        }
        Feed::More
    }

    fn finish(mut self) -> PgnGame {
        self.game.result = match self.result_token.take() {
            Some(r) => r,
            None => self
                .game
                .tag("Result")
                .filter(|r| is_result(r))
                .unwrap_or("*")
                .to_string(),
        };
        self.game
    }
}

impl<R: BufRead> PgnReader<R> {
    /// Wraps a reader (use a `BufReader` around files).
    pub fn new(inner: R) -> Self {
        PgnReader {
            inner,
            buf: Vec::with_capacity(256),
            line_no: 0,
            pending: None,
            done: false,
        }
    }

    /// The number of lines read so far.
    pub fn line(&self) -> usize {
        self.line_no
    }

    /// Reads one line of at most `MAX_LINE` bytes; `Ok(None)` at the end.
    fn read_line(&mut self) -> io::Result<Option<(String, usize, bool)>> {
        if let Some((l, n)) = self.pending.take() {
            return Ok(Some((l, n, false)));
        }
        self.buf.clear();
        let mut too_long = false;
        let mut any = false;
        loop {
            let avail = match self.inner.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if avail.is_empty() {
                break;
            }
            any = true;
            let (len, end) = match avail.iter().position(|&c| c == b'\n') {
                Some(p) => (p + 1, true),
                None => (avail.len(), false),
            };
            let room = MAX_LINE.saturating_sub(self.buf.len());
            if len > room {
                too_long = true;
            }
            self.buf.extend_from_slice(&avail[..len.min(room)]);
            self.inner.consume(len);
            if end {
                break;
            }
        }
        if !any {
            return Ok(None);
        }
        self.line_no += 1;
        while matches!(self.buf.last(), Some(b'\n' | b'\r')) {
            self.buf.pop();
        }
        let line = String::from_utf8_lossy(&self.buf).into_owned();
        Ok(Some((line, self.line_no, too_long)))
    }

    /// Skips to the next line that starts a game (`[Event ...`, or a tag after a blank
    /// line) and keeps it pending.
    fn resync(&mut self) {
        let mut prev_blank = false;
        loop {
            match self.read_line() {
                Ok(Some((line, no, _))) => {
                    let t = line.trim_start();
                    if t.starts_with("[Event ") || (prev_blank && t.starts_with('[')) {
                        self.pending = Some((line, no));
                        return;
                    }
                    prev_blank = t.is_empty();
                }
                Ok(None) | Err(_) => return,
            }
        }
    }
}

impl<R: BufRead> Iterator for PgnReader<R> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let mut g = Builder::default();
        loop {
            let (line, no, too_long) = match self.read_line() {
                Ok(Some(x)) => x,
                Ok(None) => {
                    self.done = true;
                    if !g.started {
                        return None;
                    }
                    let kind = if g.in_comment {
                        PgnErrorKind::UnterminatedComment
                    } else if g.var_depth > 0 {
                        PgnErrorKind::UnterminatedVariation
                    } else {
                        return Some(Ok(g.finish()));
                    };
                    return Some(Err(PgnError {
                        line: self.line_no,
                        game_line: g.game.line,
                        kind,
                    }));
                }
                Err(e) => {
                    self.done = true;
                    return Some(Err(PgnError {
                        line: self.line_no + 1,
                        game_line: g.game.line,
                        kind: PgnErrorKind::Io(e.to_string()),
                    }));
                }
            };
            let feed = if too_long {
                Feed::Error(PgnErrorKind::LineTooLong, false)
            } else {
                g.feed(&line, no)
            };
            match feed {
                Feed::More => {}
                Feed::Done(rest) => {
                    if let Some(rest) = rest {
                        self.pending = Some((rest, no));
                    }
                    return Some(Ok(g.finish()));
                }
                Feed::EndBefore => {
                    self.pending = Some((line, no));
                    return Some(Ok(g.finish()));
                }
                Feed::Error(kind, keep) => {
                    let err = PgnError {
                        line: no,
                        game_line: if g.game.line == 0 { no } else { g.game.line },
                        kind,
                    };
                    if keep {
                        self.pending = Some((line, no));
                    } else {
                        self.resync();
                    }
                    return Some(Err(err));
                }
            }
        }
    }
}
