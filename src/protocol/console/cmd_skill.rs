//! Console commands for strength limiting: `elo N` plays at about N Elo (800 to 2600),
//! `skill N` at level N of 1 to 10 (Elo 600 + 200 N), `elo off` / `skill off` at full
//! strength; without an argument both show the current setting.

use super::{CmdResult, Console, Flow};
use crate::engine::skill::{ELO_MAX, ELO_MIN};

/// Highest `skill` level (it plays like `elo 2600`).
const SKILL_MAX: u32 = 10;

fn show(c: &mut Console) -> CmdResult {
    let line = match c.runner.engine.strength() {
        Some(elo) => format!("strength limited to about {elo} Elo"),
        None => "full strength (elo off)".to_string(),
    };
    c.note(&line);
    Ok(Flow::Continue)
}

fn set(c: &mut Console, elo: Option<u32>) -> CmdResult {
    c.stop_pondering();
    c.runner.engine.set_strength(elo);
    show(c)
}

/// The argument is "off" (or 0): full strength.
fn is_off(a: &str) -> bool {
    a.eq_ignore_ascii_case("off") || a == "0"
}

/// `elo [N|off]`.
pub fn elo(c: &mut Console, args: &[&str]) -> CmdResult {
    match args {
        [] => show(c),
        [a] if is_off(a) => set(c, None),
        [a] => match a.parse::<u32>() {
            Ok(n) if (ELO_MIN..=ELO_MAX).contains(&n) => set(c, Some(n)),
            _ => Err(format!("elo: '{a}' is not {ELO_MIN} to {ELO_MAX} or off")),
        },
        _ => Err(format!("usage: elo N|off (N {ELO_MIN} to {ELO_MAX})")),
    }
}

/// `skill [N|off]`.
pub fn skill(c: &mut Console, args: &[&str]) -> CmdResult {
    match args {
        [] => show(c),
        [a] if is_off(a) => set(c, None),
        [a] => match a.parse::<u32>() {
            Ok(n) if (1..=SKILL_MAX).contains(&n) => set(c, Some(skill_elo(n))),
            _ => Err(format!("skill: '{a}' is not 1 to {SKILL_MAX} or off")),
        },
        _ => Err(format!("usage: skill N|off (N 1 to {SKILL_MAX})")),
    }
}

/// The Elo of `skill` level `n`.
pub fn skill_elo(n: u32) -> u32 {
    (600 + 200 * n).clamp(ELO_MIN, ELO_MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skill_levels_cover_the_elo_range() {
        assert_eq!(skill_elo(1), ELO_MIN);
        assert_eq!(skill_elo(SKILL_MAX), ELO_MAX);
        assert!((1..SKILL_MAX).all(|n| skill_elo(n) < skill_elo(n + 1)));
    }
}
