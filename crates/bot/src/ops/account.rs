//! The rules of a computer account, and the operator hooks, as the session follows them:
//! the interface variables a FICS computer must set at every login to be offered the
//! variants it accepts (`iset fr 1` for Chess960), and what to do when a server has no
//! such variable; falling back to automatic seeks where a server refuses FICS's manual
//! flag; `rematch` within the per-opponent limits; aborting a game whose opponent never
//! makes a first move; the takeback policy; and when each `[hooks]` hook fires.

use crate::find::challenge::{OpponentHistory, Variant};
use crate::input::{Action, Challenge, EndKind};
use crate::ops::hooks::Hook;
use crate::state::Session;
use config::AcceptSection;
use ics::Dialect;
use std::time::{Duration, Instant};

/// The interface variable a variant of `accept.variants` needs on FICS (`help
/// computers`: a computer open to Chess960 must `iset fr 1`; `iset wildcastle 1` is for
/// the wild boards with shuffled castling, which wily does not play, so no variant asks
/// for it).
fn ivariable_for(variant: &str) -> Option<&'static str> {
    match variant {
        "chess960" => Some("fr"),
        _ => None,
    }
}

/// Whether another game with `name` keeps within `[accept]`'s block/allow lists and the
/// per-opponent limits (the same limits a challenge from them is judged by).
pub fn rematch_allowed(s: &AcceptSection, h: &OpponentHistory, name: &str, now: Instant) -> bool {
    let blocked = s.block.iter().any(|b| b.eq_ignore_ascii_case(name))
        || (!s.allow.is_empty() && !s.allow.iter().any(|a| a.eq_ignore_ascii_case(name)));
    let too_many = (s.max_in_row > 0 && h.in_a_row(name) >= s.max_in_row)
        || (s.max_per_hour > 0 && h.last_hour(name, now) >= s.max_per_hour);
    !blocked && !too_many
}

impl Session {
    /// The interface variables to send at the next login, before `iset lock 1`: FICS
    /// resets them at every login. Those a server refused are left out.
    pub fn login_ivariables(&self) -> Vec<(String, String)> {
        if self.cfg.server.dialect != Dialect::Fics {
            return Vec::new();
        }
        let mut v: Vec<(String, String)> = Vec::new();
        for var in self
            .cfg
            .accept
            .variants
            .iter()
            .filter_map(|x| ivariable_for(x))
        {
            if !self.conn.refused_ivars.contains(var) && !v.iter().any(|(k, _)| k == var) {
                v.push((var.to_string(), "1".to_string()));
            }
        }
        v
    }

    /// `No such ivariable "fr".`: this server has no such variable (lasker); logged once,
    /// and not sent at later logins.
    pub(crate) fn setting_refused(&mut self, name: &str) {
        let name = name.trim().to_ascii_lowercase();
        let ours = self
            .cfg
            .accept
            .variants
            .iter()
            .filter_map(|x| ivariable_for(x))
            .any(|v| v == name);
        if ours && self.conn.refused_ivars.insert(name.clone()) {
            tracing::warn!(
                "the server has no ivariable {name:?}: not sent again; it may offer no games of that variant to this account"
            );
        }
    }

    /// The server refused a seek's words while they carried the manual flag: this
    /// server (lasker) has no manual seeks. Seeks go out again without it; answers then
    /// start games at once, past `[accept]`'s filters (warned once).
    pub(crate) fn seek_refused(&mut self, text: &str, now: Instant, out: &mut Vec<Action>) {
        if !self.matching.manual_seeks {
            tracing::warn!("the server refused a seek: {text}");
            return;
        }
        self.matching.manual_seeks = false;
        tracing::warn!(
            "the server refused the manual seek flag ({text}): seeking without it; answers to the seeks start games without [accept]'s filters"
        );
        out.push(Action::Commentary(
            "this server has no manual seeks: seeking with automatic ones".into(),
        ));
        self.matching.last_seek = None;
        self.maybe_seek(now, true, out);
    }

    /// The answer to one of wily's own manual ads (its terms are the ad's) is judged
    /// on who sent it, not on what it asks for: the ad already chose the time control,
    /// the variant and rated or not, so `[accept]`'s ranges for those are widened to
    /// let it in. The block list, the per-opponent limits, ratings, guests, computers
    /// and humans still apply.
    pub(crate) fn widen_for_own_ad(&self, c: &Challenge, kind: &str, a: &mut AcceptSection) {
        if !self.matching.manual_seeks || self.matching.last_seek.is_none() || c.adjourned {
            return;
        }
        let chess960 = Variant::from_kind(kind) == Variant::Chess960;
        let ours = self.cfg.seek.ads.iter().any(|ad| {
            ad.base == c.base
                && ad.increment == c.increment
                && (ad.variant == "chess960") == chess960
                && (ad.rated == c.rated || !c.rated)
        });
        if !ours {
            return;
        }
        let v = if chess960 { "chess960" } else { "chess" };
        if !a.variants.iter().any(|x| x == v) {
            a.variants.push(v.to_string());
        }
        a.min_base = a.min_base.min(c.base);
        a.max_base = a.max_base.max(c.base);
        a.min_increment = a.min_increment.min(c.increment);
        a.max_increment = a.max_increment.max(c.increment);
        if c.rated {
            a.rated = true;
        } else {
            a.unrated = true;
        }
    }

