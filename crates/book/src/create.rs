//! Building book files: `book create FILE.pgn M [N] [WPCT]` (the big book from a game
//! collection of any size) and `books create FILE.pgn M` (the small hand-edited book with
//! `!`, `?` and `{play NN%}` annotations).
//!
//! Counting keeps memory bounded: (position, move, result) counts gather in a hash map;
//! when it holds too many distinct entries it is sorted and spilled to a temporary run
//! file beside the output, and the runs are merged at the end.

use super::error::BookError;
use super::format::{
    write_book, BookEntry, BookHeader, BookKind, ENTRY_LEN, FLAG_BAD, FLAG_GOOD, FLAG_PLAY,
};
use chess::pgn::{PgnErrorKind, PgnGame, PgnMove, PgnReader};
use chess::polyglot::{encode_move, polyglot_key};
use chess::san::parse_san;
use cozy_chess::{Board, Color};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::cell::Cell;
use std::collections::HashMap;
use std::fs::{self, File};
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::Instant;

/// Game result from White's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    WhiteWins,
    Draw,
    BlackWins,
}

impl Outcome {
    /// Parses a PGN result token (`1-0`, `0-1`, `1/2-1/2`); `*` and others give `None`.
    pub fn from_pgn(s: &str) -> Option<Outcome> {
        match s.trim() {
            "1-0" => Some(Outcome::WhiteWins),
            "0-1" => Some(Outcome::BlackWins),
            "1/2-1/2" | "½-½" => Some(Outcome::Draw),
            _ => None,
        }
    }
}

/// Options of `book create`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CreateOptions {
    /// Keep the first M plies of each game.
    pub max_plies: u16,
    /// Drop moves played in fewer than N games.
    pub min_games: u16,
    /// Drop moves whose wins are below WPCT percent of their losses (from the mover's
    /// side): 50 keeps a move only if it won at least half as often as it lost.
    pub wpct: u16,
    /// Distinct entries held in memory before a run is spilled to disk.
    pub spill_threshold: usize,
    /// Draw a progress bar on stderr.
    pub progress: bool,
}

impl CreateOptions {
    pub fn new(max_plies: u16) -> CreateOptions {
        CreateOptions {
            max_plies,
            min_games: 1,
            wpct: 0,
            spill_threshold: 4_000_000,
            progress: false,
        }
    }
}

/// Counts from one `book create` run (printed as its summary).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CreateSummary {
    pub games_read: u64,
    pub games_used: u64,
    /// Games with a FEN or SetUp tag (not from the initial position).
    pub skipped_setup: u64,
    /// Games of another variant (a Variant tag other than standard chess).
    pub skipped_variant: u64,
    /// Games with an illegal or unreadable move inside the first M plies.
    pub skipped_illegal: u64,
    /// Games without a decisive or drawn result (`*`), big book only.
    pub skipped_no_result: u64,
    /// Unparseable stretches of the PGN file the reader skipped.
    pub parse_errors: u64,
    pub positions: u64,
    pub entries: u64,
    /// Distinct (position, move) pairs before the N and WPCT filters.
    pub entries_before_filter: u64,
    pub bytes: u64,
    pub seconds: f64,
}

impl CreateSummary {
    pub fn render(&self, path: &Path) -> String {
        let rate = if self.seconds > 0.0 {
            self.games_read as f64 / self.seconds
        } else {
            0.0
        };
        format!(
            "wrote {}: {} entries ({} positions, {} bytes) from {} games \
             ({} pairs before filtering)\n\
             {} games in {:.1}s ({:.0} games/s); skipped: {} FEN/SetUp, {} variant, \
             {} illegal move, {} no result; {} unreadable PGN stretches\n",
            path.display(),
            self.entries,
            self.positions,
            self.bytes,
            self.games_used,
            self.entries_before_filter,
            self.games_read,
            self.seconds,
            rate,
            self.skipped_setup,
            self.skipped_variant,
            self.skipped_illegal,
            self.skipped_no_result,
            self.parse_errors
        )
    }
}

