//! ICC's level-2 framing, both ways: the [`Deframer`] cuts a byte stream into ordinary
//! text and [`Datagram`]s however the reads were split, and [`Datagram::encode`] writes one
//! (the local ICC server uses the same code, so both ends agree byte for byte).
//!
//! The wire form (ICC's `formats.txt`, section 4): a datagram is `^Y(` (control-Y and an
//! open parenthesis), the datagram number, blank-separated fields, then `^Y)`. A field
//! holding blanks is quoted `{like this}`; one that may hold braces too is quoted
//! `^Y{like {this}^Y}`. Datagrams come between and inside ordinary text lines and prompts.
//! Level-1 units (section 3: `^Y[` and a header line `command-number issuer [tag]`, the
//! output, `^Y]`) become [`Chunk::Unit`] and [`Chunk::UnitEnd`], so what a datagram answers
//! can be told; `^Y<` and `^Y>` are dropped, and the text inside a unit reads as plain
//! text. A `^Z` is the server saying it threw away output that overflowed its buffer.
//!
//! Bad input is never fatal: a datagram cut short (a new `^Y(` before the `^Y)`, the stream
//! ending, the server's `^Z`), one longer than [`MAX_DATAGRAM`], or one whose body does not
//! parse becomes a [`BadDatagram`] chunk that says why, and reading goes on.

use std::fmt;

/// Control-Y, the byte that starts every framing mark.
pub const CTRL_Y: u8 = 0x19;
/// Control-Z: the server discarded output (its buffer overflowed).
pub const CTRL_Z: u8 = 0x1a;
/// A datagram body longer than this is dropped (the server's whole output buffer is about
/// 122,000 bytes).
pub const MAX_DATAGRAM: usize = 256 * 1024;
/// A level-1 header line longer than this ends the header (it is only a number and a name).
const MAX_L1_HEADER: usize = 512;
/// How much of a bad datagram is kept to show in the log.
const RAW_KEPT: usize = 240;

/// One level-2 datagram: its number and its fields, quotes removed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Datagram {
    pub code: u16,
    pub fields: Vec<String>,
}

/// A level-1 unit header (`formats.txt` section 3): the output up to the matching `^Y]`
/// answers command `command` (a `CN_` number of its Appendix 1) typed by `issuer` (`*`:
/// this client; `%` another player with level1 & 8; sometimes `$server$`), and `tag` is the
/// word a client put between backquotes before the command (level1 & 5).
#[derive(serde::Serialize, Debug, Clone, PartialEq, Eq, Default)]
pub struct UnitHeader {
    /// `None` when the header does not start with a number (it is still a unit).
    pub command: Option<u32>,
    pub issuer: String,
    pub tag: Option<String>,
}

impl UnitHeader {
    /// Reads the header line (without `^Y[` and the line end).
    pub fn parse(line: &[u8]) -> UnitHeader {
        let text = text_of(line);
        let mut words = text.split_whitespace();
        let first = words.next().unwrap_or_default();
        UnitHeader {
            command: first.parse().ok(),
            issuer: words.next().unwrap_or_default().to_string(),
            tag: words.next().map(str::to_string),
        }
    }
}

/// A datagram that could not be read, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadDatagram {
    pub reason: String,
    /// The start of the bytes received for it (escaped for logs by `Display`).
    pub raw: Vec<u8>,
}

impl fmt::Display for BadDatagram {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: \"{}\"", self.reason, self.raw.escape_ascii())
    }
}

/// What the deframer produces, in stream order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Chunk {
    /// Ordinary text (lines, prompts), framing marks removed.
    Text(Vec<u8>),
    Datagram(Datagram),
    Bad(BadDatagram),
    /// The server's `^Z`: some of its output was thrown away.
    Overflow,
    /// A level-1 unit begins (`^Y[` and its header line).
    Unit(UnitHeader),
    /// The innermost open level-1 unit ends (`^Y]`).
    UnitEnd,
}

impl Datagram {
    pub fn new(code: u16) -> Datagram {
        Datagram {
            code,
            fields: Vec::new(),
        }
    }

    /// Appends a field (builder style, for encoding).
    pub fn with(mut self, field: impl ToString) -> Datagram {
        self.fields.push(field.to_string());
        self
    }

    /// Field `i` (0 = the first after the number).
    pub fn field(&self, i: usize) -> Option<&str> {
        self.fields.get(i).map(String::as_str)
    }

