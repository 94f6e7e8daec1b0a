//! Offers and invitations: the offers pending in a game of ours (draw, adjourn, abort,
//! takeback), match offers and their removal, seek ads, and tournament invitations.

use crate::board::Color;
use crate::events::{Event, MatchOffer, OfferKind, PlayerRating, SeekAd, TourneyNotice};
use crate::icc::datagram::Datagram;
use crate::icc::info::IccInfo;
use crate::icc::parse::fields::{category_of, rating_of, titles_of, variant_of};
use crate::icc::parse::reader::IccReader;
use crate::parse::seeks::title_bits;

impl IccReader {
    pub(super) fn offers(&mut self, dg: &Datagram, out: &mut Vec<Event>) {
        // (gamenumber wdraw bdraw wadjourn badjourn wabort babort wtakeback btakeback)
        let Some(game) = dg.num::<u32>(0) else {
            return self.warn(dg, "no game number");
        };
        let mut now = [0u32; 8];
        for (i, slot) in now.iter_mut().enumerate() {
            *slot = dg.num(i + 1).unwrap_or(0);
        }
        let me = self.me.clone();
        let Some(g) = self.games.get_mut(&game) else {
            return;
        };
        let my_color = me.as_deref().and_then(|m| {
            if g.white.eq_ignore_ascii_case(m) {
                Some(Color::White)
            } else if g.black.eq_ignore_ascii_case(m) {
                Some(Color::Black)
            } else {
                None
            }
        });
        let before = g.offers;
        g.offers = now;
        let Some(mine) = my_color else {
            return;
        };
        for (pair, kind) in [
            (0, OfferKind::Draw),
            (1, OfferKind::Adjourn),
            (2, OfferKind::Abort),
            (3, OfferKind::Takeback(0)),
        ] {
            for color in [Color::White, Color::Black] {
                let i = pair * 2 + usize::from(color == Color::Black);
                let (was, is) = (before[i], now[i]);
                if was == is {
                    continue;
                }
                let kind = match kind {
                    OfferKind::Takeback(_) => OfferKind::Takeback(is.max(was)),
                    ref k => k.clone(),
                };
                let other = g
                    .name_of(match mine {
                        Color::White => Color::Black,
                        Color::Black => Color::White,
                    })
                    .to_string();
                let ours = color == mine;
                out.push(match (ours, is > 0) {
                    (false, true) => Event::OfferReceived { from: other, kind },
                    (true, true) => Event::OfferSent { kind },
                    (false, false) => Event::OfferWithdrawn {
                        by_me: false,
                        other,
                        kind,
                    },
                    (true, false) => Event::OfferDeclined { by: other, kind },
                });
            }
        }
    }

    pub(super) fn match_offer(&mut self, dg: &Datagram, out: &mut Vec<Event>) {
        // (challenger c-rating c-annotation c-titles receiver r-rating r-annotation r-titles
        //  wild rating-type rated adjourned c-time c-inc r-time r-inc color
        //  [assess-loss assess-draw assess-win] fancy-time-control)
        if dg.fields.len() < 17 {
            return self.warn(dg, "too few fields");
        }
        let f = |i: usize| dg.field(i).unwrap_or_default().to_string();
        let c_titles = titles_of(&f(3));
        let r_titles = titles_of(&f(7));
        let challenger = PlayerRating {
            name: f(0),
            rating: rating_of(dg.num(1), dg.num(2), c_titles.iter().any(|t| t == "U")),
        };
        let receiver = PlayerRating {
            name: f(4),
            rating: rating_of(dg.num(5), dg.num(6), r_titles.iter().any(|t| t == "U")),
        };
        let wild: u32 = dg.num(8).unwrap_or(0);
        let (c_time, c_inc): (u32, u32) = (dg.num(12).unwrap_or(0), dg.num(13).unwrap_or(0));
        let (r_time, r_inc): (u32, u32) =
            (dg.num(14).unwrap_or(c_time), dg.num(15).unwrap_or(c_inc));
        let offer = MatchOffer {
            challenger_color: match dg.num::<i32>(16) {
                Some(1) => Some(Color::White),
                Some(0) => Some(Color::Black),
                _ => None,
            },
            rated: dg.flag(10).unwrap_or(false),
            category: category_of(&f(9), wild),
            base_minutes: c_time,
            increment_secs: c_inc,
            other_clock: ((r_time, r_inc) != (c_time, c_inc)).then_some((r_time, r_inc)),
            variant: variant_of(wild),
            adjourned: dg.flag(11).unwrap_or(false),
            challenger_titles: c_titles.clone(),
            challenger,
            receiver,
            // The assessment (three numbers) is there only with DG_MATCH_ASSESSMENT on;
            // the fancy time control is always the last field.
            assess: match (dg.fields.len() >= 21, dg.num(17), dg.num(18), dg.num(19)) {
                (true, Some(l), Some(d), Some(w)) => Some([l, d, w]),
                _ => None,
            },
            fancy_time_control: match dg.fields.len() {
                18 | 21 => f(dg.fields.len() - 1),
                _ => String::new(),
            },
        };
        let computer = c_titles.iter().any(|t| t == "C");
        let name = offer.challenger.name.clone();
        if self.is_me(&offer.challenger.name) {
            out.push(Event::Issuing(offer));
        } else {
            out.push(Event::Challenge(offer));
            if computer {
                out.push(Event::IsComputer { name });
            }
        }
    }

