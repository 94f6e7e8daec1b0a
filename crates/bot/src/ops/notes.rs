//! The account's finger notes (`server.notes`): at every login the bot reads its own
//! `finger`, and where the notes it shows differ from the settings' lines it writes the
//! lines that differ (`set N text`) and takes out the lines past the last (`set N`, the
//! highest first, so no line moves before it is taken out), then reads `finger` again:
//! a line the server did not take is logged once and never sent again (no loop of
//! refusals, at this login or a later one).
//!
//! The operator's own notes win: unset, `server.notes` means the default description
//! (`config::DEFAULT_NOTES`), written only to an account that shows no notes at all;
//! `[]` leaves the notes alone; and `hooks.login` commands that set a note (`set 1 ...`)
//! take precedence over the setting: with one of those the bot does not touch the notes.
//! Never more than [`config::MAX_NOTES`] lines are written (the settings check refuses
//! more). The fields are filled from the bot's own settings and engine, never from the
//! server.

use super::hooks::fill_with;
use crate::input::Action;
use crate::state::Bot;
use std::collections::HashSet;

/// Where the notes stand on this connection.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
enum Stage {
    /// Nothing to do (not asked, done, or the notes are not the bot's to set).
    #[default]
    Idle,
    /// `finger` sent at login: its notes decide what to write.
    Reading,
    /// Lines written, `finger` sent again to see which the server took.
    Checking {
        sent: Vec<(usize, String)>,
        keep: usize,
    },
}

/// The notes part of the session.
#[derive(Debug, Clone, Default)]
pub(crate) struct Notes {
    stage: Stage,
    /// Lines (number, text) the server did not take: never sent again.
    refused: HashSet<(usize, String)>,
    /// The evaluation the engine uses, for `{eval}` (set by the driver).
    pub eval: String,
}

/// The settings' lines, filled in, and whether they are the default description.
pub(crate) struct Wanted {
    pub lines: Vec<String>,
    pub default: bool,
}

/// True for a `hooks.login` command that sets a finger note (`set 3 ...`,
/// `set-quietly 3 ...`).
pub fn sets_a_note(cmd: &str) -> bool {
    let mut w = cmd.split_whitespace();
    let verb = w.next().unwrap_or("").to_ascii_lowercase();
    (verb == "set" || verb == "set-quietly")
        && w.next()
            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
}

/// A short name of the evaluation for `{eval}`: `NNUE` or `hand-written`.
fn eval_name(description: &str) -> &'static str {
    if description.starts_with("nnue") {
        "NNUE"
    } else {
        "hand-written"
    }
}

/// A filled note line: one line, no `;`, at most 250 characters.
fn clean(line: &str) -> String {
    let t: String = line
        .chars()
        .filter(|c| !c.is_control() && *c != ';')
        .take(250)
        .collect();
    t.trim().to_string()
}

impl Notes {
    /// The notes the settings ask for, filled in; `None` when the bot leaves the notes
    /// alone (`[]`, or a login hook sets them).
    pub(crate) fn wanted_notes(&self, bot: &Bot) -> Option<Wanted> {
        if bot.cfg.hooks.login.iter().any(|c| sets_a_note(c)) {
            return None;
        }
        let (lines, default) = match &bot.cfg.server.notes {
            Some(l) if l.is_empty() => return None,
            Some(l) => (l.clone(), false),
            None => (
                config::DEFAULT_NOTES
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
                true,
            ),
        };
        let fields = self.note_fields(bot);
        let lines = lines
            .iter()
            .map(|l| clean(&fill_with(l, &fields, str::to_string)))
            .filter(|l| !l.is_empty())
            .take(config::MAX_NOTES)
            .collect();
        Some(Wanted { lines, default })
    }

