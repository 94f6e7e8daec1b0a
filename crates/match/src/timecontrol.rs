//! An engine's limits in a match (`tc=40/60+0.5`, `st=1`, `depth=8`, `nodes=2000`, in
//! any combination) and the game clock the runner keeps from its own measurement.
//!
//! The clock never trusts an engine: the time between the runner writing `go` and reading
//! the engine's move is charged to that engine, and a move that takes longer than the
//! time left plus the margin loses on time.

use std::fmt;
use std::time::Duration;

/// A clock time control: `moves` moves per period (`None`: the whole game), `base` per
/// period, `inc` added after every move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    pub moves: Option<u32>,
    pub base: Duration,
    pub inc: Duration,
}

/// What limits one engine's search: any of a clock, a fixed time per move, a depth and a
/// node count (the engine stops at whichever it reaches first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Limits {
    pub clock: Option<Clock>,
    pub movetime: Option<Duration>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

/// Parses seconds: `10`, `0.5`, or `M:SS` / `M:SS.s`.
pub fn parse_seconds(text: &str) -> Result<Duration, String> {
    let bad = || format!("'{text}' is not a time in seconds (10, 0.5 or 1:30)");
    let secs = match text.split_once(':') {
        Some((m, s)) => {
            let m: u64 = m.trim().parse().map_err(|_| bad())?;
            let s: f64 = s.trim().parse().map_err(|_| bad())?;
            if !(0.0..60.0).contains(&s) {
                return Err(bad());
            }
            m as f64 * 60.0 + s
        }
        None => text.trim().parse::<f64>().map_err(|_| bad())?,
    };
    if !secs.is_finite() || !(0.0..=1.0e7).contains(&secs) {
        return Err(bad());
    }
    Ok(Duration::from_secs_f64(secs))
}

/// Formats seconds the shortest way (`10`, `0.1`, `2.25`).
pub fn format_seconds(d: Duration) -> String {
    let ms = d.as_millis();
    if ms.is_multiple_of(1000) {
        format!("{}", ms / 1000)
    } else {
        let s = format!("{:.3}", d.as_secs_f64());
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

impl Clock {
    /// Parses `BASE[+INC]` or `MOVES/BASE[+INC]` (seconds; the base may be `M:SS`).
    pub fn parse(text: &str) -> Result<Clock, String> {
        let (moves, rest) = match text.split_once('/') {
            Some((m, rest)) => {
                let m: u32 = m
                    .trim()
                    .parse()
                    .map_err(|_| format!("'{m}' is not a number of moves in '{text}'"))?;
                (if m == 0 { None } else { Some(m) }, rest)
            }
            None => (None, text),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (parse_seconds(b)?, parse_seconds(i)?),
            None => (parse_seconds(rest)?, Duration::ZERO),
        };
        if base.is_zero() && inc.is_zero() {
            return Err(format!("time control '{text}' gives no time at all"));
        }
        Ok(Clock { moves, base, inc })
    }

    /// True when the increment is not a whole number of seconds.
    pub fn fractional_increment(&self) -> bool {
        self.inc.subsec_nanos() != 0
    }
}

impl fmt::Display for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(f, "{}", format_seconds(self.base))?;
        if !self.inc.is_zero() {
            write!(f, "+{}", format_seconds(self.inc))?;
        }
        Ok(())
    }
}

impl Limits {
    /// True when nothing limits the search (an engine would think forever).
    pub fn is_unlimited(&self) -> bool {
        self.clock.is_none()
            && self.movetime.is_none()
            && self.depth.is_none()
            && self.nodes.is_none()
    }

    /// Sets the limit a `key=value` names (`tc`, `st`/`movetime`, `depth`, `nodes`);
    /// `Ok(false)` when `key` is not a limit.
    pub fn set(&mut self, key: &str, value: &str) -> Result<bool, String> {
        match key {
            "tc" => self.clock = Some(Clock::parse(value)?),
            "st" | "movetime" => {
                let d = parse_seconds(value)?;
                if d.is_zero() {
                    return Err("st must be more than 0 seconds".into());
                }
                self.movetime = Some(d);
            }
            "depth" => {
                self.depth = Some(
                    value
                        .parse()
                        .ok()
                        .filter(|&d: &u32| d > 0)
                        .ok_or_else(|| format!("depth '{value}' is not a positive number"))?,
                )
            }
            "nodes" => {
                self.nodes = Some(
                    value
                        .parse()
                        .ok()
                        .filter(|&n: &u64| n > 0)
                        .ok_or_else(|| format!("nodes '{value}' is not a positive number"))?,
                )
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Fills every limit `self` leaves open from `other` (engine settings over `-each`).
    pub fn or(self, other: Limits) -> Limits {
        Limits {
            clock: self.clock.or(other.clock),
            movetime: self.movetime.or(other.movetime),
            depth: self.depth.or(other.depth),
            nodes: self.nodes.or(other.nodes),
        }
    }
}

impl fmt::Display for Limits {
    /// The same words the command line takes: `10+0.1`, `st=1`, `depth=8`, `nodes=2000`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(c) = self.clock {
            parts.push(c.to_string());
        }
        if let Some(t) = self.movetime {
            parts.push(format!("st={}", format_seconds(t)));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth={d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n}"));
        }
        if parts.is_empty() {
            parts.push("-".into());
        }
        f.write_str(&parts.join(" "))
    }
}

/// One side's clock during a game.
#[derive(Clone, Debug)]
pub struct GameClock {
    tc: Clock,
    remaining: Duration,
    moves_made: u32,
}

/// A move that took longer than the clock allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flagged {
    /// Time the move took.
    pub used: Duration,
    /// Time that was left on the clock.
    pub left: Duration,
}

