//! Range and consistency checks for a parsed [`Config`]; every problem names its key.

use super::sections::{Config, SeekAd};
use lists::valid_handle;
use std::fmt;

/// One invalid value: its dotted key and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub key: String,
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.key, self.message)
    }
}

struct Checker {
    problems: Vec<Problem>,
}

impl Checker {
    fn bad(&mut self, key: impl Into<String>, message: impl Into<String>) {
        self.problems.push(Problem {
            key: key.into(),
            message: message.into(),
        });
    }

    /// Problems found elsewhere, as (key, message).
    fn extend(&mut self, problems: Vec<(String, String)>) {
        for (key, message) in problems {
            self.bad(key, message);
        }
    }

    fn range<T: PartialOrd + std::fmt::Display + Copy>(&mut self, key: &str, v: T, lo: T, hi: T) {
        if v < lo || v > hi {
            self.bad(key, format!("must be between {lo} and {hi} (got {v})"));
        }
    }

    fn handles(&mut self, key: &str, list: &[String]) {
        for (i, h) in list.iter().enumerate() {
            if !valid_handle(h) {
                self.bad(
                    format!("{key}[{i}]"),
                    format!("{h:?} is not a server handle (letters, digits, - and _ only, 1-20 characters)"),
                );
            }
        }
    }
}

