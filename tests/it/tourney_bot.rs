//! The bot's tournament play driven by real mamer traffic: the recordings in
//! `tests/fixtures/mamer/` (see the README there) replayed into a session (its engine
//! not run: it only follows the boards). With `[tourney] join = true` the session joins
//! the announced tournament (`tell mamer join N`, its seek taken back first), never seeks
//! while in it, records each game with `Event` and `Round` tags, counts the bye, and
//! seeks again once the director turns the tournament flag off. Settings that do not
//! suit keep it out; SIGTERM withdraws it; a stalled tournament, a join never answered
//! and a forfeit (the director removing it) all give normal play back; a pairing
//! challenge is accepted though `[accept]` is off.

use std::path::PathBuf;
use std::time::{Duration, Instant};
use wily::bot::hooks::NoBook;
use wily::bot::input::{Action, FinishedGame, Input, ServerEvent};
use wily::bot::session::Session;
use wily::bot::tourney::Phase;
use wily::bot::translate::translate;
use wily::config::Config;
use wily::ics::pipeline::{events_of, PipelineOptions};
use wily::ics::Event;
use wily::lists::OpponentLists;

fn fixture(name: &str) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/mamer")
        .join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn cfg() -> Config {
    let mut c = Config::default();
    c.server.local = false;
    c.server.handle = "wilybot".into();
    c.seek.ads.truncate(1);
    c.seek.ads[0].base = 1;
    c.seek.ads[0].increment = 0;
    c.engine.book = false;
    c.engine.ponder = false;
    c.talk.greeting.clear();
    c.talk.goodbye.clear();
    c.tourney.join = true;
    c
}

/// A replay: the session, what it sent (in order), the games it recorded.
struct Replay {
    s: Session,
    now: Instant,
    sent: Vec<String>,
    games: Vec<FinishedGame>,
}

impl Replay {
    fn new(cfg: Config) -> Replay {
        let mut r = Replay {
            s: Session::new(cfg, OpponentLists::default(), Box::new(NoBook)),
            now: Instant::now(),
            sent: Vec::new(),
            games: Vec::new(),
        };
        r.input(Input::Server(ServerEvent::LoggedIn {
            handle: "wilybot".into(),
        }));
        r
    }

    fn input(&mut self, i: Input) {
        for a in self.s.handle(i, self.now) {
            match a {
                Action::Send(t) | Action::SendNow(t) => self.sent.push(t),
                Action::GameOver(f) => self.games.push(*f),
                _ => {}
            }
        }
    }

    /// Feeds the events of `bytes`, a tick after each (time moves on 5 ms an event, as
    /// a packet's lines come together), until `stop` says so (that event is fed, its tick
    /// not); returns whether it stopped early.
    fn feed(&mut self, bytes: &[u8], stop: impl Fn(&Event) -> bool) -> bool {
        let (events, _) = events_of(bytes, &[usize::MAX], PipelineOptions::default());
        for ev in events {
            let halt = stop(&ev);
            if let Some(i) = translate(ev, self.now) {
                self.input(Input::Server(i));
            }
            if halt {
                return true;
            }
            self.now += Duration::from_millis(5);
            self.input(Input::Tick);
        }
        false
    }

    fn sent_after(&self, from: usize) -> &[String] {
        &self.sent[from..]
    }
}

fn is_seek(t: &str) -> bool {
    t.starts_with("seek ")
}

fn flag_off(e: &Event) -> bool {
    matches!(
        e,
        Event::Tourney(wily::ics::events::TourneyNotice::Flag { on: false, .. })
    )
}

fn joined(e: &Event) -> bool {
    matches!(e, Event::Tourney(wily::ics::events::TourneyNotice::Note { text, .. })
        if text == "You joined the tournament.")
}

