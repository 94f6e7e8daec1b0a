//! Game listings and examined games: rows of `games` (played and `Exam.` rows) and its
//! footer, the relay bot's `listgames` rows (qtell lines starting with `:`), a
//! tournament director's `games` rows, and the notices of an examined game (`X moves:
//! e4`, `X stopped examining game N.`, `There are no examiners.`).
//!
//! Shapes (lasker's `games` and FICS's help file; relay's and mamer's qtells):
//! - ` 28 1622 Vman        1609 PopKid     [ sr 10  10]   1:14 -  5:10 (21-22) B: 18`
//! - ` 25 (Exam. 2540 Kramnik     2760 Anand      ) [ uu  0   0] W:  1`
//! - `  6 games displayed (of 23 in progress).` / `There are no games in progress.`
//! - `:There are 5 games in the London Chess Classic - Round 4`
//! - `:196 GMCarlsen GMAronian * C65`
//! - `:  1   AlphaBot [ 1.0] [1720] vs BetaBot  [ 0.0] [1650]   3`

use crate::events::Event;
use crate::listing::{GameRow, ListedState, RelayRow, TourneyGameRow};
use crate::rating::{Rating, RatingFlag};
use regex::Regex;
use std::sync::OnceLock;

fn re(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pattern).expect("a valid pattern"))
}

static PLAYED: OnceLock<Regex> = OnceLock::new();
static EXAMINED: OnceLock<Regex> = OnceLock::new();
static FOOTER: OnceLock<Regex> = OnceLock::new();
static RELAY_HEADER: OnceLock<Regex> = OnceLock::new();
static RELAY_ROW: OnceLock<Regex> = OnceLock::new();
static TOURNEY_ROW: OnceLock<Regex> = OnceLock::new();
static TOURNEY_HEADER: OnceLock<Regex> = OnceLock::new();
static EX_MOVE: OnceLock<Regex> = OnceLock::new();
static EX_STOPPED: OnceLock<Regex> = OnceLock::new();

const NAME: &str = r"[A-Za-z][A-Za-z0-9_]{0,19}";
const RATING: &str = r"(?:\d{1,5}[PE]?|----|\+\+\+\+|UNR)";

/// Parses the lines of this file's concern; `None` for any other line.
pub fn parse(line: &str) -> Option<Event> {
    let t = line.trim_end();
    if let Some(rest) = t.strip_prefix(':') {
        return qtell_row(rest);
    }
    if let Some(r) = game_row(t) {
        return Some(Event::GameListed(Box::new(r)));
    }
    if t.trim() == "There are no games in progress." {
        return Some(Event::GamesListEnd { shown: 0, total: 0 });
    }
    if let Some(c) = re(
        &FOOTER,
        r"^\s*(?:(\d+) games? displayed(?: \(of (\d+) in progress\))?|No matching games were found \(of (\d+) in progress\))\.?$",
    )
    .captures(t)
    {
        let num = |i: usize| c.get(i).and_then(|m| m.as_str().parse::<u32>().ok());
        let shown = num(1).unwrap_or(0);
        let total = num(2).or(num(3)).unwrap_or(shown);
        return Some(Event::GamesListEnd { shown, total });
    }
    let pat = format!(r"^({NAME}) moves: (\S{{1,12}})$");
    if let Some(c) = re(&EX_MOVE, &pat).captures(t) {
        return Some(Event::ExaminedMove {
            examiner: c[1].to_string(),
            san: c[2].to_string(),
        });
    }
    let pat = format!(r"^({NAME}) stopped examining game (\d+)\.$");
    if let Some(c) = re(&EX_STOPPED, &pat).captures(t) {
        return Some(Event::ExaminerLeft {
            examiner: c[1].to_string(),
            game: c[2].parse().ok()?,
        });
    }
    if t == "There are no examiners." {
        return Some(Event::NoExaminers);
    }
    None
}

