//! The bot's counters for `/metrics` ([`Metrics`]): games by result, opponent class and
//! rating, games decided on time and by forfeit, reconnects and the time spent
//! disconnected, the lag the server reports for wily's moves, wily's own time per move,
//! whispers/kibitzes dropped by the rate limit, public commands answered (by command)
//! and dropped by their rate limits, learning-store writes and their errors,
//! and the process's resident memory. One value per process, shared (`Arc`) by every
//! account's driver, which counts the events where they happen ([`Probe`]); readers
//! (the web dashboard) only call [`Metrics::render`]. Labels are fixed words and opponent
//! classes (`GM`, `IM`, `C`, `player`, a list's name): never a handle, a tell or a
//! setting. Built on `prometheus-client`, the Prometheus project's Rust client.

use crate::input::{EndKind, FinishedGame};
use crate::run::health::Health;
use crate::state::Session;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;
use std::collections::HashMap;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The content type of [`Metrics::render`]'s text (OpenMetrics 1.0 text, which Prometheus
/// scrapes as it scrapes its own text format).
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// A finished game's labels.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct GameLabels {
    /// `win`, `draw`, `loss` or `unfinished` (adjourned, aborted), from wily's side.
    result: String,
    /// The opponent's class: its list or server title (`GM`, `IM`, `C`, `player`, ...).
    class: String,
    /// `rated` or `unrated`.
    rating: String,
}

/// A public command's word.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct CommandLabels {
    command: String,
}

/// Who a decided game went to.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct OutcomeLabels {
    /// `won` or `lost`, from wily's side.
    outcome: String,
}

/// Every counter the bot keeps; see the module's doc.
pub struct Metrics {
    registry: Registry,
    games: Family<GameLabels, Counter>,
    flags: Family<OutcomeLabels, Counter>,
    forfeits: Family<OutcomeLabels, Counter>,
    reconnects: Counter,
    disconnected: Counter<f64, AtomicU64>,
    lag: Histogram,
    move_time: Histogram,
    talk_dropped: Counter,
    public_answers: Family<CommandLabels, Counter>,
    public_dropped: Counter,
    learn_writes: Counter,
    learn_errors: Counter,
    memory: Gauge,
    logged_in: Gauge,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Metrics")
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

/// Upper bounds of the lag histogram's buckets, seconds.
pub const LAG_BUCKETS: [f64; 9] = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0];
/// Upper bounds of the move-time histogram's buckets, seconds.
pub const MOVE_TIME_BUCKETS: [f64; 12] = [
    0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0,
];

impl Metrics {
    /// All counters at zero.
    pub fn new() -> Metrics {
        let mut m = Metrics {
            registry: Registry::with_prefix("wily"),
            games: Family::default(),
            flags: Family::default(),
            forfeits: Family::default(),
            reconnects: Counter::default(),
            disconnected: Counter::default(),
            lag: Histogram::new(LAG_BUCKETS),
            move_time: Histogram::new(MOVE_TIME_BUCKETS),
            talk_dropped: Counter::default(),
            public_answers: Family::default(),
            public_dropped: Counter::default(),
            learn_writes: Counter::default(),
            learn_errors: Counter::default(),
            memory: Gauge::default(),
            logged_in: Gauge::default(),
        };
        // Both outcomes from the start, so the series exist before the first such game.
        for outcome in ["won", "lost"] {
            let l = OutcomeLabels {
                outcome: outcome.into(),
            };
            let _ = m.flags.get_or_create(&l);
            let _ = m.forfeits.get_or_create(&l);
        }
        for command in config::PUBLIC_COMMANDS {
            let _ = m.public_answers.get_or_create(&CommandLabels {
                command: command.to_string(),
            });
        }
        let r = &mut m.registry;
        r.register(
            "games",
            "Finished games by result from wily's side, opponent class and rating",
            m.games.clone(),
        );
        r.register(
            "flags",
            "Games decided on time (won: the opponent's flag fell, lost: wily's)",
            m.flags.clone(),
        );
        r.register(
            "forfeits",
            "Games decided by a disconnection (forfeit or abandoned)",
            m.forfeits.clone(),
        );
        r.register(
            "reconnects",
            "Connections made after the first",
            m.reconnects.clone(),
        );
        r.register(
            "disconnected_seconds",
            "Time between losing a connection and the next login",
            m.disconnected.clone(),
        );
        r.register(
            "lag_seconds",
            "Network lag the server reports for wily's moves",
            m.lag.clone(),
        );
        r.register(
            "move_time_seconds",
            "wily's own time per move: board received to move sent",
            m.move_time.clone(),
        );
        r.register(
            "talk_dropped",
            "Whispers and kibitzes dropped by the rate limit",
            m.talk_dropped.clone(),
        );
        r.register(
            "public_answers",
            "Public commands answered, by command word",
            m.public_answers.clone(),
        );
        r.register(
            "public_dropped",
            "Public commands not answered because of the rate limits",
            m.public_dropped.clone(),
        );
        r.register(
            "learning_writes",
            "Games written to the learning store",
            m.learn_writes.clone(),
        );
        r.register(
            "learning_write_errors",
            "Games the learning store could not take",
            m.learn_errors.clone(),
        );
        r.register(
            "resident_memory_bytes",
            "The process's resident memory (RSS)",
            m.memory.clone(),
        );
        r.register(
            "accounts_logged_in",
            "Accounts logged in now",
            m.logged_in.clone(),
        );
        m
    }

