//! One engine's `key=value` settings as written after `-engine` or `-each` (c-chess-cli's
//! engine options plus wily's own keys), merged with `-each` and finished with the
//! defaults into an [`EngineSpec`].
//!
//! c-chess-cli's meanings: `cmd=` with a `/` runs the program from its own folder
//! (`cmd=../Engines/critter` runs `./critter` in `../Engines`) unless `dir=` says where;
//! without `name=` the engine is called by its `id name` (read when the match starts, see
//! [`super::names`]); `timeout=S` (4) is how long an answer that should come at once may
//! take before the engine counts as hung. wily's own `waitlimit=S` (30) bounds the start-up
//! handshake and a move without a clock or move time.

use super::config::{EngineBook, EngineSpec, Protocol, ScoreView};
use super::engine::process::Launch;
use super::timecontrol::{parse_seconds, Limits};
use book::PolyglotBook;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// c-chess-cli's default `timeout=`: seconds before a silent engine counts as hung.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(4);
/// wily's default `waitlimit=`: the start-up handshake and a move with no clock.
pub const DEFAULT_WAIT_LIMIT: Duration = Duration::from_secs(30);

/// `key=value` (a bare word is a key with an empty value).
pub(crate) fn split_kv(s: &str) -> (&str, &str) {
    s.split_once('=').unwrap_or((s, ""))
}

pub(crate) fn parse_num<T: std::str::FromStr>(what: &str, v: &str) -> Result<T, String> {
    v.trim()
        .parse()
        .map_err(|_| format!("{what}: '{v}' is not a valid number"))
}

pub(crate) fn parse_bool(what: &str, v: &str) -> Result<bool, String> {
    match v.to_ascii_lowercase().as_str() {
        "" | "on" | "true" | "yes" | "1" => Ok(true),
        "off" | "false" | "no" | "0" => Ok(false),
        _ => Err(format!("{what}: '{v}' is not on/off")),
    }
}

/// The program and working folder of `program` under c-chess-cli's rule: with a `/` in
/// it and no `dir=`, the program's own folder and `./FILE`; otherwise as given.
pub fn launch_dir(program: &str, dir: Option<PathBuf>) -> (String, Option<PathBuf>) {
    if dir.is_some() || !program.contains('/') {
        return (program.to_string(), dir);
    }
    let path = Path::new(program);
    match (path.parent(), path.file_name()) {
        (Some(parent), Some(file)) => {
            let parent = if parent.as_os_str().is_empty() {
                PathBuf::from("/")
            } else {
                parent.to_path_buf()
            };
            (format!("./{}", file.to_string_lossy()), Some(parent))
        }
        _ => (program.to_string(), None),
    }
}

/// One engine's settings as given (`-engine` or `-each`), before defaults.
#[derive(Clone, Debug, Default)]
pub(crate) struct Draft {
    cmd: Option<String>,
    name: Option<String>,
    proto: Option<Protocol>,
    dir: Option<PathBuf>,
    options: Vec<(String, String)>,
    limits: Limits,
    restart: Option<bool>,
    score: Option<ScoreView>,
    margin: Option<Duration>,
    timeout: Option<Duration>,
    wait_limit: Option<Duration>,
    memory: Option<u64>,
    cores: Option<u32>,
    book: Option<PathBuf>,
    book_depth: Option<u32>,
    ponder: Option<bool>,
}

impl Draft {
    pub(crate) fn parse(values: &[String]) -> Result<Draft, String> {
        let mut d = Draft::default();
        for v in values {
            let (k, val) = split_kv(v);
            if let Some(opt) = k.strip_prefix("option.") {
                d.options.push((opt.to_string(), val.to_string()));
                continue;
            }
            if d.limits.set(k, val)? {
                continue;
            }
            match k {
                "cmd" => d.cmd = Some(val.to_string()),
                "name" => d.name = Some(val.to_string()),
                "dir" => d.dir = Some(PathBuf::from(val)),
                "proto" | "protocol" => {
                    d.proto = Some(match val {
                        "uci" => Protocol::Uci,
                        "xboard" | "cecp" => Protocol::Xboard,
                        _ => return Err(format!("proto '{val}': use uci or xboard")),
                    })
                }
                "restart" => d.restart = Some(parse_bool("restart", val)?),
                "score" => {
                    d.score = Some(match val {
                        "white" => ScoreView::White,
                        "mover" | "stm" => ScoreView::Mover,
                        _ => return Err(format!("score '{val}': use mover or white")),
                    })
                }
                "timemargin" => {
                    d.margin = Some(Duration::from_millis(parse_num("timemargin (ms)", val)?))
                }
                "timeout" => d.timeout = Some(parse_seconds(val)?),
                "waitlimit" => d.wait_limit = Some(parse_seconds(val)?),
                "memory" => d.memory = Some(parse_num("memory (MB)", val)?),
                "cores" => d.cores = Some(parse_num("cores", val)?),
                "book" => d.book = Some(PathBuf::from(val)),
                "bookdepth" => d.book_depth = Some(parse_num("bookdepth", val)?),
                "ponder" => d.ponder = Some(parse_bool("ponder", val)?),
                _ => return Err(format!("unknown engine setting '{v}'")),
            }
        }
        Ok(d)
    }