    /// The values of the note fields.
    fn note_fields(&self, bot: &Bot) -> Vec<(&'static str, String)> {
        let public = &bot.cfg.public;
        let commands: Vec<&str> = config::PUBLIC_COMMANDS
            .iter()
            .copied()
            .filter(|c| public.allows(c))
            .collect();
        vec![
            ("version", env!("CARGO_PKG_VERSION").to_string()),
            ("threads", bot.cfg.engine.threads.to_string()),
            ("hash", bot.cfg.engine.hash_mb.to_string()),
            ("eval", eval_name(&self.eval).to_string()),
            ("handle", bot.conn.me.clone()),
            ("operator", bot.cfg.operators.handles.join(", ")),
            (
                "commands",
                if commands.is_empty() {
                    "nothing".to_string()
                } else {
                    commands.join(", ")
                },
            ),
        ]
    }

    /// At login: read the account's own finger when there are notes to keep.
    pub(crate) fn notes_login(&mut self, bot: &Bot, out: &mut Vec<Action>) {
        self.stage = Stage::Idle;
        if self.wanted_notes(bot).is_none() {
            return;
        }
        self.stage = Stage::Reading;
        out.push(Action::Send("finger".into()));
    }

    /// A finger display: wily's own at login, or the read-back after writing.
    pub(crate) fn finger_notes(
        &mut self,
        bot: &Bot,
        name: &str,
        shown: &[String],
        out: &mut Vec<Action>,
    ) {
        tracing::debug!(
            "finger of {name}: {} note line(s) ({:?})",
            shown.len(),
            self.stage
        );
        if !bot.is_me(name) {
            return;
        }
        match std::mem::take(&mut self.stage) {
            Stage::Idle => {}
            Stage::Reading => self.write_notes(bot, shown, out),
            Stage::Checking { sent, keep } => {
                for (n, text) in sent {
                    if shown.get(n - 1) != Some(&text) && self.refused.insert((n, text.clone())) {
                        tracing::warn!(
                            "the server did not take finger note {n} ({text:?}): not sent again"
                        );
                    }
                }
                if shown.len() > keep {
                    tracing::warn!(
                        "finger shows {} note lines, the settings {keep}: the rest could not be taken out",
                        shown.len()
                    );
                } else {
                    tracing::info!("finger notes set ({} lines)", shown.len());
                }
            }
        }
    }

    /// Writes the lines that differ from `shown` and takes out those past the last.
    fn write_notes(&mut self, bot: &Bot, shown: &[String], out: &mut Vec<Action>) {
        let Some(w) = self.wanted_notes(bot) else {
            return;
        };
        if w.default && shown.iter().any(|l| !l.trim().is_empty()) {
            tracing::info!(
                "the account has finger notes of its own: the default description is not written"
            );
            return;
        }
        let mut sent = Vec::new();
        for (i, line) in w.lines.iter().enumerate() {
            let n = i + 1;
            if shown.get(i) == Some(line) || self.refused.contains(&(n, line.clone())) {
                continue;
            }
            out.push(Action::Send(format!("set {n} {line}")));
            sent.push((n, line.clone()));
        }
        let keep = w.lines.len();
        let extra = shown.len() > keep;
        for n in (keep + 1..=shown.len().min(config::MAX_NOTES)).rev() {
            out.push(Action::Send(format!("set {n}")));
        }
        if sent.is_empty() && !extra {
            tracing::info!("finger notes up to date ({keep} lines)");
            return;
        }
        out.push(Action::Send("finger".into()));
        self.stage = Stage::Checking { sent, keep };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hooks_that_set_notes_are_recognised() {
        assert!(sets_a_note("set 1 wily is a computer"));
        assert!(sets_a_note("SET 10 x"));
        assert!(sets_a_note("set-quietly 2 y"));
        assert!(!sets_a_note("set tell 1"));
        assert!(!sets_a_note("seek 5 0"));
        assert!(!sets_a_note("set"));
    }

    #[test]
    fn eval_names() {
        assert_eq!(eval_name("nnue ne checksum 0123"), "NNUE");
        assert_eq!(eval_name("hce"), "hand-written");
        assert_eq!(clean(" a\nb;c "), "abc");
        let f = [
            ("threads", "2".to_string()),
            ("commands", "help, info".to_string()),
        ];
        assert_eq!(
            fill_with("{threads} thread(s); {commands}", &f, str::to_string),
            "2 thread(s); help, info"
        );
        assert_eq!(fill_with("{nope} x {", &f, str::to_string), " x {");
    }
}
