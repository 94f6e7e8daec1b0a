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
//! `games/lifecycle.rs`, on the next tick). Its state is [`Director`] (`tourney/config.rs`),
//! the pairing rules `tourney/pairing.rs`. The director writes through the connections
//! ([`Net`]); its tick also starts paired games, which reaches past the tournament
//! (offers, seeks, games), so it works on the offers handlers' borrow of the server
//! ([`Deal`], `offers/deal.rs`): a paired game starts as an accepted challenge.

use crate::conn::Sid;
use crate::core::Net;
use crate::games::game::{white_score, End};
use crate::games::ratings::Category;
use crate::games::Games;
use crate::offers::deal::Deal;
use crate::tourney::config::{
    Director, Entrant, Pairing, PairingStyle, RoundEntry, Status, Tourney,
};
use crate::tourney::pairing::{round_robin, swiss, Pair};
use cozy_chess::Color;
use std::time::Instant;

/// Times a paired game is started again after an abort or adjournment before it
/// counts as a draw.
const MAX_RESTARTS: u32 = 2;

impl Director {
    /// True when `name` is the director account.
    pub fn is_named(&self, name: &str) -> bool {
        self.name().eq_ignore_ascii_case(name)
    }

    /// A line on the director's channel to everyone listening to it.
    fn channel(&self, net: &mut Net, text: &str) {
        let (name, ch) = (self.cfg.name.clone(), self.cfg.channel);
        let to: Vec<Sid> = net
            .sessions
            .values()
            .filter(|s| s.online() && s.channels.contains(&ch))
            .map(|s| s.id)
            .collect();
        for sid in to {
            net.notify(sid, &format!("{name}({ch}): {text}\n"));
        }
    }

    /// The announcement of tournament `t`, on the channel and as a c-shout.
    fn announce(&self, net: &mut Net, t: &Tourney) {
        let text = t.announcement(&self.cfg);
        let name = self.cfg.name.clone();
        self.channel(net, &text);
        let to: Vec<Sid> = net
            .sessions
            .values()
            .filter(|s| s.online() && s.vars.shout)
            .map(|s| s.id)
            .collect();
        for sid in to {
            net.notify(sid, &format!("{name} c-shouts: {text}\n"));
        }
    }

    /// Turns `name`'s tournament flag on or off, with the director's notice.
    fn set_flag(&self, net: &mut Net, name: &str, on: bool) {
        let Some(sid) = net.online_exact(name) else {
            return;
        };
        let Some(s) = net.sessions.get_mut(&sid) else {
            return;
        };
        if s.tourney == on {
            return;
        }
        s.tourney = on;
        let word = if on { "ON" } else { "OFF" };
        net.notify(
            sid,
            &format!(
                "{} has set your tourney variable to {word}.\n",
                self.cfg.name
            ),
        );
    }