    /// These settings, with `base` filling what they leave open (options: `base`'s
    /// first, then these, replacing any of the same name).
    pub(crate) fn or(self, base: &Draft) -> Draft {
        let mut options = base.options.clone();
        for (k, v) in self.options {
            options.retain(|(bk, _)| !bk.eq_ignore_ascii_case(&k));
            options.push((k, v));
        }
        Draft {
            cmd: self.cmd.or_else(|| base.cmd.clone()),
            name: self.name.or_else(|| base.name.clone()),
            proto: self.proto.or(base.proto),
            dir: self.dir.or_else(|| base.dir.clone()),
            options,
            limits: self.limits.or(base.limits),
            restart: self.restart.or(base.restart),
            score: self.score.or(base.score),
            margin: self.margin.or(base.margin),
            timeout: self.timeout.or(base.timeout),
            wait_limit: self.wait_limit.or(base.wait_limit),
            memory: self.memory.or(base.memory),
            cores: self.cores.or(base.cores),
            book: self.book.or_else(|| base.book.clone()),
            book_depth: self.book_depth.or(base.book_depth),
            ponder: self.ponder.or(base.ponder),
        }
    }

    /// The engine's settings with defaults for what nobody gave; its book, if any, is
    /// opened here (read into memory when `book_in_ram`).
    pub(crate) fn finish(self, index: usize, book_in_ram: bool) -> Result<EngineSpec, String> {
        let cmd = self
            .cmd
            .ok_or_else(|| format!("engine {} has no cmd=", index + 1))?;
        let words = shlex::split(&cmd)
            .filter(|w| !w.is_empty())
            .ok_or_else(|| format!("cmd '{cmd}' is not a valid command line"))?;
        let (program, args) = words
            .split_first()
            .ok_or_else(|| format!("engine {} has an empty cmd", index + 1))?;
        // Until the engine says its `id name` (see `names`), the program's file name.
        let name_given = self.name.is_some();
        let name = self.name.unwrap_or_else(|| {
            Path::new(program)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| program.clone())
        });
        let (program, dir) = launch_dir(program, self.dir);
        let limits = self.limits;
        if limits.is_unlimited() {
            return Err(format!(
                "engine {name} has no time control: give tc=, st=, depth= or nodes= (in -engine or -each)"
            ));
        }
        if self.book_depth.is_some() && self.book.is_none() {
            return Err(format!("engine {name}: bookdepth= needs book=FILE"));
        }
        let book = match self.book {
            Some(path) => Some(EngineBook {
                book: Arc::new(
                    PolyglotBook::open_as(&path, book_in_ram)
                        .map_err(|e| format!("engine {name}: {e}"))?,
                ),
                path,
                depth: self.book_depth,
            }),
            None => None,
        };
        Ok(EngineSpec {
            name,
            name_given,
            launch: Launch {
                program,
                args: args.to_vec(),
                dir,
            },
            protocol: self.proto.unwrap_or(Protocol::Uci),
            options: self.options,
            limits,
            restart: self.restart.unwrap_or(false),
            score_view: self.score.unwrap_or(ScoreView::Mover),
            time_margin: self.margin.unwrap_or(Duration::from_millis(100)),
            timeout: self.timeout.unwrap_or(DEFAULT_TIMEOUT),
            wait_limit: self.wait_limit.unwrap_or(DEFAULT_WAIT_LIMIT),
            memory: self.memory,
            cores: self.cores,
            book,
            ponder: self.ponder.unwrap_or(false),
        })
    }
}
