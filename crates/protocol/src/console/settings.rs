//! Everything the console's commands can set: time control, search limits, hash sizes,
//! draw and resign behaviour, talk levels and display options.

use crate::timecontrol::{fmt_secs, TimeControl, Timing};
use std::time::Duration;

/// What the search output shows (`display time|changes|variation|stats|extstats|movenum|
/// moves|general` and their `no...` forms).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Display {
    /// Time allocation before a search and time used after it.
    pub time: bool,
    /// Fail highs, fail lows and new best moves inside an iteration.
    pub changes: bool,
    /// The principal variation of every finished iteration (`N->`).
    pub variation: bool,
    /// The statistics line after a search (time, nodes, nps).
    pub stats: bool,
    /// Extra statistics (selective depth, hash use).
    pub extstats: bool,
    /// Move numbers inside variations.
    pub movenum: bool,
    /// Each root move as the search reaches it.
    pub moves: bool,
    /// Informational messages (draw offers declined, book and learning notes).
    pub general: bool,
}

impl Default for Display {
    fn default() -> Self {
        Display {
            time: true,
            changes: true,
            variation: true,
            stats: true,
            extstats: false,
            movenum: true,
            moves: false,
            general: true,
        }
    }
}

impl Display {
    /// The option called `name`, for `display NAME` / `display noNAME`.
    pub fn flag_mut(&mut self, name: &str) -> Option<&mut bool> {
        Some(match name {
            "time" => &mut self.time,
            "changes" => &mut self.changes,
            "variation" => &mut self.variation,
            "stats" => &mut self.stats,
            "extstats" => &mut self.extstats,
            "movenum" => &mut self.movenum,
            "moves" => &mut self.moves,
            "general" => &mut self.general,
            _ => return None,
        })
    }

    /// Every option with its state, for `display` listings and `info`.
    pub fn listing(&self) -> String {
        let all = [
            ("time", self.time),
            ("changes", self.changes),
            ("variation", self.variation),
            ("stats", self.stats),
            ("extstats", self.extstats),
            ("movenum", self.movenum),
            ("moves", self.moves),
            ("general", self.general),
        ];
        all.iter()
            .map(|(n, on)| if *on { n.to_string() } else { format!("no{n}") })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The console's settings.
#[derive(Clone, Debug)]
pub struct Settings {
    pub tc: TimeControl,
    /// Fixed time per move (`st`); overrides the clocks.
    pub st: Option<Duration>,
    /// Depth limit (`sd`).
    pub sd: Option<u32>,
    /// Node limit (`sn`).
    pub sn: Option<u64>,
    pub timing: Timing,
    /// Percentage added to (or taken from) the normal time allocation (`usage`).
    pub usage: i32,
    /// Time the operator needs to transfer a move to a board (`operator`), kept in reserve.
    pub operator_time: Duration,
    pub ponder: bool,
    pub hash_bytes: usize,
    pub hashp_bytes: usize,
    pub threads: usize,
    /// Score of a draw in centipawns from wily's side (`drawscore`).
    pub draw_score: i32,
    /// Resign when the score stays below minus this many pawns (0 = never).
    pub resign: i32,
    /// Consecutive moves the score must stay that low before resigning.
    pub resign_count: u32,
    /// Nodes searched before search output appears (`noise`).
    pub noise: u64,
    pub whisper: u8,
    pub kibitz: u8,
    pub display: Display,
    /// Beep when the computer moves.
    pub alarm: bool,
    /// Claim a win when the opponent's clock runs out.
    pub flag: bool,
    /// Tournament mode: no take-backs or position changes during a game.
    pub tournament: bool,
    /// Swindle mode: refuse draws in level positions, trying to win on.
    pub swindle: bool,
    /// The opponent is a computer (draw score 0, as against any engine).
    pub opponent_is_computer: bool,
    pub opponent_name: Option<String>,
    /// Whose view the game file's `{score/depth time}` move comments take (`pgnscores`).
    pub pgn_scores: engine::ScoreView,
    /// `ANSI on`: the computer's move in reverse video.
    pub ansi: bool,
    /// `draw accept|decline`: whether an offered draw is considered at all.
    pub accept_draws: bool,
    /// `draw offer|nooffer`: whether wily offers draws itself.
    pub offer_draws: bool,
    /// `draw dynamic 1|0`: the draw score follows the rating difference (`rating`).
    pub dynamic_draw: bool,
    /// `rating A B`: wily's and the opponent's ratings.
    pub ratings: Option<(i32, i32)>,
    /// `output long|short`: moves in long algebraic (`Ng1f3`) rather than SAN.
    pub long_output: bool,
    /// `timebook FACTOR MOVES`: percent of extra time on the first move out of book,
    /// decaying to none over MOVES searches.
    pub timebook: (u32, u32),
    /// `trace n`: print the search tree to ply n (0: off).
    pub trace: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            tc: TimeControl::default(),
            st: None,
            sd: None,
            sn: None,
            timing: Timing::Elapsed,
            usage: 0,
            operator_time: Duration::ZERO,
            ponder: false,
            hash_bytes: 64 << 20,
            hashp_bytes: engine::eval::pawn_hash_entries(engine::eval::PAWN_HASH_DEFAULT_BYTES)
                .unwrap_or(0)
                * engine::eval::PAWN_ENTRY_BYTES,
            threads: 1,
            draw_score: 0,
            resign: 9,
            resign_count: 5,
            noise: 100_000,
            whisper: 0,
            kibitz: 0,
            display: Display::default(),
            alarm: false,
            flag: false,
            tournament: false,
            swindle: false,
            opponent_is_computer: false,
            opponent_name: None,
            pgn_scores: engine::ScoreView::Mover,
            ansi: false,
            accept_draws: true,
            offer_draws: true,
            dynamic_draw: true,
            ratings: None,
            long_output: false,
            timebook: (0, 0),
            trace: 0,
        }
    }
}