/// Every problem found in `cfg` (empty when it is usable).
pub(super) fn check(cfg: &Config) -> Vec<Problem> {
    let mut c = Checker {
        problems: Vec::new(),
    };
    let s = &cfg.server;
    if !s.local {
        if s.host.trim().is_empty() {
            c.bad(
                "server.host",
                "must name the server when server.local = false",
            );
        }
        if s.port == 0 {
            c.bad("server.port", "must not be 0 when server.local = false");
        }
    }
    if !valid_handle(&s.handle) {
        c.bad(
            "server.handle",
            format!("{:?} is not a server handle", s.handle),
        );
    }
    if s.password.is_some() && s.password_env.is_some() {
        c.bad(
            "server.password",
            "give either server.password or server.password_env, not both",
        );
    }
    if let Some(v) = &s.password_env {
        if v.is_empty() || !v.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '_') {
            c.bad(
                "server.password_env",
                format!("{v:?} is not an environment variable name"),
            );
        }
    }
    c.extend(s.range_problems());
    if s.reconnect_min_secs > s.reconnect_max_secs {
        c.bad(
            "server.reconnect_min_secs",
            "must not be larger than server.reconnect_max_secs",
        );
    }
    // The words go into seek and match commands: plain words only.
    let words = s.chess960.split_whitespace().count();
    let plain = s
        .chess960
        .chars()
        .all(|ch| ch.is_ascii_alphanumeric() || ch == '/' || ch == ' ');
    if !(1..=3).contains(&words) || !plain || s.chess960.len() > 24 {
        c.bad(
            "server.chess960",
            format!(
                "{:?} is not a variant name (one to three words of letters, digits and '/', like \"wild fr\" or \"fr\")",
                s.chess960
            ),
        );
    }

    let l = &cfg.local;
    if !valid_handle(&l.handle) {
        c.bad(
            "local.handle",
            format!("{:?} is not a server handle", l.handle),
        );
    }
    if !valid_handle(&l.sparring_handle) {
        c.bad(
            "local.sparring_handle",
            format!("{:?} is not a server handle", l.sparring_handle),
        );
    }
    if l.handle.eq_ignore_ascii_case(&l.sparring_handle) {
        c.bad("local.sparring_handle", "must differ from local.handle");
    }
    c.extend(l.range_problems());
    check_variant(&mut c, "local.variant", &l.variant);
    if l.base == 0 && l.increment == 0 {
        c.bad("local.base", "base and increment cannot both be 0");
    }

    for (i, ad) in cfg.seek.ads.iter().enumerate() {
        check_ad(&mut c, i, ad);
    }

    c.extend(cfg.service.range_problems());
    if cfg.web.bind.parse::<std::net::IpAddr>().is_err() {
        c.bad(
            "web.bind",
            format!("{:?} is not an IP address", cfg.web.bind),
        );
    }
    c.extend(cfg.web.range_problems());
    for (i, a) in cfg.accounts.iter().enumerate() {
        let key = |k: &str| format!("accounts[{i}].{k}");
        if !valid_handle(&a.handle) {
            c.bad(
                key("handle"),
                format!("{:?} is not a server handle", a.handle),
            );
        }
        if let Some(v) = &a.password_env {
            if v.is_empty() || !v.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '_') {
                c.bad(
                    key("password_env"),
                    format!("{v:?} is not an environment variable name"),
                );
            }
        }
        // The account's engine budget is held to `[engine]`'s ranges.
        for (k, message) in a.apply(cfg).engine.range_problems() {
            let field = k.strip_prefix("engine.").unwrap_or(&k);
            let set = match field {
                "threads" => a.threads.is_some(),
                "hash_mb" => a.hash_mb.is_some(),
                _ => false,
            };
            if set {
                c.bad(key(field), message);
            }
        }
        for (j, ad) in a.seek_ads.iter().flatten().enumerate() {
            check_ad(&mut c, j, ad);
        }
        for (k, m) in super::public::problems(a.notes.as_deref(), &key("notes"), None) {
            c.bad(k, m);
        }
    }
    for (k, m) in super::public::problems(
        cfg.server.notes.as_deref(),
        "server.notes",
        Some(&cfg.public),
    ) {
        c.bad(k, m);
    }
    let mut handles: Vec<String> = cfg
        .accounts
        .iter()
        .map(|a| a.handle.to_ascii_lowercase())
        .collect();
    handles.sort();
    if handles.windows(2).any(|w| w[0] == w[1]) {
        c.bad("accounts", "two entries have the same handle");
    }

    let a = &cfg.accept;
    c.extend(a.range_problems());
    if a.min_base > a.max_base {
        c.bad("accept.min_base", "must not be larger than accept.max_base");
    }
    if a.min_increment > a.max_increment {
        c.bad(
            "accept.min_increment",
            "must not be larger than accept.max_increment",
        );
    }
    if a.min_rating > a.max_rating {
        c.bad(
            "accept.min_rating",
            "must not be larger than accept.max_rating",
        );
    }
    if !a.rated && !a.unrated && a.enabled {
        c.bad("accept.rated", "accept.rated and accept.unrated are both false: nothing can be accepted (set accept.enabled = false instead)");
    }
    for (i, v) in a.variants.iter().enumerate() {
        check_variant(&mut c, &format!("accept.variants[{i}]"), v);
    }
    c.handles("accept.allow", &a.allow);
    c.handles("accept.block", &a.block);
    for (key, msg) in [
        ("time_control", &a.decline.time_control),
        ("rated", &a.decline.rated),
        ("unrated", &a.decline.unrated),
        ("variant", &a.decline.variant),
        ("rating", &a.decline.rating),
        ("computers", &a.decline.computers),
        ("humans", &a.decline.humans),
        ("guests", &a.decline.guests),
        ("blocked", &a.decline.blocked),
        ("too_many", &a.decline.too_many),
        ("busy", &a.decline.busy),
        ("closed", &a.decline.closed),
    ] {
        check_text(&mut c, &format!("accept.decline.{key}"), msg);
    }

    let h = &cfg.hooks;
    for (name, list, allowed) in [
        ("login", &h.login, super::hooks::LOGIN_FIELDS),
        ("game_start", &h.game_start, super::hooks::GAME_START_FIELDS),
        ("game_end", &h.game_end, super::hooks::GAME_END_FIELDS),
        ("idle", &h.idle, super::hooks::IDLE_FIELDS),
    ] {
        c.range(&format!("hooks.{name}"), list.len(), 0, 20);
        for (i, cmd) in list.iter().enumerate() {
            check_hook(&mut c, &format!("hooks.{name}[{i}]"), cmd, allowed);
        }
    }
    c.extend(h.range_problems());
    if h.idle_minutes == 0 && !h.idle.is_empty() {
        c.bad(
            "hooks.idle",
            "is set but hooks.idle_minutes is 0 (never idle)",
        );
    }

    c.extend(cfg.engine.range_problems());

    let t = &cfg.talk;
    c.extend(t.range_problems());
    check_text(&mut c, "talk.greeting", &t.greeting);
    check_text(&mut c, "talk.goodbye", &t.goodbye);

    let o = &cfg.observe;
    c.handles("observe.follow", &o.follow);
    c.extend(o.range_problems());

    check_tourney(&mut c, &cfg.tourney);

    c.handles("operators.handles", &cfg.operators.handles);
    check_text(
        &mut c,
        "operators.stranger_reply",
        &cfg.operators.stranger_reply,
    );

    c.extend(cfg.opponents.range_problems());

    c.extend(cfg.watch.problems());
    c.extend(cfg.strength.problems());

    let lv = cfg.log.level.trim();
    if lv.is_empty() {
        c.bad(
            "log.level",
            "must not be empty (error, warn, info, debug or trace)",
        );
    } else if tracing_subscriber::EnvFilter::try_new(lv).is_err() {
        c.bad("log.level", format!("{lv:?} is not a log level or filter"));
    }
    c.problems
}

