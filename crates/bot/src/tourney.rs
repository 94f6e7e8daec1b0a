//! Tournament play with a director bot (mamer): which announced tournaments suit the
//! `[tourney]` settings, joining one (`tell mamer join N`), following it through its
//! rounds (pairings arrive as games the server starts by itself; byes; the standings'
//! round number), the `Event`/`Round` tags of its games, and leaving it: at its end
//! (the director turns the account's tournament flag off), on a stall (nothing said or
//! paired for `stall_mins`: the bot withdraws and plays normally again), and on
//! shutdown (`tell mamer withdraw N`).
//!
//! Pure: notices and clock readings in, command lines out. The session calls it from
//! its event, tick, challenge, seek and game hooks.

use config::TourneySection;
use ics::tourney::{TourneyInfo, TourneyNotice};
use lists::valid_handle;
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

/// How long the director may take to answer a `join`.
const JOIN_ANSWER: Duration = Duration::from_secs(120);
/// Announcements remembered at most (oldest dropped).
const MAX_KNOWN: usize = 200;

/// Where the bot stands with tournaments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Phase {
    /// In none: normal play.
    Idle,
    /// `join` sent to `director` for tournament `number` at `at`.
    Joining {
        director: String,
        number: u32,
        at: Instant,
    },
    /// Entered (the director confirmed, or set the tournament flag).
    Entered(Entry),
}

/// A tournament the bot is in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub director: String,
    /// 0 when the director set the flag for a tournament the bot did not join itself.
    pub number: u32,
    /// The round now being paired or played (1 until the standings say otherwise).
    pub round: u32,
    pub rounds: Option<u32>,
    /// The opponent of the tournament game in progress.
    pub playing: Option<String>,
    /// The last sign of life: a pairing, a game's end, a bye, a round.
    pub last: Instant,
    /// A one-line description (`1 0 unrated swiss`), when the bot saw the announcement.
    pub describe: Option<String>,
    /// The longest one of its games may last (both clocks, 60 moves of increment each;
    /// zero when the time control is not known): a round can be this long without news,
    /// so the stall wait is never shorter.
    pub game_time: Duration,
}

/// Counts for the status line and the live test's figures.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TourneyStats {
    pub joined: u32,
    pub games: u32,
    pub byes: u32,
    /// Tournaments left by withdrawing (stall or shutdown).
    pub withdrawn: u32,
    /// Tournaments played to their end (the director turned the flag off).
    pub finished: u32,
}

/// The tournament manager of one account.
pub struct TourneyPlay {
    cfg: TourneySection,
    phase: Phase,
    known: HashMap<(String, u32), TourneyInfo>,
    /// Tournaments not to try again (refused, withdrawn from, played).
    done: HashSet<(String, u32)>,
    last_list: Option<Instant>,
    last_joined: Option<Instant>,
    stats: TourneyStats,
}

impl TourneyPlay {
    pub fn new(cfg: TourneySection) -> TourneyPlay {
        TourneyPlay {
            cfg,
            phase: Phase::Idle,
            known: HashMap::new(),
            done: HashSet::new(),
            last_list: None,
            last_joined: None,
            stats: TourneyStats::default(),
        }
    }

    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    pub fn stats(&self) -> TourneyStats {
        self.stats
    }

    fn trusted(&self, director: &str) -> bool {
        valid_handle(director)
            && self
                .cfg
                .directors
                .iter()
                .any(|d| d.eq_ignore_ascii_case(director))
    }

    /// Commands at login: the announcement channel, and a first look at the lists.
    pub fn login(&mut self, now: Instant) -> Vec<String> {
        if !self.cfg.join {
            return Vec::new();
        }
        let mut out = Vec::new();
        if self.cfg.channel > 0 {
            out.push(format!("+channel {}", self.cfg.channel));
        }
        if self.cfg.list_every_mins > 0 && self.phase == Phase::Idle {
            out.extend(self.list_commands(now));
        }
        out
    }