    /// The text for `/metrics`; the memory and login gauges are read now. `health` is
    /// every account's.
    pub fn render(&self, health: &[Arc<Health>]) -> String {
        if let Some(rss) = resident_bytes() {
            self.memory.set(rss as i64);
        }
        self.logged_in
            .set(health.iter().filter(|h| h.logged_in()).count() as i64);
        let mut out = String::new();
        if prometheus_client::encoding::text::encode(&mut out, &self.registry).is_err() {
            out.clear();
        }
        out
    }

    /// A finished game of wily's, against an opponent of class `class`.
    pub fn game_finished(&self, f: &FinishedGame, class: &str, rated: bool) {
        let won = matches!(
            (f.record.result.as_str(), f.wily_color),
            ("1-0", cozy_chess::Color::White) | ("0-1", cozy_chess::Color::Black)
        );
        let result = match f.record.result.as_str() {
            "1/2-1/2" => "draw",
            "1-0" | "0-1" if won => "win",
            "1-0" | "0-1" => "loss",
            _ => "unfinished",
        };
        self.games
            .get_or_create(&GameLabels {
                result: result.into(),
                class: class.into(),
                rating: if rated { "rated" } else { "unrated" }.into(),
            })
            .inc();
        if result == "win" || result == "loss" {
            let outcome = OutcomeLabels {
                outcome: if won { "won" } else { "lost" }.into(),
            };
            match f.kind {
                EndKind::Time => {
                    self.flags.get_or_create(&outcome).inc();
                }
                EndKind::Disconnection => {
                    self.forfeits.get_or_create(&outcome).inc();
                }
                _ => {}
            }
        }
    }

    pub fn reconnected(&self) {
        self.reconnects.inc();
    }

    pub fn add_disconnected(&self, d: Duration) {
        self.disconnected.inc_by(d.as_secs_f64());
    }

    pub fn lag(&self, ms: u32) {
        self.lag.observe(f64::from(ms) / 1000.0);
    }

    pub fn move_time(&self, d: Duration) {
        self.move_time.observe(d.as_secs_f64());
    }

    pub fn talk_dropped(&self, n: u64) {
        if n > 0 {
            self.talk_dropped.inc_by(n);
        }
    }

    /// New public answers (`answered[i]` of `config::PUBLIC_COMMANDS[i]`) and drops.
    pub fn public(&self, answered: &[u64], dropped: u64) {
        for (word, n) in config::PUBLIC_COMMANDS.iter().zip(answered) {
            if *n > 0 {
                self.public_answers
                    .get_or_create(&CommandLabels {
                        command: word.to_string(),
                    })
                    .inc_by(*n);
            }
        }
        if dropped > 0 {
            self.public_dropped.inc_by(dropped);
        }
    }

    pub fn learning(&self, writes: u64, errors: u64) {
        if writes > 0 {
            self.learn_writes.inc_by(writes);
        }
        if errors > 0 {
            self.learn_errors.inc_by(errors);
        }
    }
}

/// The process's resident memory from `/proc/self/status` (`VmRSS`), bytes; `None` off
/// Linux.
pub fn resident_bytes() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: u64 = line
        .trim_start_matches("VmRSS:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb * 1024)
}

/// Drops since `before` given each talker's running count `now`; a talker missing from
/// `before` is new (all its drops count), a smaller count than before is a new talker
/// under the same key (a new game with the same number).
fn new_drops(before: &HashMap<(u8, u32), u64>, now: &[((u8, u32), u64)]) -> u64 {
    now.iter()
        .map(|(key, n)| since(*n, before.get(key).copied().unwrap_or(0)))
        .sum()
}

/// What a running count `now` added since it read `before`; a smaller count is a new
/// count started from zero (all of it is new).
fn since(now: u64, before: u64) -> u64 {
    if now >= before {
        now - before
    } else {
        now
    }
}

