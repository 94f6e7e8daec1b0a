//! From lines to events: [`parse_line`] sends one line to the parser for its concern
//! (board, game, offers, seeks, chat, notices, lists), and [`Parser`] adds the little state
//! a line stream needs: joining wrapped lines with their `\` continuation, dropping the
//! repeated `Continuing` line some servers send when an adjourned game resumes, and
//! collecting the entries of a display that follow its header line (`=follow`, the
//! players online with an adjourned game, the stored games, the notes of a `finger`).
//!
//! No parser ever panics on input; a line nobody recognises becomes [`Event::Unknown`].

pub mod chat;
pub mod finger;
pub mod game;
pub mod listings;
pub mod lists;
pub mod notices;
pub mod offers;
pub mod seeks;
pub mod style12;
pub mod tourney;

pub use style12::ClockUnit;

use crate::events::{Event, Prompt};

/// Parses one line (no state). `None` for a blank line.
pub fn parse_line(line: &str, unit: ClockUnit) -> Option<Event> {
    let t = line.trim_end();
    let first = *t.trim_start().as_bytes().first()?;
    if t.starts_with("<12>") {
        return Some(match style12::parse(t, unit) {
            Ok(b) => Event::Board(Box::new(b)),
            Err(_) => Event::Unknown(t.to_string()),
        });
    }
    let ev = match first {
        b'{' => game::parse(t),
        b'<' => seeks::parse(t).or_else(|| offers::parse(t)),
        _ => tourney::parse(t)
            .or_else(|| listings::parse(t))
            .or_else(|| lists::parse(t))
            .or_else(|| notices::parse(t))
            .or_else(|| game::parse(t))
            .or_else(|| offers::parse(t))
            .or_else(|| seeks::parse(t))
            .or_else(|| chat::parse(t)),
    };
    Some(ev.unwrap_or_else(|| Event::Unknown(t.to_string())))
}

/// A joined line never grows beyond this (endless continuations are cut).
const MAX_JOINED: usize = 16 * 1024;

/// A line that may be continued on the next line (`\   ...`) is held until the next line
/// or prompt shows whether it is.
fn may_continue(ev: &Event, line: &str) -> bool {
    match ev {
        Event::Chat(_) => true,
        Event::Challenge(_) | Event::Issuing(_) => !line.trim_end().ends_with('.'),
        Event::Tourney(n) => tourney::may_continue(n),
        _ => false,
    }
}

/// A display of several lines being read after its header line.
enum Display {
    /// A list (`=follow`): its name, the count its header announced, the names so far.
    List {
        list: String,
        count: usize,
        names: Vec<String>,
    },
    /// The players online with an adjourned game with us: how many, the names so far.
    AdjournedOnline { count: usize, names: Vec<String> },
    /// The stored games of a player (`stored`), ended by any other line.
    Stored {
        player: String,
        games: Vec<(String, String)>,
    },
    /// A `finger` display: whose, and its note lines so far. Other lines (the statistics,
    /// or an event that arrives in the middle) go to the parsers as usual and leave the
    /// display open; the prompt ends it.
    Finger { name: String, notes: Vec<String> },
}

impl Display {
    /// The display a header line starts.
    fn start(line: &str) -> Option<Display> {
        if let Some((list, count)) = lists::header(line) {
            return Some(Display::List {
                list,
                count,
                names: Vec::new(),
            });
        }
        if let Some(count) = lists::adjourned_online_header(line) {
            return Some(Display::AdjournedOnline {
                count,
                names: Vec::new(),
            });
        }
        if let Some(name) = finger::header(line) {
            return Some(Display::Finger {
                name,
                notes: Vec::new(),
            });
        }
        lists::stored_header(line).map(|player| Display::Stored {
            player,
            games: Vec::new(),
        })
    }

    /// True for a display that other lines do not end (only the prompt or another
    /// display's header does).
    fn stays_open(&self) -> bool {
        matches!(self, Display::Finger { .. })
    }

