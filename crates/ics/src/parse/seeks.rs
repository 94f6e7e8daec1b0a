//! Seeks: `sought` list lines and lasker ad lines, FICS seek announcements, ad removals
//! (`AD_DESTROY: n`, `Ads removed: ...`) and FICS seek info (`<s>`, `<sn>`, `<sr>`, `<sc>`,
//! `iset seekinfo 1`).

use std::sync::LazyLock;

use regex::Regex;

use crate::events::{title, Color, Event, Rating, SeekAd};

static SOUGHT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"^\s*(\d+)\s+(\S+)\s+([A-Za-z][A-Za-z0-9_-]*)((?:\([A-Z*]{1,4}\))*)\s+(\d+)\s+(\d+)\s+",
        r"(rated|unrated)\s+(\S+)\s*(?:\[(white|black)\])?\s*(?:(\d+)-\s*(\d+))?\s*([mf]{0,2})$"
    ))
    .expect("valid regex")
});
static ANNOUNCE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r#"^([A-Za-z][A-Za-z0-9_-]*)((?:\([A-Z*]{1,4}\))*) \(([^)]*)\) seeking (\d+) (\d+) "#,
        r#"(rated|unrated) (\S+)(.*?)\("play (\d+)" to respond\)"#
    ))
    .expect("valid regex")
});

/// Title bits for suffixes like `(C)`, `(GM)`, `(U)` (and ICC's title lists, which name
/// the same titles).
pub fn title_bits<S: AsRef<str>>(titles: &[S]) -> u32 {
    titles
        .iter()
        .map(|t| match t.as_ref() {
            "U" => title::UNREGISTERED,
            "C" => title::COMPUTER,
            "GM" => title::GM,
            "IM" => title::IM,
            "FM" => title::FM,
            "WGM" => title::WGM,
            "WIM" => title::WIM,
            "WFM" => title::WFM,
            _ => 0,
        })
        .fold(0, |a, b| a | b)
}

/// Splits `Name(GM)(C)` style suffixes into their parts.
pub fn split_titles(s: &str) -> Vec<&str> {
    s.split(['(', ')']).filter(|t| !t.is_empty()).collect()
}

fn color(s: Option<&str>) -> Option<Color> {
    match s? {
        "white" | "W" | "w" => Some(Color::White),
        "black" | "B" | "b" => Some(Color::Black),
        _ => None,
    }
}

fn sought_line(line: &str) -> Option<Event> {
    let c = SOUGHT.captures(line)?;
    let titles = split_titles(c.get(4).map_or("", |m| m.as_str()));
    let range = match (c.get(10), c.get(11)) {
        (Some(lo), Some(hi)) => Some((lo.as_str().parse().ok()?, hi.as_str().parse().ok()?)),
        _ => None,
    };
    let flags = c.get(12).map_or("", |m| m.as_str());
    Some(Event::Seek(SeekAd {
        index: c[1].parse().ok()?,
        rating: Rating::parse(&c[2])?,
        name: c[3].to_string(),
        titles: title_bits(&titles),
        base_minutes: c[5].parse().ok()?,
        increment_secs: c[6].parse().ok()?,
        rated: &c[7] == "rated",
        category: c[8].to_string(),
        color: color(c.get(9).map(|m| m.as_str())),
        rating_range: range,
        automatic: !flags.contains('m'),
        formula: flags.contains('f'),
        notify: false,
        fancy_time_control: String::new(),
    }))
}

fn announcement(line: &str) -> Option<Event> {
    let c = ANNOUNCE.captures(line)?;
    let titles = split_titles(c.get(2).map_or("", |m| m.as_str()));
    let extra = c[8].trim();
    let color = if extra.contains("[white]") {
        Some(Color::White)
    } else if extra.contains("[black]") {
        Some(Color::Black)
    } else {
        None
    };
    let words: Vec<&str> = extra.split_whitespace().collect();
    Some(Event::Seek(SeekAd {
        index: c[9].parse().ok()?,
        name: c[1].to_string(),
        titles: title_bits(&titles),
        rating: Rating::parse(&c[3])?,
        base_minutes: c[4].parse().ok()?,
        increment_secs: c[5].parse().ok()?,
        rated: &c[6] == "rated",
        category: c[7].to_string(),
        color,
        rating_range: None,
        automatic: !words.contains(&"m"),
        formula: words.contains(&"f"),
        notify: false,
        fancy_time_control: String::new(),
    }))
}

