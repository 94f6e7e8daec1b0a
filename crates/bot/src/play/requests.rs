//! What the opponent asks of wily's game, and its clock: offers of a draw, an abort, an
//! adjournment or a takeback (the policy's and `[accept]`'s answers), a move the server
//! refused (the board is asked for again), `flag` when the opponent's time is up, and
//! `abort` when the opponent never makes a first move.

use crate::input::{Action, OfferKind};
use crate::play::state::Playing;
use crate::state::Bot;
use std::time::{Duration, Instant};

/// Do not repeat `flag` more often than this.
const FLAG_GAP: Duration = Duration::from_millis(1000);

impl Playing {
    /// Sends `flag` when the opponent's clock has run out.
    pub(crate) fn flag_check(&mut self, now: Instant, out: &mut Vec<Action>) {
        let Some(g) = self.game.as_mut() else {
            return;
        };
        let Some(ms) = g.opponent_clock_now(now) else {
            return;
        };
        if ms >= 0
            || g.last_flag
                .is_some_and(|t| now.saturating_duration_since(t) < FLAG_GAP)
        {
            return;
        }
        g.last_flag = Some(now);
        out.push(Action::SendNow("flag".into()));
        out.push(Action::GameLog(format!(
            "flagging (opponent clock {ms} ms)"
        )));
    }

    pub(crate) fn offer(&mut self, bot: &Bot, from: &str, kind: OfferKind, out: &mut Vec<Action>) {
        let Some(g) = &self.game else {
            return;
        };
        if !from.eq_ignore_ascii_case(g.opponent()) {
            return;
        }
        let accept_draw = g.policy.accept_draw();
        let accept_abort = g.policy.accept_abort(g.board().fullmove_number() as u32);
        let reply = match kind {
            OfferKind::Draw if accept_draw => "draw",
            OfferKind::Draw => "decline draw",
            OfferKind::Abort if accept_abort => "abort",
            OfferKind::Abort => "decline abort",
            OfferKind::Adjourn if bot.quitting => "adjourn",
            OfferKind::Adjourn => "decline adjourn",
            OfferKind::Takeback(_) => self.takeback_reply(bot),
            _ => return,
        };
        out.push(Action::GameLog(format!("{from} offers {kind:?}: {reply}")));
        out.push(Action::SendNow(reply.to_string()));
    }

    pub(crate) fn illegal_move(&mut self, text: &str, out: &mut Vec<Action>) {
        let Some(g) = self.game.as_mut() else {
            return;
        };
        if let Some(mv) = g.sent.take() {
            g.illegal_replies += 1;
            tracing::warn!(
                "game {}: the server refused {mv} ({text}); refreshing",
                g.number
            );
            out.push(Action::GameLog(format!("server refused {mv}: {text}")));
            g.pending_comment = None;
            g.pending_search = None;
            if g.illegal_replies <= 20 {
                out.push(Action::SendNow("refresh".into()));
            }
        }
    }

    /// `abort` once when the opponent has not made a first move `accept.abort_idle_secs`
    /// after the game began (FICS aborts at once before each side has moved).
    pub(crate) fn idle_abort_check(&mut self, bot: &Bot, now: Instant, out: &mut Vec<Action>) {
        let secs = bot.cfg.accept.abort_idle_secs;
        let Some(g) = self.game.as_mut() else {
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
    pub(crate) fn takeback_reply(&mut self, bot: &Bot) -> &'static str {
        let limit = bot.cfg.accept.takebacks;
        match self.game.as_mut() {
            Some(g) if g.takebacks < limit => {
                g.takebacks += 1;
                "accept takeback"
            }
            _ => "decline takeback",
        }
    }
}
