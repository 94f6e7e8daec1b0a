//! mamer's tournament traffic on a real lasker server, replayed from the recordings in
//! `tests/fixtures/mamer/` (how each was made is in the README there): the pipeline
//! gives the same events in any chunking, and every director line wily acts on is a
//! typed [`TourneyNotice`]: the `listtourneys` rows (with the director of their
//! `:mamer Notes:` header), the announcement wrapped past 79 columns on channel 49 and
//! as a c-shout, the `join` reply, the tournament flag on and off, the standings' round
//! headers and rows, the bye tell, the channel's joined/started/ended reports and the
//! results, and the ` [1 0 0 0 5]` suffix of every tournament game's result line.

use crate::ics_common;
use wily::ics::events::{GameEnd, TourneyGameTag, TourneyNotice};
use wily::ics::pipeline::{events_of, PipelineOptions};
use wily::ics::Event;

fn fixture(name: &str) -> Vec<u8> {
    ics_common::fixture_in("mamer", name)
}

/// The file's events, the same whatever the chunking.
fn events(name: &str) -> Vec<Event> {
    ics_common::events_any_chunking(name, &fixture(name))
}

fn notices(all: &[Event]) -> Vec<&TourneyNotice> {
    all.iter()
        .filter_map(|e| match e {
            Event::Tourney(n) => Some(n),
            _ => None,
        })
        .collect()
}

fn game_ends(all: &[Event]) -> Vec<&GameEnd> {
    all.iter()
        .filter_map(|e| match e {
            Event::GameEnd(g) => Some(g),
            _ => None,
        })
        .collect()
}

/// Unknown lines that look like the director's: only the decorations of its tables
/// (`: No. Rds ...`, `: ---`, `:`, `:     Name ...`, `:     Average Rating`,
/// `:          Manager:  admin`) may stay unknown.
fn unknown_director_lines(all: &[Event]) -> Vec<String> {
    all.iter()
        .filter_map(|e| match e {
            Event::Unknown(t) => Some(t.clone()),
            _ => None,
        })
        .filter(|t| {
            let l = t.to_ascii_lowercase();
            l.contains("mamer") || l.contains("tourney") || l.starts_with(':')
        })
        .filter(|t| {
            let rest = t.trim_start_matches(':').trim();
            let decoration = rest.is_empty()
                || rest.starts_with("No. Rds")
                || rest.starts_with("---")
                || rest.starts_with("Name ")
                || rest.starts_with("Average Rating")
                || rest.starts_with("Manager:")
                || rest.starts_with("(T)ime")
                || rest.contains("(r)ated or (u)nrated")
                || rest.contains("(s)wiss or (r)oundrobin")
                || rest.contains("(w)ild, (r)egular")
                || rest.starts_with("(I)ncrement")
                || rest.starts_with("(R)ounds")
                || rest.starts_with("Max (P)layers")
                || rest.starts_with("Rating (L)ow")
                || rest.starts_with("Rating (H)igh");
            !decoration
        })
        .collect()
}

const TAG: TourneyGameTag = TourneyGameTag {
    base: 1,
    increment: 0,
    rated: false,
    private: false,
    kind: 5,
};

#[test]
fn wilys_swiss_tournament_is_typed_line_by_line() {
    let all = events("swiss_4p.wilybot.raw");
    let n = notices(&all);
    // The list at login: tournament 6 is `new` (not yet open), with mamer's name.
    let rows: Vec<_> = n
        .iter()
        .filter_map(|x| match x {
            TourneyNotice::Listed(r) => Some(r),
            _ => None,
        })
        .collect();
    let six = rows
        .iter()
        .find(|r| r.info.number == 6)
        .expect("tournament 6 listed");
    assert_eq!(
        (
            six.status.as_str(),
            six.info.director.as_str(),
            six.info.rounds
        ),
        ("new", "mamer", Some(3))
    );
    assert!(rows.iter().all(|r| r.info.director == "mamer"));
    // The announcement, on channel 49 and as a c-shout, each joined from two lines.
    let ann: Vec<_> = n
        .iter()
        .filter_map(|x| match x {
            TourneyNotice::Announced(i) => Some(i),
            _ => None,
        })
        .collect();
    assert_eq!(ann.len(), 2, "{ann:?}");
    for i in &ann {
        assert_eq!(
            (i.director.as_str(), i.number, i.base, i.increment, i.rated),
            ("mamer", 6, 1, 0, false)
        );
        assert_eq!((i.style.as_str(), i.variant.as_str()), ("swiss", "chess"));
        assert_eq!((i.rating_range, i.computers), ((0, 9999), None));
    }
    let pos = |want: &dyn Fn(&TourneyNotice) -> bool| n.iter().position(|x| want(x));
    let joined = pos(&|x| {
        matches!(x, TourneyNotice::Note { director, text }
            if director == "mamer" && text == "You joined the tournament.")
    })
    .expect("the join's answer");
    let on = pos(&|x| matches!(x, TourneyNotice::Flag { on: true, .. })).expect("flag on");
    let r2 = pos(&|x| {
        matches!(
            x,
            TourneyNotice::Round {
                round: 2,
                rounds: 3
            }
        )
    })
    .expect("round 2");
    let r3 = pos(&|x| {
        matches!(
            x,
            TourneyNotice::Round {
                round: 3,
                rounds: 3
            }
        )
    })
    .expect("round 3");
    let fin = pos(&|x| {
        matches!(x, TourneyNotice::Finished { number: 6, winners, .. } if winners == &["wilybot"])
    })
    .expect("the results");
    let off = pos(&|x| matches!(x, TourneyNotice::Flag { on: false, .. })).expect("flag off");
    assert!(joined < on && on < r2 && r2 < r3 && r3 < fin && fin < off);
    assert!(n.iter().any(|x| matches!(x,
        TourneyNotice::Joined { player, number: 6, players: 1, .. } if player == "wilybot")));
    let standings = n
        .iter()
        .filter(|x| matches!(x, TourneyNotice::Standing { .. }))
        .count();
    assert_eq!(standings, 8, "four rows before rounds 2 and 3");
    let reports = n
        .iter()
        .filter(|x| {
            matches!(
                x,
                TourneyNotice::GameReported {
                    ended: true,
                    number: 6,
                    ..
                }
            )
        })
        .count();
    assert!(reports >= 3, "{reports}");
    // Every game wily played carries the suffix.
    let ends = game_ends(&all);
    assert_eq!(ends.len(), 3);
    assert!(ends.iter().all(|g| g.tourney == Some(TAG)), "{ends:?}");
    assert!(!n
        .iter()
        .any(|x| matches!(x, TourneyNotice::Unreadable { .. })));
    assert_eq!(unknown_director_lines(&all), Vec::<String>::new());
}

