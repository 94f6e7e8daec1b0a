//! Reconnection backoff: exponential delays between attempts, capped, with jitter so a
//! fleet of bots does not hammer a server that just came back.

use rand::Rng;
use std::time::Duration;

/// The delays between reconnection attempts.
#[derive(Debug, Clone)]
pub struct Backoff {
    min: Duration,
    max: Duration,
    failures: u32,
}

/// A connection that stayed up this long counts as healthy: the next drop starts the
/// backoff from the minimum again.
pub const HEALTHY_AFTER: Duration = Duration::from_secs(120);

impl Backoff {
    pub fn new(min: Duration, max: Duration) -> Backoff {
        let min = min.max(Duration::from_millis(1));
        Backoff {
            min,
            max: max.max(min),
            failures: 0,
        }
    }

    /// The delay before the next attempt: `min * 2^failures`, capped at `max`, then a
    /// random value between half of it and all of it.
    pub fn next_delay(&mut self, rng: &mut impl Rng) -> Duration {
        let exp = self.failures.min(30);
        self.failures = self.failures.saturating_add(1);
        let full = self
            .min
            .checked_mul(1u32 << exp)
            .unwrap_or(self.max)
            .min(self.max);
        let half = full / 2;
        let spread = (full - half).as_millis() as u64;
        half + Duration::from_millis(if spread == 0 {
            0
        } else {
            rng.gen_range(0..=spread)
        })
    }

    /// Attempts that failed since the last healthy connection.
    pub fn failures(&self) -> u32 {
        self.failures
    }

    /// Called when a connection ends: a long-lived one resets the backoff.
    pub fn connection_ended(&mut self, lasted: Duration) {
        if lasted >= HEALTHY_AFTER {
            self.failures = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn grows_exponentially_with_jitter_and_caps() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let mut b = Backoff::new(Duration::from_secs(5), Duration::from_secs(60));
        let bounds = [5u64, 10, 20, 40, 60, 60, 60];
        for hi in bounds {
            let d = b.next_delay(&mut rng);
            let hi = Duration::from_secs(hi);
            assert!(
                d <= hi && d >= hi / 2,
                "{d:?} not in [{:?}, {hi:?}]",
                hi / 2
            );
        }
        for _ in 0..100 {
            assert!(b.next_delay(&mut rng) <= Duration::from_secs(60));
        }
    }

    #[test]
    fn jitter_varies() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        let ds: std::collections::BTreeSet<Duration> = (0..20)
            .map(|_| {
                Backoff::new(Duration::from_secs(8), Duration::from_secs(8)).next_delay(&mut rng)
            })
            .collect();
        assert!(ds.len() > 5);
    }

    #[test]
    fn healthy_connection_resets() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        let mut b = Backoff::new(Duration::from_secs(1), Duration::from_secs(100));
        for _ in 0..5 {
            b.next_delay(&mut rng);
        }
        b.connection_ended(Duration::from_secs(3));
        assert_eq!(b.failures(), 5);
        b.connection_ended(HEALTHY_AFTER);
        assert_eq!(b.failures(), 0);
        assert!(b.next_delay(&mut rng) <= Duration::from_secs(1));
    }
}
