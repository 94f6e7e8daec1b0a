//! The module map, checked: every file under `src/` is read, every path it names
//! (`use crate::..`, `super::..`, `child::..`, `wily::..` in `main.rs`) is resolved to the
//! file that defines it (through `pub use` re-exports), and the test fails on
//! - an import loop between files (the loop is printed, with the line of each import);
//! - a module importing one that is not below it in [`LAYERS`] (`docs/modules.md` shows
//!   the same table as a diagram);
//! - socket, file, thread or process I/O in `src/ics/`, the pure protocol client.
//!
//! No extra dependencies: the reading is done by `tests/it/layers_support/`, which the
//! `checker_*` tests below try on small made-up crates first.

use crate::layers_support;

use layers_support::graph::Graph;
use std::path::Path;

/// Each top-level module and the modules it may import, lowest first. `scratch` (the
/// tests' temporary folders) may be used by all; a module may always use itself.
const LAYERS: &[(&str, &[&str])] = &[
    ("chess", &[]),
    ("engine", &["chess"]),
    ("datadir", &[]),
    ("book", &["chess", "engine", "datadir"]),
    ("learn", &["chess", "engine", "book", "datadir"]),
    ("lists", &["datadir"]),
    ("ics", &["chess"]),
    ("link", &["ics"]),
    ("server", &["chess", "ics", "link"]),
    ("config", &["lists"]),
    (
        "bot",
        &[
            "chess", "engine", "book", "learn", "lists", "datadir", "ics", "link", "config",
            "server",
        ],
    ),
    ("web", &["bot", "config", "learn"]),
    ("soak", &["chess", "ics", "link", "server", "config", "bot"]),
    (
        "protocol",
        &["chess", "engine", "book", "learn", "lists", "datadir"],
    ),
    (
        "tools",
        &["chess", "engine", "book", "learn", "datadir", "protocol"],
    ),
    (
        "match",
        &[
            "chess", "engine", "book", "learn", "datadir", "protocol", "tools",
        ],
    ),
    ("tune", &["chess", "engine", "book", "learn"]),
];

/// Paths into other crates that mean I/O, which `src/ics/` must not name.
const IO_PATHS: &[&[&str]] = &[
    &["tokio"],
    &["std", "net"],
    &["std", "fs"],
    &["std", "thread"],
    &["std", "process"],
];

fn sources(root: &Path) -> Vec<(String, String)> {
    fn walk(dir: &Path, root: &Path, out: &mut Vec<(String, String)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
            .map(|e| e.expect("directory entry").path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, root, out);
            } else if p.extension().is_some_and(|e| e == "rs") {
                let rel = p.strip_prefix(root).expect("under the root");
                let text = std::fs::read_to_string(&p).expect("source file");
                out.push((rel.to_string_lossy().replace('\\', "/"), text));
            }
        }
    }
    let mut out = Vec::new();
    walk(&root.join("src"), root, &mut out);
    out
}

fn crate_graph() -> Graph {
    Graph::build(&sources(Path::new(env!("CARGO_MANIFEST_DIR"))))
}

/// The top-level module of file `k` (`lib` for `src/lib.rs`, `main` for `src/main.rs`).
fn top(g: &Graph, k: usize) -> &str {
    g.modules[k].first().map_or("lib", String::as_str)
}

/// Every import that goes sideways or up, as `file:line -> file (module -> module)`.
fn upward_imports(g: &Graph) -> Vec<String> {
    let mut out = Vec::new();
    for e in &g.edges {
        let (from, to) = (top(g, e.from), top(g, e.to));
        if from == to || to == "scratch" || from == "lib" || from == "main" {
            continue;
        }
        let allowed = LAYERS.iter().find(|(m, _)| *m == from).map(|(_, a)| *a);
        if allowed.is_some_and(|a| a.contains(&to)) {
            continue;
        }
        let why = match allowed {
            Some(_) => format!("{from} may not import {to}"),
            None => format!("{from} is not in LAYERS"),
        };
        let text = format!(
            "{}:{} -> {} ({why})",
            g.files[e.from], e.line, g.files[e.to]
        );
        out.push(text);
    }
    out
}

#[test]
fn no_import_loops() {
    let g = crate_graph();
    assert!(g.files.len() > 100, "read only {} files", g.files.len());
    let loops: Vec<String> = g
        .cycles()
        .into_iter()
        .map(|(files, text)| format!("{text}\n    (the loop's files: {})", files.join(", ")))
        .collect();
    assert!(
        loops.is_empty(),
        "import loops between files (move what both need to a lower file, or hand the \
         higher one's work down as a callback):\n{}",
        loops.join("\n")
    );
}

#[test]
fn modules_import_only_downward() {
    let g = crate_graph();
    for k in 0..g.files.len() {
        let t = top(&g, k);
        let known = LAYERS.iter().any(|(m, _)| *m == t);
        assert!(
            known || ["lib", "main", "scratch"].contains(&t),
            "{}: top-level module {t} is not in LAYERS (tests/it/module_layers.rs, docs/modules.md)",
            g.files[k]
        );
    }
    let found = upward_imports(&g);
    assert!(
        found.is_empty(),
        "imports against the layer order (LAYERS in tests/it/module_layers.rs, docs/modules.md):\n{}",
        found.join("\n")
    );
}

