//! Challenges on the local server: `match` (with the `Issuing:` and
//! `Challenge:` lines, rating-change lines for rated games, the computer
//! notice, lasker's line wrapping) and `resume` of adjourned games.

use crate::conn::Sid;
use crate::core::Net;
use crate::games::ratings::{apply_delta, delta, Category, FIRST_RATING};
use crate::games::variant::{chess960_words, is_variant_word, join_wild_number};
use crate::offers::deal::Deal;
use crate::offers::offer::{MatchTerms, Notes, OfferKind};
use crate::offers::pending::wrap;
use cozy_chess::Color;

impl Deal<'_> {
    fn rating_change_lines(&self, me: Sid, them: Sid, cat: Category) -> String {
        let mine = self
            .parts
            .net
            .sess(me)
            .map(|s| self.parts.games.rating(&s.handle, cat))
            .unwrap_or(None)
            .unwrap_or(FIRST_RATING);
        let theirs = self
            .parts
            .net
            .sess(them)
            .map(|s| self.parts.games.rating(&s.handle, cat))
            .unwrap_or(None)
            .unwrap_or(FIRST_RATING);
        let f = |score: f64| {
            let d = delta(mine, theirs, score);
            let _ = apply_delta(mine, d);
            if d >= 0 {
                format!("+{d}")
            } else {
                d.to_string()
            }
        };
        format!(
            "Your {} rating will change:  Win: {},  Draw: {},  Loss: {}\nYour new RD will be 350.0\n",
            cat.name(),
            f(1.0),
            f(0.5),
            f(0.0)
        )
    }

    /// `match NAME [base inc] [rated|unrated] [white|black]`.
    pub fn cmd_match(&mut self, sid: Sid, args: &[&str]) {
        let joined = join_wild_number(args);
        let args = joined.as_slice();
        let Some(name) = args.first() else {
            self.parts.net.reply(
                sid,
                "Usage: match name [time inc] [rated|unrated] [white|black] [fr]\n",
            );
            return;
        };
        let Some(to) = self.parts.net.find_online(name) else {
            self.parts
                .net
                .reply(sid, &format!("No user named '{name}' is logged in.\n"));
            return;
        };
        if to == sid {
            self.parts.net.reply(sid, "You can't match yourself.\n");
            return;
        }
        if let Some(refusal) = self.parts.net.tourney_refusal(sid, to) {
            self.parts.net.reply(sid, &refusal);
            return;
        }
        let (me, them) = (self.parts.net.name_of(sid), self.parts.net.name_of(to));
        if self.parts.net.sess(sid).is_some_and(|s| s.game.is_some()) {
            self.parts
                .net
                .reply(sid, "You cannot challenge while you are playing a game.\n");
            return;
        }
        if self.parts.net.sess(to).is_some_and(|s| s.game.is_some()) {
            self.parts
                .net
                .reply(sid, &format!("{them} is playing a game.\n"));
            return;
        }
        if !self.parts.net.sess(to).is_some_and(|s| s.vars.open) {
            self.parts
                .net
                .reply(sid, &format!("{them} is not open to match requests.\n"));
            return;
        }
        if args.len() == 1 && self.parts.games.stored_between(&me, &them).is_some() {
            self.issue_resume(sid, to);
            return;
        }
        let Some(s) = self.parts.net.sess(sid) else {
            return;
        };
        let both_registered = s.registered && self.parts.net.sess(to).is_some_and(|t| t.registered);
        let (mut base, mut inc, mut rated, mut color) = (None, None, s.vars.rated, None);
        let (dtime, dinc) = (s.vars.time, s.vars.inc);
        let chess960 = match chess960_words(&args[1..]) {
            Ok(v) => v,
            Err(e) => return self.parts.net.reply(sid, &e),
        };
        for a in args.iter().skip(1).filter(|a| !is_variant_word(a)) {
            let l = a.to_ascii_lowercase();
            match l.as_str() {
                "r" | "rated" => rated = true,
                "u" | "unrated" => rated = false,
                "w" | "white" => color = Some(Color::White),
                "b" | "black" => color = Some(Color::Black),
                _ => match l.parse::<u32>() {
                    Ok(n) if n <= 999 && base.is_none() => base = Some(n),
                    Ok(n) if n <= 999 && inc.is_none() => inc = Some(n),
                    _ => {
                        self.parts.net.reply(
                            sid,
                            "Usage: match name [time inc] [rated|unrated] [white|black] [fr]\n",
                        );
                        return;
                    }
                },
            }
        }
        let base = base.unwrap_or(dtime);
        let inc = inc.unwrap_or(
            if args.len() > 1 && args.iter().skip(1).any(|a| a.parse::<u32>().is_ok()) {
                0
            } else {
                dinc
            },
        );
        let rated = rated && both_registered && !(base == 0 && inc == 0);
        let terms = MatchTerms {
            base,
            inc,
            rated,
            color,
            resume: false,
            chess960,
        };
        let cat = Category::of(base, inc);
        let col = match color {
            Some(Color::White) => "[white] ",
            Some(Color::Black) => "[black] ",
            None => "",
        };
        // lasker 2.2 words a Chess960 challenge as a wild board loaded from a file.
        let (kind, loaded) = if chess960 {
            ("wild", " Loaded from fischerandom/0")
        } else {
            (cat.name(), "")
        };
        let text = format!(
            "{me} ({}) {col}{them} ({}) {} {kind} {base} {inc}{loaded}",
            self.parts.games.rating_shown(self.parts.net, sid, cat),
            self.parts.games.rating_shown(self.parts.net, to, cat),
            if rated { "rated" } else { "unrated" },
        );
        let mut notes = Notes::new();
        let mut prefix = String::new();
        if let Some(old) = self
            .parts
            .offers
            .offers
            .iter()
            .find(|o| o.from == sid && o.to == to && o.kind == OfferKind::Match)
            .map(|o| o.id)
        {
            self.drop_offer(old, &mut notes);
            prefix = format!("Updating offer already made to \"{them}\".\n");
        }
        let id = self.new_match_offer(terms, sid, to, text.clone());
        self.send_issue(sid, to, id, &text, rated.then_some(cat), prefix, notes);
    }

    #[allow(clippy::too_many_arguments)]
    fn send_issue(
        &mut self,
        sid: Sid,
        to: Sid,
        id: u32,
        text: &str,
        rated: Option<Category>,
        prefix: String,
        notes: Notes,
    ) {
        let wrap_for = |net: &Net, s: Sid, line: String| {
            if net.sess(s).is_some_and(|x| x.vars.nowrap) {
                line
            } else {
                wrap(&line, 79)
            }
        };
        let mut mine = prefix;
        mine.push_str(&wrap_for(self.parts.net, sid, format!("Issuing: {text}.")));
        mine.push('\n');
        let mut theirs = String::from("\n");
        theirs.push_str(&wrap_for(self.parts.net, to, format!("Challenge: {text}.")));
        theirs.push('\n');
        if let Some(cat) = rated {
            mine.push_str(&self.rating_change_lines(sid, to, cat));
            theirs.push_str(&self.rating_change_lines(to, sid, cat));
        }
        if self.parts.net.sess(sid).is_some_and(|s| s.computer) {
            theirs.push_str(&format!(
                "--** {} is a computer **--\n",
                self.parts.net.name_of(sid)
            ));
        }
        theirs.push_str("You can \"accept\" or \"decline\", or propose different parameters.\n");
        let offer = self.parts.offers.get(id).cloned();
        for (who, to_side) in [(sid, false), (to, true)] {
            if let (true, Some(o)) = (self.pendinfo(who), &offer) {
                let line = format!("{}\n", self.pf_line(o, to_side));
                if to_side {
                    theirs.push_str(&line)
                } else {
                    mine.push_str(&line)
                }
            }
        }
        if let Some(o) = &offer {
            mine.insert_str(0, &self.icc_view().match_text(sid, o));
            theirs.insert_str(0, &self.icc_view().match_text(to, o));
        }
        self.flush_notes(notes);
        self.parts.net.reply(sid, &mine);
        self.parts.net.reply(to, &theirs);
    }

    fn issue_resume(&mut self, sid: Sid, to: Sid) {
        let (me, them) = (self.parts.net.name_of(sid), self.parts.net.name_of(to));
        let Some(g) = self.parts.games.stored_between(&me, &them) else {
            return;
        };
        let (base, inc, rated, cat, chess960) = (g.base, g.inc, g.rated, g.category, g.chess960);
        let text = format!(
            "{me} ({}) {them} ({}) {} wild {base} {inc} Loaded from {}/0 (adjourned)",
            self.parts.games.rating_shown(self.parts.net, sid, cat),
            self.parts.games.rating_shown(self.parts.net, to, cat),
            if rated { "rated" } else { "unrated" },
            cat.name()
        );
        let terms = MatchTerms {
            base,
            inc,
            rated,
            color: None,
            resume: true,
            chess960,
        };
        let mut notes = Notes::new();
        if let Some(old) = self
            .parts
            .offers
            .offers
            .iter()
            .find(|o| o.from == sid && o.to == to && o.kind == OfferKind::Match)
            .map(|o| o.id)
        {
            self.drop_offer(old, &mut notes);
        }
        let id = self.new_match_offer(terms, sid, to, text.clone());
        self.send_issue(sid, to, id, &text, None, String::new(), notes);
    }

    /// `resume NAME`: continue an adjourned game.
    pub fn cmd_resume(&mut self, sid: Sid, args: &[&str]) {
        let me = self.parts.net.name_of(sid);
        let name = match args.first() {
            Some(n) => n.to_string(),
            None => {
                let partners: Vec<String> = self
                    .parts
                    .games
                    .stored
                    .iter()
                    .filter_map(|g| {
                        if g.white.name.eq_ignore_ascii_case(&me) {
                            Some(g.black.name.clone())
                        } else if g.black.name.eq_ignore_ascii_case(&me) {
                            Some(g.white.name.clone())
                        } else {
                            None
                        }
                    })
                    .filter(|n| self.parts.net.find_online(n).is_some())
                    .collect();
                match partners.first() {
                    Some(n) => n.clone(),
                    None => {
                        self.parts.net.reply(
                            sid,
                            "You have no stored games with players who are logged in.\n",
                        );
                        return;
                    }
                }
            }
        };
        let Some(to) = self.parts.net.find_online(&name) else {
            self.parts
                .net
                .reply(sid, &format!("No user named '{name}' is logged in.\n"));
            return;
        };
        if self
            .parts
            .games
            .stored_between(&me, &self.parts.net.name_of(to))
            .is_none()
        {
            self.parts.net.reply(
                sid,
                &format!(
                    "You have no stored game with {}.\n",
                    self.parts.net.name_of(to)
                ),
            );
            return;
        }
        self.cmd_match(sid, &[name.as_str()]);
    }
}
