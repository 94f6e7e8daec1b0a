//! Carrying out operator commands (parsed by [`crate::ops::parse`]) on the session; each
//! returns the one-line answer told back to the operator.

use crate::find::state::Matching;
use crate::input::Action;
use crate::ops::parse::{ObserveTarget, OpCommand, SettingClass, HELP};
use crate::play::state::Playing;
use crate::state::Bot;
use crate::watch::state::Observing;
use std::time::Instant;

/// The parts of the bot an operator's command changes, borrowed for one command: the
/// shared part (settings, lists, search, leaving), wily's game (its opponent's profile
/// and talk), seeking and accepting, and what is observed.
pub(crate) struct Operated<'a> {
    pub bot: &'a mut Bot,
    pub play: &'a mut Playing,
    pub matching: &'a mut Matching,
    pub observing: &'a mut Observing,
}

impl Operated<'_> {
    /// Carries out `cmd`; the answer told back to the operator.
    pub(crate) fn run(self, cmd: OpCommand, now: Instant, out: &mut Vec<Action>) -> String {
        match cmd {
            OpCommand::Help => HELP.to_string(),
            OpCommand::Status => self.status(),
            OpCommand::Seek(on) => {
                self.matching.seeking = on;
                if on {
                    let held = self.play.holds_seeks(now);
                    self.matching.maybe_seek(self.bot, held, now, true, out);
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
                self.play.refresh_profile(self.bot);
                answer
            }
            OpCommand::Resign(class, pawns) => {
                let o = &mut self.bot.cfg.opponents;
                match class {
                    SettingClass::Gm => o.resign_gm = pawns,
                    SettingClass::Im => o.resign_im = pawns,
                    SettingClass::Default => o.resign_default = pawns,
                }
                self.play.refresh_profile(self.bot);
                format!(
                    "resign threshold ({class:?}) now {pawns} pawns{}",
                    if pawns == 0 { " (never)" } else { "" }
                )
            }
            OpCommand::ResignMoves(n) => {
                self.bot.cfg.opponents.resign_moves = n;
                self.play.refresh_profile(self.bot);
                format!("resign after {n} moves below the threshold")
            }
            OpCommand::Draw(class, cp) => {
                let o = &mut self.bot.cfg.opponents;
                match class {
                    SettingClass::Gm => o.draw_score_gm = cp,
                    SettingClass::Im => o.draw_score_im = cp,
                    SettingClass::Default => o.draw_score_default = cp,
                }
                self.play.refresh_profile(self.bot);
                format!("draw score ({class:?}) now {cp} (computers stay at 0)")
            }
            OpCommand::Contempt(cp) => {
                self.bot.cfg.opponents.special_contempt = cp;
                self.play.refresh_profile(self.bot);
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
                self.bot.stop_analysis(game, out);
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

    /// One line about the bot's state, for `status`.
    fn status(&self) -> String {
        let mut s = match &self.play.game {
            Some(g) => format!(
                "playing game {} vs {} [{}] (ply {}, last score {})",
                g.number,
                g.opponent(),
                g.policy.profile().describe(),
                g.plies(),
                g.policy
                    .last_score()
                    .map_or("-".to_string(), |c| format!("{:+.2}", c as f64 / 100.0))
            ),
            None => "idle".to_string(),
        };
        let t = self.play.totals;
        s.push_str(&format!(
            "; seek {}, accept {}; games {} (+{} ={} -{}), declined {}; observing {}; whisper {} kibitz {} noise {}{}",
            on_off(self.matching.seeking),
            on_off(self.matching.accepting),
            t.games,
            t.wins,
            t.draws,
            t.losses,
            t.declined,
            self.observing.observer.count() + self.observing.watch.games.len(),
            self.bot.cfg.talk.whisper,
            self.bot.cfg.talk.kibitz,
            self.bot.cfg.talk.noise,
            if self.bot.quitting { "; quitting after this game" } else { "" }
        ));
        if let Some(t) = self.bot.tourney.status() {
            s.push_str("; ");
            s.push_str(&t);
        }
        s
    }
}

fn on_off(b: bool) -> &'static str {
    if b {
        "on"
    } else {
        "off"
    }
}