    fn list_commands(&mut self, now: Instant) -> Vec<String> {
        self.last_list = Some(now);
        self.cfg
            .directors
            .iter()
            .filter(|d| valid_handle(d))
            .map(|d| format!("tell {d} listtourneys"))
            .collect()
    }

    /// True when `info` suits the settings (and joining now is allowed).
    pub fn suits(&self, info: &TourneyInfo, now: Instant) -> bool {
        let c = &self.cfg;
        if !c.join || self.done.contains(&key(&info.director, info.number)) {
            return false;
        }
        if let Some(t) = self.last_joined {
            if now.saturating_duration_since(t) < Duration::from_secs(c.join_every_mins * 60) {
                return false;
            }
        }
        let controls = c.controls();
        if !controls.is_empty() && !controls.contains(&(info.base, info.increment)) {
            return false;
        }
        if !c
            .variants
            .iter()
            .any(|v| v.eq_ignore_ascii_case(&info.variant))
        {
            return false;
        }
        let rated_ok = match c.rated.as_str() {
            "rated" => info.rated,
            "unrated" => !info.rated,
            _ => true,
        };
        if !rated_ok {
            return false;
        }
        if let Some(r) = info.rounds {
            if c.max_rounds > 0 && r > c.max_rounds {
                return false;
            }
        }
        match info.computers {
            Some(false) => false,
            Some(true) => true,
            None => !c.require_computer_mark,
        }
    }

    fn join(&mut self, info: &TourneyInfo, now: Instant) -> Vec<String> {
        tracing::info!(
            "joining {} tourney #{} ({})",
            info.director,
            info.number,
            describe(info)
        );
        self.phase = Phase::Joining {
            director: info.director.clone(),
            number: info.number,
            at: now,
        };
        vec![format!("tell {} join {}", info.director, info.number)]
    }

    fn enter(&mut self, director: &str, number: u32, now: Instant) {
        let info = self.known.get(&key(director, number));
        let describe = info.map(describe);
        let game_time = info.map_or(Duration::ZERO, longest_game);
        tracing::info!("entered {director} tourney #{number}");
        self.stats.joined += 1;
        self.last_joined = Some(now);
        self.done.insert(key(director, number));
        self.phase = Phase::Entered(Entry {
            director: director.to_string(),
            number,
            round: 1,
            rounds: None,
            playing: None,
            last: now,
            describe,
            game_time,
        });
    }

    fn remember(&mut self, info: &TourneyInfo) {
        if self.known.len() >= MAX_KNOWN {
            self.known.clear();
        }
        let k = key(&info.director, info.number);
        let merged = match self.known.get(&k) {
            // A row does not show a wild tournament's type, an announcement shows no
            // rounds: keep what each knows.
            Some(old) => TourneyInfo {
                variant: if info.variant == "wild" {
                    old.variant.clone()
                } else {
                    info.variant.clone()
                },
                rounds: info.rounds.or(old.rounds),
                computers: info.computers.or(old.computers),
                ..info.clone()
            },
            None => info.clone(),
        };
        self.known.insert(k, merged);
    }

