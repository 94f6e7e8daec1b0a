//! Operator hooks (`[hooks]`): the operator's own commands, taken from the settings file
//! only, sent at login, at the start and end of each game and after a spell of idleness.
//! This file is pure: it fills a command's `{field}`s and keeps the rate limit and the
//! idle timer; `ops/triggers.rs` says when a hook fires.
//!
//! The command text is the operator's; the fields are filled from server data (a
//! handle, a rating, a result), so every value is cut down to characters that can never
//! end the command or start another one: letters, digits and `- + / . * =`, at most 32 of
//! them. A name such as `x\ntell boss hi` or `x;quit` becomes `xtellbosshi` / `xquit`.

use config::HooksSection;
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// Which hook fires.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hook {
    Login,
    GameStart,
    GameEnd,
    Idle,
}

impl Hook {
    fn name(self) -> &'static str {
        match self {
            Hook::Login => "login",
            Hook::GameStart => "game_start",
            Hook::GameEnd => "game_end",
            Hook::Idle => "idle",
        }
    }
}

/// A field's value made safe to put inside a command.
pub fn field_value(raw: &str) -> String {
    raw.chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '+' | '/' | '.' | '*' | '='))
        .take(32)
        .collect()
}

/// `template` with each `{name}` replaced by its (sanitised) value; an unknown field is
/// left empty (the settings check rejects those before the bot starts).
pub fn fill(template: &str, fields: &[(&str, String)]) -> String {
    let out = fill_with(template, fields, field_value);
    // The operator's own text is checked at start-up; this is the last guard.
    out.chars()
        .filter(|c| !c.is_control() && *c != ';')
        .collect::<String>()
        .trim()
        .to_string()
}

/// `template` with each `{name}` replaced by `value` of its field's value; an unknown
/// field is left empty and a `{` without its `}` stays as it is. The hooks pass
/// [`field_value`] (their values come from the server), the finger notes the values as
/// they are (the bot's own settings, version and engine).
pub fn fill_with(
    template: &str,
    fields: &[(&str, String)],
    value: impl Fn(&str) -> String,
) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            out.push_str(&rest[open..]);
            return out;
        };
        let name = &after[..close];
        if let Some((_, v)) = fields.iter().find(|(k, _)| *k == name) {
            out.push_str(&value(v));
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

/// The hooks' running state: what was sent in the last minute and since when the bot
/// has been idle.
#[derive(Debug, Clone, Default)]
pub struct HookRunner {
    sent: VecDeque<Instant>,
    /// Connected and without a game since then (`None`: playing or offline).
    idle_since: Option<Instant>,
    dropped: u64,
}

impl HookRunner {
    /// The commands of `hook`, filled in, within the rate limit.
    pub fn commands(
        &mut self,
        cfg: &HooksSection,
        hook: Hook,
        fields: &[(&str, String)],
        now: Instant,
    ) -> Vec<String> {
        let list = match hook {
            Hook::Login => &cfg.login,
            Hook::GameStart => &cfg.game_start,
            Hook::GameEnd => &cfg.game_end,
            Hook::Idle => &cfg.idle,
        };
        while self
            .sent
            .front()
            .is_some_and(|t| now.saturating_duration_since(*t) >= Duration::from_secs(60))
        {
            self.sent.pop_front();
        }
        let mut out = Vec::new();
        for t in list {
            let cmd = fill(t, fields);
            if cmd.is_empty() {
                continue;
            }
            if self.sent.len() >= cfg.max_per_minute.max(1) as usize {
                self.dropped += 1;
                tracing::warn!(
                    "hooks.{}: {cmd:?} not sent (more than {} hook commands in a minute)",
                    hook.name(),
                    cfg.max_per_minute
                );
                continue;
            }
            self.sent.push_back(now);
            tracing::info!("hooks.{}: {cmd}", hook.name());
            out.push(cmd);
        }
        out
    }

    /// Hook commands dropped by the rate limit so far.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// The bot became idle (logged in, a game ended) or busy/offline (`None`).
    pub fn set_idle(&mut self, since: Option<Instant>) {
        self.idle_since = since;
    }

    /// True when the idle hook is due now; the next is due a full spell later.
    pub fn idle_due(&mut self, cfg: &HooksSection, now: Instant) -> bool {
        if cfg.idle_minutes == 0 || cfg.idle.is_empty() {
            return false;
        }
        let Some(since) = self.idle_since else {
            return false;
        };
        if now.saturating_duration_since(since) < Duration::from_secs(cfg.idle_minutes * 60) {
            return false;
        }
        self.idle_since = Some(now);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_filled_and_server_text_cannot_inject() {
        let f = [
            ("opponent", "Bob".to_string()),
            ("result", "1/2-1/2".to_string()),
        ];
        assert_eq!(
            fill("tell {opponent} {result} gg", &f),
            "tell Bob 1/2-1/2 gg"
        );
        let evil = [("opponent", "x\ntell boss hi; quit".to_string())];
        let c = fill("say thanks {opponent}", &evil);
        assert_eq!(c, "say thanks xtellbosshiquit");
        assert!(!c.contains('\n') && !c.contains(';'));
        assert_eq!(field_value(&"a".repeat(100)).len(), 32);
        assert_eq!(fill("say {nope} x", &f), "say  x");
    }

    #[test]
    fn rate_limit_and_idle_timer() {
        let cfg = HooksSection {
            game_end: vec!["a".into(), "b".into(), "c".into()],
            idle: vec!["seek 5 0".into()],
            idle_minutes: 2,
            max_per_minute: 4,
            ..HooksSection::default()
        };
        let t0 = Instant::now();
        let mut r = HookRunner::default();
        assert_eq!(r.commands(&cfg, Hook::GameEnd, &[], t0).len(), 3);
        assert_eq!(
            r.commands(&cfg, Hook::GameEnd, &[], t0).len(),
            1,
            "4 a minute"
        );
        assert_eq!(r.dropped(), 2);
        let later = t0 + Duration::from_secs(61);
        assert_eq!(r.commands(&cfg, Hook::GameEnd, &[], later).len(), 3);
        assert!(!r.idle_due(&cfg, t0), "not idle yet");
        r.set_idle(Some(t0));
        assert!(!r.idle_due(&cfg, t0 + Duration::from_secs(119)));
        assert!(r.idle_due(&cfg, t0 + Duration::from_secs(120)));
        assert!(
            !r.idle_due(&cfg, t0 + Duration::from_secs(200)),
            "once a spell"
        );
        assert!(r.idle_due(&cfg, t0 + Duration::from_secs(240)));
        r.set_idle(None);
        assert!(!r.idle_due(&cfg, t0 + Duration::from_secs(1000)));
    }
}
