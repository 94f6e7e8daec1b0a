//! What each class of opponent gets, as Crafty tunes it by its lists: the `[opponents]`
//! section of the bot's settings ([`OpponentsSection`], its one set of defaults) and the
//! rule that turns it into one opponent's numbers ([`OpponentsSection::tune`]). The
//! server bot reads the section from its settings file; the xboard route (zippy) uses
//! the defaults. One place, so the two routes treat a GM, an IM or a computer alike.

use crate::{Category, OpponentClass};

settings::settings! {
    /// `[opponents]`: how wily adapts to each opponent class (lists `GM`, `IM`, `C`, `AK`,
    /// `S`, and the titles the server shows). Each value declared once here (type,
    /// default, range, doc); the settings file checks the ranges (`config`).
    pub struct OpponentsSection in "opponents" {
        /// Resign threshold against grandmasters, pawns (0 = never resign).
        resign_gm: u32 = 3, range 0..=100;
        /// Resign threshold against international masters, pawns (0 = never).
        resign_im: u32 = 6, range 0..=100;
        /// Resign threshold against everyone else, pawns (0 = never).
        resign_default: u32 = 9, range 0..=100;
        /// The score must stay below the threshold this many consecutive moves.
        resign_moves: u32 = 5, range 1..=100;
        /// Book width (candidate book moves kept) against titled players.
        book_width_titled: u32 = 3, range 1..=100;
        /// Book width against computers.
        book_width_computer: u32 = 2, range 1..=100;
        /// Book width against everyone else.
        book_width_default: u32 = 5, range 1..=100;
        /// Draw score against grandmasters, centipawns from wily's side (positive: wily
        /// likes draws).
        draw_score_gm: i32 = 0, range -1000..=1000;
        /// Draw score against international masters.
        draw_score_im: i32 = 0, range -1000..=1000;
        /// Draw score against everyone else (against computers always exactly 0).
        draw_score_default: i32 = 0, range -1000..=1000;
        /// Anti-human contempt for opponents in the `S` list: the draw score is minus this.
        special_contempt: i32 = 50, range -1000..=1000;
        /// The engine's swindle mode against people: in a root the tablebases call drawn,
        /// play the drawing move that leaves the opponent the most ways to go wrong.
        swindle_humans: bool = true;
        /// The swindle mode against computers (off: a computer rarely goes wrong, so the
        /// draw comes at once).
        swindle_computers: bool = false;
        /// Offer a draw only from this move number on.
        draw_offer_min_move: u32 = 40;
        /// "Near zero" for a draw offer: |score| at most this many centipawns.
        draw_offer_margin: i32 = 15, range 0..=500;
        /// ... for this many consecutive moves.
        draw_offer_moves: u32 = 6, range 1..=100;
        /// Accept an abort request only up to this move number.
        abort_max_move: u32 = 2;
    }
}

/// What [`OpponentsSection::tune`] gives one opponent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tuned {
    /// Resign below minus this many pawns (0 = never).
    pub resign_pawns: u32,
    pub book_width: u32,
    /// Value of a draw for wily, centipawns.
    pub draw_score: i32,
    /// The engine's swindle mode for this opponent.
    pub swindle: bool,
}

impl Tuned {
    /// What the front ends tell the user: `GM (special), resign at -5, book width 3,
    /// draw score -50` for an opponent of class `c`.
    pub fn describe(&self, c: OpponentClass) -> String {
        format!(
            "{}{}, resign {}, book width {}, draw score {}",
            c.category,
            if c.special { " (special)" } else { "" },
            if self.resign_pawns == 0 {
                "never".to_string()
            } else {
                format!("at -{}", self.resign_pawns)
            },
            self.book_width,
            self.draw_score
        )
    }
}

impl OpponentsSection {
    /// The numbers for an opponent of class `c`. Against computers a draw is worth
    /// exactly nothing either way; swindle mode has one switch for people (GMs, IMs and
    /// everyone else) and one for computers.
    pub fn tune(&self, c: OpponentClass) -> Tuned {
        let resign_pawns = match c.category {
            Category::Gm => self.resign_gm,
            Category::Im => self.resign_im,
            Category::Computer | Category::Other => self.resign_default,
        };
        let book_width = match c.category {
            Category::Gm | Category::Im => self.book_width_titled,
            Category::Computer => self.book_width_computer,
            Category::Other => self.book_width_default,
        };
        let draw_score = match c.category {
            Category::Computer => 0,
            _ if c.special => -self.special_contempt,
            Category::Gm => self.draw_score_gm,
            Category::Im => self.draw_score_im,
            Category::Other => self.draw_score_default,
        };
        let swindle = match c.category {
            Category::Computer => self.swindle_computers,
            _ => self.swindle_humans,
        };
        Tuned {
            resign_pawns,
            book_width,
            draw_score,
            swindle,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tuning_is_described_as_the_front_ends_print_it() {
        let t = Tuned {
            resign_pawns: 5,
            book_width: 3,
            draw_score: -50,
            swindle: false,
        };
        let gm = OpponentClass {
            special: true,
            ..OpponentClass::of(Category::Gm)
        };
        assert_eq!(
            t.describe(gm),
            "GM (special), resign at -5, book width 3, draw score -50"
        );
        let never = Tuned {
            resign_pawns: 0,
            ..t
        };
        assert_eq!(
            never.describe(OpponentClass::of(Category::Computer)),
            "computer, resign never, book width 3, draw score -50"
        );
    }
}
