//! The local server's tournament director account, as values: its settings
//! ([`DirectorConfig`]), its tournaments (entrants, scores, each round's results and
//! pairings), and the texts it shows in mamer's shapes: the announcement, the
//! `listtourneys` table and the `:Tourney Players:` standings. What it does on the
//! server (joins, pairing games, results, the end) is in `tourney/director.rs`; the pairing
//! rules are in `tourney/pairing.rs`.

use crate::games::game::End;
use crate::games::ratings::Category;
use crate::tourney::pairing::{round_robin_rounds, SwissPlayer};
use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

/// The ` [b i r p t]` suffix lasker adds to the result line of a game between two
/// players with the tournament flag on: base, increment, rated, private, the game type
/// (0 untimed, 1 blitz, 2 standard, 5 lightning).
pub fn result_suffix(base: u32, inc: u32, rated: bool) -> String {
    let kind = match Category::of(base, inc) {
        Category::Untimed => 0,
        Category::Blitz => 1,
        Category::Standard => 2,
        Category::Lightning => 5,
    };
    format!(" [{base} {inc} {} 0 {kind}]", u8::from(rated))
}

/// How a tournament's rounds are paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PairingStyle {
    /// Score groups, no opponent twice (mamer's `s`).
    Swiss,
    /// Everyone meets everyone once (mamer's `r`).
    RoundRobin,
}

impl PairingStyle {
    /// mamer's one-letter code (`s`, `r`).
    pub fn letter(self) -> char {
        match self {
            PairingStyle::Swiss => 's',
            PairingStyle::RoundRobin => 'r',
        }
    }

    /// The word of its announcement (`SWISS`, `RR`).
    pub fn word(self) -> &'static str {
        match self {
            PairingStyle::Swiss => "SWISS",
            PairingStyle::RoundRobin => "RR",
        }
    }
}

impl FromStr for PairingStyle {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "s" | "swiss" => Ok(PairingStyle::Swiss),
            "r" | "rr" | "roundrobin" | "round-robin" => Ok(PairingStyle::RoundRobin),
            _ => Err(format!("{s:?}: swiss or rr")),
        }
    }
}

impl fmt::Display for PairingStyle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PairingStyle::Swiss => "swiss",
            PairingStyle::RoundRobin => "rr",
        })
    }
}

/// How the director account runs.
#[derive(Debug, Clone)]
pub struct DirectorConfig {
    /// Its handle (`mamer`).
    pub name: String,
    /// The channel it announces on (49).
    pub channel: u32,
    pub style: PairingStyle,
    /// Rounds of a swiss tournament (a round robin takes as many as it needs).
    pub rounds: u32,
    /// Time control of the games: minutes and increment seconds.
    pub base: u32,
    pub inc: u32,
    pub rated: bool,
    /// Entrants needed before it closes the entry and starts (mamer: 4).
    pub min_entrants: usize,
    /// Close at once when this many have joined (0: no limit).
    pub max_entrants: usize,
    /// Once `min_entrants` have joined, wait this long for more before starting.
    pub close_after: Duration,
    /// Announce an open tournament again this often.
    pub announce_every: Duration,
    /// Open a new tournament when one ends.
    pub repeat: bool,
}

impl Default for DirectorConfig {
    fn default() -> Self {
        DirectorConfig {
            name: "mamer".into(),
            channel: 49,
            style: PairingStyle::Swiss,
            rounds: 3,
            base: 1,
            inc: 0,
            rated: false,
            min_entrants: 4,
            max_entrants: 0,
            close_after: Duration::from_secs(30),
            announce_every: Duration::from_secs(120),
            repeat: true,
        }
    }
}

/// Where a tournament stands (mamer's list words).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Open,
    /// Entry closed, rounds being played.
    Closed,
    Done,
}

impl Status {
    pub fn word(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Closed => "closed",
            Status::Done => "done",
        }
    }
}

/// One round of one entrant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RoundEntry {
    /// The opponent (an entrant index); `None` for a bye.
    pub opponent: Option<usize>,
    pub white: bool,
    /// Half points scored; `None` while the game is on.
    pub halves: Option<u32>,
}

