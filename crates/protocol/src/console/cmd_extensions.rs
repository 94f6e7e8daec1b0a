//! The console's `extensions` command (Crafty's): how far the search extends each kind of
//! move, in plies with decimals (`extensions incheck 1.0`, `extensions recapture 0.5`);
//! alone, it shows the five amounts. They are the engine's `ext_*` tunables (hundredths of a
//! ply, `engine/src/extend.rs`), set on this console's engine only.

use super::state::{CmdResult, Console, Flow};

/// Crafty's names of the kinds, each with the tunable that holds its amount.
pub const KINDS: &[(&str, &str)] = &[
    ("incheck", "ext_incheck"),
    ("onerep", "ext_onerep"),
    ("pushpp", "ext_pushpp"),
    ("recapture", "ext_recapture"),
    ("mate", "ext_mate"),
];

/// Hundredths of a ply as plies with two decimals (`75` is `0.75`).
fn plies(hundredths: i32) -> String {
    format!("{}.{:02}", hundredths / 100, hundredths % 100)
}

/// Plies with up to two decimals (`1`, `.75`, `0.5`) as hundredths; `None` when not a
/// non-negative number.
fn parse_plies(text: &str) -> Option<i32> {
    let v: f64 = text.parse().ok()?;
    if !v.is_finite() || v < 0.0 || text.starts_with('+') {
        return None;
    }
    Some((v * 100.0).round().min(1e6) as i32)
}

pub fn extensions(c: &mut Console, args: &[&str]) -> CmdResult {
    let names = || KINDS.iter().map(|(k, _)| *k).collect::<Vec<_>>().join(" ");
    match args {
        [] => {
            let mut line = String::from("extensions:");
            for (kind, param) in KINDS {
                let v = c.runner.engine.search_param(param).unwrap_or(0);
                line.push_str(&format!(" {kind} {}", plies(v)));
            }
            c.say(&line);
            Ok(Flow::Continue)
        }
        [kind, value] => {
            let (kind, param) = KINDS
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(kind))
                .ok_or_else(|| format!("extensions: no kind '{kind}'; kinds: {}", names()))?;
            let want = parse_plies(value).ok_or_else(|| {
                format!("extensions {kind}: '{value}' is not a number of plies (0 to 1.0)")
            })?;
            c.stop_pondering();
            let set = c.runner.engine.set_search_param(param, want)?;
            if set == want {
                c.note(&format!("extensions {kind} {}", plies(set)));
            } else {
                c.say(&format!(
                    "extensions {kind} {} (a move is extended by at most one ply)",
                    plies(set)
                ));
            }
            Ok(Flow::Continue)
        }
        _ => Err(format!(
            "usage: extensions [KIND PLIES]; kinds: {}",
            names()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plies_read_and_print_as_crafty_writes_them() {
        assert_eq!(parse_plies("1.0"), Some(100));
        assert_eq!(parse_plies(".75"), Some(75));
        assert_eq!(parse_plies("0"), Some(0));
        assert_eq!(parse_plies("2"), Some(200));
        assert_eq!(parse_plies("-1"), None);
        assert_eq!(parse_plies("x"), None);
        assert_eq!(parse_plies("nan"), None);
        assert_eq!(plies(100), "1.00");
        assert_eq!(plies(75), "0.75");
        assert_eq!(plies(5), "0.05");
        for (_, param) in KINDS {
            assert!(
                engine::tunables::TUNABLES.iter().any(|t| t.name == *param),
                "{param}"
            );
        }
    }
}