    /// A director's notice; `me` is the account's handle. Returns the commands to send.
    pub fn notice(&mut self, n: &TourneyNotice, me: &str, now: Instant) -> Vec<String> {
        match n {
            TourneyNotice::Announced(info) => {
                if !self.trusted(&info.director) {
                    return Vec::new();
                }
                self.remember(info);
                let info = self.known[&key(&info.director, info.number)].clone();
                if self.phase != Phase::Idle || !self.suits(&info, now) {
                    return Vec::new();
                }
                if self.cfg.max_rounds > 0 && info.rounds.is_none() {
                    // The announcement does not show the rounds: the list does.
                    return vec![format!("tell {} listtourneys", info.director)];
                }
                self.join(&info, now)
            }
            TourneyNotice::Listed(row) => {
                if !self.trusted(&row.info.director) {
                    return Vec::new();
                }
                self.remember(&row.info);
                let info = self.known[&key(&row.info.director, row.info.number)].clone();
                if row.status == "open" && self.phase == Phase::Idle && self.suits(&info, now) {
                    return self.join(&info, now);
                }
                Vec::new()
            }
            TourneyNotice::Note { director, text } => {
                self.note(director, text, now);
                Vec::new()
            }
            TourneyNotice::Flag { director, on } => {
                if !self.trusted(director) {
                    return Vec::new();
                }
                match (&self.phase, on) {
                    (Phase::Joining { number, .. }, true) => {
                        let number = *number;
                        self.enter(&director.clone(), number, now);
                    }
                    // Entered by a manager (or before a restart): the server now refuses
                    // other matches, so the bot follows the tournament too.
                    (Phase::Idle, true) => self.enter(&director.clone(), 0, now),
                    (Phase::Entered(e), false) if e.director.eq_ignore_ascii_case(director) => {
                        tracing::info!("{director} tourney #{} is over for this account", e.number);
                        self.stats.finished += 1;
                        self.phase = Phase::Idle;
                    }
                    _ => {}
                }
                Vec::new()
            }
            TourneyNotice::Bye { director } => {
                if let Phase::Entered(e) = &mut self.phase {
                    if e.director.eq_ignore_ascii_case(director) {
                        tracing::info!("a bye in round {} of tourney #{}", e.round, e.number);
                        self.stats.byes += 1;
                        e.last = now;
                    }
                }
                Vec::new()
            }
            TourneyNotice::Round { round, rounds } => {
                if let Phase::Entered(e) = &mut self.phase {
                    e.round = *round;
                    e.rounds = Some(*rounds);
                    e.last = now;
                }
                Vec::new()
            }
            TourneyNotice::Joined {
                director,
                number,
                player,
                players,
            } => {
                if let Phase::Joining {
                    director: d,
                    number: k,
                    ..
                } = &self.phase
                {
                    if player.eq_ignore_ascii_case(me)
                        && d.eq_ignore_ascii_case(director)
                        && k == number
                    {
                        self.enter(&director.clone(), *number, now);
                    }
                }
                if let Some(i) = self.known.get_mut(&key(director, *number)) {
                    i.players = *players;
                }
                Vec::new()
            }
            TourneyNotice::GameReported {
                director,
                number,
                white,
                black,
                ..
            } => {
                if let Phase::Entered(e) = &mut self.phase {
                    // Any game of the tournament is a sign of life, the others' too.
                    let ours = e.director.eq_ignore_ascii_case(director)
                        && (e.number == *number || e.number == 0);
                    if ours || white.eq_ignore_ascii_case(me) || black.eq_ignore_ascii_case(me) {
                        e.last = now;
                    }
                }
                Vec::new()
            }
            TourneyNotice::Finished {
                director, number, ..
            } => {
                if let Phase::Entered(e) = &self.phase {
                    if e.director.eq_ignore_ascii_case(director) && e.number == *number {
                        tracing::info!("{director} tourney #{number} finished");
                    }
                }
                self.known.remove(&key(director, *number));
                Vec::new()
            }
            TourneyNotice::Standing { .. } => Vec::new(),
            // ICC's event list: logged for the operator; joining an ICC event is left to
            // the operator (its join command and confirmation text are the event's own).
            TourneyNotice::Offered {
                index,
                description,
                join_command,
                ..
            } => {
                tracing::info!("ICC event #{index}: {description} (join with {join_command:?})");
                Vec::new()
            }
            TourneyNotice::Withdrawn { index } => {
                tracing::debug!("ICC event #{index} closed");
                Vec::new()
            }
            TourneyNotice::Unreadable { text } => {
                tracing::warn!("a tournament notice of an unknown shape, ignored: {text:?}");
                Vec::new()
            }
        }
    }

