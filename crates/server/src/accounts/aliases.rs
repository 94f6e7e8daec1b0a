//! Command aliases of the local server, as FICS keeps them: `alias NAME TEXT`,
//! `unalias NAME`, expansion of the first word of a line (`@` in the text stands for
//! the rest of the line, otherwise the rest is appended), and the `$` prefix that
//! sends a line past the aliases (xboard starts every session with `$`-lines).

use crate::accounts::session::Session;

/// Most aliases one session may hold (FICS has a similar cap).
pub const MAX_ALIASES: usize = 64;
/// Longest alias text kept.
const MAX_ALIAS_TEXT: usize = 400;

/// Strips the `$`/`$$` prefix; `true` when one was there (no alias expansion then).
pub fn strip_dollar(line: &str) -> (&str, bool) {
    match line.strip_prefix('$') {
        Some(rest) => (rest.strip_prefix('$').unwrap_or(rest).trim_start(), true),
        None => (line, false),
    }
}

/// Expands the first word of `line` through `aliases` (name, text).
pub fn expand(aliases: &[(String, String)], line: &str) -> Option<String> {
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (line, ""),
    };
    let (_, text) = aliases.iter().find(|(n, _)| n.eq_ignore_ascii_case(word))?;
    Some(if text.contains('@') {
        text.replace('@', rest)
    } else if rest.is_empty() {
        text.clone()
    } else {
        format!("{text} {rest}")
    })
}

impl Session {
    /// `alias` (list), `alias NAME` (show), `alias NAME TEXT` (set): the answer.
    pub(crate) fn cmd_alias(&mut self, args: &[&str], rest: &str) -> String {
        let s = self;
        match args.first() {
            None if s.aliases.is_empty() => "You have no aliases.\n".to_string(),
            None => {
                let mut t = String::from("Aliases:\n");
                for (n, v) in &s.aliases {
                    t.push_str(&format!("{n} -> {v}\n"));
                }
                t
            }
            Some(name)
                if name.eq_ignore_ascii_case("alias") || name.eq_ignore_ascii_case("unalias") =>
            {
                "You can't alias this command.\n".to_string()
            }
            Some(name) => {
                let text = rest[name.len()..].trim();
                let pos = s
                    .aliases
                    .iter()
                    .position(|(n, _)| n.eq_ignore_ascii_case(name));
                if text.is_empty() {
                    match pos {
                        Some(i) => format!("{} -> {}\n", s.aliases[i].0, s.aliases[i].1),
                        None => format!("You have no alias named '{name}'.\n"),
                    }
                } else {
                    let text: String = text.chars().take(MAX_ALIAS_TEXT).collect();
                    match pos {
                        Some(i) => {
                            s.aliases[i].1 = text;
                            format!("Alias \"{name}\" changed.\n")
                        }
                        None if s.aliases.len() >= MAX_ALIASES => {
                            "You have your maximum number of aliases.\n".to_string()
                        }
                        None => {
                            s.aliases.push((name.to_string(), text));
                            format!("Alias \"{name}\" set.\n")
                        }
                    }
                }
            }
        }
    }

    /// `unalias NAME`: the answer.
    pub(crate) fn cmd_unalias(&mut self, args: &[&str]) -> String {
        let s = self;
        match args.first() {
            None => "Usage: unalias name\n".to_string(),
            Some(name) => match s
                .aliases
                .iter()
                .position(|(n, _)| n.eq_ignore_ascii_case(name))
            {
                Some(i) => {
                    s.aliases.remove(i);
                    "Alias removed.\n".to_string()
                }
                None => format!("You have no alias named '{name}'.\n"),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Vec<(String, String)> {
        vec![
            ("gm".into(), "tell @ good move!".into()),
            ("sf".into(), "set style".into()),
        ]
    }

    #[test]
    fn expands_at_sign_and_appends_otherwise() {
        assert_eq!(
            expand(&table(), "gm alice").as_deref(),
            Some("tell alice good move!")
        );
        assert_eq!(expand(&table(), "SF 12").as_deref(), Some("set style 12"));
        assert_eq!(expand(&table(), "sf").as_deref(), Some("set style"));
        assert_eq!(expand(&table(), "seek 5 0"), None);
    }

    #[test]
    fn dollar_prefix_is_stripped() {
        assert_eq!(strip_dollar("$set style 12"), ("set style 12", true));
        assert_eq!(strip_dollar("$$iset ms 1"), ("iset ms 1", true));
        assert_eq!(strip_dollar("e2e4"), ("e2e4", false));
    }
}
