//! Signals during a match: the first SIGINT (Ctrl-C) asks for a clean stop (the handler
//! only sets a flag; a second Ctrl-C gets the default action and ends the program at
//! once); SIGUSR1 asks for the current statistics. Handlers are installed for the length
//! of a match and the previous ones restored afterwards.

use std::sync::atomic::{AtomicBool, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static REPORT: AtomicBool = AtomicBool::new(false);

extern "C" fn on_sigint(_: libc::c_int) {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

extern "C" fn on_sigusr1(_: libc::c_int) {
    REPORT.store(true, Ordering::SeqCst);
}

/// The match's signal handlers; dropping it restores the previous ones.
pub struct Signals {
    old_int: libc::sigaction,
    old_usr1: libc::sigaction,
}

fn install(
    sig: libc::c_int,
    handler: extern "C" fn(libc::c_int),
    flags: libc::c_int,
) -> libc::sigaction {
    // SAFETY: sigaction with a zeroed struct plus a handler that only stores to an
    // atomic (async-signal-safe); the old action is kept for restoring.
    unsafe {
        let mut act: libc::sigaction = std::mem::zeroed();
        act.sa_sigaction = handler as usize;
        act.sa_flags = flags;
        libc::sigemptyset(&mut act.sa_mask);
        let mut old: libc::sigaction = std::mem::zeroed();
        libc::sigaction(sig, &act, &mut old);
        old
    }
}

impl Signals {
    /// Installs the handlers and clears the flags.
    pub fn install() -> Signals {
        INTERRUPTED.store(false, Ordering::SeqCst);
        REPORT.store(false, Ordering::SeqCst);
        Signals {
            // SA_RESETHAND: the second Ctrl-C finds the default action.
            old_int: install(
                libc::SIGINT,
                on_sigint,
                libc::SA_RESETHAND | libc::SA_RESTART,
            ),
            old_usr1: install(libc::SIGUSR1, on_sigusr1, libc::SA_RESTART),
        }
    }

    /// True once Ctrl-C was pressed.
    pub fn interrupted(&self) -> bool {
        INTERRUPTED.load(Ordering::SeqCst)
    }

    /// True (once per request) when SIGUSR1 asked for the statistics.
    pub fn report_requested(&self) -> bool {
        REPORT.swap(false, Ordering::SeqCst)
    }
}

impl Drop for Signals {
    fn drop(&mut self) {
        // SAFETY: restores the actions saved by `install`.
        unsafe {
            libc::sigaction(libc::SIGINT, &self.old_int, std::ptr::null_mut());
            libc::sigaction(libc::SIGUSR1, &self.old_usr1, std::ptr::null_mut());
        }
    }
}