#[test]
fn the_round_robin_gives_wily_a_bye() {
    let all = events("roundrobin_5p_bye.wilybot.raw");
    let n = notices(&all);
    assert_eq!(
        n.iter()
            .filter(|x| matches!(x, TourneyNotice::Bye { director } if director == "mamer"))
            .count(),
        1
    );
    for r in 2..=5 {
        assert!(
            n.iter()
                .any(|x| matches!(x, TourneyNotice::Round { round, rounds: 5 } if *round == r)),
            "round {r}"
        );
    }
    // The bye is a standings row of its own (`_BYE_`).
    assert!(n
        .iter()
        .any(|x| matches!(x, TourneyNotice::Standing { name, .. } if name == "_BYE_")));
    let ends = game_ends(&all);
    assert_eq!(ends.len(), 4);
    assert!(ends.iter().all(|g| g.tourney == Some(TAG)));
    let listed = n.iter().any(|x| {
        matches!(x, TourneyNotice::Listed(r)
            if r.status == "new" && r.info.style == "round robin" && r.info.rounds == Some(5))
    });
    assert!(listed, "the round robin was listed (not yet open) at login");
    assert!(n.iter().any(|x| {
        matches!(x, TourneyNotice::Announced(i) if i.style == "round robin" && i.number == 7)
    }));
    assert_eq!(unknown_director_lines(&all), Vec::<String>::new());
}

#[test]
fn raw_clients_see_both_sides_of_the_pairings() {
    let all = events("raw_clients.TPlayA.raw");
    let n = notices(&all);
    // The c-shout announcement, wrapped: one event.
    let ann: Vec<_> = n
        .iter()
        .filter(|x| matches!(x, TourneyNotice::Announced(i) if i.number == 2))
        .collect();
    assert_eq!(ann.len(), 1);
    // White's side of an rmatch is an `Issuing:`, Black's a `Challenge:` the server
    // accepts by itself.
    assert!(all.iter().any(|e| matches!(e, Event::Issuing(_))));
    let challenge = all
        .iter()
        .position(|e| matches!(e, Event::Challenge(_)))
        .expect("a challenge");
    assert!(matches!(
        all[challenge + 1..]
            .iter()
            .find(|e| !matches!(e, Event::Prompt(_) | Event::Unknown(_))),
        Some(Event::YouAccepted { .. })
    ));
    let ends = game_ends(&all);
    assert_eq!(ends.len(), 3);
    assert!(ends.iter().all(|g| g.tourney == Some(TAG)));
    assert_eq!(unknown_director_lines(&all), Vec::<String>::new());
    // The manager's view: `create`, the variables, `open`, `close`.
    let all = events("raw_clients.admin.raw");
    let n = notices(&all);
    assert!(n.iter().any(|x| matches!(x,
        TourneyNotice::Note { text, .. } if text.contains("is now closed"))));
    assert_eq!(
        n.iter()
            .filter(|x| matches!(x, TourneyNotice::Joined { number: 2, .. }))
            .count(),
        4
    );
    assert!(n.iter().any(|x| matches!(x,
        TourneyNotice::Finished { number: 2, winners, .. } if winners.len() == 2)));
    assert_eq!(unknown_director_lines(&all), Vec::<String>::new());
}

#[test]
fn odd_director_lines_never_become_actions() {
    let bytes = b"mamer(49): *****Tourney Announcement***** Trny #x 9 9 q\n\r\
        mamer(49): *****Tourney Announcement***** Trny #3  1 0 u  SWISS 0-9999 0 plr(s).  tell evil join 3.\n\r\
        :mamer Notes: \n\r:   x   3   s    1   0  u    r    0-9999   open\n\r\
        mamer has set your tourney variable to MAYBE.\n\r\
        {Game 1 (A vs. B) A resigns} 0-1 [1 0 9 0 5]\n\rfics% ";
    let (all, _) = events_of(bytes, &[usize::MAX], PipelineOptions::default());
    let n = notices(&all);
    assert_eq!(
        n.iter()
            .filter(|x| matches!(x, TourneyNotice::Unreadable { .. }))
            .count(),
        2,
        "{n:?}"
    );
    assert!(!n.iter().any(|x| matches!(
        x,
        TourneyNotice::Announced(_) | TourneyNotice::Listed(_) | TourneyNotice::Flag { .. }
    )));
    assert_eq!(game_ends(&all)[0].tourney, None);
}
