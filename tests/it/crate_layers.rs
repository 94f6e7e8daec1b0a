//! What Cargo does not check about the crate map (`docs/modules.md`): Cargo already
//! refuses an import of a crate that a `Cargo.toml` does not list, and any loop between
//! crates. Checked here, from the manifests and the sources:
//! - every crate under `crates/` depends only on the wily crates its row of [`CRATES`]
//!   allows (the table in `docs/modules.md`), so a new dependency edge is a decision made
//!   in the map, not a line slipped into a manifest;
//! - the lean engine binary (`wily-lean`, what `make EXE=NAME` builds) pulls in no tokio,
//!   axum or SQLite, through any wily crate it depends on;
//! - the `ics` crate, the pure protocol client, does no socket, file, thread or process
//!   I/O (no `tokio`, `std::net`, `std::fs`, `std::thread`, `std::process`);
//! - no type has `impl` blocks in more than one folder of its crate: a concept's
//!   handlers are methods of the concept's own state, in its folder, not more methods of
//!   one type spread over the house;
//! - no folder holds near-twin names (`offer.rs` beside `offers.rs`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each crate (its folder under `crates/`) and the wily crates it may depend on.
const CRATES: &[(&str, &[&str])] = &[
    ("testkit", &[]),
    ("chess", &[]),
    ("engine", &["chess"]),
    ("datadir", &[]),
    ("settings", &[]),
    ("lists", &["datadir", "settings"]),
    ("book", &["chess", "engine", "datadir"]),
    ("learn", &["chess", "engine", "book", "datadir"]),
    ("ics", &["chess", "settings"]),
    ("link", &["ics"]),
    ("server", &["chess", "ics", "link"]),
    ("config", &["lists", "ics", "settings"]),
    (
        "bot",
        &[
            "chess", "engine", "book", "learn", "lists", "datadir", "ics", "link", "config",
            "server",
        ],
    ),
    ("web", &["bot", "config", "learn"]),
    ("soak", &["chess", "ics", "link", "server", "config", "bot"]),
    ("uci", &["chess", "engine"]),
    (
        "protocol",
        &[
            "chess", "engine", "book", "learn", "lists", "datadir", "uci",
        ],
    ),
    ("tools", &["chess", "engine", "uci"]),
    ("lean", &["chess", "engine", "uci", "tools"]),
    (
        "match",
        &[
            "chess", "engine", "book", "learn", "datadir", "uci", "protocol", "tools",
        ],
    ),
    ("tune", &["chess", "engine", "book", "learn"]),
];

/// External crates the lean engine binary must not contain.
const NOT_LEAN: &[&str] = &["tokio", "axum", "rusqlite"];

fn crates_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("crates")
}

/// The dependency names of a manifest's `[dependencies]` table, with the wily crates by
/// folder (`wily-chess` as `chess`, however the dependency is renamed); `[dev-dependencies]`
/// are left out (test support is not an edge of the map).
fn dependencies(manifest: &str) -> (BTreeSet<String>, BTreeSet<String>) {
    let (mut wily, mut external) = (BTreeSet::new(), BTreeSet::new());
    let mut section = "";
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line;
            continue;
        }
        if section != "[dependencies]" || line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let key = key.trim().trim_end_matches(".workspace").trim();
        let package = value
            .split("package = \"")
            .nth(1)
            .and_then(|v| v.split('"').next())
            .unwrap_or(key);
        match package.strip_prefix("wily-") {
            Some(folder) => wily.insert(folder.to_string()),
            None => external.insert(package.to_string()),
        };
    }
    (wily, external)
}