/// Per (key, move) counts while building: wins, draws, losses from the mover's side,
/// plus flags and play percentage for the small book.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Counts {
    w: u32,
    d: u32,
    l: u32,
    flags: u8,
    play: u8,
}

impl Counts {
    fn merge(&mut self, o: &Counts) {
        self.w = self.w.saturating_add(o.w);
        self.d = self.d.saturating_add(o.d);
        self.l = self.l.saturating_add(o.l);
        self.flags |= o.flags;
        if o.flags & super::format::FLAG_PLAY != 0 {
            self.play = o.play;
        }
    }
}

/// Accumulates (position, move, result) triples and writes the book.
pub struct BookBuilder {
    kind: BookKind,
    opts: CreateOptions,
    map: HashMap<(u64, u16), Counts>,
    runs: Vec<PathBuf>,
    run_dir: PathBuf,
    pub summary: CreateSummary,
}

impl BookBuilder {
    /// `out` decides where temporary run files go (beside it).
    pub fn new(kind: BookKind, opts: CreateOptions, out: &Path) -> BookBuilder {
        let run_dir = match out.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        BookBuilder {
            kind,
            opts,
            map: HashMap::new(),
            runs: Vec::new(),
            run_dir,
            summary: CreateSummary::default(),
        }
    }

    pub fn options(&self) -> &CreateOptions {
        &self.opts
    }

    /// Adds one move: `key` is the position's Polyglot key, `mv` the Polyglot code, `mover_white`
    /// who played it. `flags`/`play` carry small-book annotations.
    pub fn add(
        &mut self,
        key: u64,
        mv: u16,
        mover_white: bool,
        outcome: Option<Outcome>,
        flags: u8,
        play: u8,
    ) -> Result<(), BookError> {
        let mut c = Counts {
            flags,
            play,
            ..Default::default()
        };
        match (outcome, mover_white) {
            (Some(Outcome::Draw), _) => c.d = 1,
            (Some(Outcome::WhiteWins), true) | (Some(Outcome::BlackWins), false) => c.w = 1,
            (Some(Outcome::WhiteWins), false) | (Some(Outcome::BlackWins), true) => c.l = 1,
            (None, _) => {}
        }
        self.map.entry((key, mv)).or_default().merge(&c);
        if self.map.len() >= self.opts.spill_threshold.max(1) {
            self.spill()?;
        }
        Ok(())
    }

    fn sorted_map(&mut self) -> Vec<((u64, u16), Counts)> {
        let mut v: Vec<_> = self.map.drain().collect();
        v.sort_unstable_by_key(|e| e.0);
        v
    }

    fn spill(&mut self) -> Result<(), BookError> {
        let v = self.sorted_map();
        let path = self.run_dir.join(format!(
            ".wily-book-run-{}-{}.tmp",
            std::process::id(),
            self.runs.len()
        ));
        let file = File::create(&path).map_err(|e| BookError::io(&path, "create", e))?;
        self.runs.push(path.clone());
        let mut w = BufWriter::with_capacity(1 << 20, file);
        for ((key, mv), c) in v {
            w.write_all(&encode_run(key, mv, &c))
                .map_err(|e| BookError::io(&path, "write", e))?;
        }
        w.flush().map_err(|e| BookError::io(&path, "write", e))?;
        Ok(())
    }

    /// Merges everything, applies the N and WPCT filters and writes `out` atomically.
    pub fn finish(mut self, out: &Path) -> Result<CreateSummary, BookError> {
        let result = self.finish_inner(out);
        for r in &self.runs {
            let _ = fs::remove_file(r);
        }
        result
    }

