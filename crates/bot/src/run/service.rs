//! Running as a service: the SIGHUP reload (settings and opponent lists re-read while the
//! connection stays up; a bad file is rejected and the old settings kept; with
//! `[[accounts]]`, every account's entry applied again on top of the new file) and the signal
//! sources of `wily ics` (SIGTERM/SIGINT count shutdown requests, SIGHUP asks for a
//! reload). How a shutdown request ends the game in progress is in `session.rs` (no new
//! seeks, an adjournment offered) and `run/driver.rs` (the `[service] shutdown_limit_secs`).

use crate::state::Session;
use config::{AccountSection, Config};
use lists::OpponentLists;
use tokio::sync::{mpsc, watch};

/// New settings and lists, already read and validated, for a running bot.
#[derive(Debug, Clone)]
pub struct Reload {
    pub cfg: Config,
    pub lists: OpponentLists,
}

impl Reload {
    /// `cfg` with the opponent lists of its `paths.lists` (bad entries logged).
    pub fn with_lists(cfg: Config) -> Reload {
        let (lists, warnings) = OpponentLists::load(&cfg.paths.lists);
        for w in &warnings {
            tracing::warn!("reload: {w}");
        }
        Reload { cfg, lists }
    }

    /// Gives the session these settings and lists without touching the connection or the game in
    /// progress. Keys that only take effect at start-up (`[server]`, `[local]`,
    /// `[paths]`, `[log]`, `[web]`, `[observe]`, and the engine's threads, hash,
    /// overhead, book, learning and tablebase keys) keep their running values; the
    /// returned names say which of them the new file changed (a restart applies those).
    pub fn apply(self, s: &mut Session) -> Vec<&'static str> {
        let old = &s.bot.cfg;
        let mut cfg = self.cfg;
        let mut kept = Vec::new();
        macro_rules! keep {
            ($($field:ident).+, $name:expr) => {
                if cfg.$($field).+ != old.$($field).+ {
                    kept.push($name);
                    cfg.$($field).+ = old.$($field).+.clone();
                }
            };
        }
        keep!(server, "server");
        keep!(local, "local");
        keep!(paths, "paths");
        keep!(log, "log");
        keep!(web, "web");
        keep!(observe, "observe");
        keep!(engine.threads, "engine.threads");
        keep!(engine.hash_mb, "engine.hash_mb");
        keep!(engine.move_overhead_ms, "engine.move_overhead_ms");
        keep!(engine.book, "engine.book");
        keep!(engine.learn, "engine.learn");
        keep!(engine.book_search_ms, "engine.book_search_ms");
        keep!(engine.syzygy_path, "engine.syzygy_path");
        if cfg.seek.enabled != old.seek.enabled {
            s.matching.seeking = cfg.seek.enabled;
        }
        if cfg.accept.enabled != old.accept.enabled {
            s.matching.accepting = cfg.accept.enabled;
        }
        // New seek ads are posted at the next idle moment.
        if cfg.seek != old.seek {
            s.matching.last_seek = None;
        }
        s.bot.cfg = cfg;
        s.bot.lists = self.lists;
        kept
    }
}

/// Reads new settings and lists with `load` (which validates); logs and returns `None` on
/// a bad file, so the running bot keeps its settings.
pub fn read_reload(load: &dyn Fn() -> Result<Config, String>) -> Option<Reload> {
    read_config(load).map(Reload::with_lists)
}

fn read_config(load: &dyn Fn() -> Result<Config, String>) -> Option<Config> {
    load()
        .map_err(|e| tracing::error!("reload rejected, the old settings stay in force: {e}"))
        .ok()
}

/// The reload of each of `running` (the `[[accounts]]` entries the process started
/// with) from the new settings `new`: the account's entry in the new file (matched by
/// handle, any case) applied on top of the new file, with that account's lists. An
/// account the new file no longer names keeps its old entry, on top of the new file; the
/// set of accounts itself changes only at the next start (logged).
pub fn account_reloads(new: &Config, running: &[AccountSection]) -> Vec<Reload> {
    let same = |a: &AccountSection, b: &AccountSection| a.handle.eq_ignore_ascii_case(&b.handle);
    for n in &new.accounts {
        if !running.iter().any(|r| same(r, n)) {
            tracing::warn!(
                "reload: account {} is new; accounts are added at the next start",
                n.handle
            );
        }
    }
    running
        .iter()
        .map(|old| {
            let entry = new
                .accounts
                .iter()
                .find(|n| same(old, n))
                .unwrap_or_else(|| {
                    tracing::warn!(
                    "reload: account {} is no longer in the file; it runs on until the next start",
                    old.handle
                );
                    old
                });
            Reload::with_lists(entry.apply(new))
        })
        .collect()
}

/// The process's signals as channels: the number of SIGTERM/SIGINT so far (1: finish the
/// game, 2: leave now), and one message per SIGHUP.
pub struct Signals {
    pub shutdown: watch::Receiver<u32>,
    pub hangup: mpsc::UnboundedReceiver<()>,
}