    /// Field `i` read as a number (`None` when missing or not a number).
    pub fn num<T: std::str::FromStr>(&self, i: usize) -> Option<T> {
        self.field(i)?.trim().parse().ok()
    }

    /// Field `i` read as a 0/1 flag.
    pub fn flag(&self, i: usize) -> Option<bool> {
        match self.field(i)?.trim() {
            "1" => Some(true),
            "0" => Some(false),
            _ => None,
        }
    }

    /// The wire form: `^Y(code field field ...^Y)`, each field quoted as it needs.
    pub fn encode(&self) -> Vec<u8> {
        let mut out =
            Vec::with_capacity(16 + self.fields.iter().map(|f| f.len() + 3).sum::<usize>());
        out.push(CTRL_Y);
        out.push(b'(');
        out.extend_from_slice(self.code.to_string().as_bytes());
        for f in &self.fields {
            out.push(b' ');
            encode_field(f, &mut out);
        }
        out.push(CTRL_Y);
        out.push(b')');
        out
    }

    /// Reads a datagram body: the bytes between `^Y(` and `^Y)`.
    pub fn parse_body(body: &[u8]) -> Result<Datagram, BadDatagram> {
        let bad = |reason: &str| BadDatagram {
            reason: reason.to_string(),
            raw: body[..body.len().min(RAW_KEPT)].to_vec(),
        };
        let mut fields = split_fields(body).map_err(bad)?;
        if fields.is_empty() {
            return Err(bad("empty datagram"));
        }
        let code_text = fields.remove(0);
        if code_text.is_empty() || !code_text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad("the datagram does not start with its number"));
        }
        let code = code_text
            .parse::<u16>()
            .map_err(|_| bad("the datagram number is out of range"))?;
        Ok(Datagram { code, fields })
    }
}

impl fmt::Display for Datagram {
    /// The datagram as text, without the control-Y bytes: `(24 7 e4 e2e4 0 300)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}", self.code)?;
        for x in &self.fields {
            if x.is_empty() || x.contains(|c: char| c.is_whitespace() || c == '{' || c == '}') {
                write!(f, " {{{x}}}")?;
            } else {
                write!(f, " {x}")?;
            }
        }
        f.write_str(")")
    }
}

/// Writes one field in the lightest quoting that keeps it whole: bare when it has no
/// blanks or braces, `{...}` when it has blanks, `^Y{...^Y}` when it has braces. Control-Y
/// and control-Z bytes are dropped so a field can never end the datagram early.
pub fn encode_field(field: &str, out: &mut Vec<u8>) {
    let clean: Vec<u8> = field
        .bytes()
        .filter(|&b| b != CTRL_Y && b != CTRL_Z)
        .collect();
    let braces = clean.iter().any(|&b| b == b'{' || b == b'}');
    let blanks = clean.is_empty() || clean.iter().any(|b| b.is_ascii_whitespace());
    if braces {
        out.extend_from_slice(&[CTRL_Y, b'{']);
        out.extend_from_slice(&clean);
        out.extend_from_slice(&[CTRL_Y, b'}']);
    } else if blanks {
        out.push(b'{');
        out.extend_from_slice(&clean);
        out.push(b'}');
    } else {
        out.extend_from_slice(&clean);
    }
}

/// Text of a field: UTF-8 when it is valid UTF-8, else ISO Latin-1 (which ICC allows in
/// messages).
fn text_of(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}

/// Splits a datagram body into fields, quotes removed.
fn split_fields(body: &[u8]) -> Result<Vec<String>, &'static str> {
    let mut fields = Vec::new();
    let mut i = 0;
    let n = body.len();
    while i < n {
        let b = body[i];
        if b.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if b == CTRL_Y && body.get(i + 1) == Some(&b'{') {
            let start = i + 2;
            let mut j = start;
            loop {
                if j + 1 >= n {
                    return Err("unterminated ^Y{ quote");
                }
                if body[j] == CTRL_Y && body[j + 1] == b'}' {
                    break;
                }
                j += 1;
            }
            fields.push(text_of(&body[start..j]));
            i = j + 2;
        } else if b == b'{' {
            let start = i + 1;
            let Some(len) = body[start..].iter().position(|&c| c == b'}') else {
                return Err("unterminated { quote");
            };
            fields.push(text_of(&body[start..start + len]));
            i = start + len + 1;
        } else {
            let start = i;
            while i < n && !body[i].is_ascii_whitespace() && body[i] != CTRL_Y {
                i += 1;
            }
            if i == start {
                // A lone control-Y that starts no quote: skip it.
                i += 1;
                continue;
            }
            fields.push(text_of(&body[start..i]));
        }
    }
    Ok(fields)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Text,
    /// Inside a level-1 header line (`^Y[` up to the end of the line).
    L1Header,
    Datagram,
    /// A datagram grew too long: skip to its `^Y)`.
    Skip,
}

