//! Console commands that change settings: time controls and clocks, search limits, hash
//! sizes and threads, pondering, draw/resign behaviour, talk levels, evaluation knobs,
//! strength limiting (`elo N|off`, `skill N|off` with level N of 1 to 10 = Elo 600 + 200 N).

use super::settings::{fmt_bytes, parse_size};
use super::state::{CmdResult, Console, Flow};
use crate::timecontrol::{
    fmt_clock, fmt_secs, parse_level, parse_minutes, parse_seconds, parse_time_form, Clocks, Timing,
};
use cozy_chess::Color;
use engine::skill::{ELO_MAX, ELO_MIN};
use std::time::Duration;

/// Parses `on`/`off` (also `1`/`0`, `yes`/`no`).
pub fn on_off(name: &str, args: &[&str]) -> Result<bool, String> {
    match args {
        [a] if ["on", "1", "yes", "true"].contains(&a.to_ascii_lowercase().as_str()) => Ok(true),
        [a] if ["off", "0", "no", "false"].contains(&a.to_ascii_lowercase().as_str()) => Ok(false),
        _ => Err(format!("usage: {name} on|off")),
    }
}

/// Parses one integer argument within `lo..=hi`.
pub fn int_arg(name: &str, args: &[&str], lo: i64, hi: i64) -> Result<i64, String> {
    let [a] = args else {
        return Err(format!("usage: {name} N ({lo} to {hi})"));
    };
    let n: i64 = a
        .parse()
        .map_err(|_| format!("{name}: '{a}' is not a whole number"))?;
    if !(lo..=hi).contains(&n) {
        return Err(format!("{name}: {n} is out of range ({lo} to {hi})"));
    }
    Ok(n)
}

fn done(c: &mut Console, msg: String) -> CmdResult {
    c.note(&msg);
    Ok(Flow::Continue)
}

pub fn alarm(c: &mut Console, args: &[&str]) -> CmdResult {
    c.settings.alarm = on_off("alarm", args)?;
    done(
        c,
        format!("alarm {}", if c.settings.alarm { "on" } else { "off" }),
    )
}

pub fn flag(c: &mut Console, args: &[&str]) -> CmdResult {
    c.settings.flag = on_off("flag", args)?;
    done(
        c,
        format!("flag {}", if c.settings.flag { "on" } else { "off" }),
    )
}

pub fn ansi(c: &mut Console, args: &[&str]) -> CmdResult {
    c.settings.ansi = on_off("ANSI", args)?;
    done(
        c,
        format!(
            "the computer's moves {} reverse video",
            if c.settings.ansi { "in" } else { "not in" }
        ),
    )
}

/// `swindle on|off`: the draw policy and the engine's swindle mode for tablebase-drawn
/// roots, together (both off at start).
pub fn swindle(c: &mut Console, args: &[&str]) -> CmdResult {
    c.settings.swindle = on_off("swindle", args)?;
    c.runner.engine.set_swindle(c.settings.swindle);
    done(
        c,
        format!(
            "swindle mode {}",
            if c.settings.swindle { "on" } else { "off" }
        ),
    )
}

/// `pgnscores white|mover`: whose view the game file's move comments take.
pub fn pgnscores(c: &mut Console, args: &[&str]) -> CmdResult {
    match args {
        [] => {}
        [v] => {
            c.settings.pgn_scores = v.parse().map_err(|e| format!("pgnscores: {e}"))?;
        }
        _ => return Err("usage: pgnscores white|mover".into()),
    }
    let view = c.settings.pgn_scores;
    done(
        c,
        format!(
            "game file move comments show scores from {} view",
            match view {
                engine::ScoreView::White => "White's",
                engine::ScoreView::Mover => "the mover's",
            }
        ),
    )
}

/// The book width `computer` narrows the book to.
pub const COMPUTER_BOOK_WIDTH: usize = 2;

pub fn computer(c: &mut Console, args: &[&str]) -> CmdResult {
    if !args.is_empty() {
        return Err("computer takes no arguments".into());
    }
    c.settings.opponent_is_computer = true;
    c.runner.engine.set_draw_score(0);
    // Crafty is more selective in its book against computers: only the best-weighted
    // few moves stay.
    let width = c.book.settings.width.min(COMPUTER_BOOK_WIDTH);
    c.book.settings.width = width;
    done(
        c,
        format!(
            "playing a computer: draw score 0, book width {width} (the best-weighted moves only)"
        ),
    )
}