/// One entrant.
#[derive(Debug, Clone)]
pub struct Entrant {
    pub name: String,
    pub rating: u32,
    pub rounds: Vec<RoundEntry>,
    /// Still in (not withdrawn).
    pub active: bool,
}

impl Entrant {
    /// The score so far in half points.
    pub fn halves(&self) -> u32 {
        self.rounds.iter().filter_map(|r| r.halves).sum()
    }
}

/// A game of the current round.
#[derive(Debug, Clone)]
pub struct Pairing {
    pub white: usize,
    pub black: usize,
    /// The server's game number while it is played.
    pub game: Option<u32>,
    /// Set once the result is in.
    pub done: bool,
    /// Times it was started again after an abort or adjournment.
    pub restarts: u32,
}

/// One tournament.
#[derive(Debug, Clone)]
pub struct Tourney {
    pub number: u32,
    pub status: Status,
    pub entrants: Vec<Entrant>,
    /// Rounds planned (a round robin's are known once the entry closes; 0 until then).
    pub rounds: u32,
    /// The round being played (0 before the first).
    pub round: u32,
    pub pairings: Vec<Pairing>,
    pub announced: Instant,
    /// When `min_entrants` was reached (the entry closes `close_after` later).
    pub full_since: Option<Instant>,
    pub started: Option<chrono::DateTime<chrono::Utc>>,
    pub ended: Option<chrono::DateTime<chrono::Utc>>,
}

impl Tourney {
    pub fn new(number: u32, cfg: &DirectorConfig, now: Instant) -> Tourney {
        Tourney {
            number,
            status: Status::Open,
            entrants: Vec::new(),
            rounds: match cfg.style {
                PairingStyle::Swiss => cfg.rounds,
                PairingStyle::RoundRobin => 0,
            },
            round: 0,
            pairings: Vec::new(),
            announced: now,
            full_since: None,
            started: None,
            ended: None,
        }
    }

    /// The entrant named `name` (any case).
    pub fn entrant(&self, name: &str) -> Option<usize> {
        self.entrants
            .iter()
            .position(|e| e.name.eq_ignore_ascii_case(name))
    }

    /// The rounds to play once the entry closes: a round robin's own number; a swiss
    /// one's setting, at most what the field allows without repeats.
    pub fn plan_rounds(&mut self, cfg: &DirectorConfig) {
        let n = self.entrants.len();
        self.rounds = match cfg.style {
            PairingStyle::RoundRobin => round_robin_rounds(n),
            PairingStyle::Swiss => cfg.rounds.clamp(1, round_robin_rounds(n).max(1)),
        };
    }

    /// What the swiss pairing needs of each entrant.
    pub fn swiss_players(&self) -> Vec<SwissPlayer> {
        self.entrants
            .iter()
            .map(|e| SwissPlayer {
                halves: e.halves(),
                met: e.rounds.iter().filter_map(|r| r.opponent).collect(),
                whites: e
                    .rounds
                    .iter()
                    .filter(|r| r.opponent.is_some() && r.white)
                    .count() as u32,
                blacks: e
                    .rounds
                    .iter()
                    .filter(|r| r.opponent.is_some() && !r.white)
                    .count() as u32,
                had_bye: e.rounds.iter().any(|r| r.opponent.is_none()),
                active: e.active,
            })
            .collect()
    }

    /// Entrant indices in standings order: score, then entry order.
    pub fn order(&self) -> Vec<usize> {
        let mut v: Vec<usize> = (0..self.entrants.len()).collect();
        v.sort_by(|&a, &b| {
            self.entrants[b]
                .halves()
                .cmp(&self.entrants[a].halves())
                .then(a.cmp(&b))
        });
        v
    }

    /// The names sharing each of the first two places (`[first, second]`).
    pub fn places(&self) -> Vec<Vec<String>> {
        let mut scores: Vec<u32> = self.entrants.iter().map(Entrant::halves).collect();
        scores.sort_unstable_by(|a, b| b.cmp(a));
        scores.dedup();
        scores
            .iter()
            .take(2)
            .map(|s| {
                self.order()
                    .into_iter()
                    .filter(|&i| self.entrants[i].halves() == *s)
                    .map(|i| self.entrants[i].name.clone())
                    .collect()
            })
            .collect()
    }

