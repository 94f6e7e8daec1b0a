//! Keeping the account's follow state as the settings ask, whatever it held before.
//!
//! Servers disagree on `follow NAME`. lasker keeps a follow list in the account and
//! `follow` is an alias of `toggle follow`: it adds a name one time and removes it the
//! next; `+follow`/`-follow`/`=follow` add, remove and show it. FICS follows one player for
//! the session (`follow NAME` switches to NAME, `follow` alone stops) and has no follow
//! list (`"follow" does not match any list name.`). ICC's `follow` also lasts one session.
//!
//! So on the FICS dialect wily never sends the toggle: at login it adds each followed
//! player with `+follow` and reads the list back (`=follow`); every answer about a name
//! (`[X] added to ...`, `[X] removed from ...`, the list itself) is compared with what the
//! settings want and corrected (`+follow`/`-follow`), a bounded number of times. A server
//! without the list makes wily fall back to FICS's one-player `follow`. On ICC the first
//! followed player is followed with `follow NAME`.

use lists::valid_handle;
use std::collections::HashMap;

/// Corrections of one name per login, at most (a server that keeps flipping a name back
/// is not answered for ever).
const MAX_CORRECTIONS: u32 = 2;

/// What the server is known to do with follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FollowKind {
    /// Not known yet (FICS dialect before the first answer).
    Unknown,
    /// A follow list stored in the account (lasker).
    List,
    /// One followed player per session (FICS, ICC).
    Single,
}

/// The follow state machine of one bot (kept across reconnections: what the server is
/// known to do survives a reconnect).
#[derive(Debug, Clone)]
pub struct FollowSync {
    kind: FollowKind,
    icc: bool,
    /// Corrections sent this login, by lower-case name.
    corrections: HashMap<String, u32>,
    /// The one-player `follow` was sent this login.
    single_sent: bool,
}

fn wants(wanted: &[String], name: &str) -> bool {
    wanted.iter().any(|w| w.eq_ignore_ascii_case(name))
}

impl FollowSync {
    pub fn new(icc: bool) -> FollowSync {
        FollowSync {
            kind: if icc {
                FollowKind::Single
            } else {
                FollowKind::Unknown
            },
            icc,
            corrections: HashMap::new(),
            single_sent: false,
        }
    }

    pub fn kind(&self) -> FollowKind {
        self.kind
    }

    /// Commands after logging in that leave the account following exactly `wanted`.
    pub fn login(&mut self, wanted: &[String]) -> Vec<String> {
        self.corrections.clear();
        self.single_sent = false;
        match self.kind {
            FollowKind::Single => self.single(wanted),
            FollowKind::Unknown | FollowKind::List => {
                let mut v: Vec<String> = wanted
                    .iter()
                    .filter(|h| valid_handle(h))
                    .map(|h| format!("+follow {h}"))
                    .collect();
                v.push("=follow".into());
                v
            }
        }
    }

    /// The one-player form: follow the first wanted player (once per login).
    fn single(&mut self, wanted: &[String]) -> Vec<String> {
        if self.single_sent {
            return Vec::new();
        }
        self.single_sent = true;
        match wanted.iter().find(|h| valid_handle(h)) {
            Some(h) => vec![format!("follow {h}")],
            None => Vec::new(),
        }
    }

    /// A command that puts `name` on or off the list, unless it was corrected enough.
    fn correct(&mut self, name: &str, add: bool) -> Option<String> {
        if !valid_handle(name) {
            return None;
        }
        let n = self
            .corrections
            .entry(name.to_ascii_lowercase())
            .or_default();
        if *n >= MAX_CORRECTIONS {
            tracing::warn!("follow list: {name} keeps changing on the server; leaving it");
            return None;
        }
        *n += 1;
        Some(format!("{}follow {name}", if add { '+' } else { '-' }))
    }

    /// The account's follow list as the server shows it (`=follow`).
    pub fn members(&mut self, wanted: &[String], names: &[String]) -> Vec<String> {
        self.kind = FollowKind::List;
        let mut v = Vec::new();
        for n in names.iter().filter(|n| !wants(wanted, n)) {
            v.extend(self.correct(n, false));
        }
        for w in wanted.iter().filter(|w| valid_handle(w)) {
            if !names.iter().any(|n| n.eq_ignore_ascii_case(w)) {
                v.extend(self.correct(w, true));
            }
        }
        v
    }

    /// The server says whether `name` is on the follow list now.
    pub fn changed(&mut self, wanted: &[String], name: &str, present: bool) -> Vec<String> {
        self.kind = FollowKind::List;
        let desired = wants(wanted, name);
        if desired == present {
            return Vec::new();
        }
        self.correct(name, desired).into_iter().collect()
    }

    /// The server has no follow list (FICS): use its one-player `follow`.
    pub fn no_list(&mut self, wanted: &[String]) -> Vec<String> {
        if self.kind == FollowKind::List {
            return Vec::new();
        }
        self.kind = FollowKind::Single;
        self.single(wanted)
    }

