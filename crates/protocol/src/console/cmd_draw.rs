//! Console commands about draws and ratings: `draw` (offer wily a draw, or accept its
//! offer), `draw accept|decline|offer|nooffer|dynamic [1|0]` (how wily answers and makes
//! offers, and whether the draw score follows the ratings) and `rating A B` (wily's and
//! the opponent's ratings: the PGN Elo tags and, with dynamic draw scores, the draw score).

use super::settings::dynamic_draw_score;
use super::state::{CmdResult, Console, Flow};
use super::think;
use crate::game::{Outcome, Score as GameScore};

/// `draw` and its settings forms.
pub fn draw(c: &mut Console, args: &[&str]) -> CmdResult {
    match args {
        [] => offer(c),
        ["accept"] => {
            c.settings.accept_draws = true;
            say(
                c,
                "accept draw offers (when the score is not above the draw score)",
            )
        }
        ["decline"] => {
            c.settings.accept_draws = false;
            say(c, "decline draw offers, whatever the score")
        }
        ["offer"] => {
            c.settings.offer_draws = true;
            say(c, "offer draws when the position looks drawn")
        }
        ["nooffer"] => {
            c.settings.offer_draws = false;
            say(c, "never offer draws")
        }
        ["dynamic"] => {
            let on = c.settings.dynamic_draw;
            say(c, &dynamic_text(on))
        }
        ["dynamic", v] => {
            let on = match *v {
                "1" | "on" => true,
                "0" | "off" => false,
                _ => return Err(format!("draw dynamic: '{v}' is not 1 or 0")),
            };
            c.settings.dynamic_draw = on;
            if on {
                if let Some((mine, theirs)) = c.settings.ratings {
                    c.settings.draw_score = dynamic_draw_score(mine, theirs);
                }
            } else {
                // Off: the draw score goes back to zero.
                c.settings.draw_score = 0;
            }
            c.apply_draw_score();
            let msg = format!(
                "{} (draw score {})",
                dynamic_text(on),
                c.settings.draw_score
            );
            say(c, &msg)
        }
        _ => Err("usage: draw [accept|decline|offer|nooffer|dynamic [1|0]]".into()),
    }
}

fn dynamic_text(on: bool) -> String {
    format!(
        "dynamic draw scores {}",
        if on { "enabled" } else { "disabled" }
    )
}

fn say(c: &mut Console, msg: &str) -> CmdResult {
    c.say(msg);
    Ok(Flow::Continue)
}

/// `draw` with no argument: the opponent offers a draw, or accepts the one wily offered.
fn offer(c: &mut Console) -> CmdResult {
    if c.game.outcome.is_some() {
        return Err("the game is over".into());
    }
    if c.computer.is_none() {
        return Err("draw: the computer is not playing (force mode)".into());
    }
    if c.draw_offered {
        c.draw_offered = false;
        c.say("Draw agreed (wily's offer accepted).");
        c.finish_game(Outcome::new(GameScore::Draw, "Draw agreed"));
        return Ok(Flow::Continue);
    }
    if !c.settings.accept_draws {
        c.say("Draw declined (draw decline is set).");
        return Ok(Flow::Continue);
    }
    let ps = c.policy_settings();
    if c.policy.accept_draw(&ps) {
        c.say("Draw accepted.");
        c.finish_game(Outcome::new(GameScore::Draw, "Draw agreed"));
    } else {
        c.say(&format!(
            "Draw declined (score {}).",
            think::score_text(c.last_score)
        ));
    }
    Ok(Flow::Continue)
}

/// `rating A B`: wily's rating A and the opponent's B (`rating` alone shows them).
pub fn rating(c: &mut Console, args: &[&str]) -> CmdResult {
    let (mine, theirs) = match args {
        [] => {
            let msg = match c.settings.ratings {
                Some((a, b)) => format!("ratings: wily {a}, opponent {b}"),
                None => "ratings: not set ('rating A B')".to_string(),
            };
            return say(c, &msg);
        }
        [a, b] => {
            let num = |s: &&str| {
                s.parse::<i32>()
                    .ok()
                    .filter(|n| (0..=4000).contains(n))
                    .ok_or_else(|| format!("rating: '{s}' is not a rating (0 to 4000)"))
            };
            (num(a)?, num(b)?)
        }
        _ => return Err("usage: rating WILY OPPONENT (two ratings)".into()),
    };
    c.settings.ratings = Some((mine, theirs));
    c.set_player_tags();
    let mut msg = format!("wily's rating: {mine}, opponent's rating: {theirs}");
    if c.settings.dynamic_draw {
        c.settings.draw_score = dynamic_draw_score(mine, theirs);
        c.apply_draw_score();
        msg.push_str(&format!(
            "; draw score {} (dynamic draw scores)",
            c.settings.draw_score
        ));
    }
    c.note(&msg);
    Ok(Flow::Continue)
}