fn check_ad(c: &mut Checker, i: usize, ad: &SeekAd) {
    let key = format!("seek.ads[{i}]");
    for (k, m) in ad.range_problems() {
        c.bad(k.replacen("seek.ads", &key, 1), m);
    }
    if ad.base == 0 && ad.increment == 0 {
        c.bad(format!("{key}.base"), "base and increment cannot both be 0");
    }
    check_variant(c, &format!("{key}.variant"), &ad.variant);
    if let (Some(lo), Some(hi)) = (ad.min_rating, ad.max_rating) {
        if lo > hi {
            c.bad(
                format!("{key}.min_rating"),
                "must not be larger than max_rating",
            );
        }
    }
    for (k, v) in [("min_rating", ad.min_rating), ("max_rating", ad.max_rating)] {
        if let Some(v) = v {
            c.range(&format!("{key}.{k}"), v, 0, 9999);
        }
    }
}

/// `[tourney]`: plain director handles (they go into `tell` commands), readable time
/// controls, variants wily plays, sane waits.
fn check_tourney(c: &mut Checker, t: &super::tourney::TourneySection) {
    c.handles("tourney.directors", &t.directors);
    if t.join && t.directors.is_empty() {
        c.bad(
            "tourney.directors",
            "must name a director when tourney.join = true",
        );
    }
    for (i, tc) in t.time_controls.iter().enumerate() {
        if super::tourney::parse_control(tc).is_none() {
            c.bad(
                format!("tourney.time_controls[{i}]"),
                format!("{tc:?} is not \"minutes increment\" (e.g. \"3 0\")"),
            );
        }
    }
    for (i, v) in t.variants.iter().enumerate() {
        check_variant(c, &format!("tourney.variants[{i}]"), v);
    }
    if !matches!(t.rated.as_str(), "any" | "rated" | "unrated") {
        c.bad(
            "tourney.rated",
            format!("{:?} is not any, rated or unrated", t.rated),
        );
    }
    c.extend(t.range_problems());
}

fn check_variant(c: &mut Checker, key: &str, v: &str) {
    if v != "chess" && v != "chess960" {
        c.bad(
            key,
            format!("{v:?} is not a variant wily plays (chess, chess960)"),
        );
    }
}

/// One hook command: one line, no `;` (which FICS-lineage servers and interfaces read as
/// a command separator), a known verb shape, only the fields its hook fills in.
fn check_hook(c: &mut Checker, key: &str, cmd: &str, allowed: &[&str]) {
    if cmd.trim().is_empty() {
        c.bad(key, "is empty");
        return;
    }
    if cmd.chars().any(|ch| ch.is_control() || ch == ';') {
        c.bad(key, "must be one command: no control characters, no ';'");
    }
    if cmd.len() > 200 {
        c.bad(key, "must be at most 200 characters");
    }
    match super::hooks::fields_of(cmd) {
        Err(e) => c.bad(key, e),
        Ok(fields) => {
            for f in fields {
                if !allowed.contains(&f.as_str()) {
                    c.bad(
                        key,
                        format!(
                            "{{{f}}} is not a field of this hook (it has: {})",
                            allowed.join(", ")
                        ),
                    );
                }
            }
        }
    }
}

/// Lines wily sends through `tell`/`say`: one line, printable, not too long.
fn check_text(c: &mut Checker, key: &str, text: &str) {
    if text.chars().any(|ch| ch.is_control()) {
        c.bad(key, "must be a single line without control characters");
    }
    if text.len() > 300 {
        c.bad(key, "must be at most 300 characters");
    }
}
