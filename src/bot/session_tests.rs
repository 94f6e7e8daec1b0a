//! Unit tests of the session state machine: inputs in, actions out, no sockets.

use super::hooks::{BookPick, BookSource, NoBook};
use super::input::*;
use crate::bot::session::Session;
use crate::chess::castling::CastleFlags;
use crate::chess::{move_from_uci, parse_fen};
use crate::config::Config;
use crate::engine::{Score, SearchResult};
use crate::lists::{OpponentLists, ServerTitles};
use cozy_chess::Board;
use std::time::{Duration, Instant};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
const E4E5: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";

pub(super) fn cfg() -> Config {
    let mut c = Config::default();
    c.talk.greeting = String::new();
    c.talk.goodbye = String::new();
    c.talk.whisper = 0;
    c.engine.book = false;
    c.operators.handles = vec!["Boss".into()];
    // A test that edits the lists gives its own scratch folder; any other write fails here
    // instead of leaving a folder behind.
    c.paths.lists = "/proc/wily-session-tests-no-lists".into();
    c
}

pub(super) fn session_with(c: Config, book: Box<dyn BookSource>) -> (Session, Instant) {
    let mut s = Session::new(c, OpponentLists::default(), book);
    let now = Instant::now();
    s.handle(
        ev(ServerEvent::LoggedIn {
            handle: "wily".into(),
        }),
        now,
    );
    (s, now)
}

fn session() -> (Session, Instant) {
    session_with(cfg(), Box::new(NoBook))
}

pub(super) fn ev(e: ServerEvent) -> Input {
    Input::Server(e)
}

fn board(fen: &str, relation: Relation, last: Option<&str>, now: Instant) -> Input {
    ev(ServerEvent::Board(Box::new(BoardUpdate {
        game: 7,
        white: "wily".into(),
        black: "Bob".into(),
        relation,
        board: parse_fen(fen).unwrap(),
        castling: CastleFlags::of_board(&parse_fen(fen).unwrap()),
        white_ms: 60_000,
        black_ms: 60_000,
        base: 1,
        increment: 0,
        move_number: 1,
        last_move_verbose: last.map(String::from),
        last_move_san: None,
        last_move_ms: 100,
        received: now,
    })))
}

fn start_game(s: &mut Session, now: Instant) -> Vec<Action> {
    s.handle(
        ev(ServerEvent::GameStart {
            game: 7,
            white: "wily".into(),
            black: "Bob".into(),
            continuing: false,
            rated: false,
            category: "lightning".into(),
        }),
        now,
    );
    s.handle(board(START, Relation::MyMove, None, now), now)
}

pub(super) fn sends(a: &[Action]) -> Vec<String> {
    a.iter()
        .filter_map(|x| match x {
            Action::Send(s) | Action::SendNow(s) => Some(s.clone()),
            Action::SendMove { text, .. } => Some(format!("MOVE {text}")),
            _ => None,
        })
        .collect()
}

pub(super) fn started(a: &[Action]) -> Option<&SearchSpec> {
    a.iter().find_map(|x| match x {
        Action::StartSearch(s) => Some(&**s),
        _ => None,
    })
}

pub(super) fn result(b: &Board, best: &str, ponder: Option<&str>, cp: i32) -> SearchResult {
    let m = move_from_uci(b, best, false).unwrap();
    let mut after = b.clone();
    after.play(m);
    let p = ponder.map(|p| move_from_uci(&after, p, false).unwrap());
    SearchResult {
        best: Some(m),
        ponder: p,
        score: Score::Cp(cp),
        depth: 10,
        nodes: 1_000_000,
        time: Duration::from_millis(900),
        pv: std::iter::once(m).chain(p).collect(),
    }
}

#[test]
fn login_posts_the_seeks() {
    let (s, _) = session();
    let cmds = s.seek_commands();
    assert_eq!(
        cmds,
        vec!["seek 3 0 unrated", "seek 5 2 unrated"],
        "guest handle: unrated"
    );
    let mut c = cfg();
    c.server.handle = "wily".into();
    let mut s = Session::new(c, OpponentLists::default(), Box::new(NoBook));
    let a = s.handle(
        ev(ServerEvent::LoggedIn {
            handle: "wily".into(),
        }),
        Instant::now(),
    );
    // The follow list is read back even when nothing is followed (old entries go).
    assert_eq!(
        sends(&a),
        vec!["=follow", "seek 3 0 rated", "seek 5 2 rated"]
    );
}

