//! The outgoing queue: a token bucket limits how fast ordinary lines (whispers, tells,
//! seeks) go out, so a burst cannot get the account kicked for flooding; urgent lines
//! (moves, timeseal ping replies) jump the queue and are never held. A line about a
//! position (an iteration whisper) may carry a [`Topic`]: once the position has moved on it
//! is stale and is dropped instead of going out late ([`OutQueue::push_topical`],
//! [`OutQueue::expire`]). Pure: the caller passes the time in.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// Outgoing rate limit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RateLimit {
    /// Sustained lines per second.
    pub per_second: f64,
    /// Lines that may go out at once after a quiet spell.
    pub burst: u32,
    /// Ordinary lines waiting beyond this are dropped (and logged).
    pub max_queue: usize,
}

impl Default for RateLimit {
    fn default() -> Self {
        RateLimit {
            per_second: 2.0,
            burst: 8,
            max_queue: 256,
        }
    }
}

/// One line to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutLine {
    pub text: String,
    /// Masked in logs (the password).
    pub secret: bool,
}

/// What a line is about: `subject` (a game) in the state `version` (its position). A line
/// is stale once a line of the same subject in another version is queued, or the subject
/// is expired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Topic {
    pub subject: u64,
    pub version: u64,
}

/// The queue.
#[derive(Debug)]
pub struct OutQueue {
    limit: RateLimit,
    tokens: f64,
    last: Instant,
    urgent: VecDeque<OutLine>,
    normal: VecDeque<(OutLine, Option<Topic>)>,
    dropped: u64,
    stale: u64,
}

impl OutQueue {
    pub fn new(limit: RateLimit, now: Instant) -> OutQueue {
        let limit = RateLimit {
            per_second: if limit.per_second.is_finite() && limit.per_second > 0.0 {
                limit.per_second
            } else {
                1.0
            },
            burst: limit.burst.max(1),
            max_queue: limit.max_queue.max(1),
        };
        OutQueue {
            limit,
            tokens: f64::from(limit.burst),
            last: now,
            urgent: VecDeque::new(),
            normal: VecDeque::new(),
            dropped: 0,
            stale: 0,
        }
    }