/// One row of `games`, played or examined.
pub fn game_row(line: &str) -> Option<GameRow> {
    let played = format!(
        r"^\s*(\d{{1,5}})\s+({RATING})\s+({NAME})\s+({RATING})\s+({NAME})\s+\[([p ])([A-Za-z])([a-z])\s*(\d{{1,4}})\s+(\d{{1,4}})\]\s+.*\b([WB]):\s*(\d{{1,4}})\s*$"
    );
    let examined = format!(
        r"^\s*(\d{{1,5}})\s+\((Exam\.|Setup)\s+(-?\d{{1,5}})\s+({NAME})\s+(-?\d{{1,5}})\s+({NAME})\s*\)\s+\[([p ])([A-Za-z])([a-z])\s*(\d{{1,4}})\s+(\d{{1,4}})\]\s+([WB]):\s*(\d{{1,4}})\s*$"
    );
    if let Some(c) = re(&PLAYED, &played).captures(line) {
        return Some(GameRow {
            game: c[1].parse().ok()?,
            state: ListedState::Playing,
            white_rating: Rating::parse(&c[2])?,
            white: c[3].to_string(),
            black_rating: Rating::parse(&c[4])?,
            black: c[5].to_string(),
            private: &c[6] == "p",
            kind: c[7].chars().next()?,
            rated: &c[8] == "r",
            base: c[9].parse().ok()?,
            increment: c[10].parse().ok()?,
            white_to_move: &c[11] == "W",
            move_number: c[12].parse().ok()?,
        });
    }
    let c = re(&EXAMINED, &examined).captures(line)?;
    let rating = |s: &str| match s.parse::<i64>() {
        Ok(v) if v > 0 => Rating::Rated {
            value: v as u32,
            flag: RatingFlag::Established,
        },
        _ => Rating::Unrated,
    };
    Some(GameRow {
        game: c[1].parse().ok()?,
        state: if &c[2] == "Setup" {
            ListedState::Setup
        } else {
            ListedState::Examined
        },
        white_rating: rating(&c[3]),
        white: c[4].to_string(),
        black_rating: rating(&c[5]),
        black: c[6].to_string(),
        private: &c[7] == "p",
        kind: c[8].chars().next()?,
        rated: &c[9] == "r",
        base: c[10].parse().ok()?,
        increment: c[11].parse().ok()?,
        white_to_move: &c[12] == "W",
        move_number: c[13].parse().ok()?,
    })
}

