//! Time management: turns the clock situation (sudden death, increment, moves to go, fixed
//! time per move) into a soft limit (when to stop starting/continuing iterations, scaled by
//! how unstable the search looks) and a hard limit the search never passes.

use super::limits::Limits;
use cozy_chess::Color;
use std::time::{Duration, Instant};

/// Clock budget of one search.
#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    /// Target time; `None` = no clock limit.
    soft: Option<Duration>,
    /// Absolute limit; `None` = no clock limit.
    hard: Option<Duration>,
    /// Fixed time per move: use all of it (no early stop between iterations).
    fixed: bool,
}

impl TimeManager {
    /// Budget for `limits` with `stm` to move; `overhead` is kept back for lag (of a fixed
    /// time per move, at most a tenth).
    pub fn new(limits: &Limits, stm: Color, overhead: Duration, start: Instant) -> TimeManager {
        let min = Duration::from_millis(1);
        if let Some(mt) = limits.movetime {
            // The overhead is kept back for lag, but never more than a tenth of a fixed
            // move time: `go movetime 50` with the default 50 ms overhead would otherwise
            // leave a millisecond to think.
            let t = mt.saturating_sub(overhead.min(mt / 10)).max(min);
            return TimeManager {
                start,
                soft: Some(t),
                hard: Some(t),
                fixed: true,
            };
        }
        let (time, inc) = match stm {
            Color::White => (limits.wtime, limits.winc),
            Color::Black => (limits.btime, limits.binc),
        };
        let Some(time) = time else {
            return TimeManager {
                start,
                soft: None,
                hard: None,
                fixed: false,
            };
        };
        let inc = inc.unwrap_or(Duration::ZERO);
        let avail = time.saturating_sub(overhead).max(min);
        // Without a move count the clock is spread over 20 moves (30 lost to it on the
        // clock: SPRT [0, 10] at 5+0.05, 1037 games, +20.9 Elo).
        let mtg = limits.movestogo.map_or(20, |m| m.clamp(1, 60));
        // Time we expect to have for the next `mtg` moves, spread evenly.
        let total = avail + inc * (mtg - 1).min(30);
        let optimum = total / mtg;
        let cap = if mtg == 1 {
            avail.mul_f64(0.85)
        } else {
            avail.mul_f64(0.7)
        };
        let hard = (optimum * 5).min(cap).max(min);
        let soft = optimum.mul_f64(0.85).min(hard);
        TimeManager {
            start,
            soft: Some(soft),
            hard: Some(hard),
            fixed: false,
        }
    }

    /// No clock limit (depth, nodes, infinite, ...).
    pub fn unlimited(start: Instant) -> TimeManager {
        TimeManager {
            start,
            soft: None,
            hard: None,
            fixed: false,
        }
    }

    pub fn start(&self) -> Instant {
        self.start
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    pub fn soft(&self) -> Option<Duration> {
        self.soft
    }

    pub fn hard(&self) -> Option<Duration> {
        self.hard
    }

    pub fn is_limited(&self) -> bool {
        self.hard.is_some()
    }

    /// True once the hard limit has passed.
    #[inline]
    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|h| self.start.elapsed() >= h)
    }

    /// Whether to stop after a finished iteration: `scale` stretches the soft limit
    /// (above 1 when the best move is unstable or the score dropped, below when obvious;
    /// 0 for a forced move). Also stops when the next iteration would most likely not
    /// finish in time. A fixed time per move is used in full.
    pub fn soft_expired(&self, scale: f64) -> bool {
        let Some(soft) = self.soft else {
            return false;
        };
        if scale <= 0.0 {
            return true;
        }
        if self.fixed {
            // Fixed time per move: used in full.
            return false;
        }
        let target = soft.mul_f64(scale.clamp(0.2, 3.0));
        let e = self.start.elapsed();
        e >= target.mul_f64(0.6) || self.hard.is_some_and(|h| e >= h.mul_f64(0.5))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Option<Duration> {
        Some(Duration::from_millis(n))
    }

    #[test]
    fn budgets_stay_inside_the_clock() {
        let now = Instant::now();
        let oh = Duration::from_millis(50);
        let sudden = Limits {
            wtime: ms(60_000),
            btime: ms(60_000),
            ..Limits::default()
        };
        let tm = TimeManager::new(&sudden, Color::White, oh, now);
        let (s, h) = (tm.soft().expect("soft"), tm.hard().expect("hard"));
        assert!(s <= h && h < Duration::from_millis(60_000));
        assert!(s >= Duration::from_millis(1000) && s <= Duration::from_millis(4000));
        // Sudden death is spread over 20 moves: a soft limit of 0.85 of a twentieth.
        assert!(s >= Duration::from_millis(2500) && s <= Duration::from_millis(2600));
        // Tiny clock with a big increment: the hard limit still fits the clock.
        let low = Limits {
            btime: ms(120),
            binc: ms(2000),
            ..Limits::default()
        };
        let tm = TimeManager::new(&low, Color::Black, oh, now);
        assert!(tm.hard().expect("hard") <= Duration::from_millis(70));
        // Last move before the time control may use most of the remaining time.
        let last = Limits {
            wtime: ms(10_000),
            movestogo: Some(1),
            ..Limits::default()
        };
        let tm = TimeManager::new(&last, Color::White, oh, now);
        let h = tm.hard().expect("hard");
        assert!(h >= Duration::from_millis(5000) && h < Duration::from_millis(9_950));
        // Fixed time per move honours the overhead.
        let tm = TimeManager::new(
            &Limits::movetime(Duration::from_secs(1)),
            Color::White,
            oh,
            now,
        );
        assert_eq!(tm.hard(), ms(950));
        // A short fixed time keeps back at most a tenth of itself.
        for (movetime, expect) in [(100, 90), (50, 45), (500, 450), (1, 1)] {
            let tm = TimeManager::new(
                &Limits::movetime(Duration::from_millis(movetime)),
                Color::White,
                oh,
                now,
            );
            assert_eq!(tm.hard(), ms(expect), "movetime {movetime}");
        }
        // Depth-only search has no clock.
        let tm = TimeManager::new(&Limits::depth(5), Color::White, oh, now);
        assert!(!tm.is_limited());
    }
}
