//! Time controls and game clocks shared by the console and the xboard front end.
//!
//! A [`TimeControl`] says how much time each side gets (`level`, `time 40/120/sd/30`,
//! Fischer increments); [`Clocks`] counts down both sides' time during a game and knows how
//! many moves remain to the next control. Parsing errors are plain messages for the user.

use cozy_chess::Color;
use std::time::Duration;

/// One period of a time control: `moves` moves (0 = the rest of the game) in `time`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Period {
    pub moves: u32,
    pub time: Duration,
}

/// A complete time control: the first period, an optional period repeated after it (the
/// first period repeats when absent), and an increment added after every move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub first: Period,
    pub second: Option<Period>,
    pub increment: Duration,
}

impl Default for TimeControl {
    /// 60 moves in 30 minutes, repeating: the console default.
    fn default() -> Self {
        TimeControl {
            first: Period {
                moves: 60,
                time: Duration::from_secs(30 * 60),
            },
            second: None,
            increment: Duration::ZERO,
        }
    }
}

impl TimeControl {
    /// Sudden death in `time` with `increment` per move.
    pub fn sudden_death(time: Duration, increment: Duration) -> Self {
        TimeControl {
            first: Period { moves: 0, time },
            second: None,
            increment,
        }
    }

    /// The period in force after `moves_made` moves by one side, and the moves made
    /// inside it so far.
    fn period_at(&self, moves_made: u32) -> (Period, u32) {
        if self.first.moves == 0 || moves_made < self.first.moves {
            return (self.first, moves_made);
        }
        let after = moves_made - self.first.moves;
        let next = self.second.unwrap_or(self.first);
        if next.moves == 0 {
            (next, after)
        } else {
            (next, after % next.moves)
        }
    }

    /// Moves left to the next control after `moves_made` moves, `None` in sudden death.
    pub fn moves_to_go(&self, moves_made: u32) -> Option<u32> {
        let (p, inside) = self.period_at(moves_made);
        (p.moves > 0).then(|| p.moves - inside)
    }

    /// Time added to a clock after its side completes move number `moves_made` (counting
    /// from 1): the next period's time when a control is reached, else nothing.
    pub fn time_added_after(&self, moves_made: u32) -> Duration {
        if moves_made == 0 {
            return Duration::ZERO;
        }
        let (p, inside) = self.period_at(moves_made);
        if p.moves > 0 && inside == 0 {
            p.time
        } else if self.first.moves > 0 && self.second.is_some() && moves_made == self.first.moves {
            // Entering a sudden-death second period.
            p.time
        } else {
            Duration::ZERO
        }
    }

    /// Crafty-style description, e.g. `60 moves/30:00, then sd/15:00, +2s`.
    pub fn describe(&self) -> String {
        let period = |p: &Period| {
            if p.moves == 0 {
                format!("sd/{}", fmt_minutes(p.time))
            } else {
                format!("{} moves/{}", p.moves, fmt_minutes(p.time))
            }
        };
        let mut s = period(&self.first);
        if let Some(p) = &self.second {
            s.push_str(", then ");
            s.push_str(&period(p));
        } else if self.first.moves > 0 {
            s.push_str(" (repeating)");
        }
        if !self.increment.is_zero() {
            s.push_str(&format!(", +{}s", fmt_secs(self.increment)));
        }
        s
    }
}

/// `m:ss` for a duration.
pub fn fmt_minutes(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}", s / 60, s % 60)
}

