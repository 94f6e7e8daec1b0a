//! One engine process: spawned in a process group of its own (so a Ctrl-C at the terminal
//! reaches the runner only), its output read line by line by a thread that stamps each
//! line with the instant it arrived, its input written a line at a time, and its I/O
//! optionally logged to a file per game.
//!
//! Every live process is listed in a [`Registry`]; [`Registry::abort_all`] kills them all
//! (the runner's stop on Ctrl-C or a finished SPRT), which ends any wait for a line.

use std::collections::{HashSet, VecDeque};
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Longest output line kept whole; longer lines are cut and flagged.
pub const MAX_LINE: usize = 64 * 1024;

/// One output line: its text (without the end of line), when it was read, and whether
/// it was cut at [`MAX_LINE`].
#[derive(Debug)]
struct OutLine {
    text: String,
    at: Instant,
    cut: bool,
}

/// Which output lines may wait (search reports): the reader holds them and sends them
/// with the next line that may not, so the game thread wakes once per answer rather
/// than once per report.
pub type Defer = fn(&str) -> bool;

/// Most bytes of deferred lines held before they are sent anyway.
const HOLD_BYTES: usize = 64 * 1024;

/// What the reader thread saw.
#[derive(Debug)]
enum Event {
    /// Lines in order: any held ones, then the one that released them.
    Lines(Vec<OutLine>),
    /// A line on the engine's standard error (only read when logging).
    Stderr(String),
    /// End of output: the engine closed it or exited.
    Eof,
}

/// What waiting for a line gave.
#[derive(Debug, PartialEq, Eq)]
pub enum Recv {
    /// A line and the instant it arrived; `true` when it was longer than [`MAX_LINE`].
    Line(String, Instant, bool),
    /// The engine's output ended.
    Eof,
    /// The deadline passed first.
    Timeout,
}

/// The runner's list of live engine processes, for killing them all at once.
#[derive(Clone, Default)]
pub struct Registry {
    inner: Arc<(Mutex<HashSet<u32>>, AtomicBool)>,
}

impl Registry {
    /// Kills every live engine (and its process group) and refuses new ones.
    pub fn abort_all(&self) {
        let live = self.inner.0.lock().unwrap_or_else(|e| e.into_inner());
        self.inner.1.store(true, Ordering::SeqCst);
        for &pid in live.iter() {
            kill_group(pid);
        }
    }

    /// True after [`Registry::abort_all`].
    pub fn aborted(&self) -> bool {
        self.inner.1.load(Ordering::SeqCst)
    }

    fn add(&self, pid: u32) -> bool {
        let mut live = self.inner.0.lock().unwrap_or_else(|e| e.into_inner());
        if self.aborted() {
            kill_group(pid);
            return false;
        }
        live.insert(pid);
        true
    }

    fn remove(&self, pid: u32) {
        self.inner
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&pid);
    }
}

