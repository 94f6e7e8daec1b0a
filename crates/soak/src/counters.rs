//! The bots' `/metrics` counters, read back the way a monitoring system reads them: the
//! soak gives every bot one shared [`Metrics`], renders it in the Prometheus text format
//! at the end and parses that text with an independent parser; the figures are then
//! checked against what the soak saw the bots do (their own game totals, reconnections
//! and time losses) and against the learning stores (no write errors).

use crate::report::SoakReport;
use bot::run::metrics::Metrics;
use prometheus_parse::{Scrape, Value};

/// What the counters say, summed over every bot of the soak.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Counters {
    /// `wily_games_total` over every label, and by result.
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// `wily_reconnects_total`.
    pub reconnects: u64,
    /// `wily_flags_total{outcome="lost"}`: games wily lost on time.
    pub time_losses: u64,
    /// `wily_learning_writes_total`, `wily_learning_write_errors_total`.
    pub learn_writes: u64,
    pub learn_errors: u64,
    /// The text did not parse (a bug in the exposition): every figure above is 0.
    pub unreadable: bool,
}

fn sum(scrape: &Scrape, name: &str, label: Option<(&str, &str)>) -> u64 {
    scrape
        .samples
        .iter()
        .filter(|s| s.metric == name)
        .filter(|s| label.is_none_or(|(k, v)| s.labels.get(k) == Some(v)))
        .map(|s| match s.value {
            Value::Counter(v) | Value::Gauge(v) | Value::Untyped(v) => v,
            _ => 0.0,
        })
        .sum::<f64>()
        .round() as u64
}

impl Counters {
    /// The counters of `metrics`, through its Prometheus text.
    pub fn scrape(metrics: &Metrics) -> Counters {
        Counters::parse(&metrics.render(&[]))
    }

    /// The counters in a Prometheus text exposition.
    pub fn parse(text: &str) -> Counters {
        let Ok(s) = Scrape::parse(text.lines().map(|l| Ok(l.to_string()))) else {
            return Counters {
                unreadable: true,
                ..Counters::default()
            };
        };
        let games = "wily_games_total";
        Counters {
            games: sum(&s, games, None),
            wins: sum(&s, games, Some(("result", "win"))),
            draws: sum(&s, games, Some(("result", "draw"))),
            losses: sum(&s, games, Some(("result", "loss"))),
            reconnects: sum(&s, "wily_reconnects_total", None),
            time_losses: sum(&s, "wily_flags_total", Some(("outcome", "lost"))),
            learn_writes: sum(&s, "wily_learning_writes_total", None),
            learn_errors: sum(&s, "wily_learning_write_errors_total", None),
            unreadable: false,
        }
    }

    /// Where the counters disagree with what the soak saw (`seen`: the bots' own totals of
    /// games, all, won, drawn and lost, their reconnections and games lost on time); and
    /// learning-store write errors, which must be 0. Empty when they agree.
    pub fn disagreements(&self, seen: &SoakReport) -> Vec<String> {
        let mut p = Vec::new();
        if self.unreadable {
            p.push("the /metrics text did not parse".to_string());
            return p;
        }
        let mut same = |what: &str, counted: u64, saw: u32| {
            if counted != u64::from(saw) {
                p.push(format!("/metrics counts {counted} {what}, the bots {saw}"));
            }
        };
        same("games", self.games, seen.bot_games);
        same("wins", self.wins, seen.wins);
        same("draws", self.draws, seen.draws);
        same("losses", self.losses, seen.losses);
        same("reconnects", self.reconnects, seen.reconnects);
        same("games lost on time", self.time_losses, seen.bot_time_losses);
        if self.learn_errors > 0 {
            p.push(format!(
                "/metrics counts {} learning-store write errors (must be 0)",
                self.learn_errors
            ));
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "# HELP wily_games Finished games\n\
        # TYPE wily_games counter\n\
        wily_games_total{result=\"win\",class=\"player\",rating=\"rated\"} 3\n\
        wily_games_total{result=\"draw\",class=\"computer\",rating=\"rated\"} 2\n\
        wily_games_total{result=\"loss\",class=\"player\",rating=\"unrated\"} 1\n\
        wily_games_total{result=\"unfinished\",class=\"player\",rating=\"rated\"} 1\n\
        # TYPE wily_flags counter\n\
        wily_flags_total{outcome=\"won\"} 1\n\
        wily_flags_total{outcome=\"lost\"} 1\n\
        # TYPE wily_reconnects counter\n\
        wily_reconnects_total 4\n\
        # TYPE wily_learning_writes counter\n\
        wily_learning_writes_total 6\n\
        # TYPE wily_learning_write_errors counter\n\
        wily_learning_write_errors_total 0\n\
        # EOF\n";

    #[test]
    fn reads_the_exposition_and_holds_it_against_the_bots() {
        let c = Counters::parse(TEXT);
        assert_eq!(
            (
                c.games,
                c.wins,
                c.draws,
                c.losses,
                c.reconnects,
                c.time_losses
            ),
            (7, 3, 2, 1, 4, 1)
        );
        assert_eq!((c.learn_writes, c.learn_errors), (6, 0));
        let seen = SoakReport {
            bot_games: 7,
            wins: 3,
            draws: 2,
            losses: 1,
            reconnects: 4,
            bot_time_losses: 1,
            ..SoakReport::default()
        };
        assert!(c.disagreements(&seen).is_empty());
        let off = SoakReport {
            reconnects: 5,
            ..seen
        };
        assert_eq!(
            c.disagreements(&off),
            vec!["/metrics counts 4 reconnects, the bots 5".to_string()]
        );
    }

    #[test]
    fn a_live_metrics_object_reads_back() {
        let m = Metrics::new();
        m.reconnected();
        m.reconnected();
        m.learning(3, 1);
        let c = Counters::scrape(&m);
        assert!(!c.unreadable);
        assert_eq!((c.reconnects, c.learn_writes, c.learn_errors), (2, 3, 1));
        assert_eq!(c.games, 0);
        assert_eq!(
            c.disagreements(&SoakReport {
                reconnects: 2,
                ..SoakReport::default()
            })
            .len(),
            1,
            "the write error is reported"
        );
    }
}
