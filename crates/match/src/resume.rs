//! Saving and resuming a match: the state file that `-autosave FILE` keeps up to date
//! and `-resume FILE` reads back.
//!
//! The file (JSON) holds the match's command line and working folder, a fingerprint of
//! its schedule (engines, limits, pairings, rounds, game pairs and every opening used),
//! the result of every finished game by game number, and for each output file (PGN,
//! samples, EPD) its length and a hash of its last bytes at the moment of the save. A
//! checksum over all of it makes a truncated or edited file detectable.
//!
//! On resume the state is checked in full before anything is written: the checksum, the
//! fingerprint against the schedule the command line builds now, and each output file's
//! length and tail hash. Only then are the outputs cut back to the saved lengths (games
//! finished after the last save are played again), so the PGN never holds a game twice
//! or misses one. The state is replaced atomically (temporary file, fsync, rename), after
//! the outputs it describes have been synced.

use super::openings::OpeningBook;
use super::outcome::Outcome;
use super::schedule::Job;
use protocol::gamefiles::write_atomic;
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// The first line of the format, changed whenever the layout changes.
pub const FORMAT: &str = "wily-match-resume 1";

/// How many bytes before an output's saved end are hashed.
const TAIL: u64 = 4096;

/// Where and how often the state is saved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AutosaveSpec {
    pub path: PathBuf,
    /// Save after every N finished games (and always when the match stops).
    pub interval: u32,
}

/// A match that is one run of a bigger saved event (a knockout round or its tie-break
/// games): the event's fingerprint stands for the run's own, and the results are the
/// event's, by event game number; the run fills in its own range of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventSave {
    /// The whole event's schedule fingerprint (engines, limits, bracket, openings).
    pub fingerprint: String,
    /// The event's results so far (`W`, `B`, `D`, `.`), by event game number.
    pub results: String,
}

/// One output file as it stood at the save.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutputMark {
    pub path: PathBuf,
    pub len: u64,
    /// FNV-1a of the up to 4096 bytes before `len`.
    pub tail: String,
}

/// Everything saved about a running match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub format: String,
    /// The match's own arguments (without `-resume`).
    pub args: Vec<String>,
    /// The folder relative paths in `args` are read from.
    pub cwd: PathBuf,
    pub fingerprint: String,
    pub scheduled: usize,
    /// By game number: `W` White won, `B` Black won, `D` drawn, `.` not finished.
    pub results: String,
    pub outputs: Vec<OutputMark>,
    /// True once the match has nothing left to play (all games, or an SPRT decision).
    pub finished: bool,
}

#[derive(Serialize, Deserialize)]
struct Envelope {
    state: State,
    checksum: String,
}

/// 64-bit FNV-1a.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn hex(h: u64) -> String {
    format!("{h:016x}")
}

/// The schedule's fingerprint: what a resumed match must share with the saved one.
/// `header` describes the engines and the match's shape (names, limits, pairing, games,
/// rounds, pairs, variant); the jobs and the openings they use are added to it.
pub fn fingerprint(header: &str, jobs: &[Job], book: &OpeningBook) -> String {
    let mut text = header.to_string();
    let mut used = 0;
    for j in jobs {
        text.push_str(&format!("{} {} {}\n", j.white, j.black, j.opening));
        used = used.max(j.opening + 1);
    }
    for i in 0..used.min(book.len()) {
        let o = book.get(i);
        text.push_str(&format!("{} {:?}\n", o.board, o.moves));
    }
    hex(fnv1a(text.as_bytes()))
}

/// The result letter of an outcome.
pub fn letter(o: Outcome) -> char {
    match o {
        Outcome::WhiteWins => 'W',
        Outcome::BlackWins => 'B',
        Outcome::Draw => 'D',
    }
}

/// The results string with game `number` set.
pub fn set_result(results: &mut String, number: usize, o: Outcome) {
    let mut v: Vec<u8> = std::mem::take(results).into_bytes();
    if v.len() <= number {
        v.resize(number + 1, b'.');
    }
    v[number] = letter(o) as u8;
    *results = String::from_utf8(v).unwrap_or_default();
}

/// The finished games of a results string: (game number, outcome).
pub fn finished(results: &str) -> Vec<(usize, Outcome)> {
    results
        .bytes()
        .enumerate()
        .filter_map(|(i, c)| {
            let o = match c {
                b'W' => Outcome::WhiteWins,
                b'B' => Outcome::BlackWins,
                b'D' => Outcome::Draw,
                _ => return None,
            };
            Some((i, o))
        })
        .collect()
}