/// A qtell line (the text after its `:`): a relay or tournament-director row.
fn qtell_row(rest: &str) -> Option<Event> {
    if let Some(c) = re(
        &RELAY_HEADER,
        r"^There (?:are|is) (\d{1,4}) games? in (?:the )?(.{1,200}?)\s*$",
    )
    .captures(rest)
    {
        return Some(Event::RelayHeader {
            count: c[1].parse().ok()?,
            event: c[2].trim_end_matches('.').to_string(),
        });
    }
    let tourney = format!(
        r"^\s*\d{{1,4}}\s+({NAME})\s+\[\s*[\d.]+\]\s+\[\s*(-?\d{{1,5}})\]\s+vs\s+({NAME})\s+\[\s*[\d.]+\]\s+\[\s*(-?\d{{1,5}})\]\s+(\d{{1,5}}|none)\s*$"
    );
    if let Some(c) = re(&TOURNEY_ROW, &tourney).captures(rest) {
        let rating = |s: &str| s.parse::<i64>().ok().filter(|v| *v > 0).map(|v| v as u32);
        return Some(Event::TourneyGame(Box::new(TourneyGameRow {
            white: c[1].to_string(),
            white_rating: rating(&c[2]),
            black: c[3].to_string(),
            black_rating: rating(&c[4]),
            game: c[5].parse().ok(),
        })));
    }
    if let Some(c) = re(&TOURNEY_HEADER, r"^Tourney Games for Round #\s*(\d{1,4})").captures(rest) {
        return Some(Event::TourneyGamesHeader {
            round: c[1].parse().ok()?,
        });
    }
    let relay = format!(
        r"^\s*(\d{{1,5}})\s+({NAME})\s+({NAME})\s+(\*|1-0|0-1|1/2-1/2|1/2)(?:\s+([A-E]\d\d|\?|-))?\s*$"
    );
    let c = re(&RELAY_ROW, &relay).captures(rest)?;
    let result = match &c[4] {
        "1/2" => "1/2-1/2".to_string(),
        r => r.to_string(),
    };
    Some(Event::RelayGame(Box::new(RelayRow {
        game: c[1].parse().ok()?,
        white: c[2].to_string(),
        black: c[3].to_string(),
        result,
        eco: c
            .get(5)
            .map(|m| m.as_str().to_string())
            .filter(|e| e.len() == 3),
    })))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn played_and_examined_rows() {
        let r = game_row(
            " 28 ++++ TryMe       1737 Jack       [ su 30  20]  22:27 - 23:17 (29-30) W: 16",
        )
        .unwrap();
        assert_eq!(
            (r.game, r.white.as_str(), r.black.as_str()),
            (28, "TryMe", "Jack")
        );
        assert_eq!(r.white_rating, Rating::Unregistered);
        assert_eq!((r.kind, r.rated, r.base, r.increment), ('s', false, 30, 20));
        assert!(r.white_to_move && r.move_number == 16 && r.state == ListedState::Playing);
        let r = game_row(
            "  1 1878 Roberto     1881 baraka     [psr 45  30]  30:35 - 34:24 (22-22) W: 21",
        )
        .unwrap();
        assert!(r.private && r.rated);
        let r = game_row("25 (Exam.    0 Friar          0 Friar     ) [ uu  0   0] W:  1").unwrap();
        assert_eq!(r.state, ListedState::Examined);
        assert_eq!(r.white_rating, Rating::Unrated);
        let r =
            game_row(" 93 (Exam. 2783 GMCarlsen   2772 GMAnand    ) [ sr 90  30] B: 23").unwrap();
        assert_eq!(r.white_rating.value(), Some(2783));
        assert_eq!((r.kind, r.base, r.white_to_move), ('s', 90, false));
        assert!(game_row("Observing  1 [AlphaBot vs. BetaBot]: Watcher").is_none());
        assert!(game_row(" 28 ++++ Try Me 1737 Jack [ su 30 20] W: 16").is_none());
    }

    #[test]
    fn footers_and_notices() {
        assert_eq!(
            parse("  6 games displayed (of 23 in progress)."),
            Some(Event::GamesListEnd {
                shown: 6,
                total: 23
            })
        );
        assert_eq!(
            parse("  1 game displayed."),
            Some(Event::GamesListEnd { shown: 1, total: 1 })
        );
        assert_eq!(
            parse("No matching games were found (of 3 in progress)."),
            Some(Event::GamesListEnd { shown: 0, total: 3 })
        );
        assert_eq!(
            parse("relay moves: Nf3"),
            Some(Event::ExaminedMove {
                examiner: "relay".into(),
                san: "Nf3".into()
            })
        );
        assert_eq!(
            parse("relay stopped examining game 12."),
            Some(Event::ExaminerLeft {
                examiner: "relay".into(),
                game: 12
            })
        );
    }

    #[test]
    fn relay_and_tourney_rows() {
        assert_eq!(
            parse(":There are 5 games in the London Chess Classic - Round 4"),
            Some(Event::RelayHeader {
                count: 5,
                event: "London Chess Classic - Round 4".into()
            })
        );
        let Some(Event::RelayGame(r)) = parse(":196 GMCarlsen       GMAronian        *       C65")
        else {
            panic!()
        };
        assert_eq!(
            (r.game, r.result.as_str(), r.eco.as_deref()),
            (196, "*", Some("C65"))
        );
        let Some(Event::RelayGame(r)) = parse(":12 Ding Nepo 1/2") else {
            panic!()
        };
        assert_eq!(r.result, "1/2-1/2");
        let Some(Event::TourneyGame(t)) =
            parse(":  1           AlphaBot [ 1.0] [1720] vs BetaBot            [ 0.5] [   0]   3")
        else {
            panic!()
        };
        assert_eq!(
            (t.white.as_str(), t.game, t.black_rating),
            ("AlphaBot", Some(3), None)
        );
        let Some(Event::TourneyGame(t)) =
            parse(":  2 Gamma [ 0.0] [1500] vs Delta [ 0.0] [1400] none")
        else {
            panic!()
        };
        assert_eq!(t.game, None);
        assert_eq!(
            parse(":Tourney Games for Round #2"),
            Some(Event::TourneyGamesHeader { round: 2 })
        );
        assert_eq!(parse(":mamer notes: hello"), None);
    }
}