    /// A tell to the director: `join N`, `withdraw N`, `listtourneys` (`lt`).
    pub fn tell(&mut self, net: &mut Net, games: &Games, sid: Sid, text: &str) {
        let name = self.cfg.name.clone();
        let me = net.name_of(sid);
        let words: Vec<&str> = text.split_whitespace().collect();
        let number = words.get(1).and_then(|w| w.parse::<u32>().ok());
        let note = |t: &str| format!(":{name} notes: {t}\n");
        let mut after: Vec<String> = Vec::new();
        let mut flag: Option<bool> = None;
        let answer = match (words.first().map(|w| w.to_ascii_lowercase()), number) {
            (Some(w), _) if w == "listtourneys" || w == "lt" => self.listing(),
            (Some(w), Some(n)) if w == "join" || w == "j" => {
                let registered = net.sess(sid).is_some_and(|s| s.registered);
                let cat = Category::of(self.cfg.base, self.cfg.inc);
                let rating = games.rating(&me, cat).unwrap_or(0);
                let (rated, max) = (self.cfg.rated, self.cfg.max_entrants);
                match self.tourneys.iter_mut().find(|t| t.number == n) {
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
                match self.tourneys.iter_mut().find(|t| t.number == n) {
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
        net.reply(sid, &format!("(told {name})\n"));
        for line in after {
            self.channel(net, &line);
        }
        net.notify(sid, &answer);
        if let Some(on) = flag {
            self.set_flag(net, &me, on);
        }
    }

    /// Clock tick for the director: open and announce, close the entry, start the
    /// paired games, go on to the next round, finish.
    pub fn tick(&mut self, deal: &mut Deal<'_>, now: Instant) {
        let cfg = self.cfg.clone();
        let first = self.tourneys.is_empty();
        if self.current().is_none() && (first || cfg.repeat) {
            let n = self.open(now);
            tracing::info!(tourney = n, "director: tourney opened");
            let t = self.tourneys.last().cloned();
            if let Some(t) = t {
                self.announce(deal.parts.net, &t);
            }
            return;
        }
        let Some(mut t) = self.current().cloned() else {
            return;
        };
        match t.status {
            Status::Open => {
                if now.saturating_duration_since(t.announced) >= cfg.announce_every {
                    t.announced = now;
                    self.announce(deal.parts.net, &t);
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
                        self.channel(
                            deal.parts.net,
                            &format!(
                                "Tourney #{} is now closed: {} players, {} rounds.",
                                t.number,
                                t.entrants.len(),
                                t.rounds
                            ),
                        );
                        self.next_round(deal, &mut t);
                    }
                } else {
                    t.full_since = None;
                }
            }
            Status::Closed => {
                let ended = std::mem::take(&mut self.ended);
                for (g, end, text) in ended {
                    self.game_ended(deal.parts.net, &mut t, g, end, &text);
                }
                self.start_pairings(deal, &mut t);
                if t.pairings.iter().all(|p| p.done) {
                    if t.round >= t.rounds {
                        self.finish(deal.parts.net, &mut t);
                    } else {
                        self.next_round(deal, &mut t);
                    }
                }
            }
            Status::Done => {}
        }
        self.store_tourney(t);
    }

    fn store_tourney(&mut self, t: Tourney) {
        if let Some(slot) = self.tourneys.iter_mut().find(|x| x.number == t.number) {
            *slot = t;
        }
    }

    /// Pair the next round of `t`: byes told, standings sent, games started.
    fn next_round(&mut self, deal: &mut Deal<'_>, t: &mut Tourney) {
        let cfg = self.cfg.clone();
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
        let net = &mut *deal.parts.net;
        for name in byes {
            if let Some(sid) = net.online_exact(&name) {
                net.notify(
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
                .filter_map(|e| net.online_exact(&e.name))
                .collect();
            for sid in to {
                net.notify(sid, &text);
            }
        }
        self.start_pairings(deal, t);
    }

    /// Start every paired game whose players are free; forfeit a side that is gone
    /// (logged out or withdrawn).
    fn start_pairings(&mut self, deal: &mut Deal<'_>, t: &mut Tourney) {
        let cfg = self.cfg.clone();
        for k in 0..t.pairings.len() {
            let p = t.pairings[k].clone();
            if p.done || p.game.is_some() {
                continue;
            }
            let (wn, bn) = (
                t.entrants[p.white].name.clone(),
                t.entrants[p.black].name.clone(),
            );
            let net: &Net = deal.parts.net;
            let here =
                |i: usize, name: &str| t.entrants[i].active && net.online_exact(name).is_some();
            let (w_here, b_here) = (here(p.white, &wn), here(p.black, &bn));
            if !w_here || !b_here {
                let halves = (u32::from(w_here) * 2, u32::from(b_here) * 2);
                tracing::info!(tourney = t.number, white = %wn, black = %bn, "director: forfeit");
                Self::record(t, k, halves);
                continue;
            }
            let (Some(w), Some(b)) = (net.online_exact(&wn), net.online_exact(&bn)) else {
                continue;
            };
            let busy = |s: Sid| net.sess(s).is_some_and(|x| x.game.is_some());
            if busy(w) || busy(b) {
                continue;
            }
            let cat = Category::of(cfg.base, cfg.inc);
            let registered = |s: Sid| net.sess(s).is_some_and(|x| x.registered);
            let rated = cfg.rated && registered(w) && registered(b);
            let text = format!(
                "{wn} ({}) [white] {bn} ({}) {} {} {} {}.",
                deal.parts.games.rating_shown(deal.parts.net, w, cat),
                deal.parts.games.rating_shown(deal.parts.net, b, cat),
                if rated { "rated" } else { "unrated" },
                cat.name(),
                cfg.base,
                cfg.inc
            );
            // lasker's `rmatch`: both sides see the challenge, the server accepts it.
            deal.parts.net.reply(w, &format!("Issuing: {text}\n"));
            deal.parts.net.notify(
                b,
                &format!("Challenge: {text}\nYou can \"accept\" or \"decline\", or propose different parameters.\n"),
            );
            deal.start_accepted(b, w, w, b, rated, cfg.base, cfg.inc, false, false);
            t.pairings[k].game = deal.parts.net.sess(w).and_then(|s| s.game);
            self.channel(
                deal.parts.net,
                &format!(
                    "{wn} vs. {bn} a game in tourney #{} just started.",
                    t.number
                ),
            );
        }
    }

    /// The result of pairing `k`: half points to each side.
    fn record(t: &mut Tourney, k: usize, (w, b): (u32, u32)) {
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
    fn game_ended(&self, net: &mut Net, t: &mut Tourney, g: u32, end: End, text: &str) {
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
            Some(h) => Self::record(t, k, h),
            None => {
                // Aborted or adjourned: played again.
                t.pairings[k].game = None;
                t.pairings[k].restarts += 1;
            }
        }
        self.channel(
            net,
            &format!(
                "{wn} vs. {bn} a game in tourney #{} just ended.  {text}",
                t.number
            ),
        );
    }

    /// The last round is over: the winners on the channel, every flag off.
    fn finish(&self, net: &mut Net, t: &mut Tourney) {
        t.status = Status::Done;
        t.ended = Some(chrono::Utc::now());
        let places = t.places();
        for (words, names) in ["First", "Second"].iter().zip(&places) {
            self.channel(
                net,
                &format!(
                    "Tourney Results: {words} place in tourney #{} goes to:  {}",
                    t.number,
                    names.join(" ")
                ),
            );
        }
        tracing::info!(tourney = t.number, winners = ?places.first(), "director: tourney over");
        let names: Vec<String> = t.entrants.iter().map(|e| e.name.clone()).collect();
        for n in names {
            self.set_flag(net, &n, false);
        }
    }
}