    /// A `:X notes:` reply: the answer to `join` (or news of the tournament).
    fn note(&mut self, director: &str, text: &str, now: Instant) {
        let Phase::Joining {
            director: d,
            number,
            ..
        } = &self.phase
        else {
            return;
        };
        if !d.eq_ignore_ascii_case(director) || text.is_empty() {
            return;
        }
        let number = *number;
        let lower = text.to_ascii_lowercase();
        if lower.contains("you joined") || lower.contains("already in this tourney") {
            self.enter(director, number, now);
        } else if lower.contains("can not join")
            || lower.contains("cannot join")
            || lower.contains("not found")
            || lower.contains("sorry")
            || lower.contains("not open")
        {
            tracing::info!("{director} refused the join of tourney #{number}: {text}");
            self.done.insert(key(director, number));
            self.phase = Phase::Idle;
        }
    }

    /// The periodic check: a join never answered, a stalled tournament (withdrawn from),
    /// the list asked for while idle. `idle`: no game in progress.
    pub fn tick(&mut self, now: Instant, idle: bool) -> Vec<String> {
        match &self.phase {
            Phase::Joining {
                director,
                number,
                at,
            } => {
                if now.saturating_duration_since(*at) >= JOIN_ANSWER {
                    tracing::warn!("{director} never answered the join of tourney #{number}");
                    self.done.insert(key(director, *number));
                    self.phase = Phase::Idle;
                }
                Vec::new()
            }
            Phase::Entered(e) => {
                let stall = Duration::from_secs(self.cfg.stall_mins * 60).max(e.game_time);
                if e.playing.is_none() && idle && now.saturating_duration_since(e.last) >= stall {
                    tracing::warn!(
                        "{} tourney #{} has been silent for {} min: withdrawing",
                        e.director,
                        e.number,
                        self.cfg.stall_mins
                    );
                    return self.withdraw();
                }
                Vec::new()
            }
            Phase::Idle => {
                let every = Duration::from_secs(self.cfg.list_every_mins * 60);
                let due = self
                    .last_list
                    .is_none_or(|t| now.saturating_duration_since(t) >= every);
                if self.cfg.join && idle && self.cfg.list_every_mins > 0 && due {
                    return self.list_commands(now);
                }
                Vec::new()
            }
        }
    }

    /// Leaves the tournament the bot is in or joining (the director is told).
    pub fn withdraw(&mut self) -> Vec<String> {
        let (director, number) = match &self.phase {
            Phase::Idle => return Vec::new(),
            Phase::Joining {
                director, number, ..
            } => (director.clone(), *number),
            Phase::Entered(e) => (e.director.clone(), e.number),
        };
        self.phase = Phase::Idle;
        self.done.insert(key(&director, number));
        if number == 0 || !valid_handle(&director) {
            return Vec::new();
        }
        self.stats.withdrawn += 1;
        vec![format!("tell {director} withdraw {number}")]
    }

    /// While in a tournament the server refuses every other match: a challenge then is
    /// the director's pairing, accepted whatever the everyday filters say.
    pub fn takes_challenge(&self, _name: &str) -> bool {
        matches!(&self.phase, Phase::Entered(e) if e.playing.is_none())
    }

    /// No seeking while joining or in a tournament (the next round may be paired at any
    /// moment).
    pub fn blocks_seeking(&self) -> bool {
        self.phase != Phase::Idle
    }

    /// A game of the account started.
    pub fn game_started(&mut self, opponent: &str, now: Instant) {
        if let Phase::Entered(e) = &mut self.phase {
            e.playing = Some(opponent.to_string());
            e.last = now;
        }
    }

    /// A game of the account ended: the PGN `Event` and `Round` values when it was a
    /// tournament game.
    pub fn game_over(&mut self, opponent: &str) -> Option<(String, String)> {
        let Phase::Entered(e) = &mut self.phase else {
            return None;
        };
        let ours = e
            .playing
            .take()
            .is_some_and(|p| p.eq_ignore_ascii_case(opponent));
        if !ours {
            return None;
        }
        self.stats.games += 1;
        let mut event = match e.number {
            0 => format!("{} tourney", e.director),
            n => format!("{} tourney #{n}", e.director),
        };
        if let Some(d) = &e.describe {
            event.push_str(&format!(" ({d})"));
        }
        Some((event, e.round.to_string()))
    }

