//! Words into option groups: the command line (`-games 4 -engine cmd=x name=y` is the
//! groups `games [4]` and `engine [cmd=x, name=y]`) and the TOML match file (turned into
//! the same groups, see [`toml_args`]).

/// An option and its values, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    pub name: String,
    pub values: Vec<String>,
}

/// True for a token that names an option: `-x...` or `--x...` with a letter after the
/// dashes and no `=` (so `option.Contempt=-10` and `-5` are values).
fn is_option(tok: &str) -> bool {
    let body = tok.strip_prefix("--").or_else(|| tok.strip_prefix('-'));
    body.is_some_and(|b| {
        b.chars().next().is_some_and(|c| c.is_ascii_alphabetic()) && !b.contains('=')
    })
}

/// Splits arguments into option groups.
pub fn group_args(args: &[String]) -> Result<Vec<Group>, String> {
    let mut groups: Vec<Group> = Vec::new();
    for a in args {
        if is_option(a) {
            groups.push(Group {
                name: a.trim_start_matches('-').to_ascii_lowercase(),
                values: Vec::new(),
            });
        } else {
            match groups.last_mut() {
                Some(g) => g.values.push(a.clone()),
                None => {
                    return Err(format!(
                        "'{a}' does not follow an option (try -engine cmd=...)"
                    ))
                }
            }
        }
    }
    Ok(groups)
}

fn toml_scalar(v: &toml::Value) -> Option<String> {
    Some(match v {
        toml::Value::String(s) => s.clone(),
        toml::Value::Integer(i) => i.to_string(),
        toml::Value::Float(f) => f.to_string(),
        toml::Value::Boolean(b) => b.to_string(),
        _ => return None,
    })
}

/// `key=value` pairs of a table; nested tables become `key.sub=value` (`option.Hash=16`).
fn toml_pairs(prefix: &str, t: &toml::Table, out: &mut Vec<String>) -> Result<(), String> {
    for (k, v) in t {
        let key = if prefix.is_empty() {
            k.clone()
        } else {
            format!("{prefix}.{k}")
        };
        match v {
            toml::Value::Table(sub) => toml_pairs(&key, sub, out)?,
            other => match toml_scalar(other) {
                Some(s) => out.push(format!("{key}={s}")),
                None => return Err(format!("match file: '{key}' must be a single value")),
            },
        }
    }
    Ok(())
}

/// Turns a TOML match file into the command line's groups: a top-level `key = value` is
/// `-key value` (`true` a bare flag, `false` nothing, an array several values), a table
/// `[key]` is `-key k=v ...`, and `[[engine]]` tables are one `-engine` each.
pub fn toml_args(text: &str) -> Result<Vec<Group>, String> {
    let table: toml::Table = text.parse().map_err(|e| format!("match file: {e}"))?;
    let mut groups = Vec::new();
    for (k, v) in &table {
        let name = k.to_ascii_lowercase();
        match v {
            toml::Value::Boolean(false) => {}
            toml::Value::Boolean(true) => groups.push(Group {
                name,
                values: Vec::new(),
            }),
            toml::Value::Table(t) => {
                let mut values = Vec::new();
                toml_pairs("", t, &mut values)?;
                groups.push(Group { name, values });
            }
            toml::Value::Array(items) if items.iter().all(|i| i.is_table()) => {
                for item in items {
                    let mut values = Vec::new();
                    if let toml::Value::Table(t) = item {
                        toml_pairs("", t, &mut values)?;
                    }
                    groups.push(Group {
                        name: name.clone(),
                        values,
                    });
                }
            }
            toml::Value::Array(items) => {
                let values = items
                    .iter()
                    .map(|i| {
                        toml_scalar(i)
                            .ok_or_else(|| format!("match file: '{k}' holds a nested value"))
                    })
                    .collect::<Result<_, _>>()?;
                groups.push(Group { name, values });
            }
            other => groups.push(Group {
                name,
                values: vec![toml_scalar(other).unwrap_or_default()],
            }),
        }
    }
    Ok(groups)
}

/// A match file for the tests of this layer and of the settings built from it.
#[cfg(test)]
pub(crate) const SAMPLE_TOML: &str = r#"
games = 20
repeat = true
gauntlet = false
pgn = ["out.pgn", 0]
[each]
tc = "10+0.1"
[each.option]
Hash = 16
[[engine]]
cmd = "./wily uci"
name = "new"
[[engine]]
cmd = "./old uci"
name = "old"
option = { Threads = 1 }
[openings]
file = "book.epd"
order = "random"
"#;

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        shlex::split(s).unwrap()
    }

    #[test]
    fn groups_and_values() {
        let g = group_args(&args(
            "-engine cmd=a option.Contempt=-10 -games 4 --repeat -pgn out.pgn 0",
        ))
        .unwrap();
        assert_eq!(g.len(), 4);
        assert_eq!(g[0].values, ["cmd=a", "option.Contempt=-10"]);
        assert_eq!(g[2].name, "repeat");
        assert_eq!(g[3].values, ["out.pgn", "0"]);
        assert!(group_args(&args("stray -games 2")).is_err());
    }

    #[test]
    fn toml_file_becomes_groups() {
        let text = SAMPLE_TOML;
        let g = toml_args(text).unwrap();
        let shape: Vec<(&str, Vec<&str>)> = g
            .iter()
            .map(|g| {
                (
                    g.name.as_str(),
                    g.values.iter().map(String::as_str).collect(),
                )
            })
            .collect();
        assert_eq!(
            shape,
            vec![
                ("each", vec!["option.Hash=16", "tc=10+0.1"]),
                ("engine", vec!["cmd=./wily uci", "name=new"]),
                (
                    "engine",
                    vec!["cmd=./old uci", "name=old", "option.Threads=1"]
                ),
                ("games", vec!["20"]),
                ("openings", vec!["file=book.epd", "order=random"]),
                ("pgn", vec!["out.pgn", "0"]),
                ("repeat", vec![]),
            ]
        );
        assert!(toml_args("games = [[1]]").is_err());
        assert!(toml_args("not toml at all ===").is_err());
    }
}