#[test]
fn thinks_moves_ponders_and_ponder_hits() {
    let (mut s, now) = session();
    let a = start_game(&mut s, now);
    let spec = started(&a).expect("a search for the first move").clone();
    assert!(spec.new_game && !spec.limits.ponder);
    assert_eq!(spec.limits.wtime, Some(Duration::from_millis(60_000)));
    let start = parse_fen(START).unwrap();
    let a = s.handle(
        Input::Done {
            id: spec.id,
            result: result(&start, "e2e4", Some("e7e5"), 30),
        },
        now,
    );
    assert_eq!(sends(&a), vec!["MOVE e2e4"]);
    // The server echoes the move: ponder on e7e5.
    let a = s.handle(board(E4, Relation::OpponentMove, Some("P/e2-e4"), now), now);
    let ponder = started(&a).expect("ponder search").clone();
    assert!(ponder.limits.ponder);
    assert!(super::game::same_position(
        &ponder.board,
        &parse_fen(E4E5).unwrap()
    ));
    // The opponent plays it: ponder hit, no new search.
    let t = now + Duration::from_millis(5);
    let a = s.handle(board(E4E5, Relation::MyMove, Some("P/e7-e5"), t), t);
    assert!(a
        .iter()
        .any(|x| matches!(x, Action::PonderHit { id } if *id == ponder.id)));
    assert!(started(&a).is_none());
    let b = parse_fen(E4E5).unwrap();
    let a = s.handle(
        Input::Done {
            id: ponder.id,
            result: result(&b, "g1f3", None, 25),
        },
        t,
    );
    let m = a.iter().find_map(|x| match x {
        Action::SendMove {
            text,
            source,
            since,
        } => Some((text.clone(), *source, *since)),
        _ => None,
    });
    assert_eq!(
        m,
        Some(("g1f3".to_string(), MoveSource::PonderThenSearch, t))
    );
}

#[test]
fn ponder_miss_restarts_the_search() {
    let (mut s, now) = session();
    let a = start_game(&mut s, now);
    let id = started(&a).unwrap().id;
    let start = parse_fen(START).unwrap();
    s.handle(
        Input::Done {
            id,
            result: result(&start, "e2e4", Some("c7c5"), 30),
        },
        now,
    );
    let a = s.handle(board(E4, Relation::OpponentMove, Some("P/e2-e4"), now), now);
    let ponder = started(&a).unwrap().id;
    let a = s.handle(board(E4E5, Relation::MyMove, Some("P/e7-e5"), now), now);
    assert!(a
        .iter()
        .any(|x| matches!(x, Action::StopSearch { id } if *id == ponder)));
    let spec = started(&a).expect("a fresh search");
    assert!(!spec.limits.ponder);
    // A late result of the stopped ponder search is ignored.
    let b = parse_fen(E4E5).unwrap();
    let a = s.handle(
        Input::Done {
            id: ponder,
            result: result(&b, "g1f3", None, 0),
        },
        now,
    );
    assert!(sends(&a).is_empty());
}

pub(super) struct OneMoveBook;
impl BookSource for OneMoveBook {
    fn pick(&mut self, b: &Board, _: u32) -> Option<BookPick> {
        move_from_uci(b, "e2e4", false).ok().map(|mv| BookPick {
            mv,
            candidates: "e4 100%".into(),
            searched: false,
        })
    }
}

#[test]
fn book_moves_go_out_at_once() {
    let mut c = cfg();
    c.engine.book = true;
    c.talk.whisper = 4;
    let (mut s, now) = session_with(c, Box::new(OneMoveBook));
    let a = start_game(&mut s, now);
    assert!(started(&a).is_none());
    assert_eq!(sends(&a), vec!["MOVE e2e4", "whisper book 1. e4 (e4 100%)"]);
    assert!(a.iter().any(|x| matches!(
        x,
        Action::SendMove {
            source: MoveSource::Book,
            ..
        }
    )));
}

