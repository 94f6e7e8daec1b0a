//! Takebacks and rematches on the local server, in the lasker/FICS shapes: `takeback [n]`
//! asks the opponent (`X would like to take back N half move(s).`); the same number back,
//! `accept` or `accept takeback` takes the moves back and sends the boards again.
//! `rematch` challenges the last opponent again with the last game's terms.

use super::conn::Sid;
use super::core::Core;
use super::offer::{Notes, OfferKind};

impl Core {
    /// `takeback [n]` (default 1 half-move).
    pub fn cmd_takeback(&mut self, sid: Sid, args: &[&str]) {
        let n = match args.first() {
            None => 1,
            Some(a) => match a.parse::<u32>() {
                Ok(n) => n,
                Err(_) => return self.reply(sid, "Usage: takeback [half-moves]\n"),
            },
        };
        if n == 0 {
            return self.reply(sid, "You can't takeback less than 1 move.\n");
        }
        let Some((g, _, opp)) = self.my_game(sid) else {
            return;
        };
        let Some(opp) = opp else { return };
        let plies = self.games.get(&g).map_or(0, |x| x.moves.len()) as u32;
        if plies == 0 {
            return self.reply(sid, "There are no moves in your game.\n");
        }
        if n > plies {
            return self.reply(
                sid,
                &format!("There are only {plies} half moves in your game.\n"),
            );
        }
        let theirs = self
            .offers
            .iter()
            .find(|o| o.from == opp && o.to == sid && matches!(o.kind, OfferKind::Takeback(_)))
            .map(|o| o.kind.clone());
        match theirs {
            Some(OfferKind::Takeback(m)) if m == n => {
                let mut notes = Notes::new();
                self.remove_game_offers(sid, opp, &mut notes);
                self.flush_notes(notes);
                let me = self.name_of(sid);
                self.notify(opp, &format!("{me} accepts the takeback request.\n"));
                self.take_back(g, n as usize);
            }
            _ => self.offer_in_game(OfferKind::Takeback(n), sid, opp),
        }
    }

    /// Takes `n` half-moves back in game `g` and sends the boards.
    fn take_back(&mut self, g: u32, n: usize) {
        let Some(game) = self.games.get_mut(&g) else {
            return;
        };
        let keep = game.played.len().saturating_sub(n);
        let mut b = game.start.clone();
        for &mv in &game.played[..keep] {
            if b.try_play(mv).is_err() {
                return;
            }
        }
        game.board = b;
        game.played.truncate(keep);
        game.moves.truncate(keep);
        game.hashes.truncate(keep + 1);
        game.last = None;
        self.send_boards(g, None);
    }

    /// `rematch`: the last opponent, the last game's terms.
    pub fn cmd_rematch(&mut self, sid: Sid) {
        let Some((name, base, inc, rated, chess960)) =
            self.sess(sid).and_then(|s| s.last_terms.clone())
        else {
            return self.reply(sid, "You have not played anybody yet.\n");
        };
        let (base, inc) = (base.to_string(), inc.to_string());
        let mut words: Vec<&str> = vec![&name, &base, &inc];
        words.push(if rated { "rated" } else { "unrated" });
        if chess960 {
            words.push("fr");
        }
        self.cmd_match(sid, &words);
    }
}