#[test]
fn protocol_client_does_no_io() {
    let g = crate_graph();
    let mut bad = Vec::new();
    for k in (0..g.files.len()).filter(|&k| top(&g, k) == "ics") {
        for (segs, line) in &g.externals[k] {
            let segs: Vec<&str> = segs
                .iter()
                .map(String::as_str)
                .filter(|s| *s != "::")
                .collect();
            if IO_PATHS.iter().any(|p| segs.starts_with(p)) {
                bad.push(format!("{}:{line}: {}", g.files[k], segs.join("::")));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "I/O in the protocol client (belongs in src/link/):\n{}",
        bad.join("\n")
    );
}

fn made_up(files: &[(&str, &str)]) -> Graph {
    let files: Vec<(String, String)> = files
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
    Graph::build(&files)
}

fn edges(g: &Graph) -> Vec<(&str, &str)> {
    g.edges
        .iter()
        .map(|e| (g.files[e.from].as_str(), g.files[e.to].as_str()))
        .collect()
}

#[test]
fn checker_finds_a_loop_and_prints_it() {
    let g = made_up(&[
        ("src/lib.rs", "pub mod a;\npub mod b;\npub mod c;\n"),
        ("src/a.rs", "use crate::b::B;\npub struct A;\n"),
        ("src/b.rs", "pub struct B;\nfn f() { crate::c::g(); }\n"),
        ("src/c.rs", "pub fn g() {}\nfn h(_: super::a::A) {}\n"),
    ]);
    let loops = g.cycles();
    assert_eq!(loops.len(), 1, "{loops:?}");
    assert_eq!(loops[0].0, ["src/a.rs", "src/b.rs", "src/c.rs"]);
    assert_eq!(
        loops[0].1,
        "3 files in a loop: src/a.rs:1 -> src/b.rs:2 -> src/c.rs:2 -> src/a.rs"
    );
}

#[test]
fn checker_sees_through_reexports_comments_and_strings() {
    let g = made_up(&[
        ("src/lib.rs", "pub mod m;\npub mod n;\n"),
        ("src/m/mod.rs", "mod x;\npub use x::X;\npub struct Y;\n"),
        (
            "src/m/x.rs",
            "use super::Y;\npub struct X;\n#[cfg(test)]\nmod tests { use super::*; }\n",
        ),
        (
            "src/n.rs",
            "// use crate::m::Y;\n/* crate::m::Y */ const S: &str = \"crate::m::Y\";\n\
             const C: char = '\\'';\nfn f<'a>(_: &'a str) { let _ = crate::m::X; }\n",
        ),
    ]);
    assert!(g.cycles().is_empty(), "{:?}", g.cycles());
    // n names m::X, which m/mod.rs re-exports from m/x.rs; the comment, the string and the
    // char literal name nothing.
    assert_eq!(
        edges(&g),
        [("src/m/x.rs", "src/m/mod.rs"), ("src/n.rs", "src/m/x.rs")]
    );
    assert_eq!(g.edges[1].line, 4);
}

#[test]
fn checker_flags_an_upward_import_and_io_in_the_client() {
    let g = made_up(&[
        (
            "src/lib.rs",
            "pub mod chess;\npub mod engine;\npub mod ics;\n",
        ),
        ("src/chess.rs", "use crate::engine::Search;\n"),
        ("src/engine.rs", "pub struct Search;\n"),
        ("src/ics.rs", "use std::net::TcpStream;\nuse std::fmt;\n"),
    ]);
    let up = upward_imports(&g);
    assert_eq!(up.len(), 1, "{up:?}");
    assert_eq!(
        up[0],
        "src/chess.rs:1 -> src/engine.rs (chess may not import engine)"
    );
    let ics = g.files.iter().position(|f| f == "src/ics.rs").expect("ics");
    assert_eq!(g.externals[ics].len(), 2);
    assert_eq!(g.externals[ics][0].0, ["std", "net", "TcpStream"]);
}

#[test]
fn checker_sees_method_calls_across_files_of_one_type() {
    // `impl S` spread over two files of one folder: a `self.method()` call into the other
    // file is a dependency (with a turbofish too); a method name defined twice
    // (ambiguous) or a free-standing `-> impl Trait` is not.
    let g = made_up(&[
        ("src/lib.rs", "pub mod s;\n"),
        ("src/s/mod.rs", "mod a;\nmod b;\npub struct S;\n"),
        (
            "src/s/a.rs",
            "use super::S;\nimpl S {\n    pub fn run(&self) {\n        self.step::<Vec<u8>>();\n        self.both();\n    }\n    fn both(&self) {}\n}\n",
        ),
        (
            "src/s/b.rs",
            "use super::S;\nfn it() -> impl Iterator<Item = u8> { None.into_iter() }\nimpl S {\n    pub fn step<T>(&self) {}\n    fn both(&self) {}\n}\n",
        ),
    ]);
    assert!(g.cycles().is_empty(), "{:?}", g.cycles());
    let from_a: Vec<_> = g
        .edges
        .iter()
        .filter(|e| g.files[e.from] == "src/s/a.rs")
        .map(|e| (g.files[e.to].as_str(), e.line))
        .collect();
    assert_eq!(from_a, [("src/s/mod.rs", 1), ("src/s/b.rs", 4)]);
}
