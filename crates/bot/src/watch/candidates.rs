//! The watcher's state: candidate games read from the server's lists (relayed games,
//! a tournament's games, the `games` list), their scores, the games observed because of
//! them, and the choice of what to observe next. The session's handling of their boards,
//! analysis, talk and records is in `watch/handle.rs`.
//!
//! Scoring follows what FICS's WatchBot is documented to weigh: both players' ratings,
//! whether they are computers, the time control, whether the game is rated, and the
//! event (relayed and tournament games first). A candidate below `min_score` is never
//! observed; with room it is observed; when `max_games` are observed it replaces the
//! worst observed game only if it scores `replace_margin` more.

use crate::talk::Talker;
use config::WatchSection;
use cozy_chess::{Board, Move};
use ics::listing::{GameRow, ListedState, RelayRow, TourneyGameRow};
use lists::valid_handle;
use std::collections::{BTreeMap, VecDeque};
use std::time::{Duration, Instant};

/// Where a candidate was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A relay account's `listgames`.
    Relay,
    /// A tournament director's `games N`.
    Tourney(u32),
    /// The server's `games` list (top games of a kind).
    Top,
}

impl Source {
    pub fn word(&self) -> &'static str {
        match self {
            Source::Relay => "relay",
            Source::Tourney(_) => "tourney",
            Source::Top => "top",
        }
    }
}

/// A game that could be observed.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub game: u32,
    pub white: String,
    pub black: String,
    pub white_rating: Option<u32>,
    pub black_rating: Option<u32>,
    /// `blitz`, `standard`, ...; empty when the list did not say.
    pub kind: String,
    pub base: u32,
    pub increment: u32,
    pub rated: bool,
    pub source: Source,
    /// The event (relay header), empty when unknown.
    pub event: String,
    /// Computer players among the two (set by the session from its lists).
    pub computers: u32,
}

/// The WatchBot-style score of a candidate (higher is more interesting).
pub fn score(c: &Candidate, cfg: &WatchSection) -> i32 {
    let r = |x: Option<u32>| x.filter(|&v| v > 0).unwrap_or(cfg.unknown_rating) as i32;
    let mut s = (r(c.white_rating) + r(c.black_rating)) / 2;
    // A side's expected thinking time for 40 moves, in minutes, up to two hours:
    // longer games score higher (5 points a minute).
    let minutes = f64::from(c.base) + f64::from(c.increment) * 40.0 / 60.0;
    s += (minutes.min(120.0) * 5.0) as i32;
    if c.rated {
        s += cfg.rated_bonus;
    }
    s += match c.source {
        Source::Relay => cfg.relay_bonus,
        Source::Tourney(_) => cfg.tourney_bonus,
        Source::Top => 0,
    };
    s - cfg.computer_penalty * c.computers as i32
}

/// One game the watcher observes.
#[derive(Debug, Clone)]
pub struct WatchGame {
    pub number: u32,
    pub white: String,
    pub black: String,
    pub white_elo: Option<u32>,
    pub black_elo: Option<u32>,
    pub event: String,
    pub source: Source,
    pub base: u32,
    pub increment: u32,
    pub score: i32,
    /// The first position seen, and the moves since.
    pub start: Option<Board>,
    pub board: Option<Board>,
    pub moves: Vec<Move>,
    /// `comments[i]` follows `moves[i]` in the saved PGN.
    pub comments: Vec<Option<String>>,
    /// The result when known (relay list, end line).
    pub result: Option<String>,
    pub end_text: String,
    /// Whispers/kibitzes for this game (its own rate limit; the levels are `[watch]`'s).
    pub talker: Talker,
    /// The current position waits for its analysis since this time.
    pub waiting: Option<Instant>,
    pub talked: u32,
    /// When wily last said something in this game (messages are spaced evenly:
    /// `60 s / per_game_per_minute` apart, never in bursts).
    pub last_talk: Option<Instant>,
    pub analyses: u32,
    pub analysis_time: Duration,
    /// `YYYY.MM.DD` when observing began.
    pub date: String,
    /// The server removed the game's board without an end line (examined games).
    pub examined: bool,
}

