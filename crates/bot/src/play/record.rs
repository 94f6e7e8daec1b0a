//! Game records: every finished game appended to the PGN archive in `logs/`
//! (`games.pgn`), with the seven-tag roster plus Elo, TimeControl and Termination, and a
//! comment after each of wily's moves with score, depth and time (`{+0.35/12 1.2s}`);
//! and the per-game log with the search output (`logs/games/...log`).

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// One move as recorded: SAN plus an optional comment (search summary, `book`, time).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedMove {
    pub san: String,
    pub comment: Option<String>,
}

/// A whole game, ready to be written as PGN.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    pub event: String,
    pub site: String,
    /// `YYYY.MM.DD`
    pub date: String,
    pub round: String,
    pub white: String,
    pub black: String,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    pub white_elo: Option<u32>,
    pub black_elo: Option<u32>,
    /// PGN form: `180+2`, or `-` for untimed.
    pub time_control: String,
    /// PGN Termination: `normal`, `time forfeit`, `abandoned`, `adjudication`,
    /// `unterminated`.
    pub termination: String,
    /// The server's words on how it ended (`BetaBot resigns`).
    pub end_text: String,
    /// FEN of the first position when it is not the standard start (resumed or
    /// re-synchronised games).
    pub start_fen: Option<String>,
    /// The PGN `Variant` tag (`Chess960`), `None` for standard chess.
    pub variant: Option<String>,
    /// Full-move number and side of the first recorded move (from `start_fen`).
    pub first_move_number: u32,
    pub first_move_white: bool,
    pub moves: Vec<RecordedMove>,
}

/// The PGN TimeControl value for a base in minutes and an increment in seconds.
pub fn time_control(base_min: u32, inc_s: u32) -> String {
    if base_min == 0 && inc_s == 0 {
        "-".into()
    } else {
        format!("{}+{}", base_min as u64 * 60, inc_s)
    }
}

/// The comment for one of wily's moves: score from the mover's side in pawns (or
/// `+M5`), depth and seconds, as c-chess-cli writes them at verbosity 3.
pub fn move_comment(score_cp: Option<i32>, mate: Option<i32>, depth: u32, millis: u64) -> String {
    let score = match (mate, score_cp) {
        (Some(n), _) => format!("{}M{}", if n > 0 { "+" } else { "-" }, n.unsigned_abs()),
        (None, Some(cp)) => format!(
            "{}{:.2}",
            if cp >= 0 { "+" } else { "-" },
            cp.unsigned_abs() as f64 / 100.0
        ),
        (None, None) => "?".into(),
    };
    format!("{score}/{depth} {:.1}s", millis as f64 / 1000.0)
}

/// The comment for one of wily's moves from its search score (the mover's, with
/// `side` to move) in the view `log.pgn_scores` asks for.
pub fn search_comment(
    score: engine::Score,
    side: cozy_chess::Color,
    view: config::PgnScores,
    depth: u32,
    millis: u64,
) -> String {
    use engine::{Score, ScoreView};
    let view = match view {
        config::PgnScores::Mover => ScoreView::Mover,
        config::PgnScores::White => ScoreView::White,
    };
    match score.in_view(side, view) {
        Score::Mate(n) => move_comment(None, Some(n), depth, millis),
        Score::Cp(cp) => move_comment(Some(cp), None, depth, millis),
    }
}

fn escape_tag(v: &str) -> String {
    v.chars()
        .filter(|c| !c.is_control())
        .flat_map(|c| match c {
            '"' | '\\' => vec!['\\', c],
            _ => vec![c],
        })
        .collect()
}

fn escape_comment(v: &str) -> String {
    v.chars()
        .map(|c| if c == '}' || c.is_control() { ' ' } else { c })
        .collect()
}

impl GameRecord {
    /// A game between `white` and `black` with `result`, from the initial position, no
    /// moves and every other tag empty (`-` for the time control); the rest is set with
    /// struct update syntax.
    pub fn between(white: &str, black: &str, result: &str) -> GameRecord {
        GameRecord {
            event: String::new(),
            site: String::new(),
            date: String::new(),
            round: String::new(),
            white: white.into(),
            black: black.into(),
            result: result.into(),
            white_elo: None,
            black_elo: None,
            time_control: "-".into(),
            termination: String::new(),
            end_text: String::new(),
            start_fen: None,
            variant: None,
            first_move_number: 1,
            first_move_white: true,
            moves: Vec::new(),
        }
    }

