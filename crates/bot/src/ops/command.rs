//! Carrying out operator commands (parsed by [`crate::ops::parse`]) on the session; each
//! returns the one-line answer told back to the operator.

use crate::input::Action;
use crate::ops::parse::{ObserveTarget, OpCommand, SettingClass, HELP};
use crate::play::opponent::OpponentProfile;
use crate::state::Session;
use std::time::Instant;

impl Session {
    pub(crate) fn operator_command(
        &mut self,
        cmd: OpCommand,
        now: Instant,
        out: &mut Vec<Action>,
    ) -> String {
        match cmd {
            OpCommand::Help => HELP.to_string(),
            OpCommand::Status => self.status_line(),
            OpCommand::Seek(on) => {
                self.matching.seeking = on;
                if on {
                    self.maybe_seek(now, true, out);
                } else if self.bot.conn.connected {
                    out.push(Action::Send("unseek".into()));
                    self.matching.last_seek = None;
                }
                format!("seeking {}", if on { "on" } else { "off" })
            }
            OpCommand::Accept(on) => {
                self.matching.accepting = on;
                format!("accepting challenges {}", if on { "on" } else { "off" })
            }
            OpCommand::List(args) => {
                let dir = self.bot.cfg.paths.lists.clone();
                let answer = match self.bot.lists.command(&dir, &args) {
                    Ok(s) => s,
                    Err(e) => e.to_string(),
                };
                self.refresh_profile();
                answer
            }
            OpCommand::Resign(class, pawns) => {
                let o = &mut self.bot.cfg.opponents;
                match class {
                    SettingClass::Gm => o.resign_gm = pawns,
                    SettingClass::Im => o.resign_im = pawns,
                    SettingClass::Default => o.resign_default = pawns,
                }
                self.refresh_profile();
                format!(
                    "resign threshold ({class:?}) now {pawns} pawns{}",
                    if pawns == 0 { " (never)" } else { "" }
                )
            }
            OpCommand::ResignMoves(n) => {
                self.bot.cfg.opponents.resign_moves = n;
                self.refresh_profile();
                format!("resign after {n} moves below the threshold")
            }
            OpCommand::Draw(class, cp) => {
                let o = &mut self.bot.cfg.opponents;
                match class {
                    SettingClass::Gm => o.draw_score_gm = cp,
                    SettingClass::Im => o.draw_score_im = cp,
                    SettingClass::Default => o.draw_score_default = cp,
                }
                self.refresh_profile();
                format!("draw score ({class:?}) now {cp} (computers stay at 0)")
            }
            OpCommand::Contempt(cp) => {
                self.bot.cfg.opponents.special_contempt = cp;
                self.refresh_profile();
                format!("contempt against the S list now {cp}")
            }
            // `observe` toggles on lasker: never sent for a game already observed.
            OpCommand::Observe(ObserveTarget::Game(n)) => {
                self.observing.observer.want_game(n);
                if self.observing.observer.has(n) {
                    return format!("already observing game {n}");
                }
                out.push(Action::Send(format!("observe {n}")));
                format!("observing game {n}")
            }
            OpCommand::Observe(ObserveTarget::Player(h)) => {
                if self.observing.observer.follow(&h) {
                    out.extend(self.observing.follow.add(&h).into_iter().map(Action::Send));
                }
                if !self.observing.observer.watching(&h) {
                    out.push(Action::Send(format!("observe {h}")));
                }
                format!("following {h}")
            }
            OpCommand::Unobserve(game) => {
                let gone = self.observing.observer.forget(game);
                let left = self.observing.observer.followed();
                out.extend(
                    self.observing
                        .follow
                        .remove(&gone, &left)
                        .into_iter()
                        .map(Action::Send),
                );
                match game {
                    Some(n) => out.push(Action::Send(format!("unobserve {n}"))),
                    None => out.push(Action::Send("unobserve".into())),
                }
                if matches!(
                    self.bot.search.as_ref().map(|s| &s.purpose),
                    Some(crate::state::Purpose::Analyse { game: g }) if game.is_none_or(|n| n == *g)
                ) {
                    self.bot.stop_search(out);
                }
                "unobserved".into()
            }
            OpCommand::Whisper(level) => {
                self.bot.cfg.talk.whisper = level;
                self.bot.cfg.observe.whisper = level;
                format!("whisper level {level}")
            }
            OpCommand::Kibitz(level) => {
                self.bot.cfg.talk.kibitz = level;
                self.bot.cfg.observe.kibitz = level;
                // The operator's level replaces the autokibitz one in the game in
                // progress too.
                if let Some(g) = &mut self.play.game {
                    g.autokibitz = false;
                }
                format!("kibitz level {level}")
            }
            OpCommand::Noise(n) => {
                self.bot.cfg.talk.noise = n;
                format!("noise {n} nodes")
            }
            OpCommand::Quit => {
                self.bot.quitting = true;
                if self.matching.seeking && self.bot.conn.connected {
                    out.push(Action::Send("unseek".into()));
                }
                if self.play.game.is_none() {
                    out.push(Action::Quit);
                    "quitting now".into()
                } else {
                    "quitting after this game".into()
                }
            }
        }
    }

    /// Recomputes the current opponent's profile after a list or threshold change.
    pub(crate) fn refresh_profile(&mut self) {
        let Some(g) = &mut self.play.game else {
            return;
        };
        let opp = g.opponent().to_string();
        let titles = self
            .bot
            .players
            .titles
            .get(&opp.to_ascii_lowercase())
            .copied()
            .unwrap_or_default();
        let class = self.bot.lists.classify(&opp, titles);
        let p = OpponentProfile::new(class, &self.bot.cfg.opponents);
        tracing::info!("opponent {opp} now: {}", p.describe());
        g.policy.set_profile(p);
    }
}
