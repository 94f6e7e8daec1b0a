//! `wily nnue convert`: turns PGN games with engine score comments, as fastchess,
//! cutechess and OpenBench's workers write them (`{+0.35/12 0.123s}`, `{-M5/20 ...}`,
//! `{book}`), into a `.wpos` position file for `wily nnue train`.
//!
//! Each move whose comment begins with a score gives the position before it, with that
//! score (the mover's view, in pawns, turned into centipawns) and the game's result from
//! the mover's view. As `wily datagen` does, positions in check, positions whose move
//! captures or promotes, and mate scores are left out; so are book moves (comments
//! without a score) and games without a decisive or drawn result (`*`). A game that does
//! not parse or replay is skipped with a warning naming its line; the file is written to
//! a temporary name and renamed when complete.

use super::data::{header, worth_keeping, Outcome, Record};
use chess::pgn::PgnReader;
use chess::san::parse_san;
use std::io::{BufReader, Write};
use std::path::Path;

/// What a conversion did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConvertSummary {
    pub games: u64,
    pub positions: u64,
    /// Games left out (unreadable, unplayable or without a result).
    pub skipped_games: u64,
}

/// The score of a comment in centipawns from the mover's view: `+0.35/12 0.1s` gives
/// 35; mates (`+M5`, `-M3`, `#5`) and comments without a score give `None`.
pub fn comment_score(comment: &str) -> Option<i32> {
    let word = comment.split_whitespace().next()?;
    let value = word.split('/').next()?;
    if value.contains('M') || value.contains('#') {
        return None;
    }
    let pawns: f64 = value.parse().ok()?;
    pawns
        .is_finite()
        .then(|| (pawns * 100.0).round().clamp(-30_000.0, 30_000.0) as i32)
}

/// Converts every game of the PGN files `inputs` into the position file `out`.
pub fn convert(inputs: &[std::path::PathBuf], out: &Path) -> Result<ConvertSummary, String> {
    let mut tmp = out.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = std::path::PathBuf::from(tmp);
    let err = |e: std::io::Error| format!("{}: {e}", tmp.display());
    let mut w = std::io::BufWriter::new(std::fs::File::create(&tmp).map_err(err)?);
    w.write_all(&header()).map_err(err)?;
    let mut summary = ConvertSummary::default();
    for input in inputs {
        let f = std::fs::File::open(input).map_err(|e| format!("{}: {e}", input.display()))?;
        for game in PgnReader::new(BufReader::new(f)) {
            let game = match game {
                Ok(g) => g,
                Err(e) => {
                    eprintln!("warning: {}: {e}", input.display());
                    summary.skipped_games += 1;
                    continue;
                }
            };
            let (Some(white), Ok(mut board)) =
                (Outcome::from_pgn_white(&game.result), game.start_board())
            else {
                summary.skipped_games += 1;
                continue;
            };
            let number = summary.games as u32;
            let mut records = Vec::new();
            let mut ok = true;
            for m in &game.moves {
                let Ok(mv) = parse_san(&board, &m.san) else {
                    eprintln!(
                        "warning: {}: game at line {}: illegal move {}",
                        input.display(),
                        game.line,
                        m.san
                    );
                    ok = false;
                    break;
                };
                let score = m.comment.as_deref().and_then(comment_score);
                if let Some(cp) = score {
                    if worth_keeping(&board, mv, cp) {
                        let o = if board.side_to_move() == cozy_chess::Color::White {
                            white
                        } else {
                            white.flip()
                        };
                        records.push(Record::from_board(&board, cp as i16, o, number));
                    }
                }
                board.play_unchecked(mv);
            }
            if !ok {
                summary.skipped_games += 1;
                continue;
            }
            if let Some(last) = records.last_mut() {
                last.last_of_game = true;
            }
            for r in &records {
                w.write_all(&r.encode()).map_err(err)?;
            }
            summary.games += 1;
            summary.positions += records.len() as u64;
        }
    }
    w.into_inner()
        .map_err(|e| format!("{}: {e}", tmp.display()))?
        .sync_all()
        .map_err(err)?;
    std::fs::rename(&tmp, out).map_err(|e| format!("{}: {e}", out.display()))?;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::super::data::read_records;
    use super::*;

    #[test]
    fn scores_are_read_as_runners_write_them() {
        assert_eq!(comment_score("+0.35/12 0.123s"), Some(35));
        assert_eq!(comment_score("-1.07/9 0.5s, White's move"), Some(-107));
        assert_eq!(comment_score("0.00/1 0s"), Some(0));
        assert_eq!(comment_score("+M5/20 0.1s"), None);
        assert_eq!(comment_score("-M3/7"), None);
        assert_eq!(comment_score("book"), None);
        assert_eq!(comment_score(""), None);
        assert_eq!(comment_score("+nan/3"), None);
    }

    #[test]
    fn a_runners_pgn_becomes_positions() {
        let dir = tempfile::tempdir().unwrap();
        let pgn = dir.path().join("g.pgn");
        std::fs::write(
            &pgn,
            "[Event \"t\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"0-1\"]\n\n\
             1. e4 {book} e5 {book} 2. Nf3 {+0.31/10 0.05s} Nc6 {-0.20/11 0.04s} \
             3. Bb5 {+0.40/10 0.05s} a6 {-0.35/9 0.04s} 4. Bxc6 {+0.10/9 0.05s} \
             dxc6 {-0.05/12 0.04s} 0-1\n\n\
             [Event \"t\"]\n[Result \"*\"]\n\n1. d4 {+0.1/3} *\n\n\
             [Event \"t\"]\n[Result \"1-0\"]\n\n1. e4 {+0.1/3} e4 {-0.2/3} 1-0\n",
        )
        .unwrap();
        let out = dir.path().join("g.wpos");
        let s = convert(&[pgn], &out).unwrap();
        assert_eq!(s.games, 1);
        assert_eq!(s.skipped_games, 2);
        let recs = read_records(&out).unwrap();
        // Nf3, Nc6, Bb5, a6 are kept; Bxc6 and dxc6 capture; book moves have no score.
        assert_eq!(recs.len(), 4);
        assert_eq!(s.positions, 4);
        assert_eq!(recs[0].score, 31);
        assert!(!recs[0].black_to_move);
        assert_eq!(recs[0].outcome, Outcome::Loss);
        assert_eq!(recs[1].score, -20);
        assert!(recs[1].black_to_move);
        assert_eq!(recs[1].outcome, Outcome::Win);
        assert!(recs[3].last_of_game && !recs[2].last_of_game);
        assert!(convert(&[dir.path().join("none.pgn")], &out)
            .unwrap_err()
            .contains("none.pgn"));
    }
}