    /// The game as PGN text (tags, blank line, movetext wrapped under 80 columns, blank
    /// line).
    pub fn to_pgn(&self) -> String {
        let mut out = String::new();
        let mut tag = |k: &str, v: &str| {
            let _ = writeln!(out, "[{k} \"{}\"]", escape_tag(v));
        };
        tag("Event", &self.event);
        tag("Site", &self.site);
        tag("Date", &self.date);
        tag("Round", &self.round);
        tag("White", &self.white);
        tag("Black", &self.black);
        tag("Result", &self.result);
        tag(
            "WhiteElo",
            &self.white_elo.map_or("-".into(), |e| e.to_string()),
        );
        tag(
            "BlackElo",
            &self.black_elo.map_or("-".into(), |e| e.to_string()),
        );
        tag("TimeControl", &self.time_control);
        tag("Termination", &self.termination);
        if let Some(v) = &self.variant {
            tag("Variant", v);
        }
        if let Some(fen) = &self.start_fen {
            tag("SetUp", "1");
            tag("FEN", fen);
        }
        out.push('\n');
        let mut tokens: Vec<String> = Vec::new();
        let mut number = self.first_move_number.max(1);
        let mut white = self.first_move_white;
        for (i, m) in self.moves.iter().enumerate() {
            if white {
                tokens.push(format!("{number}."));
            } else if i == 0 {
                tokens.push(format!("{number}..."));
            }
            tokens.push(m.san.clone());
            if let Some(c) = &m.comment {
                tokens.push(format!("{{{}}}", escape_comment(c)));
                // After a comment, a black move needs its number again.
                if white {
                    tokens.push(format!("{number}..."));
                }
            }
            if !white {
                number += 1;
            }
            white = !white;
        }
        // A trailing "N..." after the last move's comment is not needed.
        if tokens.last().is_some_and(|t| t.ends_with("...")) {
            tokens.pop();
        }
        if !self.end_text.is_empty() {
            tokens.push(format!("{{{}}}", escape_comment(&self.end_text)));
        }
        tokens.push(self.result.clone());
        let mut line = String::new();
        for t in tokens {
            if !line.is_empty() && line.len() + 1 + t.len() > 79 {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&t);
        }
        out.push_str(&line);
        out.push_str("\n\n");
        out
    }

    /// Appends the game to the archive at `path` in one write, then syncs it to disk.
    pub fn append_to(&self, path: &Path) -> std::io::Result<()> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)?;
        f.write_all(self.to_pgn().as_bytes())?;
        f.sync_data()
    }
}

/// Appends `text` to the file at `path` in one write (creating its folder), then syncs
/// it to disk: a crash leaves whole games before the new one.
pub fn append_text(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    f.write_all(text.as_bytes())?;
    f.sync_data()
}

/// The PGN archive's path inside the logs folder.
pub fn archive_path(logs: &Path) -> PathBuf {
    logs.join("games.pgn")
}

/// Only letters, digits, `-` and `_` from a server name go into a file name.
fn file_safe(s: &str) -> String {
    let t: String = s
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .take(20)
        .collect();
    if t.is_empty() {
        "x".into()
    } else {
        t
    }
}

/// The per-game log: search output and events of one game, appended line by line.
#[derive(Debug)]
pub struct GameLog {
    path: PathBuf,
    file: Option<std::fs::File>,
}