#[test]
fn wily_joins_plays_every_round_and_records_them() {
    let mut r = Replay::new(cfg());
    assert!(r.sent.contains(&"+channel 49".to_string()), "{:?}", r.sent);
    assert!(r.sent.contains(&"tell mamer listtourneys".to_string()));
    r.feed(&fixture("swiss_4p.wilybot.raw"), |_| false);
    let join = r
        .sent
        .iter()
        .position(|t| t == "tell mamer join 6")
        .unwrap_or_else(|| panic!("{:?}", r.sent));
    // Its seek went out at login, and was taken back just before the join.
    let first_seek = r.sent.iter().position(|t| is_seek(t)).expect("a seek");
    assert!(first_seek < join);
    assert_eq!(r.sent[join - 1], "unseek");
    assert_eq!(r.sent.iter().filter(|t| t.contains(" join ")).count(), 1);
    // The session ends seeking again: after the flag went off, not before.
    let again = r.sent[join..]
        .iter()
        .position(|t| is_seek(t))
        .expect("seeking again after the tournament")
        + join;
    assert_eq!(r.s.tourney().phase(), &Phase::Idle);
    let st = r.s.tourney().stats();
    assert_eq!((st.joined, st.games, st.finished, st.byes), (1, 3, 1, 0));
    assert_eq!(r.games.len(), 3);
    for (i, g) in r.games.iter().enumerate() {
        assert_eq!(g.record.event, "mamer tourney #6 (1 0 unrated swiss)");
        assert_eq!(g.record.round, (i + 1).to_string());
        let pgn = g.record.to_pgn();
        assert!(pgn.contains(&format!("[Round \"{}\"]", i + 1)), "{pgn}");
    }
    // Replayed to the moment of the flag: nothing sought in between.
    let mut r2 = Replay::new(cfg());
    assert!(r2.feed(&fixture("swiss_4p.wilybot.raw"), flag_off));
    let join2 = r2
        .sent
        .iter()
        .position(|t| t == "tell mamer join 6")
        .unwrap();
    assert!(
        !r2.sent_after(join2).iter().any(|t| is_seek(t)),
        "{:?}",
        r2.sent
    );
    assert!(again > join);
}

#[test]
fn the_bye_is_counted_and_the_other_rounds_recorded() {
    let mut r = Replay::new(cfg());
    r.feed(&fixture("roundrobin_5p_bye.wilybot.raw"), |_| false);
    assert!(
        r.sent.contains(&"tell mamer join 7".to_string()),
        "{:?}",
        r.sent
    );
    let st = r.s.tourney().stats();
    assert_eq!((st.joined, st.games, st.byes, st.finished), (1, 4, 1, 1));
    let rounds: Vec<&str> = r.games.iter().map(|g| g.record.round.as_str()).collect();
    assert_eq!(rounds.len(), 4);
    let mut all: Vec<u32> = rounds.iter().map(|x| x.parse().unwrap()).collect();
    all.dedup();
    assert_eq!(all.len(), 4, "four different rounds: {rounds:?}");
    assert!(r
        .games
        .iter()
        .all(|g| g.record.event == "mamer tourney #7 (1 0 unrated round robin)"));
    // The server accepted every pairing by itself: wily sent no accept, no decline.
    assert!(!r
        .sent
        .iter()
        .any(|t| t.starts_with("accept ") || t.starts_with("decline ")));
}

#[test]
fn unsuitable_settings_keep_it_out() {
    for change in [
        (|c: &mut Config| c.tourney.join = false) as fn(&mut Config),
        |c| c.tourney.time_controls = vec!["3 0".into()],
        |c| c.tourney.rated = "rated".into(),
        |c| c.tourney.variants = vec!["chess960".into()],
        |c| c.tourney.directors = vec!["somebot".into()],
        |c| c.tourney.require_computer_mark = true,
    ] {
        let mut c = cfg();
        change(&mut c);
        let mut r = Replay::new(c);
        r.feed(&fixture("swiss_4p.wilybot.raw"), |_| false);
        assert!(!r.sent.iter().any(|t| t.contains(" join ")), "{:?}", r.sent);
    }
}

#[test]
fn sigterm_withdraws_from_the_tournament() {
    let mut r = Replay::new(cfg());
    assert!(r.feed(&fixture("swiss_4p.wilybot.raw"), joined));
    let from = r.sent.len();
    r.input(Input::Shutdown { now: false });
    assert!(
        r.sent_after(from)
            .contains(&"tell mamer withdraw 6".to_string()),
        "{:?}",
        r.sent_after(from)
    );
    assert_eq!(r.s.tourney().phase(), &Phase::Idle);
    assert_eq!(r.s.tourney().stats().withdrawn, 1);
}

