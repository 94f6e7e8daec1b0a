//! The soak's figures and how they are printed; [`SoakReport::problems`] lists every
//! must-be-0 figure that is not 0 (and a run that did not finish its games).

use super::proxy::ProxyCounts;
use std::fmt;
use std::time::Duration;

/// Everything a soak measured.
#[derive(Debug, Clone, Default)]
pub struct SoakReport {
    /// Games asked for, pairs, time control, bot search depth, seed.
    pub games_target: u32,
    pub pairs: u32,
    pub base: u32,
    pub inc: u32,
    pub depth: u32,
    pub seed: u64,
    /// The soak spoke ICC's level 2 (its faults are datagrams).
    pub icc: bool,
    /// Games the server scored (a result other than `*`).
    pub completed: usize,
    /// The bots' own totals over all their runs.
    pub bot_games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Bot runs (more than the pairs after adjournments by agreement), reconnections.
    pub bot_runs: u32,
    pub reconnects: u32,
    /// Adjourned games continued, and finished games that had been adjourned.
    pub resumptions: u32,
    pub finished_after_resume: usize,
    /// Adjournments by agreement, by a dropped bot, by the server restart.
    pub adjourned_agreed: u32,
    pub adjourned_dropped: u32,
    pub adjourned_shutdown: u32,
    /// Faults: the proxies' counts and the planned ones fired.
    pub proxy: ProxyCounts,
    pub planned_drops: u32,
    pub planned_cut_drops: u32,
    pub adjourn_requests: u32,
    pub restarts: u32,
    pub unfired: u32,
    /// Panics (hook and tasks) and bot runs that ended in an error.
    pub crashes: u32,
    /// Games the server scored as lost on time by a bot; those where the server's clock
    /// for the bot was still positive when the flag fell.
    pub wily_time_forfeits: usize,
    pub positive_clock_forfeits: usize,
    /// The bots' own count of games lost on time.
    pub bot_time_losses: u32,
    /// Server-scored games missing from the PGN archives / learning stores, and entries
    /// there that the server did not score (a game recorded twice, or a mismatch).
    pub missing_pgn: usize,
    pub missing_store: usize,
    pub extra_pgn: usize,
    pub extra_store: usize,
    /// The missing games, one line each (players, result, reason, plies, resumptions,
    /// and where it is missing), so that a failed soak says which game it lost.
    pub missing_games: Vec<String>,
    /// PGN games or store rows that could not be replayed.
    pub unreadable: usize,
    /// Adjourned games never resumed by the end.
    pub unresumed: usize,
    /// Resident memory in KiB: at the start, after the warm-up games, at the end.
    pub rss_start_kib: u64,
    pub rss_warm_kib: u64,
    pub rss_end_kib: u64,
    pub warmup_games: u32,
    /// The bots' reaction times (board received -> move sent), one line per move source.
    pub reactions: String,
    pub wall: Duration,
    /// The time limit ran out before the games were played.
    pub timed_out: bool,
    /// The bots' `/metrics` counters, read back at the end.
    pub counters: crate::counters::Counters,
}

impl SoakReport {
    /// Every must-be-0 figure that is not 0, worded; empty when the soak passed.
    pub fn problems(&self) -> Vec<String> {
        let mut p = Vec::new();
        let mut must = |n: usize, what: &str| {
            if n > 0 {
                p.push(format!("{what}: {n} (must be 0)"));
            }
        };
        must(self.crashes as usize, "crashes");
        must(self.wily_time_forfeits, "time forfeits by wily");
        must(
            self.positive_clock_forfeits,
            "time forfeits by wily with a positive clock",
        );
        must(self.missing_pgn, "games missing from the PGN archive");
        must(self.missing_store, "games missing from the learning store");
        must(self.unreadable, "unreadable PGN games or store rows");
        must(self.unresumed, "adjourned games never resumed");
        p.extend(self.counters.disagreements(self));
        // Memory: the end within 1.5 times what it was after the warm-up games (the first
        // 100 of a long run; a short run's warm-up is too early to hold it to).
        if self.games_target >= 200
            && self.rss_warm_kib > 0
            && self.rss_end_kib * 2 > self.rss_warm_kib * 3
        {
            p.push(format!(
                "memory grew from {} after {} games to {} at the end (more than 1.5 times)",
                mib(self.rss_warm_kib),
                self.warmup_games,
                mib(self.rss_end_kib)
            ));
        }
        if self.completed < self.games_target as usize {
            p.push(format!(
                "only {} of {} games finished{}",
                self.completed,
                self.games_target,
                if self.timed_out {
                    " before the time limit"
                } else {
                    ""
                }
            ));
        } else if self.timed_out {
            // The games asked for were played, but the run went on past them (waiting for
            // planned faults or resumptions) until the time limit stopped it.
            p.push(format!(
                "the time limit stopped the run after {} games ({} asked) with {} planned faults not fired and {} adjourned games not resumed",
                self.completed, self.games_target, self.unfired, self.unresumed
            ));
        }
        p
    }
}

fn mib(kib: u64) -> String {
    format!("{:.1} MiB", kib as f64 / 1024.0)
}