/// Running totals for the status line and the closing figures.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WatchTotals {
    pub observed: u32,
    pub saved: u32,
    pub talked: u32,
    pub analyses: u32,
    pub analysis_ms: u64,
    pub replaced: u32,
}

/// The watcher.
#[derive(Debug, Clone)]
pub struct Watcher {
    pub cfg: WatchSection,
    pub candidates: BTreeMap<u32, Candidate>,
    pub games: BTreeMap<u32, WatchGame>,
    /// `observe N` sent, not confirmed yet (lasker's `observe` toggles: never twice).
    pub asked: BTreeMap<u32, Instant>,
    /// `unobserve N` sent for these.
    pub dropping: Vec<u32>,
    last_poll: Option<Instant>,
    /// Rows of the `games` list being read (its footer ends it).
    listing: Vec<u32>,
    relay_event: String,
    /// `xwhisper`/`xkibitz` are not known here: talk only when one game is observed.
    pub no_x_talk: bool,
    /// Tournaments asked for, in order (each answer opens with its header).
    tourney_asked: VecDeque<u32>,
    /// The tournament whose rows are being read.
    pub tourney_current: u32,
    pub totals: WatchTotals,
}

/// How long an unconfirmed `observe` blocks asking again.
const ASK_WAIT: Duration = Duration::from_secs(30);

impl Watcher {
    pub fn new(cfg: &WatchSection) -> Watcher {
        Watcher {
            cfg: cfg.clone(),
            candidates: BTreeMap::new(),
            games: BTreeMap::new(),
            asked: BTreeMap::new(),
            dropping: Vec::new(),
            last_poll: None,
            listing: Vec::new(),
            relay_event: String::new(),
            no_x_talk: false,
            tourney_asked: VecDeque::new(),
            tourney_current: 0,
            totals: WatchTotals::default(),
        }
    }

    pub fn enabled(&self) -> bool {
        self.cfg.enabled
    }

    pub fn has(&self, game: u32) -> bool {
        self.games.contains_key(&game)
    }

    /// True for a game the watcher asked for and the server has not confirmed yet.
    pub fn awaiting(&self, game: u32) -> bool {
        self.asked.contains_key(&game)
    }

    /// The list requests due now (every `poll_secs`): `games` (the whole list: lasker
    /// reads `games /b` as a name prefix, so the kinds are picked here),
    /// `tell RELAY listgames`, `tell DIRECTOR games N`.
    pub fn poll(&mut self, now: Instant) -> Vec<String> {
        if !self.cfg.enabled {
            return Vec::new();
        }
        let every = Duration::from_secs(self.cfg.poll_secs.max(1));
        if self
            .last_poll
            .is_some_and(|t| now.saturating_duration_since(t) < every)
        {
            return Vec::new();
        }
        self.last_poll = Some(now);
        let mut v = Vec::new();
        if !self.cfg.top.is_empty() {
            v.push("games".into());
        }
        for r in self.cfg.relay.iter().filter(|r| valid_handle(r)) {
            v.push(format!("tell {r} listgames"));
        }
        if valid_handle(&self.cfg.director) {
            for t in &self.cfg.tourneys {
                v.push(format!("tell {} games {t}", self.cfg.director));
                if self.tourney_asked.len() < 64 {
                    self.tourney_asked.push_back(*t);
                }
            }
        }
        v
    }