/// The `len` results of an event's string from game `offset` on (`.` past its end).
pub fn slice_results(event: &str, offset: usize, len: usize) -> String {
    (offset..offset + len)
        .map(|i| event.as_bytes().get(i).map_or('.', |&c| c as char))
        .collect()
}

/// The event's results with one run's (numbered from 0) written in from game `offset`.
pub fn merge_results(event: &str, offset: usize, run: &str) -> String {
    let mut v = event.as_bytes().to_vec();
    if v.len() < offset + run.len() {
        v.resize(offset + run.len(), b'.');
    }
    v[offset..offset + run.len()].copy_from_slice(run.as_bytes());
    String::from_utf8(v).unwrap_or_default()
}

/// Refuses to start a new match over a save of an unfinished one.
pub fn refuse_unfinished(path: &Path) -> Result<(), String> {
    match State::load(path) {
        Ok(old) if !old.finished => Err(format!(
            "{} holds an unfinished match: go on with it (wily match -resume {}) or remove the file",
            path.display(),
            path.display()
        )),
        _ => Ok(()),
    }
}

impl State {
    /// The finished games: (game number, outcome).
    pub fn finished_games(&self) -> Vec<(usize, Outcome)> {
        finished(&self.results)
    }

    /// Marks the saved match in `path` finished (an event whose last run has ended).
    pub fn mark_finished(path: &Path) -> Result<(), String> {
        let mut s = State::load(path)?;
        s.finished = true;
        s.save(path)
            .map_err(|e| format!("cannot save {}: {e}", path.display()))
    }

    /// The file's text.
    pub fn to_text(&self) -> String {
        let body = serde_json::to_string(self).unwrap_or_default();
        let env = Envelope {
            state: self.clone(),
            checksum: hex(fnv1a(body.as_bytes())),
        };
        let mut s = serde_json::to_string_pretty(&env).unwrap_or_default();
        s.push('\n');
        s
    }

    /// Reads a state file's text; a truncated, edited or foreign file is an error.
    pub fn from_text(text: &str) -> Result<State, String> {
        let env: Envelope = serde_json::from_str(text).map_err(|e| {
            format!("not a complete wily match resume file ({e}); it may be truncated")
        })?;
        if env.state.format != FORMAT {
            return Err(format!(
                "resume file format '{}' is not '{FORMAT}'",
                env.state.format
            ));
        }
        let body = serde_json::to_string(&env.state).unwrap_or_default();
        if hex(fnv1a(body.as_bytes())) != env.checksum {
            return Err(
                "the resume file's checksum does not match: it was edited or damaged".into(),
            );
        }
        if env.state.results.len() > env.state.scheduled
            || env.state.results.bytes().any(|c| !b"WBD.".contains(&c))
        {
            return Err("the resume file's results do not fit its schedule".into());
        }
        Ok(env.state)
    }

    /// Reads a state file.
    pub fn load(path: &Path) -> Result<State, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read resume file {}: {e}", path.display()))?;
        State::from_text(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Writes the state atomically.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        write_atomic(path, self.to_text().as_bytes())
    }
}

fn tail_hash(f: &mut File, len: u64) -> std::io::Result<String> {
    let from = len.saturating_sub(TAIL);
    f.seek(SeekFrom::Start(from))?;
    let mut buf = vec![0; (len - from) as usize];
    f.read_exact(&mut buf)?;
    Ok(hex(fnv1a(&buf)))
}