    fn finish_inner(&mut self, out: &Path) -> Result<CreateSummary, BookError> {
        let mem = self.sorted_map();
        let mut streams: Vec<RunStream> = Vec::new();
        for path in &self.runs {
            let f = File::open(path).map_err(|e| BookError::io(path, "open", e))?;
            streams.push(Box::new(RunReader {
                r: BufReader::with_capacity(1 << 20, f),
                path: path.clone(),
            }));
        }
        streams.push(Box::new(mem.into_iter().map(Ok)));
        let mut heads: Vec<Option<((u64, u16), Counts)>> = Vec::with_capacity(streams.len());
        for s in streams.iter_mut() {
            heads.push(s.next().transpose()?);
        }
        let mut entries: Vec<BookEntry> = Vec::new();
        let mut before = 0u64;
        let mut positions = 0u64;
        let mut last_key = None;
        while let Some(min) = heads.iter().flatten().map(|h| h.0).min() {
            let mut total = Counts::default();
            for (i, h) in heads.iter_mut().enumerate() {
                while let Some((k, c)) = h {
                    if *k != min {
                        break;
                    }
                    total.merge(c);
                    *h = streams[i].next().transpose()?;
                }
            }
            before += 1;
            if self.keep(&total) {
                if last_key != Some(min.0) {
                    positions += 1;
                    last_key = Some(min.0);
                }
                entries.push(BookEntry {
                    key: min.0,
                    mv: min.1,
                    flags: total.flags,
                    play: total.play,
                    wins: total.w,
                    draws: total.d,
                    losses: total.l,
                });
            }
        }
        let header = BookHeader {
            kind: self.kind,
            entries: entries.len() as u64,
            games: self.summary.games_used,
            max_plies: self.opts.max_plies,
            min_games: self.opts.min_games,
            wpct: self.opts.wpct,
        };
        write_book(out, &header, &entries)?;
        self.summary.entries = entries.len() as u64;
        self.summary.entries_before_filter = before;
        self.summary.positions = positions;
        self.summary.bytes = (super::format::HEADER_LEN + entries.len() * ENTRY_LEN) as u64;
        Ok(self.summary.clone())
    }

    fn keep(&self, c: &Counts) -> bool {
        if self.kind == BookKind::Small {
            return true;
        }
        let games = u64::from(c.w) + u64::from(c.d) + u64::from(c.l);
        if games < u64::from(self.opts.min_games) {
            return false;
        }
        u64::from(c.w) * 100 >= u64::from(self.opts.wpct) * u64::from(c.l)
    }
}

/// One merged stream of sorted (key, move) counts.
type RunStream = Box<dyn Iterator<Item = Result<((u64, u16), Counts), BookError>>>;

const RUN_LEN: usize = 8 + 2 + 1 + 1 + 12;

fn encode_run(key: u64, mv: u16, c: &Counts) -> [u8; RUN_LEN] {
    let mut b = [0u8; RUN_LEN];
    b[0..8].copy_from_slice(&key.to_le_bytes());
    b[8..10].copy_from_slice(&mv.to_le_bytes());
    b[10] = c.flags;
    b[11] = c.play;
    b[12..16].copy_from_slice(&c.w.to_le_bytes());
    b[16..20].copy_from_slice(&c.d.to_le_bytes());
    b[20..24].copy_from_slice(&c.l.to_le_bytes());
    b
}

struct RunReader {
    r: BufReader<File>,
    path: PathBuf,
}

impl Iterator for RunReader {
    type Item = Result<((u64, u16), Counts), BookError>;
    fn next(&mut self) -> Option<Self::Item> {
        let mut b = [0u8; RUN_LEN];
        match self.r.read_exact(&mut b) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return None,
            Err(e) => return Some(Err(BookError::io(&self.path, "read", e))),
        }
        let u32_at = |o: usize| u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]);
        let mut k = [0u8; 8];
        k.copy_from_slice(&b[0..8]);
        Some(Ok((
            (u64::from_le_bytes(k), u16::from_le_bytes([b[8], b[9]])),
            Counts {
                flags: b[10],
                play: b[11],
                w: u32_at(12),
                d: u32_at(16),
                l: u32_at(20),
            },
        )))
    }
}