pub fn drawscore(c: &mut Console, args: &[&str]) -> CmdResult {
    let n = int_arg("drawscore", args, -1000, 1000)? as i32;
    c.settings.draw_score = n;
    if !c.settings.opponent_is_computer && !c.settings.tournament {
        c.runner.engine.set_draw_score(n);
    }
    done(c, format!("draw score {n}"))
}

pub fn resign(c: &mut Console, args: &[&str]) -> CmdResult {
    let n = int_arg("resign", args, 0, 100)? as i32;
    c.settings.resign = n;
    done(
        c,
        if n == 0 {
            "resign: never".into()
        } else {
            format!(
                "resign when {n} pawns down for {} moves",
                c.settings.resign_count
            )
        },
    )
}

pub fn noise(c: &mut Console, args: &[&str]) -> CmdResult {
    c.settings.noise = int_arg("noise", args, 0, i64::MAX)? as u64;
    done(c, format!("noise {}", c.settings.noise))
}

/// `trace n`: the search tree to ply n as it is searched (0: off).
pub fn trace(c: &mut Console, args: &[&str]) -> CmdResult {
    let max = engine::MAX_TRACE_PLY as i64;
    c.settings.trace = int_arg("trace", args, 0, max)? as usize;
    done(
        c,
        if c.settings.trace == 0 {
            "trace off".to_string()
        } else {
            format!(
                "trace to ply {} (at most {} nodes a search)",
                c.settings.trace,
                crate::runner::TRACE_LIMIT
            )
        },
    )
}

pub fn whisper(c: &mut Console, args: &[&str]) -> CmdResult {
    c.settings.whisper = int_arg("whisper", args, 0, 6)? as u8;
    done(c, format!("whisper level {}", c.settings.whisper))
}

pub fn kibitz(c: &mut Console, args: &[&str]) -> CmdResult {
    c.settings.kibitz = int_arg("kibitz", args, 0, 6)? as u8;
    done(c, format!("kibitz level {}", c.settings.kibitz))
}

pub fn mode(c: &mut Console, args: &[&str]) -> CmdResult {
    c.settings.tournament = match args {
        ["tournament"] => true,
        ["normal"] => false,
        _ => return Err("usage: mode tournament|normal".into()),
    };
    // Tournament mode: every draw scores 0, whatever the draw score setting says.
    let draw = if c.settings.tournament || c.settings.opponent_is_computer {
        0
    } else {
        c.settings.draw_score
    };
    c.runner.engine.set_draw_score(draw);
    done(
        c,
        if c.settings.tournament {
            "mode tournament: draw score 0, the clocks are shown after each move to check against the real clock, no take-backs or position changes during a game".into()
        } else {
            format!("mode normal (draw score {draw})")
        },
    )
}

pub fn operator(c: &mut Console, args: &[&str]) -> CmdResult {
    let [a] = args else {
        return Err(
            "usage: operator MINUTES (time kept back from the clock for the operator)".into(),
        );
    };
    c.settings.operator_time = parse_clock_minutes(a)?;
    done(
        c,
        format!(
            "operator time: {} kept back from the clock",
            fmt_clock(c.settings.operator_time.as_millis() as i64)
        ),
    )
}

pub fn usage(c: &mut Console, args: &[&str]) -> CmdResult {
    c.settings.usage = int_arg("usage", args, -90, 200)? as i32;
    done(c, format!("time usage {:+}%", c.settings.usage))
}

pub fn ponder(c: &mut Console, args: &[&str]) -> CmdResult {
    match args {
        [a] if ["on", "off"].contains(a) => {
            c.settings.ponder = *a == "on";
            if !c.settings.ponder {
                c.stop_pondering();
            }
            done(c, format!("pondering {a}"))
        }
        [m] => {
            // The move to ponder is the opponent's reply after the computer's move.
            let mv = c
                .game
                .parse_move(m)
                .map_err(|e| format!("ponder: {m} is not a legal move here ({e})"))?;
            c.stop_pondering();
            c.ponder_move = Some(mv);
            super::think::start_pondering(c);
            done(c, format!("ponder move {m}"))
        }
        _ => Err("usage: ponder on|off|MOVE".into()),
    }
}

