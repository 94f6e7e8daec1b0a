//! The bot's settings file (`config.toml`): loading, defaults and validation.
//!
//! The settings' shape, [`Config`] and every section, lives in `sections.rs` (and a file
//! per larger section); every section, nested table and `[[accounts]]` entry declares
//! each key once with the `settings` crate's `settings!` (type, default, range, doc: the
//! struct, its `Default`, its range check and its reference rows come from that one
//! line), and `config_file!` lists the sections once, which gives [`Config`] and
//! [`Config::settings`] (`reference.rs` prints them). `validate.rs` checks what ties keys
//! together and what a range cannot say, and names the offending key in its message; this
//! file loads a file through both. Unknown keys are rejected by serde
//! (`deny_unknown_fields`), so a typo is an error at start-up, never a silent default.
//! Nothing here panics on a bad file: every problem comes back as a [`ConfigError`].
//!
//! May depend on: `lists`, `ics`, `settings`. Its `Cargo.toml` lists them and the compiler keeps the wall; the
//! crate map is `docs/modules.md`.

mod accounts;
mod hooks;
mod public;
mod reference;
mod sections;
mod service;
mod strength;
mod tourney;
mod validate;
mod watch;

pub use hooks::{
    fields_of as hook_fields, HooksSection, GAME_END_FIELDS, GAME_START_FIELDS, IDLE_FIELDS,
    LOGIN_FIELDS,
};
pub use public::{
    PublicSection, DEFAULT_NOTES, MAX_NOTES, MAX_NOTE_LEN, NOTE_FIELDS, PUBLIC_COMMANDS,
};
pub use sections::*;
pub use service::{ServiceSection, WebSection};
pub use settings::{DefaultText, Rows, Setting};
pub use strength::{RatingRule, StrengthSection, ELO_RANGE};
pub use tourney::TourneySection;
pub use validate::Problem;
pub use watch::{WatchSection, WATCH_KINDS};

use std::fmt;
use std::path::{Path, PathBuf};

