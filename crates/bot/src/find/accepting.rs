//! What the bot does about games others offer it beyond the challenge filters
//! (`find/challenge.rs`): the answer to one of its own manual seek ads (judged on who
//! sent it, the ad's terms being its own), the seek flags a server refuses, and `rematch`
//! after a finished game within the per-opponent limits.

use crate::find::challenge::{OpponentHistory, Variant};
use crate::find::state::Matching;
use crate::input::{Action, Challenge, EndKind};
use crate::state::Bot;
use config::AcceptSection;
use std::time::Instant;

/// Whether another game with `name` keeps within `[accept]`'s block/allow lists and the
/// per-opponent limits (the same limits a challenge from them is judged by).
pub fn rematch_allowed(s: &AcceptSection, h: &OpponentHistory, name: &str, now: Instant) -> bool {
    let blocked = s.block.iter().any(|b| b.eq_ignore_ascii_case(name))
        || (!s.allow.is_empty() && !s.allow.iter().any(|a| a.eq_ignore_ascii_case(name)));
    let too_many = (s.max_in_row > 0 && h.in_a_row(name) >= s.max_in_row)
        || (s.max_per_hour > 0 && h.last_hour(name, now) >= s.max_per_hour);
    !blocked && !too_many
}

impl Matching {
    /// The server refused a seek's words while they carried the manual flag: this
    /// server (lasker) has no manual seeks. Seeks go out again without it; answers then
    /// start games at once, past `[accept]`'s filters (warned once).
    pub(crate) fn seek_refused(
        &mut self,
        bot: &Bot,
        held: bool,
        text: &str,
        now: Instant,
        out: &mut Vec<Action>,
    ) {
        if !self.manual_seeks {
            tracing::warn!("the server refused a seek: {text}");
            return;
        }
        self.manual_seeks = false;
        tracing::warn!(
            "the server refused the manual seek flag ({text}): seeking without it; answers to the seeks start games without [accept]'s filters"
        );
        out.push(Action::Commentary(
            "this server has no manual seeks: seeking with automatic ones".into(),
        ));
        self.last_seek = None;
        self.maybe_seek(bot, held, now, true, out);
    }

    /// The answer to one of wily's own manual ads (its terms are the ad's) is judged
    /// on who sent it, not on what it asks for: the ad already chose the time control,
    /// the variant and rated or not, so `[accept]`'s ranges for those are widened to
    /// let it in. The block list, the per-opponent limits, ratings, guests, computers
    /// and humans still apply.
    pub(crate) fn widen_for_own_ad(
        &self,
        bot: &Bot,
        c: &Challenge,
        kind: &str,
        a: &mut AcceptSection,
    ) {
        if !self.manual_seeks || self.last_seek.is_none() || c.adjourned {
            return;
        }
        let chess960 = Variant::from_kind(kind) == Variant::Chess960;
        let ours = bot.cfg.seek.ads.iter().any(|ad| {
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
        &self,
        bot: &Bot,
        opponent: &str,
        kind: EndKind,
        now: Instant,
        out: &mut Vec<Action>,
    ) {
        let a = &bot.cfg.accept;
        if !a.rematch
            || !self.accepting
            || bot.quitting
            || matches!(kind, EndKind::Adjourned | EndKind::Aborted)
        {
            return;
        }
        if rematch_allowed(a, &bot.players.history, opponent, now) {
            tracing::info!("offering {opponent} a rematch");
            out.push(Action::Send("rematch".into()));
        } else {
            tracing::info!("no rematch with {opponent}: the per-opponent limits are reached");
        }
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