/// The driver's side of the counting: what it needs to remember between inputs to turn
/// the session's running totals into counter increments.
#[derive(Debug)]
pub struct Probe {
    pub metrics: Arc<Metrics>,
    pub health: Arc<Health>,
    /// Rate-limit drops last seen per talker (the played game's, the observer's, each
    /// watched game's).
    dropped: HashMap<(u8, u32), u64>,
    /// The game in progress: (number, opponent class, rated).
    game: Option<(u32, String, bool)>,
    /// Since when (or since the last count) the bot has been without a connection it
    /// had before.
    down_since: Option<Instant>,
    /// The last board whose lag was counted: (game, move number, side to move).
    last_lag: Option<(u32, u32, bool)>,
    /// The session's public answers (by command) and drops last seen.
    public: ([u64; 6], u64),
}

impl Probe {
    pub fn new(metrics: Arc<Metrics>, health: Arc<Health>) -> Probe {
        Probe {
            metrics,
            health,
            dropped: HashMap::new(),
            game: None,
            down_since: None,
            last_lag: None,
            public: ([0; 6], 0),
        }
    }

    /// After every input: the heartbeat, the login state and the STATUS line, new
    /// rate-limit drops, the game in progress's class.
    pub fn after_input(&mut self, s: &Session) {
        self.health.beat();
        self.health.set_logged_in(s.bot.conn.connected);
        let status = match &s.play.game {
            Some(g) => format!("playing game {}", g.number),
            None if s.bot.conn.connected => format!("logged in as {}", s.bot.conn.me),
            None => "connecting".to_string(),
        };
        self.health.set_status(&status);
        if let Some(g) = &s.play.game {
            if self.game.as_ref().map(|x| x.0) != Some(g.number) {
                let class = g.policy.profile().class.category.to_string();
                self.game = Some((g.number, class, g.rated));
            }
        }
        let mut seen: Vec<((u8, u32), u64)> = Vec::new();
        if let Some(g) = &s.play.game {
            seen.push(((0, g.number), g.talker.dropped()));
        }
        seen.push(((1, 0), s.observing.observer.talker.dropped()));
        for (n, w) in &s.observing.watch.games {
            seen.push(((2, *n), w.talker.dropped()));
        }
        self.metrics.talk_dropped(new_drops(&self.dropped, &seen));
        self.dropped = seen.into_iter().collect();
        let (answered, dropped) = (s.public.answered, s.public.dropped);
        let new: Vec<u64> = answered
            .iter()
            .zip(self.public.0)
            .map(|(n, b)| since(*n, b))
            .collect();
        self.metrics.public(&new, since(dropped, self.public.1));
        self.public = (answered, dropped);
    }

    /// The heartbeat while no input comes (connecting, waiting to reconnect); counts the
    /// time spent without the connection.
    pub fn idle_beat(&mut self) {
        self.health.beat();
        if let Some(t) = self.down_since {
            let now = Instant::now();
            self.metrics.add_disconnected(now - t);
            self.down_since = Some(now);
        }
    }

    /// A connection (and login) was made; `reconnect` when it is not the first.
    pub fn connected(&mut self, reconnect: bool) {
        self.idle_beat();
        self.down_since = None;
        if reconnect {
            self.metrics.reconnected();
        }
        self.health.set_logged_in(true);
        self.health.set_started();
    }

    /// The connection was lost (or the first attempt failed: `had` false, nothing to
    /// count yet).
    pub fn disconnected(&mut self, had: bool, wait: Duration) {
        self.health.set_logged_in(false);
        self.health.set_started();
        self.health
            .set_status(&format!("reconnecting in {} s", wait.as_secs()));
        if had && self.down_since.is_none() {
            self.down_since = Some(Instant::now());
        }
        self.health.beat();
    }

    /// A style-12 board: the lag the server reports for wily's last move in a game it
    /// plays, once per move.
    pub fn board(&mut self, b: &ics::board::Style12) {
        let Some(lag) = b.lag_ms else {
            return;
        };
        // wily has just moved: the opponent is to move in a game wily plays.
        if b.relation != ics::board::Relation::OpponentToMove {
            return;
        }
        let key = (
            b.game,
            b.move_number,
            b.side_to_move == ics::board::Color::White,
        );
        if self.last_lag != Some(key) {
            self.last_lag = Some(key);
            self.metrics.lag(lag);
        }
    }