/// Seconds with up to two decimals and no trailing zeros.
pub fn fmt_secs(d: Duration) -> String {
    let v = d.as_secs_f64();
    let s = format!("{v:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A non-negative number of seconds (`2`, `0.5`).
pub fn parse_seconds(s: &str) -> Result<Duration, String> {
    let v: f64 = s
        .parse()
        .map_err(|_| format!("'{s}' is not a number of seconds"))?;
    if !v.is_finite() || !(0.0..=1.0e7).contains(&v) {
        return Err(format!("'{s}' is out of range (0 to 10000000 seconds)"));
    }
    Ok(Duration::from_secs_f64(v))
}

/// Minutes as `5`, `1.5` or `m:ss` (`0:30`).
pub fn parse_minutes(s: &str) -> Result<Duration, String> {
    if let Some((m, sec)) = s.split_once(':') {
        let m: u64 = m
            .parse()
            .map_err(|_| format!("'{s}' is not minutes (m or m:ss)"))?;
        let sec: u64 = sec
            .parse()
            .map_err(|_| format!("'{s}' is not minutes (m or m:ss)"))?;
        if sec >= 60 || m > 100_000 {
            return Err(format!("'{s}' is not a valid m:ss time"));
        }
        return Ok(Duration::from_secs(m * 60 + sec));
    }
    let v: f64 = s
        .parse()
        .map_err(|_| format!("'{s}' is not a number of minutes"))?;
    if !v.is_finite() || !(0.0..=100_000.0).contains(&v) {
        return Err(format!("'{s}' is out of range (0 to 100000 minutes)"));
    }
    Ok(Duration::from_secs_f64(v * 60.0))
}

fn parse_moves(s: &str) -> Result<u32, String> {
    let n: u32 = s
        .parse()
        .map_err(|_| format!("'{s}' is not a number of moves"))?;
    if n > 10_000 {
        return Err(format!("'{s}' moves is out of range"));
    }
    Ok(n)
}

/// `level MOVES MINUTES INCREMENT` (xboard's form; MOVES 0 = sudden death).
pub fn parse_level(args: &[&str]) -> Result<TimeControl, String> {
    let [m, t, inc] = args else {
        return Err(
            "usage: level MOVES MINUTES INCREMENT (e.g. level 40 5 0, level 0 2 12)".into(),
        );
    };
    let moves = parse_moves(m)?;
    let time = parse_minutes(t)?;
    let increment = parse_seconds(inc)?;
    if time.is_zero() && increment.is_zero() {
        return Err("level: a time control needs a base time or an increment".into());
    }
    Ok(TimeControl {
        first: Period { moves, time },
        second: None,
        increment,
    })
}

/// The `time` command's control forms: `60/30`, `60/30/sd/30`, `40/120/20/60`, `sd/15`,
/// `sd/2/12` (minutes; a last lone number is the increment in seconds).
pub fn parse_time_form(spec: &str) -> Result<TimeControl, String> {
    let bad = || {
        format!(
            "'{spec}' is not a time control (forms: 60/30, 60/30/sd/30, 40/120/20/60, sd/15, sd/2/12)"
        )
    };
    let parts: Vec<&str> = spec.split('/').collect();
    let mut periods = Vec::new();
    let mut i = 0;
    let mut increment = Duration::ZERO;
    while i < parts.len() {
        let rest = parts.len() - i;
        if parts[i].eq_ignore_ascii_case("sd") {
            let t = parts.get(i + 1).ok_or_else(bad)?;
            periods.push(Period {
                moves: 0,
                time: parse_minutes(t)?,
            });
            i += 2;
            if let Some(inc) = parts.get(i) {
                increment = parse_seconds(inc)?;
                i += 1;
            }
            if i != parts.len() {
                return Err(bad());
            }
        } else if rest >= 2 {
            periods.push(Period {
                moves: parse_moves(parts[i]).map_err(|_| bad())?,
                time: parse_minutes(parts[i + 1])?,
            });
            i += 2;
        } else if !periods.is_empty() {
            increment = parse_seconds(parts[i])?;
            i += 1;
        } else {
            return Err(bad());
        }
    }
    if periods.is_empty() || periods.len() > 2 {
        return Err(bad());
    }
    if periods[0].moves == 0 && periods.len() > 1 {
        return Err(bad());
    }
    Ok(TimeControl {
        first: periods[0],
        second: periods.get(1).copied(),
        increment,
    })
}

/// How the computer's thinking time is charged (`time CPU|elapsed`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timing {
    Elapsed,
    Cpu,
}

/// Both sides' clocks in milliseconds (negative once a flag has fallen) and the number of
/// moves each side has completed in this game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clocks {
    pub remaining_ms: [i64; 2],
    pub moves_made: [u32; 2],
    /// Moves to the next control when set explicitly (`settc`), overriding the control.
    pub moves_to_go_override: [Option<u32>; 2],
}

