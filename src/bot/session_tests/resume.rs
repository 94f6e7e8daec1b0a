//! Session tests of connections and shutdown: a disconnect and the adjourned game's
//! resumption, players online with an adjourned game, and finishing the game on shutdown.

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
