//! Console commands that measure or examine: perft, perf, search, test, screen, annotate.

use super::state::{CmdResult, Console, Flow};
use crate::annotate::{annotate_game, html, latex, output_path, parse_options, writer, Format};
use crate::input::InputEvent;
use crate::output::{fmt_count, fmt_pv_as, fmt_time, header};
use crate::runner::Ev;
use chess::pgn::PgnReader;
use chess::suite::{parse_suite, screen_records, SuitePosition};
use cozy_chess::Move;
use engine::{Bound, Limits, Score, SearchRequest};
use std::io::BufReader;
use std::path::PathBuf;
use std::time::{Duration, Instant};

pub fn perft_cmd(c: &mut Console, args: &[&str]) -> CmdResult {
    let [d] = args else {
        return Err("usage: perft N (1 to 8)".into());
    };
    let depth: u32 = d
        .parse()
        .ok()
        .filter(|d| (1..=8).contains(d))
        .ok_or_else(|| format!("perft: '{d}' is not a depth from 1 to 8"))?;
    c.stop_pondering();
    let t = Instant::now();
    let n = chess::perft::perft(c.game.board(), depth);
    let secs = t.elapsed().as_secs_f64();
    let nps = if secs > 0.0 {
        (n as f64 / secs) as u64
    } else {
        0
    };
    c.say(&format!(
        "total moves={n}  time={}  rate={}/s",
        fmt_time(t.elapsed()),
        fmt_count(nps)
    ));
    Ok(Flow::Continue)
}

pub fn perf(c: &mut Console, args: &[&str]) -> CmdResult {
    if !args.is_empty() {
        return Err("perf takes no arguments".into());
    }
    c.stop_pondering();
    let board = c.game.board().clone();
    let budget = Duration::from_millis(1000);
    let t = Instant::now();
    let mut generated = 0u64;
    let mut rounds = 0u64;
    while t.elapsed() < budget {
        for _ in 0..1000 {
            board.generate_moves(|m| {
                generated += m.len() as u64;
                false
            });
        }
        rounds += 1000;
    }
    let gen_time = t.elapsed();
    let mut moves: Vec<Move> = Vec::new();
    board.generate_moves(|m| {
        moves.extend(m);
        false
    });
    let t = Instant::now();
    let mut made = 0u64;
    while t.elapsed() < budget && !moves.is_empty() {
        for _ in 0..1000 {
            for &mv in &moves {
                let mut b = board.clone();
                b.play_unchecked(mv);
                std::hint::black_box(&b);
                made += 1;
            }
        }
    }
    let make_time = t.elapsed();
    let rate = |n: u64, d: Duration| fmt_count((n as f64 / d.as_secs_f64().max(1e-9)) as u64);
    c.say(&format!(
        "generated {generated} moves in {rounds} calls, time={}, {} moves/second",
        fmt_time(gen_time),
        rate(generated, gen_time)
    ));
    c.say(&format!(
        "made {made} moves, time={}, {} moves/second",
        fmt_time(make_time),
        rate(made, make_time)
    ));
    Ok(Flow::Continue)
}

pub fn search(c: &mut Console, args: &[&str]) -> CmdResult {
    let [m] = args else {
        return Err("usage: search MOVE (restricts the next search to that move)".into());
    };
    let mv = c
        .game
        .parse_move(m)
        .map_err(|e| format!("search: {m}: {e}"))?;
    c.searchmoves = vec![mv];
    c.note(&format!("the next search considers only {m}"));
    Ok(Flow::Continue)
}

/// Searches one test position; returns the move chosen and whether it solved it.
fn run_position(
    c: &mut Console,
    p: &SuitePosition,
    limits: &Limits,
    early: Option<u32>,
) -> Option<(Option<Move>, bool, Duration, Score)> {
    let req = SearchRequest {
        board: p.board.clone(),
        history: Vec::new(),
        limits: limits.clone(),
        searchmoves: Vec::new(),
    };
    c.runner.engine.new_game();
    c.runner.start_with(req, c.reports());
    c.held_back = None;
    let mut last_depth = 0;
    let mut streak = 0u32;
    let started = Instant::now();
    let result = loop {
        match c.runner.next(None) {
            Some(Ev::Info(info)) => {
                let finished = info.bound == Bound::Exact && info.depth > last_depth;
                c.show_info(&p.board, &info, &mut last_depth);
                if finished {
                    match info.pv.first() {
                        Some(&mv) if p.solved_by(mv) => streak += 1,
                        _ => streak = 0,
                    }
                    if early.is_some_and(|n| streak >= n) {
                        c.runner.stop();
                    }
                }
            }
            Some(Ev::RootMove(rm)) => c.show_root_move(&p.board, &rm),
            Some(Ev::Trace(t)) => c.show_trace(&p.board, t.as_ref()),
            Some(Ev::Finished(r)) => {
                c.show_held_back(&p.board);
                break r;
            }
            Some(Ev::Input(InputEvent::Line(l))) => match l.trim() {
                "exit" => {
                    c.runner.abandon();
                    c.say("test interrupted");
                    return None;
                }
                // Move on to the next position.
                "?" => c.runner.stop(),
                // Anything else runs after the test.
                _ => c.pending.push_back((l, 0)),
            },
            Some(Ev::Input(InputEvent::Eof)) => c.eof = true,
            Some(Ev::Input(InputEvent::TooLong(_))) | None => {}
        }
    };
    let best = result.best;
    let solved = best.is_some_and(|m| p.solved_by(m));
    Some((best, solved, started.elapsed(), result.score))
}