    pub(super) fn match_removed(&mut self, dg: &Datagram, out: &mut Vec<Event>) {
        // (challenger receiver ^Y{explanation^Y})
        let (Some(challenger), Some(receiver)) = (dg.field(0), dg.field(1)) else {
            return self.warn(dg, "too few fields");
        };
        let by_me = self.is_me(challenger);
        let other = if by_me { receiver } else { challenger };
        out.push(Event::OfferWithdrawn {
            by_me,
            other: other.to_string(),
            kind: OfferKind::Match,
        });
        out.push(Event::Icc(Box::new(IccInfo::MatchRemoved {
            challenger: challenger.to_string(),
            receiver: receiver.to_string(),
            text: dg.field(2).unwrap_or_default().trim().to_string(),
        })));
    }

    pub(super) fn seek(&mut self, dg: &Datagram, out: &mut Vec<Event>) {
        // (index name titles rating provisional-status wild rating-type time inc rated color
        //  minrating maxrating autoaccept formula fancy-time-control)
        if dg.fields.len() < 11 {
            return self.warn(dg, "too few fields");
        }
        let (Some(index), Some(name)) = (dg.num::<u32>(0), dg.field(1)) else {
            return self.warn(dg, "no index or name");
        };
        let titles = titles_of(dg.field(2).unwrap_or_default());
        let wild: u32 = dg.num(5).unwrap_or(0);
        let range = match (dg.num::<u32>(11), dg.num::<u32>(12)) {
            (Some(lo), Some(hi)) => Some((lo, hi)),
            _ => None,
        };
        out.push(Event::Seek(SeekAd {
            index,
            name: name.to_string(),
            titles: title_bits(&titles),
            rating: rating_of(dg.num(3), dg.num(4), titles.iter().any(|t| t == "U")),
            base_minutes: dg.num(7).unwrap_or(0),
            increment_secs: dg.num(8).unwrap_or(0),
            rated: dg.flag(9).unwrap_or(false),
            category: match variant_of(wild) {
                Some(v) => v,
                None => category_of(dg.field(6).unwrap_or_default(), 0),
            },
            color: match dg.num::<i32>(10) {
                Some(1) => Some(Color::White),
                Some(0) => Some(Color::Black),
                _ => None,
            },
            rating_range: range,
            automatic: dg.flag(13).unwrap_or(true),
            formula: dg.flag(14).unwrap_or(false),
            notify: false,
            fancy_time_control: dg.field(15).unwrap_or_default().to_string(),
        }));
    }

    pub(super) fn tourney(&mut self, dg: &Datagram, out: &mut Vec<Event>) {
        // (index bitfield description join-command watch-command info-command confirm-text)
        let Some(index) = dg.num::<u32>(0) else {
            return self.warn(dg, "no tourney index");
        };
        let f = |i: usize| dg.field(i).unwrap_or_default().to_string();
        out.push(Event::Tourney(TourneyNotice::Offered {
            index,
            description: f(2),
            join_command: f(3),
            watch_command: f(4),
            info_command: f(5),
            confirm_text: f(6),
        }));
    }
}
