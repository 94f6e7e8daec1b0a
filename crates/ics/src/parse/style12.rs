//! Style-12 board updates (`<12> ...`): every field, 31 to 33 and more of them.
//!
//! Fields after the 31st are optional and extra trailing fields are ignored: field 32 is
//! the clock-ticking flag (lasker, FICS), field 33 the lag in milliseconds (FICS). Clocks
//! may be negative (a flagged player) and come in seconds, or in milliseconds after
//! `iset ms 1`. [`ClockUnit::Auto`] tells them apart line by line: the servers print the
//! move-time field with a fraction (`(0:01.234)`) when they send milliseconds, and a
//! clock that cannot be seconds (more than the time control allows plus an hour) is
//! milliseconds too. The connection's [`crate::parse::Parser`] makes the choice
//! sticky once milliseconds have been seen, so a low clock late in a game is never
//! misread.

use crate::events::{Color, Relation, Style12};

/// How to read the clock fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ClockUnit {
    /// Milliseconds when the line shows it (see the module doc), otherwise seconds.
    #[default]
    Auto,
    Seconds,
    Milliseconds,
}

/// Why a `<12>` line was rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style12Error {
    NotStyle12,
    /// Fewer than 31 fields.
    TooFewFields,
    /// The field with this 1-based number is malformed.
    BadField(u8),
}

fn parse_u32(s: &str, field: u8) -> Result<u32, Style12Error> {
    s.parse::<u32>().map_err(|_| Style12Error::BadField(field))
}

fn parse_flag(s: &str, field: u8) -> Result<bool, Style12Error> {
    match s {
        "0" => Ok(false),
        "1" => Ok(true),
        _ => Err(Style12Error::BadField(field)),
    }
}

/// Material fields: non-negative in normal chess, but never worth rejecting a board for.
fn parse_material(s: &str, field: u8) -> Result<u32, Style12Error> {
    s.parse::<i64>()
        .map(|v| v.clamp(0, i64::from(u32::MAX)) as u32)
        .map_err(|_| Style12Error::BadField(field))
}

/// `(m:ss)`, `(m:ss.mmm)`, `(h:mm:ss)` -> (milliseconds, had a fraction).
pub fn parse_move_time(s: &str) -> Option<(u64, bool)> {
    let inner = s.strip_prefix('(')?.strip_suffix(')')?;
    let (whole, frac) = match inner.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (inner, None),
    };
    let mut total_secs: u64 = 0;
    let mut parts = 0;
    for part in whole.split(':') {
        parts += 1;
        if parts > 3 || part.is_empty() || part.len() > 6 {
            return None;
        }
        total_secs = total_secs
            .checked_mul(60)?
            .checked_add(part.parse::<u64>().ok()?)?;
    }
    let mut ms = total_secs.checked_mul(1000)?;
    if let Some(f) = frac {
        if f.is_empty() || f.len() > 3 || !f.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let scale = [100, 10, 1][f.len() - 1];
        ms += f.parse::<u64>().ok()? * scale;
    }
    Some((ms, frac.is_some()))
}

fn none_or(s: &str) -> Option<String> {
    if s == "none" {
        None
    } else {
        Some(s.to_string())
    }
}