    /// The announcement text (one line; the server does not wrap it).
    pub fn announcement(&self, cfg: &DirectorConfig) -> String {
        let avg = if self.entrants.is_empty() {
            0.0
        } else {
            self.entrants
                .iter()
                .map(|e| f64::from(e.rating))
                .sum::<f64>()
                / self.entrants.len() as f64
        };
        format!(
            "*****Tourney Announcement***** Trny #{n}  {b} {i} {r}  {s} 0-9999 {p} plr(s).  tell {d} join {n}. Avg: {avg:>5.1}",
            n = self.number,
            b = cfg.base,
            i = cfg.inc,
            r = if cfg.rated { 'r' } else { 'u' },
            s = cfg.style.word(),
            p = self.entrants.len(),
            d = cfg.name,
        )
    }

    /// Its row of the `listtourneys` table.
    pub fn list_row(&self, cfg: &DirectorConfig) -> String {
        let when = |t: Option<chrono::DateTime<chrono::Utc>>| {
            t.map_or("n/a".to_string(), |t| {
                t.format("%H:%M %m/%d/%y").to_string()
            })
        };
        format!(
            ":{:>4} {:>3} {:>3} {:>4} {:>3} {:>2} {:>4} {:>9} {:>6} {:<14} {:<14}\n",
            self.number,
            self.rounds,
            cfg.style.letter(),
            cfg.base,
            cfg.inc,
            if cfg.rated { 'r' } else { 'u' },
            'r',
            "0-9999",
            self.status.word(),
            when(self.started),
            when(self.ended),
        )
    }

    /// The standings before round `self.round`, as mamer's qtell lines.
    pub fn standings(&self) -> String {
        let order = self.order();
        let bye_row = self
            .entrants
            .iter()
            .any(|e| e.rounds.iter().any(|r| r.opponent.is_none()));
        // A place number for every entrant, `_BYE_` last.
        let mut place = vec![0usize; self.entrants.len()];
        for (p, &i) in order.iter().enumerate() {
            place[i] = p + 1;
        }
        let bye_place = order.len() + 1;
        let mut t = format!(
            ":Tourney Players: Round {} of {} \n:\n:     Name              Rating Score Perfrm Upset  Results \n:     ----------------- ------ ----- ------ ------ ------- \n",
            self.round, self.rounds
        );
        let mut bye_results = String::new();
        for (p, &i) in order.iter().enumerate() {
            let e = &self.entrants[i];
            let mut results = String::new();
            for r in &e.rounds {
                let mark = match r.halves {
                    None => '*',
                    Some(2) => '+',
                    Some(1) => '=',
                    Some(_) => '-',
                };
                let opp = r.opponent.map_or(bye_place, |o| place[o]);
                let colour = if r.white { 'w' } else { 'b' };
                results.push_str(&format!("{mark}{opp:02}{colour} "));
                if r.opponent.is_none() {
                    bye_results.push_str(&format!(
                        "-{:02}{} ",
                        p + 1,
                        if r.white { 'b' } else { 'w' }
                    ));
                }
            }
            t.push_str(&format!(
                ":{:>3} {}{:<17} [{:>4}] {:>4.1}  [   0] [   0] {}\n",
                p + 1,
                if e.active { '+' } else { '-' },
                e.name,
                e.rating,
                f64::from(e.halves()) / 2.0,
                results
            ));
        }
        if bye_row {
            t.push_str(&format!(
                ":{bye_place:>3} +{:<17} [   0]  0.0  [   0] [   0] {bye_results}\n",
                "_BYE_"
            ));
        }
        t.push_str(":\n:     Average Rating       0.0 \n:\n");
        t
    }
}

/// The director's state.
#[derive(Debug)]
pub struct Director {
    pub cfg: DirectorConfig,
    /// Every tournament so far, oldest first (at most `MAX_KEPT`).
    pub tourneys: Vec<Tourney>,
    pub next_number: u32,
    /// Tournament games ended since the last tick: (game number, how, `B resigns 1-0`).
    pub ended: Vec<(u32, End, String)>,
}

/// Finished tournaments kept for the list.
const MAX_KEPT: usize = 20;

impl Director {
    pub fn new(cfg: DirectorConfig) -> Director {
        Director {
            cfg,
            tourneys: Vec::new(),
            next_number: 1,
            ended: Vec::new(),
        }
    }

