//! Takebacks on the local server: `takeback [N]` asks the opponent to take back the last
//! N half-moves (default 1); the same request from the other side (or `accept`) agrees,
//! and the game goes back, clocks as they stand, the side to move's clock running. ICC
//! clients get DG_TAKEBACK, fresh clocks and DG_MY_TURN; style 12 clients a new board.
//! `rematch` challenges the last opponent again with the last game's terms.

use crate::conn::Sid;
use crate::games::play::Play;
use crate::offers::offer::{Notes, OfferKind};
use std::time::Instant;

impl Play<'_> {
    /// `takeback [N]`.
    pub fn cmd_takeback(&mut self, sid: Sid, args: &[&str]) {
        let found = self.parts.net.sess(sid).and_then(|s| s.game).and_then(|g| {
            let game = self.parts.games.games.get(&g)?;
            let c = game.color_of(sid)?;
            Some((g, game.side(!c).sid, game.moves.len()))
        });
        let Some((g, Some(opp), played)) = found else {
            self.parts.net.reply(sid, "You are not playing a game.\n");
            return;
        };
        let n = match args.first().map(|a| a.parse::<u32>()) {
            None => 1,
            Some(Ok(n)) if n >= 1 => n,
            _ => {
                self.parts
                    .net
                    .reply(sid, "Usage: takeback [number of half moves]\n");
                return;
            }
        };
        if n as usize > played {
            self.parts.net.reply(
                sid,
                &format!("There are only {played} half moves in your game.\n"),
            );
            return;
        }
        let theirs = self
            .parts
            .offers
            .offers
            .iter()
            .find(|o| o.from == opp && o.to == sid && o.kind == OfferKind::Takeback(n))
            .map(|o| o.id);
        match theirs {
            Some(id) => {
                let mut notes = Notes::new();
                self.dealing().drop_offer(id, &mut notes);
                self.dealing().flush_notes(notes);
                self.take_back(g, sid, n as usize);
            }
            None => self
                .dealing()
                .offer_in_game(OfferKind::Takeback(n), sid, opp),
        }
    }

    /// Game `g` goes back `n` half-moves, `by` having agreed.
    fn take_back(&mut self, g: u32, by: Sid, n: usize) {
        let now = Instant::now();
        let Some(game) = self.parts.games.games.get_mut(&g) else {
            return;
        };
        let ticking = game.clock.ticking();
        game.take_back(n);
        if ticking && game.moves.len() >= 2 {
            game.clock.start(game.board.side_to_move(), now);
        } else {
            game.clock.stop(now);
        }
        let mut targets: Vec<Sid> = [game.white.sid, game.black.sid]
            .into_iter()
            .flatten()
            .collect();
        targets.extend(game.observers.iter().copied());
        let who = self.parts.net.name_of(by);
        tracing::info!(game = g, half_moves = n, "takeback");
        for sid in targets {
            let dgs = self.icc_view().takeback_text(sid, g, n);
            let board = self.parts.games.board_for(self.parts.net, g, sid);
            let mut text = format!("{dgs}\nGame {g}: {who} accepts the takeback request.\n");
            if !board.is_empty() {
                text.push('\n');
                text.push_str(&board);
                text.push('\n');
            }
            self.parts.net.reply(sid, &text);
        }
    }

    /// `rematch`: the last opponent, the last game's terms.
    pub fn cmd_rematch(&mut self, sid: Sid) {
        let Some((name, base, inc, rated, chess960)) =
            self.parts.net.sess(sid).and_then(|s| s.last_terms.clone())
        else {
            return self
                .parts
                .net
                .reply(sid, "You have not played anybody yet.\n");
        };
        let (base, inc) = (base.to_string(), inc.to_string());
        let mut words: Vec<&str> = vec![&name, &base, &inc];
        words.push(if rated { "rated" } else { "unrated" });
        if chess960 {
            words.push("fr");
        }
        self.dealing().cmd_match(sid, &words);
    }
}
