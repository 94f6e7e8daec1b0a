//! Collecting training data from the bot's own server games: with
//! `paths.training_positions` set (off by default), the positions of every finished game
//! that wily searched are appended to that `.wpos` file, with the search's score and the
//! game's result, for `wily nnue train` to read beside self-play data. The same positions
//! are left out as in `wily datagen` (in check, a capture or promotion played, a mate
//! score), and so are games without a result (aborted, adjourned). A game's records go
//! in one write; a record or game cut off by a crash is dropped when the file is next
//! opened. A new network is never switched on in a running bot: it must pass its SPRT
//! first (docs/nnue.md).

use crate::input::FinishedGame;
use engine::nnue::data::{open_for_append, worth_keeping, Outcome, Record};
use std::collections::HashMap;
use std::io::Write;
use std::path::Path;

/// The records of a finished game, numbered `game`; empty without a result.
pub fn game_records(f: &FinishedGame, game: u32) -> Vec<Record> {
    let Some(white) = Outcome::from_pgn_white(&f.record.result) else {
        return Vec::new();
    };
    let wily = if f.wily_color == cozy_chess::Color::White {
        white
    } else {
        white.flip()
    };
    let scores: HashMap<usize, i32> = f
        .searches
        .iter()
        .filter_map(|(ply, s)| s.map(|(score, _)| (*ply, score)))
        .collect();
    let mut board = f.start.clone();
    let mut out = Vec::new();
    for (ply, &mv) in f.moves.iter().enumerate() {
        if let Some(&score) = scores.get(&ply) {
            if worth_keeping(&board, mv, score) && board.side_to_move() == f.wily_color {
                out.push(Record::from_board(&board, score as i16, wily, game));
            }
        }
        if !board.is_legal(mv) {
            break;
        }
        board.play_unchecked(mv);
    }
    if let Some(last) = out.last_mut() {
        last.last_of_game = true;
    }
    out
}

/// Appends the game's positions to `path`; returns how many were written.
pub fn append_game(path: &Path, f: &FinishedGame) -> Result<usize, String> {
    let (mut file, game) = open_for_append(path)?;
    let records = game_records(f, game);
    let mut bytes = Vec::with_capacity(records.len() * 32);
    for r in &records {
        bytes.extend_from_slice(&r.encode());
    }
    file.write_all(&bytes)
        .and_then(|_| file.sync_data())
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(records.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::EndKind;
    use crate::play::record::GameRecord;
    use cozy_chess::{Board, Color, Move};

    /// 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 with wily Black, scored on its moves.
    fn game(result: &str) -> FinishedGame {
        let start = Board::default();
        let mut b = start.clone();
        let mut moves = Vec::new();
        for uci in [
            "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5c6", "d7c6",
        ] {
            let m: Move = uci.parse().unwrap();
            b.play(m);
            moves.push(m);
        }
        FinishedGame {
            record: GameRecord {
                termination: "normal".into(),
                ..GameRecord::between("x", "wily", result)
            },
            start,
            moves,
            wily_color: Color::Black,
            opponent: "x".into(),
            opponent_rating: None,
            wily_rating: None,
            kind: EndKind::Resignation,
            // e5 from the book; Nc6 and a6 searched; dxc6 (a capture) searched; a mate.
            searches: vec![
                (1, None),
                (3, Some((-20, 10))),
                (5, Some((-35, 11))),
                (7, Some((-5, 12))),
            ],
        }
    }

    #[test]
    fn a_finished_game_gives_its_quiet_searched_positions_from_wilys_side() {
        let recs = game_records(&game("0-1"), 3);
        assert_eq!(recs.len(), 2);
        assert_eq!(recs[0].score, -20);
        assert!(recs[0].black_to_move);
        assert_eq!(recs[0].outcome, Outcome::Win);
        assert_eq!(recs[1].score, -35);
        assert!(recs[1].last_of_game && !recs[0].last_of_game);
        assert!(recs.iter().all(|r| r.game == 3));
        assert_eq!(game_records(&game("1-0"), 0)[0].outcome, Outcome::Loss);
        assert!(game_records(&game("*"), 0).is_empty());
        let mut mate = game("0-1");
        mate.searches[1] = (3, Some((31_990, 9)));
        assert_eq!(game_records(&mate, 0).len(), 1);
    }

    #[test]
    fn games_are_appended_and_numbered_and_a_bad_path_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bot.wpos");
        assert_eq!(append_game(&path, &game("0-1")).unwrap(), 2);
        assert_eq!(append_game(&path, &game("1/2-1/2")).unwrap(), 2);
        let recs = engine::nnue::data::read_records(&path).unwrap();
        assert_eq!(recs.len(), 4);
        assert_eq!(recs[2].game, 1);
        assert_eq!(recs[3].outcome, Outcome::Draw);
        assert!(append_game(&dir.path().join("no/such/dir.wpos"), &game("0-1")).is_err());
    }
}