    /// True when game `g` is a game of the tournament being played.
    pub fn plays(&self, g: u32) -> bool {
        self.tourneys
            .iter()
            .filter(|t| t.status == Status::Closed)
            .any(|t| t.pairings.iter().any(|p| p.game == Some(g)))
    }

    pub fn name(&self) -> &str {
        &self.cfg.name
    }

    /// The tournament open or being played, if any.
    pub fn current(&mut self) -> Option<&mut Tourney> {
        self.tourneys.iter_mut().find(|t| t.status != Status::Done)
    }

    /// Open a new tournament; returns its number.
    pub fn open(&mut self, now: Instant) -> u32 {
        let n = self.next_number;
        self.next_number += 1;
        self.tourneys.push(Tourney::new(n, &self.cfg, now));
        if self.tourneys.len() > MAX_KEPT {
            self.tourneys.remove(0);
        }
        n
    }

    /// The `listtourneys` answer.
    pub fn listing(&self) -> String {
        let mut t = String::from(":mamer Notes: \n: No. Rds Sty Time Inc Md Vrnt Rtng Rnge Status   Started at      Ended at   \n: --- --- --- ---- --- -- ---- --------- ------ -------------- --------------\n");
        for tr in &self.tourneys {
            t.push_str(&tr.list_row(&self.cfg));
        }
        t.push_str(":\n");
        t.replace(":mamer Notes:", &format!(":{} Notes:", self.cfg.name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ics::tourney::TourneyNotice;

    fn notice(line: &str) -> Option<TourneyNotice> {
        match ics::parse::tourney::parse(line) {
            Some(ics::events::Event::Tourney(n)) => Some(n),
            _ => None,
        }
    }

    fn tourney() -> (DirectorConfig, Tourney) {
        let cfg = DirectorConfig::default();
        let mut t = Tourney::new(3, &cfg, Instant::now());
        for name in ["wily", "Alpha", "Beta"] {
            t.entrants.push(Entrant {
                name: name.into(),
                rating: 0,
                rounds: Vec::new(),
                active: true,
            });
        }
        (cfg, t)
    }

    #[test]
    fn the_texts_read_as_mamer_s() {
        let (cfg, mut t) = tourney();
        let line = format!("mamer(49): {}", t.announcement(&cfg));
        let Some(TourneyNotice::Announced(info)) = notice(&line) else {
            panic!("{line}: {:?}", notice(&line))
        };
        assert_eq!((info.number, info.base, info.increment), (3, 1, 0));
        assert_eq!((info.players, info.style.as_str()), (3, "swiss"));
        let row = t.list_row(&cfg);
        let Some(TourneyNotice::Listed(r)) = notice(row.trim_end()) else {
            panic!("{row}")
        };
        assert_eq!(
            (r.info.number, r.info.rounds, r.status.as_str()),
            (3, Some(3), "open")
        );
        t.round = 2;
        t.entrants[0].rounds.push(RoundEntry {
            opponent: Some(1),
            white: true,
            halves: Some(2),
        });
        t.entrants[1].rounds.push(RoundEntry {
            opponent: Some(0),
            white: false,
            halves: Some(0),
        });
        t.entrants[2].rounds.push(RoundEntry {
            opponent: None,
            white: true,
            halves: Some(2),
        });
        let s = t.standings();
        let lines: Vec<&str> = s.lines().collect();
        assert!(matches!(
            notice(lines[0]),
            Some(TourneyNotice::Round {
                round: 2,
                rounds: 3
            })
        ));
        let rows: Vec<TourneyNotice> = lines.iter().filter_map(|l| notice(l)).collect();
        let names: Vec<String> = rows
            .iter()
            .filter_map(|n| match n {
                TourneyNotice::Standing { name, score, .. } => Some(format!("{name} {score}")),
                _ => None,
            })
            .collect();
        assert_eq!(
            names,
            ["wily 1.0", "Beta 1.0", "Alpha 0.0", "_BYE_ 0.0"],
            "{s}"
        );
        assert!(s.contains("+03w"), "wily beat Alpha, third: {s}");
        assert_eq!(
            t.places(),
            vec![
                vec!["wily".to_string(), "Beta".into()],
                vec!["Alpha".into()]
            ]
        );
    }
}
