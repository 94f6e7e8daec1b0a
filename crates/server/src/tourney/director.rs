//! The local server's tournament director at work, in the shapes of FICS's mamer as
//! lasker carries them (`tests/fixtures/mamer/`): it opens a tournament and announces
//! it on its channel and by c-shout (`*****Tourney Announcement***** ... tell mamer
//! join N`), answers `tell mamer join N`, `withdraw N` and `listtourneys` (`lt`) with
//! `:mamer notes:` qtell lines, turns each entrant's tournament flag on and off
//! (`mamer has set your tourney variable to ON.`), closes the entry once enough have
//! joined, pairs each round (swiss or round robin; a bye for an odd field) and starts
//! its games at once as lasker's `rmatch` does, reports games and results on its
//! channel, sends the standings before each round, and names the winners at the end.
//! Like the relay account it has no connection: it lives in the core and runs on the
//! core's clock ticks (a game's end reaches it through `Director::ended`, filled by
//! `games/lifecycle.rs`, on the next tick). Its state is `tourney/config.rs`, the pairing rules
//! `tourney/pairing.rs`.

use crate::conn::Sid;
use crate::core::Core;
use crate::games::game::{white_score, End};
use crate::games::ratings::Category;
use crate::tourney::config::{Entrant, Pairing, PairingStyle, RoundEntry, Status, Tourney};
use crate::tourney::pairing::{round_robin, swiss, Pair};
use cozy_chess::Color;
use std::time::Instant;

/// Times a paired game is started again after an abort or adjournment before it
/// counts as a draw.
const MAX_RESTARTS: u32 = 2;

impl Core {
    /// True when `name` is the director account.
    pub fn is_director(&self, name: &str) -> bool {
        self.director
            .as_ref()
            .is_some_and(|d| d.name().eq_ignore_ascii_case(name))
    }

    /// The online session whose handle is exactly `name` (any case).
    fn online_exact(&self, name: &str) -> Option<Sid> {
        self.net
            .sessions
            .values()
            .find(|s| s.online() && s.handle.eq_ignore_ascii_case(name))
            .map(|s| s.id)
    }

    /// A line on the director's channel to everyone listening to it.
    fn director_channel(&mut self, text: &str) {
        let Some(d) = &self.director else { return };
        let (name, ch) = (d.cfg.name.clone(), d.cfg.channel);
        let to: Vec<Sid> = self
            .net
            .sessions
            .values()
            .filter(|s| s.online() && s.channels.contains(&ch))
            .map(|s| s.id)
            .collect();
        for sid in to {
            self.net.notify(sid, &format!("{name}({ch}): {text}\n"));
        }
    }

    /// The announcement of tournament `t`, on the channel and as a c-shout.
    fn director_announce(&mut self, t: &Tourney) {
        let Some(d) = &self.director else { return };
        let text = t.announcement(&d.cfg);
        let name = d.cfg.name.clone();
        self.director_channel(&text);
        let to: Vec<Sid> = self
            .net
            .sessions
            .values()
            .filter(|s| s.online() && s.vars.shout)
            .map(|s| s.id)
            .collect();
        for sid in to {
            self.net.notify(sid, &format!("{name} c-shouts: {text}\n"));
        }
    }

    /// Turns `name`'s tournament flag on or off, with the director's notice.
    fn director_flag(&mut self, name: &str, on: bool) {
        let Some(sid) = self.online_exact(name) else {
            return;
        };
        let director = self.director.as_ref().map(|d| d.cfg.name.clone());
        let Some(s) = self.net.sessions.get_mut(&sid) else {
            return;
        };
        if s.tourney == on {
            return;
        }
        s.tourney = on;
        let word = if on { "ON" } else { "OFF" };
        self.net.notify(
            sid,
            &format!(
                "{} has set your tourney variable to {word}.\n",
                director.unwrap_or_default()
            ),
        );
    }