impl GameClock {
    /// A full clock at the start of a game.
    pub fn new(tc: Clock) -> Self {
        GameClock {
            tc,
            remaining: tc.base,
            moves_made: 0,
        }
    }

    /// Time left now.
    pub fn remaining(&self) -> Duration {
        self.remaining
    }

    /// Moves left in the current period (`None` in sudden death).
    pub fn moves_to_go(&self) -> Option<u32> {
        self.tc.moves.map(|m| m - self.moves_made % m)
    }

    /// The clock's increment.
    pub fn increment(&self) -> Duration {
        self.tc.inc
    }

    /// Charges a move that took `used`: past the time left plus `margin` it is a loss on
    /// time; otherwise the clock goes down (never below zero), the increment is added, and
    /// a new period's time when the move completes one.
    pub fn charge(&mut self, used: Duration, margin: Duration) -> Result<(), Flagged> {
        if used > self.remaining + margin {
            return Err(Flagged {
                used,
                left: self.remaining,
            });
        }
        self.remaining = self.remaining.saturating_sub(used) + self.tc.inc;
        self.moves_made += 1;
        if let Some(m) = self.tc.moves {
            if self.moves_made.is_multiple_of(m) {
                self.remaining += self.tc.base;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn clock_forms() {
        let c = Clock::parse("40/60+0.5").unwrap();
        assert_eq!((c.moves, c.base, c.inc), (Some(40), ms(60_000), ms(500)));
        assert_eq!(c.to_string(), "40/60+0.5");
        let c = Clock::parse("1:30+1").unwrap();
        assert_eq!((c.moves, c.base, c.inc), (None, ms(90_000), ms(1000)));
        assert_eq!(c.to_string(), "90+1");
        assert!(Clock::parse("10+0.1").unwrap().fractional_increment());
        assert!(!Clock::parse("10+1").unwrap().fractional_increment());
        for bad in ["", "x", "40/", "0+0", "-5", "1:75", "40/x+1"] {
            assert!(Clock::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn limits_combine_and_print() {
        let mut l = Limits::default();
        assert!(l.is_unlimited());
        assert!(l.set("tc", "10+0.1").unwrap());
        assert!(l.set("nodes", "2000").unwrap());
        assert!(!l.set("name", "x").unwrap());
        assert!(l.set("depth", "0").is_err());
        assert_eq!(l.to_string(), "10+0.1 nodes=2000");
        let mut each = Limits::default();
        each.set("st", "0.25").unwrap();
        each.set("nodes", "5").unwrap();
        let merged = l.or(each);
        assert_eq!(merged.to_string(), "10+0.1 st=0.25 nodes=2000");
    }

    #[test]
    fn clock_counts_periods_and_increments() {
        let mut c = GameClock::new(Clock::parse("2/10+1").unwrap());
        assert_eq!(c.moves_to_go(), Some(2));
        c.charge(ms(3000), Duration::ZERO).unwrap();
        assert_eq!(c.remaining(), ms(8000));
        assert_eq!(c.moves_to_go(), Some(1));
        c.charge(ms(8000), Duration::ZERO).unwrap();
        // Period complete: 0 left + 1 increment + 10 for the next period.
        assert_eq!(c.remaining(), ms(11_000));
        assert_eq!(c.moves_to_go(), Some(2));
    }

    #[test]
    fn flag_only_past_the_margin() {
        let mut c = GameClock::new(Clock::parse("1").unwrap());
        assert!(c.charge(ms(1040), ms(50)).is_ok());
        assert_eq!(c.remaining(), Duration::ZERO);
        let f = c.charge(ms(51), ms(50)).unwrap_err();
        assert_eq!(f.left, Duration::ZERO);
        assert_eq!(f.used, ms(51));
    }
}
