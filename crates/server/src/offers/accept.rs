//! Accepting on the local server: `accept` (a match challenge, or a draw, abort or
//! adjourn request, which then runs as that command), `play N` (a seek ad), and the
//! game that starts from either, after the two players' other offers and ads are
//! cleared. Above the offers, seeks and games it ties together.

use crate::conn::Sid;
use crate::offers::deal::Deal;
use crate::offers::offer::{Notes, OfferKind};
use cozy_chess::Color;
use rand::Rng;
use std::collections::HashMap;

impl Deal<'_> {
    /// Start a game that `acceptor` accepted from `challenger` (a challenge
    /// or a seek): accept texts, tidy-up notes, then the game.
    #[allow(clippy::too_many_arguments)]
    pub fn start_accepted(
        &mut self,
        acceptor: Sid,
        challenger: Sid,
        white: Sid,
        black: Sid,
        rated: bool,
        base: u32,
        inc: u32,
        resume: bool,
        chess960: bool,
    ) {
        let mut notes = Notes::new();
        self.clear_match_offers_for_start(acceptor, challenger, &mut notes);
        self.remove_seeks_for_start(acceptor, challenger, &mut notes);
        let mut own: HashMap<Sid, String> = HashMap::new();
        let mut others = Notes::new();
        for (sid, text) in notes {
            if sid == acceptor || sid == challenger {
                own.entry(sid).or_default().push_str(&text);
            } else {
                others.push((sid, text));
            }
        }
        let (aname, cname) = (
            self.parts.net.name_of(acceptor),
            self.parts.net.name_of(challenger),
        );
        let prompt = self.parts.net.prompt();
        let a_extra = own.remove(&acceptor).unwrap_or_default();
        self.parts.net.send(
            acceptor,
            &format!("You accept the challenge of {cname}.\n{a_extra}{prompt}"),
        );
        let c_extra = own.remove(&challenger).unwrap_or_default();
        self.parts.net.send(
            challenger,
            &format!("\n{aname} accepts your challenge.\n{prompt}{c_extra}"),
        );
        self.flush_notes(others);
        let resumed = if resume {
            let (wn, bn) = (self.parts.net.name_of(white), self.parts.net.name_of(black));
            let pos = self.parts.games.stored.iter().position(|g| {
                g.white.name.eq_ignore_ascii_case(&wn) && g.black.name.eq_ignore_ascii_case(&bn)
            });
            pos.map(|p| self.parts.games.stored.remove(p))
        } else {
            None
        };
        self.playing()
            .create_game(white, black, rated, base, inc, chess960, resumed);
    }

    /// `accept [n|name|draw|abort|adjourn]`.
    pub fn cmd_accept(&mut self, sid: Sid, args: &[&str]) {
        let id = match self.pick_offer(sid, args, true) {
            Ok(id) => id,
            Err("none") => return self.parts.net.reply(sid, "You have no offers to accept.\n"),
            Err("many") => {
                return self.parts.net.reply(sid, "You have more than one offer to accept.\nUse \"pending\" to see them and \"accept n\" to choose which one.\n")
            }
            Err(_) => return self.parts.net.reply(sid, "There is no such offer.\n"),
        };
        let Some(o) = self.parts.offers.get(id).cloned() else {
            return;
        };
        match (&o.kind, &o.terms) {
            (OfferKind::Draw, _) => self.playing().cmd_draw(sid),
            (OfferKind::Abort, _) => self.playing().cmd_abort(sid),
            (OfferKind::Adjourn, _) => self.playing().cmd_adjourn(sid),
            (OfferKind::Takeback(n), _) => self.playing().cmd_takeback(sid, &[&n.to_string()]),
            // The server makes no other offers.
            (_, None) => {}
            (_, Some(t)) => {
                if self.parts.net.sess(sid).is_some_and(|s| s.game.is_some()) {
                    return self.parts.net.reply(
                        sid,
                        "You cannot accept a challenge while you are playing a game.\n",
                    );
                }
                if self
                    .parts
                    .net
                    .sess(o.from)
                    .is_none_or(|s| !s.online() || s.game.is_some())
                {
                    let mut notes = Notes::new();
                    self.drop_offer(id, &mut notes);
                    self.flush_notes(notes);
                    return self
                        .parts
                        .net
                        .reply(sid, "That offer is no longer available.\n");
                }
                let (white, black) = if t.resume {
                    let (c, me) = (self.parts.net.name_of(o.from), self.parts.net.name_of(sid));
                    match self.parts.games.stored_between(&c, &me) {
                        Some(g) if g.white.name.eq_ignore_ascii_case(&c) => (o.from, sid),
                        Some(_) => (sid, o.from),
                        None => {
                            return self
                                .parts
                                .net
                                .reply(sid, "That adjourned game no longer exists.\n")
                        }
                    }
                } else {
                    match t.color {
                        Some(Color::White) => (o.from, sid),
                        Some(Color::Black) => (sid, o.from),
                        None => {
                            if self.parts.rng.gen_bool(0.5) {
                                (o.from, sid)
                            } else {
                                (sid, o.from)
                            }
                        }
                    }
                };
                self.start_accepted(
                    sid, o.from, white, black, t.rated, t.base, t.inc, t.resume, t.chess960,
                );
            }
        }
    }

    /// `play N` (or `play NAME`).
    pub fn cmd_play(&mut self, sid: Sid, args: &[&str]) {
        let Some(arg) = args.first() else {
            self.parts.net.reply(sid, "Usage: play ad-number\n");
            return;
        };
        if self.parts.net.sess(sid).is_some_and(|s| s.game.is_some()) {
            self.parts
                .net
                .reply(sid, "You cannot play while you are playing a game.\n");
            return;
        }
        let id = match arg.parse::<u32>() {
            Ok(n) => Some(n),
            Err(_) => self.parts.net.find_online(arg).and_then(|o| {
                self.parts
                    .offers
                    .seeks
                    .values()
                    .find(|k| k.owner == o)
                    .map(|k| k.id)
            }),
        };
        let Some(seek) = id.and_then(|n| self.parts.offers.seeks.get(&n)).cloned() else {
            self.parts.net.reply(sid, "That seek is not available.\n");
            return;
        };
        if seek.owner == sid {
            self.parts
                .net
                .reply(sid, "ERROR: You cannot respond to your own seek ads\n");
            return;
        }
        if let Some(refusal) = self.parts.net.tourney_refusal(sid, seek.owner) {
            self.parts.net.reply(sid, &refusal);
            return;
        }
        if self
            .parts
            .net
            .sess(seek.owner)
            .is_none_or(|s| !s.online() || s.game.is_some())
        {
            self.parts.net.reply(sid, "That seek is not available.\n");
            return;
        }
        let rated = seek.rated && self.parts.net.sess(sid).is_some_and(|s| s.registered);
        if seek.manual {
            // FICS: an answer to a manual ad is a match request to its owner, with the
            // ad's terms, which the owner may accept or decline.
            let owner = self.parts.net.name_of(seek.owner);
            let (base, inc) = (seek.base.to_string(), seek.inc.to_string());
            let mut words: Vec<&str> = vec![&owner, &base, &inc];
            words.push(if rated { "rated" } else { "unrated" });
            match seek.color {
                Some(Color::White) => words.push("black"),
                Some(Color::Black) => words.push("white"),
                None => {}
            }
            if seek.chess960 {
                words.push("fr");
            }
            self.cmd_match(sid, &words);
            return;
        }
        let (white, black) = match seek.color {
            Some(Color::White) => (seek.owner, sid),
            Some(Color::Black) => (sid, seek.owner),
            None => {
                if self.parts.rng.gen_bool(0.5) {
                    (seek.owner, sid)
                } else {
                    (sid, seek.owner)
                }
            }
        };
        self.start_accepted(
            sid,
            seek.owner,
            white,
            black,
            rated,
            seek.base,
            seek.inc,
            false,
            seek.chess960,
        );
    }
}