impl fmt::Display for SoakReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = self.wall.as_secs_f64();
        writeln!(
            f,
            "wily soak: {} games asked, {}, {} pairs, {}+{}, bot depth {}, seed {}",
            self.games_target,
            if self.icc {
                "ICC level-2 datagrams"
            } else {
                "FICS text"
            },
            self.pairs,
            self.base,
            self.inc,
            if self.depth == 0 {
                "by the clock".to_string()
            } else {
                self.depth.to_string()
            },
            self.seed
        )?;
        writeln!(
            f,
            "  games completed        {} (server), {} by the bots' count (+{} ={} -{}), {:.0} s wall, {:.1} games/min",
            self.completed,
            self.bot_games,
            self.wins,
            self.draws,
            self.losses,
            secs,
            self.completed as f64 * 60.0 / secs.max(0.001)
        )?;
        writeln!(
            f,
            "  games resumed          {} resumptions, {} finished games had been adjourned (by agreement {}, dropped connection {}, server restart {})",
            self.resumptions,
            self.finished_after_resume,
            self.adjourned_agreed,
            self.adjourned_dropped,
            self.adjourned_shutdown
        )?;
        writeln!(
            f,
            "  crashes                {} (must be 0; bot runs {}, reconnects {})",
            self.crashes, self.bot_runs, self.reconnects
        )?;
        writeln!(
            f,
            "  time forfeits by wily  {} (must be 0), with a positive clock on the server {} (must be 0); bots' own count {}",
            self.wily_time_forfeits, self.positive_clock_forfeits, self.bot_time_losses
        )?;
        writeln!(
            f,
            "  missing from PGN       {} (must be 0; entries the server did not score: {})",
            self.missing_pgn, self.extra_pgn
        )?;
        writeln!(
            f,
            "  missing from store     {} (must be 0; entries the server did not score: {}; unreadable {})",
            self.missing_store, self.extra_store, self.unreadable
        )?;
        for g in &self.missing_games {
            writeln!(f, "    missing: {g}")?;
        }
        writeln!(
            f,
            "  never resumed          {} adjourned games (must be 0)",
            self.unresumed
        )?;
        let c = &self.counters;
        writeln!(
            f,
            "  counters (/metrics)    games {} (+{} ={} -{}), reconnects {}, lost on time {}, learning writes {} (errors {}, must be 0){}",
            c.games,
            c.wins,
            c.draws,
            c.losses,
            c.reconnects,
            c.time_losses,
            c.learn_writes,
            c.learn_errors,
            if c.unreadable { ", UNREADABLE" } else { "" }
        )?;
        writeln!(
            f,
            "  memory (RSS)           start {}, after {} warm-up games {}, end {}",
            mib(self.rss_start_kib),
            self.warmup_games,
            mib(self.rss_warm_kib),
            mib(self.rss_end_kib)
        )?;
        let c = &self.proxy;
        let (garbage, cut) = if self.icc {
            (
                format!(
                    "datagrams malformed {}, unknown {}, out of order {}",
                    c.dg_malformed, c.dg_unknown, c.dg_out_of_order
                ),
                "datagrams",
            )
        } else {
            (format!("garbage lines {}", c.garbage), "lines")
        };
        writeln!(
            f,
            "  faults injected        {garbage}, lag spikes {}, {cut} cut (rest followed) {}, {cut} cut then dropped {}, connections dropped mid-game {}, adjournments asked {}, server restarts {}{}",
            c.lag_spikes,
            c.cut_resumed,
            c.cut_dropped,
            c.drops,
            self.adjourn_requests,
            self.restarts,
            if self.unfired > 0 {
                format!(" ({} planned faults found no game to hit)", self.unfired)
            } else {
                String::new()
            }
        )?;
        if !self.reactions.is_empty() {
            writeln!(f, "  reaction times (board received -> move sent):")?;
            for l in self.reactions.lines() {
                writeln!(f, "    {l}")?;
            }
        }
        let problems = self.problems();
        if problems.is_empty() {
            write!(f, "  verdict                PASS")
        } else {
            write!(f, "  verdict                FAIL: {}", problems.join("; "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::SoakReport;

    #[test]
    fn a_time_limit_is_told_apart_from_too_few_games() {
        let short = SoakReport {
            games_target: 10,
            completed: 7,
            timed_out: true,
            ..SoakReport::default()
        };
        assert_eq!(
            short.problems(),
            ["only 7 of 10 games finished before the time limit"]
        );
        let stuck = SoakReport {
            games_target: 10,
            completed: 22,
            timed_out: true,
            unfired: 1,
            ..SoakReport::default()
        };
        let p = stuck.problems();
        assert_eq!(p.len(), 1, "{p:?}");
        assert!(p[0].starts_with("the time limit stopped the run after 22 games (10 asked) with 1 planned faults not fired"), "{p:?}");
        let fine = SoakReport {
            games_target: 10,
            completed: 12,
            ..SoakReport::default()
        };
        assert!(fine.problems().is_empty(), "{:?}", fine.problems());
    }
}