    /// The operator asked to follow `name` (already added to `wanted`).
    pub fn add(&mut self, name: &str) -> Vec<String> {
        if !valid_handle(name) {
            return Vec::new();
        }
        match self.kind {
            FollowKind::Single => vec![format!("follow {name}")],
            FollowKind::Unknown | FollowKind::List => vec![format!("+follow {name}")],
        }
    }

    /// The operator stopped following `removed`; `wanted` is what is left.
    pub fn remove(&mut self, removed: &[String], wanted: &[String]) -> Vec<String> {
        if removed.is_empty() {
            return Vec::new();
        }
        match self.kind {
            FollowKind::Unknown | FollowKind::List => removed
                .iter()
                .filter(|h| valid_handle(h))
                .map(|h| format!("-follow {h}"))
                .collect(),
            FollowKind::Single => match wanted.iter().find(|h| valid_handle(h)) {
                Some(h) => vec![format!("follow {h}")],
                None if self.icc => vec!["unfollow".into()],
                None => vec!["follow".into()],
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn login_adds_and_reads_back_never_toggles() {
        let mut f = FollowSync::new(false);
        let wanted = names(&["RsAlpha", "bad name!"]);
        assert_eq!(f.login(&wanted), names(&["+follow RsAlpha", "=follow"]));
        // The list held an old name besides the wanted one: it goes.
        assert_eq!(
            f.members(&wanted, &names(&["RsAlpha", "RsBeta"])),
            names(&["-follow RsBeta"])
        );
        assert_eq!(f.kind(), FollowKind::List);
        // Nothing wanted: the login only reads the list, and empties it.
        let mut f = FollowSync::new(false);
        assert_eq!(f.login(&[]), names(&["=follow"]));
        assert_eq!(
            f.members(&[], &names(&["RsAlpha"])),
            names(&["-follow RsAlpha"])
        );
        assert!(f.members(&[], &[]).is_empty());
    }

    #[test]
    fn answers_are_corrected_toward_the_settings() {
        let mut f = FollowSync::new(false);
        let wanted = names(&["RsAlpha"]);
        f.login(&wanted);
        assert!(f.changed(&wanted, "RsAlpha", true).is_empty());
        assert_eq!(
            f.changed(&wanted, "rsalpha", false),
            names(&["+follow rsalpha"])
        );
        assert_eq!(
            f.changed(&wanted, "RsBeta", true),
            names(&["-follow RsBeta"])
        );
        assert!(f.changed(&wanted, "RsBeta", false).is_empty());
        // Bounded: a server that keeps removing the name is corrected twice per login.
        assert_eq!(f.changed(&wanted, "RsAlpha", false).len(), 1);
        assert!(f.changed(&wanted, "RsAlpha", false).is_empty());
        f.login(&wanted);
        assert_eq!(f.changed(&wanted, "RsAlpha", false).len(), 1);
    }

    #[test]
    fn a_server_without_the_list_gets_the_one_player_follow() {
        let mut f = FollowSync::new(false);
        let wanted = names(&["RsAlpha", "RsBeta"]);
        assert_eq!(f.login(&wanted).len(), 3);
        // Three answers ("+follow" twice, "=follow"), one follow.
        assert_eq!(f.no_list(&wanted), names(&["follow RsAlpha"]));
        assert!(f.no_list(&wanted).is_empty());
        assert!(f.no_list(&wanted).is_empty());
        assert_eq!(f.kind(), FollowKind::Single);
        // The next login knows.
        assert_eq!(f.login(&wanted), names(&["follow RsAlpha"]));
        assert_eq!(f.add("RsGamma"), names(&["follow RsGamma"]));
        assert_eq!(
            f.remove(&names(&["RsAlpha"]), &names(&["RsBeta"])),
            names(&["follow RsBeta"])
        );
        assert_eq!(f.remove(&names(&["RsBeta"]), &[]), names(&["follow"]));
        assert!(f.remove(&[], &[]).is_empty());
    }

    #[test]
    fn icc_follows_one_player() {
        let mut f = FollowSync::new(true);
        assert_eq!(
            f.login(&names(&["RsAlpha", "RsBeta"])),
            names(&["follow RsAlpha"])
        );
        assert!(f.login(&[]).is_empty());
        assert_eq!(f.remove(&names(&["RsAlpha"]), &[]), names(&["unfollow"]));
    }

    #[test]
    fn operator_changes_on_a_list_server() {
        let mut f = FollowSync::new(false);
        f.login(&[]);
        f.members(&[], &[]);
        assert_eq!(f.add("RsGamma"), names(&["+follow RsGamma"]));
        assert!(f.add("no way").is_empty());
        assert_eq!(
            f.remove(&names(&["RsGamma"]), &[]),
            names(&["-follow RsGamma"])
        );
    }
}