/// An output file's mark as it is now (a missing file has length 0).
pub fn mark(path: &Path) -> std::io::Result<OutputMark> {
    let (len, tail) = match File::open(path) {
        Ok(mut f) => {
            let len = f.metadata()?.len();
            (len, tail_hash(&mut f, len)?)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => (0, hex(fnv1a(&[]))),
        Err(e) => return Err(e),
    };
    Ok(OutputMark {
        path: path.to_path_buf(),
        len,
        tail,
    })
}

/// Checks an output file still starts with what the mark describes; returns how many
/// bytes past the mark it holds (games written after the save).
pub fn check_output(m: &OutputMark) -> Result<u64, String> {
    let shown = m.path.display();
    let mut f = match File::open(&m.path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && m.len == 0 => return Ok(0),
        Err(e) => return Err(format!("cannot read {shown}: {e}")),
    };
    let len = f
        .metadata()
        .map_err(|e| format!("cannot read {shown}: {e}"))?
        .len();
    if len < m.len {
        return Err(format!(
            "{shown} is shorter ({len} bytes) than when the match was saved ({} bytes): \
             it is not this match's file",
            m.len
        ));
    }
    let tail = tail_hash(&mut f, m.len).map_err(|e| format!("cannot read {shown}: {e}"))?;
    if tail != m.tail {
        return Err(format!(
            "{shown} does not hold what it held when the match was saved: it was edited or belongs to another match"
        ));
    }
    Ok(len - m.len)
}

/// Cuts an output file back to its mark.
pub fn cut_output(m: &OutputMark) -> Result<(), String> {
    match File::options().write(true).open(&m.path) {
        Ok(f) => f
            .set_len(m.len)
            .and_then(|_| f.sync_all())
            .map_err(|e| format!("cannot cut {} back: {e}", m.path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && m.len == 0 => Ok(()),
        Err(e) => Err(format!("cannot open {}: {e}", m.path.display())),
    }
}

/// Checks a saved state against the schedule built now and cuts the outputs back; on
/// any mismatch nothing is touched and the error says why.
pub fn prepare(
    state: &State,
    fingerprint_now: &str,
    scheduled: usize,
    outputs_now: &[PathBuf],
) -> Result<Vec<String>, String> {
    if state.fingerprint != fingerprint_now || state.scheduled != scheduled {
        return Err(
            "the resume file is for another schedule (engines, limits, games, rounds or openings differ): \
             refusing to resume"
                .into(),
        );
    }
    let saved: Vec<&Path> = state.outputs.iter().map(|m| m.path.as_path()).collect();
    let now: Vec<&Path> = outputs_now.iter().map(PathBuf::as_path).collect();
    if saved != now {
        return Err(format!(
            "the resume file's output files {saved:?} are not this match's {now:?}: refusing to resume"
        ));
    }
    let mut extra = Vec::new();
    for m in &state.outputs {
        extra.push(check_output(m)?);
    }
    let mut notes = Vec::new();
    for (m, x) in state.outputs.iter().zip(extra) {
        if x > 0 {
            cut_output(m)?;
            notes.push(format!(
                "{}: {x} bytes written after the last save removed (those games are played again)",
                m.path.display()
            ));
        }
    }
    Ok(notes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state() -> State {
        let mut results = String::new();
        set_result(&mut results, 3, Outcome::Draw);
        set_result(&mut results, 0, Outcome::WhiteWins);
        State {
            format: FORMAT.into(),
            args: vec!["-games".into(), "8".into()],
            cwd: "/tmp".into(),
            fingerprint: "abc".into(),
            scheduled: 8,
            results,
            outputs: Vec::new(),
            finished: false,
        }
    }

    #[test]
    fn round_trip_and_damage() {
        let s = state();
        assert_eq!(s.results, "W..D");
        assert_eq!(
            s.finished_games(),
            vec![(0, Outcome::WhiteWins), (3, Outcome::Draw)]
        );
        let text = s.to_text();
        assert_eq!(State::from_text(&text).unwrap(), s);
        let cut = &text[..text.len() / 2];
        assert!(State::from_text(cut).unwrap_err().contains("truncated"));
        let edited = text.replace("W..D", "W.WD");
        assert!(State::from_text(&edited).unwrap_err().contains("checksum"));
        assert!(State::from_text("{}").is_err());
    }

    #[test]
    fn event_results_are_sliced_and_merged() {
        assert_eq!(slice_results("WB.D", 1, 5), "B.D..");
        assert_eq!(merge_results("WB", 4, "DD"), "WB..DD");
        assert_eq!(merge_results("WBWBWB", 2, "D.D"), "WBD.DB");
        assert_eq!(finished("W.B").len(), 2);
    }

    #[test]
    fn outputs_are_checked_then_cut() {
        let dir = std::env::temp_dir().join(format!("wily-resume-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("g.pgn");
        std::fs::write(&p, "game one\n").unwrap();
        let m = mark(&p).unwrap();
        std::fs::write(&p, "game one\ngame two\n").unwrap();
        let mut s = state();
        s.outputs = vec![m.clone()];
        assert!(prepare(&s, "other", 8, std::slice::from_ref(&p)).is_err());
        assert!(prepare(&s, "abc", 8, &[dir.join("x.pgn")]).is_err());
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "game one\ngame two\n");
        let notes = prepare(&s, "abc", 8, std::slice::from_ref(&p)).unwrap();
        assert_eq!(notes.len(), 1);
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "game one\n");
        std::fs::write(&p, "game ONE\n").unwrap();
        assert!(check_output(&m).unwrap_err().contains("edited"));
        std::fs::write(&p, "g").unwrap();
        assert!(check_output(&m).unwrap_err().contains("shorter"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
