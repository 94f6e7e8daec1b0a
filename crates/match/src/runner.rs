//! Runs a whole match: `concurrency` worker threads take the scheduled games in order,
//! each keeping its own engine processes between games (restarted after a fault, when
//! asked, or when an xboard engine says `reuse=0`); the main thread writes each finished
//! game to the PGN and the sample file, updates the standings, the progress line and the
//! SPRT, and stops everything on a decision or Ctrl-C (games in progress are dropped).

use super::config::EngineSpec;
use super::engine::process::{Process, Registry};
use super::engine::{Engine, Fault};
use super::game::{self, GameContext, GameRecord};
use super::openings::OpeningBook;
use super::pgnout::{EpdOut, GameInfo, PgnOut};
use super::progress::Progress;
use super::report::Standings;
use super::resume::{self, State};
use super::sample::SampleWriter;
use super::schedule::{pairings, schedule_staged, stages, Job};
use super::settings::MatchSettings;
use super::signal::Signals;
use super::sprt::Decision;
use cozy_chess::Color;
use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The runner's own cost per engine move.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Overhead {
    pub moves: usize,
    pub mean: Duration,
    pub median: Duration,
    pub p99: Duration,
    pub max: Duration,
}

impl Overhead {
    /// Summarizes the samples.
    pub fn from_samples(mut v: Vec<Duration>) -> Overhead {
        if v.is_empty() {
            return Overhead::default();
        }
        v.sort_unstable();
        let n = v.len();
        let total: Duration = v.iter().sum();
        let at = |q: f64| v[((n as f64 * q).ceil() as usize).clamp(1, n) - 1];
        Overhead {
            moves: n,
            mean: total / n as u32,
            median: at(0.5),
            p99: at(0.99),
            max: v[n - 1],
        }
    }
}

impl std::fmt::Display for Overhead {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let us = |d: Duration| d.as_secs_f64() * 1e6;
        write!(
            f,
            "runner overhead per engine move: mean {:.0} µs, median {:.0} µs, p99 {:.0} µs, max {:.0} µs ({} moves)",
            us(self.mean),
            us(self.median),
            us(self.p99),
            us(self.max),
            self.moves
        )
    }
}

/// CPU time (user + system) this process has used so far, all its threads together.
pub fn process_cpu() -> Duration {
    // SAFETY: getrusage fills the zeroed struct it is given; nothing else is touched.
    let ru = unsafe {
        let mut ru: libc::rusage = std::mem::zeroed();
        if libc::getrusage(libc::RUSAGE_SELF, &mut ru) != 0 {
            return Duration::ZERO;
        }
        ru
    };
    let tv =
        |t: libc::timeval| Duration::new(t.tv_sec.max(0) as u64, (t.tv_usec.max(0) as u32) * 1000);
    tv(ru.ru_utime) + tv(ru.ru_stime)
}

/// How a match went.
#[derive(Debug)]
pub struct Summary {
    pub standings: Standings,
    pub games: usize,
    pub scheduled: usize,
    pub decision: Option<Decision>,
    pub llr: Option<f64>,
    pub interrupted: bool,
    pub overhead: Overhead,
    /// CPU the runner itself used (all its threads), engines not included.
    pub cpu: Duration,
    pub wall: Duration,
    pub samples: u64,
    /// Games that were already played when this run resumed the match.
    pub resumed: usize,
    /// The `-use-affinity` assignment, for the summary.
    pub affinity: Option<String>,
    /// The result of every game by game number (`W`, `B`, `D`, `.` not played).
    pub results: String,
}

enum Msg {
    Done(Job, Box<GameRecord>, String),
    Warning(String),
}

struct Shared<'a> {
    settings: &'a MatchSettings,
    specs: Vec<Arc<EngineSpec>>,
    jobs: &'a [Job],
    book: &'a OpeningBook,
    next: AtomicUsize,
    stop: AtomicBool,
    registry: Registry,
    /// `-use-affinity`: each worker's `[White's, Black's]` core (empty: no pinning).
    cores: Vec<[usize; 2]>,
}

