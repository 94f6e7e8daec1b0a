//! The standings of a match as games finish ([`Standings`]): a [`Tally`] per pairing
//! (game pairs completed as their second game comes in, whatever the order), totals per
//! engine, and the printed reports: per pairing W/D/L, points, Elo ± error, nElo, LOS,
//! draw ratio and pentanomial counts, and a table per engine for gauntlets and round
//! robins.

use super::outcome::Outcome;
use super::schedule::Job;
use super::stats::Tally;
use cozy_chess::Color;
use std::collections::HashMap;
use std::fmt::Write;

/// Results so far.
#[derive(Clone, Debug)]
pub struct Standings {
    pub names: Vec<String>,
    pub pairings: Vec<(usize, usize)>,
    /// Per pairing, from its first engine's point of view.
    pub tallies: Vec<Tally>,
    /// Whether games come in pairs (pentanomial statistics).
    pub paired: bool,
    /// Print the pentanomial counts of paired games (`-report penta=off` hides them).
    pub show_penta: bool,
    /// First games of pairs whose second game has not finished: pair → half points of
    /// the pairing's first engine.
    waiting: HashMap<usize, u32>,
}

impl Standings {
    pub fn new(names: Vec<String>, pairings: Vec<(usize, usize)>, paired: bool) -> Self {
        let n = pairings.len();
        Standings {
            names,
            pairings,
            tallies: vec![Tally::default(); n],
            paired,
            show_penta: true,
            waiting: HashMap::new(),
        }
    }

    /// Counts a finished game.
    pub fn add(&mut self, job: &Job, outcome: Outcome) {
        let first = self.pairings[job.pairing].0;
        let color = if job.white == first {
            Color::White
        } else {
            Color::Black
        };
        let half = outcome.half_points(color);
        let t = &mut self.tallies[job.pairing];
        t.add_game(half);
        if let Some(pair) = job.pair {
            match self.waiting.remove(&pair) {
                Some(other) => t.add_pair(other, half),
                None => {
                    self.waiting.insert(pair, half);
                }
            }
        }
    }

    /// Games counted so far.
    pub fn games(&self) -> u32 {
        self.tallies.iter().map(Tally::games).sum()
    }

    /// All results of engine `e`, from its point of view.
    pub fn engine_total(&self, e: usize) -> Tally {
        let mut total = Tally::default();
        for (t, &(a, b)) in self.tallies.iter().zip(&self.pairings) {
            if a == e {
                total.merge(t);
            } else if b == e {
                total.merge(&t.reversed());
            }
        }
        total
    }

    /// What the progress line and the SPRT follow: the only pairing of a two-engine
    /// match, else the first engine's total.
    pub fn headline(&self) -> Tally {
        if self.pairings.len() == 1 {
            self.tallies[0]
        } else {
            self.engine_total(0)
        }
    }

    /// The counts the SPRT uses: pentanomial when games are paired, else trinomial.
    pub fn sprt_counts(&self) -> Vec<u32> {
        let t = self.headline();
        if self.paired {
            t.penta.to_vec()
        } else {
            t.trinomial().to_vec()
        }
    }

    /// One line: `+12 =30 -10, 53.8%, Elo +26.7 ± 48.1`.
    pub fn short(&self, t: &Tally) -> String {
        let mut s = format!("+{} ={} -{}", t.wins, t.draws, t.losses);
        if t.games() > 0 {
            let _ = write!(s, ", {:.1}%", 100.0 * t.points() / t.games() as f64);
        }
        if let Some(e) = t.estimate(self.paired) {
            let _ = write!(s, ", Elo {:+.1} ± {:.1}", e.elo, e.elo_error);
        }
        s
    }