#[test]
fn policy_resign_integration() {
    // Drive the policy directly through the session's game: five low scores, plenty of
    // opponent time: resign; with the opponent short of time: play on.
    for (opp_ms, expect) in [(60_000i64, true), (10_000, false)] {
        let (mut s, now) = session();
        start_game(&mut s, now);
        let g = s.game.as_mut().unwrap();
        for _ in 0..4 {
            g.policy.record_score(-2000);
        }
        if let Some(c) = &mut g.clocks {
            c.black_ms = opp_ms;
            c.white_ms = 30_000;
        }
        let id = s.search.as_ref().unwrap().id;
        let b = parse_fen(START).unwrap();
        let a = s.handle(
            Input::Done {
                id,
                result: result(&b, "e2e4", None, -2000),
            },
            now,
        );
        assert_eq!(
            sends(&a).contains(&"resign".to_string()),
            expect,
            "opponent clock {opp_ms}"
        );
    }
}

#[test]
fn draw_abort_takeback_offers() {
    let (mut s, now) = session();
    start_game(&mut s, now);
    let a = s.handle(
        ev(ServerEvent::Offer {
            from: "Bob".into(),
            kind: OfferKind::Abort,
        }),
        now,
    );
    assert_eq!(sends(&a), vec!["abort"]);
    let a = s.handle(
        ev(ServerEvent::Offer {
            from: "Bob".into(),
            kind: OfferKind::Takeback,
        }),
        now,
    );
    assert_eq!(sends(&a), vec!["decline takeback"]);
    let a = s.handle(
        ev(ServerEvent::Offer {
            from: "Bob".into(),
            kind: OfferKind::Draw,
        }),
        now,
    );
    assert_eq!(sends(&a), vec!["decline draw"], "no score yet");
    s.game.as_mut().unwrap().policy.record_score(-10);
    let a = s.handle(
        ev(ServerEvent::Offer {
            from: "Bob".into(),
            kind: OfferKind::Draw,
        }),
        now,
    );
    assert_eq!(sends(&a), vec!["draw"]);
    let a = s.handle(
        ev(ServerEvent::Offer {
            from: "Mallory".into(),
            kind: OfferKind::Draw,
        }),
        now,
    );
    assert!(sends(&a).is_empty(), "offers from others are not ours");
}

#[test]
fn illegal_move_refreshes_and_thinks_again() {
    let (mut s, now) = session();
    let a = start_game(&mut s, now);
    let id = started(&a).unwrap().id;
    let b = parse_fen(START).unwrap();
    s.handle(
        Input::Done {
            id,
            result: result(&b, "e2e4", None, 0),
        },
        now,
    );
    let a = s.handle(
        ev(ServerEvent::IllegalMove {
            text: "Illegal move (e2e4).".into(),
        }),
        now,
    );
    assert_eq!(sends(&a), vec!["refresh"]);
    let a = s.handle(board(START, Relation::MyMove, None, now), now);
    assert!(started(&a).is_some(), "thinks again after the refresh");
}

#[test]
fn game_end_while_thinking_stops_and_records() {
    let (mut s, now) = session();
    let a = start_game(&mut s, now);
    let id = started(&a).unwrap().id;
    let a = s.handle(
        ev(ServerEvent::GameEnd {
            game: 7,
            white: "wily".into(),
            black: "Bob".into(),
            result: "1-0".into(),
            kind: EndKind::Resignation,
            text: "Bob resigns".into(),
        }),
        now,
    );
    assert!(a
        .iter()
        .any(|x| matches!(x, Action::StopSearch { id: i } if *i == id)));
    let over = a.iter().find_map(|x| match x {
        Action::GameOver(f) => Some(f),
        _ => None,
    });
    let f = over.expect("game recorded");
    assert_eq!(f.record.result, "1-0");
    assert_eq!(f.record.termination, "normal");
    assert_eq!(s.totals().wins, 1);
    assert!(
        sends(&a).iter().any(|c| c.starts_with("seek ")),
        "re-seeks after the game"
    );
    // The late result is ignored.
    let b = parse_fen(START).unwrap();
    assert!(sends(&s.handle(
        Input::Done {
            id,
            result: result(&b, "e2e4", None, 0)
        },
        now
    ))
    .is_empty());
}

fn challenge(
    name: &str,
    base: u32,
    computer_notice: bool,
    s: &mut Session,
    now: Instant,
) -> Vec<String> {
    let mut out = s.handle(
        ev(ServerEvent::Challenge(Challenge {
            name: name.into(),
            rating: Some(1500),
            registered: true,
            titles: ServerTitles::default(),
            rated: true,
            kind: "blitz".into(),
            variant: None,
            base,
            increment: 0,
            other_clock: None,
            adjourned: false,
        })),
        now,
    );
    if computer_notice {
        out.extend(s.handle(ev(ServerEvent::IsComputer { name: name.into() }), now));
    }
    out.extend(s.handle(Input::Tick, now + Duration::from_millis(200)));
    sends(&out)
        .into_iter()
        .filter(|c| !c.starts_with("seek") && c != "unseek")
        .collect()
}

