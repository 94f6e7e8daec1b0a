//! Finger notes on the local server: `set 1 text` .. `set 10 text` write a player's
//! notes, `set N` alone takes line N out (the lines below move up), and `finger` shows
//! them after the statistics as ` 1: text` .. `10: text`. The answers are FICS's, as
//! FatICS's tests of FICS behaviour show them: `Note N set: text`, `Note N unset.`,
//! `You do not have that many lines set.`; setting line N past the last fills the lines
//! between with blank ones. A number past 10 (or 0) is not a variable (`No such variable
//! "11".`). Both dialects answer the same (ICC's own words are not known here). Notes
//! are kept by lower-case handle while the server runs, so a registered player finds
//! them again at the next login.

use crate::accounts::store::Accounts;
use crate::conn::Sid;
use crate::core::Net;

/// FICS and lasker keep ten note lines.
pub const MAX_NOTES: usize = 10;
/// A note line is cut to this many characters.
const MAX_NOTE_LEN: usize = 1000;

impl Accounts {
    /// `set N [text]`; `rest` is the whole argument text after `set` (`N text`).
    pub fn cmd_set_note(&mut self, net: &Net, sid: Sid, n: usize, rest: &str) -> String {
        let text: String = rest
            .split_once(char::is_whitespace)
            .map_or("", |(_, t)| t.trim())
            .chars()
            .filter(|c| !c.is_control())
            .take(MAX_NOTE_LEN)
            .collect();
        if n == 0 || n > MAX_NOTES {
            return format!("No such variable \"{n}\".\n");
        }
        let Some(key) = net.sess(sid).map(|s| s.handle.to_ascii_lowercase()) else {
            return String::new();
        };
        let notes = self.notes.entry(key.clone()).or_default();
        let msg = if text.is_empty() {
            if n > notes.len() {
                "You do not have that many lines set.\n".to_string()
            } else {
                notes.remove(n - 1);
                while notes.last().is_some_and(|l| l.is_empty()) {
                    notes.pop();
                }
                format!("Note {n} unset.\n")
            }
        } else {
            while notes.len() < n {
                notes.push(String::new());
            }
            notes[n - 1] = text.clone();
            format!("Note {n} set: {text}\n")
        };
        if notes.is_empty() {
            self.notes.remove(&key);
        }
        msg
    }

    /// The note lines of `handle` as `finger` shows them (empty when it has none).
    pub fn notes_text(&self, handle: &str) -> String {
        let Some(notes) = self.notes.get(&handle.to_ascii_lowercase()) else {
            return String::new();
        };
        let mut t = String::from("\n");
        for (i, l) in notes.iter().enumerate() {
            t.push_str(&format!("{:2}: {l}\n", i + 1));
        }
        t
    }
}
