//! Opponent lists (`lists/GM`, `IM`, `C`, `AK`, `S`): loading, classifying an opponent,
//! and editing (`list GM +name -name`) with atomic saves.
//!
//! Each file holds one lower-case handle per line; `#` starts a comment (whole line or
//! after the handle). A malformed line is reported and skipped, and kept verbatim when
//! the file is rewritten, so an edit never loses what the operator wrote.
//!
//! A module of its own, below the bot and the front ends, because both use it: the bot
//! classifies its opponents, the console's `list` command edits the files, and the
//! settings check handles with [`valid_handle`]. It imports nothing of the crate.
//! What each class of opponent then gets (`[opponents]`) is `opponents.rs`.

mod opponents;
pub use opponents::{OpponentsSection, Tuned};

use std::collections::BTreeSet;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The five lists, named as their files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ListKind {
    /// Grandmasters: resign sooner, narrow book.
    Gm,
    /// International masters.
    Im,
    /// Computers: draw score exactly 0, book width for computers.
    C,
    /// Auto-kibitz: these opponents get kibitzes of score and PV.
    Ak,
    /// Special: anti-human contempt.
    S,
}

impl ListKind {
    pub const ALL: [ListKind; 5] = [
        ListKind::Gm,
        ListKind::Im,
        ListKind::C,
        ListKind::Ak,
        ListKind::S,
    ];

    /// The file name (and the name used in `list` commands).
    pub fn file_name(self) -> &'static str {
        match self {
            ListKind::Gm => "GM",
            ListKind::Im => "IM",
            ListKind::C => "C",
            ListKind::Ak => "AK",
            ListKind::S => "S",
        }
    }

    /// Parses a list name, ignoring case.
    pub fn parse(s: &str) -> Option<ListKind> {
        ListKind::ALL
            .into_iter()
            .find(|k| k.file_name().eq_ignore_ascii_case(s))
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// True when `s` can be a server handle: 1-20 ASCII letters, digits, `-` or `_`. Anything
/// else (spaces, `;`, `/`, `..`) is refused before it is ever put into a command or a file.
pub fn valid_handle(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 20
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// A line of a list file that was skipped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListWarning {
    pub file: PathBuf,
    pub line: usize,
    pub message: String,
}

impl fmt::Display for ListWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file.display(), self.line, self.message)
    }
}

/// Why a `list` command failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ListError {
    /// Usage problem (unknown list, bad handle, no `+`/`-`).
    Usage(String),
    /// The file could not be written; the in-memory list is unchanged.
    Io(String),
}

impl fmt::Display for ListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ListError::Usage(s) | ListError::Io(s) => f.write_str(s),
        }
    }
}

impl std::error::Error for ListError {}

/// Titles the server shows for an opponent (`(GM)`, `(IM)`, `(C)`, or the
/// `--** X is a computer **--` notice).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ServerTitles {
    pub gm: bool,
    pub im: bool,
    pub computer: bool,
}

impl ServerTitles {
    /// Reads titles from any text holding parenthesised titles, e.g. `(GM)(C)`; unknown
    /// titles (FM, WGM, TD, ...) are ignored.
    pub fn parse(text: &str) -> ServerTitles {
        let mut t = ServerTitles::default();
        for part in text.split(['(', ')']).filter(|p| !p.is_empty()) {
            match part.trim() {
                "GM" => t.gm = true,
                "IM" => t.im = true,
                "C" => t.computer = true,
                _ => {}
            }
        }
        t
    }

    /// Both sets of titles together.
    pub fn merge(self, other: ServerTitles) -> ServerTitles {
        ServerTitles {
            gm: self.gm || other.gm,
            im: self.im || other.im,
            computer: self.computer || other.computer,
        }
    }
}

/// What wily knows about an opponent, from the lists first and then the server's titles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpponentClass {
    pub category: Category,
    /// In the AK list.
    pub autokibitz: bool,
    /// In the S list.
    pub special: bool,
}