fn log_path(shared: &Shared, job: &Job, engine: usize) -> Option<PathBuf> {
    let dir = shared.settings.log_dir.as_ref()?;
    let name: String = shared.specs[engine]
        .name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    Some(dir.join(format!("{:06}-{name}.log", job.number + 1)))
}

/// Takes engine `idx` out of its slot ready for `job`: the running process when it can
/// play again, else a fresh one.
fn take_ready(
    shared: &Shared,
    slot: &mut Option<Engine>,
    idx: usize,
    job: &Job,
    tx: &Sender<Msg>,
) -> Result<Engine, Fault> {
    let log = log_path(shared, job, idx);
    if let Some(mut e) = slot.take() {
        if e.reusable() {
            e.log_to(log.as_deref());
            return Ok(e);
        }
        e.close();
    }
    let mut e = Engine::start(
        shared.specs[idx].clone(),
        &shared.registry,
        log.as_deref(),
        shared.settings.variant,
    )?;
    forward_warnings(&mut e, tx);
    Ok(e)
}

fn forward_warnings(e: &mut Engine, tx: &Sender<Msg>) {
    for w in e.take_warnings() {
        let _ = tx.send(Msg::Warning(w));
    }
}

/// A game that ended before its first move because an engine would not start.
fn no_game(job: &Job, shared: &Shared, color: Color, fault: &Fault) -> GameRecord {
    GameRecord {
        start: shared.book.get(job.opening).board.clone(),
        moves: Vec::new(),
        end: game::fault_end(color, fault),
    }
}

/// Puts an engine back in its slot, or closes it when it cannot play again.
fn put_back(slot: &mut Option<Engine>, mut e: Engine, tx: &Sender<Msg>) {
    forward_warnings(&mut e, tx);
    if e.reusable() {
        *slot = Some(e);
    } else {
        e.close();
    }
}

fn worker(shared: &Shared, tx: Sender<Msg>, slot: usize) -> Vec<Duration> {
    let mut overhead = Vec::new();
    let mut engines: Vec<Option<Engine>> = (0..shared.specs.len()).map(|_| None).collect();
    let mut first = true;
    while !shared.stop.load(Ordering::SeqCst) {
        let n = shared.next.fetch_add(1, Ordering::SeqCst);
        let Some(job) = shared.jobs.get(n) else { break };
        if !first && !shared.settings.wait.is_zero() {
            std::thread::sleep(shared.settings.wait);
        }
        first = false;
        let date = chrono::Local::now().format("%Y.%m.%d").to_string();
        let record = match take_ready(shared, &mut engines[job.white], job.white, job, &tx) {
            Err(f) => no_game(job, shared, Color::White, &f),
            Ok(mut w) => match take_ready(shared, &mut engines[job.black], job.black, job, &tx) {
                Err(f) => {
                    put_back(&mut engines[job.white], w, &tx);
                    no_game(job, shared, Color::Black, &f)
                }
                Ok(mut b) => {
                    if let Some(&[cw, cb]) = shared.cores.get(slot) {
                        for (e, core) in [(&w, cw), (&b, cb)] {
                            if let Err(err) = super::affinity::pin(e.pid(), core) {
                                let _ = tx.send(Msg::Warning(format!(
                                    "cannot pin {} to core {core}: {err}",
                                    e.spec.name
                                )));
                            }
                        }
                    }
                    let mut ctx = GameContext {
                        rules: &shared.settings.rules,
                        variant: shared.settings.variant,
                        overhead: &mut overhead,
                        book_seed: shared.settings.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15)
                            ^ job.number as u64,
                    };
                    let record =
                        game::play(&mut ctx, [&mut w, &mut b], shared.book.get(job.opening));
                    put_back(&mut engines[job.white], w, &tx);
                    put_back(&mut engines[job.black], b, &tx);
                    record
                }
            },
        };
        if shared.registry.aborted() && record.end.kind == game::EndKind::Abandoned {
            // Stopped while the game was on (its engines were killed): it is dropped.
            break;
        }
        if tx.send(Msg::Done(*job, Box::new(record), date)).is_err() {
            break;
        }
    }
    for e in engines.into_iter().flatten() {
        e.close();
    }
    overhead
}