    /// A `games` row: a candidate when it is a played game of a kind in `top`.
    pub fn listed(&mut self, row: &GameRow, me: &str) {
        self.listing.push(row.game);
        let kind = row.category();
        let mine = row.white.eq_ignore_ascii_case(me) || row.black.eq_ignore_ascii_case(me);
        if row.state != ListedState::Playing
            || row.private
            || mine
            || !self.cfg.top.iter().any(|k| k == kind)
        {
            return;
        }
        // A game the relay or a tournament already named keeps that source.
        if let Some(c) = self.candidates.get_mut(&row.game) {
            if c.source != Source::Top {
                c.rated = row.rated;
                c.base = row.base;
                c.increment = row.increment;
                c.kind = kind.to_string();
                return;
            }
        }
        self.candidates.insert(
            row.game,
            Candidate {
                game: row.game,
                white: row.white.clone(),
                black: row.black.clone(),
                white_rating: row.white_rating.value(),
                black_rating: row.black_rating.value(),
                kind: kind.to_string(),
                base: row.base,
                increment: row.increment,
                rated: row.rated,
                source: Source::Top,
                event: String::new(),
                computers: 0,
            },
        );
    }

    /// The `games` list ended: top candidates it did not show are gone.
    pub fn listing_ended(&mut self) {
        let seen = std::mem::take(&mut self.listing);
        self.candidates
            .retain(|n, c| c.source != Source::Top || seen.contains(n));
    }

    /// A tournament director's answer begins: it is for the oldest tournament asked.
    pub fn tourney_header(&mut self) {
        if let Some(t) = self.tourney_asked.pop_front() {
            self.tourney_current = t;
        }
    }

    pub fn relay_header(&mut self, event: &str) {
        self.relay_event = event.to_string();
    }

    /// A relayed game: a candidate while it is played; for an observed one, its result.
    /// Returns true when an observed game is now over.
    pub fn relayed(&mut self, row: &RelayRow) -> bool {
        if row.result != "*" {
            self.candidates.remove(&row.game);
            if let Some(g) = self.games.get_mut(&row.game) {
                if g.result.is_none() {
                    g.result = Some(row.result.clone());
                    g.end_text = format!("{} (relay)", row.result);
                    return true;
                }
            }
            return false;
        }
        let c = self.candidates.entry(row.game).or_insert(Candidate {
            game: row.game,
            white: row.white.clone(),
            black: row.black.clone(),
            white_rating: None,
            black_rating: None,
            kind: String::new(),
            base: 0,
            increment: 0,
            rated: false,
            source: Source::Relay,
            event: String::new(),
            computers: 0,
        });
        c.source = Source::Relay;
        c.event = self.relay_event.clone();
        false
    }

    /// A tournament game with its number.
    pub fn tourney_game(&mut self, row: &TourneyGameRow, tourney: u32) {
        let Some(n) = row.game else { return };
        self.candidates.insert(
            n,
            Candidate {
                game: n,
                white: row.white.clone(),
                black: row.black.clone(),
                white_rating: row.white_rating,
                black_rating: row.black_rating,
                kind: String::new(),
                base: 0,
                increment: 0,
                rated: true,
                source: Source::Tourney(tourney),
                event: format!("{} tournament {tourney}", self.cfg.director),
                computers: 0,
            },
        );
    }

    /// What to do now: `(observe, unobserve)` game numbers. `busy(n)`: game `n` is
    /// observed for another reason (a followed player) or is wily's own.
    pub fn choose(&mut self, now: Instant, busy: impl Fn(u32) -> bool) -> (Vec<u32>, Vec<u32>) {
        self.asked
            .retain(|_, t| now.saturating_duration_since(*t) < ASK_WAIT);
        if !self.cfg.enabled {
            return (Vec::new(), Vec::new());
        }
        let mut ranked: Vec<(i32, u32)> = self
            .candidates
            .values()
            .filter(|c| !self.games.contains_key(&c.game) && !self.asked.contains_key(&c.game))
            .filter(|c| !busy(c.game))
            .map(|c| (score(c, &self.cfg), c.game))
            .filter(|(s, _)| *s >= self.cfg.min_score)
            .collect();
        ranked.sort_by(|a, b| b.cmp(a));
        let mut observe = Vec::new();
        let mut drop = Vec::new();
        let held = self.games.len() + self.asked.len();
        let room = self.cfg.max_games.saturating_sub(held);
        for (_, g) in ranked.iter().take(room) {
            observe.push(*g);
        }
        if observe.is_empty() && room == 0 {
            // Full: the best candidate replaces the worst observed game (one a round).
            let worst = self
                .games
                .values()
                .filter(|g| g.result.is_none() && !self.dropping.contains(&g.number))
                .min_by_key(|g| g.score)
                .map(|g| (g.score, g.number));
            if let (Some(&(best, g)), Some((ws, wn))) = (ranked.first(), worst) {
                if best >= ws + self.cfg.replace_margin {
                    observe.push(g);
                    drop.push(wn);
                    self.totals.replaced += 1;
                }
            }
        }
        for g in &observe {
            self.asked.insert(*g, now);
        }
        self.dropping.extend(drop.iter().copied());
        (observe, drop)
    }

