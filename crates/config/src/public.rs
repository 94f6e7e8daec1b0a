//! What wily shows and answers to everyone on the server: its finger notes
//! (`server.notes`, per account `[[accounts]] notes`; the default description and the
//! fields a note may use) and its public commands (`[public]`: which commands anyone may
//! tell it, and their rate limits). The bot carries both out (`bot/notes.rs`,
//! `bot/public.rs`); this file holds the settings, their defaults and their checks.

use settings::settings;

/// The fields a finger note may use.
pub const NOTE_FIELDS: &[&str] = &[
    "version", "threads", "hash", "eval", "handle", "operator", "commands",
];

/// At most this many note lines: FICS and lasker keep 10 (`set 1` .. `set 10`), and so
/// does ICC as far as its help pages say; wily never writes more.
pub const MAX_NOTES: usize = 10;

/// A note line (the settings' text, before its fields are filled in) is at most this long.
pub const MAX_NOTE_LEN: usize = 200;

/// The notes written when `server.notes` is not set, and only to an account that shows no
/// notes at all: a short description of wily.
pub const DEFAULT_NOTES: &[&str] = &[
    "wily {version}: a chess engine written in Rust, playing here by itself (a computer).",
    "Engine: {eval} evaluation, {threads} search thread(s), {hash} MB hash.",
    "Tell me \"help\" for what I answer: {commands}.",
];

/// The public commands, in the order `help` lists them.
pub const PUBLIC_COMMANDS: &[&str] = &["help", "info", "record", "games", "seeks", "eval"];

settings! {
    /// `[public]`: the commands anyone (registered or guest) may tell wily.
    pub struct PublicSection in "public" {
        /// Answer public commands at all (off: strangers get `operators.stranger_reply`).
        enabled: bool = true;
        /// The commands answered (any of [`PUBLIC_COMMANDS`]); one left out is answered like
        /// an unknown word.
        commands: Vec<String> = PUBLIC_COMMANDS.iter().map(|s| s.to_string()).collect();
        /// Listen to guests' tells too (FICS-lineage servers: `set tell 1` at login).
        guests: bool = true;
        /// At most this many answers to one handle in any minute (more are ignored).
        per_handle_per_minute: u32 = 4, range 1..=120;
        /// At most this many answers to everyone together in any minute.
        per_minute: u32 = 30, range 1..=120;
    }
}

impl PublicSection {
    /// True when `command` is answered.
    pub fn allows(&self, command: &str) -> bool {
        self.enabled
            && self
                .commands
                .iter()
                .any(|c| c.eq_ignore_ascii_case(command))
    }
}

/// The problems of `server.notes` (or an account's `notes`) and `[public]`, each as
/// (key, message).
pub(crate) fn problems(
    notes: Option<&[String]>,
    notes_key: &str,
    public: Option<&PublicSection>,
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if let Some(lines) = notes {
        if lines.len() > MAX_NOTES {
            out.push((
                notes_key.to_string(),
                format!(
                    "at most {MAX_NOTES} lines (the servers keep 10 notes; got {})",
                    lines.len()
                ),
            ));
        }
        for (i, l) in lines.iter().enumerate() {
            let key = format!("{notes_key}[{i}]");
            if l.trim().is_empty() {
                out.push((
                    key.clone(),
                    "is empty (a server keeps no blank note of its own)".into(),
                ));
            }
            if l.chars().any(|c| c.is_control() || c == ';') {
                out.push((
                    key.clone(),
                    "must be one line: no control characters, no ';'".into(),
                ));
            }
            if l.len() > MAX_NOTE_LEN {
                out.push((
                    key.clone(),
                    format!("must be at most {MAX_NOTE_LEN} characters"),
                ));
            }
            match super::hooks::fields_of(l) {
                Err(e) => out.push((key, e)),
                Ok(fields) => {
                    for f in fields {
                        if !NOTE_FIELDS.contains(&f.as_str()) {
                            out.push((
                                key.clone(),
                                format!(
                                    "{{{f}}} is not a note field (they are: {})",
                                    NOTE_FIELDS.join(", ")
                                ),
                            ));
                        }
                    }
                }
            }
        }
    }
    if let Some(p) = public {
        for (i, c) in p.commands.iter().enumerate() {
            if !PUBLIC_COMMANDS.iter().any(|k| k.eq_ignore_ascii_case(c)) {
                out.push((
                    format!("public.commands[{i}]"),
                    format!(
                        "{c:?} is not a public command (they are: {})",
                        PUBLIC_COMMANDS.join(", ")
                    ),
                ));
            }
        }
        out.extend(p.range_problems());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_notes_and_commands_pass_their_own_checks() {
        let notes: Vec<String> = DEFAULT_NOTES.iter().map(|s| s.to_string()).collect();
        let p = PublicSection::default();
        assert!(problems(Some(&notes), "server.notes", Some(&p)).is_empty());
        assert!(p.allows("EVAL") && p.allows("help"));
    }

    #[test]
    fn bad_notes_and_commands_are_named() {
        let many: Vec<String> = (0..11).map(|i| format!("line {i}")).collect();
        let p = problems(Some(&many), "server.notes", None);
        assert_eq!(p[0].0, "server.notes");
        let bad = vec!["ok".to_string(), "{password}".into(), "a;quit".into()];
        let p = problems(Some(&bad), "accounts[0].notes", None);
        let keys: Vec<&str> = p.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, vec!["accounts[0].notes[1]", "accounts[0].notes[2]"]);
        let public = PublicSection {
            commands: vec!["info".into(), "quit".into()],
            per_minute: 0,
            ..PublicSection::default()
        };
        let p = problems(None, "server.notes", Some(&public));
        let keys: Vec<&str> = p.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, vec!["public.commands[1]", "public.per_minute"]);
        let off = PublicSection {
            enabled: false,
            ..PublicSection::default()
        };
        assert!(!off.allows("help"));
    }
}
