//! Logging for the unattended bot: `tracing` to stderr and to daily files in the logs
//! folder (`wily.log.YYYY-MM-DD`, through tracing-appender). Passwords never reach a log:
//! the protocol layer masks them in the wire log, and settings print them as `********`.

use config::Config;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{fmt, EnvFilter, Layer};

/// Keeps the file writer flushing; hold it until the program ends.
pub struct LogGuard {
    _file: Option<tracing_appender::non_blocking::WorkerGuard>,
}

/// Installs the global subscriber: stderr at `stderr_level` (or `RUST_LOG` when set) and,
/// when `log.files` is on, daily files at `log.level`. A second call does nothing.
pub fn init(cfg: &Config, stderr_level: &str) -> LogGuard {
    let stderr_filter = EnvFilter::try_from_default_env()
        .or_else(|_| EnvFilter::try_new(stderr_level))
        .unwrap_or_else(|_| EnvFilter::new("info"));
    let stderr = fmt::layer()
        .with_writer(std::io::stderr)
        .with_target(false)
        .with_filter(stderr_filter);
    let mut guard = None;
    let file_layer = if cfg.log.files {
        match std::fs::create_dir_all(&cfg.paths.logs) {
            Ok(()) => {
                let appender = tracing_appender::rolling::daily(&cfg.paths.logs, "wily.log");
                let (writer, g) = tracing_appender::non_blocking(appender);
                guard = Some(g);
                let filter = EnvFilter::try_new(cfg.log.level.trim())
                    .unwrap_or_else(|_| EnvFilter::new("info"));
                Some(
                    fmt::layer()
                        .with_writer(writer)
                        .with_ansi(false)
                        .with_filter(filter),
                )
            }
            Err(e) => {
                eprintln!(
                    "wily: cannot create the log folder {}: {e}; logging to stderr only",
                    cfg.paths.logs.display()
                );
                None
            }
        }
    } else {
        None
    };
    let _ = tracing_subscriber::registry()
        .with(stderr)
        .with(file_layer)
        .try_init();
    LogGuard { _file: guard }
}