/// Installs the handlers (inside a tokio runtime).
pub fn signals() -> Signals {
    let (tx, shutdown) = watch::channel(0u32);
    let (hup_tx, hangup) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{signal, SignalKind};
            let (Ok(mut term), Ok(mut int), Ok(mut hup)) = (
                signal(SignalKind::terminate()),
                signal(SignalKind::interrupt()),
                signal(SignalKind::hangup()),
            ) else {
                tracing::warn!("cannot install signal handlers");
                return;
            };
            loop {
                tokio::select! {
                    _ = term.recv() => {}
                    _ = int.recv() => {}
                    _ = hup.recv() => {
                        tracing::info!("SIGHUP: reloading the settings and lists");
                        let _ = hup_tx.send(());
                        continue;
                    }
                }
                let n = *tx.borrow() + 1;
                tracing::info!("shutdown signal {n}");
                if tx.send(n).is_err() {
                    return;
                }
            }
        }
        #[cfg(not(unix))]
        {
            let _hup = hup_tx;
            loop {
                if tokio::signal::ctrl_c().await.is_err() {
                    return;
                }
                let n = *tx.borrow() + 1;
                if tx.send(n).is_err() {
                    return;
                }
            }
        }
    });
    Signals { shutdown, hangup }
}

/// Turns SIGHUPs into reloads: each one re-reads the settings with `load`; good ones go
/// to the returned channel (the driver applies them), bad ones are logged and dropped.
pub fn reloads(
    mut hangup: mpsc::UnboundedReceiver<()>,
    load: impl Fn() -> Result<Config, String> + Send + 'static,
) -> mpsc::UnboundedReceiver<Reload> {
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        while hangup.recv().await.is_some() {
            if let Some(r) = read_reload(&load) {
                if tx.send(r).is_err() {
                    return;
                }
            }
        }
    });
    rx
}

/// As [`reloads`] for `[[accounts]]`: each SIGHUP re-reads the settings once and sends
/// every account its own reload ([`account_reloads`]); a bad file reaches none of them.
/// The receivers are in the order of `running`.
pub fn accounts_reloads(
    mut hangup: mpsc::UnboundedReceiver<()>,
    load: impl Fn() -> Result<Config, String> + Send + 'static,
    running: Vec<AccountSection>,
) -> Vec<mpsc::UnboundedReceiver<Reload>> {
    let (txs, rxs): (Vec<_>, Vec<_>) = running.iter().map(|_| mpsc::unbounded_channel()).unzip();
    tokio::spawn(async move {
        while hangup.recv().await.is_some() {
            let Some(new) = read_config(&load) else {
                continue;
            };
            for (tx, r) in txs.iter().zip(account_reloads(&new, &running)) {
                // An account that has stopped no longer listens; the others still do.
                let _ = tx.send(r);
            }
        }
    });
    rxs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hooks::NoBook;

    #[test]
    fn reload_applies_live_keys_and_keeps_start_up_keys() {
        let old = Config::default();
        let mut s = Session::new(old.clone(), OpponentLists::default(), Box::new(NoBook));
        let mut new = old.clone();
        new.talk.whisper = 4;
        new.seek.enabled = !old.seek.enabled;
        new.engine.hash_mb = old.engine.hash_mb * 2;
        new.engine.depth_limit = 7;
        new.server.port = 5555;
        let kept = Reload {
            cfg: new,
            lists: OpponentLists::default(),
        }
        .apply(&mut s);
        assert_eq!(kept, vec!["server", "engine.hash_mb"]);
        assert_eq!(s.config().talk.whisper, 4);
        assert_eq!(s.config().engine.depth_limit, 7);
        assert_eq!(s.config().engine.hash_mb, old.engine.hash_mb);
        assert_eq!(s.config().server.port, old.server.port);
        assert_eq!(s.matching.seeking, !old.seek.enabled);
    }

    #[test]
    fn a_bad_file_is_rejected() {
        let dir = testkit::scratch::dir("reload-bad");
        let path = dir.path().join("config.toml");
        std::fs::write(&path, "[talk]\nwhisper = 42\n").expect("write");
        let load = || Config::load(&path).map_err(|e| e.to_string());
        assert!(read_reload(&load).is_none());
        std::fs::write(&path, "[talk]\nwhisper = 2\n").expect("write");
        let r = read_reload(&load).expect("a good file is taken");
        assert_eq!(r.cfg.talk.whisper, 2);
    }

    #[test]
    fn each_account_gets_its_entry_on_top_of_the_new_file() {
        let dir = testkit::scratch::dir("reload-accounts");
        let own = dir.path().join("one-lists");
        std::fs::create_dir_all(&own).expect("lists");
        std::fs::write(own.join("GM"), "Carlsen\n").expect("list");
        let old = Config::parse(
            "[[accounts]]\nhandle = \"One\"\nthreads = 2\n[[accounts]]\nhandle = \"Two\"\n",
            &dir.path().join("config.toml"),
        )
        .expect("old");
        let new = Config::parse(
            &format!(
                "[talk]\nwhisper = 3\n[engine]\nthreads = 1\ndepth_limit = 9\n\
                 [[accounts]]\nhandle = \"one\"\nthreads = 2\nlists = {:?}\n\
                 [[accounts]]\nhandle = \"Three\"\n",
                own.display().to_string()
            ),
            &dir.path().join("config.toml"),
        )
        .expect("new");
        let r = account_reloads(&new, &old.accounts);
        assert_eq!(r.len(), 2);
        let (one, two) = (&r[0], &r[1]);
        assert_eq!(one.cfg.server.handle, "one");
        assert_eq!(
            one.cfg.engine.threads, 2,
            "the entry's override is re-applied"
        );
        assert_eq!((one.cfg.talk.whisper, one.cfg.engine.depth_limit), (3, 9));
        assert!(
            one.lists.contains(lists::ListKind::Gm, "Carlsen"),
            "the account's own lists are read"
        );
        assert_eq!(
            two.cfg.server.handle, "Two",
            "an entry gone keeps its old one"
        );
        assert_eq!((two.cfg.talk.whisper, two.cfg.engine.threads), (3, 1));
        assert!(!two.lists.contains(lists::ListKind::Gm, "Carlsen"));
    }
}
