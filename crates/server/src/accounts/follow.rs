//! The account's follow list on the local server, as the lasker server keeps it: stored
//! with the account (it outlives the session, for as long as the server runs), changed by
//! `+follow NAME` / `-follow NAME` (`addlist`/`sublist`), shown by `=follow` (`showlist`),
//! and toggled by `follow NAME` (lasker's alias of `toggle follow NAME`: added one time,
//! removed the next). When a game starts, every other session whose list holds one of
//! its players observes it, as if it had typed `observe NAME`. The channel list
//! (`+channel N`, `-channel N`, `=channel`) is kept for the session only and carries the
//! director account's channel (`tourney/director.rs`). Other list names answer like a server
//! without them: `"x" does not match any list name.`

use crate::accounts::session::Session;
use crate::accounts::store::Accounts;
use crate::conn::Sid;
use crate::core::Net;

/// The account's list this server keeps.
const FOLLOW: &str = "follow";
/// The session's channel list.
const CHANNEL: &str = "channel";
/// Channels a session may listen to at most.
const MAX_CHANNELS: usize = 32;
/// Names per account at most.
const MAX_FOLLOW: usize = 50;
/// Width of a list display.
const WIDTH: usize = 79;

/// What a list command does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListOp {
    Add,
    Remove,
    Toggle,
    Show,
}

impl ListOp {
    /// `+`, `-`, `=` at the start of a line.
    pub fn from_prefix(c: char) -> Option<ListOp> {
        match c {
            '+' => Some(ListOp::Add),
            '-' => Some(ListOp::Remove),
            '=' => Some(ListOp::Show),
            _ => None,
        }
    }
}

/// Names in columns, as lasker shows a list (sorted, each padded to the longest + 2).
fn columns(names: &[String]) -> String {
    let mut sorted = names.to_vec();
    sorted.sort();
    let w = sorted.iter().map(String::len).max().unwrap_or(0) + 2;
    let per_line = (WIDTH / w).max(1);
    let mut out = String::new();
    for row in sorted.chunks(per_line) {
        for n in row {
            out.push_str(&format!("{n:<w$}"));
        }
        out.push('\n');
    }
    out
}

impl Accounts {
    /// The name as the server spells it: a registered account or an online player.
    fn known_player(&self, net: &Net, name: &str) -> Option<String> {
        if let Some(a) = self.get(name) {
            return Some(a.handle.clone());
        }
        net.sessions
            .values()
            .find(|s| s.online() && s.handle.eq_ignore_ascii_case(name))
            .map(|s| s.handle.clone())
    }

    /// `+list NAME`, `-list NAME`, `=list`, `toggle list NAME`, `follow NAME`.
    pub fn cmd_list(
        &mut self,
        net: &mut Net,
        sid: Sid,
        op: ListOp,
        list: &str,
        name: Option<&str>,
    ) {
        if op == ListOp::Show && list.is_empty() {
            net.reply(
                sid,
                &format!("Lists:\n\n{CHANNEL:<20} is PERSONAL\n{FOLLOW:<20} is PERSONAL\n"),
            );
            return;
        }
        if list.len() >= 2 && CHANNEL.starts_with(&list.to_ascii_lowercase()) {
            if let Some(text) = net.sessions.get_mut(&sid).map(|s| s.channel_list(op, name)) {
                net.reply(sid, &text);
            }
            return;
        }
        if !FOLLOW.starts_with(&list.to_ascii_lowercase()) || list.is_empty() {
            net.reply(sid, &format!("\"{list}\" does not match any list name.\n"));
            return;
        }
        let key = net.name_of(sid).to_ascii_lowercase();
        if op == ListOp::Show {
            let text = match self.follow_lists.get(&key) {
                None => String::new(),
                Some(v) if v.is_empty() => "-- follow list: 0 names --\n\n".to_string(),
                Some(v) => format!("-- follow list: {} names --\n{}", v.len(), columns(v)),
            };
            net.reply(sid, &text);
            return;
        }
        let Some(name) = name else {
            net.reply(
                sid,
                "Usage: +|-|= follow [user]\n(follow NAME adds NAME to your follow list, or removes it when it is there)\n",
            );
            return;
        };
        let on_list = self
            .follow_lists
            .get(&key)
            .and_then(|v| v.iter().position(|n| n.eq_ignore_ascii_case(name)));
        let add = match op {
            ListOp::Add => true,
            ListOp::Remove => false,
            _ => on_list.is_none(),
        };
        let text = if add {
            match (self.known_player(net, name), on_list) {
                (None, _) => "There is no player matching that name.\n".to_string(),
                (Some(n), Some(_)) => format!("[{n}] is already on your follow list.\n"),
                (Some(n), None) => {
                    let v = self.follow_lists.entry(key).or_default();
                    if v.len() >= MAX_FOLLOW {
                        "Sorry, your follow list is full.\n".to_string()
                    } else {
                        v.push(n.clone());
                        format!("[{n}] added to your follow list.\n")
                    }
                }
            }
        } else {
            match (on_list, self.follow_lists.get_mut(&key)) {
                (Some(i), Some(v)) => format!("[{}] removed from your follow list.\n", v.remove(i)),
                _ => {
                    let n = self
                        .known_player(net, name)
                        .unwrap_or_else(|| name.to_string());
                    format!("[{n}] is not in your follow list.\n")
                }
            }
        };
        net.reply(sid, &text);
    }

