//! A game cut off by a lost connection, at the next login. wily asks the server to
//! resume it (`match OPPONENT`), unless its last known position, after the move wily
//! sent if the server never echoed it, ends the game by rule (checkmate, stalemate, no
//! mating material): the connection went as the game ended, and the line that said so
//! never came. The server then either ended the game, and lists it nowhere, or (when
//! wily's move did not arrive) adjourned it before the move, and lists it among the
//! stored games. wily asks (`stored`): listed, the game is resumed as usual; not listed,
//! wily records it as the rules end it (PGN archive, learning, totals), where a bot that
//! only waited for a resumption would lose the game's record. Without an answer within
//! [`STORED_WAIT`] (a server whose `stored` wily cannot read) it asks to resume, as
//! before.

use crate::input::Action;
use crate::play::state::Playing;
use crate::state::Bot;
use lists::valid_handle;
use std::time::{Duration, Instant};

/// How long wily waits for the answer to `stored` before asking to resume anyway.
pub const STORED_WAIT: Duration = Duration::from_secs(10);

impl Playing {
    /// At login, with a game interrupted by the lost connection (or adjourned) waiting:
    /// ask the server to resume it, or first whether it ended as the connection went.
    pub(crate) fn reclaim_interrupted(&mut self, now: Instant, out: &mut Vec<Action>) {
        let Some(g) = &self.resume.adjourned else {
            return;
        };
        if let Some((result, _, text)) = g.ends_by_rule() {
            tracing::info!(
                "game {} was cut off where the rules end it ({result}, {text}); asking the server whether it ended",
                g.number
            );
            self.resume.stored_check = Some(now);
            out.push(Action::Send("stored".into()));
            return;
        }
        self.ask_to_resume_interrupted(out);
    }

    /// `match OPPONENT` for the waiting game; while another game is on (one started
    /// meanwhile), `resume` after it instead.
    fn ask_to_resume_interrupted(&mut self, out: &mut Vec<Action>) {
        let Some(g) = &self.resume.adjourned else {
            return;
        };
        if self.game.is_some() {
            self.resume.hint = true;
            return;
        }
        let opp = g.opponent().to_string();
        if valid_handle(&opp) {
            out.push(Action::Commentary(format!(
                "reconnected; asking {opp} to resume game {}",
                g.number
            )));
            out.push(Action::Send(format!("match {opp}")));
        }
    }

    /// The answer to `stored`: when wily asked about the interrupted game, resume it if
    /// the server lists it, record it as the rules end it if not:
    /// `Some(last)` when the interrupted game is found ended and recorded (`last`: the
    /// run's last game); the session then leaves or seeks again.
    pub(crate) fn stored_games(
        &mut self,
        bot: &mut Bot,
        player: &str,
        games: &[(String, String)],
        out: &mut Vec<Action>,
    ) -> Option<bool> {
        if self.resume.stored_check.is_none() || !bot.is_me(player) {
            return None;
        }
        self.resume.stored_check = None;
        let listed = self.resume.adjourned.as_ref().is_some_and(|g| {
            games
                .iter()
                .any(|(w, b)| w.eq_ignore_ascii_case(&g.white) && b.eq_ignore_ascii_case(&g.black))
        });
        if listed {
            // Already asked for (lasker named the opponent online with it at login).
            if !self.resume.asked {
                self.ask_to_resume_interrupted(out);
            }
            return None;
        }
        let (result, kind, text) = self.resume.adjourned.as_ref()?.ends_by_rule()?;
        let mut g = self.resume.adjourned.take()?;
        self.resume.adjourned_at = None;
        if !g.confirm_sent() {
            return None;
        }
        let line = format!(
            "game {} ended while the connection was down: {result} ({text})",
            g.number
        );
        // The driver logs commentary (target `wily::commentary`).
        out.push(Action::Commentary(line));
        Some(self.record_finished(bot, g, result, kind, &text, out))
    }

    /// No answer to `stored` in time: ask to resume the game as if it had not ended.
    pub(crate) fn stored_wait_over(&mut self, now: Instant, out: &mut Vec<Action>) {
        if self
            .resume
            .stored_check
            .is_some_and(|at| now.saturating_duration_since(at) >= STORED_WAIT)
        {
            self.resume.stored_check = None;
            tracing::warn!("no answer to `stored`; asking to resume the interrupted game");
            self.ask_to_resume_interrupted(out);
        }
    }
}
