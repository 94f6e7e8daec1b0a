//! A running `wily` child process for the console and xboard tests: piped stdin/stdout,
//! a reader thread collecting output lines, and waits that always end (a timeout fails the
//! test with the transcript so far).

#![allow(dead_code)]

use crate::scratch;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

pub struct Wily {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<String>,
    pub transcript: Vec<String>,
    /// The working folder when the child owns it ([`Wily::spawn_in_scratch`]): a field is
    /// dropped after `Drop::drop`, so the folder goes once the child has exited.
    scratch: Option<tempfile::TempDir>,
}

/// A fresh empty working directory for one test, removed when the guard drops: keep it
/// alive (declared before the [`Wily`]) until the child has exited.
pub fn temp_dir(tag: &str) -> tempfile::TempDir {
    scratch::dir(tag)
}

impl Wily {
    /// Starts the binary with `args` in `dir` (no startup file unless the test writes one).
    pub fn spawn(args: &[&str], dir: &Path) -> Wily {
        let mut child = Command::new(env!("CARGO_BIN_EXE_wily"))
            .args(args)
            .current_dir(dir)
            .env_remove("WILY_RC")
            // Keep each test to its own folder: no shipped book, a fresh learning store
            // and lists (the binary would otherwise find the checkout's `book/`).
            .env("WILY_BOOK_DIR", dir.join("book"))
            .env("WILY_LISTS_DIR", dir.join("lists"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn wily");
        let stdout = child.stdout.take().expect("stdout");
        let stdin = child.stdin.take();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Wily {
            child,
            stdin,
            rx,
            transcript: Vec::new(),
            scratch: None,
        }
    }

    /// Starts the binary with `args` in a fresh working folder of its own, removed once
    /// the child has exited (for tests that never look in the folder).
    pub fn spawn_in_scratch(args: &[&str], tag: &str) -> Wily {
        let dir = temp_dir(tag);
        let mut w = Wily::spawn(args, dir.path());
        w.scratch = Some(dir);
        w
    }

    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        if let Some(s) = self.stdin.as_mut() {
            s.write_all(bytes).expect("write to wily");
            s.flush().expect("flush");
        }
        self.transcript
            .push(format!(">>> {}", String::from_utf8_lossy(bytes).trim_end()));
    }

    /// Closes stdin (end of input).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    fn fail(&self, what: &str) -> ! {
        let tail: Vec<&String> = self.transcript.iter().rev().take(60).collect();
        let tail: Vec<&str> = tail.into_iter().rev().map(String::as_str).collect();
        panic!(
            "{what}\n--- transcript (last 60 lines) ---\n{}",
            tail.join("\n")
        );
    }

    /// Waits for the next output line matching `pred`; earlier lines are kept in the
    /// transcript.
    pub fn expect_fn(&mut self, what: &str, secs: u64, pred: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(left) {
                Ok(line) => {
                    self.transcript.push(line.clone());
                    if pred(&line) {
                        return line;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    self.fail(&format!("timed out after {secs}s waiting for {what}"))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    self.fail(&format!("wily's output ended while waiting for {what}"))
                }
            }
        }
    }

    /// Waits for a line containing `needle`.
    pub fn expect(&mut self, needle: &str, secs: u64) -> String {
        let n = needle.to_string();
        self.expect_fn(&format!("'{needle}'"), secs, move |l| l.contains(&n))
    }

    /// Collects output lines until none arrives for `quiet` (at most `secs` in all).
    pub fn drain(&mut self, quiet: Duration, secs: u64) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(secs);
        let mut got = Vec::new();
        while Instant::now() < deadline {
            match self.rx.recv_timeout(quiet) {
                Ok(l) => {
                    self.transcript.push(l.clone());
                    got.push(l);
                }
                Err(_) => break,
            }
        }
        got
    }

    /// Waits for the process to exit (killing it after `secs`); true when it exited itself
    /// with success.
    pub fn wait_exit(&mut self, secs: u64) -> bool {
        self.close_input();
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    // Pick up the last lines.
                    while let Ok(l) = self.rx.recv_timeout(Duration::from_millis(200)) {
                        self.transcript.push(l);
                    }
                    return status.success();
                }
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(20));
                }
                _ => {
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    return false;
                }
            }
        }
    }
}

impl Drop for Wily {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