    /// A tell to the director: `join N`, `withdraw N`, `listtourneys` (`lt`).
    pub fn director_tell(&mut self, sid: Sid, text: &str) {
        let Some(mut d) = self.director.take() else {
            return;
        };
        let name = d.cfg.name.clone();
        let me = self.net.name_of(sid);
        let words: Vec<&str> = text.split_whitespace().collect();
        let number = words.get(1).and_then(|w| w.parse::<u32>().ok());
        let note = |t: &str| format!(":{name} notes: {t}\n");
        let mut after: Vec<String> = Vec::new();
        let mut flag: Option<bool> = None;
        let answer = match (words.first().map(|w| w.to_ascii_lowercase()), number) {
            (Some(w), _) if w == "listtourneys" || w == "lt" => d.listing(),
            (Some(w), Some(n)) if w == "join" || w == "j" => {
                let registered = self.net.sess(sid).is_some_and(|s| s.registered);
                let cat = Category::of(d.cfg.base, d.cfg.inc);
                let rating = self.rating(&me, cat).unwrap_or(0);
                let (rated, max) = (d.cfg.rated, d.cfg.max_entrants);
                match d.tourneys.iter_mut().find(|t| t.number == n) {
                    None => note(&format!("Tourney #{n} not found.")),
                    Some(t) if t.entrant(&me).is_some() => note("You are already in this tourney."),
                    Some(t) if t.status != Status::Open || (max > 0 && t.entrants.len() >= max) => {
                        note("You can not join. Tourney is not open.")
                    }
                    Some(_) if rated && !registered => {
                        note("You can not join. Unregistered players can not play rated tourneys.")
                    }
                    Some(t) => {
                        t.entrants.push(Entrant {
                            name: me.clone(),
                            rating,
                            rounds: Vec::new(),
                            active: true,
                        });
                        after.push(format!(
                            "{me} ({rating}) has joined tourney #{n} {} players now.",
                            t.entrants.len()
                        ));
                        flag = Some(true);
                        note("You joined the tournament.")
                    }
                }
            }
            (Some(w), Some(n)) if w == "withdraw" || w == "w" => {
                match d.tourneys.iter_mut().find(|t| t.number == n) {
                    Some(t) if t.status != Status::Done && t.entrant(&me).is_some() => {
                        let i = t.entrant(&me).unwrap_or(0);
                        if t.status == Status::Open {
                            t.entrants.remove(i);
                        } else {
                            t.entrants[i].active = false;
                        }
                        after.push(format!("{me} has withdrawn from tourney #{n}."));
                        flag = Some(false);
                        note(&format!("You withdrew from tourney #{n}."))
                    }
                    _ => note(&format!("You are not in tourney #{n}.")),
                }
            }
            _ => note("Commands: join N, withdraw N, listtourneys."),
        };
        self.director = Some(d);
        self.net.reply(sid, &format!("(told {name})\n"));
        for line in after {
            self.director_channel(&line);
        }
        self.net.notify(sid, &answer);
        if let Some(on) = flag {
            self.director_flag(&me, on);
        }
    }

    /// Clock tick for the director: open and announce, close the entry, start the
    /// paired games, go on to the next round, finish.
    pub fn director_tick(&mut self, now: Instant) {
        let Some(mut d) = self.director.take() else {
            return;
        };
        let cfg = d.cfg.clone();
        let first = d.tourneys.is_empty();
        if d.current().is_none() && (first || cfg.repeat) {
            let n = d.open(now);
            tracing::info!(tourney = n, "director: tourney opened");
            let t = d.tourneys.last().cloned();
            self.director = Some(d);
            if let Some(t) = t {
                self.director_announce(&t);
            }
            return;
        }
        let Some(mut t) = d.current().cloned() else {
            self.director = Some(d);
            return;
        };
        self.director = Some(d);
        match t.status {
            Status::Open => {
                if now.saturating_duration_since(t.announced) >= cfg.announce_every {
                    t.announced = now;
                    self.director_announce(&t);
                }
                if t.entrants.len() >= cfg.min_entrants.max(2) {
                    let since = *t.full_since.get_or_insert(now);
                    let full = cfg.max_entrants > 0 && t.entrants.len() >= cfg.max_entrants;
                    if full || now.saturating_duration_since(since) >= cfg.close_after {
                        t.status = Status::Closed;
                        t.started = Some(chrono::Utc::now());
                        t.plan_rounds(&cfg);
                        tracing::info!(
                            tourney = t.number,
                            entrants = t.entrants.len(),
                            rounds = t.rounds,
                            "director: entry closed"
                        );
                        self.director_channel(&format!(
                            "Tourney #{} is now closed: {} players, {} rounds.",
                            t.number,
                            t.entrants.len(),
                            t.rounds
                        ));
                        self.next_round(&mut t);
                    }
                } else {
                    t.full_since = None;
                }
            }
            Status::Closed => {
                let ended = self
                    .director
                    .as_mut()
                    .map(|d| std::mem::take(&mut d.ended))
                    .unwrap_or_default();
                for (g, end, text) in ended {
                    self.game_ended(&mut t, g, end, &text);
                }
                self.start_pairings(&mut t);
                if t.pairings.iter().all(|p| p.done) {
                    if t.round >= t.rounds {
                        self.finish(&mut t);
                    } else {
                        self.next_round(&mut t);
                    }
                }
            }
            Status::Done => {}
        }
        self.store_tourney(t);
    }