/// Parses one `<12>` line.
pub fn parse(line: &str, unit: ClockUnit) -> Result<Style12, Style12Error> {
    // `<12>` is followed by a blank; an old help file shows it glued to the first rank,
    // which is accepted too.
    let Some(rest) = line.trim_start().strip_prefix("<12>") else {
        return Err(Style12Error::NotStyle12);
    };
    let mut f = rest.split_ascii_whitespace();
    let mut next = |n: u8| {
        f.next().ok_or(if n <= 31 {
            Style12Error::TooFewFields
        } else {
            Style12Error::BadField(n)
        })
    };

    let mut ranks = [[b'-'; 8]; 8];
    for (i, row) in ranks.iter_mut().enumerate() {
        let field = (i + 2) as u8;
        let s = next(field)?.as_bytes();
        if s.len() != 8 || !s.iter().all(|b| b.is_ascii_graphic()) {
            return Err(Style12Error::BadField(field));
        }
        row.copy_from_slice(s);
    }
    let side_to_move = match next(10)? {
        "W" => Color::White,
        "B" => Color::Black,
        _ => return Err(Style12Error::BadField(10)),
    };
    let ep_file = match next(11)?.parse::<i32>() {
        Ok(-1) => None,
        Ok(x @ 0..=7) => Some(x as u8),
        _ => return Err(Style12Error::BadField(11)),
    };
    let white_castle_short = parse_flag(next(12)?, 12)?;
    let white_castle_long = parse_flag(next(13)?, 13)?;
    let black_castle_short = parse_flag(next(14)?, 14)?;
    let black_castle_long = parse_flag(next(15)?, 15)?;
    let halfmove_clock = parse_u32(next(16)?, 16)?;
    let game = parse_u32(next(17)?, 17)?;
    let white = next(18)?.to_string();
    let black = next(19)?.to_string();
    let relation = next(20)?
        .parse::<i32>()
        .ok()
        .and_then(Relation::from_code)
        .ok_or(Style12Error::BadField(20))?;
    let base_minutes = parse_u32(next(21)?, 21)?;
    let increment_secs = parse_u32(next(22)?, 22)?;
    let white_material = parse_material(next(23)?, 23)?;
    let black_material = parse_material(next(24)?, 24)?;
    let wclock = next(25)?
        .parse::<i64>()
        .map_err(|_| Style12Error::BadField(25))?;
    let bclock = next(26)?
        .parse::<i64>()
        .map_err(|_| Style12Error::BadField(26))?;
    let move_number = parse_u32(next(27)?, 27)?;
    let last_move_verbose = none_or(next(28)?);
    let (last_move_time_ms, fraction) =
        parse_move_time(next(29)?).ok_or(Style12Error::BadField(29))?;
    let last_move_san = none_or(next(30)?);
    let flip = parse_flag(next(31)?, 31)?;
    let clock_ticking = match f.next() {
        Some(s) => Some(parse_flag(s, 32)?),
        None => None,
    };
    let lag_ms = match f.next() {
        Some(s) => Some(parse_u32(s, 33)?),
        None => None,
    };
    let clocks_in_ms = match unit {
        ClockUnit::Milliseconds => true,
        ClockUnit::Seconds => false,
        ClockUnit::Auto => {
            // Seconds can be at most the base time, the increments so far and an hour of
            // `moretime`; anything larger is milliseconds.
            let bound = (i64::from(base_minutes) * 60)
                .saturating_add(
                    i64::from(increment_secs).saturating_mul(i64::from(move_number) + 2),
                )
                .saturating_add(3600);
            fraction || wclock.saturating_abs().max(bclock.saturating_abs()) > bound
        }
    };
    let scale = if clocks_in_ms { 1 } else { 1000 };
    let clamp = |v: i64| v.clamp(-(1 << 40), 1 << 40) * scale;
    Ok(Style12 {
        ranks,
        side_to_move,
        ep_file,
        white_castle_short,
        white_castle_long,
        black_castle_short,
        black_castle_long,
        halfmove_clock,
        game,
        white,
        black,
        relation,
        base_minutes,
        increment_secs,
        white_material,
        black_material,
        white_clock_ms: clamp(wclock),
        black_clock_ms: clamp(bclock),
        clocks_in_ms,
        move_number,
        last_move_verbose,
        last_move_time_ms,
        last_move_san,
        flip,
        clock_ticking,
        lag_ms,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const RPBLC: &str = "<12> rnbqkbnr pppp-ppp -------- ----p--- -------- -----P-- PPPPP-PP RNBQKBNR W 4 1 1 1 1 0 1 AlphaBot BetaBot 1 5 0 39 39 299 299 2 P/e7-e5 (0:01) e5 0";
    // FICS with `iset ms 1`: milliseconds, the fraction in the move time, clock ticking
    // and lag fields (33 fields), as the FICS style-12 documentation describes them.
    const FICS_MS: &str = "<12> rnbqkb-r pppppppp -----n-- -------- ----P--- -------- PPPPKPPP RNBQ-BNR B -1 0 0 1 1 0 7 Newton Einstein 1 2 12 39 39 119871 -2040 2 K/e1-e2 (0:06.310) Ke2 0 1 243";

    #[test]
    fn thirty_one_fields() {
        let b = parse(RPBLC, ClockUnit::Auto).expect("parses");
        assert_eq!(b.side_to_move, Color::White);
        assert_eq!(b.ep_file, Some(4));
        assert!(
            b.white_castle_short
                && b.white_castle_long
                && b.black_castle_short
                && b.black_castle_long
        );
        assert_eq!((b.halfmove_clock, b.game), (0, 1));
        assert_eq!(
            (b.white.as_str(), b.black.as_str()),
            ("AlphaBot", "BetaBot")
        );
        assert_eq!(b.relation, Relation::MyMove);
        assert_eq!((b.base_minutes, b.increment_secs), (5, 0));
        assert_eq!((b.white_clock_ms, b.black_clock_ms), (299_000, 299_000));
        assert!(!b.clocks_in_ms);
        assert_eq!(b.move_number, 2);
        assert_eq!(b.last_move_verbose.as_deref(), Some("P/e7-e5"));
        assert_eq!(b.last_move_time_ms, 1000);
        assert_eq!(b.last_move_san.as_deref(), Some("e5"));
        assert!(!b.flip);
        assert_eq!((b.clock_ticking, b.lag_ms), (None, None));
        assert_eq!(
            b.to_fen(),
            "rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq e6 0 2"
        );
        assert_eq!(b.piece_at(4, 4), Some('p'));
        assert_eq!(b.piece_at(4, 3), None);
    }

    #[test]
    fn thirty_three_fields_with_ms_and_negative_clock() {
        let b = parse(FICS_MS, ClockUnit::Auto).expect("parses");
        assert!(b.clocks_in_ms);
        assert_eq!((b.white_clock_ms, b.black_clock_ms), (119_871, -2040));
        assert_eq!(b.last_move_time_ms, 6310);
        assert_eq!((b.clock_ticking, b.lag_ms), (Some(true), Some(243)));
        assert_eq!(b.relation, Relation::MyMove);
        assert_eq!((b.white_castle_short, b.black_castle_long), (false, true));
        assert_eq!(
            b.to_fen(),
            "rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPPKPPP/RNBQ1BNR b kq - 0 2"
        );
        // Milliseconds without a fraction: the first board's clocks give it away.
        let no_frac = FICS_MS
            .replace("(0:06.310)", "(0:06)")
            .replace(" 119871 -2040 ", " 180000 180000 ");
        assert!(
            parse(&no_frac, ClockUnit::Auto)
                .expect("parses")
                .clocks_in_ms
        );
        // An explicit unit overrides the guess.
        let s = parse(FICS_MS, ClockUnit::Seconds).expect("parses");
        assert_eq!(s.white_clock_ms, 119_871_000);
    }

    #[test]
    fn extra_fields_none_and_relations() {
        let line = "<12> rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR W -1 1 1 1 1 0 17 GuestA GuestB -4 3 0 39 39 180 180 1 none (0:00) none 1 0 0 extra fields 9";
        let b = parse(line, ClockUnit::Auto).expect("parses");
        assert_eq!(b.relation, Relation::InitialPosition);
        assert_eq!((b.last_move_verbose, b.last_move_san), (None, None));
        assert!(b.flip);
        for (code, rel) in [
            (-3, Relation::IsolatedPosition),
            (-2, Relation::ObservingExamined),
            (2, Relation::Examining),
            (0, Relation::Observing),
            (-1, Relation::OpponentToMove),
        ] {
            let l = line.replace(" -4 3 0 ", &format!(" {code} 3 0 "));
            assert_eq!(parse(&l, ClockUnit::Auto).map(|b| b.relation), Ok(rel));
        }
    }

    #[test]
    fn castling_and_promotion_moves() {
        let l = "<12> --kr-bnQ pppqp--p --n----- ---p-b-- -------- -----N-- PPPP-PPP RNBQKB-R W 0 1 1 0 0 3 1 AlphaBot BetaBot 1 10 0 47 32 597 597 7 o-o-o (0:01) O-O-O 0 1";
        let b = parse(l, ClockUnit::Auto).expect("parses");
        assert_eq!(b.last_move_verbose.as_deref(), Some("o-o-o"));
        assert_eq!(b.ep_file, Some(0));
        // The server's file after a castling is kept raw but not trusted in the FEN.
        assert!(!b.ep_plausible(0));
        assert!(b.to_fen().ends_with(" w KQ - 3 7"), "{}", b.to_fen());
        assert_eq!(b.clock_ticking, Some(true));
        let l = l.replace("o-o-o (0:01) O-O-O", "P/g7-h8=Q (1:02:03.5) gxh8=Q+");
        let b = parse(&l, ClockUnit::Auto).expect("parses");
        assert_eq!(b.last_move_time_ms, 3_723_500);
        assert!(b.clocks_in_ms);
    }

    #[test]
    fn malformed_lines_are_errors() {
        assert_eq!(
            parse("<12>", ClockUnit::Auto),
            Err(Style12Error::TooFewFields)
        );
        assert_eq!(
            parse("<13> x", ClockUnit::Auto),
            Err(Style12Error::NotStyle12)
        );
        let short = RPBLC.rsplit_once(' ').map(|(a, _)| a).unwrap_or("");
        assert_eq!(
            parse(short, ClockUnit::Auto),
            Err(Style12Error::TooFewFields)
        );
        assert_eq!(
            parse(&RPBLC.replace(" W 4 ", " X 4 "), ClockUnit::Auto),
            Err(Style12Error::BadField(10))
        );
        assert_eq!(
            parse(&RPBLC.replace(" W 4 ", " W 9 "), ClockUnit::Auto),
            Err(Style12Error::BadField(11))
        );
        assert_eq!(
            parse(&RPBLC.replace("pppp-ppp", "ppp-ppp"), ClockUnit::Auto),
            Err(Style12Error::BadField(3))
        );
        assert_eq!(
            parse(&RPBLC.replace(" 1 5 0 ", " 7 5 0 "), ClockUnit::Auto),
            Err(Style12Error::BadField(20))
        );
        assert_eq!(
            parse(&RPBLC.replace("(0:01)", "(0:x1)"), ClockUnit::Auto),
            Err(Style12Error::BadField(29))
        );
        assert_eq!(
            parse(&format!("{RPBLC} 2"), ClockUnit::Auto),
            Err(Style12Error::BadField(32))
        );
        assert_eq!(
            parse(&format!("{RPBLC} 1 -5"), ClockUnit::Auto),
            Err(Style12Error::BadField(33))
        );
    }

    #[test]
    fn extreme_numbers_do_not_overflow() {
        let l = RPBLC.replace(
            " 1 5 0 39 39 299 299 2 ",
            " 1 4294967295 4294967295 39 39 -9223372036854775808 9223372036854775807 4294967295 ",
        );
        let b = parse(&l, ClockUnit::Auto).expect("parses");
        assert!(b.white_clock_ms < 0 && b.black_clock_ms > 0);
        let _ = b.to_fen();
    }

    #[test]
    fn move_times() {
        assert_eq!(parse_move_time("(0:00)"), Some((0, false)));
        assert_eq!(parse_move_time("(2:05)"), Some((125_000, false)));
        assert_eq!(parse_move_time("(0:00.000)"), Some((0, true)));
        assert_eq!(parse_move_time("(0:01.2)"), Some((1200, true)));
        assert_eq!(parse_move_time("0:01"), None);
        assert_eq!(parse_move_time("(1:2:3:4)"), None);
        assert_eq!(parse_move_time("(:)"), None);
        assert_eq!(parse_move_time("(0:01.1234)"), None);
        assert_eq!(parse_move_time("(99999999999:0)"), None);
    }
}