pub fn hash(c: &mut Console, args: &[&str]) -> CmdResult {
    let [a] = args else {
        return Err("usage: hash=N[K|M|G] (e.g. hash=128M)".into());
    };
    let bytes = parse_size(a)?;
    let mb = (bytes >> 20).max(1);
    let max = engine::max_hash_mb();
    if mb > max {
        return Err(format!(
            "hash: {mb}M is more than half this machine's memory (at most {max}M)"
        ));
    }
    c.stop_pondering();
    c.runner.engine.set_hash_mb(mb);
    c.settings.hash_bytes = mb << 20;
    done(c, format!("hash table: {}", fmt_bytes(mb << 20)))
}

pub fn hashp(c: &mut Console, args: &[&str]) -> CmdResult {
    use engine::eval::{
        pawn_hash_entries, PAWN_ENTRY_BYTES, PAWN_HASH_MAX_BYTES, PAWN_HASH_MIN_BYTES,
    };
    let [a] = args else {
        return Err("usage: hashp=N[K|M] (e.g. hashp=4M)".into());
    };
    let bytes = parse_size(a)?;
    let Some(entries) = pawn_hash_entries(bytes) else {
        return Err(format!(
            "hashp: {a} is out of range: the pawn hash table holds a power of two entries of \
             {PAWN_ENTRY_BYTES} bytes, from {} to {}",
            fmt_bytes(PAWN_HASH_MIN_BYTES),
            fmt_bytes(PAWN_HASH_MAX_BYTES)
        ));
    };
    c.stop_pondering();
    c.runner.engine.set_pawn_hash_bytes(bytes);
    c.settings.hashp_bytes = entries * PAWN_ENTRY_BYTES;
    done(
        c,
        format!(
            "pawn hash table: {entries} entries, {} per search thread",
            fmt_bytes(entries * PAWN_ENTRY_BYTES)
        ),
    )
}

pub fn smpmt(c: &mut Console, args: &[&str]) -> CmdResult {
    let n = int_arg("smpmt", args, 1, 256)? as usize;
    set_threads(c, n)
}

/// `mt=N`, Crafty's short form of `smpmt=N`.
pub fn mt(c: &mut Console, args: &[&str]) -> CmdResult {
    let n = int_arg("mt", args, 1, 256)? as usize;
    set_threads(c, n)
}

fn set_threads(c: &mut Console, n: usize) -> CmdResult {
    c.stop_pondering();
    c.runner.engine.set_threads(n);
    c.settings.threads = n;
    done(c, format!("search threads: {n}"))
}

pub fn sd(c: &mut Console, args: &[&str]) -> CmdResult {
    let n = int_arg("sd", args, 0, 127)? as u32;
    c.settings.sd = (n > 0).then_some(n);
    done(
        c,
        if n == 0 {
            "depth limit off".into()
        } else {
            format!("search depth {n}")
        },
    )
}

pub fn sn(c: &mut Console, args: &[&str]) -> CmdResult {
    let n = int_arg("sn", args, 0, i64::MAX)? as u64;
    c.settings.sn = (n > 0).then_some(n);
    done(
        c,
        if n == 0 {
            "node limit off".into()
        } else {
            format!("search nodes {n}")
        },
    )
}

pub fn st(c: &mut Console, args: &[&str]) -> CmdResult {
    let [a] = args else {
        return Err("usage: st SECONDS or M:SS (0 = use the clock)".into());
    };
    let d = if a.contains(':') {
        parse_minutes(a).map_err(|e| format!("st: {e}"))?
    } else {
        parse_seconds(a)?
    };
    c.settings.st = (!d.is_zero()).then_some(d);
    done(
        c,
        if d.is_zero() {
            "fixed time per move off".into()
        } else {
            format!("search time {}s per move", fmt_secs(d))
        },
    )
}