/// Why a settings file could not be used. The message always names the file, and for
/// a bad value the dotted key (`talk.whisper`).
#[derive(Debug, Clone, PartialEq)]
pub enum ConfigError {
    /// The file could not be read.
    Io { path: PathBuf, message: String },
    /// TOML syntax, an unknown key or a value of the wrong type.
    Parse { path: PathBuf, message: String },
    /// One or more values out of range or inconsistent.
    Invalid {
        path: PathBuf,
        problems: Vec<Problem>,
    },
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::Io { path, message } => {
                write!(f, "cannot read settings file {}: {message}", path.display())
            }
            ConfigError::Parse { path, message } => {
                write!(
                    f,
                    "settings file {}: {}",
                    path.display(),
                    message.trim_end()
                )
            }
            ConfigError::Invalid { path, problems } => {
                write!(f, "settings file {}:", path.display())?;
                for p in problems {
                    write!(f, "\n  {p}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for ConfigError {}

impl Config {
    /// Reads, parses and validates a settings file. Relative paths in `[paths]` are
    /// resolved against the file's folder, so the bot finds its lists and logs wherever
    /// it is started from (systemd, cron, a shell elsewhere).
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError::Io {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        let mut cfg = Config::parse(&text, path)?;
        let base = path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));
        cfg.paths.resolve(&base);
        for a in &mut cfg.accounts {
            a.resolve(&base);
        }
        Ok(cfg)
    }

    /// Parses and validates settings text; `origin` is used in messages only.
    pub fn parse(text: &str, origin: &Path) -> Result<Config, ConfigError> {
        let cfg: Config = toml::from_str(text).map_err(|e| ConfigError::Parse {
            path: origin.to_path_buf(),
            message: e.to_string(),
        })?;
        let problems = validate::check(&cfg);
        if problems.is_empty() {
            Ok(cfg)
        } else {
            Err(ConfigError::Invalid {
                path: origin.to_path_buf(),
                problems,
            })
        }
    }

    /// The login password: the `server.password` value, or the environment variable named
    /// by `server.password_env`. `None` for guest logins. A named variable that is unset
    /// is an error naming the key, reported before any connection is tried.
    pub fn password(&self) -> Result<Option<Secret>, ConfigError> {
        if let Some(p) = &self.server.password {
            return Ok(Some(p.clone()));
        }
        if let Some(var) = &self.server.password_env {
            return match std::env::var(var) {
                Ok(v) if !v.is_empty() => Ok(Some(Secret::new(v))),
                _ => Err(ConfigError::Invalid {
                    path: PathBuf::from("config"),
                    problems: vec![Problem {
                        key: "server.password_env".into(),
                        message: format!("environment variable {var} is not set or empty"),
                    }],
                }),
            };
        }
        Ok(None)
    }

    /// True when the handle is the server's anonymous login.
    pub fn is_guest(&self) -> bool {
        self.server.handle.eq_ignore_ascii_case("guest")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<Config, ConfigError> {
        Config::parse(s, Path::new("test.toml"))
    }

    #[test]
    fn empty_file_gives_defaults_in_local_mode() {
        let c = parse("").unwrap();
        assert_eq!(c, Config::default());
        assert!(c.server.local);
        assert_eq!(c.opponents.resign_gm, 3);
        assert_eq!(c.opponents.resign_im, 6);
        assert_eq!(c.opponents.resign_default, 9);
        assert_eq!(c.opponents.book_width_titled, 3);
        assert_eq!(c.opponents.book_width_computer, 2);
        assert_eq!(c.opponents.book_width_default, 5);
    }

    #[test]
    fn learning_log_defaults_to_the_stores_folder_and_an_empty_value_turns_it_off() {
        // Read as `Config::load` reads a settings file in /srv/wily.
        let dir = Path::new("/srv/wily");
        let read = |text: &str| {
            let mut c = parse(text).unwrap();
            c.paths.resolve(dir);
            c.paths.learning_log_file()
        };
        assert_eq!(read(""), Some(dir.join("book").join("book.lrn")));
        assert_eq!(
            read("[paths]\nlearning = \"data/wily.db\"\n"),
            Some(dir.join("data").join("book.lrn"))
        );
        assert_eq!(
            read("[paths]\nlearning_log = \"shared/crafty.lrn\"\n"),
            Some(dir.join("shared").join("crafty.lrn"))
        );
        assert_eq!(read("[paths]\nlearning_log = \"\"\n"), None);
    }

    #[test]
    fn unknown_key_is_named() {
        let e = parse("[talk]\nwisper = 3\n").unwrap_err();
        let s = e.to_string();
        assert!(s.contains("wisper"), "{s}");
        assert!(s.contains("test.toml"), "{s}");
    }

    #[test]
    fn wrong_type_is_named() {
        let e = parse("[server]\nport = \"five\"\n").unwrap_err();
        assert!(e.to_string().contains("port"), "{e}");
    }

    #[test]
    fn out_of_range_values_are_all_reported() {
        let e = parse("[talk]\nwhisper = 9\nkibitz = 7\n[engine]\nthreads = 0\n").unwrap_err();
        let ConfigError::Invalid { problems, .. } = &e else {
            panic!("expected Invalid, got {e}");
        };
        let keys: Vec<&str> = problems.iter().map(|p| p.key.as_str()).collect();
        assert!(keys.contains(&"talk.whisper"), "{keys:?}");
        assert!(keys.contains(&"talk.kibitz"), "{keys:?}");
        assert!(keys.contains(&"engine.threads"), "{keys:?}");
    }

    #[test]
    fn remote_mode_needs_a_handle_and_host() {
        let e = parse("[server]\nlocal = false\nhost = \"\"\nhandle = \"\"\n").unwrap_err();
        let s = e.to_string();
        assert!(
            s.contains("server.host") && s.contains("server.handle"),
            "{s}"
        );
    }

    #[test]
    fn both_password_forms_is_an_error() {
        let e = parse("[server]\npassword = \"x\"\npassword_env = \"Y\"\n").unwrap_err();
        assert!(e.to_string().contains("server.password"), "{e}");
    }

    #[test]
    fn password_env_unset_names_the_key() {
        let c = parse("[server]\npassword_env = \"WILY_TEST_SURELY_UNSET_VAR\"\n").unwrap();
        let e = c.password().unwrap_err();
        assert!(e.to_string().contains("server.password_env"), "{e}");
    }

    #[test]
    fn password_never_shows_in_debug() {
        let c = parse("[server]\nhandle = \"bot\"\npassword = \"hunter2\"\n").unwrap();
        let dbg = format!("{c:?}");
        assert!(!dbg.contains("hunter2"), "{dbg}");
        assert_eq!(c.password().unwrap().unwrap().expose(), "hunter2");
    }

    #[test]
    fn seek_ads_parse() {
        let c = parse(
            "[[seek.ads]]\nbase = 1\nincrement = 0\nrated = false\ncolor = \"white\"\n\
             min_rating = 1000\nmax_rating = 2000\n",
        )
        .unwrap();
        assert_eq!(c.seek.ads.len(), 1);
        assert_eq!(c.seek.ads[0].color, SeekColor::White);
        assert_eq!(c.seek.ads[0].min_rating, Some(1000));
        assert_eq!(c.seek.ads[0].variant, "chess");
        assert_eq!(c.server.chess960, "wild fr");
    }

    #[test]
    fn chess960_settings_are_checked() {
        let c =
            parse("[server]\nchess960 = \"fr\"\n[[seek.ads]]\nvariant = \"chess960\"\n").unwrap();
        assert_eq!(
            (c.server.chess960.as_str(), c.seek.ads[0].variant.as_str()),
            ("fr", "chess960")
        );
        let e = parse("[[seek.ads]]\nvariant = \"crazyhouse\"\n").unwrap_err();
        assert!(e.to_string().contains("seek.ads[0].variant"), "{e}");
        for bad in ["\"\"", "\"fr; quit\"", "\"wild\\nfr\""] {
            let e = parse(&format!("[server]\nchess960 = {bad}\n")).unwrap_err();
            assert!(e.to_string().contains("server.chess960"), "{bad}: {e}");
        }
    }

    #[test]
    fn rating_window_must_be_ordered() {
        let e =
            parse("[[seek.ads]]\nbase = 1\nmin_rating = 2000\nmax_rating = 1000\n").unwrap_err();
        assert!(e.to_string().contains("seek.ads[0]"), "{e}");
    }

    #[test]
    fn handles_in_lists_must_be_plain() {
        let e = parse("[operators]\nhandles = [\"ok\", \"bad;rm -rf\"]\n").unwrap_err();
        assert!(e.to_string().contains("operators.handles"), "{e}");
    }

    #[test]
    fn shipped_config_file_is_valid() {
        // The repository's root, two folders above this crate's.
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let c = Config::load(&root.join("config.toml")).unwrap_or_else(|e| panic!("{e}"));
        // The shipped file documents the defaults: it must say exactly what they are.
        let mut d = Config::default();
        d.paths.resolve(&root);
        assert_eq!(c, d);
    }

    fn tourney_problems(text: &str) -> String {
        match Config::parse(text, Path::new("t.toml")) {
            Ok(_) => String::new(),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn the_section_reads_and_bad_values_are_named() {
        let c = Config::parse(
            "[tourney]\njoin = true\ntime_controls = [\"1 0\", \"3 2\"]\nrated = \"unrated\"\n",
            Path::new("t.toml"),
        )
        .unwrap();
        assert_eq!(c.tourney.controls(), vec![(1, 0), (3, 2)]);
        assert_eq!(c.tourney.directors, vec!["mamer".to_string()]);
        for (text, key) in [
            (
                "[tourney]\njoin = true\ndirectors = []\n",
                "tourney.directors",
            ),
            (
                "[tourney]\ndirectors = [\"mamer; quit\"]\n",
                "tourney.directors[0]",
            ),
            (
                "[tourney]\ntime_controls = [\"3\"]\n",
                "tourney.time_controls[0]",
            ),
            (
                "[tourney]\nvariants = [\"atomic\"]\n",
                "tourney.variants[0]",
            ),
            ("[tourney]\nrated = \"maybe\"\n", "tourney.rated"),
            ("[tourney]\nstall_mins = 0\n", "tourney.stall_mins"),
            ("[tourney]\njion = true\n", "jion"),
        ] {
            let p = tourney_problems(text);
            assert!(p.contains(key), "{text}: {p}");
        }
    }

    #[test]
    fn relative_paths_resolve_against_the_file() {
        let mut p = PathsSection::default();
        p.resolve(Path::new("/srv/wily"));
        assert_eq!(p.lists, PathBuf::from("/srv/wily/lists"));
        let mut q = PathsSection {
            logs: PathBuf::from("/var/log/wily"),
            ..PathsSection::default()
        };
        q.resolve(Path::new("/srv/wily"));
        assert_eq!(q.logs, PathBuf::from("/var/log/wily"));
    }
}