/// The limits of a test or screen search: `st` (5 seconds when no `st`, `sd` or `sn`).
fn suite_limits(c: &Console) -> Limits {
    Limits {
        movetime: c
            .settings
            .st
            .or((c.settings.sd.is_none() && c.settings.sn.is_none())
                .then(|| Duration::from_secs(5))),
        depth: c.settings.sd,
        nodes: c.settings.sn,
        ..Limits::default()
    }
}

/// Reads a suite-like file (at most 64 MB) for `what`.
fn read_suite_file(what: &str, path: &str) -> Result<String, String> {
    let size = std::fs::metadata(path)
        .map_err(|e| format!("{what}: {path}: {e}"))?
        .len();
    if size > 64 << 20 {
        return Err(format!(
            "{what}: {path}: too large for a test suite ({size} bytes)"
        ));
    }
    let bytes = std::fs::read(path).map_err(|e| format!("{what}: {path}: {e}"))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// `screen FILE MARGIN`: searches every EPD position of FILE (`st`, `sd`, `sn` as for
/// `test`) and writes those whose score stays within MARGIN centipawns of 0 to
/// `FILE.screened`, culling the lopsided ones (for choosing balanced opening positions).
pub fn screen(c: &mut Console, args: &[&str]) -> CmdResult {
    let [path, margin] = args else {
        return Err("usage: screen FILE MARGIN (centipawns)".into());
    };
    let margin: i32 =
        margin.parse().ok().filter(|m| *m > 0).ok_or_else(|| {
            format!("screen: '{margin}' is not a margin in centipawns (1 or more)")
        })?;
    let text = read_suite_file("screen", path)?;
    let (records, errors) = screen_records(&text);
    for e in &errors {
        c.say(&format!("screen: {path}: {e}"));
    }
    if records.is_empty() {
        return Err(format!("screen: {path}: no EPD positions"));
    }
    c.stop_pondering();
    let limits = suite_limits(c);
    let saved_noise = c.settings.noise;
    c.settings.noise = u64::MAX;
    let mut kept = Vec::new();
    let mut culled = 0;
    for (i, r) in records.iter().enumerate() {
        let p = SuitePosition {
            title: r.title.clone(),
            board: r.board.clone(),
            best: Vec::new(),
            avoid: Vec::new(),
            line: r.line,
        };
        let Some((_, _, _, score)) = run_position(c, &p, &limits, None) else {
            break;
        };
        let white = score.white_pov(r.board.side_to_move());
        let inside = matches!(white, Score::Cp(v) if v.abs() < margin);
        if inside {
            kept.push(r.text.as_str());
        } else {
            culled += 1;
        }
        c.say(&format!(
            "record {} ({}): score {} {}  (culled {culled})",
            i + 1,
            r.title,
            crate::output::fmt_score(white),
            if inside { "kept" } else { "culled" }
        ));
    }
    c.settings.noise = saved_noise;
    let out = PathBuf::from(format!("{path}.screened"));
    let mut body = kept.join("\n");
    if !body.is_empty() {
        body.push('\n');
    }
    crate::gamefiles::write_atomic(&out, body.as_bytes())
        .map_err(|e| format!("screen: {}: {e}", out.display()))?;
    c.say(&format!(
        "screen: kept {} of {}, culled {culled}, into {}",
        kept.len(),
        kept.len() + culled,
        out.display()
    ));
    Ok(Flow::Continue)
}

pub fn test(c: &mut Console, args: &[&str]) -> CmdResult {
    let (path, early) = match args {
        [p] => (p, None),
        [p, n] => (
            p,
            Some(
                n.parse::<u32>()
                    .ok()
                    .filter(|&n| n >= 1)
                    .ok_or_else(|| format!("test: '{n}' is not a number of iterations"))?,
            ),
        ),
        _ => return Err("usage: test FILE [N]".into()),
    };
    let suite = parse_suite(&read_suite_file("test", path)?);
    for e in &suite.errors {
        c.say(&format!("test: {path}: {e}"));
    }
    let positions = suite.positions;
    if positions.is_empty() {
        return Err(format!("test: {path}: no positions to test"));
    }
    c.stop_pondering();
    let limits = suite_limits(c);
    let mut solved = 0;
    let mut total_time = Duration::ZERO;
    for (i, p) in positions.iter().enumerate() {
        c.say(&format!("{} ({}/{})", p.title, i + 1, positions.len()));
        c.say(&header());
        let Some((best, ok, t, _)) = run_position(c, p, &limits, early) else {
            break;
        };
        total_time += t;
        if ok {
            solved += 1;
        }
        let long = c.settings.long_output;
        let shown = best.map_or("(none)".to_string(), |m| {
            fmt_pv_as(&p.board, &[m], false, long)
        });
        c.say(&format!(
            "{}: {} {shown}  ({solved} of {} solved)",
            p.title,
            if ok { "solved" } else { "not solved" },
            i + 1
        ));
    }
    c.say(&format!(
        "solved {solved}/{}  total time {}",
        positions.len(),
        fmt_time(total_time)
    ));
    Ok(Flow::Continue)
}

pub fn annotate(c: &mut Console, args: &[&str]) -> CmdResult {
    annotate_file(c, args, Format::Can)
}

pub fn annotateh(c: &mut Console, args: &[&str]) -> CmdResult {
    annotate_file(c, args, Format::Html)
}

pub fn annotatet(c: &mut Console, args: &[&str]) -> CmdResult {
    annotate_file(c, args, Format::Tex)
}

/// `annotate` / `annotateh` / `annotatet`: annotates every game of a PGN file into `.can`,
/// `.html` or `.tex`.
fn annotate_file(c: &mut Console, args: &[&str], format: Format) -> CmdResult {
    let Some((file, rest)) = args.split_first() else {
        return Err(parse_options(&[]).err().unwrap_or_default());
    };
    let opts = parse_options(rest)?;
    let input = PathBuf::from(file);
    let f = std::fs::File::open(&input).map_err(|e| format!("annotate: {file}: {e}"))?;
    c.stop_pondering();
    let out_path = output_path(&input, format);
    let old_multipv = c.runner.engine.options().multipv;
    c.runner.engine.set_multipv(opts.lines);
    let mut done = Vec::new();
    let mut notes = 0;
    let mut failure = None;
    for (n, item) in PgnReader::new(BufReader::new(f)).enumerate() {
        let game = match item {
            Ok(g) => g,
            Err(e) => {
                c.say(&format!("annotate: game {} skipped: {e}", n + 1));
                continue;
            }
        };
        let names = format!(
            "{} - {}",
            game.tag("White").unwrap_or("?"),
            game.tag("Black").unwrap_or("?")
        );
        c.say(&format!("annotating game {}: {names}", n + 1));
        let mut lines = Vec::new();
        let mut typed = Vec::new();
        let res = annotate_game(
            &mut c.runner,
            &game,
            &opts,
            &mut |s| lines.push(s.to_string()),
            &mut typed,
        );
        c.pending.extend(typed.into_iter().map(|l| (l, 0)));
        for l in lines {
            c.note(&format!("  {l}"));
        }
        match res {
            Ok(a) => {
                notes += a.line.note_count();
                done.push(a);
            }
            Err(e) if e.contains("interrupted") => {
                failure = Some(e);
                break;
            }
            Err(e) => c.say(&format!("annotate: game {} skipped: {e}", n + 1)),
        }
    }
    c.runner.engine.set_multipv(old_multipv);
    if let Some(e) = failure {
        return Err(e);
    }
    let text = match format {
        Format::Html => html::html(&done, &opts),
        Format::Tex => latex::latex(&done, &opts),
        Format::Can => done.iter().map(writer::pgn).collect::<Vec<_>>().join(""),
    };
    crate::gamefiles::write_atomic(&out_path, text.as_bytes())
        .map_err(|e| format!("annotate: {}: {e}", out_path.display()))?;
    c.say(&format!(
        "annotated {} games ({notes} comments) into {}",
        done.len(),
        out_path.display()
    ));
    Ok(Flow::Continue)
}
