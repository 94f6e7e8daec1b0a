//! `finger`'s answer, as far as a client that keeps its own finger notes needs it: the
//! header naming whose finger it is (FICS and lasker `Statistics for NAME(C)   On for:
//! ...`, `Statistics for NAME   (Not logged in.)`; ICC `Finger of NAME:`, from public
//! client code, not verified on ICC), and the note lines that follow the statistics
//! (` 1: text` .. `10: text`, the number right-aligned in two columns, as FICS prints
//! them and FatICS's tests show). [`super::Parser`] collects the notes after a header
//! into one [`crate::events::Event::FingerNotes`].

/// The handle a finger display is about (titles such as `(C)` taken off), from its
/// header line.
pub fn header(line: &str) -> Option<String> {
    let t = line.trim();
    let rest = t
        .strip_prefix("Statistics for ")
        .or_else(|| t.strip_prefix("Finger of "))?;
    let word = rest.split_whitespace().next()?;
    let word = word.trim_end_matches(':');
    let name: String = word.chars().take_while(|c| *c != '(').collect();
    if name.is_empty()
        || name.len() > 20
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return None;
    }
    Some(name)
}

/// A note line: its number (1 to 99) and its text (trimmed; empty for a blank note).
pub fn note(line: &str) -> Option<(usize, String)> {
    let t = line.trim_end();
    let (num, rest) = t.split_once(':')?;
    if num.len() > 2 || num.trim().is_empty() {
        return None;
    }
    let n: usize = num.trim_start().parse().ok()?;
    if n == 0 || !(rest.is_empty() || rest.starts_with(' ')) {
        return None;
    }
    // FICS right-aligns the number in two columns: ` 1:`, `10:`.
    if num.len() == 1 || (n < 10 && !num.starts_with(' ')) {
        return None;
    }
    Some((n, rest.trim().to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers() {
        assert_eq!(
            header("Statistics for wily(C)          On for: 3 secs   Idle: 0 secs").as_deref(),
            Some("wily")
        );
        assert_eq!(
            header("Statistics for BetaBot          (Never connected.)").as_deref(),
            Some("BetaBot")
        );
        assert_eq!(header("Finger of Wily(C):").as_deref(), Some("Wily"));
        assert_eq!(header("Statistics for ../etc      On for").as_deref(), None);
        assert_eq!(header("Game 3: Statistics for x"), None);
    }

    #[test]
    fn notes() {
        assert_eq!(
            note(" 1: wily 1.0, a chess engine"),
            Some((1, "wily 1.0, a chess engine".into()))
        );
        assert_eq!(note("10: last line"), Some((10, "last line".into())));
        assert_eq!(note(" 2:"), Some((2, String::new())));
        assert_eq!(note(" 3: "), Some((3, String::new())));
        for not in [
            "1: W Opponent",
            "Timeseal: On",
            "Address    : x@y",
            " 0: zero",
            " 4:x",
            "100: long",
            "   rating     RD",
        ] {
            assert_eq!(note(not), None, "{not:?}");
        }
    }
}
