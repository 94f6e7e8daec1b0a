//! The settings reference agrees with the settings: every key the settings structs
//! accept, and every key the shipped `config.toml` sets, has a row in a `| key | ... |`
//! table of the manual (`docs/bot.md`'s settings reference, or a page beside it), and
//! every key such a row names is one the structs accept.
//!
//! The keys the structs accept are read from the structs themselves: every section is
//! `deny_unknown_fields`, so a settings text with a made-up key in a section is refused
//! with serde's list of the section's fields, and each field is then tried as a table,
//! an array of tables or a plain value. No list of keys is kept by hand here.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use wily::config::{Config, ConfigError};

const PROBE: &str = "zz_not_a_key";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The fields serde lists for the section a probe text puts the made-up key in, or
/// `None` when the text is refused for another reason (the path is not a table).
fn fields_of(text: &str) -> Option<Vec<String>> {
    let message = match Config::parse(text, Path::new("probe.toml")) {
        Err(ConfigError::Parse { message, .. }) => message,
        _ => return None,
    };
    let at = message.find(&format!("unknown field `{PROBE}`"))?;
    let rest = &message[at..];
    if rest.contains("there are no fields") {
        return Some(Vec::new());
    }
    let expected = &rest[rest.find("expected")?..];
    let line = expected.lines().next().unwrap_or("");
    Some(
        line.split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect(),
    )
}

/// Every key (dotted, arrays of tables as their field's path: `seek.ads.base`) the settings
/// structs accept below `path`, and the tables among them.
fn accepted(path: &str, keys: &mut BTreeSet<String>, tables: &mut BTreeSet<String>) {
    let probe = if path.is_empty() {
        Some(format!("{PROBE} = 0\n"))
    } else {
        None
    };
    let fields = match probe {
        Some(text) => fields_of(&text).expect("the top level lists its sections"),
        None => {
            let table = fields_of(&format!("[{path}]\n{PROBE} = 0\n"));
            let array = || fields_of(&format!("[[{path}]]\n{PROBE} = 0\n"));
            match table.or_else(array) {
                Some(f) => f,
                None => {
                    keys.insert(path.to_string());
                    return;
                }
            }
        }
    };
    if !path.is_empty() {
        tables.insert(path.to_string());
    }
    for f in fields {
        let child = if path.is_empty() {
            f
        } else {
            format!("{path}.{f}")
        };
        accepted(&child, keys, tables);
    }
}

/// The keys a TOML value sets, flattened the same way.
fn set_keys(prefix: &str, value: &toml::Value, out: &mut BTreeSet<String>) {
    let join = |k: &str| {
        if prefix.is_empty() {
            k.to_string()
        } else {
            format!("{prefix}.{k}")
        }
    };
    match value {
        toml::Value::Table(t) => {
            for (k, v) in t {
                set_keys(&join(k), v, out);
            }
        }
        toml::Value::Array(a) if !a.is_empty() && a.iter().all(|v| v.is_table()) => {
            // An array of tables names its fields (`[[seek.ads]]` -> `seek.ads.base`),
            // unless the structs take the array as one value (checked by the caller).
            for v in a {
                set_keys(prefix, v, out);
            }
        }
        _ => {
            out.insert(prefix.to_string());
        }
    }
}

/// A documented key: a full name, or every key below a table (`accept.decline.*`).
#[derive(Debug)]
struct Documented {
    page: String,
    keys: BTreeSet<String>,
    wildcards: BTreeSet<String>,
    /// The default column of a key's rows (in tables whose second column is `default`):
    /// the row's one value in backticks, the value at the key's place when the row names
    /// as many keys as values, or else the cell's text.
    defaults: BTreeMap<String, Vec<String>>,
}