    /// A sign of life at `now` (a game of the account just ended): the stall wait starts
    /// again.
    pub fn touch(&mut self, now: Instant) {
        if let Phase::Entered(e) = &mut self.phase {
            e.playing = None;
            e.last = now;
        }
    }

    /// A few words for the status line (`None` when idle).
    pub fn status(&self) -> Option<String> {
        match &self.phase {
            Phase::Idle => None,
            Phase::Joining {
                director, number, ..
            } => Some(format!("joining {director} tourney #{number}")),
            Phase::Entered(e) => Some(format!(
                "in {} tourney #{}, round {}{}",
                e.director,
                e.number,
                e.round,
                e.rounds.map(|r| format!(" of {r}")).unwrap_or_default()
            )),
        }
    }
}

fn key(director: &str, number: u32) -> (String, u32) {
    (director.to_ascii_lowercase(), number)
}

/// The longest a game of `i` may last: both clocks, and the increment for 60 moves of
/// each side.
fn longest_game(i: &TourneyInfo) -> Duration {
    Duration::from_secs(2 * (u64::from(i.base) * 60 + 60 * u64::from(i.increment)))
}

fn describe(i: &TourneyInfo) -> String {
    let mut s = format!(
        "{} {} {} {}",
        i.base,
        i.increment,
        if i.rated { "rated" } else { "unrated" },
        i.style
    );
    if i.variant != "chess" {
        s.push(' ');
        s.push_str(&i.variant);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(base: u32, increment: u32) -> TourneyInfo {
        TourneyInfo {
            director: "mamer".into(),
            number: 4,
            base,
            increment,
            rated: false,
            style: "swiss".into(),
            variant: "chess".into(),
            rating_range: (0, 9999),
            players: 0,
            rounds: None,
            computers: None,
        }
    }

    fn entered(base: u32, increment: u32) -> (TourneyPlay, Instant) {
        let cfg = TourneySection {
            join: true,
            stall_mins: 20,
            ..TourneySection::default()
        };
        let mut t = TourneyPlay::new(cfg);
        let now = Instant::now();
        let joined = t.notice(
            &TourneyNotice::Announced(info(base, increment)),
            "wily",
            now,
        );
        assert_eq!(joined, vec!["tell mamer join 4".to_string()]);
        t.notice(
            &TourneyNotice::Flag {
                director: "mamer".into(),
                on: true,
            },
            "wily",
            now,
        );
        assert!(matches!(t.phase(), Phase::Entered(_)));
        (t, now)
    }

    #[test]
    fn a_slow_round_is_not_a_stall() {
        // 45 45: a game may last three hours; twenty minutes of quiet is no stall.
        let (mut t, now) = entered(45, 45);
        let later = now + Duration::from_secs(21 * 60);
        assert!(t.tick(later, true).is_empty());
        let much_later = now + Duration::from_secs(3 * 3600 + 1);
        assert_eq!(
            t.tick(much_later, true),
            vec!["tell mamer withdraw 4".to_string()]
        );
        // 1 0: twenty minutes is the wait.
        let (mut t, now) = entered(1, 0);
        assert_eq!(
            t.tick(now + Duration::from_secs(20 * 60), true),
            vec!["tell mamer withdraw 4".to_string()]
        );
    }

    #[test]
    fn the_others_games_are_signs_of_life() {
        let (mut t, now) = entered(1, 0);
        let report = TourneyNotice::GameReported {
            director: "mamer".into(),
            number: 4,
            white: "Alpha".into(),
            black: "Beta".into(),
            ended: true,
            text: "Alpha resigns 0-1".into(),
        };
        let t1 = now + Duration::from_secs(15 * 60);
        t.notice(&report, "wily", t1);
        assert!(t.tick(now + Duration::from_secs(25 * 60), true).is_empty());
        assert_eq!(
            t.tick(t1 + Duration::from_secs(20 * 60), true),
            vec!["tell mamer withdraw 4".to_string()]
        );
    }
}