impl OpponentClass {
    /// A class of `category` alone (in neither the AK nor the S list).
    pub fn of(category: Category) -> OpponentClass {
        OpponentClass {
            category,
            autokibitz: false,
            special: false,
        }
    }
}

/// The class that sets resign threshold, book width and draw score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Category {
    Gm,
    Im,
    Computer,
    Other,
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Category::Gm => "GM",
            Category::Im => "IM",
            Category::Computer => "computer",
            Category::Other => "player",
        })
    }
}

/// One list file: the handles, plus every original line for lossless rewriting.
#[derive(Debug, Clone, Default)]
struct ListFile {
    handles: BTreeSet<String>,
    /// Original lines; handle lines are re-derived on save.
    lines: Vec<Line>,
}

#[derive(Debug, Clone)]
enum Line {
    /// Comment, blank or malformed: kept verbatim.
    Keep(String),
    /// A handle (lower case) with its original text.
    Handle(String, String),
}

/// The five opponent lists.
#[derive(Debug, Clone, Default)]
pub struct OpponentLists {
    files: [ListFile; 5],
}

impl OpponentLists {
    /// Loads every list from `dir`. A missing file is an empty list; an unreadable file
    /// or a malformed line gives a warning and is skipped.
    pub fn load(dir: &Path) -> (OpponentLists, Vec<ListWarning>) {
        let mut lists = OpponentLists::default();
        let mut warnings = Vec::new();
        for kind in ListKind::ALL {
            let path = dir.join(kind.file_name());
            match std::fs::read(&path) {
                Ok(bytes) => {
                    let text = String::from_utf8_lossy(&bytes);
                    lists.files[kind.index()] = parse_file(&text, &path, &mut warnings);
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => warnings.push(ListWarning {
                    file: path,
                    line: 0,
                    message: format!("cannot read: {e}"),
                }),
            }
        }
        (lists, warnings)
    }

    /// Parses one list from text (for tests and tools); warnings name `origin`.
    pub fn parse_list(&mut self, kind: ListKind, text: &str, origin: &Path) -> Vec<ListWarning> {
        let mut w = Vec::new();
        self.files[kind.index()] = parse_file(text, origin, &mut w);
        w
    }

    pub fn contains(&self, kind: ListKind, handle: &str) -> bool {
        self.files[kind.index()]
            .handles
            .contains(&handle.to_ascii_lowercase())
    }

    /// The handles of one list, sorted.
    pub fn handles(&self, kind: ListKind) -> impl Iterator<Item = &str> {
        self.files[kind.index()].handles.iter().map(String::as_str)
    }

    /// Classifies an opponent: the GM, IM and C lists decide first; a handle in none of
    /// them is classified by the server's titles.
    pub fn classify(&self, handle: &str, titles: ServerTitles) -> OpponentClass {
        let category = if self.contains(ListKind::Gm, handle) {
            Category::Gm
        } else if self.contains(ListKind::Im, handle) {
            Category::Im
        } else if self.contains(ListKind::C, handle) || titles.computer {
            Category::Computer
        } else if titles.gm {
            Category::Gm
        } else if titles.im {
            Category::Im
        } else {
            Category::Other
        };
        OpponentClass {
            category,
            autokibitz: self.contains(ListKind::Ak, handle),
            special: self.contains(ListKind::S, handle),
        }
    }

    /// Runs a `list` command (`GM +name -name`, or just `GM` to show the list), saving
    /// the changed file atomically into `dir`. Returns a one-line summary.
    pub fn command(&mut self, dir: &Path, args: &str) -> Result<String, ListError> {
        let mut words = args.split_whitespace();
        let Some(name) = words.next() else {
            let sizes: Vec<String> = ListKind::ALL
                .iter()
                .map(|k| format!("{} {}", k.file_name(), self.files[k.index()].handles.len()))
                .collect();
            return Ok(format!("lists: {}", sizes.join(", ")));
        };
        let kind = ListKind::parse(name).ok_or_else(|| {
            ListError::Usage(format!("unknown list {name:?} (GM, IM, C, AK or S)"))
        })?;
        let mut adds = Vec::new();
        let mut removes = Vec::new();
        for w in words {
            let (sign, h) = w.split_at(w.chars().next().map_or(0, char::len_utf8));
            if !valid_handle(h) {
                return Err(ListError::Usage(format!("{w:?} is not +handle or -handle")));
            }
            match sign {
                "+" => adds.push(h.to_ascii_lowercase()),
                "-" => removes.push(h.to_ascii_lowercase()),
                _ => return Err(ListError::Usage(format!("{w:?} is not +handle or -handle"))),
            }
        }
        if adds.is_empty() && removes.is_empty() {
            let names: Vec<&str> = self.handles(kind).collect();
            return Ok(format!(
                "{} ({}): {}",
                kind.file_name(),
                names.len(),
                if names.is_empty() {
                    "empty".to_string()
                } else {
                    names.join(" ")
                }
            ));
        }
        let mut file = self.files[kind.index()].clone();
        for h in &removes {
            file.handles.remove(h);
            file.lines
                .retain(|l| !matches!(l, Line::Handle(x, _) if x == h));
        }
        for h in &adds {
            if file.handles.insert(h.clone()) {
                file.lines.push(Line::Handle(h.clone(), h.clone()));
            }
        }
        let path = dir.join(kind.file_name());
        write_atomic(&path, render(&file).as_bytes())
            .map_err(|e| ListError::Io(format!("cannot save {}: {e}", path.display())))?;
        self.files[kind.index()] = file;
        Ok(format!(
            "{}: added {}, removed {}; now {} handles",
            kind.file_name(),
            if adds.is_empty() {
                "none".into()
            } else {
                adds.join(" ")
            },
            if removes.is_empty() {
                "none".into()
            } else {
                removes.join(" ")
            },
            self.files[kind.index()].handles.len()
        ))
    }
}

fn parse_file(text: &str, path: &Path, warnings: &mut Vec<ListWarning>) -> ListFile {
    let mut f = ListFile::default();
    for (i, raw) in text.lines().enumerate() {
        let body = raw.split('#').next().unwrap_or("").trim();
        if body.is_empty() {
            f.lines.push(Line::Keep(raw.to_string()));
            continue;
        }
        let mut tokens = body.split_whitespace();
        let first = tokens.next().unwrap_or("");
        if tokens.next().is_some() || !valid_handle(first) {
            warnings.push(ListWarning {
                file: path.to_path_buf(),
                line: i + 1,
                message: format!("not a handle, skipped: {:?}", body),
            });
            f.lines.push(Line::Keep(raw.to_string()));
            continue;
        }
        let h = first.to_ascii_lowercase();
        f.handles.insert(h.clone());
        f.lines.push(Line::Handle(h, raw.to_string()));
    }
    f
}

fn render(f: &ListFile) -> String {
    let mut out = String::new();
    for l in &f.lines {
        match l {
            Line::Keep(s) | Line::Handle(_, s) => out.push_str(s),
        }
        out.push('\n');
    }
    out
}

/// Replaces `path` with `data` atomically: a temporary file in the same folder, fsync,
/// rename, then fsync of the folder (where the platform allows it).
pub fn write_atomic(path: &Path, data: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or_else(|| Path::new("."));
    std::fs::create_dir_all(dir)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "file".into());
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(data)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)?;
        if let Ok(d) = std::fs::File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmpdir(tag: &str) -> tempfile::TempDir {
        testkit::scratch::dir(&format!("lists-{tag}"))
    }

    #[test]
    fn handles_are_validated() {
        assert!(valid_handle("Crafty"));
        assert!(valid_handle("wily-2_b"));
        assert!(!valid_handle(""));
        assert!(!valid_handle("a b"));
        assert!(!valid_handle("../etc"));
        assert!(!valid_handle("x;quit"));
        assert!(!valid_handle("aaaaaaaaaaaaaaaaaaaaaaaaa"));
    }

    #[test]
    fn load_skips_malformed_lines_and_reports_them() {
        let tmp = tmpdir("load");
        let d = tmp.path();
        std::fs::write(
            d.join("GM"),
            "# grandmasters\nKasparov\ncarlsen # the champion\nnot a handle\n\nbad;name\n",
        )
        .unwrap();
        let (l, w) = OpponentLists::load(d);
        assert!(l.contains(ListKind::Gm, "kasparov"));
        assert!(l.contains(ListKind::Gm, "Carlsen"));
        assert_eq!(w.len(), 2, "{w:?}");
        assert_eq!(w[0].line, 4);
        assert_eq!(w[1].line, 6);
        assert!(w[0].to_string().contains("GM:4"));
    }

    #[test]
    fn classify_lists_first_then_titles() {
        let mut l = OpponentLists::default();
        l.parse_list(ListKind::Im, "bob\n", Path::new("IM"));
        l.parse_list(ListKind::Ak, "bob\n", Path::new("AK"));
        l.parse_list(ListKind::S, "eve\n", Path::new("S"));
        let gm = ServerTitles::parse("(GM)");
        // bob is in the IM list: the list wins over the server's (GM).
        let c = l.classify("Bob", gm);
        assert_eq!(c.category, Category::Im);
        assert!(c.autokibitz && !c.special);
        assert_eq!(l.classify("alice", gm).category, Category::Gm);
        assert_eq!(
            l.classify("alice", ServerTitles::parse("(IM)")).category,
            Category::Im
        );
        assert_eq!(
            l.classify("deep", ServerTitles::parse("(GM)(C)")).category,
            Category::Computer
        );
        let e = l.classify("eve", ServerTitles::default());
        assert_eq!(e.category, Category::Other);
        assert!(e.special);
    }

    #[test]
    fn command_edits_and_saves_atomically_keeping_comments() {
        let tmp = tmpdir("edit");
        let d = tmp.path();
        std::fs::write(d.join("C"), "# computers\nrybka\nmalformed line\n").unwrap();
        let (mut l, w) = OpponentLists::load(d);
        assert_eq!(w.len(), 1);
        let msg = l.command(d, "c +Stockfish -rybka").unwrap();
        assert!(msg.contains("stockfish"), "{msg}");
        let text = std::fs::read_to_string(d.join("C")).unwrap();
        assert_eq!(text, "# computers\nmalformed line\nstockfish\n");
        let (l2, _) = OpponentLists::load(d);
        assert!(l2.contains(ListKind::C, "stockfish"));
        assert!(!l2.contains(ListKind::C, "rybka"));
        // no temporary files left behind
        let leftovers: Vec<_> = std::fs::read_dir(d)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(leftovers.is_empty());
    }

    #[test]
    fn command_rejects_bad_input_without_changes() {
        let tmp = tmpdir("bad");
        let d = tmp.path();
        let mut l = OpponentLists::default();
        assert!(matches!(l.command(d, "XX +a"), Err(ListError::Usage(_))));
        assert!(matches!(l.command(d, "GM a"), Err(ListError::Usage(_))));
        assert!(matches!(
            l.command(d, "GM +../../etc/passwd"),
            Err(ListError::Usage(_))
        ));
        assert!(!d.join("GM").exists());
        assert!(l.command(d, "GM").unwrap().contains("empty"));
        assert!(l.command(d, "").unwrap().starts_with("lists:"));
    }

    #[test]
    fn titles_parse() {
        let t = ServerTitles::parse("(GM)(C)");
        assert!(t.gm && t.computer && !t.im);
        assert_eq!(ServerTitles::parse("(FM)(TD)"), ServerTitles::default());
    }
}
