//! Console commands for the Syzygy endgame tablebases: `tbpath DIR[:DIR...]` loads them,
//! `egtb` shows what is loaded, `egtb off` unloads, `egtb depth N` and `egtb 50 on|off`
//! set the probe depth and whether the 50-move rule counts.

use super::cmd_settings::{int_arg, on_off};
use super::state::{CmdResult, Console, Flow};

/// Loads the tables of `path`: a summary (and one line per file left out), or the error
/// (then the engine goes on without tablebases).
fn load(c: &mut Console, path: &str) -> CmdResult {
    c.stop_pondering();
    let text = c.runner.engine.set_syzygy_path(path)?;
    for line in text.lines() {
        c.say(line.trim_end());
    }
    Ok(Flow::Continue)
}

/// `tbpath DIR[:DIR...]`.
pub fn tbpath(c: &mut Console, args: &[&str]) -> CmdResult {
    if args.is_empty() {
        return Err("usage: tbpath DIR[:DIR...] (folders of Syzygy .rtbw/.rtbz files)".into());
    }
    load(c, &args.join(" "))
}

/// `egtb [off|PATH|depth N|50 on|off]`.
pub fn egtb(c: &mut Console, args: &[&str]) -> CmdResult {
    match args {
        [] => {
            let e = &c.runner.engine;
            let what = match e.syzygy() {
                Some(tb) => tb.summary(),
                None => "Syzygy tablebases: none loaded (tbpath DIR)".to_string(),
            };
            let rule = if e.syzygy_50_move_rule() { "on" } else { "off" };
            let line = format!(
                "{what}; probe depth {}, 50-move rule {rule}",
                e.syzygy_probe_depth()
            );
            c.say(&line);
            Ok(Flow::Continue)
        }
        ["off"] => load(c, ""),
        ["depth", rest @ ..] => {
            let d = int_arg("egtb depth", rest, 1, 100)?;
            c.runner.engine.set_syzygy_probe_depth(d as i32);
            c.note(&format!("tablebase probes from remaining depth {d}"));
            Ok(Flow::Continue)
        }
        ["50", rest @ ..] => {
            let on = on_off("egtb 50", rest)?;
            c.runner.engine.set_syzygy_50_move_rule(on);
            let how = if on {
                "cursed wins and blessed losses count as draws"
            } else {
                "cursed wins and blessed losses count as wins and losses"
            };
            c.note(how);
            Ok(Flow::Continue)
        }
        path => load(c, &path.join(" ")),
    }
}