#[test]
fn challenges_are_filtered_politely() {
    let (mut s, now) = session();
    assert_eq!(
        challenge("Alice", 3, false, &mut s, now),
        vec!["accept Alice"]
    );
    let d = challenge("Carol", 500, false, &mut s, now);
    assert_eq!(d.len(), 2, "{d:?}");
    assert!(d[0].starts_with("tell Carol Sorry Carol"));
    assert_eq!(d[1], "decline Carol");
    s.cfg.accept.computers = false;
    let d = challenge("DeepBot", 3, true, &mut s, now);
    assert_eq!(
        d.last().map(String::as_str),
        Some("decline DeepBot"),
        "{d:?}"
    );
    assert_eq!(s.totals().declined, 2);
}

#[test]
fn operator_obeyed_stranger_answered_once() {
    let (mut s, now) = session();
    let a = s.handle(
        ev(ServerEvent::Tell {
            from: "boss".into(),
            titles: ServerTitles::default(),
            text: "seek off".into(),
        }),
        now,
    );
    assert_eq!(sends(&a), vec!["unseek", "tell boss seeking off"]);
    assert!(!s.seeking);
    let a = s.handle(
        ev(ServerEvent::Tell {
            from: "boss".into(),
            titles: ServerTitles::default(),
            text: "rm -rf /".into(),
        }),
        now,
    );
    assert_eq!(sends(&a).len(), 1);
    assert!(sends(&a)[0].starts_with("tell boss unknown command rm"));
    let stranger = || {
        ev(ServerEvent::Tell {
            from: "Eve".into(),
            titles: ServerTitles::default(),
            text: "seek on".into(),
        })
    };
    let a = s.handle(stranger(), now);
    assert_eq!(sends(&a).len(), 1);
    assert!(sends(&a)[0].starts_with("tell Eve Hi!"));
    assert!(!s.seeking, "a stranger's command is not obeyed");
    assert!(
        sends(&s.handle(stranger(), now)).is_empty(),
        "answered once only"
    );
}

#[test]
fn list_change_changes_the_resign_threshold_mid_game() {
    let lists = crate::scratch::dir("session-lists");
    let mut c = cfg();
    c.paths.lists = lists.path().to_path_buf();
    let (mut s, now) = session_with(c, Box::new(NoBook));
    start_game(&mut s, now);
    assert_eq!(
        s.game.as_ref().unwrap().policy.profile().resign_cp,
        Some(900)
    );
    let a = s.handle(
        ev(ServerEvent::Tell {
            from: "Boss".into(),
            titles: ServerTitles::default(),
            text: "list GM +bob".into(),
        }),
        now,
    );
    assert!(sends(&a)[0].contains("added bob"), "{:?}", sends(&a));
    assert_eq!(
        s.game.as_ref().unwrap().policy.profile().resign_cp,
        Some(300)
    );
    s.handle(
        ev(ServerEvent::Tell {
            from: "Boss".into(),
            titles: ServerTitles::default(),
            text: "list GM -bob".into(),
        }),
        now,
    );
    assert_eq!(
        s.game.as_ref().unwrap().policy.profile().resign_cp,
        Some(900)
    );
}

#[test]
fn flags_an_opponent_whose_clock_ran_out() {
    let (mut s, now) = session();
    let a = start_game(&mut s, now);
    let id = started(&a).unwrap().id;
    let b = parse_fen(START).unwrap();
    s.handle(
        Input::Done {
            id,
            result: result(&b, "e2e4", None, 0),
        },
        now,
    );
    s.handle(board(E4, Relation::OpponentMove, Some("P/e2-e4"), now), now);
    assert!(sends(&s.handle(Input::Tick, now + Duration::from_secs(59)))
        .iter()
        .all(|c| c != "flag"));
    let late = now + Duration::from_millis(60_300);
    assert!(sends(&s.handle(Input::Tick, late)).contains(&"flag".to_string()));
    assert!(
        !sends(&s.handle(Input::Tick, late)).contains(&"flag".to_string()),
        "not twice at once"
    );
}