fn manifest(folder: &str) -> String {
    let path = crates_dir().join(folder).join("Cargo.toml");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_crate_depends_only_on_what_the_map_allows() {
    let mut on_disk: Vec<String> = std::fs::read_dir(crates_dir())
        .expect("crates/")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = CRATES.iter().map(|(c, _)| c.to_string()).collect();
    listed.sort();
    assert_eq!(
        on_disk, listed,
        "the crates under crates/ and CRATES (tests/it/crate_layers.rs, docs/modules.md) differ"
    );
    let mut bad = Vec::new();
    for (krate, allowed) in CRATES {
        for dep in dependencies(&manifest(krate)).0 {
            if !allowed.contains(&dep.as_str()) {
                bad.push(format!(
                    "crates/{krate}/Cargo.toml: {krate} may not depend on {dep}"
                ));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "dependencies against the crate map (CRATES in tests/it/crate_layers.rs, docs/modules.md):\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_lean_engine_has_no_server_side_crates() {
    let mut seen = BTreeSet::new();
    let mut todo = vec!["lean".to_string()];
    let mut bad = Vec::new();
    while let Some(krate) = todo.pop() {
        if !seen.insert(krate.clone()) {
            continue;
        }
        let (wily, external) = dependencies(&manifest(&krate));
        for e in external.iter().filter(|e| NOT_LEAN.contains(&e.as_str())) {
            bad.push(format!("wily-lean depends on {e} through wily-{krate}"));
        }
        todo.extend(wily);
    }
    assert!(
        seen.contains("engine"),
        "wily-lean without the engine? {seen:?}"
    );
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The text with comments, string and character literals blanked (lines kept), so that a
/// path in a doc comment or a message is not taken for code.
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let rest = &text[i..];
        let end = if rest.starts_with("//") {
            rest.find('\n').map_or(b.len(), |n| i + n)
        } else if rest.starts_with("/*") {
            rest.find("*/").map_or(b.len(), |n| i + n + 2)
        } else if rest.starts_with('"') {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            (j + 1).min(b.len())
        } else if let Some(escaped) = rest.strip_prefix("'\\") {
            escaped.find('\'').map_or(b.len(), |n| i + n + 3)
        } else if rest.len() >= 3
            && rest.starts_with('\'')
            && rest[1..].chars().nth(1) == Some('\'')
        {
            i + 1 + rest[1..].chars().next().map_or(0, char::len_utf8) + 1
        } else {
            let c = rest.chars().next().expect("a character");
            out.push(c);
            i += c.len_utf8();
            continue;
        };
        out.extend(text[i..end].chars().filter(|&c| c == '\n'));
        i = end;
    }
    out
}

/// `file:line: path` for each I/O path in the sources.
fn io_paths(files: &[(String, String)]) -> Vec<String> {
    const IO: &[&str] = &["net", "fs", "thread", "process"];
    let mut bad = Vec::new();
    for (name, text) in files {
        for (n, line) in code_only(text).lines().enumerate() {
            let words: Vec<&str> = line
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .filter(|w| !w.is_empty())
                .collect();
            let std_io = line.contains("std::")
                && words.iter().any(|w| IO.contains(w))
                && words.contains(&"std");
            if words.contains(&"tokio") || std_io {
                bad.push(format!("{name}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    bad
}

fn sources(dir: &Path, out: &mut Vec<(String, String)>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&p).expect("source file");
            out.push((p.display().to_string(), text));
        }
    }
}

#[test]
fn the_protocol_client_does_no_io() {
    let (_, external) = dependencies(&manifest("ics"));
    assert!(
        !external.contains("tokio"),
        "crates/ics/Cargo.toml lists tokio"
    );
    let mut files = Vec::new();
    sources(&crates_dir().join("ics/src"), &mut files);
    assert!(files.len() > 20, "read only {} files", files.len());
    let bad = io_paths(&files);
    assert!(
        bad.is_empty(),
        "I/O in the protocol client (belongs in crates/link/):\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_io_check_sees_code_not_comments_or_strings() {
    let file = |text: &str| vec![("x.rs".to_string(), text.to_string())];
    let quiet = "// std::fs::read\n/* tokio */ const S: &str = \"std::net\";\nconst C: char = '\"';\nfn f() {}\n";
    assert!(
        io_paths(&file(quiet)).is_empty(),
        "{:?}",
        io_paths(&file(quiet))
    );
    let loud = "use std::{fmt, net::TcpStream};\nfn f() { let _ = std::fs::read(\"x\"); }\nuse tokio::io;\n";
    assert_eq!(
        io_paths(&file(loud)),
        [
            "x.rs:1: use std::{fmt, net::TcpStream};",
            "x.rs:2: fn f() { let _ = std::fs::read(); }",
            "x.rs:3: use tokio::io;",
        ]
    );
}

/// The type an `impl` block at the start of `line` is for: `impl<T> Trait for Type<T> {`
/// gives `Type`, `impl Foo {` gives `Foo`.
fn impl_target(line: &str) -> Option<String> {
    let mut rest = line.strip_prefix("impl")?;
    if rest.starts_with('<') {
        let mut depth = 0;
        let end = rest.char_indices().find_map(|(i, c)| {
            match c {
                '<' => depth += 1,
                '>' => depth -= 1,
                _ => {}
            }
            (depth == 0).then_some(i)
        })?;
        rest = &rest[end + 1..];
    } else if !rest.starts_with(' ') {
        return None;
    }
    let head = rest.split('{').next()?.trim();
    let ty = head.rsplit_once(" for ").map_or(head, |(_, t)| t).trim();
    let path: String = ty
        .trim_start_matches('&')
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
        .collect();
    let name = path.rsplit("::").next()?.to_string();
    (!name.is_empty()).then_some(name)
}

/// `Type: folder, folder` for each type with `impl` blocks in files of more than one
/// folder (`src` is the crate's source folder; its root is a folder of its own).
fn impls_across_folders(src: &Path, files: &[(String, String)]) -> Vec<String> {
    let mut folders: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (name, text) in files {
        let rel = Path::new(name).strip_prefix(src).unwrap_or(Path::new(name));
        let folder = rel
            .parent()
            .map(|p| p.display().to_string())
            .filter(|p| !p.is_empty())
            .unwrap_or_else(|| ".".into());
        for line in code_only(text).lines() {
            if let Some(ty) = impl_target(line) {
                folders.entry(ty).or_default().insert(folder.clone());
            }
        }
    }
    folders
        .into_iter()
        .filter(|(_, f)| f.len() > 1)
        .map(|(ty, f)| format!("{ty}: {}", f.into_iter().collect::<Vec<_>>().join(", ")))
        .collect()
}

#[test]
fn no_type_has_impl_blocks_in_two_folders() {
    let mut bad = Vec::new();
    for (krate, _) in CRATES {
        let src = crates_dir().join(krate).join("src");
        let mut files = Vec::new();
        sources(&src, &mut files);
        for b in impls_across_folders(&src, &files) {
            bad.push(format!("{krate}: {b}"));
        }
    }
    assert!(
        bad.is_empty(),
        "types with impl blocks in more than one folder (a concept's handlers belong to its own state's type, docs/modules.md):\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_impl_check_finds_each_type_and_folder() {
    assert_eq!(impl_target("impl Session {").as_deref(), Some("Session"));
    assert_eq!(
        impl_target("impl<'a> Iterator for Rows<'a> {").as_deref(),
        Some("Rows")
    );
    assert_eq!(
        impl_target("impl std::fmt::Display for crate::x::Kind {").as_deref(),
        Some("Kind")
    );
    assert_eq!(impl_target("implement_this();"), None);
    assert_eq!(
        impl_target("    impl Inner {"),
        None,
        "only items at the top level"
    );
    let src = Path::new("/c/src");
    let file = |n: &str, t: &str| (format!("/c/src/{n}"), t.to_string());
    let one = [
        file("a/x.rs", "impl A {}\nimpl Default for A {}\n"),
        file("a/y.rs", "impl A {}\n// impl A in b/\n"),
        file("b/z.rs", "impl B {}\nconst S: &str = \"impl A {\";\n"),
    ];
    assert!(impls_across_folders(src, &one).is_empty());
    let two = [
        file("a/x.rs", "impl A {}\n"),
        file("b/z.rs", "impl<T> From<T> for A {}\n"),
        file("root.rs", "impl A {}\n"),
    ];
    assert_eq!(impls_across_folders(src, &two), ["A: ., a, b"]);
}

/// A file or folder name without one plural or verb ending (`offers`, `watching`,
/// `searcher` give `offer`, `watch`, `search`).
fn stem(name: &str) -> &str {
    for suffix in ["ing", "s", "er"] {
        if let Some(s) = name.strip_suffix(suffix).filter(|s| s.len() >= 3) {
            return s;
        }
    }
    name
}

/// Two names one ending apart (`offer` and `offers`), or with the same stem (`relay` and
/// `relaying`, `observe` and `observing`).
fn twins_of(a: &str, b: &str) -> bool {
    let bare = |n: &str| stem(n).trim_end_matches('e').to_string();
    a != b && (stem(a) == b || stem(b) == a || bare(a) == bare(b))
}

/// Pairs of near-twin names (`offer.rs` and `offers.rs`, `watch.rs` and `watching.rs`) in
/// one folder of the sources under `dir`, as `folder: a, b`.
fn near_twins(dir: &Path) -> Vec<String> {
    let mut twins = Vec::new();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    let names: Vec<String> = entries
        .iter()
        .filter(|p| p.is_dir() || p.extension().is_some_and(|e| e == "rs"))
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect();
    for (i, a) in names.iter().enumerate() {
        for b in &names[i + 1..] {
            if twins_of(a, b) {
                twins.push(format!("{}: {a}, {b}", dir.display()));
            }
        }
    }
    for p in entries.iter().filter(|p| p.is_dir()) {
        twins.extend(near_twins(p));
    }
    twins
}

#[test]
fn no_folder_has_near_twin_file_names() {
    let mut twins = Vec::new();
    for (krate, _) in CRATES {
        twins.extend(near_twins(&crates_dir().join(krate).join("src")));
    }
    assert!(
        twins.is_empty(),
        "near-twin names in one folder (name each file for its concept):\n{}",
        twins.join("\n")
    );
    for (a, b) in [
        ("offer", "offers"),
        ("watch", "watching"),
        ("search", "searcher"),
        ("relay", "relaying"),
        ("observe", "observing"),
    ] {
        assert!(twins_of(a, b) && twins_of(b, a), "{a}, {b}");
    }
    for (a, b) in [
        ("play", "players"),
        ("game", "games_list"),
        ("cli", "client"),
    ] {
        assert!(!twins_of(a, b), "{a}, {b}");
    }
}
