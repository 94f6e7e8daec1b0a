//! Chess clocks of the local server, as the lasker server runs them: Fischer
//! increments, the first move of each side untimed (the clock starts ticking
//! once both sides have moved), millisecond bookkeeping, negative times kept.

use cozy_chess::Color;
use std::time::Instant;

/// One game's two clocks.
#[derive(Debug, Clone)]
pub struct Clock {
    white_ms: i64,
    black_ms: i64,
    inc_ms: i64,
    untimed: bool,
    /// Side whose clock runs, and since when; `None` while stopped.
    running: Option<(Color, Instant)>,
}

impl Clock {
    /// Clocks for `base` minutes plus `inc` seconds a move. `0 0` is untimed;
    /// `0 N` gives each side `zero_base_ms` to start (FICS: 10 seconds).
    pub fn new(base_min: u32, inc_sec: u32, zero_base_ms: i64) -> Clock {
        let untimed = base_min == 0 && inc_sec == 0;
        let start = if base_min == 0 {
            zero_base_ms
        } else {
            i64::from(base_min) * 60_000
        };
        Clock {
            white_ms: start,
            black_ms: start,
            inc_ms: i64::from(inc_sec) * 1000,
            untimed,
            running: None,
        }
    }

    /// Whether the game has no clocks.
    pub fn untimed(&self) -> bool {
        self.untimed
    }

    /// Whether a clock is running now.
    pub fn ticking(&self) -> bool {
        self.running.is_some()
    }

    /// Time left for `color` at `now` (negative once it has run out).
    pub fn remaining(&self, color: Color, now: Instant) -> i64 {
        let stored = match color {
            Color::White => self.white_ms,
            Color::Black => self.black_ms,
        };
        match self.running {
            Some((c, since)) if c == color => stored - elapsed_ms(since, now),
            _ => stored,
        }
    }

    fn stored_mut(&mut self, color: Color) -> &mut i64 {
        match color {
            Color::White => &mut self.white_ms,
            Color::Black => &mut self.black_ms,
        }
    }

    /// Start `color`'s clock at `now` (stopping the other one first).
    pub fn start(&mut self, color: Color, now: Instant) {
        if self.untimed {
            return;
        }
        self.stop(now);
        self.running = Some((color, now));
    }

    /// Stop the running clock, charging the time used so far.
    pub fn stop(&mut self, now: Instant) {
        if let Some((c, since)) = self.running.take() {
            let used = elapsed_ms(since, now);
            *self.stored_mut(c) -= used;
        }
    }

    /// `mover` has moved at `now`. `timed`: whether this move counts (not one
    /// of the two first moves). Returns the time the move took, in ms.
    /// After the move the opponent's clock runs when `start_next` is set.
    pub fn on_move(&mut self, mover: Color, now: Instant, timed: bool, start_next: bool) -> i64 {
        let mut took = 0;
        if let Some((c, since)) = self.running.take() {
            let used = elapsed_ms(since, now);
            *self.stored_mut(c) -= used;
            if c == mover {
                took = used;
            }
        }
        if timed && !self.untimed {
            let inc = self.inc_ms;
            *self.stored_mut(mover) += inc;
        }
        if start_next && !self.untimed {
            self.running = Some((!mover, now));
        }
        took
    }
}

fn elapsed_ms(since: Instant, now: Instant) -> i64 {
    i64::try_from(now.saturating_duration_since(since).as_millis()).unwrap_or(i64::MAX / 4)
}

/// Seconds as style 12 shows them without `ms` (rounded toward minus infinity,
/// so any negative time shows as negative).
pub fn whole_seconds(ms: i64) -> i64 {
    ms.div_euclid(1000)
}

/// `m:ss` (lasker's move-time and clock display); negative as `-m:ss`.
pub fn min_sec(ms: i64) -> String {
    let neg = ms < 0;
    let secs = (ms.unsigned_abs() + 500) / 1000;
    format!(
        "{}{}:{:02}",
        if neg { "-" } else { "" },
        secs / 60,
        secs % 60
    )
}

/// `m:ss.mmm`, the move time in style 12 when `ms` is set.
pub fn min_sec_ms(ms: i64) -> String {
    let neg = ms < 0;
    let a = ms.unsigned_abs();
    format!(
        "{}{}:{:02}.{:03}",
        if neg { "-" } else { "" },
        a / 60_000,
        (a / 1000) % 60,
        a % 1000
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn first_moves_untimed_then_increment() {
        let t0 = Instant::now();
        let ms = |s: u64| t0 + Duration::from_millis(s);
        let mut c = Clock::new(2, 12, 10_000);
        // White's and Black's first moves are free; Black's starts White's clock.
        assert_eq!(c.on_move(Color::White, ms(5000), false, false), 0);
        assert!(!c.ticking());
        assert_eq!(c.on_move(Color::Black, ms(9000), false, true), 0);
        assert!(c.ticking());
        assert_eq!(c.remaining(Color::White, ms(10_000)), 119_000);
        let took = c.on_move(Color::White, ms(10_000), true, true);
        assert_eq!(took, 1000);
        assert_eq!(c.remaining(Color::White, ms(20_000)), 131_000);
        assert_eq!(c.remaining(Color::Black, ms(20_000)), 110_000);
        c.stop(ms(20_000));
        assert_eq!(c.remaining(Color::Black, ms(90_000)), 110_000);
    }

    #[test]
    fn formats() {
        assert_eq!(min_sec(300_000), "5:00");
        assert_eq!(min_sec(1_400), "0:01");
        assert_eq!(min_sec(-5_000), "-0:05");
        assert_eq!(min_sec_ms(61_234), "1:01.234");
        assert_eq!(whole_seconds(-1), -1);
        assert_eq!(whole_seconds(59_999), 59);
        let c = Clock::new(0, 0, 10_000);
        assert!(c.untimed());
        let c = Clock::new(0, 5, 10_000);
        assert_eq!(c.remaining(Color::White, Instant::now()), 10_000);
    }
}