    fn store_tourney(&mut self, t: Tourney) {
        if let Some(d) = &mut self.director {
            if let Some(slot) = d.tourneys.iter_mut().find(|x| x.number == t.number) {
                *slot = t;
            }
        }
    }

    /// Pair the next round of `t`: byes told, standings sent, games started.
    fn next_round(&mut self, t: &mut Tourney) {
        let Some(cfg) = self.director.as_ref().map(|d| d.cfg.clone()) else {
            return;
        };
        t.round += 1;
        let pairs: Vec<Pair> = match cfg.style {
            PairingStyle::RoundRobin => round_robin(t.entrants.len(), t.round),
            PairingStyle::Swiss => swiss(&t.swiss_players()),
        };
        t.pairings.clear();
        let mut byes = Vec::new();
        for p in pairs {
            let Some(b) = p.black else {
                let halves = Some(if t.entrants[p.white].active { 2 } else { 0 });
                t.entrants[p.white].rounds.push(RoundEntry {
                    opponent: None,
                    white: true,
                    halves,
                });
                byes.push(t.entrants[p.white].name.clone());
                continue;
            };
            for (me, opp, white) in [(p.white, b, true), (b, p.white, false)] {
                t.entrants[me].rounds.push(RoundEntry {
                    opponent: Some(opp),
                    white,
                    halves: None,
                });
            }
            t.pairings.push(Pairing {
                white: p.white,
                black: b,
                game: None,
                done: false,
                restarts: 0,
            });
        }
        tracing::info!(
            tourney = t.number,
            round = t.round,
            games = t.pairings.len(),
            "director: round paired"
        );
        for name in byes {
            if let Some(sid) = self.online_exact(&name) {
                self.net.notify(
                    sid,
                    &format!("{} tells you: you get a BYE this round.\n", cfg.name),
                );
            }
        }
        if t.round > 1 {
            let text = t.standings();
            let to: Vec<Sid> = t
                .entrants
                .iter()
                .filter(|e| e.active)
                .filter_map(|e| self.online_exact(&e.name))
                .collect();
            for sid in to {
                self.net.notify(sid, &text);
            }
        }
        self.start_pairings(t);
    }