#[test]
fn disconnect_then_resume_the_adjourned_game() {
    let (mut s, now) = session();
    let a = start_game(&mut s, now);
    let id = started(&a).unwrap().id;
    let b = parse_fen(START).unwrap();
    s.handle(
        Input::Done {
            id,
            result: result(&b, "e2e4", None, 0),
        },
        now,
    );
    s.handle(board(E4, Relation::OpponentMove, Some("P/e2-e4"), now), now);
    let a = s.handle(ev(ServerEvent::Disconnected), now);
    assert!(sends(&a).is_empty());
    let a = s.handle(
        ev(ServerEvent::LoggedIn {
            handle: "wily".into(),
        }),
        now,
    );
    assert!(
        sends(&a).contains(&"match Bob".to_string()),
        "{:?}",
        sends(&a)
    );
    assert!(
        !sends(&a).iter().any(|c| c.starts_with("seek")),
        "no seeks while an adjourned game waits to be resumed"
    );
    s.handle(
        ev(ServerEvent::GameStart {
            game: 3,
            white: "wily".into(),
            black: "Bob".into(),
            continuing: true,
            rated: false,
            category: "lightning".into(),
        }),
        now,
    );
    let mut up = board(E4, Relation::OpponentMove, Some("P/e2-e4"), now);
    if let Input::Server(ServerEvent::Board(u)) = &mut up {
        u.game = 3;
    }
    s.handle(up, now);
    let g = s.game.as_ref().unwrap();
    assert_eq!(
        (g.number, g.plies()),
        (3, 1),
        "the resumed game keeps its moves"
    );
}

#[test]
fn observing_analyses_and_whispers() {
    let mut c = cfg();
    c.observe.whisper = 2;
    c.talk.noise = 1000;
    let (mut s, now) = session_with(c, Box::new(NoBook));
    s.observer.talker.whisper = 2;
    let obs = |fen: &str, last: Option<&str>| {
        ev(ServerEvent::Board(Box::new(BoardUpdate {
            game: 12,
            white: "Carl".into(),
            black: "Dana".into(),
            relation: Relation::Observing,
            board: parse_fen(fen).unwrap(),
            castling: CastleFlags::of_board(&parse_fen(fen).unwrap()),
            white_ms: 60_000,
            black_ms: 60_000,
            base: 5,
            increment: 0,
            move_number: 1,
            last_move_verbose: last.map(String::from),
            last_move_san: None,
            last_move_ms: 0,
            received: now,
        })))
    };
    s.handle(ev(ServerEvent::ObserveStarted { game: 12 }), now);
    let a = s.handle(obs(START, None), now);
    let spec = started(&a).expect("analysis").clone();
    assert!(spec.limits.infinite);
    let info = crate::engine::SearchInfo {
        depth: 9,
        score: Score::Cp(20),
        nodes: 5000,
        pv: vec![move_from_uci(&parse_fen(START).unwrap(), "d2d4", false).unwrap()],
        time: Duration::from_millis(500),
        multipv: 1,
        ..Default::default()
    };
    s.handle(Input::Info { id: spec.id, info }, now);
    let a = s.handle(obs(E4, Some("P/e2-e4")), now);
    let cmds = sends(&a);
    assert_eq!(cmds, vec!["whisper d9 +0.20 0.5s"]);
    assert!(a
        .iter()
        .any(|x| matches!(x, Action::StopSearch { id } if *id == spec.id)));
    let next = started(&a).expect("restarted").id;
    let a = s.handle(
        ev(ServerEvent::GameEnd {
            game: 12,
            white: "Carl".into(),
            black: "Dana".into(),
            result: "0-1".into(),
            kind: EndKind::Resignation,
            text: "Carl resigns".into(),
        }),
        now,
    );
    assert!(a
        .iter()
        .any(|x| matches!(x, Action::StopSearch { id } if *id == next)));
    assert!(s.active_search().is_none());
}

#[test]
fn shutdown_finishes_the_game_first() {
    let (mut s, now) = session();
    start_game(&mut s, now);
    let a = s.handle(Input::Shutdown { now: false }, now);
    assert!(sends(&a).contains(&"adjourn".to_string()));
    assert!(!a.iter().any(|x| matches!(x, Action::Quit)));
    let a = s.handle(
        ev(ServerEvent::GameEnd {
            game: 7,
            white: "wily".into(),
            black: "Bob".into(),
            result: "1/2-1/2".into(),
            kind: EndKind::Draw,
            text: "Game drawn by mutual agreement".into(),
        }),
        now,
    );
    assert!(a.iter().any(|x| matches!(x, Action::Quit)));
    assert!(!sends(&a).iter().any(|c| c.starts_with("seek")));
    let (mut idle, now) = session();
    assert!(idle
        .handle(Input::Shutdown { now: false }, now)
        .iter()
        .any(|x| matches!(x, Action::Quit)));
}

