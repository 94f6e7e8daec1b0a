//! A rating as the servers print it (`1500`, `1500P`, `1500E`, `----`, `++++`), for the
//! events and listings that carry one.

use std::fmt;

/// A rating as the servers print it: a number with an optional provisional/estimated
/// mark, `----` (no rating in this category yet) or `++++` (unregistered player).
#[derive(serde::Serialize, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rating {
    /// A number; `flag` tells whether it is established.
    Rated { value: u32, flag: RatingFlag },
    /// `----` or `UNR`: registered, but no rating in this category.
    Unrated,
    /// `++++`: an unregistered (guest) player.
    Unregistered,
}

/// How sure the server is of a rating (`1500`, `1500P`, `1500E`).
#[derive(serde::Serialize, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RatingFlag {
    Established,
    Provisional,
    Estimated,
}

impl Rating {
    /// Parses `1500`, `1500P`, `1500E`, `----`, `++++`, `UNR` (surrounding blanks allowed).
    pub fn parse(s: &str) -> Option<Rating> {
        let s = s.trim();
        match s {
            "----" | "UNR" | "" => return Some(Rating::Unrated),
            "++++" => return Some(Rating::Unregistered),
            _ => {}
        }
        let (digits, flag) = match s.as_bytes().last() {
            Some(b'P') => (&s[..s.len() - 1], RatingFlag::Provisional),
            Some(b'E') => (&s[..s.len() - 1], RatingFlag::Estimated),
            _ => (s, RatingFlag::Established),
        };
        let digits = digits.trim();
        if digits.is_empty() || digits.len() > 5 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        digits
            .parse()
            .ok()
            .map(|value| Rating::Rated { value, flag })
    }

    /// The number, if there is one.
    pub fn value(&self) -> Option<u32> {
        match self {
            Rating::Rated { value, .. } => Some(*value),
            _ => None,
        }
    }
}

impl fmt::Display for Rating {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rating::Rated { value, flag } => {
                write!(f, "{value}")?;
                match flag {
                    RatingFlag::Established => Ok(()),
                    RatingFlag::Provisional => f.write_str("P"),
                    RatingFlag::Estimated => f.write_str("E"),
                }
            }
            Rating::Unrated => f.write_str("----"),
            Rating::Unregistered => f.write_str("++++"),
        }
    }
}