    /// Start every paired game whose players are free; forfeit a side that is gone
    /// (logged out or withdrawn).
    fn start_pairings(&mut self, t: &mut Tourney) {
        let Some(cfg) = self.director.as_ref().map(|d| d.cfg.clone()) else {
            return;
        };
        for k in 0..t.pairings.len() {
            let p = t.pairings[k].clone();
            if p.done || p.game.is_some() {
                continue;
            }
            let (wn, bn) = (
                t.entrants[p.white].name.clone(),
                t.entrants[p.black].name.clone(),
            );
            let here = |core: &Core, i: usize, name: &str| {
                t.entrants[i].active && core.online_exact(name).is_some()
            };
            let (w_here, b_here) = (here(self, p.white, &wn), here(self, p.black, &bn));
            if !w_here || !b_here {
                let halves = (u32::from(w_here) * 2, u32::from(b_here) * 2);
                tracing::info!(tourney = t.number, white = %wn, black = %bn, "director: forfeit");
                self.record(t, k, halves);
                continue;
            }
            let (Some(w), Some(b)) = (self.online_exact(&wn), self.online_exact(&bn)) else {
                continue;
            };
            let busy = |core: &Core, s: Sid| core.net.sess(s).is_some_and(|x| x.game.is_some());
            if busy(self, w) || busy(self, b) {
                continue;
            }
            let cat = Category::of(cfg.base, cfg.inc);
            let registered = |core: &Core, s: Sid| core.net.sess(s).is_some_and(|x| x.registered);
            let rated = cfg.rated && registered(self, w) && registered(self, b);
            let text = format!(
                "{wn} ({}) [white] {bn} ({}) {} {} {} {}.",
                self.rating_shown(w, cat),
                self.rating_shown(b, cat),
                if rated { "rated" } else { "unrated" },
                cat.name(),
                cfg.base,
                cfg.inc
            );
            // lasker's `rmatch`: both sides see the challenge, the server accepts it.
            self.net.reply(w, &format!("Issuing: {text}\n"));
            self.net.notify(
                b,
                &format!("Challenge: {text}\nYou can \"accept\" or \"decline\", or propose different parameters.\n"),
            );
            self.start_accepted(b, w, w, b, rated, cfg.base, cfg.inc, false, false);
            let game = self.net.sess(w).and_then(|s| s.game);
            t.pairings[k].game = game;
            self.director_channel(&format!(
                "{wn} vs. {bn} a game in tourney #{} just started.",
                t.number
            ));
        }
    }

    /// The result of pairing `k`: half points to each side.
    fn record(&mut self, t: &mut Tourney, k: usize, (w, b): (u32, u32)) {
        let p = t.pairings[k].clone();
        t.pairings[k].done = true;
        t.pairings[k].game = None;
        let round = usize::try_from(t.round).unwrap_or(1).saturating_sub(1);
        for (i, h) in [(p.white, w), (p.black, b)] {
            if let Some(r) = t.entrants[i].rounds.get_mut(round) {
                r.halves = Some(h);
            }
        }
    }

    /// Game `g` ended with `end` (`text`: `B checkmated 1-0`): its result, when it was
    /// a game of `t`.
    fn game_ended(&mut self, t: &mut Tourney, g: u32, end: End, text: &str) {
        let Some(k) = t.pairings.iter().position(|p| p.game == Some(g)) else {
            return;
        };
        let halves = match (end, white_score(end)) {
            (_, Some(s)) => Some(((s * 2.0) as u32, 2 - (s * 2.0) as u32)),
            (End::LostConnection { who }, None) => {
                Some(if who == Color::White { (0, 2) } else { (2, 0) })
            }
            _ if t.pairings[k].restarts >= MAX_RESTARTS => Some((1, 1)),
            _ => None,
        };
        let (wn, bn) = (
            t.entrants[t.pairings[k].white].name.clone(),
            t.entrants[t.pairings[k].black].name.clone(),
        );
        match halves {
            Some(h) => self.record(t, k, h),
            None => {
                // Aborted or adjourned: played again.
                t.pairings[k].game = None;
                t.pairings[k].restarts += 1;
            }
        }
        self.director_channel(&format!(
            "{wn} vs. {bn} a game in tourney #{} just ended.  {text}",
            t.number
        ));
    }

    /// The last round is over: the winners on the channel, every flag off.
    fn finish(&mut self, t: &mut Tourney) {
        t.status = Status::Done;
        t.ended = Some(chrono::Utc::now());
        let places = t.places();
        for (words, names) in ["First", "Second"].iter().zip(&places) {
            self.director_channel(&format!(
                "Tourney Results: {words} place in tourney #{} goes to:  {}",
                t.number,
                names.join(" ")
            ));
        }
        tracing::info!(tourney = t.number, winners = ?places.first(), "director: tourney over");
        let names: Vec<String> = t.entrants.iter().map(|e| e.name.clone()).collect();
        for n in names {
            self.director_flag(&n, false);
        }
    }
}