fn set_tc(c: &mut Console, tc: crate::timecontrol::TimeControl) -> CmdResult {
    c.settings.tc = tc;
    c.settings.st = None;
    c.clocks = Clocks::new(&tc);
    done(c, format!("time control: {}", tc.describe()))
}

pub fn level(c: &mut Console, args: &[&str]) -> CmdResult {
    let tc = parse_level(args)?;
    set_tc(c, tc)
}

pub fn time(c: &mut Console, args: &[&str]) -> CmdResult {
    match args {
        [a] if a.eq_ignore_ascii_case("cpu") => {
            c.settings.timing = Timing::Cpu;
            done(c, "timing: CPU time".into())
        }
        [a] if a.eq_ignore_ascii_case("elapsed") => {
            c.settings.timing = Timing::Elapsed;
            done(c, "timing: elapsed time".into())
        }
        [spec] => set_tc(c, parse_time_form(spec)?),
        _ => Err("usage: time CPU|elapsed|60/30|60/30/sd/30|sd/15|sd/2/12".into()),
    }
}

/// A clock reading as Crafty's `clock` and `operator` take it: minutes (`75`, `1.5`) or
/// hours and minutes (`1:15` is 75 minutes).
pub fn parse_clock_minutes(s: &str) -> Result<Duration, String> {
    let Some((h, m)) = s.split_once(':') else {
        return parse_minutes(s);
    };
    let bad = || format!("'{s}' is not minutes or hh:mm");
    let h: u64 = h.parse().map_err(|_| bad())?;
    let m: u64 = m.parse().map_err(|_| bad())?;
    if m >= 60 || h > 1000 {
        return Err(bad());
    }
    Ok(Duration::from_secs((h * 60 + m) * 60))
}

pub fn settc(c: &mut Console, args: &[&str]) -> CmdResult {
    let [m, ct, ot] = args else {
        return Err(
            "usage: settc MOVES CTIME OTIME (moves to the next control, clocks in minutes or m:ss)"
                .into(),
        );
    };
    let moves: u32 = m
        .parse()
        .map_err(|_| format!("settc: '{m}' is not a number of moves"))?;
    let ctime = parse_minutes(ct)?;
    let otime = parse_minutes(ot)?;
    let comp = c.computer.unwrap_or(Color::Black);
    c.clocks.set_remaining(comp, ctime.as_millis() as i64);
    c.clocks.set_remaining(!comp, otime.as_millis() as i64);
    let mtg = (moves > 0).then_some(moves);
    c.clocks.moves_to_go_override = [mtg, mtg];
    done(
        c,
        format!(
            "{} to the next control; computer {} opponent {}",
            if moves > 0 {
                format!("{moves} moves")
            } else {
                "sudden death".into()
            },
            fmt_clock(c.clocks.remaining(comp)),
            fmt_clock(c.clocks.remaining(!comp))
        ),
    )
}

pub fn clock(c: &mut Console, args: &[&str]) -> CmdResult {
    let comp = c.computer.unwrap_or(Color::Black);
    match args {
        [] => {}
        [ct] => {
            let ct = parse_clock_minutes(ct)?;
            c.clocks.set_remaining(comp, ct.as_millis() as i64);
        }
        [ct, ot] => {
            let ct = parse_clock_minutes(ct)?;
            let ot = parse_clock_minutes(ot)?;
            c.clocks.set_remaining(comp, ct.as_millis() as i64);
            c.clocks.set_remaining(!comp, ot.as_millis() as i64);
        }
        _ => return Err("usage: clock [CTIME [OTIME]] (minutes or hh:mm)".into()),
    }
    let line = format!(
        "time remaining: White {}  Black {}  (computer plays {})",
        fmt_clock(c.clocks.remaining(Color::White)),
        fmt_clock(c.clocks.remaining(Color::Black)),
        match c.computer {
            Some(Color::White) => "White",
            Some(Color::Black) => "Black",
            None => "neither side",
        }
    );
    c.say(&line);
    Ok(Flow::Continue)
}

/// Highest `skill` level (it plays like `elo 2600`).
const SKILL_MAX: u32 = 10;

