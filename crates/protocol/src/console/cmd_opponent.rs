//! The console's `name NAME` (Crafty's): the opponent's name, looked up in the opponent
//! lists (`lists/GM`, `IM`, `C`, `S`; [`datadir::lists_dir`]) and, when found there, the
//! resign threshold, book width and draw score set as the server bot and xboard's ICS mode
//! set them for that class ([`lists::OpponentsSection`]'s defaults). As in Crafty, the
//! name is not written into the game file's player tags.

use super::state::{CmdResult, Console, Flow};
use lists::{Category, OpponentLists, OpponentsSection, ServerTitles};

pub fn name(c: &mut Console, args: &[&str]) -> CmdResult {
    if args.is_empty() {
        return Err("usage: name NAME".into());
    }
    let n: String = args.join(" ").chars().take(64).collect();
    c.settings.opponent_name = Some(n.clone());
    let (lists, warnings) = OpponentLists::load(&datadir::lists_dir());
    for w in &warnings {
        c.say(&format!("list: {w}"));
    }
    let class = lists.classify(&n, ServerTitles::default());
    if class.category == Category::Other && !class.special {
        c.note(&format!(
            "opponent {n}: in none of the lists (settings unchanged)"
        ));
        return Ok(Flow::Continue);
    }
    c.stop_pondering();
    let t = OpponentsSection::default().tune(class);
    c.settings.resign = t.resign_pawns as i32;
    c.book.settings.width = t.book_width.clamp(1, 99) as usize;
    if class.category == Category::Computer {
        c.settings.opponent_is_computer = true;
    }
    c.settings.draw_score = t.draw_score;
    c.apply_draw_score();
    c.say(&format!("opponent {n}: {}", t.describe(class)));
    Ok(Flow::Continue)
}