/// The names in the first cell of every row of every `| key |` table in `docs/*.md`.
/// A cell names keys in backticks; a name without a dot continues the table of the name
/// before it (`opponents.resign_gm`, `resign_im`), and `` `[[seek.ads]]` `` names the
/// table the names after it belong to.
fn documented() -> Documented {
    let mut doc = Documented {
        page: String::new(),
        keys: BTreeSet::new(),
        wildcards: BTreeSet::new(),
        defaults: BTreeMap::new(),
    };
    let dir = root().join("docs");
    let mut pages: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("docs/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    for page in pages {
        let text = std::fs::read_to_string(&page).expect("page");
        let mut in_table = false;
        let mut with_defaults = false;
        for line in text.lines() {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            if line.starts_with('|') && cells.get(1) == Some(&"key") {
                in_table = true;
                with_defaults = cells.get(2) == Some(&"default");
                doc.page.push_str(&format!("{} ", page.display()));
                continue;
            }
            if !line.starts_with('|') {
                in_table = false;
                continue;
            }
            if !in_table || cells.get(1).is_some_and(|c| c.starts_with("---")) {
                continue;
            }
            let mut table = String::new();
            let mut row_keys = Vec::new();
            for name in cells[1].split('`').skip(1).step_by(2) {
                if let Some(t) = name.strip_prefix("[[").and_then(|n| n.strip_suffix("]]")) {
                    table = t.to_string();
                } else if let Some(t) = name.strip_prefix('[').and_then(|n| n.strip_suffix(']')) {
                    table = t.to_string();
                } else if let Some(t) = name.strip_suffix(".*") {
                    doc.wildcards.insert(t.to_string());
                } else if let Some((t, _)) = name.rsplit_once('.') {
                    table = t.to_string();
                    row_keys.push(name.to_string());
                } else if !table.is_empty() {
                    row_keys.push(format!("{table}.{name}"));
                } else {
                    row_keys.push(name.to_string());
                }
            }
            let cell = cells.get(2).copied().unwrap_or("");
            let values: Vec<&str> = cell.split('`').skip(1).step_by(2).collect();
            for (i, key) in row_keys.iter().enumerate().filter(|_| with_defaults) {
                let value = match values.len() {
                    1 => values[0],
                    n if n == row_keys.len() => values[i],
                    _ => cell,
                };
                doc.defaults
                    .entry(key.clone())
                    .or_default()
                    .push(value.to_string());
            }
            doc.keys.extend(row_keys);
        }
    }
    doc
}

fn is_documented(key: &str, doc: &Documented) -> bool {
    doc.keys.contains(key)
        || doc
            .wildcards
            .iter()
            .any(|w| key.starts_with(&format!("{w}.")))
}

#[test]
fn the_structs_list_their_keys() {
    let (mut keys, mut tables) = (BTreeSet::new(), BTreeSet::new());
    accepted("", &mut keys, &mut tables);
    // The probe finds what it should: tables, arrays of tables, nested tables, plain keys.
    for t in ["server", "seek.ads", "accept.decline", "web", "accounts"] {
        assert!(tables.contains(t), "{t} not found as a table: {tables:?}");
    }
    for k in [
        "server.host",
        "seek.ads.base",
        "accept.decline.busy",
        "talk.whisper",
    ] {
        assert!(keys.contains(k), "{k} not found as a key: {keys:?}");
    }
    assert!(!keys.contains("server.no_such_key"));
}

#[test]
fn every_settings_key_is_documented_and_every_documented_key_exists() {
    let (mut keys, mut tables) = (BTreeSet::new(), BTreeSet::new());
    accepted("", &mut keys, &mut tables);
    let doc = documented();
    assert!(
        doc.page.contains("bot.md"),
        "docs/bot.md has no `| key |` table: {}",
        doc.page
    );

    let undocumented: Vec<&String> = keys.iter().filter(|k| !is_documented(k, &doc)).collect();
    assert!(
        undocumented.is_empty(),
        "settings keys without a row in a `| key | default | meaning |` table of docs/ \
         (the reference is docs/bot.md, \"Settings\"): {undocumented:?}"
    );

    let unknown: Vec<&String> = doc.keys.iter().filter(|k| !keys.contains(*k)).collect();
    assert!(
        unknown.is_empty(),
        "documented keys the settings do not accept: {unknown:?}"
    );
    let unknown: Vec<&String> = doc
        .wildcards
        .iter()
        .filter(|w| !tables.contains(*w))
        .collect();
    assert!(
        unknown.is_empty(),
        "documented `TABLE.*` rows that are not tables: {unknown:?}"
    );
}

