//! Offers between players on the local server: match challenges (`match`,
//! `accept`, `decline`, `withdraw`, `pending`, the `Challenge:`/`Issuing:`
//! lines, the computer notice, `<pf>`/`<pt>`/`<pr>` for `iset pendinfo 1`)
//! and the in-game draw/abort/adjourn requests, which share the same list. The
//! offer itself, as a value, is in `offers/offer.rs`.

use crate::conn::Sid;
use crate::games::ratings::Category;
use crate::offers::deal::Deal;
use crate::offers::offer::{MatchTerms, Notes, Offer, OfferKind};
use std::collections::HashMap;

/// Wrap a long line as the lasker server does without `iset nowrap 1`.
pub fn wrap(line: &str, width: usize) -> String {
    let mut out = String::with_capacity(line.len() + 8);
    let mut col = 0;
    for (i, word) in line.split(' ').enumerate() {
        let piece = if i == 0 {
            word.to_string()
        } else {
            format!(" {word}")
        };
        if col > 0 && col + piece.len() > width {
            out.push_str(" \n\\   ");
            out.push_str(word);
            col = 4 + word.len();
        } else {
            out.push_str(&piece);
            col += piece.len();
        }
    }
    out
}

impl Deal<'_> {
    /// Records an offer; a challenge is [`Deal::new_match_offer`].
    pub fn new_offer(&mut self, kind: OfferKind, from: Sid, to: Sid, text: String) -> u32 {
        self.push_offer(kind, None, from, to, text)
    }

    /// Records a challenge with its terms.
    pub fn new_match_offer(&mut self, terms: MatchTerms, from: Sid, to: Sid, text: String) -> u32 {
        self.push_offer(OfferKind::Match, Some(terms), from, to, text)
    }

    fn push_offer(
        &mut self,
        kind: OfferKind,
        terms: Option<MatchTerms>,
        from: Sid,
        to: Sid,
        text: String,
    ) -> u32 {
        let id = self.parts.offers.next_offer;
        self.parts.offers.next_offer = self.parts.offers.next_offer.wrapping_add(1).max(1);
        self.parts.offers.offers.push(Offer {
            id,
            kind,
            terms,
            from,
            to,
            text,
        });
        id
    }

    pub fn pendinfo(&self, sid: Sid) -> bool {
        self.parts.net.sess(sid).is_some_and(|s| s.vars.pendinfo)
    }

    pub fn pf_line(&self, o: &Offer, to_side: bool) -> String {
        let (tag, who) = if to_side {
            ("<pf>", o.from)
        } else {
            ("<pt>", o.to)
        };
        let p = match &o.kind {
            OfferKind::Match => o.text.clone(),
            _ => "#".to_string(),
        };
        format!(
            "{tag} {} w={} t={} p={}",
            o.id,
            self.parts.net.name_of(who),
            o.kind.word(),
            p
        )
    }

    /// `<pf>`/`<pt>` lines of every offer involving `sid`.
    pub fn pendinfo_lines(&self, sid: Sid) -> Vec<String> {
        let mut v = Vec::new();
        for o in &self.parts.offers.offers {
            if o.to == sid {
                v.push(self.pf_line(o, true));
            } else if o.from == sid {
                v.push(self.pf_line(o, false));
            }
        }
        v
    }

    /// Remove one offer; pendinfo users get `<pr>` notes.
    pub fn drop_offer(&mut self, id: u32, notes: &mut Notes) -> Option<Offer> {
        self.drop_offer_because(id, notes, "The challenge is no longer available.")
    }

    /// [`Deal::drop_offer`], with the words ICC clients get when a challenge goes
    /// (DG_MATCH_REMOVED); an offer inside a game sends the game's offers afresh.
    pub fn drop_offer_because(&mut self, id: u32, notes: &mut Notes, why: &str) -> Option<Offer> {
        let pos = self.parts.offers.offers.iter().position(|o| o.id == id)?;
        let o = self.parts.offers.offers.remove(pos);
        for s in [o.from, o.to] {
            if self.pendinfo(s) {
                notes.push((s, format!("<pr> {}\n", o.id)));
            }
        }
        if self.parts.net.icc() {
            if o.kind == OfferKind::Match {
                for s in [o.from, o.to] {
                    let t = self.icc_view().match_removed_text(s, &o, why);
                    if !t.is_empty() {
                        notes.push((s, t));
                    }
                }
            } else {
                notes.extend(self.icc_view().game_offers(o.from));
            }
        }
        Some(o)
    }

    /// Send notes with a prompt each, grouped per session.
    pub fn flush_notes(&mut self, notes: Notes) {
        let mut order: Vec<Sid> = Vec::new();
        let mut by: HashMap<Sid, String> = HashMap::new();
        for (sid, text) in notes {
            if !by.contains_key(&sid) {
                order.push(sid);
            }
            by.entry(sid).or_default().push_str(&text);
        }
        for sid in order {
            if let Some(t) = by.remove(&sid) {
                self.parts.net.reply(sid, &t);
            }
        }
    }

    /// A departing session's offers go silently (pendinfo gets `<pr>`).
    pub fn remove_offers_involving(&mut self, sid: Sid) {
        let ids: Vec<u32> = self
            .parts
            .offers
            .offers
            .iter()
            .filter(|o| o.from == sid || o.to == sid)
            .map(|o| o.id)
            .collect();
        let mut notes = Notes::new();
        let me = self.parts.net.name_of(sid);
        for id in ids {
            let Some(o) = self.drop_offer(id, &mut notes) else {
                continue;
            };
            // FICS tells the other side of a challenge that its player has gone (ICC's
            // clients had DG_MATCH_REMOVED from `drop_offer`).
            if self.parts.net.icc() || o.kind != OfferKind::Match {
                continue;
            }
            if o.to == sid {
                notes.push((
                    o.from,
                    format!("\n{me}, whom you were challenging, has departed.\nChallenge to {me} withdrawn.\n"),
                ));
            } else {
                notes.push((
                    o.to,
                    format!("\n{me}, who was challenging you, has departed.\n"),
                ));
            }
        }
        notes.retain(|(s, _)| *s != sid);
        self.flush_notes(notes);
    }

    /// Remove the draw/abort/adjourn offers between the players of a game.
    pub fn remove_game_offers(&mut self, a: Sid, b: Sid, notes: &mut Notes) {
        let ids: Vec<u32> = self
            .parts
            .offers
            .offers
            .iter()
            .filter(|o| {
                o.kind != OfferKind::Match && (o.from == a || o.to == a || o.from == b || o.to == b)
            })
            .map(|o| o.id)
            .collect();
        for id in ids {
            self.drop_offer(id, notes);
        }
    }

    /// Match offers of two players about to start a game are withdrawn, with
    /// the lasker server's messages.
    pub fn clear_match_offers_for_start(&mut self, a: Sid, b: Sid, notes: &mut Notes) {
        let ids: Vec<(u32, Sid, Sid)> = self
            .parts
            .offers
            .offers
            .iter()
            .filter(|o| {
                o.kind == OfferKind::Match && [a, b].iter().any(|p| *p == o.from || *p == o.to)
            })
            .map(|o| (o.id, o.from, o.to))
            .collect();
        for (id, from, to) in ids {
            self.drop_offer(id, notes);
            let partner = |p: Sid| if p == a { b } else { a };
            if from == a || from == b {
                let (fname, pname) = (
                    self.parts.net.name_of(from),
                    self.parts.net.name_of(partner(from)),
                );
                notes.push((
                    to,
                    format!(
                        "\n{fname}, who was challenging you, has joined a match with {pname}.\n"
                    ),
                ));
                notes.push((
                    from,
                    format!("Challenge to {} withdrawn.\n", self.parts.net.name_of(to)),
                ));
            } else {
                let (tname, pname) = (
                    self.parts.net.name_of(to),
                    self.parts.net.name_of(partner(to)),
                );
                notes.push((
                    from,
                    format!(
                        "\n{tname}, whom you were challenging, has joined a match with {pname}.\n"
                    ),
                ));
                notes.push((
                    to,
                    format!("Challenge from {} removed.\n", self.parts.net.name_of(from)),
                ));
            }
        }
    }

    /// Offers to `sid` chosen by `accept`/`decline` arguments.
    pub(crate) fn pick_offer(
        &self,
        sid: Sid,
        args: &[&str],
        incoming: bool,
    ) -> Result<u32, &'static str> {
        let mine: Vec<&Offer> = self
            .parts
            .offers
            .offers
            .iter()
            .filter(|o| if incoming { o.to == sid } else { o.from == sid })
            .collect();
        if mine.is_empty() {
            return Err("none");
        }
        match args.first() {
            None if mine.len() == 1 => Ok(mine[0].id),
            None => Err("many"),
            Some(a) => {
                let a = a.to_ascii_lowercase();
                if let Ok(n) = a.parse::<u32>() {
                    return mine
                        .iter()
                        .find(|o| o.id == n)
                        .map(|o| o.id)
                        .ok_or("nosuch");
                }
                let kind_hit: Vec<&&Offer> = mine.iter().filter(|o| o.kind.word() == a).collect();
                if let [o] = kind_hit.as_slice() {
                    return Ok(o.id);
                }
                let hits: Vec<&&Offer> = mine
                    .iter()
                    .filter(|o| {
                        let other = if incoming { o.from } else { o.to };
                        self.parts
                            .net
                            .name_of(other)
                            .to_ascii_lowercase()
                            .starts_with(&a)
                    })
                    .collect();
                match hits.as_slice() {
                    [o] => Ok(o.id),
                    [] => Err("nosuch"),
                    _ => Err("many"),
                }
            }
        }
    }

    /// `decline [n|name|draw|abort|adjourn]`.
    pub fn cmd_decline(&mut self, sid: Sid, args: &[&str]) {
        self.end_offer(sid, args, true);
    }

    /// `withdraw [n|name|draw|abort|adjourn]`.
    pub fn cmd_withdraw(&mut self, sid: Sid, args: &[&str]) {
        self.end_offer(sid, args, false);
    }

    /// `decline` (`received`: an offer made to `sid`) or `withdraw` (one `sid` made).
    fn end_offer(&mut self, sid: Sid, args: &[&str], received: bool) {
        let (verb, verbs, dir) = if received {
            ("decline", "declines", "from")
        } else {
            ("withdraw", "withdraws", "to")
        };
        let id = match self.pick_offer(sid, args, received) {
            Ok(id) => id,
            Err("none") => return self.parts.net.reply(sid, &format!("You have no offers to {verb}.\n")),
            Err("many") => {
                return self.parts.net.reply(
                    sid,
                    &format!(
                        "You have more than one offer to {verb}.\nUse \"pending\" to see them and \"{verb} n\" to choose which one.\n"
                    ),
                )
            }
            Err(_) => return self.parts.net.reply(sid, "There is no such offer.\n"),
        };
        let mut notes = Notes::new();
        let why = format!("{} {verbs} the match offer.", self.parts.net.name_of(sid));
        let Some(o) = self.drop_offer_because(id, &mut notes, &why) else {
            return;
        };
        let other = if received { o.from } else { o.to };
        let (me, them) = (self.parts.net.name_of(sid), self.parts.net.name_of(other));
        let (mine, theirs) = match o.kind {
            OfferKind::Match => (
                format!("You {verb} the match offer {dir} {them}.\n"),
                format!("\n{me} {verbs} the match offer.\n"),
            ),
            // The server says "declines draw request" but "withdraws the draw request".
            k => (
                format!("You {verb} the {} request {dir} {them}.\n", k.word()),
                format!(
                    "\n{me} {verbs} {}{} request.\n",
                    if received { "" } else { "the " },
                    k.word()
                ),
            ),
        };
        notes.push((other, theirs));
        let own: String = notes
            .iter()
            .filter(|(s, _)| *s == sid)
            .map(|(_, t)| t.as_str())
            .collect();
        notes.retain(|(s, _)| *s != sid);
        self.parts.net.reply(sid, &format!("{mine}{own}"));
        self.flush_notes(notes);
    }

    fn offer_summary(&self, o: &Offer) -> String {
        if let Some(t) = &o.terms {
            let cat = Category::of(t.base, t.inc);
            return format!(
                "{} {} {} {}",
                if t.rated { "rated" } else { "unrated" },
                cat.name(),
                t.base,
                t.inc
            );
        }
        match &o.kind {
            OfferKind::Draw => "a draw".into(),
            OfferKind::Abort => "to abort the game".into(),
            OfferKind::Adjourn => "to adjourn the game".into(),
            OfferKind::Takeback(n) => format!("to take back {n} half move(s)"),
            k => k.word().to_string(),
        }
    }

    /// `pending`.
    pub fn cmd_pending(&mut self, sid: Sid) {
        let to: Vec<String> = self
            .parts
            .offers
            .offers
            .iter()
            .filter(|o| o.from == sid)
            .map(|o| {
                format!(
                    " {}: You are offering {} {}.",
                    o.id,
                    self.parts.net.name_of(o.to),
                    self.offer_summary(o)
                )
            })
            .collect();
        let from: Vec<String> = self
            .parts
            .offers
            .offers
            .iter()
            .filter(|o| o.to == sid)
            .map(|o| {
                format!(
                    " {}: {} is offering {}.",
                    o.id,
                    self.parts.net.name_of(o.from),
                    self.offer_summary(o)
                )
            })
            .collect();
        let mut t = String::new();
        if to.is_empty() {
            t.push_str("There are no offers pending TO other players.\n");
        } else {
            t.push_str("Offers TO other players:\n");
            for l in to {
                t.push_str(&l);
                t.push('\n');
            }
            t.push_str("\nIf you wish to withdraw any of these offers type 'withdraw n'\nor just 'withdraw' if there is only one offer.\n");
        }
        t.push('\n');
        if from.is_empty() {
            t.push_str("There are no offers pending FROM other players.\n");
        } else {
            t.push_str("Offers FROM other players:\n");
            for l in from {
                t.push_str(&l);
                t.push('\n');
            }
            t.push_str("\nIf you wish to accept any of these offers type 'accept n'\nor just 'accept' if there is only one offer.\n");
        }
        self.parts.net.reply(sid, &t);
    }

    /// Record a draw/abort/adjourn request from `from` to `to` (unless it is
    /// already there) and announce it.
    pub fn offer_in_game(&mut self, kind: OfferKind, from: Sid, to: Sid) {
        let exists = self
            .parts
            .offers
            .offers
            .iter()
            .any(|o| o.from == from && o.to == to && o.kind == kind);
        let me = self.parts.net.name_of(from);
        let (sent, told) = match kind {
            OfferKind::Draw => ("Draw request sent.\n", format!("{me} offers you a draw.\n")),
            OfferKind::Abort => (
                "Abort request sent.\n",
                format!("{me} would like to abort the game; type \"abort\" to accept.\n"),
            ),
            OfferKind::Takeback(n) => (
                "Takeback request sent.\n",
                format!("{me} would like to take back {n} half move(s).\n"),
            ),
            _ => (
                "Adjourn request sent.\n",
                format!("{me} would like to adjourn the game; type \"adjourn\" to accept.\n"),
            ),
        };
        let mut told = told;
        let mut sent = sent.to_string();
        if !exists {
            // A new takeback request replaces an older one of another length.
            if let OfferKind::Takeback(_) = kind {
                let old: Vec<u32> = self
                    .parts
                    .offers
                    .offers
                    .iter()
                    .filter(|o| {
                        o.from == from && o.to == to && matches!(o.kind, OfferKind::Takeback(_))
                    })
                    .map(|o| o.id)
                    .collect();
                let mut notes = Notes::new();
                for id in old {
                    self.drop_offer(id, &mut notes);
                }
            }
            let id = self.new_offer(kind, from, to, String::new());
            if let Some(o) = self.parts.offers.get(id).cloned() {
                if self.pendinfo(to) {
                    told.push_str(&self.pf_line(&o, true));
                    told.push('\n');
                }
                if self.pendinfo(from) {
                    sent.push_str(&self.pf_line(&o, false));
                    sent.push('\n');
                }
            }
        }
        if self.parts.net.icc() {
            for (s, dg) in self.icc_view().game_offers(from) {
                if s == from {
                    sent.insert_str(0, &dg);
                } else if s == to {
                    told.insert_str(0, &dg);
                } else {
                    self.parts.net.send(s, &dg);
                }
            }
        }
        self.parts.net.reply(from, &sent);
        self.parts.net.notify(to, &told);
    }

    /// The id of a pending `kind` offer from `from` to `to`.
    pub fn find_offer(&self, kind: &OfferKind, from: Sid, to: Sid) -> Option<u32> {
        self.parts
            .offers
            .offers
            .iter()
            .find(|o| o.from == from && o.to == to && o.kind == *kind)
            .map(|o| o.id)
    }
}

#[cfg(test)]
mod tests {
    use super::wrap;

    #[test]
    fn wraps_like_lasker() {
        let l = "Challenge: BetaBot (1720) AlphaBot (1720) unrated wild 5 0 Loaded from blitz/0 (adjourned).";
        assert_eq!(
            wrap(l, 79),
            "Challenge: BetaBot (1720) AlphaBot (1720) unrated wild 5 0 Loaded from blitz/0 \n\\   (adjourned)."
        );
        let s = "Challenge: AlphaBot (----) [black] BetaBot (----) rated blitz 2 12.";
        assert_eq!(wrap(s, 79), s);
    }
}