impl GameLog {
    /// Opens `logs/games/<stamp>-g<N>-<white>-<black>.log`. A failure to open is logged
    /// once and the game goes on without a log.
    pub fn open(logs: &Path, stamp: &str, game: u32, white: &str, black: &str) -> GameLog {
        let path = logs.join("games").join(format!(
            "{}-g{game}-{}-{}.log",
            file_safe(stamp),
            file_safe(white),
            file_safe(black)
        ));
        let file = std::fs::create_dir_all(path.parent().unwrap_or(logs))
            .and_then(|_| {
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(&path)
            })
            .map_err(|e| tracing::warn!("cannot open game log {}: {e}", path.display()))
            .ok();
        GameLog { path, file }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends one line; a write error closes the log with a warning.
    pub fn line(&mut self, text: &str) {
        if let Some(f) = &mut self.file {
            if let Err(e) = writeln!(f, "{text}") {
                tracing::warn!("game log {}: {e}; closing it", self.path.display());
                self.file = None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec() -> GameRecord {
        GameRecord {
            event: "FICS rated blitz game".into(),
            site: "freechess.org".into(),
            date: "2026.11.22".into(),
            round: "-".into(),
            white: "wily".into(),
            black: "Bob \"the\" \\".into(),
            result: "0-1".into(),
            white_elo: Some(1800),
            black_elo: None,
            time_control: time_control(3, 0),
            termination: "normal".into(),
            end_text: "wily checkmated".into(),
            start_fen: None,
            variant: None,
            first_move_number: 1,
            first_move_white: true,
            moves: vec![
                RecordedMove {
                    san: "f3".into(),
                    comment: Some("book".into()),
                },
                RecordedMove {
                    san: "e5".into(),
                    comment: Some("0.8s".into()),
                },
                RecordedMove {
                    san: "g4".into(),
                    comment: Some(move_comment(Some(-35), None, 12, 1234)),
                },
                RecordedMove {
                    san: "Qh4#".into(),
                    comment: None,
                },
            ],
        }
    }

    #[test]
    fn pgn_has_every_tag_and_comments() {
        let p = rec().to_pgn();
        for t in [
            "[Event \"FICS rated blitz game\"]",
            "[Site \"freechess.org\"]",
            "[Date \"2026.11.22\"]",
            "[Round \"-\"]",
            "[White \"wily\"]",
            "[Black \"Bob \\\"the\\\" \\\\\"]",
            "[Result \"0-1\"]",
            "[WhiteElo \"1800\"]",
            "[BlackElo \"-\"]",
            "[TimeControl \"180+0\"]",
            "[Termination \"normal\"]",
        ] {
            assert!(p.contains(t), "missing {t} in\n{p}");
        }
        assert!(
            p.contains("1. f3 {book} 1... e5 {0.8s} 2. g4 {-0.35/12 1.2s} 2... Qh4# {wily checkmated}\n0-1"),
            "{p}"
        );
        assert!(p.ends_with("0-1\n\n"));
    }

    #[test]
    fn starting_with_black_and_fen() {
        let mut r = rec();
        r.start_fen = Some("8/8/8/8/8/8/8/K6k b - - 0 30".into());
        r.first_move_number = 30;
        r.first_move_white = false;
        r.moves = vec![
            RecordedMove {
                san: "Kg1".into(),
                comment: None,
            },
            RecordedMove {
                san: "Kb1".into(),
                comment: None,
            },
        ];
        let p = r.to_pgn();
        assert!(
            p.contains("[SetUp \"1\"]") && p.contains("[FEN \"8/8/8/8/8/8/8/K6k b - - 0 30\"]")
        );
        assert!(p.contains("30... Kg1 31. Kb1"), "{p}");
    }

    #[test]
    fn long_games_wrap_and_comments_cannot_break_out() {
        let mut r = rec();
        r.moves = (0..200)
            .map(|i| RecordedMove {
                san: "Nf3".into(),
                comment: Some(format!("x}} {i}")),
            })
            .collect();
        let p = r.to_pgn();
        assert!(p.lines().all(|l| l.len() < 80));
        assert!(!p.contains("x}"));
    }

    #[test]
    fn appends_and_logs() {
        let scratch = testkit::scratch::dir("record");
        // A logs folder that does not exist yet: appending makes it.
        let d = scratch.path().join("logs");
        let a = archive_path(&d);
        rec().append_to(&a).unwrap();
        rec().append_to(&a).unwrap();
        let text = std::fs::read_to_string(&a).unwrap();
        assert_eq!(text.matches("[Event ").count(), 2);
        let mut log = GameLog::open(&d, "20261122-010203", 7, "wily", "../../etc");
        log.line("d12 +0.35");
        let lp = log.path().to_path_buf();
        assert!(lp.starts_with(d.join("games")));
        assert!(
            lp.to_string_lossy().ends_with("g7-wily-etc.log"),
            "{}",
            lp.display()
        );
        drop(log);
        assert_eq!(std::fs::read_to_string(lp).unwrap(), "d12 +0.35\n");
    }

    #[test]
    fn search_comments_follow_the_view() {
        use config::PgnScores;
        use cozy_chess::Color;
        use engine::Score;
        let c = |s, side, v| search_comment(s, side, v, 12, 1500);
        // Black moved and stands better by half a pawn.
        assert_eq!(
            c(Score::Cp(50), Color::Black, PgnScores::Mover),
            "+0.50/12 1.5s"
        );
        assert_eq!(
            c(Score::Cp(50), Color::Black, PgnScores::White),
            "-0.50/12 1.5s"
        );
        assert_eq!(
            c(Score::Cp(50), Color::White, PgnScores::White),
            "+0.50/12 1.5s"
        );
        assert_eq!(
            c(Score::Mate(3), Color::Black, PgnScores::White),
            "-M3/12 1.5s"
        );
        assert_eq!(
            c(Score::Mate(3), Color::Black, PgnScores::Mover),
            "+M3/12 1.5s"
        );
    }

    #[test]
    fn time_controls() {
        assert_eq!(time_control(0, 0), "-");
        assert_eq!(time_control(5, 2), "300+2");
        assert_eq!(move_comment(None, Some(5), 20, 500), "+M5/20 0.5s");
        assert_eq!(move_comment(None, Some(-3), 20, 500), "-M3/20 0.5s");
    }
}