    /// A game between `white` and `black` started: everyone else whose follow list
    /// holds one of them, with the player they follow (the caller has them observe it).
    pub fn followers(&self, net: &Net, white: Sid, black: Sid) -> Vec<(Sid, String)> {
        let players = [net.name_of(white), net.name_of(black)];
        net.sessions
            .values()
            .filter(|s| s.online() && s.id != white && s.id != black)
            .filter_map(|s| {
                let list = self.follow_lists.get(&s.handle.to_ascii_lowercase())?;
                let p = players
                    .iter()
                    .find(|p| list.iter().any(|n| n.eq_ignore_ascii_case(p)))?;
                Some((s.id, p.clone()))
            })
            .collect()
    }
}

impl Session {
    /// `+channel N`, `-channel N`, `=channel`, `toggle channel N`: the answer.
    fn channel_list(&mut self, op: ListOp, arg: Option<&str>) -> String {
        if op == ListOp::Show {
            let names: Vec<String> = self.channels.iter().map(u32::to_string).collect();
            return format!(
                "-- channel list: {} channels --\n{}",
                names.len(),
                columns(&names)
            );
        }
        let Some(n) = arg
            .and_then(|a| a.parse::<u32>().ok())
            .filter(|n| *n <= 255)
        else {
            return "The channel number must be between 0 and 255.\n".to_string();
        };
        let on = self.channels.contains(&n);
        let add = match op {
            ListOp::Add => true,
            ListOp::Remove => false,
            _ => !on,
        };
        match (add, on) {
            (true, true) => format!("[{n}] is already on your channel list.\n"),
            (true, false) if self.channels.len() >= MAX_CHANNELS => {
                "Sorry, your channel list is full.\n".to_string()
            }
            (true, false) => {
                self.channels.push(n);
                format!("[{n}] added to your channel list.\n")
            }
            (false, true) => {
                self.channels.retain(|c| *c != n);
                format!("[{n}] removed from your channel list.\n")
            }
            (false, false) => format!("[{n}] is not in your channel list.\n"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_and_columns() {
        assert_eq!(ListOp::from_prefix('+'), Some(ListOp::Add));
        assert_eq!(ListOp::from_prefix('-'), Some(ListOp::Remove));
        assert_eq!(ListOp::from_prefix('='), Some(ListOp::Show));
        assert_eq!(ListOp::from_prefix('x'), None);
        assert_eq!(
            columns(&["RsBeta".into(), "RsAlpha".into()]),
            "RsAlpha  RsBeta   \n"
        );
        assert_eq!(columns(&["RsAlpha".into()]), "RsAlpha  \n");
    }
}