    /// Takes `line` when it belongs to the display; false when it is other output.
    /// Never more names than the header announced: a line that would overflow is other
    /// output.
    fn take(&mut self, line: &str) -> bool {
        match self {
            Display::List { count, names, .. } | Display::AdjournedOnline { count, names } => {
                match lists::entries(line).filter(|n| names.len() + n.len() <= *count) {
                    Some(n) => {
                        names.extend(n);
                        true
                    }
                    None => false,
                }
            }
            Display::Stored { player, games } => match lists::stored_row(line, player) {
                Some(Some(g)) if games.len() < MAX_ROWS => {
                    games.push(g);
                    true
                }
                Some(None) => true,
                _ => false,
            },
            Display::Finger { notes, .. } => match finger::note(line) {
                Some((n, text)) if n == notes.len() + 1 && n <= MAX_NOTES => {
                    notes.push(text);
                    true
                }
                _ => false,
            },
        }
    }

    /// True when every announced entry has come.
    fn complete(&self) -> bool {
        match self {
            Display::List { count, names, .. } | Display::AdjournedOnline { count, names } => {
                names.len() >= *count
            }
            Display::Stored { .. } | Display::Finger { .. } => false,
        }
    }

    fn into_event(self) -> Event {
        match self {
            Display::List { list, names, .. } => Event::ListMembers { list, names },
            Display::AdjournedOnline { names, .. } => Event::AdjournedOnline { names },
            Display::Stored { player, games } => Event::StoredGames { player, games },
            Display::Finger { name, notes } => Event::FingerNotes { name, notes },
        }
    }
}

/// A stored-games display never holds more rows than this (the rest is other output).
const MAX_ROWS: usize = 1000;
/// A finger display never holds more notes than this.
const MAX_NOTES: usize = 99;

/// The stateful line parser of one connection.
#[derive(Default)]
pub struct Parser {
    unit: ClockUnit,
    held: Option<String>,
    last_start: Option<String>,
    list: Option<Display>,
    /// The director whose `:X Notes:` header the `:` lines now read follow.
    notes_from: Option<String>,
}

impl Parser {
    pub fn new(unit: ClockUnit) -> Parser {
        Parser {
            unit,
            held: None,
            last_start: None,
            list: None,
            notes_from: None,
        }
    }

    pub fn set_clock_unit(&mut self, unit: ClockUnit) {
        self.unit = unit;
    }

    /// Parses a complete line; events go to `out`.
    pub fn line(&mut self, line: &str, out: &mut Vec<Event>) {
        if let Some(rest) = line.strip_prefix('\\') {
            if let Some(held) = self
                .held
                .as_mut()
                .filter(|h| h.len() + rest.len() <= MAX_JOINED)
            {
                let trimmed_len = held.trim_end().len();
                held.truncate(trimmed_len);
                held.push(' ');
                held.push_str(rest.trim());
                return;
            }
        }
        self.flush_held(out);
        if self.list_line(line, out) {
            return;
        }
        let Some(ev) = parse_line(line, self.unit) else {
            return;
        };
        let ev = self.director_context(ev, line);
        if may_continue(&ev, line) {
            self.held = Some(line.to_string());
            return;
        }
        self.emit(ev, line, out);
    }

    /// A prompt ends any held line.
    pub fn prompt(&mut self, p: Prompt, out: &mut Vec<Event>) {
        self.flush(out);
        out.push(Event::Prompt(p));
    }

    /// Emits a held line and a list display being read now (call when the stream has been
    /// idle a moment).
    pub fn flush(&mut self, out: &mut Vec<Event>) {
        self.flush_held(out);
        self.finish_list(out);
    }

    /// Takes a display's header or entries; true when `line` was one.
    fn list_line(&mut self, line: &str, out: &mut Vec<Event>) -> bool {
        if let Some(d) = &mut self.list {
            if line.trim().is_empty() {
                return true;
            }
            if d.take(line) {
                if d.complete() {
                    self.finish_list(out);
                }
                return true;
            }
            if d.stays_open() && Display::start(line).is_none() {
                return false;
            }
            self.finish_list(out);
        }
        let Some(d) = Display::start(line) else {
            return false;
        };
        let done = d.complete();
        self.list = Some(d);
        if done {
            self.finish_list(out);
        }
        true
    }

    /// Emits the display being read (complete, or cut short by other output).
    fn finish_list(&mut self, out: &mut Vec<Event>) {
        if let Some(d) = self.list.take() {
            out.push(d.into_event());
        }
    }

