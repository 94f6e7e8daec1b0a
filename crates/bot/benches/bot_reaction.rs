//! The bot's reaction time: `cargo bench --bench bot_reaction [-- N]`.
//!
//! Measures, for moves that need no thinking, the time from a style-12 line arriving (as
//! bytes, through the protocol layer's pipeline) to the move command leaving the session
//! (the connection then only queues and writes it):
//! - book moves: walks book lines of the shipped book (both sides from the book);
//! - ponder hits: the opponent plays the expected reply after wily's clock budget for the
//!   move was already spent pondering, so the engine answers at once.
//!
//! Prints count, median, p99 and max for each.

use book::{Book, BookPaths, ChooseHooks, NoLearning};
use chess::san::to_san;
use config::Config;
use cozy_chess::{Board, Color, File, Move, Piece, Rank, Square};
use engine::EngineOptions;
use ics::pipeline::{Output, Pipeline, PipelineOptions};
use lists::OpponentLists;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;
use wily_bot::brain::{Brain, BrainCmd};
use wily_bot::input::{Action, Input, ServerEvent};
use wily_bot::session::Session;
use wily_bot::translate::translate;

fn piece_char(b: &Board, sq: Square) -> char {
    let Some(p) = b.piece_on(sq) else {
        return '-';
    };
    let c = match p {
        Piece::Pawn => 'p',
        Piece::Knight => 'n',
        Piece::Bishop => 'b',
        Piece::Rook => 'r',
        Piece::Queen => 'q',
        Piece::King => 'k',
    };
    if b.color_on(sq) == Some(Color::White) {
        c.to_ascii_uppercase()
    } else {
        c
    }
}

/// A style-12 line for `b` (wily is White), clocks in milliseconds.
fn style12(b: &Board, relation: i32, last: Option<(&Board, Move)>, ms: i64) -> String {
    let mut s = String::from("<12> ");
    for r in (0..8).rev() {
        for f in 0..8 {
            s.push(piece_char(b, Square::new(File::index(f), Rank::index(r))));
        }
        s.push(' ');
    }
    let cr = |c: Color| b.castle_rights(c);
    let (verbose, san) = match last {
        None => ("none".to_string(), "none".to_string()),
        Some((before, mv)) => {
            let p = before
                .piece_on(mv.from)
                .map_or('P', |p| char::from(p).to_ascii_uppercase());
            let castle = p == 'K' && before.color_on(mv.to) == before.color_on(mv.from);
            let v = if castle {
                if mv.to.file() > mv.from.file() {
                    "o-o".into()
                } else {
                    "o-o-o".into()
                }
            } else {
                let mut v = format!("{p}/{}-{}", mv.from, mv.to);
                if let Some(pr) = mv.promotion {
                    v.push('=');
                    v.push(char::from(pr).to_ascii_uppercase());
                }
                v
            };
            (v, to_san(before, mv))
        }
    };
    s.push_str(&format!(
        "{} -1 {} {} {} {} {} 1 wily Opponent {relation} 1 0 39 39 {ms} {ms} {} {verbose} (0:00.100) {san} 0 1 0",
        if b.side_to_move() == Color::White { 'W' } else { 'B' },
        u8::from(cr(Color::White).short.is_some()),
        u8::from(cr(Color::White).long.is_some()),
        u8::from(cr(Color::Black).short.is_some()),
        u8::from(cr(Color::Black).long.is_some()),
        b.halfmove_clock(),
        b.fullmove_number(),
    ));
    s
}

struct Rig {
    session: Session,
    pipeline: Pipeline,
    brain: Brain,
    rx: mpsc::UnboundedReceiver<Input>,
}

impl Rig {
    /// Feeds one line as bytes; returns the actions and when the bytes arrived.
    fn line(&mut self, text: &str) -> (Vec<Action>, Instant) {
        let t0 = Instant::now();
        let mut out = Output::default();
        self.pipeline
            .feed(format!("{text}\n\r").as_bytes(), &mut out);
        let mut actions = Vec::new();
        for ev in out.events {
            if let Some(se) = translate(ev, t0) {
                actions.extend(self.session.handle(Input::Server(se), Instant::now()));
            }
        }
        (actions, t0)
    }

    /// Runs engine orders; returns the move sent (if any) and its `since`.
    fn run(&mut self, actions: Vec<Action>) -> Option<(String, Instant)> {
        let mut pending = actions;
        loop {
            let mut awaited = None;
            for a in pending.drain(..) {
                match a {
                    Action::StartSearch(s) => {
                        if !s.limits.ponder {
                            awaited = Some(s.id);
                        }
                        self.brain.send(BrainCmd::Start(s));
                    }
                    Action::StopSearch { id } => self.brain.send(BrainCmd::Stop(id)),
                    Action::PonderHit { id } => {
                        self.brain.send(BrainCmd::PonderHit(id));
                        awaited = Some(id);
                    }
                    Action::Finish { id } => {
                        self.brain.send(BrainCmd::Stop(id));
                        awaited = Some(id);
                    }
                    Action::SendMove { text, since, .. } => return Some((text, since)),
                    _ => {}
                }
            }
            let id = awaited?;
            // Wait for that search to finish, feeding every report to the session.
            loop {
                let inp = self.rx.blocking_recv()?;
                let done = matches!(inp, Input::Done { id: d, .. } if d == id);
                let a = self.session.handle(inp, Instant::now());
                if done {
                    pending = a;
                    break;
                }
            }
        }
    }
}

