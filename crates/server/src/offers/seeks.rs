//! Seek ads of the local server, lasker style: `seek`, `unseek`, `sought`,
//! `play N`, the ad lines (`  0 1500 BetaBot   5   0 rated   blitz`),
//! `AD_DESTROY: n`, `Ads removed: n`, and FICS `<s>`/`<sr>` lines for
//! clients that `iset seekinfo 1`. The ad itself, as a value, is in `offers/seek_ad.rs`.

use crate::conn::Sid;
use crate::games::ratings::Category;
use crate::games::variant::{chess960_words, is_variant_word, join_wild_number};
use crate::icc::seeks::{SEEKER_LEFT, SEEKER_PLAYING, SEEKER_REMOVED};
use crate::offers::deal::Deal;
use crate::offers::offer::Notes;
use crate::offers::seek_ad::Seek;
use cozy_chess::Color;

/// Most ads one player may have at once.
const MAX_SEEKS: usize = 3;

impl Deal<'_> {
    /// `<s>` lines of every ad, for `iset seekinfo 1`.
    pub fn seekinfo_lines(&self) -> Vec<String> {
        self.parts.offers.seeks.values().map(Seek::s_line).collect()
    }

    fn free_seek_id(&self) -> u32 {
        (0..)
            .find(|n| !self.parts.offers.seeks.contains_key(n))
            .unwrap_or(0)
    }

    /// `seek [base inc] [rated|unrated] [white|black] ...`.
    pub fn cmd_seek(&mut self, sid: Sid, args: &[&str]) {
        let joined = join_wild_number(args);
        let args = joined.as_slice();
        let Some(s) = self.parts.net.sess(sid) else {
            return;
        };
        if s.game.is_some() {
            self.parts
                .net
                .reply(sid, "You cannot seek while you are playing a game.\n");
            return;
        }
        let (mut base, mut inc, mut rated, mut color) = (None, None, s.vars.rated, None);
        let mut manual = false;
        let chess960 = match chess960_words(args) {
            Ok(v) => v,
            Err(e) => return self.parts.net.reply(sid, &e),
        };
        for a in args.iter().filter(|a| !is_variant_word(a)) {
            let l = a.to_ascii_lowercase();
            match l.as_str() {
                "r" | "rated" => rated = true,
                "u" | "unrated" => rated = false,
                "w" | "white" => color = Some(Color::White),
                "b" | "black" => color = Some(Color::Black),
                "m" | "manual" if !self.parts.net.cfg.manual_seeks => {
                    // lasker reads the flag as a variant name and has no such board.
                    let board = if chess960 { "fischerandom/m" } else { "m/0" };
                    self.parts
                        .net
                        .reply(sid, &format!("No such category/board: {board}\n"));
                    return;
                }
                "m" | "manual" => manual = true,
                "a" | "auto" => manual = false,
                "f" | "formula" => {}
                _ => match l.parse::<u32>() {
                    Ok(n) if n <= 999 && base.is_none() => base = Some(n),
                    Ok(n) if n <= 999 && inc.is_none() => inc = Some(n),
                    _ if l.contains('-') && l.split('-').all(|p| p.parse::<u32>().is_ok()) => {}
                    _ => {
                        self.parts.net.reply(sid, "Usage: seek [time inc] [rated|unrated] [white|black] [fr] [manual|auto] [formula] [min-max]\n");
                        return;
                    }
                },
            }
        }
        let base = base.unwrap_or(s.vars.time);
        let inc = inc.unwrap_or(if args.iter().any(|a| a.parse::<u32>().is_ok()) {
            0
        } else {
            s.vars.inc
        });
        let category = Category::of(base, inc);
        let rated = rated && s.registered && category != Category::Untimed;
        let own = self
            .parts
            .offers
            .seeks
            .values()
            .filter(|k| k.owner == sid)
            .count();
        if own >= MAX_SEEKS {
            self.parts.net.reply(
                sid,
                &format!("You can only have {MAX_SEEKS} active seeks.\n"),
            );
            return;
        }
        let dup = self.parts.offers.seeks.values().any(|k| {
            k.owner == sid
                && k.base == base
                && k.inc == inc
                && k.rated == rated
                && k.color == color
                && k.chess960 == chess960
                && k.manual == manual
        });
        if dup {
            self.parts.net.reply(
                sid,
                "You already have an active seek with the same parameters.\n",
            );
            return;
        }
        let seek = Seek {
            id: self.free_seek_id(),
            owner: sid,
            name: s.handle.clone(),
            rating: if s.registered {
                self.parts.games.rating(&s.handle, category)
            } else {
                None
            },
            registered: s.registered,
            computer: s.computer,
            base,
            inc,
            rated,
            color,
            category,
            chess960,
            manual,
        };
        let (ad, sline) = (seek.ad_line(), seek.s_line());
        let dg = self.icc_view().seek_dg(&seek);
        self.parts.offers.seeks.insert(seek.id, seek);
        for o in self.parts.net.online_sids() {
            let Some(v) = self.parts.net.sess(o).map(|x| x.vars.clone()) else {
                continue;
            };
            if self.icc_view().seeks_as_dgs(o) {
                let t = self.parts.net.dg_for(o, &dg);
                self.parts.net.send(o, &t);
            } else if v.seekinfo {
                self.parts.net.send(o, &format!("{sline}\n"));
            } else if v.seek {
                self.parts.net.send(o, &format!("{ad}\n"));
            }
        }
        self.parts.net.reply(sid, "");
    }

    /// Remove ads; the owner gets `Ads removed`, others `AD_DESTROY`/`<sr>`.
    fn remove_seek_ids(&mut self, ids: &[u32], notes: &mut Notes, reason: u8) {
        if ids.is_empty() {
            return;
        }
        let mut owners: Vec<(Sid, Vec<u32>)> = Vec::new();
        for id in ids {
            if let Some(k) = self.parts.offers.seeks.remove(id) {
                match owners.iter_mut().find(|(o, _)| *o == k.owner) {
                    Some((_, v)) => v.push(*id),
                    None => owners.push((k.owner, vec![*id])),
                }
            }
        }
        for (owner, list) in owners {
            let nums: Vec<String> = list.iter().map(u32::to_string).collect();
            notes.push((owner, format!("Ads removed: {}\n", nums.join(" "))));
            for o in self.parts.net.online_sids() {
                if self.icc_view().seeks_as_dgs(o) {
                    for id in &list {
                        let t = self.icc_view().seek_removed_text(o, *id, reason);
                        notes.push((o, t));
                    }
                    continue;
                }
                if o == owner {
                    continue;
                }
                let Some(v) = self
                    .parts
                    .net
                    .sess(o)
                    .map(|x| (x.vars.seekinfo, x.vars.seek))
                else {
                    continue;
                };
                for n in &nums {
                    match v {
                        (true, _) => notes.push((o, format!("<sr> {n}\n"))),
                        (false, true) => notes.push((o, format!("AD_DESTROY: {n}\n"))),
                        _ => {}
                    }
                }
            }
        }
    }

    /// Drop every ad of `sid` (it left, or `quiet`: no note to itself).
    pub fn remove_seeks_of(&mut self, sid: Sid, to_self: bool) {
        let ids: Vec<u32> = self
            .parts
            .offers
            .seeks
            .values()
            .filter(|k| k.owner == sid)
            .map(|k| k.id)
            .collect();
        let mut notes = Notes::new();
        self.remove_seek_ids(&ids, &mut notes, SEEKER_LEFT);
        if !to_self {
            notes.retain(|(s, _)| *s != sid);
        }
        self.flush_notes(notes);
    }

    /// Ads of two players about to start a game go.
    pub fn remove_seeks_for_start(&mut self, a: Sid, b: Sid, notes: &mut Notes) {
        let ids: Vec<u32> = self
            .parts
            .offers
            .seeks
            .values()
            .filter(|k| k.owner == a || k.owner == b)
            .map(|k| k.id)
            .collect();
        self.remove_seek_ids(&ids, notes, SEEKER_PLAYING);
    }

    /// `unseek [n]`.
    pub fn cmd_unseek(&mut self, sid: Sid) {
        let ids: Vec<u32> = self
            .parts
            .offers
            .seeks
            .values()
            .filter(|k| k.owner == sid)
            .map(|k| k.id)
            .collect();
        if ids.is_empty() {
            self.parts.net.reply(sid, "You have no active seeks.\n");
            return;
        }
        let mut notes = Notes::new();
        self.remove_seek_ids(&ids, &mut notes, SEEKER_REMOVED);
        let own: String = notes
            .iter()
            .filter(|(s, _)| *s == sid)
            .map(|(_, t)| t.as_str())
            .collect();
        notes.retain(|(s, _)| *s != sid);
        self.flush_notes(notes);
        self.parts.net.reply(sid, &own);
    }

    /// `sought`.
    pub fn cmd_sought(&mut self, sid: Sid) {
        let mut t = String::new();
        for k in self.parts.offers.seeks.values() {
            t.push_str(&k.ad_line());
            t.push('\n');
        }
        self.parts.net.reply(sid, &t);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ad_line_matches_lasker_columns() {
        let k = Seek {
            id: 0,
            owner: 1,
            name: "BetaBot".into(),
            rating: None,
            registered: true,
            computer: false,
            base: 5,
            inc: 0,
            rated: true,
            color: None,
            category: Category::Blitz,
            chess960: false,
            manual: false,
        };
        assert_eq!(
            k.ad_line(),
            "  0    0 BetaBot             5   0 rated   blitz     "
        );
        assert_eq!(
            k.s_line(),
            "<s> 0 w=BetaBot ti=00 rt=0P t=5 i=0 r=r tp=blitz c=? rr=0-9999 a=t f=f"
        );
    }
}