#[test]
fn a_stalled_tournament_gives_normal_play_back() {
    let mut c = cfg();
    c.tourney.stall_mins = 5;
    let mut r = Replay::new(c);
    assert!(r.feed(&fixture("swiss_4p.wilybot.raw"), joined));
    assert!(matches!(r.s.tourney().phase(), Phase::Entered(_)));
    let from = r.sent.len();
    r.now += Duration::from_secs(4 * 60);
    r.input(Input::Tick);
    assert!(!r.sent_after(from).iter().any(|t| t.contains("withdraw")));
    r.now += Duration::from_secs(61);
    r.input(Input::Tick);
    r.now += Duration::from_secs(1);
    r.input(Input::Tick);
    let after = r.sent_after(from);
    assert!(
        after.contains(&"tell mamer withdraw 6".to_string()),
        "{after:?}"
    );
    assert!(after.iter().any(|t| is_seek(t)), "seeking again: {after:?}");
    // The same tournament is not joined again.
    let again = r.sent.len();
    r.feed(&fixture("swiss_4p.wilybot.raw"), |_| false);
    assert!(!r.sent[again..].iter().any(|t| t.contains(" join ")));
}

#[test]
fn a_join_never_answered_and_a_forfeit_give_normal_play_back() {
    // The join goes out on the announcement; the director never answers (the
    // tournament was deleted): two minutes later the bot is free and seeks.
    let bytes = fixture("swiss_4p.wilybot.raw");
    let (events, _) = events_of(&bytes, &[usize::MAX], PipelineOptions::default());
    let mut r = Replay::new(cfg());
    let mut seen = 0;
    for ev in events {
        if let Some(i) = translate(ev, r.now) {
            r.input(Input::Server(i));
        }
        if r.sent.iter().any(|t| t == "tell mamer join 6") {
            seen += 1;
            break;
        }
    }
    assert_eq!(seen, 1);
    assert!(r.s.tourney().blocks_seeking());
    let from = r.sent.len();
    r.now += Duration::from_secs(121);
    r.input(Input::Tick);
    r.input(Input::Tick);
    assert_eq!(r.s.tourney().phase(), &Phase::Idle);
    assert!(r.sent_after(from).iter().any(|t| is_seek(t)));

    // Forfeited after round 1: the director turns the flag off (the line as recorded).
    let mut r = Replay::new(cfg());
    let one_game = |e: &Event| matches!(e, Event::GameEnd(_));
    assert!(r.feed(&bytes, one_game));
    assert_eq!(r.games.len(), 1);
    assert_eq!(r.games[0].record.round, "1");
    let off = b"\n\rmamer has set your tourney variable to OFF.\n\rfics% ";
    r.feed(off, |_| false);
    assert_eq!(r.s.tourney().phase(), &Phase::Idle);
    r.now += Duration::from_secs(5);
    r.input(Input::Tick);
    assert!(
        r.sent.iter().rev().take(3).any(|t| is_seek(t)),
        "{:?}",
        r.sent
    );
}

#[test]
fn a_pairing_challenge_is_accepted_with_accept_off() {
    let mut c = cfg();
    c.accept.enabled = false;
    let mut r = Replay::new(c);
    assert!(r.feed(&fixture("swiss_4p.wilybot.raw"), joined));
    // A pairing offered as a plain challenge (the line as lasker prints it), with no
    // `You accept` from the server: wily accepts it.
    let from = r.sent.len();
    r.feed(
        b"\n\rChallenge: TPlayA (----) [white] wilybot (----) unrated lightning 1 0.\n\r\
          You can \"accept\" or \"decline\", or propose different parameters.\n\rfics% ",
        |_| false,
    );
    r.now += Duration::from_secs(1);
    r.input(Input::Tick);
    assert_eq!(r.sent_after(from), ["accept TPlayA".to_string()]);
    // Outside a tournament the same challenge is declined.
    let mut c = cfg();
    c.accept.enabled = false;
    c.tourney.join = false;
    let mut r = Replay::new(c);
    let from = r.sent.len();
    r.feed(
        b"\n\rChallenge: TPlayA (----) [white] wilybot (----) unrated lightning 1 0.\n\rfics% ",
        |_| false,
    );
    r.now += Duration::from_secs(1);
    r.input(Input::Tick);
    assert!(r.sent_after(from).contains(&"decline TPlayA".to_string()));
}