    fn refill(&mut self, now: Instant) {
        let dt = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + dt * self.limit.per_second).min(f64::from(self.limit.burst));
    }

    /// Queues a line. Returns false when an ordinary line was dropped (queue full).
    pub fn push(&mut self, line: OutLine, urgent: bool) -> bool {
        if urgent {
            self.urgent.push_back(line);
            return true;
        }
        self.push_normal(line, None)
    }

    fn push_normal(&mut self, line: OutLine, topic: Option<Topic>) -> bool {
        if self.normal.len() >= self.limit.max_queue {
            self.dropped += 1;
            return false;
        }
        self.normal.push_back((line, topic));
        true
    }

    /// Queues an ordinary line about `topic`; the lines still waiting about the same
    /// subject in another version are stale and dropped first. Returns false when the
    /// queue was full.
    pub fn push_topical(&mut self, line: OutLine, topic: Topic) -> bool {
        self.drop_stale(|t| t.subject == topic.subject && t.version != topic.version);
        self.push_normal(line, Some(topic))
    }

    /// The subject moved on (a move was made in the game): every line still waiting about
    /// it is dropped.
    pub fn expire(&mut self, subject: u64) {
        self.drop_stale(|t| t.subject == subject);
    }

    fn drop_stale(&mut self, stale: impl Fn(&Topic) -> bool) {
        let before = self.normal.len();
        self.normal.retain(|(_, t)| !t.as_ref().is_some_and(&stale));
        self.stale += (before - self.normal.len()) as u64;
    }

    /// The next line that may go out now: urgent lines always (they still use up a token,
    /// so ordinary lines slow down after a burst of moves), ordinary ones when a token is
    /// available.
    pub fn pop(&mut self, now: Instant) -> Option<OutLine> {
        self.refill(now);
        if let Some(line) = self.urgent.pop_front() {
            self.tokens = (self.tokens - 1.0).max(-f64::from(self.limit.burst));
            return Some(line);
        }
        if self.tokens >= 1.0 {
            if let Some((line, _)) = self.normal.pop_front() {
                self.tokens -= 1.0;
                return Some(line);
            }
        }
        None
    }

    /// Every waiting line, urgent ones first, whatever the rate limit: at logout, what
    /// was said before `quit` (a goodbye, a tournament withdrawal) still goes out.
    pub fn drain(&mut self) -> Vec<OutLine> {
        let mut v: Vec<OutLine> = self.urgent.drain(..).collect();
        v.extend(self.normal.drain(..).map(|(line, _)| line));
        v
    }

    /// When the next waiting line may go out (`None`: nothing waiting).
    pub fn next_due(&self, now: Instant) -> Option<Instant> {
        if !self.urgent.is_empty() {
            return Some(now);
        }
        if self.normal.is_empty() {
            return None;
        }
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        let tokens =
            (self.tokens + elapsed * self.limit.per_second).min(f64::from(self.limit.burst));
        if tokens >= 1.0 {
            return Some(now);
        }
        let wait = (1.0 - tokens) / self.limit.per_second;
        Some(now + Duration::from_secs_f64(wait.clamp(0.0, 3600.0)))
    }

    /// Lines waiting.
    pub fn len(&self) -> usize {
        self.urgent.len() + self.normal.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Ordinary lines dropped because the queue was full.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Lines dropped because their topic moved on before they could go out.
    pub fn stale(&self) -> u64 {
        self.stale
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(s: &str) -> OutLine {
        OutLine {
            text: s.into(),
            secret: false,
        }
    }

    /// A new queue with this rate limit, and the instant it starts at.
    fn queue(per_second: f64, burst: u32, max_queue: usize) -> (OutQueue, Instant) {
        let t0 = Instant::now();
        let limit = RateLimit {
            per_second,
            burst,
            max_queue,
        };
        (OutQueue::new(limit, t0), t0)
    }

    fn drain(q: &mut OutQueue, now: Instant) -> Vec<String> {
        std::iter::from_fn(|| q.pop(now)).map(|l| l.text).collect()
    }

    #[test]
    fn logout_takes_every_waiting_line_urgent_first() {
        let (mut q, t0) = queue(1.0, 1, 100);
        q.push(line("a"), false);
        q.push(line("b"), false);
        q.push(line("tell mamer withdraw 1"), false);
        q.push(line("resign"), true);
        assert_eq!(
            drain(&mut q, t0),
            vec!["resign"],
            "the rate limit holds the rest"
        );
        let left: Vec<String> = q.drain().into_iter().map(|l| l.text).collect();
        assert_eq!(left, vec!["a", "b", "tell mamer withdraw 1"]);
        assert!(q.is_empty());
    }

    #[test]
    fn burst_then_rate() {
        let (mut q, t0) = queue(2.0, 3, 100);
        for i in 0..10 {
            q.push(line(&format!("w{i}")), false);
        }
        assert_eq!(drain(&mut q, t0), vec!["w0", "w1", "w2"]);
        assert_eq!(q.next_due(t0), Some(t0 + Duration::from_millis(500)));
        assert_eq!(
            drain(&mut q, t0 + Duration::from_millis(499)),
            Vec::<String>::new()
        );
        assert_eq!(drain(&mut q, t0 + Duration::from_millis(500)), vec!["w3"]);
        assert_eq!(
            drain(&mut q, t0 + Duration::from_millis(1500)),
            vec!["w4", "w5"]
        );
        assert_eq!(q.len(), 4);
    }

    #[test]
    fn moves_jump_the_queue_and_are_never_held() {
        let (mut q, t0) = queue(1.0, 1, 100);
        q.push(line("whisper 1"), false);
        q.push(line("whisper 2"), false);
        q.push(line("e2e4"), true);
        assert_eq!(drain(&mut q, t0), vec!["e2e4"]);
        q.push(line("d2d4"), true);
        assert_eq!(q.next_due(t0), Some(t0));
        assert_eq!(drain(&mut q, t0), vec!["d2d4"]);
        // The moves used the tokens: the whispers wait.
        assert_eq!(
            drain(&mut q, t0 + Duration::from_millis(1500)),
            Vec::<String>::new()
        );
        assert_eq!(
            drain(&mut q, t0 + Duration::from_secs(3)),
            vec!["whisper 1"]
        );
    }

    #[test]
    fn full_queue_drops_ordinary_lines_only() {
        let (mut q, _) = queue(1.0, 1, 2);
        assert!(q.push(line("a"), false));
        assert!(q.push(line("b"), false));
        assert!(!q.push(line("c"), false));
        assert!(q.push(line("e2e4"), true));
        assert_eq!(q.dropped(), 1);
        assert_eq!(q.len(), 3);
    }

    #[test]
    fn bad_limits_are_made_sane() {
        let (mut q, t0) = queue(f64::NAN, 0, 0);
        assert!(q.push(line("a"), false));
        assert_eq!(drain(&mut q, t0), vec!["a"]);
        assert!(q.is_empty());
    }

    #[test]
    fn stale_topical_lines_are_dropped_not_sent_late() {
        let (mut q, t0) = queue(1.0, 1, 100);
        let game = |version| Topic {
            subject: 7,
            version,
        };
        let other = Topic {
            subject: 9,
            version: 1,
        };
        // A fast game: the move and its whisper take every token, the iteration lines of
        // position 1 wait.
        q.push(line("e2e4"), true);
        q.push_topical(line("whisper d1 pos1"), game(1));
        q.push_topical(line("whisper d2 pos1"), game(1));
        q.push_topical(line("whisper d1 game9"), other);
        q.push(line("tell boss hi"), false);
        assert_eq!(drain(&mut q, t0), vec!["e2e4"]);
        // Position 2: its iteration line makes those of position 1 stale.
        q.push_topical(line("whisper d1 pos2"), game(2));
        assert_eq!(q.stale(), 2);
        // The move of position 2 goes out: the game's lines are all stale now.
        q.push(line("d2d4"), true);
        q.expire(7);
        assert_eq!(q.stale(), 3);
        assert_eq!(drain(&mut q, t0 + Duration::from_secs(10)), vec!["d2d4"]);
        assert_eq!(
            drain(&mut q, t0 + Duration::from_secs(20)),
            vec!["whisper d1 game9"]
        );
        assert_eq!(
            drain(&mut q, t0 + Duration::from_secs(30)),
            vec!["tell boss hi"]
        );
        assert!(q.is_empty());
        assert_eq!(
            q.dropped(),
            0,
            "stale lines are not counted as a full queue"
        );
    }
}