/// Counts the bytes a buffered reader hands out (for the progress bar).
struct Counting<R> {
    inner: R,
    read: Rc<Cell<u64>>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.set(self.read.get() + n as u64);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Counting<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        self.inner.fill_buf()
    }
    fn consume(&mut self, amt: usize) {
        self.read.set(self.read.get() + amt as u64);
        self.inner.consume(amt);
    }
}

fn progress_bar(enabled: bool, total: u64) -> Option<ProgressBar> {
    if !enabled {
        return None;
    }
    let pb = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template(
        "{spinner} [{elapsed_precise}] [{bar:30}] {bytes}/{total_bytes} {msg}",
    )
    .unwrap_or_else(|_| ProgressStyle::default_bar())
    .progress_chars("=> ");
    pb.set_style(style);
    Some(pb)
}

/// Whether a game's Variant tag (if any) names standard chess.
fn standard_variant(game: &PgnGame) -> bool {
    match game.tag("Variant") {
        None => true,
        Some(v) => matches!(
            v.trim().to_ascii_lowercase().as_str(),
            "" | "standard" | "chess" | "normal"
        ),
    }
}

/// Small-book flags of a move: `!`/`!!` (NAG 1, 3) mark it good, `?`/`??` (NAG 2, 4)
/// bad, and a `{play NN%}` comment forces its frequency.
fn small_flags(m: &PgnMove) -> (u8, u8) {
    let mut flags = 0;
    let mut play = 0;
    for &n in &m.nags {
        match n {
            1 | 3 => flags |= FLAG_GOOD,
            2 | 4 => flags |= FLAG_BAD,
            _ => {}
        }
    }
    if let Some(p) = m.comment.as_deref().and_then(parse_play) {
        flags |= FLAG_PLAY;
        play = p;
    }
    (flags, play)
}

/// Reads `play NN%` (any case, spaces allowed) from a comment.
pub fn parse_play(comment: &str) -> Option<u8> {
    let lower = comment.to_ascii_lowercase();
    let at = lower.find("play")?;
    let rest = lower[at + 4..].trim_start();
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    let after = rest[digits.len()..].trim_start();
    if digits.is_empty() || !after.starts_with('%') {
        return None;
    }
    digits.parse::<u32>().ok().map(|n| n.min(100) as u8)
}

/// Streams `pgn` into `builder`: the first `max_plies` plies of every usable game.
fn feed_pgn(pgn: &Path, builder: &mut BookBuilder, small: bool) -> Result<(), BookError> {
    let file = File::open(pgn).map_err(|e| BookError::io(pgn, "open", e))?;
    let total = file.metadata().map(|m| m.len()).unwrap_or(0);
    let read = Rc::new(Cell::new(0u64));
    let reader = PgnReader::new(Counting {
        inner: BufReader::with_capacity(1 << 20, file),
        read: Rc::clone(&read),
    });
    let pb = progress_bar(builder.opts.progress, total);
    let start = Instant::now();
    let max_plies = usize::from(builder.opts.max_plies);
    let mut pending: Vec<(u64, u16, bool, u8, u8)> = Vec::with_capacity(max_plies);
    for item in reader {
        let game = match item {
            Ok(g) => g,
            Err(e) => {
                if let PgnErrorKind::Io(msg) = &e.kind {
                    return Err(BookError::Build(format!(
                        "cannot read {}: {msg}",
                        pgn.display()
                    )));
                }
                builder.summary.parse_errors += 1;
                continue;
            }
        };
        builder.summary.games_read += 1;
        if let Some(pb) = &pb {
            if builder.summary.games_read.is_multiple_of(1024) {
                let secs = start.elapsed().as_secs_f64().max(1e-3);
                pb.set_position(read.get());
                pb.set_message(format!(
                    "{} games, {:.0} games/s",
                    builder.summary.games_read,
                    builder.summary.games_read as f64 / secs
                ));
            }
        }
        if game.has_setup() {
            builder.summary.skipped_setup += 1;
            continue;
        }
        if !standard_variant(&game) {
            builder.summary.skipped_variant += 1;
            continue;
        }
        let outcome = Outcome::from_pgn(&game.result);
        if outcome.is_none() && !small {
            builder.summary.skipped_no_result += 1;
            continue;
        }
        pending.clear();
        let mut board = Board::default();
        let mut legal = true;
        for m in game.moves.iter().take(max_plies) {
            let Ok(mv) = parse_san(&board, &m.san) else {
                legal = false;
                break;
            };
            let (flags, play) = if small { small_flags(m) } else { (0, 0) };
            pending.push((
                polyglot_key(&board),
                encode_move(mv),
                board.side_to_move() == Color::White,
                flags,
                play,
            ));
            board.play_unchecked(mv);
        }
        if !legal {
            builder.summary.skipped_illegal += 1;
            continue;
        }
        builder.summary.games_used += 1;
        for &(key, mv, white, flags, play) in &pending {
            builder.add(key, mv, white, outcome, flags, play)?;
        }
    }
    if let Some(pb) = pb {
        pb.set_position(read.get());
        pb.finish_and_clear();
    }
    Ok(())
}

