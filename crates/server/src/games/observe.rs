//! Watching games on the local server: `observe` (which, as on lasker, stops observing
//! a game already observed), `unobserve`, `allobservers`, and `refresh` (a fresh style 12
//! of the game one plays or observes).

use crate::conn::Sid;
use crate::games::play::Play;

/// Most games one session may observe at once.
const MAX_OBSERVED: usize = 30;

impl Play<'_> {
    /// Game number from an argument: a number, or the game a player plays.
    /// Replies with the reason when there is none.
    pub fn game_from_arg(&mut self, sid: Sid, arg: &str) -> Option<u32> {
        if let Ok(n) = arg.parse::<u32>() {
            if self.parts.games.games.contains_key(&n) {
                return Some(n);
            }
            self.parts.net.reply(sid, "There is no such game.\n");
            return None;
        }
        let Some(o) = self.parts.net.find_online(arg) else {
            self.parts
                .net
                .reply(sid, &format!("No user named '{arg}' is logged in.\n"));
            return None;
        };
        match self.parts.net.sess(o).and_then(|s| s.game) {
            Some(g) => Some(g),
            None => {
                let name = self.parts.net.name_of(o);
                self.parts
                    .net
                    .reply(sid, &format!("{name} is not playing a game.\n"));
                None
            }
        }
    }

    /// The game `sid` plays, else the one it observed last.
    pub fn current_game(&self, sid: Sid) -> Option<u32> {
        let s = self.parts.net.sess(sid)?;
        s.game.or_else(|| s.observing.last().copied())
    }

    /// The game an optional `[N|NAME]` argument names, else the one `sid` plays or
    /// observed last; replies `none` (or the argument's reason) when there is none.
    pub fn game_or_current(&mut self, sid: Sid, args: &[&str], none: &str) -> Option<u32> {
        match args.first() {
            Some(a) => self.game_from_arg(sid, a),
            None => {
                let g = self.current_game(sid);
                if g.is_none() {
                    self.parts.net.reply(sid, none);
                }
                g
            }
        }
    }

    /// `observe N|NAME`.
    pub fn cmd_observe(&mut self, sid: Sid, args: &[&str]) {
        let Some(arg) = args.first() else {
            self.parts
                .net
                .reply(sid, "Usage: observe game-number|player\n");
            return;
        };
        let Some(g) = self.game_from_arg(sid, arg) else {
            return;
        };
        let Some(s) = self.parts.net.sess(sid) else {
            return;
        };
        if s.game == Some(g) {
            self.parts
                .net
                .reply(sid, "You cannot observe a game that you are playing.\n");
            return;
        }
        if s.observing.contains(&g) {
            // lasker toggles (FICS would answer "You are already observing game N.").
            self.cmd_unobserve(sid, &[&g.to_string()]);
            return;
        }
        if s.observing.len() >= MAX_OBSERVED {
            self.parts.net.reply(
                sid,
                &format!(
                    "You are already observing the maximum number of games ({MAX_OBSERVED}).\n"
                ),
            );
            return;
        }
        if let Some(s) = self.parts.net.sessions.get_mut(&sid) {
            s.observing.push(g);
        }
        if let Some(game) = self.parts.games.games.get_mut(&g) {
            game.observers.push(sid);
        }
        let t = self.icc_view().started_observing(sid, g);
        self.parts.net.send(sid, &t);
        let board = self.parts.games.board_for(self.parts.net, g, sid);
        self.parts.net.reply(
            sid,
            &format!("You are now observing game {g}.\n\n{board}\n"),
        );
    }

    /// `unobserve [N|NAME]`.
    pub fn cmd_unobserve(&mut self, sid: Sid, args: &[&str]) {
        let list: Vec<u32> = match args.first() {
            None => self
                .parts
                .net
                .sess(sid)
                .map(|s| s.observing.clone())
                .unwrap_or_default(),
            Some(a) => {
                let g = match a.parse::<u32>() {
                    Ok(n) => Some(n),
                    Err(_) => self
                        .parts
                        .net
                        .find_online(a)
                        .and_then(|o| self.parts.net.sess(o).and_then(|s| s.game)),
                };
                match g {
                    Some(g)
                        if self
                            .parts
                            .net
                            .sess(sid)
                            .is_some_and(|s| s.observing.contains(&g)) =>
                    {
                        vec![g]
                    }
                    Some(g) => {
                        self.parts
                            .net
                            .reply(sid, &format!("You are not observing game {g}.\n"));
                        return;
                    }
                    None => {
                        self.parts
                            .net
                            .reply(sid, "You are not observing that game.\n");
                        return;
                    }
                }
            }
        };
        if list.is_empty() {
            self.parts
                .net
                .reply(sid, "You are not observing any games.\n");
            return;
        }
        let mut text = String::new();
        for g in list {
            if let Some(s) = self.parts.net.sessions.get_mut(&sid) {
                s.observing.retain(|x| *x != g);
            }
            if let Some(game) = self.parts.games.games.get_mut(&g) {
                game.observers.retain(|o| *o != sid);
            }
            let t = self.icc_view().stopped_observing(sid, g);
            self.parts.net.send(sid, &t);
            text.push_str(&format!("Removing game {g} from observation list.\n"));
        }
        self.parts.net.reply(sid, &text);
    }

    /// `allobservers [N|NAME]`.
    pub fn cmd_allobservers(&mut self, sid: Sid, args: &[&str]) {
        let games: Vec<u32> = match args.first() {
            Some(a) => match self.game_from_arg(sid, a) {
                Some(g) => vec![g],
                None => return,
            },
            None => self.parts.games.games.keys().copied().collect(),
        };
        let mut text = String::new();
        for g in games {
            let Some(game) = self.parts.games.games.get(&g) else {
                continue;
            };
            if game.observers.is_empty() {
                continue;
            }
            let names: Vec<String> = game
                .observers
                .iter()
                .map(|o| self.parts.net.name_of(*o))
                .collect();
            text.push_str(&format!(
                "Observing {:2} [{} vs. {}]: {}\n",
                g,
                game.white.name,
                game.black.name,
                names.join(" ")
            ));
        }
        if text.is_empty() {
            text = "No games are being observed.\n".into();
        }
        self.parts.net.reply(sid, &text);
    }

    /// `refresh [N|NAME]`.
    pub fn cmd_refresh(&mut self, sid: Sid, args: &[&str]) {
        let Some(g) = self.game_or_current(
            sid,
            args,
            "You are neither playing, observing nor examining a game.\n",
        ) else {
            return;
        };
        let board = self.parts.games.board_for(self.parts.net, g, sid);
        self.parts.net.notify(sid, &format!("{board}\n"));
    }
}