fn show_strength(c: &mut Console) -> CmdResult {
    let line = match c.runner.engine.strength() {
        Some(elo) => format!("strength limited to about {elo} Elo"),
        None => "full strength (elo off)".to_string(),
    };
    c.note(&line);
    Ok(Flow::Continue)
}

fn set_strength(c: &mut Console, elo: Option<u32>) -> CmdResult {
    c.stop_pondering();
    c.runner.engine.set_strength(elo);
    show_strength(c)
}

/// The argument is "off" (or 0): full strength.
fn is_off(a: &str) -> bool {
    a.eq_ignore_ascii_case("off") || a == "0"
}

/// `elo [N|off]`.
pub fn elo(c: &mut Console, args: &[&str]) -> CmdResult {
    match args {
        [] => show_strength(c),
        [a] if is_off(a) => set_strength(c, None),
        [a] => match a.parse::<u32>() {
            Ok(n) if (ELO_MIN..=ELO_MAX).contains(&n) => set_strength(c, Some(n)),
            _ => Err(format!("elo: '{a}' is not {ELO_MIN} to {ELO_MAX} or off")),
        },
        _ => Err(format!("usage: elo N|off (N {ELO_MIN} to {ELO_MAX})")),
    }
}

/// `skill [N|off]`.
pub fn skill(c: &mut Console, args: &[&str]) -> CmdResult {
    match args {
        [] => show_strength(c),
        [a] if is_off(a) => set_strength(c, None),
        [a] => match a.parse::<u32>() {
            Ok(n) if (1..=SKILL_MAX).contains(&n) => set_strength(c, Some(skill_elo(n))),
            _ => Err(format!("skill: '{a}' is not 1 to {SKILL_MAX} or off")),
        },
        _ => Err(format!("usage: skill N|off (N 1 to {SKILL_MAX})")),
    }
}

/// The Elo of `skill` level `n`.
pub fn skill_elo(n: u32) -> u32 {
    (600 + 200 * n).clamp(ELO_MIN, ELO_MAX)
}

/// `output long|short`: the console's moves (search lines, the computer's moves, `display
/// moves`) in long algebraic (`Ng1f3`) or SAN (`Nf3`, the default).
pub fn output(c: &mut Console, args: &[&str]) -> CmdResult {
    c.settings.long_output = match args {
        ["long"] => true,
        ["short"] => false,
        _ => return Err("usage: output long|short".into()),
    };
    let msg = if c.settings.long_output {
        "output moves in long algebraic notation (Ng1f3)"
    } else {
        "output moves in short algebraic notation (SAN: Nf3)"
    };
    c.say(msg);
    Ok(Flow::Continue)
}

/// `timebook FACTOR MOVES`: FACTOR percent of extra time (0 to 500) on the first move out
/// of book, decaying evenly to none over MOVES moves (0 to 30).
pub fn timebook(c: &mut Console, args: &[&str]) -> CmdResult {
    let (factor, span) = match args {
        [] => c.settings.timebook,
        [f, m] => {
            let num = |s: &&str, hi: u32, what: &str| {
                s.parse::<u32>()
                    .ok()
                    .filter(|n| *n <= hi)
                    .ok_or_else(|| format!("timebook: {what} '{s}' is not 0 to {hi}"))
            };
            (num(f, 500, "factor")?, num(m, 30, "moves")?)
        }
        _ => return Err("usage: timebook FACTOR MOVES (percent 0-500, moves 0-30)".into()),
    };
    c.settings.timebook = (factor, span);
    let msg = if factor == 0 || span == 0 {
        "timebook off: the normal time target right out of book".to_string()
    } else {
        format!(
            "timebook: {}% of the normal time target on the first move out of book, {}% less each move, normal after {span} moves",
            100 + factor,
            f64::from(factor) / f64::from(span)
        )
    };
    c.say(&msg);
    Ok(Flow::Continue)
}

#[cfg(test)]
mod skill_tests {
    use super::*;

    #[test]
    fn skill_levels_cover_the_elo_range() {
        assert_eq!(skill_elo(1), ELO_MIN);
        assert_eq!(skill_elo(SKILL_MAX), ELO_MAX);
        assert!((1..SKILL_MAX).all(|n| skill_elo(n) < skill_elo(n + 1)));
    }
}