#[test]
fn ponder_hit_after_the_budget_moves_at_once() {
    let (mut s, now) = session();
    let a = start_game(&mut s, now);
    let id = started(&a).unwrap().id;
    let start = parse_fen(START).unwrap();
    s.handle(
        Input::Done {
            id,
            result: result(&start, "e2e4", Some("e7e5"), 30),
        },
        now,
    );
    let a = s.handle(board(E4, Relation::OpponentMove, Some("P/e2-e4"), now), now);
    let ponder = started(&a).unwrap().id;
    // 60 s on the clock: a budget of about 2 s; the opponent took 10 s.
    let t = now + Duration::from_secs(10);
    let a = s.handle(board(E4E5, Relation::MyMove, Some("P/e7-e5"), t), t);
    assert!(
        a.iter()
            .any(|x| matches!(x, Action::Finish { id } if *id == ponder)),
        "{a:?}"
    );
    let b = parse_fen(E4E5).unwrap();
    let a = s.handle(
        Input::Done {
            id: ponder,
            result: result(&b, "g1f3", None, 25),
        },
        t,
    );
    assert_eq!(sends(&a), vec!["MOVE g1f3"]);
}

#[test]
fn boards_of_games_not_observed_are_ignored() {
    let (mut s, now) = session();
    let a = s.handle(
        ev(ServerEvent::Board(Box::new(BoardUpdate {
            game: 77,
            white: "Ghost".into(),
            black: "Phantom".into(),
            relation: Relation::Observing,
            board: parse_fen(START).unwrap(),
            castling: CastleFlags::default(),
            white_ms: 1,
            black_ms: 1,
            base: 1,
            increment: 0,
            move_number: 1,
            last_move_verbose: None,
            last_move_san: None,
            last_move_ms: 0,
            received: now,
        }))),
        now,
    );
    assert!(started(&a).is_none());
    assert!(s.active_search().is_none());
}

#[test]
fn players_online_with_an_adjourned_game_are_asked_to_resume_it() {
    let (mut s, now) = session();
    let a = s.handle(
        ev(ServerEvent::AdjournedOnline {
            names: vec!["x;quit".into(), "AlphaBot".into(), "BetaBot".into()],
        }),
        now,
    );
    // The seek posted at login is taken back first (nobody may take it in place of
    // the adjourned game).
    assert_eq!(sends(&a), vec!["unseek", "match AlphaBot"]);
    // Asked once a session; a later `You have N adjourned games.` asks nothing more.
    let again = ev(ServerEvent::AdjournedOnline {
        names: vec!["AlphaBot".into()],
    });
    assert!(sends(&s.handle(again, now)).is_empty());
    assert!(sends(&s.handle(ev(ServerEvent::AdjournedGames { count: 1 }), now)).is_empty());
    // Nobody valid: nothing sent.
    let (mut s, now) = session();
    let bad = ev(ServerEvent::AdjournedOnline {
        names: vec!["../x".into()],
    });
    assert!(sends(&s.handle(bad, now)).is_empty());
}

#[test]
fn adjourned_games_reported_at_login_are_resumed() {
    let (mut s, now) = session();
    let a = s.handle(ev(ServerEvent::AdjournedGames { count: 1 }), now);
    // The seek posted at login is taken back before asking, so that nobody takes it in
    // place of the adjourned game, and no new one goes out while wily waits for it.
    assert_eq!(sends(&a), vec!["unseek", "resume"]);
    assert!(sends(&s.handle(ev(ServerEvent::AdjournedGames { count: 1 }), now)).is_empty());
    let later = now + Duration::from_secs(60);
    let a = s.handle(Input::Tick, later);
    assert!(!sends(&a).iter().any(|c| c.starts_with("seek")), "{a:?}");
    // Five minutes on, wily seeks again.
    let a = s.handle(Input::Tick, now + Duration::from_secs(301));
    assert!(sends(&a).iter().any(|c| c.starts_with("seek")), "{a:?}");
}
