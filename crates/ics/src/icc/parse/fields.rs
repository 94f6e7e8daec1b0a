//! The field forms ICC's datagrams share: title lists, ratings with their annotation,
//! colours, seconds, and the category and variant of a rating type and wild number.

use crate::board::Color;
use crate::events::{Rating, RatingFlag};

pub(super) fn titles_of(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_string).collect()
}

/// A rating and its ICC annotation (0 no games, 1 provisional, 2 established).
pub(super) fn rating_of(value: Option<u32>, annotation: Option<u32>, unregistered: bool) -> Rating {
    if unregistered {
        return Rating::Unregistered;
    }
    match (value, annotation) {
        (Some(v), Some(1)) if v > 0 => Rating::Rated {
            value: v,
            flag: RatingFlag::Provisional,
        },
        (Some(v), Some(2) | None) if v > 0 => Rating::Rated {
            value: v,
            flag: RatingFlag::Established,
        },
        _ => Rating::Unrated,
    }
}

pub(super) fn color_of(s: &str) -> Option<Color> {
    match s.trim() {
        "W" | "w" => Some(Color::White),
        "B" | "b" => Some(Color::Black),
        _ => None,
    }
}

/// Seconds as ICC writes them (an integer, sometimes with a fraction) in milliseconds.
pub(super) fn secs_to_ms(s: &str) -> Option<i64> {
    let v: f64 = s.trim().parse().ok()?;
    v.is_finite().then(|| (v * 1000.0).round() as i64)
}

/// The category word wily's bot knows for an ICC rating type and wild number.
pub(super) fn category_of(rating_type: &str, wild: u32) -> String {
    if wild != 0 {
        return "wild".into();
    }
    rating_type.trim().to_ascii_lowercase()
}

/// The variant named by a wild number (`wild/22` is Chess960).
pub(super) fn variant_of(wild: u32) -> Option<String> {
    (wild != 0).then(|| format!("wild/{wild}"))
}