/// The streaming splitter of text and datagrams for one connection.
#[derive(Debug)]
pub struct Deframer {
    state: State,
    /// A control-Y was the last byte of the previous read.
    ctrl: bool,
    text: Vec<u8>,
    body: Vec<u8>,
    header: Vec<u8>,
}

impl Default for Deframer {
    fn default() -> Self {
        Deframer::new()
    }
}

impl Deframer {
    pub fn new() -> Deframer {
        Deframer {
            state: State::Text,
            ctrl: false,
            text: Vec::new(),
            body: Vec::new(),
            header: Vec::new(),
        }
    }

    /// True while a datagram has begun but not ended.
    pub fn in_datagram(&self) -> bool {
        matches!(self.state, State::Datagram | State::Skip)
    }

    fn flush_text(&mut self, out: &mut Vec<Chunk>) {
        if !self.text.is_empty() {
            out.push(Chunk::Text(std::mem::take(&mut self.text)));
        }
    }

    fn bad(&mut self, reason: &str, out: &mut Vec<Chunk>) {
        let raw = self.body[..self.body.len().min(RAW_KEPT)].to_vec();
        self.body.clear();
        out.push(Chunk::Bad(BadDatagram {
            reason: reason.to_string(),
            raw,
        }));
    }

    /// The level-1 header line is complete (or cut short): hand it on.
    fn end_header(&mut self, out: &mut Vec<Chunk>) {
        self.state = State::Text;
        let line = std::mem::take(&mut self.header);
        let line = line.strip_suffix(b"\r").unwrap_or(&line);
        out.push(Chunk::Unit(UnitHeader::parse(line)));
    }

    /// A mark (`^Y` and `c`) met in text.
    fn text_mark(&mut self, c: u8, out: &mut Vec<Chunk>) {
        match c {
            b'(' => {
                self.flush_text(out);
                self.body.clear();
                self.state = State::Datagram;
            }
            b'[' => {
                self.flush_text(out);
                self.header.clear();
                self.state = State::L1Header;
            }
            b']' => {
                self.flush_text(out);
                out.push(Chunk::UnitEnd);
            }
            b'<' | b'>' => {}
            CTRL_Y => self.ctrl = true,
            CTRL_Z => {
                self.flush_text(out);
                out.push(Chunk::Overflow);
            }
            // A stray control-Y before an ordinary byte: keep the byte.
            other => self.text.push(other),
        }
    }

    /// Feeds bytes as read; chunks complete so far are appended to `out` (text is handed
    /// out at the end of every feed, so prompts are not held back).
    pub fn feed(&mut self, bytes: &[u8], out: &mut Vec<Chunk>) {
        for &b in bytes {
            if self.ctrl {
                self.ctrl = false;
                match self.state {
                    State::Text => self.text_mark(b, out),
                    State::L1Header => {
                        // A mark before the header line ended: the header is what came.
                        self.end_header(out);
                        self.text_mark(b, out);
                    }
                    State::Datagram => match b {
                        b')' => {
                            let body = std::mem::take(&mut self.body);
                            self.state = State::Text;
                            match Datagram::parse_body(&body) {
                                Ok(d) => out.push(Chunk::Datagram(d)),
                                Err(e) => out.push(Chunk::Bad(e)),
                            }
                        }
                        b'{' | b'}' => {
                            self.body.push(CTRL_Y);
                            self.body.push(b);
                        }
                        b'(' => {
                            self.bad("cut short: a new datagram began before its end", out);
                            self.state = State::Datagram;
                        }
                        b'[' | b']' | b'<' | b'>' | CTRL_Z => {
                            self.bad("cut short: the unit ended before the datagram did", out);
                            self.state = State::Text;
                            self.text_mark(b, out);
                        }
                        CTRL_Y => self.ctrl = true,
                        other => self.body.push(other),
                    },
                    State::Skip => {
                        if b == b')' {
                            self.state = State::Text;
                        } else if b == CTRL_Y {
                            self.ctrl = true;
                        }
                    }
                }
                continue;
            }
            if b == CTRL_Y {
                self.ctrl = true;
                continue;
            }
            match self.state {
                State::Text => {
                    if b == CTRL_Z {
                        self.flush_text(out);
                        out.push(Chunk::Overflow);
                    } else {
                        self.text.push(b);
                    }
                }
                State::L1Header => {
                    if b == b'\n' || self.header.len() >= MAX_L1_HEADER {
                        self.end_header(out);
                    } else {
                        self.header.push(b);
                    }
                }
                State::Datagram => {
                    if b == CTRL_Z {
                        self.bad("cut short: the server discarded output (^Z)", out);
                        self.state = State::Text;
                        out.push(Chunk::Overflow);
                    } else if self.body.len() >= MAX_DATAGRAM {
                        self.bad("longer than the longest datagram accepted; skipped", out);
                        self.state = State::Skip;
                    } else {
                        self.body.push(b);
                    }
                }
                State::Skip => {}
            }
        }
        self.flush_text(out);
    }