/// Builds the big book from a PGN file of any size (see [`CreateOptions`]) and writes
/// it atomically to `out`.
pub fn create_big_from_pgn(
    pgn: &Path,
    out: &Path,
    opts: &CreateOptions,
) -> Result<CreateSummary, BookError> {
    let start = Instant::now();
    let mut b = BookBuilder::new(BookKind::Big, opts.clone(), out);
    feed_pgn(pgn, &mut b, false)?;
    let mut summary = b.finish(out)?;
    summary.seconds = start.elapsed().as_secs_f64();
    Ok(summary)
}

/// Builds the small hand-edited book (`!`, `?`, `{play NN%}`) from a PGN file: every
/// line is kept (no game-count or win filters; games without a result count as lines
/// with no results).
pub fn create_small_from_pgn(
    pgn: &Path,
    out: &Path,
    max_plies: u16,
) -> Result<CreateSummary, BookError> {
    let start = Instant::now();
    let mut b = BookBuilder::new(BookKind::Small, CreateOptions::new(max_plies), out);
    feed_pgn(pgn, &mut b, true)?;
    let mut summary = b.finish(out)?;
    summary.seconds = start.elapsed().as_secs_f64();
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::BookFile;

    #[test]
    fn spilled_runs_merge_to_the_same_counts() {
        let scratch = testkit::scratch::dir("create");
        let dir = scratch.path();
        let build = |threshold: usize, name: &str| {
            let out = dir.join(name);
            let mut opts = CreateOptions::new(10);
            opts.spill_threshold = threshold;
            opts.min_games = 2;
            opts.wpct = 50;
            let mut b = BookBuilder::new(BookKind::Big, opts, &out);
            for i in 0..500u64 {
                let outcome = match i % 3 {
                    0 => Some(Outcome::WhiteWins),
                    1 => Some(Outcome::Draw),
                    _ => Some(Outcome::BlackWins),
                };
                b.add(i % 37, (i % 5) as u16, i % 2 == 0, outcome, 0, 0)
                    .expect("add");
            }
            b.finish(&out).expect("finish");
            BookFile::open(&out)
                .expect("open")
                .iter()
                .collect::<Vec<_>>()
        };
        let a = build(1_000_000, "a.wbk");
        let b = build(7, "b.wbk");
        assert!(!a.is_empty());
        assert_eq!(a, b);
        for e in &a {
            assert!(e.games() >= 2);
            assert!(u64::from(e.wins) * 100 >= 50 * u64::from(e.losses));
        }
        let leftovers: Vec<_> = fs::read_dir(dir)
            .expect("ls")
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(leftovers.is_empty());
    }
}