/// `<s> 8 w=visar ti=02 rt=2194  t=4 i=0 r=r tp=suicide c=? rr=0-9999 a=t f=f`
fn seek_info(tag: &str, rest: &str) -> Option<Event> {
    let mut words = rest.split_whitespace();
    let index: u32 = words.next()?.parse().ok()?;
    let mut ad = SeekAd {
        index,
        name: String::new(),
        titles: 0,
        rating: Rating::Unrated,
        base_minutes: 0,
        increment_secs: 0,
        rated: false,
        category: String::new(),
        color: None,
        rating_range: None,
        automatic: true,
        formula: false,
        notify: tag == "<sn>",
        fancy_time_control: String::new(),
    };
    let mut seen_name = false;
    for w in words {
        let Some((k, v)) = w.split_once('=') else {
            continue;
        };
        match k {
            "w" => {
                ad.name = v.to_string();
                seen_name = true;
            }
            "ti" => ad.titles = u32::from_str_radix(v, 16).ok()?,
            "rt" => ad.rating = Rating::parse(v)?,
            "t" => ad.base_minutes = v.parse().ok()?,
            "i" => ad.increment_secs = v.parse().ok()?,
            "r" => ad.rated = v == "r",
            "tp" => ad.category = v.to_string(),
            "c" => ad.color = color(Some(v)),
            "rr" => {
                let (lo, hi) = v.split_once('-')?;
                ad.rating_range = Some((lo.parse().ok()?, hi.parse().ok()?));
            }
            "a" => ad.automatic = v == "t",
            "f" => ad.formula = v == "t",
            _ => {} // fields added later are ignored
        }
    }
    seen_name.then_some(Event::Seek(ad))
}

fn indices(s: &str) -> Option<Vec<u32>> {
    s.split_whitespace().map(|w| w.parse().ok()).collect()
}

