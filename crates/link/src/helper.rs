//! A helper program between wily and the server, the way xboard's `-icshelper` runs ICC's
//! `timestamp` (or FICS's `timeseal`): wily starts `PROGRAM HOST PORT` and talks to the
//! server through the program's standard input and output, or, for a helper that opens a
//! local port instead, connects to that port on 127.0.0.1 once the program is up.
//!
//! The helper lives as long as the connection: it is killed when the connection ends, and
//! a new one is started by the next connect (so a helper that dies is restarted by the
//! bot's reconnect, with a line in the log saying so). A helper that is missing or cannot
//! be run is a plain error naming the file and the setting, never a silent fallback to a
//! direct connection (the server would then charge the network lag to our clock).

use std::fmt;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use tokio::process::{Child, Command};

/// Bytes from the server side.
pub type Reader = Box<dyn AsyncRead + Unpin + Send>;
/// Bytes to the server side.
pub type Writer = Box<dyn AsyncWrite + Unpin + Send>;

/// How to run the helper.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HelperConfig {
    /// The program (`server.helper`).
    pub program: PathBuf,
    /// `None`: talk through its standard input and output. `Some(port)`: the helper opens
    /// this port on 127.0.0.1 and wily connects to it (`server.helper_port`).
    pub local_port: Option<u16>,
    /// How long to wait for the helper's port to open.
    pub start_timeout: Duration,
}

impl HelperConfig {
    pub fn new(program: impl Into<PathBuf>) -> HelperConfig {
        HelperConfig {
            program: program.into(),
            local_port: None,
            start_timeout: Duration::from_secs(10),
        }
    }
}

/// Why the helper could not be used.
#[derive(Debug)]
pub enum HelperError {
    /// The program file does not exist.
    Missing(PathBuf),
    /// It exists but could not be started (not executable, ...).
    CannotStart(PathBuf, std::io::Error),
    /// It started but its local port never opened, or it exited at once.
    NotReady(PathBuf, String),
}

impl HelperError {
    /// True when trying again at once cannot help (the setting must change).
    pub fn is_final(&self) -> bool {
        matches!(self, HelperError::Missing(_) | HelperError::CannotStart(..))
    }
}

impl fmt::Display for HelperError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HelperError::Missing(p) => write!(
                f,
                "the helper program {} (server.helper) does not exist; install ICC's timestamp there or remove the setting",
                p.display()
            ),
            HelperError::CannotStart(p, e) => write!(
                f,
                "the helper program {} (server.helper) cannot be started: {e}",
                p.display()
            ),
            HelperError::NotReady(p, why) => {
                write!(f, "the helper program {} did not come up: {why}", p.display())
            }
        }
    }
}

impl std::error::Error for HelperError {}

/// A running helper and the two ends to talk through.
pub struct Helper {
    pub child: Child,
    pub reader: Reader,
    pub writer: Writer,
}

/// Starts the helper for `host:port`.
pub async fn start(cfg: &HelperConfig, host: &str, port: u16) -> Result<Helper, HelperError> {
    let program = cfg.program.clone();
    if !program.exists() {
        tracing::error!(helper = %program.display(), "ics: the helper program is missing");
        return Err(HelperError::Missing(program));
    }
    let mut cmd = Command::new(&program);
    cmd.arg(host)
        .arg(port.to_string())
        .stderr(Stdio::null())
        .kill_on_drop(true);
    match cfg.local_port {
        None => {
            cmd.stdin(Stdio::piped()).stdout(Stdio::piped());
        }
        Some(_) => {
            cmd.stdin(Stdio::null()).stdout(Stdio::null());
        }
    }
    let mut child = cmd
        .spawn()
        .map_err(|e| HelperError::CannotStart(program.clone(), e))?;
    tracing::info!(helper = %program.display(), %host, port, pid = child.id().unwrap_or(0), "ics: helper started");
    match cfg.local_port {
        None => {
            let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
                return Err(HelperError::NotReady(program, "no pipes".into()));
            };
            Ok(Helper {
                child,
                reader: Box::new(stdout),
                writer: Box::new(stdin),
            })
        }
        Some(local) => {
            let deadline = Instant::now() + cfg.start_timeout;
            loop {
                if let Ok(Some(status)) = child.try_wait() {
                    return Err(HelperError::NotReady(
                        program,
                        format!("it exited at once ({status})"),
                    ));
                }
                match TcpStream::connect(("127.0.0.1", local)).await {
                    Ok(s) => {
                        let _ = s.set_nodelay(true);
                        let (r, w) = s.into_split();
                        return Ok(Helper {
                            child,
                            reader: Box::new(r),
                            writer: Box::new(w),
                        });
                    }
                    Err(e) if Instant::now() >= deadline => {
                        return Err(HelperError::NotReady(
                            program,
                            format!("nothing listens on 127.0.0.1:{local}: {e}"),
                        ));
                    }
                    Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
                }
            }
        }
    }
}

/// Says in the log how the helper ended (called when the connection ends).
pub fn report_exit(child: &mut Child, program: &std::path::Path) {
    match child.try_wait() {
        Ok(Some(status)) => tracing::warn!(
            helper = %program.display(),
            %status,
            "ics: the helper program exited; the connection is gone (the next connect starts it again)"
        ),
        Ok(None) => {
            // Still running: the connection ended on our side; kill_on_drop ends it.
        }
        Err(e) => {
            tracing::warn!(helper = %program.display(), error = %e, "ics: cannot read the helper's exit status")
        }
    }
}