    /// A game of wily's ended.
    pub fn game_over(&mut self, f: &FinishedGame) {
        let (class, rated) = match self.game.take() {
            Some((_, class, rated)) => (class, rated),
            None => ("player".to_string(), false),
        };
        self.metrics.game_finished(f, &class, rated);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn talk_drops_count_once_across_talkers_and_games() {
        let mut before = HashMap::new();
        assert_eq!(new_drops(&before, &[((0, 5), 2), ((1, 0), 1)]), 3);
        before.insert((0, 5), 2);
        before.insert((1, 0), 1);
        // Nothing new, then one more in game 5 and a watched game's first two.
        assert_eq!(new_drops(&before, &[((0, 5), 2), ((1, 0), 1)]), 0);
        assert_eq!(
            new_drops(&before, &[((0, 5), 3), ((1, 0), 1), ((2, 9), 2)]),
            3
        );
        // Game 5 again after a restart of the numbering: its new talker's count.
        assert_eq!(new_drops(&before, &[((0, 5), 1)]), 1);
    }

    #[test]
    fn resident_memory_is_read_on_linux() {
        if cfg!(target_os = "linux") {
            let rss = resident_bytes().expect("VmRSS");
            assert!(rss > 1024 * 1024, "{rss}");
        }
    }

    fn finished(result: &str, wily: cozy_chess::Color, kind: EndKind) -> FinishedGame {
        FinishedGame {
            record: crate::play::record::GameRecord {
                time_control: "60+0".into(),
                ..crate::play::record::GameRecord::between("a", "b", result)
            },
            start: cozy_chess::Board::default(),
            moves: Vec::new(),
            wily_color: wily,
            opponent: "b".into(),
            opponent_rating: None,
            wily_rating: None,
            kind,
            searches: Vec::new(),
        }
    }

    #[test]
    fn results_from_wilys_side_with_flags_and_forfeits() {
        use cozy_chess::Color::{Black, White};
        let m = Metrics::new();
        m.game_finished(&finished("1-0", Black, EndKind::Time), "GM", true);
        m.game_finished(
            &finished("1-0", White, EndKind::Disconnection),
            "player",
            false,
        );
        m.game_finished(&finished("0-1", Black, EndKind::Time), "player", false);
        m.game_finished(&finished("1/2-1/2", White, EndKind::Draw), "computer", true);
        m.game_finished(&finished("*", White, EndKind::Adjourned), "player", true);
        let text = m.render(&[]);
        for line in [
            "wily_games_total{result=\"loss\",class=\"GM\",rating=\"rated\"} 1",
            "wily_games_total{result=\"win\",class=\"player\",rating=\"unrated\"} 2",
            "wily_games_total{result=\"draw\",class=\"computer\",rating=\"rated\"} 1",
            "wily_games_total{result=\"unfinished\",class=\"player\",rating=\"rated\"} 1",
            "wily_flags_total{outcome=\"lost\"} 1",
            "wily_flags_total{outcome=\"won\"} 1",
            "wily_forfeits_total{outcome=\"won\"} 1",
            "wily_forfeits_total{outcome=\"lost\"} 0",
        ] {
            assert!(text.contains(line), "{line} missing from\n{text}");
        }
    }

    #[test]
    fn public_answers_by_command_and_drops() {
        let m = Metrics::new();
        m.public(&[2, 0, 1, 0, 0, 0], 3);
        m.public(&[1, 0, 0, 0, 0, 4], 0);
        let text = m.render(&[]);
        for line in [
            "wily_public_answers_total{command=\"help\"} 3",
            "wily_public_answers_total{command=\"record\"} 1",
            "wily_public_answers_total{command=\"eval\"} 4",
            "wily_public_answers_total{command=\"info\"} 0",
            "wily_public_dropped_total 3",
        ] {
            assert!(text.contains(line), "{line} missing from\n{text}");
        }
    }

    #[test]
    fn render_names_every_family_with_the_prefix() {
        let m = Metrics::new();
        m.reconnected();
        m.lag(120);
        m.move_time(Duration::from_millis(300));
        m.learning(2, 1);
        let text = m.render(&[]);
        for name in [
            "wily_reconnects_total 1",
            "wily_lag_seconds_count 1",
            "wily_lag_seconds_bucket{le=\"0.25\"} 1",
            "wily_lag_seconds_bucket{le=\"0.1\"} 0",
            "wily_move_time_seconds_sum 0.3",
            "wily_learning_writes_total 2",
            "wily_learning_write_errors_total 1",
            "wily_talk_dropped_total 0",
            "wily_public_answers_total{command=\"eval\"} 0",
            "wily_public_dropped_total 0",
            "wily_accounts_logged_in 0",
            "wily_flags_total{outcome=\"won\"} 0",
            "wily_forfeits_total{outcome=\"lost\"} 0",
        ] {
            assert!(text.contains(name), "{name} missing from\n{text}");
        }
        // No game yet: no series of games.
        assert!(!text.contains("wily_games_total"), "{text}");
    }
}
