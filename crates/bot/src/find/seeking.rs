//! Seeking: when the bot posts its seek ads (idle, connected, seeking on, no adjourned
//! game waiting to be resumed, whether wily knew it or the server reported it at login)
//! and what they say (`[seek]` in the settings, the server's dialect).

use crate::find::state::Matching;
use crate::input::Action;
use crate::state::Bot;
use config::SeekColor;
use ics::Dialect;
use std::time::{Duration, Instant};

impl Matching {
    /// Posts the seek ads when idle and seeking (again after `interval_secs`, or at once
    /// with `force`).
    pub(crate) fn maybe_seek(
        &mut self,
        bot: &Bot,
        held: bool,
        now: Instant,
        force: bool,
        out: &mut Vec<Action>,
    ) {
        if !bot.conn.connected
            || !self.seeking
            || held
            || bot.quitting
            || bot.tourney.blocks_seeking()
        {
            return;
        }
        if bot.cfg.seek.ads.is_empty() {
            return;
        }
        let due = match self.last_seek {
            None => true,
            Some(t) => {
                force
                    || (bot.cfg.seek.interval_secs > 0
                        && now.saturating_duration_since(t)
                            >= Duration::from_secs(bot.cfg.seek.interval_secs))
            }
        };
        if !due {
            return;
        }
        if self.last_seek.is_some() {
            out.push(Action::Send("unseek".into()));
        }
        for cmd in self.seek_commands(bot) {
            out.push(Action::Send(cmd));
        }
        self.last_seek = Some(now);
    }

    /// The `seek` commands for the configured ads.
    pub fn seek_commands(&self, bot: &Bot) -> Vec<String> {
        let guest = bot.conn.me.to_ascii_lowercase().starts_with("guest") || bot.cfg.is_guest();
        bot.cfg
            .seek
            .ads
            .iter()
            .map(|ad| {
                let mut s = format!("seek {} {}", ad.base, ad.increment);
                // Guests cannot play rated games.
                s.push_str(if ad.rated && !guest {
                    " rated"
                } else {
                    " unrated"
                });
                match ad.color {
                    SeekColor::White => s.push_str(" white"),
                    SeekColor::Black => s.push_str(" black"),
                    SeekColor::Any => {}
                }
                if ad.variant == "chess960" {
                    s.push(' ');
                    s.push_str(bot.cfg.server.chess960.trim());
                }
                if self.manual_seeks && bot.cfg.server.dialect == Dialect::Fics {
                    // FICS's manual flag: answers come as match requests, judged by
                    // `[accept]` (see `find/accepting.rs` for servers that refuse it). ICC's
                    // seek words differ; its ads go out as before.
                    s.push_str(" m");
                }
                if ad.formula {
                    s.push_str(" formula");
                }
                if ad.min_rating.is_some() || ad.max_rating.is_some() {
                    s.push_str(&format!(
                        " {}-{}",
                        ad.min_rating.unwrap_or(0),
                        ad.max_rating.unwrap_or(9999)
                    ));
                }
                s
            })
            .collect()
    }
}