    /// The full report of one pairing (or any tally), from `who`'s point of view.
    pub fn describe(&self, title: &str, t: &Tally) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "{title}");
        let games = t.games();
        let pct = if games > 0 {
            100.0 * t.points() / games as f64
        } else {
            0.0
        };
        let _ = writeln!(
            s,
            "  Games: {games}, Wins: {}, Draws: {}, Losses: {}, Points: {:.1} ({pct:.2}%)",
            t.wins,
            t.draws,
            t.losses,
            t.points()
        );
        if let Some(e) = t.estimate(self.paired) {
            let _ = writeln!(
                s,
                "  Elo: {:+.2} ± {:.2}, nElo: {:+.2} ± {:.2}, LOS: {:.2}%, Draw ratio: {:.2}%",
                e.elo,
                e.elo_error,
                e.nelo,
                e.nelo_error,
                100.0 * e.los,
                100.0 * t.draw_ratio()
            );
        }
        if self.paired && self.show_penta {
            let p = t.penta;
            let _ = writeln!(
                s,
                "  Ptnml(0-2): [{}, {}, {}, {}, {}] (LL, LD, DD+WL, WD, WW; DD {} WL {}), {} pairs",
                p[0],
                p[1],
                p[2],
                p[3],
                p[4],
                t.dd,
                t.wl,
                t.pairs()
            );
        }
        s
    }

    /// The per-engine table (ranked by points per game).
    pub fn table(&self) -> String {
        let mut rows: Vec<(usize, Tally)> = (0..self.names.len())
            .map(|e| (e, self.engine_total(e)))
            .collect();
        let rate = |t: &Tally| {
            if t.games() == 0 {
                0.0
            } else {
                t.points() / t.games() as f64
            }
        };
        rows.sort_by(|a, b| rate(&b.1).total_cmp(&rate(&a.1)));
        let width = self.names.iter().map(String::len).max().unwrap_or(6).max(6);
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{:>4}  {:<width$}  {:>6}  {:>7}  {:>6}  {:>7}  {:>6}  {:>6}  {:>6}",
            "Rank", "Engine", "Games", "Points", "Score", "Elo", "±", "LOS", "Draws"
        );
        for (rank, (e, t)) in rows.iter().enumerate() {
            let est = t.estimate(self.paired);
            let (elo, err, los) = match est {
                Some(x) => (
                    format!("{:+.1}", x.elo),
                    format!("{:.1}", x.elo_error),
                    format!("{:.1}%", 100.0 * x.los),
                ),
                None => ("-".into(), "-".into(), "-".into()),
            };
            let _ = writeln!(
                s,
                "{:>4}  {:<width$}  {:>6}  {:>7.1}  {:>5.1}%  {:>7}  {:>6}  {:>6}  {:>5.1}%",
                rank + 1,
                self.names[*e],
                t.games(),
                t.points(),
                100.0 * rate(t),
                elo,
                err,
                los,
                100.0 * t.draw_ratio()
            );
        }
        s
    }

    /// The two lines in cutechess-cli's form that existing scripts read:
    /// `Score of A vs B: W - L - D  [0.550] N` and
    /// `Elo difference: 34.9 +/- 60.2, LOS: 87.1 %, DrawRatio: 30.0 %`.
    pub fn cutechess_lines(&self, a: &str, b: &str, t: &Tally) -> String {
        let games = t.games();
        let score = if games > 0 {
            t.points() / games as f64
        } else {
            0.0
        };
        let mut s = format!(
            "Score of {a} vs {b}: {} - {} - {}  [{score:.3}] {games}\n",
            t.wins, t.losses, t.draws
        );
        if let Some(e) = t.estimate(self.paired) {
            let _ = writeln!(
                s,
                "Elo difference: {:.1} +/- {:.1}, LOS: {:.1} %, DrawRatio: {:.1} %",
                e.elo,
                e.elo_error,
                100.0 * e.los,
                100.0 * t.draw_ratio()
            );
        }
        s
    }

    /// Every pairing's report, then the engine table when there is more than one pairing.
    pub fn full_report(&self) -> String {
        let mut s = String::new();
        for (t, &(a, b)) in self.tallies.iter().zip(&self.pairings) {
            s.push_str(&self.describe(&format!("{} vs {}:", self.names[a], self.names[b]), t));
            s.push_str(&self.cutechess_lines(&self.names[a], &self.names[b], t));
        }
        if self.pairings.len() > 1 {
            s.push('\n');
            s.push_str(&self.table());
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(number: usize, white: usize, black: usize, pairing: usize, pair: Option<usize>) -> Job {
        Job {
            number,
            round: 0,
            pairing,
            white,
            black,
            opening: 0,
            pair,
        }
    }

    #[test]
    fn pairs_complete_in_any_order() {
        let mut s = Standings::new(vec!["a".into(), "b".into()], vec![(0, 1)], true);
        // Pair 1's second game finishes before pair 0's.
        s.add(&job(0, 0, 1, 0, Some(0)), Outcome::WhiteWins); // a wins
        s.add(&job(3, 1, 0, 0, Some(1)), Outcome::Draw);
        s.add(&job(1, 1, 0, 0, Some(0)), Outcome::WhiteWins); // b wins
        s.add(&job(2, 0, 1, 0, Some(1)), Outcome::WhiteWins); // a wins
        let t = s.tallies[0];
        assert_eq!((t.wins, t.draws, t.losses), (2, 1, 1));
        assert_eq!(t.penta, [0, 0, 1, 1, 0]);
        assert_eq!((t.dd, t.wl), (0, 1));
        assert_eq!(s.sprt_counts(), vec![0, 0, 1, 1, 0]);
        let with = s.full_report();
        assert!(with.contains("Ptnml(0-2): [0, 0, 1, 1, 0]"), "{with}");
        s.show_penta = false;
        let without = s.full_report();
        assert!(!without.contains("Ptnml"), "{without}");
        assert!(without.contains("Games: 4, Wins: 2"), "{without}");
        assert!(without.contains("Score of a vs b:"), "{without}");
    }

    #[test]
    fn gauntlet_totals_and_table() {
        let names = vec!["hero".to_string(), "x".to_string(), "y".to_string()];
        let mut s = Standings::new(names, vec![(0, 1), (0, 2)], false);
        s.add(&job(0, 0, 1, 0, None), Outcome::WhiteWins);
        s.add(&job(1, 2, 0, 1, None), Outcome::WhiteWins);
        s.add(&job(2, 0, 2, 1, None), Outcome::Draw);
        let hero = s.engine_total(0);
        assert_eq!((hero.wins, hero.draws, hero.losses), (1, 1, 1));
        let y = s.engine_total(2);
        assert_eq!((y.wins, y.draws, y.losses), (1, 1, 0));
        assert_eq!(s.headline(), hero);
        let table = s.table();
        let order: Vec<&str> = table
            .lines()
            .skip(1)
            .map(|l| l.split_whitespace().nth(1).unwrap())
            .collect();
        assert_eq!(order, ["y", "hero", "x"]);
        assert!(s.full_report().contains("hero vs y:"));
        let cc = s.cutechess_lines("hero", "y", &s.tallies[1]);
        assert_eq!(
            cc.lines().next(),
            Some("Score of hero vs y: 0 - 1 - 1  [0.250] 2")
        );
        assert!(
            cc.lines()
                .nth(1)
                .unwrap()
                .starts_with("Elo difference: -190."),
            "{cc}"
        );
        assert!(
            cc.contains(", LOS: ") && cc.ends_with(", DrawRatio: 50.0 %\n"),
            "{cc}"
        );
    }
}