#[test]
fn every_key_of_the_shipped_config_toml_is_accepted_and_documented() {
    let path = root().join("config.toml");
    let text = std::fs::read_to_string(&path).expect("config.toml");
    Config::parse(&text, &path).expect("the shipped config.toml loads");
    let value: toml::Value = toml::from_str(&text).expect("TOML");
    let mut set = BTreeSet::new();
    set_keys("", &value, &mut set);
    let (mut keys, mut tables) = (BTreeSet::new(), BTreeSet::new());
    accepted("", &mut keys, &mut tables);
    let doc = documented();
    for k in &set {
        // A key the structs take whole (an inline array of tables such as
        // `strength.below_rating`) is flattened here but is one key there.
        let key = keys
            .iter()
            .find(|a| *a == k || k.starts_with(&format!("{a}.")))
            .unwrap_or_else(|| panic!("config.toml sets {k}, which the settings do not have"));
        assert!(
            is_documented(key, &doc),
            "config.toml sets {key}, which no `| key |` table in docs/ documents"
        );
    }
}

/// A default as the reference writes it: as in `config.toml`, or a string without its
/// quotes (`wild fr` for `"wild fr"`).
fn same_default(documented: &str, default: &str) -> bool {
    let bare = default
        .strip_prefix('"')
        .and_then(|d| d.strip_suffix('"'))
        .filter(|d| !d.is_empty());
    documented == default || Some(documented) == bare
}

#[test]
fn every_declared_setting_has_its_default_in_the_reference() {
    let doc = documented();
    let rows = Config::settings();
    assert!(rows.iter().any(|r| r.key == "engine.threads"), "{rows:?}");
    let mut wrong = Vec::new();
    for r in &rows {
        let Some(documented) = doc.defaults.get(r.key) else {
            wrong.push(format!(
                "{}: no row of its own (default {})",
                r.key, r.default
            ));
            continue;
        };
        for d in documented.iter().filter(|d| !same_default(d, &r.default)) {
            wrong.push(format!(
                "{}: the reference says {d:?}, the default is {}",
                r.key, r.default
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "docs/ disagrees with the settings' declarations (`settings!` in crates/config; \
         `wily ics keys` prints them):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn a_changed_default_would_be_caught() {
    // The comparison itself: a quoted string matches its bare form, nothing else does.
    assert!(same_default("wild fr", "\"wild fr\""));
    assert!(same_default("\"mamer\"", "\"mamer\""));
    assert!(same_default("\"\"", "\"\""));
    assert!(!same_default("", "\"\""));
    assert!(!same_default("600", "60"));
    assert!(!same_default("[\"chess\"]", "[]"));
}

#[test]
fn wily_ics_keys_prints_the_declared_settings() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_wily"))
        .args(["ics", "keys"])
        .output()
        .expect("run wily");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(
        text.starts_with("| key | default | range | meaning |\n"),
        "{text}"
    );
    for r in Config::settings() {
        let row = text
            .lines()
            .find(|l| l.starts_with(&format!("| `{}` |", r.key)))
            .unwrap_or_else(|| panic!("no row for {}: {text}", r.key));
        assert!(row.contains(&format!("`{}`", r.default)), "{row}");
    }
    assert!(text.contains("| `talk.whisper` | `2` | 0 to 6 |"), "{text}");
}