/// The draw score (centipawns, wily's side) that `rating A B` sets while dynamic draw
/// scores are on: an eighth of the opponent's rating minus wily's, the difference held
/// within 300 points (at most 37 either way). Against a stronger opponent a draw is worth
/// something; against a weaker one it counts as a small loss.
pub fn dynamic_draw_score(mine: i32, theirs: i32) -> i32 {
    (theirs.saturating_sub(mine)).clamp(-300, 300) / 8
}

/// Bytes as `64M`, `512K`, `1G`.
pub fn fmt_bytes(b: usize) -> String {
    if b >= 1 << 30 && b.is_multiple_of(1 << 30) {
        format!("{}G", b >> 30)
    } else if b >= 1 << 20 && b.is_multiple_of(1 << 20) {
        format!("{}M", b >> 20)
    } else if b >= 1 << 10 && b.is_multiple_of(1 << 10) {
        format!("{}K", b >> 10)
    } else {
        format!("{b}")
    }
}

impl Settings {
    /// The `info` command's report.
    pub fn describe(&self) -> Vec<String> {
        let onoff = |b: bool| if b { "on" } else { "off" };
        let mut v = vec![format!("time control: {}", self.tc.describe())];
        if let Some(st) = self.st {
            v.push(format!("search time: {}s per move (st)", fmt_secs(st)));
        }
        if let Some(sd) = self.sd {
            v.push(format!("search depth limit: {sd} (sd)"));
        }
        if let Some(sn) = self.sn {
            v.push(format!("search node limit: {sn} (sn)"));
        }
        v.push(format!(
            "timing: {}, usage {:+}%, operator time {}s",
            match self.timing {
                Timing::Elapsed => "elapsed",
                Timing::Cpu => "CPU",
            },
            self.usage,
            fmt_secs(self.operator_time)
        ));
        v.push(format!(
            "hash table: {}, pawn hash table: {} ({} entries per thread), threads: {}",
            fmt_bytes(self.hash_bytes),
            fmt_bytes(self.hashp_bytes),
            self.hashp_bytes / engine::eval::PAWN_ENTRY_BYTES,
            self.threads
        ));
        v.push(format!(
            "ponder: {}, draw score: {}, resign: {}",
            onoff(self.ponder),
            self.draw_score,
            if self.resign == 0 {
                "never".to_string()
            } else {
                format!("-{} pawns for {} moves", self.resign, self.resign_count)
            }
        ));
        v.push(format!(
            "noise: {}, whisper: {}, kibitz: {}",
            self.noise, self.whisper, self.kibitz
        ));
        v.push(format!(
            "alarm: {}, flag: {}, mode: {}, swindle: {}, opponent: {}{}",
            onoff(self.alarm),
            onoff(self.flag),
            if self.tournament {
                "tournament"
            } else {
                "normal"
            },
            onoff(self.swindle),
            self.opponent_name.as_deref().unwrap_or("(unnamed)"),
            if self.opponent_is_computer {
                " (computer)"
            } else {
                ""
            }
        ));
        v.push(format!(
            "draws: {}, {}, dynamic draw score {}, ratings: {}",
            if self.accept_draws {
                "accept"
            } else {
                "decline"
            },
            if self.offer_draws { "offer" } else { "nooffer" },
            onoff(self.dynamic_draw),
            self.ratings.map_or("(none)".to_string(), |(a, b)| format!(
                "wily {a}, opponent {b}"
            ))
        ));
        v.push(format!(
            "output: {}, timebook: {}",
            if self.long_output { "long" } else { "short" },
            match self.timebook {
                (0, _) | (_, 0) => "off".to_string(),
                (f, m) => format!("+{f}% decaying over {m} moves"),
            }
        ));
        v.push(format!("display: {}", self.display.listing()));
        v
    }
}