/// Checks every engine's program can be started at all (a wrong path ends the match
/// before it begins, rather than losing every game).
fn preflight(settings: &MatchSettings) -> Result<(), String> {
    let registry = Registry::default();
    for spec in &settings.engines {
        let p = Process::spawn(&spec.launch, &registry, false, |_| false)
            .map_err(|e| format!("engine {}: {e}", spec.name))?;
        p.close(&[], Duration::ZERO);
    }
    Ok(())
}

/// The match's output files (PGN, samples, EPD) in the order a resume file lists them.
pub fn output_paths(settings: &MatchSettings) -> Vec<PathBuf> {
    [
        settings.pgn.as_ref().map(|p| p.path.clone()),
        settings.sample.as_ref().map(|s| s.path.clone()),
        settings.epd_out.clone(),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// The progress text: games, score, Elo ± error, LLR.
fn status_text(standings: &Standings, llr: Option<(f64, (f64, f64))>) -> String {
    let mut s = standings.short(&standings.headline());
    if let Some((l, (lo, hi))) = llr {
        s.push_str(&format!(", LLR {l:.2} [{lo:.2}, {hi:.2}]"));
    }
    s
}

/// Plays the match and returns its summary (the caller prints it).
pub fn run(settings: &MatchSettings) -> Result<Summary, String> {
    let started = Instant::now();
    let cpu_start = process_cpu();
    let mut warnings = Vec::new();
    let book = OpeningBook::load(settings.openings.as_ref(), &mut warnings)?;
    for w in &warnings {
        eprintln!("warning: {w}");
    }
    preflight(settings)?;
    if let Some(dir) = &settings.log_dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create log folder {}: {e}", dir.display()))?;
    }
    let (pairs, stage_list, games, rounds) = match &settings.plan {
        Some(p) => (
            p.pairs.clone(),
            stages(0, super::config::Tournament::RoundRobin, p.pairs.len()),
            p.games,
            1,
        ),
        None => {
            let pairs = pairings(settings.engines.len(), settings.tournament);
            let st = stages(settings.engines.len(), settings.tournament, pairs.len());
            (pairs, st, settings.games, settings.rounds)
        }
    };
    let mut all_jobs = schedule_staged(
        &pairs,
        &stage_list,
        games,
        rounds,
        settings.repeat,
        settings.colours,
    );
    let first_game = settings.plan.as_ref().map_or(0, |p| p.first_game);
    if let Some(p) = &settings.plan {
        for j in &mut all_jobs {
            j.opening += p.first_opening;
        }
    }
    let names: Vec<String> = settings.engines.iter().map(|e| e.name.clone()).collect();
    let mut standings = Standings::new(names, pairs, settings.repeat);
    standings.show_penta = settings.report_penta;
    let mut header = String::new();
    for e in &settings.engines {
        header.push_str(&format!("engine {} {}", e.name, e.limits));
        if let Some(b) = &e.book {
            header.push_str(&format!(" book {} {:?}", b.path.display(), b.depth));
        }
        header.push('\n');
    }
    header.push_str(&format!(
        "{:?} games {} rounds {} repeat {} {:?}\n",
        settings.tournament, settings.games, settings.rounds, settings.repeat, settings.variant
    ));
    // One run of a saved event (a knockout round) saves the event's state: the event
    // checked the resume file and the outputs before its first run.
    let event = settings.plan.as_ref().and_then(|p| p.saved.as_ref());
    let fingerprint = match event {
        Some(e) => e.fingerprint.clone(),
        None => resume::fingerprint(&header, &all_jobs, &book),
    };
    let output_paths = output_paths(settings);
    let mut results = String::new();
    let mut resumed = 0;
    if let Some(e) = event {
        results = resume::slice_results(&e.results, first_game, all_jobs.len());
        for (number, outcome) in resume::finished(&results) {
            standings.add(&all_jobs[number], outcome);
            resumed += 1;
        }
    } else if let Some(state) = &settings.resume {
        // Everything is checked before any output is touched.
        for note in resume::prepare(state, &fingerprint, all_jobs.len(), &output_paths)? {
            eprintln!("resume: {note}");
        }
        for (number, outcome) in state.finished_games() {
            standings.add(&all_jobs[number], outcome);
            resumed += 1;
        }
        results = state.results.clone();
        eprintln!(
            "resume: {resumed} of {} games already played, going on",
            all_jobs.len()
        );
    } else if let Some(a) = &settings.autosave {
        resume::refuse_unfinished(&a.path)?;
    }
    let done_before = |j: &Job| results.as_bytes().get(j.number).is_some_and(|&c| c != b'.');
    let jobs: Vec<Job> = all_jobs
        .iter()
        .filter(|j| !done_before(j))
        .copied()
        .collect();
    let sprt = settings.sprt;
    let bounds = sprt.map(|s| s.bounds());
    let mut llr = None;
    let mut decision = None;
    if let (Some(s), true) = (&sprt, resumed > 0) {
        let l = s.llr(&standings.sprt_counts());
        llr = Some(l);
        decision = s.decide(l);
    }
    let jobs = if decision.is_some() { Vec::new() } else { jobs };
    let mut pgn = settings.pgn.as_ref().map(PgnOut::open).transpose()?;
    let mut samples = settings
        .sample
        .as_ref()
        .map(SampleWriter::open)
        .transpose()?;
    let mut epd = settings.epd_out.as_deref().map(EpdOut::open).transpose()?;
    let cwd = std::env::current_dir().unwrap_or_default();
    let mut since_save = 0u32;
    let save = |results: &str,
                finished: bool,
                pgn: &mut Option<PgnOut>,
                samples: &mut Option<SampleWriter>,
                epd: &mut Option<EpdOut>|
     -> Result<(), String> {
        let Some(a) = &settings.autosave else {
            return Ok(());
        };
        if let Some(p) = pgn.as_mut() {
            p.sync();
        }
        if let Some(s) = samples.as_mut() {
            s.sync();
        }
        if let Some(e) = epd.as_mut() {
            e.sync();
        }
        let outputs = output_paths
            .iter()
            .map(|p| resume::mark(p))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("cannot read an output file back: {e}"))?;
        let (results, scheduled, finished) = match event {
            // The event's results with this run's in place; only the event knows when
            // it is finished.
            Some(e) => {
                let r = resume::merge_results(&e.results, first_game, results);
                let n = r.len().max(first_game + all_jobs.len());
                (r, n, false)
            }
            None => (results.to_string(), all_jobs.len(), finished),
        };
        let state = State {
            format: resume::FORMAT.into(),
            args: settings.command_line.clone(),
            cwd: cwd.clone(),
            fingerprint: fingerprint.clone(),
            scheduled,
            results,
            outputs,
            finished,
        };
        state
            .save(&a.path)
            .map_err(|e| format!("cannot save {}: {e}", a.path.display()))
    };
    let (affinity_slots, affinity) = if settings.affinity {
        let cores = super::affinity::allowed_cores();
        let slots = super::affinity::assign(settings.concurrency.max(1), &cores);
        if slots.is_empty() {
            eprintln!(
                "warning: -use-affinity: the allowed cores cannot be read; engines are not pinned"
            );
            (slots, None)
        } else {
            let text = super::affinity::describe(&slots, &cores);
            (slots, Some(text))
        }
    } else {
        (Vec::new(), None)
    };
    // A first save, so that even a match killed in its first game can be resumed.
    save(&results, jobs.is_empty(), &mut pgn, &mut samples, &mut epd)?;
    let shared = Shared {
        settings,
        specs: settings.engines.iter().cloned().map(Arc::new).collect(),
        jobs: &jobs,
        book: &book,
        next: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
        registry: Registry::default(),
        cores: affinity_slots.clone(),
    };
    let signals = Signals::install();
    let mut progress = Progress::new(all_jobs.len() as u64, settings.progress);
    let mut interrupted = false;
    let mut seen_warnings = HashSet::new();
    let mut overhead = Vec::new();
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel();
        let handles: Vec<_> = (0..settings.concurrency.max(1))
            .map(|slot| {
                let tx = tx.clone();
                let shared = &shared;
                scope.spawn(move || worker(shared, tx, slot))
            })
            .collect();
        drop(tx);
        let stop_all = |shared: &Shared| {
            shared.stop.store(true, Ordering::SeqCst);
            shared.registry.abort_all();
        };
        loop {
            match rx.recv_timeout(Duration::from_millis(100)) {
                Ok(Msg::Warning(w)) => {
                    if seen_warnings.insert(w.clone()) {
                        progress.println(&format!("warning: {w}"));
                    }
                }
                Ok(Msg::Done(job, record, date)) => {
                    standings.add(&job, record.end.outcome);
                    resume::set_result(&mut results, job.number, record.end.outcome);
                    let shown = Job {
                        number: job.number + first_game,
                        ..job
                    };
                    let info = GameInfo {
                        event: &settings.event,
                        job: &shown,
                        white: &settings.engines[job.white],
                        black: &settings.engines[job.black],
                        opening: book.get(job.opening),
                        variant: super::openings::game_variant(
                            settings.variant,
                            &book.get(job.opening).board,
                        ),
                        date: &date,
                    };
                    if let Some(out) = pgn.as_mut() {
                        if let Err(e) = out.write(&info, &record) {
                            progress.println(&format!("warning: writing the PGN failed: {e}"));
                        }
                    }
                    if let Some(out) = epd.as_mut() {
                        if let Err(e) = out.write(&info, &record) {
                            progress.println(&format!("warning: writing the EPD failed: {e}"));
                        }
                    }
                    if let Some(s) = samples.as_mut() {
                        if let Err(e) = s.write_game(&record, shown.number) {
                            progress.println(&format!("warning: writing samples failed: {e}"));
                        }
                    }
                    if let Some(s) = &sprt {
                        let l = s.llr(&standings.sprt_counts());
                        llr = Some(l);
                        if decision.is_none() {
                            decision = s.decide(l);
                            if decision.is_some() {
                                stop_all(&shared);
                            }
                        }
                    }
                    let n = settings.rating_interval;
                    if n > 0 && standings.games().is_multiple_of(n) {
                        progress.print_out(&format!(
                            "Standings after {} of {} games:\n{}",
                            standings.games(),
                            all_jobs.len(),
                            standings.full_report()
                        ));
                    }
                    since_save += 1;
                    if settings
                        .autosave
                        .as_ref()
                        .is_some_and(|a| since_save >= a.interval)
                    {
                        since_save = 0;
                        if let Err(e) = save(&results, false, &mut pgn, &mut samples, &mut epd) {
                            progress.println(&format!("warning: {e}"));
                        }
                    }
                    progress.update(
                        standings.games() as u64,
                        &status_text(&standings, llr.zip(bounds)),
                    );
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
            if signals.interrupted() && !interrupted {
                interrupted = true;
                progress.println("interrupted: stopping (games in progress are dropped)");
                stop_all(&shared);
            }
            if signals.report_requested() {
                progress.println(&standings.full_report());
            }
        }
        for h in handles {
            if let Ok(v) = h.join() {
                overhead.extend(v);
            }
        }
    });
    progress.finish();
    if let Some(p) = pgn.as_mut() {
        p.sync();
    }
    let games = standings.games() as usize;
    let finished = decision.is_some() || games == all_jobs.len();
    if let Err(e) = save(&results, finished, &mut pgn, &mut samples, &mut epd) {
        eprintln!("warning: {e}");
    }
    Ok(Summary {
        standings,
        games,
        scheduled: all_jobs.len(),
        decision,
        llr,
        interrupted,
        overhead: Overhead::from_samples(overhead),
        cpu: process_cpu().saturating_sub(cpu_start),
        wall: started.elapsed(),
        samples: samples.map_or(0, |s| s.written),
        resumed,
        affinity,
        results,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overhead_percentiles() {
        let v: Vec<Duration> = (1..=100).map(Duration::from_micros).collect();
        let o = Overhead::from_samples(v);
        assert_eq!(o.moves, 100);
        assert_eq!(o.median, Duration::from_micros(50));
        assert_eq!(o.p99, Duration::from_micros(99));
        assert_eq!(o.max, Duration::from_micros(100));
        assert_eq!(o.mean, Duration::from_nanos(50_500));
        assert_eq!(Overhead::from_samples(Vec::new()).moves, 0);
    }
}
