//! `[strength]`: strength limiting for the server bot, per opponent list and per opponent
//! rating (each value an Elo of 800 to 2600, or 0 for full strength), and its checks.

use lists::{Category, OpponentClass};
use serde::Deserialize;
use settings::settings;

/// Lowest and highest Elo a level can ask for: the engine's `skill::ELO_MIN` and
/// `ELO_MAX` (config sits below the engine; `tests/it/strength.rs` checks they agree).
pub const ELO_RANGE: (u32, u32) = (800, 2600);

settings! {
    /// `[strength]`. The first setting that applies wins: the opponent's S-list entry
    /// (`special`), the list or title class (`gm`, `im`, `computer`), the `below_rating`
    /// rules (the lowest `rating` above the opponent's rating), then `default`. A key left
    /// out does not apply; `0` means full strength. The levels' range (0, or
    /// [`ELO_RANGE`]) is checked by [`StrengthSection::problems`].
    pub struct StrengthSection in "strength" {
        /// The level against opponents in lists/S (Elo, 0 = full strength).
        special: Option<u32> = None;
        /// The level against grandmasters (list GM or server title).
        gm: Option<u32> = None;
        /// The level against international masters.
        im: Option<u32> = None;
        /// The level against computers (list C or server title).
        computer: Option<u32> = None;
        /// The level against everyone else.
        default: Option<u32> = None;
    }
    tables {
        /// Opponents rated below a rating (the unrated never match).
        below_rating: Vec<RatingRule> = Vec::new();
    }
}

/// `{ rating = 1400, elo = 1600 }`: opponents rated below `rating` get level `elo`.
#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct RatingRule {
    pub rating: u32,
    pub elo: u32,
}

/// The level of a setting: `None` for 0 (full strength).
fn level(v: u32) -> Option<u32> {
    (v > 0).then_some(v)
}

impl StrengthSection {
    /// The level to play at against an opponent of this class and rating (`None`: full
    /// strength).
    pub fn elo_for(&self, class: &OpponentClass, rating: Option<u32>) -> Option<u32> {
        let by_class = match class.category {
            Category::Gm => self.gm,
            Category::Im => self.im,
            Category::Computer => self.computer,
            Category::Other => None,
        };
        let by_list = if class.special { self.special } else { None };
        if let Some(v) = by_list.or(by_class) {
            return level(v);
        }
        let rule = rating.and_then(|r| {
            self.below_rating
                .iter()
                .filter(|rule| r < rule.rating)
                .min_by_key(|rule| rule.rating)
        });
        match (rule, self.default) {
            (Some(rule), _) => level(rule.elo),
            (None, Some(v)) => level(v),
            (None, None) => None,
        }
    }

    /// Problems as (dotted key, message).
    pub fn problems(&self) -> Vec<(String, String)> {
        let (lo, hi) = ELO_RANGE;
        let mut out = Vec::new();
        let mut check = |key: String, v: u32| {
            if v != 0 && !(lo..=hi).contains(&v) {
                out.push((
                    key,
                    format!("must be 0 (full strength) or {lo} to {hi} (got {v})"),
                ));
            }
        };
        for (k, v) in [
            ("special", self.special),
            ("gm", self.gm),
            ("im", self.im),
            ("computer", self.computer),
            ("default", self.default),
        ] {
            if let Some(v) = v {
                check(format!("strength.{k}"), v);
            }
        }
        for (i, r) in self.below_rating.iter().enumerate() {
            check(format!("strength.below_rating[{i}].elo"), r.elo);
        }
        for (i, r) in self.below_rating.iter().enumerate() {
            if !(1..=9999).contains(&r.rating) {
                out.push((
                    format!("strength.below_rating[{i}].rating"),
                    format!("must be between 1 and 9999 (got {})", r.rating),
                ));
            }
            if self.below_rating[..i].iter().any(|o| o.rating == r.rating) {
                out.push((
                    format!("strength.below_rating[{i}].rating"),
                    format!("{} appears twice", r.rating),
                ));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn section(text: &str) -> StrengthSection {
        toml::from_str(text).unwrap()
    }

    fn class(category: Category, special: bool) -> OpponentClass {
        OpponentClass {
            special,
            ..OpponentClass::of(category)
        }
    }

    #[test]
    fn list_then_class_then_rating_rules_then_default() {
        let s = section(
            "special = 1200\ngm = 0\ncomputer = 2000\ndefault = 2200\n\
             below_rating = [{ rating = 1400, elo = 1000 }, { rating = 1800, elo = 1600 }]",
        );
        let other = class(Category::Other, false);
        assert_eq!(
            s.elo_for(&class(Category::Other, true), Some(1000)),
            Some(1200)
        );
        assert_eq!(
            s.elo_for(&class(Category::Computer, true), None),
            Some(1200)
        );
        assert_eq!(
            s.elo_for(&class(Category::Computer, false), None),
            Some(2000)
        );
        assert_eq!(s.elo_for(&class(Category::Gm, false), Some(1000)), None);
        assert_eq!(
            s.elo_for(&class(Category::Im, false), Some(1000)),
            Some(1000)
        );
        assert_eq!(s.elo_for(&other, Some(1000)), Some(1000));
        assert_eq!(s.elo_for(&other, Some(1500)), Some(1600));
        assert_eq!(s.elo_for(&other, Some(1800)), Some(2200));
        assert_eq!(s.elo_for(&other, None), Some(2200));
        assert_eq!(StrengthSection::default().elo_for(&other, Some(900)), None);
        assert!(s.problems().is_empty());
    }

    #[test]
    fn bad_values_are_named() {
        let s = section(
            "gm = 500\nbelow_rating = [{ rating = 0, elo = 3000 }, { rating = 0, elo = 900 }]",
        );
        let keys: Vec<String> = s.problems().into_iter().map(|p| p.0).collect();
        assert!(keys.contains(&"strength.gm".to_string()), "{keys:?}");
        assert!(keys.contains(&"strength.below_rating[0].elo".to_string()));
        assert!(keys.contains(&"strength.below_rating[1].rating".to_string()));
        assert!(toml::from_str::<StrengthSection>("elo = 5").is_err());
    }
}