fn rig(cfg: Config, book: Box<dyn wily_bot::hooks::BookSource>) -> Rig {
    let (tx, rx) = mpsc::unbounded_channel();
    let brain = Brain::start(
        EngineOptions {
            hash_mb: 16,
            threads: 1,
            move_overhead_ms: cfg.engine.move_overhead_ms,
            draw_score: 0,
            multipv: 1,
        },
        tx,
    );
    let mut session = Session::new(cfg, OpponentLists::default(), book);
    session.handle(
        Input::Server(ServerEvent::LoggedIn {
            handle: "wily".into(),
        }),
        Instant::now(),
    );
    Rig {
        session,
        pipeline: Pipeline::new(PipelineOptions::default()),
        brain,
        rx,
    }
}

fn start_line() -> &'static str {
    "{Game 1 (wily vs. Opponent) Creating unrated blitz match.}"
}

fn report(name: &str, mut v: Vec<Duration>) {
    if v.is_empty() {
        println!("{name}: no samples");
        return;
    }
    v.sort();
    let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
    println!(
        "{name}: n={} median {:.3} ms p99 {:.3} ms max {:.3} ms",
        v.len(),
        at(0.5).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        v[v.len() - 1].as_secs_f64() * 1e3
    );
}

fn main() {
    let n: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(300);
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let tmp = std::env::temp_dir().join(format!("wily-bench-reaction-{}", std::process::id()));
    let mut cfg = Config::default();
    cfg.server.local = false;
    cfg.server.handle = "wily".into();
    cfg.seek.enabled = false;
    cfg.talk.greeting.clear();
    cfg.talk.goodbye.clear();
    cfg.paths.logs = tmp.join("logs");
    cfg.paths.book = root.join("book");
    cfg.engine.learn = 0;

    // Book moves.
    let mut book_samples = Vec::new();
    if root.join("book/book.wbk").exists() {
        let mut bc = cfg.clone();
        bc.engine.book = true;
        bc.engine.ponder = false;
        let (hook, _) = wily_bot::learning::open(&bc);
        let mut r = rig(bc, Box::new(hook));
        let (mut opp, _) = Book::load(BookPaths::in_dir(&root.join("book")));
        while book_samples.len() < n {
            r.line(start_line());
            let mut b = Board::default();
            let (a, t0) = r.line(&style12(&b, 1, None, 60_000));
            if a.iter().any(|x| matches!(x, Action::StartSearch(_))) {
                println!("book: no book move in the initial position");
                break;
            }
            let mut actions = a;
            let mut since = t0;
            while let Some((text, _)) = r.run(std::mem::take(&mut actions)) {
                let sent_at = Instant::now();
                let Ok(mv) = chess::san::parse_any_move(&b, &text) else {
                    break;
                };
                if book_samples.len() < n {
                    book_samples.push(sent_at - since);
                }
                let before = b.clone();
                b.play(mv);
                r.line(&style12(&b, -1, Some((&before, mv)), 60_000));
                let Some((reply, _, _)) = opp.pick(&b, 5, &mut ChooseHooks::new(&NoLearning))
                else {
                    break;
                };
                let before = b.clone();
                b.play(reply);
                let (a, t) = r.line(&style12(&b, 1, Some((&before, reply)), 60_000));
                // Only book answers count: stop when the session starts a search.
                if a.iter().any(|x| matches!(x, Action::StartSearch(_))) {
                    r.run(a);
                    break;
                }
                actions = a;
                since = t;
            }
            r.line("{Game 1 (wily vs. Opponent) Game aborted by mutual agreement} *");
        }
    } else {
        println!("book: skipped (no book/book.wbk)");
    }
    report("book move", book_samples);

    // Ponder hits with the move budget already spent.
    let mut pc = cfg.clone();
    pc.engine.book = false;
    pc.engine.ponder = true;
    pc.engine.move_overhead_ms = 50;
    let mut r = rig(pc, Box::new(wily_bot::hooks::NoBook));
    let mut samples = Vec::new();
    let clock = 1_000; // ms: a budget of a few tens of milliseconds per move
    let target = n.min(200);
    let mut games = 0;
    while samples.len() < target && games < 100 {
        games += 1;
        r.line(start_line());
        let mut b = Board::default();
        let (mut actions, _) = r.line(&style12(&b, 1, None, clock));
        let mut hit_at: Option<Instant> = None;
        for _ in 0..40 {
            let Some((text, _)) = r.run(std::mem::take(&mut actions)) else {
                break;
            };
            if let Some(t0) = hit_at.take() {
                samples.push(t0.elapsed());
            }
            let Ok(mv) = chess::san::parse_any_move(&b, &text) else {
                break;
            };
            let before = b.clone();
            b.play(mv);
            // The echo of wily's move: the session ponders on the expected reply.
            let (a, _) = r.line(&style12(&b, -1, Some((&before, mv)), clock));
            let expected = a.iter().find_map(|x| match x {
                Action::StartSearch(s) if s.limits.ponder => Some(s.board.clone()),
                _ => None,
            });
            r.run(a);
            let Some(expected) = expected else { break };
            let mut reply = None;
            b.generate_moves(|ms| {
                for m in ms {
                    let mut c = b.clone();
                    c.play_unchecked(m);
                    if c.same_position(&expected) {
                        reply = Some(m);
                    }
                }
                false
            });
            let Some(reply) = reply else { break };
            // The opponent thinks longer than wily's budget, then plays the expected move.
            std::thread::sleep(Duration::from_millis(150));
            let before = b.clone();
            b.play(reply);
            let (a, t0) = r.line(&style12(&b, 1, Some((&before, reply)), clock));
            if a.iter()
                .any(|x| matches!(x, Action::PonderHit { .. } | Action::Finish { .. }))
            {
                hit_at = Some(t0);
            }
            actions = a;
            if samples.len() >= target {
                break;
            }
        }
        r.line("{Game 1 (wily vs. Opponent) Game aborted by mutual agreement} *");
    }
    report("ponder hit", samples);
    let _ = std::fs::remove_dir_all(&tmp);
}
