//! Ratings of the local server: categories by time control (FICS rule:
//! base + 2/3 increment), one rating per category for registered players,
//! a plain Elo update (K = 32) after rated games, and the rating texts the
//! servers show (`----` no rating yet, `++++` unregistered).

/// Rating category of a time control.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Category {
    Lightning,
    Blitz,
    Standard,
    Untimed,
}

impl Category {
    /// The category of `base` minutes + `inc` seconds.
    pub fn of(base: u32, inc: u32) -> Category {
        if base == 0 && inc == 0 {
            return Category::Untimed;
        }
        // Expected minutes for 40 moves: base + inc * 40 / 60.
        let etime3 = u64::from(base) * 3 + u64::from(inc) * 2;
        if etime3 < 9 {
            Category::Lightning
        } else if etime3 < 45 {
            Category::Blitz
        } else {
            Category::Standard
        }
    }

    /// Lower-case name (`blitz`).
    pub fn name(self) -> &'static str {
        match self {
            Category::Lightning => "lightning",
            Category::Blitz => "blitz",
            Category::Standard => "standard",
            Category::Untimed => "untimed",
        }
    }

    /// Capitalised name (`Blitz`).
    pub fn title(self) -> &'static str {
        match self {
            Category::Lightning => "Lightning",
            Category::Blitz => "Blitz",
            Category::Standard => "Standard",
            Category::Untimed => "Untimed",
        }
    }

    /// The letter in `games` lists (`[ br  5   0]`).
    pub fn letter(self) -> char {
        match self {
            Category::Lightning => 'l',
            Category::Blitz => 'b',
            Category::Standard => 's',
            Category::Untimed => 'u',
        }
    }
}

/// One category's record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    pub rating: u32,
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
    pub best: u32,
}

/// A registered player's ratings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ratings {
    pub lightning: Option<Entry>,
    pub blitz: Option<Entry>,
    pub standard: Option<Entry>,
}

/// Rating a player gets from their first rated game on.
pub const FIRST_RATING: u32 = 1500;

impl Ratings {
    /// Ratings of a new account (`rating=N` in the accounts file sets all).
    pub fn starting(rating: Option<u32>) -> Ratings {
        let e = rating.map(|r| Entry {
            rating: r,
            wins: 0,
            losses: 0,
            draws: 0,
            best: r,
        });
        Ratings {
            lightning: e,
            blitz: e,
            standard: e,
        }
    }

    pub fn entry(&self, cat: Category) -> Option<&Entry> {
        match cat {
            Category::Lightning => self.lightning.as_ref(),
            Category::Blitz => self.blitz.as_ref(),
            Category::Standard => self.standard.as_ref(),
            Category::Untimed => None,
        }
    }

    fn slot(&mut self, cat: Category) -> Option<&mut Option<Entry>> {
        match cat {
            Category::Lightning => Some(&mut self.lightning),
            Category::Blitz => Some(&mut self.blitz),
            Category::Standard => Some(&mut self.standard),
            Category::Untimed => None,
        }
    }

    /// The rating in a category, if any.
    pub fn get(&self, cat: Category) -> Option<u32> {
        self.entry(cat).map(|e| e.rating)
    }

    /// Record a rated result (`score`: 1 win, 0.5 draw, 0 loss) against
    /// `opponent`; returns (old rating or 0, new rating).
    pub fn record(
        &mut self,
        cat: Category,
        opponent: Option<u32>,
        score: f64,
    ) -> Option<(u32, u32)> {
        let slot = self.slot(cat)?;
        let old = slot.map(|e| e.rating);
        let base = old.unwrap_or(FIRST_RATING);
        let new = apply_delta(base, delta(base, opponent.unwrap_or(FIRST_RATING), score));
        let mut e = slot.unwrap_or(Entry {
            rating: base,
            wins: 0,
            losses: 0,
            draws: 0,
            best: base,
        });
        e.rating = new;
        e.best = e.best.max(new);
        if score > 0.75 {
            e.wins += 1;
        } else if score < 0.25 {
            e.losses += 1;
        } else {
            e.draws += 1;
        }
        *slot = Some(e);
        Some((old.unwrap_or(0), new))
    }
}

/// Elo change for `mine` against `theirs` with `score`.
pub fn delta(mine: u32, theirs: u32, score: f64) -> i32 {
    let diff = (f64::from(theirs) - f64::from(mine)).clamp(-800.0, 800.0);
    let expected = 1.0 / (1.0 + 10f64.powf(diff / 400.0));
    (32.0 * (score - expected)).round() as i32
}

/// `rating + change`, never below zero.
pub fn apply_delta(rating: u32, change: i32) -> u32 {
    (i64::from(rating) + i64::from(change)).clamp(0, 9999) as u32
}

/// How a rating is shown in `Challenge:` lines and lists.
pub fn rating_text(registered: bool, rating: Option<u32>) -> String {
    match (registered, rating) {
        (false, _) => "++++".to_string(),
        (true, None) => "----".to_string(),
        (true, Some(r)) => r.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn categories_follow_fics() {
        assert_eq!(Category::of(1, 0), Category::Lightning);
        assert_eq!(Category::of(2, 12), Category::Blitz);
        assert_eq!(Category::of(3, 2), Category::Blitz);
        assert_eq!(Category::of(5, 0), Category::Blitz);
        assert_eq!(Category::of(15, 0), Category::Standard);
        assert_eq!(Category::of(0, 0), Category::Untimed);
        assert_eq!(Category::of(2, 0), Category::Lightning);
    }

    #[test]
    fn elo_is_symmetric() {
        assert_eq!(delta(1500, 1500, 1.0), 16);
        assert_eq!(delta(1500, 1500, 0.0), -16);
        assert_eq!(delta(1500, 1500, 0.5), 0);
        let mut r = Ratings::default();
        assert_eq!(r.record(Category::Blitz, None, 1.0), Some((0, 1516)));
        assert_eq!(r.get(Category::Blitz), Some(1516));
        assert_eq!(r.record(Category::Untimed, None, 1.0), None);
        assert_eq!(rating_text(false, Some(3)), "++++");
        assert_eq!(rating_text(true, None), "----");
    }
}
