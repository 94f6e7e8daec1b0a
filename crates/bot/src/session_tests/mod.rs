//! Unit tests of the session state machine: inputs in, actions out, no sockets. This file
//! holds the shared fixtures (configuration, boards, search results, a one-move book); the
//! tests live by topic in `play/handle.rs`, `talk.rs` and `play/resume.rs`.

mod account;
mod play;
mod public;
mod resume;
mod talk;

use crate::hooks::{BookPick, BookSource, NoBook};
use crate::input::*;
use crate::session::Session;
use chess::castling::CastleFlags;
use chess::{move_from_uci, parse_fen};
use config::Config;
use cozy_chess::Board;
use engine::{Score, SearchResult};
use lists::{OpponentLists, ServerTitles};
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
    start_game_at(s, START, now)
}

/// Game 7, wily (White) against Bob, from `fen` with wily to move: the actions that
/// answer its first board.
fn start_game_at(s: &mut Session, fen: &str, now: Instant) -> Vec<Action> {
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
    s.handle(board(fen, Relation::MyMove, None, now), now)
}

/// Starts the game, lets wily's first search answer 1.e4 (`ponder` its expected reply,
/// `cp` its score), and feeds the board after the move: the actions that answer it.
fn answer_e4(s: &mut Session, now: Instant, ponder: Option<&str>, cp: i32) -> Vec<Action> {
    let a = start_game(s, now);
    let id = started(&a).unwrap().id;
    let start = parse_fen(START).unwrap();
    s.handle(
        Input::Done {
            id,
            result: result(&start, "e2e4", ponder, cp),
        },
        now,
    );
    s.handle(
        board(E4, Relation::OpponentToMove, Some("P/e2-e4"), now),
        now,
    )
}

pub(super) fn sends(a: &[Action]) -> Vec<String> {
    a.iter()
        .filter_map(|x| match x {
            Action::Send(s) | Action::SendNow(s) => Some(s.clone()),
            Action::SendTopical { text, .. } => Some(text.clone()),
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
