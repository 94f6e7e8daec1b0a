//! `[hooks]`: the operator's own server commands, sent at login, at the start and the end
//! of each game, and after a spell of idleness (what icsdrone's `-sendLogin`,
//! `-sendGameStart`, `-sendGameEnd` and `-sendTimeout` and xboard's `zippyGameStart` /
//! `zippyGameEnd` do). They come from the settings file only, never from the server or a
//! tell; the fields the bot fills in from server data are sanitised when sent (see
//! `bot/operator_hooks.rs`).

use settings::settings;

/// The fields a hook command may use, by hook.
pub const LOGIN_FIELDS: &[&str] = &["me"];
pub const GAME_START_FIELDS: &[&str] = &["me", "opponent", "rating", "game", "color", "rated"];
pub const GAME_END_FIELDS: &[&str] = &[
    "me", "opponent", "rating", "game", "color", "rated", "result", "outcome",
];
pub const IDLE_FIELDS: &[&str] = &["me", "minutes"];

settings! {
    /// `[hooks]`
    pub struct HooksSection in "hooks" {
        /// Sent after every login (and re-login), after wily's own setup commands.
        login: Vec<String> = Vec::new();
        /// Sent when one of wily's games starts (not when an adjourned game resumes).
        game_start: Vec<String> = Vec::new();
        /// Sent when one of wily's games ends (adjournments included).
        game_end: Vec<String> = Vec::new();
        /// Sent when wily has been idle (connected, no game) this many minutes; again after
        /// each further spell of as many minutes. 0 turns the idle hook off.
        idle_minutes: u64 = 0, range 0..=10_080;
        /// Sent when idle (see `idle_minutes`).
        idle: Vec<String> = Vec::new();
        /// At most this many hook commands in any minute; the rest are dropped with a
        /// warning (a typo in a hook never floods the server).
        max_per_minute: u32 = 10, range 1..=60;
    }
}

/// The `{field}` names used in `template`, or the problem with its braces.
pub fn fields_of(template: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find(['{', '}']) {
        if rest[open..].starts_with('}') {
            return Err("has a '}' without its '{'".into());
        }
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            return Err("has a '{' without its '}'".into());
        };
        let name = &after[..close];
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
            return Err(format!("has a bad field {{{name}}}"));
        }
        out.push(name.to_string());
        rest = &after[close + 1..];
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_found_and_bad_braces_named() {
        assert_eq!(
            fields_of("tell {opponent} thanks, {result}").unwrap(),
            vec!["opponent".to_string(), "result".to_string()]
        );
        assert!(fields_of("seek 5 0").unwrap().is_empty());
        assert!(fields_of("say {opponent").is_err());
        assert!(fields_of("say opponent}").is_err());
        assert!(fields_of("say {Opp onent}").is_err());
    }
}
