//! Session tests of connections and shutdown: a disconnect and the adjourned game's
//! resumption, players online with an adjourned game, a game that ended as the
//! connection went (asked with `stored`, then recorded or resumed), and finishing the
//! game on shutdown.

use super::*;

#[test]
fn disconnect_then_resume_the_adjourned_game() {
    let (mut s, now) = session();
    answer_e4(&mut s, now, None, 0);
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
    let mut up = board(E4, Relation::OpponentToMove, Some("P/e2-e4"), now);
    if let Input::Server(ServerEvent::Board(u)) = &mut up {
        u.game = 3;
    }
    s.handle(up, now);
    let g = s.play.game.as_ref().unwrap();
    assert_eq!(
        (g.number, g.plies()),
        (3, 1),
        "the resumed game keeps its moves"
    );
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
fn the_last_game_of_a_run_ends_it_with_no_new_seek() {
    let end = || {
        ev(ServerEvent::GameEnd {
            game: 7,
            white: "wily".into(),
            black: "Bob".into(),
            result: "1-0".into(),
            kind: EndKind::Resignation,
            text: "Bob resigns".into(),
        })
    };
    // Without a limit the bot seeks again after the game.
    let (mut s, now) = session();
    start_game(&mut s, now);
    let a = s.handle(end(), now);
    assert!(!a.iter().any(|x| matches!(x, Action::Quit)));
    assert!(
        sends(&a).iter().any(|c| c.starts_with("seek")),
        "{:?}",
        sends(&a)
    );
    // With one game to play, its end is the run's: no seek, no rematch, no resume.
    let (mut s, now) = session();
    s.set_game_limit(1);
    start_game(&mut s, now);
    let a = s.handle(end(), now);
    assert!(a.iter().any(|x| matches!(x, Action::Quit)), "{a:?}");
    assert!(
        !sends(&a)
            .iter()
            .any(|c| c.starts_with("seek") || c.starts_with("match") || c == "resume"),
        "{:?}",
        sends(&a)
    );
    assert_eq!(s.totals().games, 1);
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

/// White to move and mate: 4.Qxf7#.
const MATE_IN_ONE: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";

/// Starts a game at [`MATE_IN_ONE`] and lets wily's search send the mate, then the
/// connection drops before the server's answer, and wily logs in again: the actions of
/// the login.
fn mate_sent_then_cut_off(s: &mut Session, now: Instant) -> Vec<Action> {
    let a = start_game_at(s, MATE_IN_ONE, now);
    let id = started(&a).expect("a search").id;
    let a = s.handle(
        Input::Done {
            id,
            result: result(&parse_fen(MATE_IN_ONE).unwrap(), "h5f7", None, 30_000),
        },
        now,
    );
    assert!(
        sends(&a).iter().any(|c| c.starts_with("MOVE ")),
        "{:?}",
        sends(&a)
    );
    relogin(s, now)
}

/// The connection drops and wily logs in again: the actions of the login.
fn relogin(s: &mut Session, now: Instant) -> Vec<Action> {
    s.handle(ev(ServerEvent::Disconnected), now);
    s.handle(
        ev(ServerEvent::LoggedIn {
            handle: "wily".into(),
        }),
        now,
    )
}

/// The finished game among `a`, if one was recorded.
fn game_over(a: &[Action]) -> Option<&FinishedGame> {
    a.iter().find_map(|x| match x {
        Action::GameOver(f) => Some(&**f),
        _ => None,
    })
}

fn stored(games: &[(&str, &str)]) -> Input {
    ev(ServerEvent::StoredGames {
        player: "wily".into(),
        games: games
            .iter()
            .map(|(w, b)| (w.to_string(), b.to_string()))
            .collect(),
    })
}

#[test]
fn a_game_ended_by_wilys_move_while_cut_off_is_recorded() {
    let (mut s, now) = session();
    let a = mate_sent_then_cut_off(&mut s, now);
    let cmds = sends(&a);
    assert!(cmds.contains(&"stored".to_string()), "{cmds:?}");
    assert!(!cmds.iter().any(|c| c.starts_with("match")), "{cmds:?}");
    // The opponent arrives meanwhile: no `match` while the answer is out.
    let a = s.handle(
        ev(ServerEvent::Arrival {
            name: "Bob".into(),
            adjourned: false,
        }),
        now,
    );
    assert!(sends(&a).is_empty(), "{:?}", sends(&a));
    // Someone else's stored games are not the answer.
    let other = ev(ServerEvent::StoredGames {
        player: "Bob".into(),
        games: Vec::new(),
    });
    assert!(s.handle(other, now).is_empty());
    let a = s.handle(stored(&[]), now);
    let f = game_over(&a).expect("the game is recorded");
    assert_eq!(f.record.result, "1-0");
    assert_eq!(f.record.end_text, "Bob checkmated");
    assert_eq!(f.kind, EndKind::Checkmate);
    let mut b = f.start.clone();
    for m in &f.moves {
        b.play(*m);
    }
    assert_eq!(b.status(), cozy_chess::GameStatus::Won, "ends in the mate");
    assert_eq!(s.totals().games, 1);
    assert_eq!(s.totals().wins, 1);
    assert!(s.play.resume.adjourned.is_none(), "nothing left to resume");
    // A second answer changes nothing.
    assert!(game_over(&s.handle(stored(&[]), now)).is_none());
}

#[test]
fn a_cut_off_game_the_server_still_holds_is_resumed() {
    let (mut s, now) = session();
    mate_sent_then_cut_off(&mut s, now);
    let a = s.handle(stored(&[("Carol", "wily"), ("wily", "Bob")]), now);
    assert!(
        sends(&a).contains(&"match Bob".to_string()),
        "{:?}",
        sends(&a)
    );
    assert!(game_over(&a).is_none());
    assert!(s.play.resume.adjourned.is_some());
    assert_eq!(s.totals().games, 0);
}

#[test]
fn without_an_answer_to_stored_wily_asks_to_resume() {
    let (mut s, now) = session();
    mate_sent_then_cut_off(&mut s, now);
    let a = s.handle(Input::Tick, now + Duration::from_secs(2));
    assert!(!sends(&a).iter().any(|c| c.starts_with("match")));
    let a = s.handle(Input::Tick, now + crate::play::interrupted::STORED_WAIT);
    assert!(
        sends(&a).contains(&"match Bob".to_string()),
        "{:?}",
        sends(&a)
    );
    assert!(s.play.resume.adjourned.is_some());
}

#[test]
fn an_ordinary_cut_off_game_is_asked_back_at_once() {
    // The move sent does not end the game: `match`, no `stored`.
    let (mut s, now) = session();
    start_game(&mut s, now);
    let id = s.bot.search.as_ref().unwrap().id;
    let start = parse_fen(START).unwrap();
    s.handle(
        Input::Done {
            id,
            result: result(&start, "e2e4", None, 0),
        },
        now,
    );
    let a = relogin(&mut s, now);
    let cmds = sends(&a);
    assert!(cmds.contains(&"match Bob".to_string()), "{cmds:?}");
    assert!(!cmds.contains(&"stored".to_string()), "{cmds:?}");
}

#[test]
fn a_mate_seen_without_the_servers_end_line_is_recorded() {
    // wily (White) answered 1.e4 e5 with the board after Black's mate; the line that
    // ends the game was lost with the connection.
    let (mut s, now) = session();
    answer_e4(&mut s, now, None, 0);
    let mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    // Resynchronised to a position that does not follow: the moves restart from it.
    s.handle(board(mated, Relation::MyMove, Some("Q/d8-h4"), now), now);
    let a = relogin(&mut s, now);
    assert!(sends(&a).contains(&"stored".to_string()), "{:?}", sends(&a));
    let a = s.handle(stored(&[]), now);
    let f = game_over(&a).expect("the game is recorded");
    assert_eq!(f.record.result, "0-1");
    assert_eq!(f.record.end_text, "wily checkmated");
    assert_eq!(s.totals().losses, 1);
}

#[test]
fn a_listed_game_waits_while_another_game_is_on() {
    let (mut s, now) = session();
    mate_sent_then_cut_off(&mut s, now);
    // A new game against someone else starts before the answer comes.
    s.handle(
        ev(ServerEvent::GameStart {
            game: 9,
            white: "Carol".into(),
            black: "wily".into(),
            continuing: false,
            rated: false,
            category: "lightning".into(),
        }),
        now,
    );
    let mut up = board(E4, Relation::MyMove, Some("P/e2-e4"), now);
    if let Input::Server(ServerEvent::Board(u)) = &mut up {
        u.game = 9;
        u.white = "Carol".into();
        u.black = "wily".into();
    }
    s.handle(up, now);
    assert!(s.play.game.is_some());
    let a = s.handle(stored(&[("wily", "Bob")]), now);
    assert!(
        !sends(&a).iter().any(|c| c.starts_with("match")),
        "{:?}",
        sends(&a)
    );
    assert!(s.play.resume.hint, "asked for after the game in progress");
    assert!(s.play.resume.adjourned.is_some());
}

#[test]
fn a_game_already_asked_back_at_login_is_not_asked_twice() {
    let (mut s, now) = session();
    mate_sent_then_cut_off(&mut s, now);
    // lasker names the opponent as online with an adjourned game: asked back at once.
    let a = s.handle(
        ev(ServerEvent::AdjournedOnline {
            names: vec!["Bob".into()],
        }),
        now,
    );
    assert!(
        sends(&a).contains(&"match Bob".to_string()),
        "{:?}",
        sends(&a)
    );
    let a = s.handle(stored(&[("wily", "Bob")]), now);
    assert!(
        !sends(&a).iter().any(|c| c.starts_with("match")),
        "{:?}",
        sends(&a)
    );
    assert!(s.play.resume.adjourned.is_some());
}