/// Parses `N`, `NK`, `NM` or `NG` into bytes (plain numbers are bytes, as in Crafty).
pub fn parse_size(s: &str) -> Result<usize, String> {
    let s = s.trim();
    let (num, mult) = match s.chars().last().map(|c| c.to_ascii_uppercase()) {
        Some('K') => (&s[..s.len() - 1], 1usize << 10),
        Some('M') => (&s[..s.len() - 1], 1usize << 20),
        Some('G') => (&s[..s.len() - 1], 1usize << 30),
        _ => (s, 1usize),
    };
    let n: usize = num
        .parse()
        .map_err(|_| format!("'{s}' is not a size (N, NK, NM or NG)"))?;
    n.checked_mul(mult)
        .filter(|&b| b <= 1usize << 40)
        .ok_or_else(|| format!("'{s}' is too large"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("64M").unwrap(), 64 << 20);
        assert_eq!(parse_size("512k").unwrap(), 512 << 10);
        assert_eq!(parse_size("1000").unwrap(), 1000);
        assert!(parse_size("M").is_err());
        assert!(parse_size("-5M").is_err());
        assert!(parse_size("99999999999G").is_err());
        assert_eq!(fmt_bytes(64 << 20), "64M");
    }

    #[test]
    fn draw_score_follows_ratings() {
        assert_eq!(dynamic_draw_score(2500, 2500), 0);
        assert_eq!(dynamic_draw_score(2300, 2500), 25);
        assert_eq!(dynamic_draw_score(2500, 2300), -25);
        assert_eq!(dynamic_draw_score(1000, 3000), 37);
        assert_eq!(dynamic_draw_score(3000, 1000), -37);
    }

    #[test]
    fn display_flags() {
        let mut d = Display::default();
        *d.flag_mut("stats").unwrap() = false;
        assert!(d.listing().contains("nostats"));
        assert!(d.flag_mut("bogus").is_none());
    }
}
