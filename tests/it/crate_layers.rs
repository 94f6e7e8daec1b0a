//! What Cargo does not check about the crate map (`docs/modules.md`): Cargo already
//! refuses an import of a crate that a `Cargo.toml` does not list, and any loop between
//! crates. Checked here, from the manifests and the sources:
//! - every crate under `crates/` depends only on the wily crates its row of [`CRATES`]
//!   allows (the table in `docs/modules.md`), so a new dependency edge is a decision made
//!   in the map, not a line slipped into a manifest;
//! - the lean engine binary (`wily-lean`, what `make EXE=NAME` builds) pulls in no tokio,
//!   axum or SQLite, through any wily crate it depends on;
//! - the `ics` crate, the pure protocol client, does no socket, file, thread or process
//!   I/O (no `tokio`, `std::net`, `std::fs`, `std::thread`, `std::process`).

use std::collections::BTreeSet;
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
