//! The per-opponent settings: resign threshold, book width, draw score and talk flags,
//! from the opponent's class (lists, then server titles) and `[opponents]`.

use config::{OpponentsSection, StrengthSection};
use lists::OpponentClass;

/// How wily treats one opponent for a whole game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpponentProfile {
    pub class: OpponentClass,
    /// Resign when the score stays below minus this (centipawns); `None` = never.
    pub resign_cp: Option<i32>,
    /// Consecutive moves below the threshold before resigning.
    pub resign_moves: u32,
    /// Number of candidate book moves kept.
    pub book_width: u32,
    /// Value of a draw for wily, centipawns from wily's side.
    pub draw_score: i32,
    /// The engine's swindle mode for roots the tablebases call drawn.
    pub swindle: bool,
    /// Strength limit (Elo) from `[strength]`; `None`: full strength. Set by
    /// [`OpponentProfile::with_strength`].
    pub strength: Option<u32>,
}

impl OpponentProfile {
    /// Builds the profile from the class and the thresholds in the settings.
    pub fn new(class: OpponentClass, s: &OpponentsSection) -> OpponentProfile {
        // The class-to-numbers rule is shared with the xboard route (`lists`).
        let t = s.tune(class);
        OpponentProfile {
            class,
            resign_cp: (t.resign_pawns > 0).then(|| t.resign_pawns as i32 * 100),
            resign_moves: s.resign_moves.max(1),
            book_width: t.book_width,
            draw_score: t.draw_score,
            swindle: t.swindle,
            strength: None,
        }
    }

    /// The profile with the strength `[strength]` gives an opponent of this rating.
    pub fn with_strength(self, s: &StrengthSection, rating: Option<u32>) -> OpponentProfile {
        OpponentProfile {
            strength: s.elo_for(&self.class, rating),
            ..self
        }
    }

    /// A one-line description for logs and `status`.
    pub fn describe(&self) -> String {
        format!(
            "{}{}{}: resign {}, book width {}, draw score {}, swindle {}, strength {}",
            self.class.category,
            if self.class.special { " (special)" } else { "" },
            if self.class.autokibitz {
                " (auto-kibitz)"
            } else {
                ""
            },
            self.resign_cp.map_or("never".to_string(), |c| format!(
                "at -{:.0}",
                c as f64 / 100.0
            )),
            self.book_width,
            self.draw_score,
            if self.swindle { "on" } else { "off" },
            self.strength
                .map_or("full".to_string(), |e| format!("{e} Elo"))
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lists::Category;

    fn class(category: Category, special: bool) -> OpponentClass {
        OpponentClass {
            special,
            ..OpponentClass::of(category)
        }
    }

    #[test]
    fn crafty_defaults() {
        let s = OpponentsSection::default();
        let gm = OpponentProfile::new(class(Category::Gm, false), &s);
        assert_eq!((gm.resign_cp, gm.book_width), (Some(300), 3));
        let im = OpponentProfile::new(class(Category::Im, false), &s);
        assert_eq!((im.resign_cp, im.book_width), (Some(600), 3));
        let c = OpponentProfile::new(class(Category::Computer, true), &s);
        assert_eq!((c.resign_cp, c.book_width, c.draw_score), (Some(900), 2, 0));
        let o = OpponentProfile::new(class(Category::Other, false), &s);
        assert_eq!((o.resign_cp, o.book_width), (Some(900), 5));
        let sp = OpponentProfile::new(class(Category::Other, true), &s);
        assert_eq!(sp.draw_score, -50);
    }

    #[test]
    fn computers_draw_score_is_zero_whatever_the_settings() {
        let s = OpponentsSection {
            draw_score_default: 40,
            special_contempt: 80,
            ..OpponentsSection::default()
        };
        assert_eq!(
            OpponentProfile::new(class(Category::Computer, true), &s).draw_score,
            0
        );
        assert_eq!(
            OpponentProfile::new(class(Category::Other, false), &s).draw_score,
            40
        );
    }

    #[test]
    fn swindle_mode_against_people_but_not_computers() {
        let s = OpponentsSection::default();
        for cat in [Category::Gm, Category::Im, Category::Other] {
            for special in [false, true] {
                let p = OpponentProfile::new(class(cat, special), &s);
                assert!(p.swindle, "{cat} special={special}");
                assert!(p.describe().contains("swindle on"), "{}", p.describe());
            }
        }
        let c = OpponentProfile::new(class(Category::Computer, false), &s);
        assert!(!c.swindle);
        assert!(c.describe().contains("swindle off"), "{}", c.describe());
        // Both switches follow the settings.
        let flipped = OpponentsSection {
            swindle_humans: false,
            swindle_computers: true,
            ..OpponentsSection::default()
        };
        assert!(!OpponentProfile::new(class(Category::Gm, false), &flipped).swindle);
        assert!(OpponentProfile::new(class(Category::Computer, true), &flipped).swindle);
    }

    #[test]
    fn zero_threshold_never_resigns() {
        let s = OpponentsSection {
            resign_default: 0,
            ..OpponentsSection::default()
        };
        let p = OpponentProfile::new(class(Category::Other, false), &s);
        assert_eq!(p.resign_cp, None);
        assert!(p.describe().contains("never"));
    }
}