    /// After a finished game: `rematch` when `accept.rematch` is on and the opponent is
    /// within the limits.
    pub(crate) fn maybe_rematch(
        &mut self,
        opponent: &str,
        kind: EndKind,
        now: Instant,
        out: &mut Vec<Action>,
    ) {
        let a = &self.cfg.accept;
        if !a.rematch
            || !self.matching.accepting
            || self.quitting
            || matches!(kind, EndKind::Adjourned | EndKind::Aborted)
        {
            return;
        }
        if rematch_allowed(a, &self.players.history, opponent, now) {
            tracing::info!("offering {opponent} a rematch");
            out.push(Action::Send("rematch".into()));
        } else {
            tracing::info!("no rematch with {opponent}: the per-opponent limits are reached");
        }
    }

    /// `abort` once when the opponent has not made a first move `accept.abort_idle_secs`
    /// after the game began (FICS aborts at once before each side has moved).
    pub(crate) fn idle_abort_check(&mut self, now: Instant, out: &mut Vec<Action>) {
        let secs = self.cfg.accept.abort_idle_secs;
        let Some(g) = self.play.game.as_mut() else {
            return;
        };
        if secs == 0 || g.idle_abort_sent || g.opponent_has_moved() {
            return;
        }
        if now.saturating_duration_since(g.created) < Duration::from_secs(secs) {
            return;
        }
        g.idle_abort_sent = true;
        let opp = g.opponent().to_string();
        tracing::info!(
            "game {}: {opp} made no first move in {secs} s; aborting",
            g.number
        );
        out.push(Action::GameLog(format!(
            "{opp} made no first move in {secs} s: abort"
        )));
        out.push(Action::Commentary(format!(
            "aborting game {}: {opp} never moved",
            g.number
        )));
        out.push(Action::SendNow("abort".into()));
    }

    /// The answer to a takeback request: accepted while this game's count is under
    /// `accept.takebacks`.
    pub(crate) fn takeback_reply(&mut self) -> &'static str {
        let limit = self.cfg.accept.takebacks;
        match self.play.game.as_mut() {
            Some(g) if g.takebacks < limit => {
                g.takebacks += 1;
                "accept takeback"
            }
            _ => "decline takeback",
        }
    }

    /// The login hook (and the idle timer starts).
    pub(crate) fn login_hooks(&mut self, now: Instant, out: &mut Vec<Action>) {
        self.hooks.set_idle(self.play.game.is_none().then_some(now));
        let fields = [("me", self.conn.me.clone())];
        let cmds = self
            .hooks
            .commands(&self.cfg.hooks, Hook::Login, &fields, now);
        out.extend(cmds.into_iter().map(Action::Send));
    }

    /// The game-start or game-end hook of wily's game against `opponent`. `result` is
    /// the PGN result at the end (`None` at the start).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn game_hooks(
        &mut self,
        game: u32,
        opponent: &str,
        wily_white: bool,
        rated: bool,
        result: Option<&str>,
        now: Instant,
        out: &mut Vec<Action>,
    ) {
        let rating = self
            .players
            .ratings
            .get(&opponent.to_ascii_lowercase())
            .map_or("----".to_string(), u32::to_string);
        let mut fields = vec![
            ("me", self.conn.me.clone()),
            ("opponent", opponent.to_string()),
            ("rating", rating),
            ("game", game.to_string()),
            (
                "color",
                if wily_white { "white" } else { "black" }.to_string(),
            ),
            ("rated", if rated { "rated" } else { "unrated" }.to_string()),
        ];
        let hook = match result {
            None => {
                self.hooks.set_idle(None);
                Hook::GameStart
            }
            Some(r) => {
                self.hooks.set_idle(Some(now));
                let outcome = match (r, wily_white) {
                    ("1-0", true) | ("0-1", false) => "win",
                    ("1-0", false) | ("0-1", true) => "loss",
                    ("1/2-1/2", _) => "draw",
                    _ => "none",
                };
                fields.push(("result", r.to_string()));
                fields.push(("outcome", outcome.to_string()));
                Hook::GameEnd
            }
        };
        let cmds = self.hooks.commands(&self.cfg.hooks, hook, &fields, now);
        out.extend(cmds.into_iter().map(Action::Send));
    }

    /// The idle hook, on a tick.
    pub(crate) fn idle_hooks(&mut self, now: Instant, out: &mut Vec<Action>) {
        if !self.conn.connected || self.play.game.is_some() || self.quitting {
            return;
        }
        if !self.hooks.idle_due(&self.cfg.hooks, now) {
            return;
        }
        let fields = [
            ("me", self.conn.me.clone()),
            ("minutes", self.cfg.hooks.idle_minutes.to_string()),
        ];
        let cmds = self
            .hooks
            .commands(&self.cfg.hooks, Hook::Idle, &fields, now);
        out.extend(cmds.into_iter().map(Action::Send));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rematch_keeps_to_the_limits() {
        let s = AcceptSection {
            max_in_row: 2,
            block: vec!["eve".into()],
            ..AcceptSection::default()
        };
        let t0 = Instant::now();
        let mut h = OpponentHistory::default();
        h.record("bob", t0);
        assert!(rematch_allowed(&s, &h, "Bob", t0));
        h.record("bob", t0);
        assert!(!rematch_allowed(&s, &h, "Bob", t0), "two in a row");
        assert!(!rematch_allowed(&s, &h, "Eve", t0), "blocked");
    }
}