fn kill_group(pid: u32) {
    if let Ok(pid) = i32::try_from(pid) {
        if pid > 0 {
            // SAFETY: kill(2) with a negative pid signals that process group; no memory
            // is touched. The group is the engine's own (process_group(0) at spawn).
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
    }
}

/// How to start an engine.
#[derive(Clone, Debug)]
pub struct Launch {
    pub program: String,
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
}

/// A running engine process.
pub struct Process {
    child: Child,
    pid: u32,
    stdin: Option<ChildStdin>,
    rx: Receiver<Event>,
    pending: VecDeque<OutLine>,
    readers: Vec<JoinHandle<()>>,
    registry: Registry,
    log: Option<BufWriter<File>>,
    log_wanted: bool,
    started: Instant,
    eof: bool,
}

impl Process {
    /// Starts the program with piped input and output. `log_stderr` also reads its
    /// standard error (into the I/O log); otherwise standard error is discarded. Lines
    /// `defer` accepts are delivered with the next line it does not.
    pub fn spawn(
        launch: &Launch,
        registry: &Registry,
        log_stderr: bool,
        defer: Defer,
    ) -> Result<Self, String> {
        let mut cmd = Command::new(&launch.program);
        cmd.args(&launch.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if log_stderr {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .process_group(0);
        if let Some(dir) = &launch.dir {
            cmd.current_dir(dir);
        }
        let mut child = cmd.spawn().map_err(|e| match &launch.dir {
            Some(d) => format!("cannot run '{}' in {}: {e}", launch.program, d.display()),
            None => format!("cannot run '{}': {e}", launch.program),
        })?;
        let pid = child.id();
        if !registry.add(pid) {
            let _ = child.wait();
            return Err("the match is stopping".into());
        }
        let (tx, rx) = mpsc::channel();
        let mut readers = Vec::new();
        if let Some(out) = child.stdout.take() {
            readers.push(spawn_reader(out, tx.clone(), Some(defer)));
        }
        if let Some(err) = child.stderr.take() {
            readers.push(spawn_reader(err, tx.clone(), None));
        }
        drop(tx);
        let stdin = child.stdin.take();
        Ok(Process {
            child,
            pid,
            stdin,
            rx,
            pending: VecDeque::new(),
            readers,
            registry: registry.clone(),
            log: None,
            log_wanted: log_stderr,
            started: Instant::now(),
            eof: false,
        })
    }

    /// The process id (the engine's process group has the same number).
    pub fn pid(&self) -> u32 {
        self.pid
    }

    /// Sends I/O to `path` from now on (the previous log, if any, is flushed and closed).
    /// A log that cannot be created is reported once and skipped.
    pub fn log_to(&mut self, path: Option<&Path>) {
        if let Some(mut old) = self.log.take() {
            let _ = old.flush();
        }
        if let Some(p) = path {
            match File::options().create(true).append(true).open(p) {
                Ok(f) => self.log = Some(BufWriter::new(f)),
                Err(e) => eprintln!("warning: cannot write engine log {}: {e}", p.display()),
            }
        }
    }

    fn log_line(&mut self, dir: &str, line: &str) {
        self.log_at(Instant::now(), dir, line);
    }

    fn log_at(&mut self, at: Instant, dir: &str, line: &str) {
        if let Some(log) = &mut self.log {
            let t = at.saturating_duration_since(self.started).as_secs_f64();
            let _ = writeln!(log, "{t:10.4} {dir} {line}");
        }
    }

    /// Writes one line (a newline is added) and flushes; the instant after the flush.
    pub fn send(&mut self, line: &str) -> Result<Instant, String> {
        self.log_line(">", line);
        let Some(stdin) = self.stdin.as_mut() else {
            return Err("engine input is closed".into());
        };
        let mut buf = Vec::with_capacity(line.len() + 1);
        buf.extend_from_slice(line.as_bytes());
        buf.push(b'\n');
        stdin
            .write_all(&buf)
            .and_then(|_| stdin.flush())
            .map_err(|e| format!("writing to the engine failed: {e}"))?;
        Ok(Instant::now())
    }

    /// Waits for the next output line until `deadline`.
    pub fn recv(&mut self, deadline: Instant) -> Recv {
        loop {
            if let Some(l) = self.pending.pop_front() {
                self.log_at(l.at, "<", &l.text);
                return Recv::Line(l.text, l.at, l.cut);
            }
            if self.eof {
                return Recv::Eof;
            }
            let wait = deadline.saturating_duration_since(Instant::now());
            let ev = if wait.is_zero() {
                self.rx.try_recv().map_err(|e| match e {
                    mpsc::TryRecvError::Empty => RecvTimeoutError::Timeout,
                    mpsc::TryRecvError::Disconnected => RecvTimeoutError::Disconnected,
                })
            } else {
                self.rx.recv_timeout(wait)
            };
            match ev {
                Ok(Event::Lines(v)) => self.pending.extend(v),
                Ok(Event::Stderr(l)) => self.log_line("!", &l),
                Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    self.eof = true;
                    self.log_line("#", "end of output");
                }
                Err(RecvTimeoutError::Timeout) => return Recv::Timeout,
            }
        }
    }

    /// Throws away output already received (stale lines of a search that was cut off).
    pub fn drain(&mut self) {
        while let Ok(ev) = self.rx.try_recv() {
            match ev {
                Event::Lines(v) => self.pending.extend(v),
                Event::Stderr(l) => self.log_line("!", &l),
                Event::Eof => self.eof = true,
            }
        }
        while let Some(l) = self.pending.pop_front() {
            self.log_at(l.at, "<", &l.text);
        }
    }

    /// How the process ended, when it has (waiting at most `wait`).
    pub fn exit_status(&mut self, wait: Duration) -> Option<ExitStatus> {
        let end = Instant::now() + wait;
        loop {
            match self.child.try_wait() {
                Ok(Some(st)) => return Some(st),
                Ok(None) if Instant::now() < end => std::thread::sleep(Duration::from_millis(5)),
                _ => return None,
            }
        }
    }

    /// A description of how the engine died: `exit code 1`, `signal 11`, or `still running`.
    pub fn death(&mut self) -> String {
        match self.exit_status(Duration::from_millis(300)) {
            Some(st) => describe_exit(st),
            None => "its output closed".into(),
        }
    }

    /// True when the engine's standard error is read (I/O logging is on).
    pub fn logging(&self) -> bool {
        self.log_wanted
    }

    /// Ends the process: `farewell` lines are written, then it gets `grace` to exit
    /// before its whole process group is killed.
    pub fn close(mut self, farewell: &[&str], grace: Duration) {
        for line in farewell {
            if self.send(line).is_err() {
                break;
            }
        }
        self.stdin = None;
        if self.exit_status(grace).is_none() {
            self.log_line("#", "killed");
        }
        // Drop does the rest.
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.stdin = None;
        self.registry.remove(self.pid);
        if !matches!(self.child.try_wait(), Ok(Some(_))) {
            kill_group(self.pid);
        }
        let _ = self.child.wait();
        // Helpers the engine started may still hold the pipe open; they are in its group.
        kill_group(self.pid);
        if let Some(log) = &mut self.log {
            let _ = log.flush();
        }
        // The reader threads end by themselves at the end of output (or when their
        // channel is gone); they are not joined, so an engine's grandchild that keeps a
        // pipe open cannot block the runner.
        self.readers.clear();
    }
}

/// `exit code N` or `signal N`.
pub fn describe_exit(st: ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (st.code(), st.signal()) {
        (Some(c), _) => format!("exit code {c}"),
        (None, Some(s)) => format!("signal {s}"),
        _ => "unknown exit".into(),
    }
}

/// Reads lines until the end and sends them: stdout lines (`defer` given) as
/// [`Event::Lines`], holding deferred ones, followed by one [`Event::Eof`]; stderr
/// lines as [`Event::Stderr`].
fn spawn_reader<R>(src: R, tx: Sender<Event>, defer: Option<Defer>) -> JoinHandle<()>
where
    R: Read + Send + 'static,
{
    std::thread::spawn(move || {
        let mut reader = BufReader::with_capacity(64 * 1024, src);
        let mut buf = Vec::with_capacity(256);
        let mut held: Vec<OutLine> = Vec::new();
        let mut held_bytes = 0;
        loop {
            buf.clear();
            // Read one line, keeping at most MAX_LINE bytes of it.
            let n = match (&mut reader)
                .take(MAX_LINE as u64)
                .read_until(b'\n', &mut buf)
            {
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => 0,
            };
            if n == 0 {
                break;
            }
            let at = Instant::now();
            let cut = buf.last() != Some(&b'\n') && buf.len() >= MAX_LINE;
            if cut {
                // Skip the rest of the overlong line.
                let mut sink = Vec::new();
                let _ = reader.read_until(b'\n', &mut sink);
            }
            while matches!(buf.last(), Some(b'\n' | b'\r')) {
                buf.pop();
            }
            let text = String::from_utf8_lossy(&buf).into_owned();
            let Some(defer) = defer else {
                if tx.send(Event::Stderr(text)).is_err() {
                    return;
                }
                continue;
            };
            let wait = !cut && defer(&text);
            held_bytes += text.len();
            held.push(OutLine { text, at, cut });
            if !wait || held_bytes > HOLD_BYTES {
                held_bytes = 0;
                if tx.send(Event::Lines(std::mem::take(&mut held))).is_err() {
                    return;
                }
            }
        }
        if defer.is_some() {
            if !held.is_empty() {
                let _ = tx.send(Event::Lines(held));
            }
            let _ = tx.send(Event::Eof);
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Launch {
        Launch {
            program: "sh".into(),
            args: vec!["-c".into(), script.into()],
            dir: None,
        }
    }

    fn all_lines(p: &mut Process) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(20);
        let mut got = Vec::new();
        loop {
            match p.recv(deadline) {
                Recv::Line(l, _, _) => got.push(l),
                Recv::Eof => return got,
                Recv::Timeout => panic!("no end of output; so far {got:?}"),
            }
        }
    }

    #[test]
    fn deferred_lines_arrive_in_order() {
        let reg = Registry::default();
        let mut p = Process::spawn(
            &sh("echo info 1; echo info 2; echo 'bestmove e2e4\r'; echo info 3"),
            &reg,
            false,
            |l| l.starts_with("info"),
        )
        .expect("sh");
        // The held line after the answer still comes, at the end of output.
        assert_eq!(
            all_lines(&mut p),
            ["info 1", "info 2", "bestmove e2e4", "info 3"]
        );
    }

    #[test]
    fn long_lines_are_cut_and_flagged() {
        let reg = Registry::default();
        let script = format!(
            "head -c {} /dev/zero | tr '\\0' x; echo; echo ok",
            MAX_LINE + 10
        );
        let mut p = Process::spawn(&sh(&script), &reg, false, |_| false).expect("sh");
        let deadline = Instant::now() + Duration::from_secs(20);
        match p.recv(deadline) {
            Recv::Line(l, _, cut) => assert!(cut && l.len() == MAX_LINE),
            other => panic!("{other:?}"),
        }
        assert!(matches!(p.recv(deadline), Recv::Line(l, _, false) if l == "ok"));
    }

    #[test]
    fn abort_kills_running_engines_and_refuses_new_ones() {
        let reg = Registry::default();
        let mut p =
            Process::spawn(&sh("echo up; exec sleep 600"), &reg, false, |_| false).expect("sh");
        let deadline = Instant::now() + Duration::from_secs(20);
        assert!(matches!(p.recv(deadline), Recv::Line(l, _, _) if l == "up"));
        reg.abort_all();
        assert_eq!(p.recv(deadline), Recv::Eof);
        assert!(p.death().contains("signal 9"), "{}", p.death());
        assert!(Process::spawn(&sh("true"), &reg, false, |_| false).is_err());
    }
}