    /// `listtourneys` rows name no director: they get the one whose `:X Notes:` header
    /// they follow. Any line not starting with `:` ends that header's reply.
    fn director_context(&mut self, mut ev: Event, line: &str) -> Event {
        use crate::tourney::TourneyNotice;
        if !line.starts_with(':') {
            self.notes_from = None;
            return ev;
        }
        match &mut ev {
            Event::Tourney(TourneyNotice::Note { director, .. }) => {
                self.notes_from = Some(director.clone());
            }
            Event::Tourney(TourneyNotice::Listed(row)) => {
                if let Some(d) = &self.notes_from {
                    row.info.director = d.clone();
                }
            }
            _ => {}
        }
        ev
    }

    fn flush_held(&mut self, out: &mut Vec<Event>) {
        if let Some(held) = self.held.take() {
            if let Some(ev) = parse_line(&held, self.unit) {
                self.emit(ev, &held, out);
            }
        }
    }

    /// True when a line is held waiting for a possible continuation, or a list display
    /// may go on.
    pub fn has_held(&self) -> bool {
        self.held.is_some() || self.list.is_some()
    }

    fn emit(&mut self, ev: Event, line: &str, out: &mut Vec<Event>) {
        match &ev {
            // Milliseconds are a session setting: once seen, keep reading them.
            Event::Board(b) if b.clocks_in_ms && self.unit == ClockUnit::Auto => {
                self.unit = ClockUnit::Milliseconds;
                self.last_start = None;
            }
            Event::GameStart(_) => {
                let t = line.trim();
                if self.last_start.as_deref() == Some(t) {
                    return; // the same start line twice in a row: one game start
                }
                self.last_start = Some(t.to_string());
            }
            Event::Board(_) | Event::GameEnd(_) => self.last_start = None,
            _ => {}
        }
        out.push(ev);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::{ChatKind, MatchOffer};

    fn feed(lines: &[&str]) -> Vec<Event> {
        let mut p = Parser::new(ClockUnit::Auto);
        let mut out = Vec::new();
        for l in lines {
            p.line(l, &mut out);
        }
        p.flush(&mut out);
        out
    }

    #[test]
    fn wrapped_challenge_is_joined() {
        let out = feed(&[
            "Challenge: BetaBot (1720) AlphaBot (1720) unrated wild 5 0 Loaded from blitz/0",
            "\\   (adjourned).",
            "You can \"accept\" or \"decline\", or propose different parameters.",
        ]);
        match &out[0] {
            Event::Challenge(MatchOffer {
                adjourned, variant, ..
            }) => {
                assert!(*adjourned);
                assert_eq!(variant.as_deref(), Some("blitz/0"));
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(out[1], Event::Unknown(_)));
        assert_eq!(out.len(), 2);
    }

    #[test]
    fn wrapped_tell_is_joined_and_prompt_flushes() {
        let mut p = Parser::new(ClockUnit::Auto);
        let mut out = Vec::new();
        p.line("Hyatt tells you: this is a long", &mut out);
        assert!(out.is_empty() && p.has_held());
        p.line("\\   tell text", &mut out);
        p.prompt(Prompt::Command, &mut out);
        match &out[0] {
            Event::Chat(c) => {
                assert_eq!(c.kind, ChatKind::Tell);
                assert_eq!(c.text, "this is a long tell text");
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(out[1], Event::Prompt(Prompt::Command));
    }

    #[test]
    fn endless_continuations_are_cut() {
        let mut p = Parser::new(ClockUnit::Auto);
        let mut out = Vec::new();
        p.line("Someone tells you: start", &mut out);
        let piece = format!("\\   {}", "x".repeat(1000));
        for _ in 0..100 {
            p.line(&piece, &mut out);
        }
        p.flush(&mut out);
        assert!(p.held.is_none());
        assert!(matches!(&out[0], Event::Chat(c) if c.text.len() < MAX_JOINED));
        assert!(out.len() > 1);
    }

    #[test]
    fn repeated_continuing_line_is_dropped() {
        let start = "{Game 1 (AlphaBot vs. BetaBot) Continuing unrated blitz match.}";
        let out = feed(&[
            start,
            "",
            "Creating: AlphaBot (1720) BetaBot (1720) unrated blitz 5 0",
            "",
            start,
        ]);
        let starts = out
            .iter()
            .filter(|e| matches!(e, Event::GameStart(_)))
            .count();
        assert_eq!(starts, 1);
    }

    #[test]
    fn milliseconds_stick_once_seen() {
        let first = "<12> rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR W -1 1 1 1 1 0 7 A B 1 1 0 39 39 60000 60000 1 none (0:00.000) none 0 1 0";
        let late = "<12> rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR W -1 1 1 1 1 0 7 A B 1 1 0 39 39 45 900 30 P/e2-e4 (0:00) e4 0 1 0";
        let out = feed(&[first, late]);
        let clocks: Vec<(i64, bool)> = out
            .iter()
            .filter_map(|e| match e {
                Event::Board(b) => Some((b.white_clock_ms, b.clocks_in_ms)),
                _ => None,
            })
            .collect();
        assert_eq!(clocks, vec![(60_000, true), (45, true)]);
        // Alone, the late line would read as seconds.
        match parse_line(late, ClockUnit::Auto) {
            Some(Event::Board(b)) => assert_eq!(b.white_clock_ms, 45_000),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn finger_notes_are_collected_until_the_prompt() {
        let mut p = Parser::new(ClockUnit::Auto);
        let mut out = Vec::new();
        for l in [
            "Statistics for wily(C)          On for: 3 secs   Idle: 0 secs",
            "",
            "         rating     RD     win   loss   draw  total   best",
            "Blitz     1500    350.0      0      0      0      0      0",
            "",
            "Timeseal: On",
            "",
            " 1: first note",
            "Bob tells you: hi",
            " 2:",
            " 3: third note",
        ] {
            p.line(l, &mut out);
        }
        p.prompt(Prompt::Command, &mut out);
        let notes: Vec<&Event> = out
            .iter()
            .filter(|e| matches!(e, Event::FingerNotes { .. }))
            .collect();
        assert_eq!(
            notes,
            vec![&Event::FingerNotes {
                name: "wily".into(),
                notes: vec!["first note".into(), String::new(), "third note".into()],
            }]
        );
        // The tell in the middle is not lost.
        assert!(out
            .iter()
            .any(|e| matches!(e, Event::Chat(c) if c.from == "Bob" && c.text == "hi")));
        // A finger without notes says so.
        let out = feed(&["Statistics for Alpha     (Not logged in.)", "Timeseal: no"]);
        assert!(out.contains(&Event::FingerNotes {
            name: "Alpha".into(),
            notes: Vec::new()
        }));
    }

    #[test]
    fn blank_and_unknown_lines() {
        assert_eq!(parse_line("   ", ClockUnit::Auto), None);
        assert_eq!(parse_line("", ClockUnit::Auto), None);
        assert_eq!(
            parse_line("Hello there", ClockUnit::Auto),
            Some(Event::Unknown("Hello there".into()))
        );
        assert_eq!(
            parse_line("<12> broken", ClockUnit::Auto),
            Some(Event::Unknown("<12> broken".into()))
        );
        assert_eq!(
            feed(&["\\ orphan"]),
            vec![Event::Unknown("\\ orphan".into())]
        );
    }

    fn members(names: &[&str]) -> Event {
        Event::ListMembers {
            list: "follow".into(),
            names: names.iter().map(|n| n.to_string()).collect(),
        }
    }

    #[test]
    fn list_display_names_are_collected() {
        assert_eq!(
            feed(&[
                "-- follow list: 3 names --",
                "RsAlpha  RsBeta   ",
                "RsGamma  ",
                "Style 12 set."
            ]),
            vec![
                members(&["RsAlpha", "RsBeta", "RsGamma"]),
                Event::SettingAck {
                    text: "Style 12 set.".into()
                }
            ]
        );
        assert_eq!(feed(&["-- follow list: 0 names --"]), vec![members(&[])]);
        // Cut short by other output or a prompt: what was read so far.
        let mut p = Parser::new(ClockUnit::Auto);
        let mut out = Vec::new();
        p.line("-- follow list: 2 names --", &mut out);
        p.line("RsAlpha  ", &mut out);
        assert!(out.is_empty() && p.has_held());
        p.prompt(Prompt::Command, &mut out);
        assert_eq!(
            out,
            vec![members(&["RsAlpha"]), Event::Prompt(Prompt::Command)]
        );
        assert_eq!(
            feed(&[
                "-- follow list: 2 names --",
                "RsAlpha",
                "You are now observing game 3."
            ]),
            vec![members(&["RsAlpha"]), Event::ObserveStarted { game: 3 }]
        );
    }

    #[test]
    fn adjourned_players_online_are_collected() {
        let online = |names: &[&str]| Event::AdjournedOnline {
            names: names.iter().map(|n| n.to_string()).collect(),
        };
        // lasker and FICS at login: the header (with a bell), the names, a blank line.
        assert_eq!(
            feed(&[
                "1 player, who has an adjourned game with you, is online:\x07",
                "wilybot  ",
                "",
                "Style 12 set."
            ]),
            vec![
                online(&["wilybot"]),
                Event::SettingAck {
                    text: "Style 12 set.".into()
                }
            ]
        );
        // Cut short: the names so far; the other line is parsed as usual.
        assert_eq!(
            feed(&[
                "2 players, who have an adjourned game with you, are online:",
                "AlphaBot",
                "You are now observing game 3."
            ]),
            vec![online(&["AlphaBot"]), Event::ObserveStarted { game: 3 }]
        );
    }

    #[test]
    fn stored_games_are_collected() {
        let stored = |games: &[(&str, &str)]| Event::StoredGames {
            player: "AlphaBot".into(),
            games: games
                .iter()
                .map(|(w, b)| (w.to_string(), b.to_string()))
                .collect(),
        };
        assert_eq!(
            feed(&[
                "Stored games for AlphaBot:",
                "   wilybot vs. alphabot",
                "   alphabot vs. betabot",
                "2 stored games found."
            ]),
            vec![
                stored(&[("wilybot", "alphabot"), ("alphabot", "betabot")]),
                Event::AdjournedGames { count: 2 }
            ]
        );
        // FICS's shape: a column heading, numbered rows with AlphaBot's colour.
        assert_eq!(
            feed(&[
                "Stored games for AlphaBot:",
                "    C Opponent       On Type          Str  M    ECO Date",
                " 1: W WilyBot        Y [ br  2  12]  39-39 W3   C44 Thu Nov 26, 11:03 UTC 2026",
                " 2: B BetaBot        N [ lu  1   0]  39-39 B9   A00 Thu Nov 26, 11:04 UTC 2026",
            ]),
            vec![stored(&[("AlphaBot", "WilyBot"), ("BetaBot", "AlphaBot")])]
        );
        // A header alone, then garbage: an empty list and the garbage as it is.
        assert_eq!(
            feed(&["Stored games for AlphaBot:", "   wilybot vs."]),
            vec![stored(&[]), Event::Unknown("   wilybot vs.".into())]
        );
        let mut p = Parser::new(ClockUnit::Auto);
        let mut out = Vec::new();
        p.line("Stored games for AlphaBot:", &mut out);
        p.prompt(Prompt::Command, &mut out);
        assert_eq!(out, vec![stored(&[]), Event::Prompt(Prompt::Command)]);
    }

    #[test]
    fn lasker_resume_challenge_is_joined() {
        let out = feed(&[
            "Challenge: wilybot (----) AlphaBot (----) unrated wild 2 0 : 2 2 Loaded from ",
            "\\   non-standard/0 (adjourned).",
            "You can \"accept\" or \"decline\", or propose different parameters.",
        ]);
        match &out[0] {
            Event::Challenge(o) => {
                assert!(o.adjourned);
                assert_eq!(o.challenger.name, "wilybot");
                assert_eq!(o.variant.as_deref(), Some("non-standard/0"));
                assert_eq!((o.base_minutes, o.increment_secs), (2, 0));
                assert_eq!(o.other_clock, Some((2, 2)));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(out.len(), 2);
        // Cut after the first part (the continuation never came): a challenge without its
        // variant, not yet known to resume a game; a broken continuation stays unknown.
        match feed(&[
            "Challenge: wilybot (----) AlphaBot (----) unrated wild 2 0 : 2 2 Loaded from ",
        ])
        .as_slice()
        {
            [Event::Challenge(o)] => assert!(!o.adjourned && o.variant.is_none()),
            other => panic!("{other:?}"),
        }
        let out = feed(&[
            "Challenge: wilybot (----) AlphaBot (----) unrated wild 2 0 : 2 2 Loaded from ",
            "\\   non-standard/0 (adjourned) trailing ) garbage (",
        ]);
        assert!(matches!(out.as_slice(), [Event::Unknown(_)]), "{out:?}");
    }
}
