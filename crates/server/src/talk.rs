//! Talking on the local server: `tell`/`xtell`, `say` (to the opponent),
//! `kibitz` (players and observers) and `whisper` (observers only), in the
//! line shapes the lasker server uses (`X tells you: ...`,
//! `X(1500) kibitzes: ...`, `(told X)`, `kibitzed to 2.`).

use crate::conn::Sid;
use crate::core::Core;
use crate::icc::talk::{TELL_SAY, TELL_TELL};

/// Longest message passed on (longer text is cut).
const MAX_TEXT: usize = 400;

fn clip(text: &str) -> String {
    text.chars().take(MAX_TEXT).collect()
}

impl Core {
    /// `tell NAME text` (`echo`: answer `(told X)`).
    pub fn cmd_tell(&mut self, sid: Sid, args: &[&str], rest: &str, echo: bool) {
        let Some(name) = args.first() else {
            self.net.reply(sid, "Usage: tell name message\n");
            return;
        };
        let text = rest
            .split_once(char::is_whitespace)
            .map_or("", |(_, t)| t.trim());
        if text.is_empty() {
            self.net.reply(sid, "Usage: tell name message\n");
            return;
        }
        if let Some(relay) = self.relay.as_ref().filter(|r| r.is_named(name)) {
            relay.tell(&self.games, &mut self.net, sid, text);
            return;
        }
        if let Some(d) = self.director.as_mut().filter(|d| d.is_named(name)) {
            d.tell(&mut self.net, &self.games, sid, text);
            return;
        }
        let Some(to) = self.net.find_online(name) else {
            self.net
                .reply(sid, &format!("No user named '{name}' is logged in.\n"));
            return;
        };
        let Some(me) = self.net.sess(sid) else { return };
        let from = me.display_name();
        let registered = me.registered;
        let them = self.net.name_of(to);
        if !registered && !self.net.sess(to).is_some_and(|s| s.vars.tell) {
            self.net.reply(
                sid,
                &format!("Player \"{them}\" isn't listening to unregistered users' tells.\n"),
            );
            return;
        }
        let from = if registered {
            from
        } else {
            self.net.name_of(sid) + "(U)"
        };
        let dg = self.icc_view().tell_text(to, sid, &clip(text), TELL_TELL);
        if dg.is_empty() {
            self.net
                .notify(to, &format!("{from} tells you: {}\n", clip(text)));
        } else {
            self.net.send(to, &format!("{dg}{}", self.net.prompt()));
        }
        let echoed = self
            .icc_view()
            .tell_echo_text(sid, to, &clip(text), TELL_TELL);
        self.net.send(sid, &echoed);
        if let Some(s) = self.net.sessions.get_mut(&sid) {
            s.last_told = Some(them.clone());
        }
        self.net.reply(
            sid,
            &if echo {
                format!("(told {them})\n")
            } else {
                String::new()
            },
        );
    }

    /// `say text`: to the opponent, or the last opponent after a game.
    pub fn cmd_say(&mut self, sid: Sid, text: &str) {
        if text.is_empty() {
            self.net.reply(sid, "Usage: say message\n");
            return;
        }
        let Some(s) = self.net.sess(sid) else { return };
        let opp = match s.game.and_then(|g| self.games.games.get(&g)) {
            Some(game) => match game.color_of(sid) {
                Some(c) => game.side(!c).sid,
                None => None,
            },
            None => s
                .last_opponent
                .clone()
                .and_then(|n| self.net.find_online(&n)),
        };
        let Some(opp) = opp else {
            self.net.reply(sid, "I don't know whom to say that to.\n");
            return;
        };
        let from = self.net.sess(sid).map(|s| {
            if s.registered {
                s.display_name()
            } else {
                format!("{}(U)", s.handle)
            }
        });
        let from = from.unwrap_or_default();
        let dg = self.icc_view().tell_text(opp, sid, &clip(text), TELL_SAY);
        if dg.is_empty() {
            self.net
                .notify(opp, &format!("{from} says: {}\n", clip(text)));
        } else {
            self.net.send(opp, &format!("{dg}{}", self.net.prompt()));
        }
        let echo = self
            .icc_view()
            .tell_echo_text(sid, opp, &clip(text), TELL_SAY);
        self.net.send(sid, &echo);
        let them = self.net.name_of(opp);
        self.net.reply(sid, &format!("(told {them})\n"));
    }

    /// `kibitz text` (`kibitz` true) or `whisper text`.
    /// `xkibitz N text` / `xwhisper N text` name the game (`game`); otherwise it is the
    /// game one plays, else the one observed last.
    pub fn cmd_kibitz(&mut self, sid: Sid, text: &str, kibitz: bool, game: Option<u32>) {
        let verb = if kibitz { "kibitz" } else { "whisper" };
        if text.is_empty() {
            self.net.reply(sid, &format!("Usage: {verb} message\n"));
            return;
        }
        let Some(g) = game.or_else(|| self.playing().current_game(sid)) else {
            self.net
                .reply(sid, "You are not playing or observing a game.\n");
            return;
        };
        let Some(s) = self.net.sess(sid) else { return };
        if game.is_some() && s.game != Some(g) && !s.observing.contains(&g) {
            self.net
                .reply(sid, &format!("You are not observing game {g}.\n"));
            return;
        }
        let playing = s.game == Some(g);
        if !playing && !s.registered {
            self.net.reply(
                sid,
                &format!("You must be registered to {verb} other people's games.\n"),
            );
            return;
        }
        let Some(game) = self.games.games.get(&g) else {
            return;
        };
        let rating = self.games.rating_shown(&self.net, sid, game.category);
        let name = if s.registered {
            s.display_name()
        } else {
            s.handle.clone()
        };
        let line = format!(
            "{name}({rating}) {}: {}\n",
            if kibitz { "kibitzes" } else { "whispers" },
            clip(text)
        );
        let mut to: Vec<Sid> = game.observers.clone();
        if kibitz {
            to.extend([game.white.sid, game.black.sid].into_iter().flatten());
        }
        to.retain(|o| *o != sid && self.net.sess(*o).is_some_and(|x| x.vars.kibitz));
        to.dedup();
        for o in &to {
            let dg = self.icc_view().kibitz_text(*o, g, sid, &clip(text), kibitz);
            if dg.is_empty() {
                self.net.notify(*o, &line);
            } else {
                self.net.send(*o, &format!("{dg}{}", self.net.prompt()));
            }
        }
        let n = to.len();
        self.net.reply(sid, &format!("{}ed to {n}.\n", verb));
    }
}