fn idx(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl Clocks {
    /// Fresh clocks at the start of a game under `tc`.
    pub fn new(tc: &TimeControl) -> Self {
        let ms = tc.first.time.as_millis() as i64;
        Clocks {
            remaining_ms: [ms, ms],
            moves_made: [0, 0],
            moves_to_go_override: [None, None],
        }
    }

    pub fn remaining(&self, c: Color) -> i64 {
        self.remaining_ms[idx(c)]
    }

    pub fn set_remaining(&mut self, c: Color, ms: i64) {
        self.remaining_ms[idx(c)] = ms;
    }

    /// Moves `c` must still make before the next control (None = sudden death).
    pub fn moves_to_go(&self, tc: &TimeControl, c: Color) -> Option<u32> {
        self.moves_to_go_override[idx(c)].or_else(|| tc.moves_to_go(self.moves_made[idx(c)]))
    }

    /// Charges `used` to `c` after it moved; adds the increment and any new period.
    pub fn charge(&mut self, tc: &TimeControl, c: Color, used: Duration) {
        let i = idx(c);
        self.remaining_ms[i] -= used.as_millis() as i64;
        self.moves_made[i] += 1;
        self.remaining_ms[i] += tc.increment.as_millis() as i64;
        if let Some(n) = self.moves_to_go_override[i] {
            if n <= 1 {
                // The control set by `settc` is reached: the next period begins.
                self.moves_to_go_override[i] = None;
                let next = tc.second.unwrap_or(tc.first);
                self.remaining_ms[i] += next.time.as_millis() as i64;
            } else {
                self.moves_to_go_override[i] = Some(n - 1);
            }
            return;
        }
        self.remaining_ms[i] += tc.time_added_after(self.moves_made[i]).as_millis() as i64;
    }

    /// Takes back one move of `c` (the time spent is not refunded, as on a real clock).
    pub fn unmake(&mut self, c: Color) {
        let i = idx(c);
        self.moves_made[i] = self.moves_made[i].saturating_sub(1);
    }
}

/// Formats milliseconds as `m:ss` (with a minus sign once negative).
pub fn fmt_clock(ms: i64) -> String {
    let sign = if ms < 0 { "-" } else { "" };
    let s = ms.unsigned_abs() / 1000;
    format!("{sign}{}:{:02}", s / 60, s % 60)
}

/// CPU time this process has used so far (Linux `/proc`), if it can be read.
pub fn process_cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which may contain spaces) start after the last ')'.
    let rest = stat.get(stat.rfind(')')? + 1..)?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 overall: 12th and 13th after the name.
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    // Linux reports these in clock ticks of 1/100 s on every common configuration.
    Some(Duration::from_millis((utime + stime) * 10))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_forms() {
        let tc = parse_level(&["40", "5", "0"]).unwrap();
        assert_eq!(tc.first.moves, 40);
        assert_eq!(tc.first.time, Duration::from_secs(300));
        let tc = parse_level(&["0", "0:30", "2.5"]).unwrap();
        assert_eq!(tc.first.time, Duration::from_secs(30));
        assert_eq!(tc.increment, Duration::from_millis(2500));
        assert!(parse_level(&["x", "5", "0"]).is_err());
        assert!(parse_level(&["40", "5"]).is_err());
        assert!(parse_level(&["40", "0", "0"]).is_err());
        assert!(parse_level(&["40", "1:99", "0"]).is_err());
    }

    #[test]
    fn time_forms() {
        let tc = parse_time_form("60/30/sd/30").unwrap();
        assert_eq!(tc.first.moves, 60);
        assert_eq!(tc.second.unwrap().moves, 0);
        let tc = parse_time_form("sd/2/12").unwrap();
        assert_eq!(tc.first.moves, 0);
        assert_eq!(tc.first.time, Duration::from_secs(120));
        assert_eq!(tc.increment, Duration::from_secs(12));
        let tc = parse_time_form("40/120/20/60").unwrap();
        assert_eq!(tc.second.unwrap().moves, 20);
        assert_eq!(parse_time_form("sd/15").unwrap().first.moves, 0);
        assert!(parse_time_form("sd").is_err());
        assert!(parse_time_form("60").is_err());
        assert!(parse_time_form("sd/5/sd/5").is_err());
        assert!(parse_time_form("a/b").is_err());
    }

    #[test]
    fn clocks_follow_controls() {
        let tc = parse_time_form("2/10/sd/5").unwrap();
        let mut c = Clocks::new(&tc);
        assert_eq!(c.moves_to_go(&tc, Color::White), Some(2));
        c.charge(&tc, Color::White, Duration::from_secs(60));
        assert_eq!(c.remaining(Color::White), 9 * 60_000);
        assert_eq!(c.moves_to_go(&tc, Color::White), Some(1));
        c.charge(&tc, Color::White, Duration::from_secs(60));
        // Control reached: the sudden-death period's 5 minutes are added.
        assert_eq!(c.remaining(Color::White), 13 * 60_000);
        assert_eq!(c.moves_to_go(&tc, Color::White), None);
        c.charge(&tc, Color::White, Duration::from_secs(60));
        assert_eq!(c.remaining(Color::White), 12 * 60_000);
    }

    #[test]
    fn repeating_control_and_increment() {
        let tc = parse_level(&["2", "1", "1"]).unwrap();
        let mut c = Clocks::new(&tc);
        c.charge(&tc, Color::Black, Duration::from_secs(10));
        c.charge(&tc, Color::Black, Duration::from_secs(10));
        assert_eq!(c.remaining(Color::Black), 60_000 - 20_000 + 2_000 + 60_000);
        assert_eq!(c.moves_to_go(&tc, Color::Black), Some(2));
    }

    #[test]
    fn formatting() {
        assert_eq!(fmt_clock(125_000), "2:05");
        assert_eq!(fmt_clock(-3_000), "-0:03");
        assert_eq!(fmt_secs(Duration::from_millis(2500)), "2.5");
        assert_eq!(
            TimeControl::default().describe(),
            "60 moves/30:00 (repeating)"
        );
    }

    #[test]
    fn cpu_time_is_readable_on_linux() {
        if cfg!(target_os = "linux") {
            assert!(process_cpu_time().is_some());
        }
    }
}
