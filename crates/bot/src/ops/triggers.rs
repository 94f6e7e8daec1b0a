//! When each operator hook fires (`[hooks]`, filled and rate-limited by `ops/hooks.rs`):
//! at login (the idle timer starts when no game is on), at the start and the end of each
//! of wily's games (with the opponent, rating, colour and result as fields), and after
//! `idle_minutes` without a game.

use crate::connection::Connection;
use crate::input::Action;
use crate::ops::hooks::{Hook, HookRunner};
use crate::players::Players;
use config::HooksSection;
use std::time::Instant;

/// One of wily's games, as the game hooks' fields name it.
pub(crate) struct HookGame<'a> {
    pub number: u32,
    pub opponent: &'a str,
    pub wily_white: bool,
    pub rated: bool,
    /// The PGN result at the end (`None` at the start).
    pub result: Option<&'a str>,
}

impl HookRunner {
    /// The login hook (and the idle timer starts when no game is on).
    pub(crate) fn login(
        &mut self,
        cfg: &HooksSection,
        conn: &Connection,
        playing: bool,
        now: Instant,
        out: &mut Vec<Action>,
    ) {
        self.set_idle((!playing).then_some(now));
        let fields = [("me", conn.me.clone())];
        let cmds = self.commands(cfg, Hook::Login, &fields, now);
        out.extend(cmds.into_iter().map(Action::Send));
    }

    /// The game-start or game-end hook of wily's game `g`.
    pub(crate) fn game(
        &mut self,
        cfg: &HooksSection,
        conn: &Connection,
        players: &Players,
        g: HookGame,
        now: Instant,
        out: &mut Vec<Action>,
    ) {
        let rating = players
            .rating_of(g.opponent)
            .map_or("----".to_string(), |r| r.to_string());
        let mut fields = vec![
            ("me", conn.me.clone()),
            ("opponent", g.opponent.to_string()),
            ("rating", rating),
            ("game", g.number.to_string()),
            (
                "color",
                if g.wily_white { "white" } else { "black" }.to_string(),
            ),
            (
                "rated",
                if g.rated { "rated" } else { "unrated" }.to_string(),
            ),
        ];
        let hook = match g.result {
            None => {
                self.set_idle(None);
                Hook::GameStart
            }
            Some(r) => {
                self.set_idle(Some(now));
                let outcome = match (r, g.wily_white) {
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
        let cmds = self.commands(cfg, hook, &fields, now);
        out.extend(cmds.into_iter().map(Action::Send));
    }

    /// The idle hook, on a tick (`active`: connected, no game, not leaving).
    pub(crate) fn idle(
        &mut self,
        cfg: &HooksSection,
        conn: &Connection,
        active: bool,
        now: Instant,
        out: &mut Vec<Action>,
    ) {
        if !active || !self.idle_due(cfg, now) {
            return;
        }
        let fields = [
            ("me", conn.me.clone()),
            ("minutes", cfg.idle_minutes.to_string()),
        ];
        let cmds = self.commands(cfg, Hook::Idle, &fields, now);
        out.extend(cmds.into_iter().map(Action::Send));
    }
}