    /// The stream ended: a datagram still open is reported as cut short.
    pub fn finish(&mut self, out: &mut Vec<Chunk>) {
        self.ctrl = false;
        if self.state == State::Datagram {
            self.bad("cut short: the connection ended inside a datagram", out);
        }
        if self.state == State::L1Header {
            self.end_header(out);
        }
        self.state = State::Text;
        self.flush_text(out);
    }
}

/// Deframes a whole byte stream at once (tests and tools).
pub fn deframe(bytes: &[u8]) -> Vec<Chunk> {
    let mut d = Deframer::new();
    let mut out = Vec::new();
    d.feed(bytes, &mut out);
    d.finish(&mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dg(s: &str) -> Vec<u8> {
        s.replace('^', "\x19").into_bytes()
    }

    /// Joins adjacent text chunks (their boundaries depend on the reads).
    fn normal(chunks: Vec<Chunk>) -> Vec<Chunk> {
        let mut out: Vec<Chunk> = Vec::new();
        for c in chunks {
            if let (Some(Chunk::Text(a)), Chunk::Text(b)) = (out.last_mut(), &c) {
                a.extend_from_slice(b);
                continue;
            }
            out.push(c);
        }
        out
    }

    #[test]
    fn fields_and_quotes() {
        let c = deframe(&dg("^(26 12 Bob {C} 1 ^{good {luck}^}^)"));
        assert_eq!(
            c,
            vec![Chunk::Datagram(Datagram {
                code: 26,
                fields: vec![
                    "12".into(),
                    "Bob".into(),
                    "C".into(),
                    "1".into(),
                    "good {luck}".into()
                ],
            })]
        );
        let c = deframe(&dg("^(0 wily {}^)"));
        assert_eq!(
            c,
            vec![Chunk::Datagram(Datagram::new(0).with("wily").with(""))]
        );
    }

    #[test]
    fn text_between_datagrams_and_split_reads() {
        let stream =
            dg("aics% ^(24 7 e4 e2e4 0 300^)Hello\r\n^[10 *\r\nunit text^]^(139 7^)aics% ");
        let whole = normal(deframe(&stream));
        assert_eq!(
            whole,
            vec![
                Chunk::Text(b"aics% ".to_vec()),
                Chunk::Datagram(
                    Datagram::new(24)
                        .with(7)
                        .with("e4")
                        .with("e2e4")
                        .with(0)
                        .with(300)
                ),
                Chunk::Text(b"Hello\r\n".to_vec()),
                Chunk::Unit(UnitHeader {
                    command: Some(10),
                    issuer: "*".into(),
                    tag: None,
                }),
                Chunk::Text(b"unit text".to_vec()),
                Chunk::UnitEnd,
                Chunk::Datagram(Datagram::new(139).with(7)),
                Chunk::Text(b"aics% ".to_vec()),
            ]
        );
        for size in 1..8 {
            let mut d = Deframer::new();
            let mut out = Vec::new();
            for part in stream.chunks(size) {
                d.feed(part, &mut out);
            }
            d.finish(&mut out);
            assert_eq!(normal(out), whole, "reads of {size}");
        }
    }

    #[test]
    fn bad_datagrams_are_reported_and_reading_goes_on() {
        let c = normal(deframe(&dg(
            "^(24 7 e4^(139 7^)x^(abc^)^(12 {open^)^(31 a^",
        )));
        let kinds: Vec<String> = c
            .iter()
            .map(|c| match c {
                Chunk::Text(t) => format!("text {}", String::from_utf8_lossy(t)),
                Chunk::Datagram(d) => format!("dg {}", d.code),
                Chunk::Bad(b) => format!("bad {}", b.reason),
                Chunk::Overflow => "overflow".into(),
                Chunk::Unit(_) | Chunk::UnitEnd => "unit".into(),
            })
            .collect();
        assert_eq!(kinds.len(), 6, "{kinds:?}");
        assert!(kinds[0].starts_with("bad cut short"));
        assert_eq!(kinds[1], "dg 139");
        assert_eq!(kinds[2], "text x");
        assert!(kinds[3].contains("number"));
        assert!(kinds[4].contains("unterminated"));
        assert!(kinds[5].contains("connection ended"));
        let c = deframe(&dg("^(99999999 a^)"));
        assert!(matches!(&c[0], Chunk::Bad(b) if b.reason.contains("range")));
        let c = deframe(&dg("^(24 7\x1a rest"));
        assert!(matches!(c[0], Chunk::Bad(_)) && c[1] == Chunk::Overflow);
    }

    #[test]
    fn encode_round_trips() {
        let d = Datagram::new(31)
            .with("Bob")
            .with("")
            .with("hello there")
            .with("a {brace} and \x19) end")
            .with(1);
        let bytes = d.encode();
        assert!(bytes.starts_with(b"\x19(31 Bob {} {hello there} \x19{a {brace}"));
        let back = deframe(&bytes);
        let mut want = d.clone();
        want.fields[3] = "a {brace} and ) end".into();
        assert_eq!(back, vec![Chunk::Datagram(want)]);
        assert_eq!(d.num::<u32>(4), Some(1));
        assert_eq!(d.flag(4), Some(true));
        assert_eq!(d.field(9), None);
    }

    #[test]
    fn level1_headers_are_read_as_formats_txt_writes_them() {
        // formats.txt section 3: "^Y[<command-number> <player-name-field> <arbitrary-word>\n"
        // and its nesting example (328 by fishbait, 199 and 101 by the client).
        let stream =
            dg("^[121 * asdf\n^(30 Bob wily {withdrawn}^)^]^[328 fishbait\r\ntext\n^[199 *\n^]^]");
        let whole = normal(deframe(&stream));
        assert_eq!(
            whole,
            vec![
                Chunk::Unit(UnitHeader {
                    command: Some(121),
                    issuer: "*".into(),
                    tag: Some("asdf".into()),
                }),
                Chunk::Datagram(Datagram::new(30).with("Bob").with("wily").with("withdrawn")),
                Chunk::UnitEnd,
                Chunk::Unit(UnitHeader {
                    command: Some(328),
                    issuer: "fishbait".into(),
                    tag: None,
                }),
                Chunk::Text(b"text\n".to_vec()),
                Chunk::Unit(UnitHeader {
                    command: Some(199),
                    issuer: "*".into(),
                    tag: None,
                }),
                Chunk::UnitEnd,
                Chunk::UnitEnd,
            ]
        );
        for size in 1..6 {
            let mut d = Deframer::new();
            let mut out = Vec::new();
            for part in stream.chunks(size) {
                d.feed(part, &mut out);
            }
            d.finish(&mut out);
            assert_eq!(normal(out), whole, "reads of {size}");
        }
        // A header cut by the end of the stream is still a unit.
        assert_eq!(
            deframe(&dg("^[12 $server$")),
            vec![Chunk::Unit(UnitHeader {
                command: Some(12),
                issuer: "$server$".into(),
                tag: None,
            })]
        );
    }

    #[test]
    fn oversized_datagram_is_skipped() {
        let mut s = dg("^(31 ");
        s.extend(std::iter::repeat_n(b'x', MAX_DATAGRAM + 10));
        s.extend(dg("^)^(139 1^)"));
        let c = deframe(&s);
        assert!(matches!(&c[0], Chunk::Bad(b) if b.reason.contains("longest")));
        assert_eq!(c[1], Chunk::Datagram(Datagram::new(139).with(1)));
    }

    #[test]
    fn latin1_fields_are_kept() {
        let c = deframe(b"\x19(31 Jos\xe9 {} {ol\xe9} 1\x19)");
        let Chunk::Datagram(d) = &c[0] else {
            panic!("{c:?}")
        };
        assert_eq!(d.field(0), Some("Jos\u{e9}"));
    }
}
