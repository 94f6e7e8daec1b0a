//! Console commands about the evaluation: `score` (the evaluation term by term) and
//! `evaluation KNOB N` (Crafty's scale knobs, percentages with 100 = normal).

use super::state::{CmdResult, Console, Flow};
use crate::output::fmt_score;
use engine::eval::trace_for_side;
use engine::Score;

pub fn score(c: &mut Console, args: &[&str]) -> CmdResult {
    if !args.is_empty() {
        return Err("score takes no arguments".into());
    }
    let board = c.game.board().clone();
    let t = trace_for_side(&board, c.runner.engine.eval_params(), c.computer);
    let table = t.to_string();
    for line in table.lines() {
        c.say(line);
    }
    c.say(&format!(
        "evaluation: {} (White's view)",
        fmt_score(Score::Cp(t.white_total))
    ));
    Ok(Flow::Continue)
}

/// The knob names and what they scale.
const KNOBS: &str = "asymmetry (own vs opponent king safety), bscale (blocked pawns), \
kscale (king safety), tropism (king tropism), pscale (pawn structure), ppscale (passed pawns)";

pub fn evaluation(c: &mut Console, args: &[&str]) -> CmdResult {
    let p = c.runner.engine.eval_params();
    if args.is_empty() {
        let line = format!(
            "evaluation: asymmetry {} bscale {} kscale {} tropism {} pscale {} ppscale {}",
            p.king_safety_own - 100,
            p.blocked_pawn_scale,
            p.king_safety_scale,
            p.tropism_scale,
            p.pawn_structure_scale,
            p.passed_pawn_scale
        );
        c.say(&line);
        return Ok(Flow::Continue);
    }
    let [knob, value] = args else {
        return Err(format!("usage: evaluation KNOB N; knobs: {KNOBS}"));
    };
    let n: i32 = value
        .parse()
        .map_err(|_| format!("evaluation: '{value}' is not a whole number"))?;
    let (lo, hi) = if *knob == "asymmetry" {
        (-100, 100)
    } else {
        (0, 1000)
    };
    if !(lo..=hi).contains(&n) {
        return Err(format!(
            "evaluation {knob}: {n} is out of range ({lo} to {hi})"
        ));
    }
    c.stop_pondering();
    let p = c.runner.engine.eval_params_mut();
    match *knob {
        "asymmetry" => {
            // Positive values weigh the danger to wily's own king more than the opponent's.
            p.king_safety_own = 100 + n;
            p.king_safety_opponent = 100 - n;
        }
        "bscale" => p.blocked_pawn_scale = n,
        "kscale" => p.king_safety_scale = n,
        "tropism" => p.tropism_scale = n,
        "pscale" => p.pawn_structure_scale = n,
        "ppscale" => p.passed_pawn_scale = n,
        _ => return Err(format!("evaluation: unknown knob '{knob}'; knobs: {KNOBS}")),
    }
    c.note(&format!("evaluation {knob} {n}"));
    Ok(Flow::Continue)
}
