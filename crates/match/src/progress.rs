//! The live progress line: games played of the total, the score, Elo ± error and, in an
//! SPRT, the LLR against its bounds. On a terminal it is an indicatif bar redrawn as
//! games finish; otherwise (a pipe, a log file) the same text is printed as a plain line
//! every few games.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// Where progress goes.
pub struct Progress {
    bar: Option<ProgressBar>,
    /// Whether anything is shown at all.
    enabled: bool,
    total: u64,
    every: u64,
    printed: u64,
}

impl Progress {
    /// A progress display for `total` games; `enabled: false` shows nothing.
    pub fn new(total: u64, enabled: bool) -> Progress {
        let tty = std::io::stderr().is_terminal();
        let bar = (enabled && tty).then(|| {
            let bar =
                ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr_with_hz(4));
            let style =
                ProgressStyle::with_template("{elapsed_precise} [{bar:20}] {pos}/{len} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar())
                    .progress_chars("=> ");
            bar.set_style(style);
            bar
        });
        Progress {
            bar,
            enabled,
            total,
            every: if enabled {
                (total / 20).clamp(1, 100)
            } else {
                u64::MAX
            },
            printed: 0,
        }
    }

    /// Shows `done` games and the status text.
    pub fn update(&mut self, done: u64, text: &str) {
        match &self.bar {
            Some(bar) => {
                bar.set_position(done);
                bar.set_message(text.to_string());
            }
            None => {
                if self.enabled
                    && (done >= self.printed + self.every
                        || (done == self.total && done != self.printed))
                {
                    self.printed = done;
                    eprintln!("{done}/{} {text}", self.total);
                }
            }
        }
    }

    /// Prints a line above the bar (or plainly).
    pub fn println(&self, text: &str) {
        match &self.bar {
            Some(bar) => bar.println(text),
            None => eprintln!("{text}"),
        }
    }

    /// Prints text on standard output (the bar, on standard error, kept clear of it).
    pub fn print_out(&self, text: &str) {
        use std::io::Write;
        let out = || {
            let mut o = std::io::stdout().lock();
            let _ = o.write_all(text.as_bytes());
            let _ = o.flush();
        };
        match &self.bar {
            Some(bar) => bar.suspend(out),
            None => out(),
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