/// Parses a seek line.
pub fn parse(line: &str) -> Option<Event> {
    if let Some(rest) = line.strip_prefix('<') {
        let (tag, rest) = rest.split_once(' ').unwrap_or((rest, ""));
        return match tag {
            "s>" => seek_info("<s>", rest),
            "sn>" => seek_info("<sn>", rest),
            "sr>" => Some(Event::SeekRemoved {
                indices: indices(rest)?,
            }),
            "sc>" => Some(Event::SeeksCleared),
            _ => None,
        };
    }
    if line.starts_with("You must specify a board and a category")
        || line.starts_with("No such category/board:")
        || (line.starts_with("Can't interpret ") && line.ends_with(" in match command."))
    {
        return Some(Event::SeekRefused {
            text: line.to_string(),
        });
    }
    if let Some(rest) = line.strip_prefix("AD_DESTROY:") {
        return Some(Event::SeekRemoved {
            indices: indices(rest)?,
        });
    }
    if let Some(rest) = line.strip_prefix("Ads removed:") {
        return Some(Event::SeekRemoved {
            indices: indices(rest)?,
        });
    }
    if let Some(n) = line
        .strip_suffix(" ads displayed.")
        .or_else(|| line.strip_suffix(" ad displayed."))
    {
        return Some(Event::SeekListEnd {
            count: n.trim().parse().ok()?,
        });
    }
    if let Some(rest) = line.strip_prefix("Your seek has been posted with index ") {
        return Some(Event::SeekPosted {
            index: rest.trim_end_matches('.').parse().ok()?,
        });
    }
    if line.contains(" seeking ") {
        return announcement(line);
    }
    let first = line.trim_start().as_bytes().first()?;
    if first.is_ascii_digit() {
        return sought_line(line);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::RatingFlag;

    fn ad(line: &str) -> SeekAd {
        match parse(line) {
            Some(Event::Seek(a)) => a,
            other => panic!("{line} -> {other:?}"),
        }
    }

    #[test]
    fn lasker_ad_and_sought_lines() {
        let a = ad("  0    0 BetaBot             5   0 rated   blitz");
        assert_eq!(
            (a.index, a.name.as_str(), a.base_minutes, a.increment_secs),
            (0, "BetaBot", 5, 0)
        );
        assert_eq!(
            a.rating,
            Rating::Rated {
                value: 0,
                flag: RatingFlag::Established
            }
        );
        assert!(a.rated && a.automatic && !a.formula);
        assert_eq!(a.category, "blitz");
        let a = ad(" 27 ++++ GuestRNDH(U)       10   0 unrated standard   [black]     0-9999 mf");
        assert_eq!(a.rating, Rating::Unregistered);
        assert_eq!(a.titles, title::UNREGISTERED);
        assert_eq!(a.color, Some(Color::Black));
        assert_eq!(a.rating_range, Some((0, 9999)));
        assert!(!a.automatic && a.formula);
        let a = ad("  6 2164 kirbyforbes(C)      3   0 unrated blitz                  0-9999");
        assert_eq!(a.titles, title::COMPUTER);
        assert_eq!(a.rating.value(), Some(2164));
        assert_eq!(
            parse("3 ads displayed."),
            Some(Event::SeekListEnd { count: 3 })
        );
        assert_eq!(
            parse("1 ad displayed."),
            Some(Event::SeekListEnd { count: 1 })
        );
        // Not seek lines.
        assert_eq!(
            parse(" 1 ---- AlphaBot    ---- BetaBot    [ br  5   0]   4:59 -  5:00 (39-39) W:  1"),
            None
        );
        assert_eq!(
            parse(" 0: - 1558 W 1882 BetaBot       [ br  5   0] A00 Mat Sun Nov 22 01:47:45 2026"),
            None
        );
    }

    #[test]
    fn announcement_line() {
        let a = ad("GuestXYZW (++++) seeking 5 0 unrated blitz [white] m (\"play 12\" to respond)");
        assert_eq!((a.index, a.name.as_str()), (12, "GuestXYZW"));
        assert_eq!(a.color, Some(Color::White));
        assert!(!a.automatic);
        let a = ad("Crafty(C) (2650) seeking 2 12 rated blitz f (\"play 7\" to respond)");
        assert_eq!(a.titles, title::COMPUTER);
        assert!(a.formula && a.automatic && a.rated);
    }

    #[test]
    fn removals() {
        assert_eq!(
            parse("AD_DESTROY: 0"),
            Some(Event::SeekRemoved { indices: vec![0] })
        );
        assert_eq!(
            parse("Ads removed: 3 14"),
            Some(Event::SeekRemoved {
                indices: vec![3, 14]
            })
        );
        assert_eq!(
            parse("<sr> 8 10"),
            Some(Event::SeekRemoved {
                indices: vec![8, 10]
            })
        );
        assert_eq!(parse("<sc>"), Some(Event::SeeksCleared));
        assert_eq!(parse("<sr> 8 x"), None);
        assert_eq!(
            parse("Your seek has been posted with index 23."),
            Some(Event::SeekPosted { index: 23 })
        );
        assert_eq!(
            parse("You must specify a board and a category."),
            Some(Event::SeekRefused {
                text: "You must specify a board and a category.".into()
            })
        );
        assert!(matches!(
            parse("Can't interpret m in match command."),
            Some(Event::SeekRefused { .. })
        ));
        assert!(matches!(
            parse("No such category/board: fischerandom/m"),
            Some(Event::SeekRefused { .. })
        ));
        assert_eq!(
            parse("Your seek has been posted with index 24."),
            Some(Event::SeekPosted { index: 24 })
        );
    }

    #[test]
    fn fics_seek_info() {
        // Shapes from the FICS `iv_seekinfo` help file.
        let a = ad("<s> 8 w=visar ti=02 rt=2194  t=4 i=0 r=r tp=suicide c=? rr=0-9999 a=t f=f");
        assert_eq!(
            (a.index, a.name.as_str(), a.titles),
            (8, "visar", title::COMPUTER)
        );
        assert_eq!(
            a.rating,
            Rating::Rated {
                value: 2194,
                flag: RatingFlag::Established
            }
        );
        assert_eq!((a.base_minutes, a.increment_secs, a.rated), (4, 0, true));
        assert_eq!(
            (a.category.as_str(), a.color, a.rating_range),
            ("suicide", None, Some((0, 9999)))
        );
        assert!(a.automatic && !a.formula && !a.notify);
        let a = ad("<sn> 12 w=saeph ti=0C rt=1407P t=1 i=0 r=u tp=lightning c=W rr=1200-1600 a=f f=t xx=new");
        assert_eq!(a.titles, title::GM | title::IM);
        assert_eq!(
            a.rating,
            Rating::Rated {
                value: 1407,
                flag: RatingFlag::Provisional
            }
        );
        assert_eq!(a.color, Some(Color::White));
        assert!(a.notify && !a.automatic && a.formula && !a.rated);
        let a = ad("<s> 3 w=GuestABCD ti=01 rt=0E t=15 i=5 r=u tp=standard c=B rr=0-9999 a=t f=f");
        assert_eq!(
            a.rating,
            Rating::Rated {
                value: 0,
                flag: RatingFlag::Estimated
            }
        );
        assert_eq!(a.color, Some(Color::Black));
        assert_eq!(parse("<s> 8 ti=02"), None);
        assert_eq!(parse("<s> x w=a"), None);
        assert_eq!(parse("<s> 8 w=a ti=zz"), None);
    }
}