    /// The server confirmed observing `game`: it becomes a watched game.
    pub fn started(&mut self, game: u32, date: &str) {
        if self.asked.remove(&game).is_none() {
            return;
        }
        let c = self.candidates.get(&game).cloned();
        let score = c.as_ref().map_or(0, |c| score(c, &self.cfg));
        let c = c.unwrap_or(Candidate {
            game,
            white: String::new(),
            black: String::new(),
            white_rating: None,
            black_rating: None,
            kind: String::new(),
            base: 0,
            increment: 0,
            rated: false,
            source: Source::Top,
            event: String::new(),
            computers: 0,
        });
        self.totals.observed += 1;
        self.games.insert(
            game,
            WatchGame {
                number: game,
                white: c.white,
                black: c.black,
                white_elo: c.white_rating,
                black_elo: c.black_rating,
                event: c.event,
                source: c.source,
                base: c.base,
                increment: c.increment,
                score,
                start: None,
                board: None,
                moves: Vec::new(),
                comments: Vec::new(),
                result: None,
                end_text: String::new(),
                talker: Talker::new(self.cfg.per_game_per_minute),
                waiting: None,
                talked: 0,
                last_talk: None,
                analyses: 0,
                analysis_time: Duration::ZERO,
                date: date.to_string(),
                examined: false,
            },
        );
    }

    /// Whether game `game` may be talked to now (and books it when it may).
    pub fn may_talk(&mut self, game: u32, now: Instant) -> bool {
        let gap = Duration::from_secs(60) / self.cfg.per_game_per_minute.max(1);
        let Some(w) = self.games.get_mut(&game) else {
            return false;
        };
        if w.last_talk
            .is_some_and(|t| now.saturating_duration_since(t) < gap)
        {
            return false;
        }
        w.last_talk = Some(now);
        true
    }

    /// The game waiting longest for its analysis.
    pub fn next_to_analyse(&self) -> Option<u32> {
        self.games
            .values()
            .filter(|g| g.result.is_none())
            .filter_map(|g| g.waiting.map(|t| (t, g.number)))
            .min()
            .map(|(_, n)| n)
    }

    /// Forgets `game` (ended or unobserved); returns it.
    pub fn remove(&mut self, game: u32) -> Option<WatchGame> {
        self.dropping.retain(|g| *g != game);
        self.asked.remove(&game);
        self.candidates.remove(&game);
        self.games.remove(&game)
    }

    /// After a disconnection: nothing is observed any more.
    pub fn disconnected(&mut self) -> Vec<WatchGame> {
        self.asked.clear();
        self.dropping.clear();
        self.candidates.clear();
        self.listing.clear();
        self.last_poll = None;
        std::mem::take(&mut self.games).into_values().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ics::events::Rating;

    fn cfg() -> WatchSection {
        WatchSection {
            enabled: true,
            max_games: 2,
            ..WatchSection::default()
        }
    }

    fn row(game: u32, w: u32, b: u32, kind: char, base: u32) -> GameRow {
        GameRow {
            game,
            state: ListedState::Playing,
            white: format!("W{game}"),
            black: format!("B{game}"),
            white_rating: Rating::parse(&w.to_string()).unwrap(),
            black_rating: Rating::parse(&b.to_string()).unwrap(),
            private: false,
            kind,
            rated: true,
            base,
            increment: 0,
            white_to_move: true,
            move_number: 10,
        }
    }

    #[test]
    fn scores_weigh_ratings_clock_event_and_computers() {
        let c = cfg();
        let mut cand = Candidate {
            game: 1,
            white: "A".into(),
            black: "B".into(),
            white_rating: Some(2000),
            black_rating: Some(1800),
            kind: "blitz".into(),
            base: 3,
            increment: 0,
            rated: true,
            source: Source::Top,
            event: String::new(),
            computers: 0,
        };
        assert_eq!(score(&cand, &c), 1900 + 15 + 100);
        cand.base = 15;
        assert_eq!(score(&cand, &c), 1900 + 75 + 100);
        cand.computers = 2;
        assert_eq!(score(&cand, &c), 1900 + 75 + 100 - 800);
        cand.computers = 0;
        cand.source = Source::Relay;
        cand.white_rating = None;
        assert_eq!(score(&cand, &c), (1200 + 1800) / 2 + 75 + 100 + 1000);
    }

    #[test]
    fn chooses_the_best_then_replaces_only_by_a_margin() {
        let mut w = Watcher::new(&cfg());
        let now = Instant::now();
        for r in [
            row(1, 1900, 1900, 'b', 3),
            row(2, 2200, 2100, 's', 15),
            row(3, 1500, 1400, 'b', 3),
            row(4, 2400, 2400, 'w', 3),
        ] {
            w.listed(&r, "wily");
        }
        w.listing_ended();
        // Game 3 is under min_score; game 4 is wild (not in `top`).
        let (obs, drop) = w.choose(now, |_| false);
        assert_eq!((obs, drop), (vec![2, 1], vec![]));
        assert!(w.choose(now, |_| false).0.is_empty(), "asked once only");
        w.started(2, "2026.12.01");
        w.started(1, "2026.12.01");
        assert_eq!(w.games.len(), 2);
        // A relayed game outscores game 1 by far: it replaces it.
        w.relay_header("Test Open - Round 1");
        assert!(!w.relayed(&RelayRow {
            game: 9,
            white: "GMOne".into(),
            black: "GMTwo".into(),
            result: "*".into(),
            eco: None,
        }));
        let (obs, drop) = w.choose(now, |_| false);
        assert_eq!((obs, drop), (vec![9], vec![1]));
        w.remove(1);
        w.started(9, "2026.12.01");
        assert_eq!(w.games[&9].event, "Test Open - Round 1");
        // The relay's result ends the game.
        assert!(w.relayed(&RelayRow {
            game: 9,
            white: "GMOne".into(),
            black: "GMTwo".into(),
            result: "1-0".into(),
            eco: None,
        }));
        assert_eq!(w.games[&9].result.as_deref(), Some("1-0"));
    }

    #[test]
    fn polls_every_poll_secs_and_reads_tourney_answers_in_order() {
        let mut c = cfg();
        c.tourneys = vec![3, 4];
        let mut w = Watcher::new(&c);
        let t = Instant::now();
        assert_eq!(
            w.poll(t),
            [
                "games",
                "tell relay listgames",
                "tell mamer games 3",
                "tell mamer games 4"
            ]
        );
        assert!(w.poll(t + Duration::from_secs(30)).is_empty());
        assert_eq!(w.poll(t + Duration::from_secs(60)).len(), 4);
        w.tourney_header();
        assert_eq!(w.tourney_current, 3);
        w.tourney_game(
            &TourneyGameRow {
                white: "A".into(),
                black: "B".into(),
                white_rating: Some(1800),
                black_rating: None,
                game: Some(7),
            },
            w.tourney_current,
        );
        assert_eq!(w.candidates[&7].source, Source::Tourney(3));
        w.tourney_header();
        assert_eq!(w.tourney_current, 4);
        assert!(Watcher::new(&WatchSection::default()).poll(t).is_empty());
    }
}
