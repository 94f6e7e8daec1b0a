//! The match PGN: every finished game appended (and flushed) as it ends, with the seven
//! tags, the time controls, the opening, `PlyCount`, `Termination` and a closing comment
//! saying exactly how the game ended. c-chess-cli's verbosity levels: 0 the tags and the
//! result only (for rating tools), 1 the moves too, 2 each engine move with
//! `{+0.35/18}` (score from the mover's side, depth), 3 (the default) with the time used
//! as well, `{+0.35/18 1.2s}`.

use super::config::{EngineSpec, PgnExtras, PgnSpec, Variant};
use super::game::GameRecord;
use super::openings::Opening;
use super::schedule::Job;
use chess::pgn::write_game_ending;
use std::fs::File;
use std::io::Write;

/// The open PGN file.
pub struct PgnOut {
    file: File,
    verbosity: u8,
    extras: PgnExtras,
}

/// The extras asked for, each as ` key=value` (nothing for what the engine did not say):
/// ` n=12345 sd=20 nps=1500000 hf=12 tb=0 tl=8.530s lat=2ms`. The latency is the runner's
/// measured time for the move less the engine's own last reported `time`.
pub fn extras_text(e: &super::game::EngineMove, x: PgnExtras) -> String {
    let mut s = String::new();
    let mut put = |on: bool, key: &str, v: Option<String>| {
        if let (true, Some(v)) = (on, v) {
            s.push_str(&format!(" {key}={v}"));
        }
    };
    put(x.nodes, "n", e.nodes.map(|v| v.to_string()));
    put(x.seldepth, "sd", e.extra.seldepth.map(|v| v.to_string()));
    put(x.nps, "nps", e.extra.nps.map(|v| v.to_string()));
    put(x.hashfull, "hf", e.extra.hashfull.map(|v| v.to_string()));
    put(x.tbhits, "tb", e.extra.tbhits.map(|v| v.to_string()));
    put(
        x.timeleft,
        "tl",
        e.left.map(|d| format!("{:.3}s", d.as_secs_f64())),
    );
    put(
        x.latency,
        "lat",
        e.extra.time_ms.map(|t| {
            let ms = e.used.as_millis() as i64 - t as i64;
            format!("{}ms", ms.max(0))
        }),
    );
    s
}

/// `+0.35/18 1.2s`, `-M3/30 0.05s`, or without the parts the engine did not give;
/// without `used`, only `+0.35/18`.
pub fn move_comment(
    score: Option<super::engine::Score>,
    depth: Option<u32>,
    used: Option<std::time::Duration>,
) -> String {
    let mut s = String::new();
    if let Some(sc) = score {
        s.push_str(&sc.to_string());
        if let Some(d) = depth {
            s.push_str(&format!("/{d}"));
        }
        s.push(' ');
    }
    let Some(used) = used else {
        return s.trim_end().to_string();
    };
    let secs = used.as_secs_f64();
    if secs >= 1.0 {
        s.push_str(&format!("{secs:.1}s"));
    } else {
        s.push_str(&format!("{secs:.3}s"));
    }
    s
}

/// Everything the PGN of one game needs besides the game.
pub struct GameInfo<'a> {
    pub event: &'a str,
    pub job: &'a Job,
    pub white: &'a EngineSpec,
    pub black: &'a EngineSpec,
    pub opening: &'a Opening,
    pub variant: Variant,
    /// Local date the game started, `YYYY.MM.DD`.
    pub date: &'a str,
}

/// The PGN text of one game.
pub fn game_text(info: &GameInfo, record: &GameRecord, verbosity: u8, extras: PgnExtras) -> String {
    let mut tags: Vec<(String, String)> = vec![
        ("Event".into(), info.event.into()),
        ("Site".into(), "?".into()),
        ("Date".into(), info.date.into()),
        ("Round".into(), (info.job.number + 1).to_string()),
        ("White".into(), info.white.name.clone()),
        ("Black".into(), info.black.name.clone()),
    ];
    if info.variant == Variant::Chess960 {
        tags.push(("Variant".into(), "Chess960".into()));
    }
    let (wl, bl) = (info.white.limits.to_string(), info.black.limits.to_string());
    if wl == bl {
        tags.push(("TimeControl".into(), wl));
    } else {
        tags.push(("WhiteTimeControl".into(), wl));
        tags.push(("BlackTimeControl".into(), bl));
    }
    if !info.opening.name.is_empty() {
        tags.push(("Opening".into(), info.opening.name.clone()));
    }
    tags.push(("PlyCount".into(), record.moves.len().to_string()));
    tags.push(("Termination".into(), record.end.kind.tag().into()));
    let moves: Vec<_> = if verbosity == 0 {
        Vec::new()
    } else {
        record.moves.iter().map(|m| m.mv).collect()
    };
    let comments: Vec<Option<String>> = if verbosity <= 1 {
        Vec::new()
    } else {
        record
            .moves
            .iter()
            .map(|m| {
                if m.book {
                    return Some("book".to_string());
                }
                m.engine.as_ref().and_then(|e| {
                    let used = (verbosity >= 3).then_some(e.used);
                    let mut c = move_comment(e.score, e.depth, used);
                    c.push_str(&extras_text(e, extras));
                    Some(c.trim_start().to_string()).filter(|c| !c.is_empty())
                })
            })
            .collect()
    };
    write_game_ending(
        &tags,
        &record.start,
        &moves,
        &comments,
        record.end.outcome.pgn(),
        (verbosity > 0).then_some(record.end.reason.as_str()),
    )
}

/// The game's final position as an EPD line: the four position fields, the move
/// counters as `hmvc`/`fmvn`, and the players and result as `c0`.
pub fn final_epd(info: &GameInfo, record: &GameRecord) -> String {
    let mut board = record.start.clone();
    for m in &record.moves {
        if board.try_play(m.mv).is_err() {
            break;
        }
    }
    let fen = board.to_string();
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let (pos, hm, fm) = match fields.as_slice() {
        [a, b, c, d, h, f, ..] => (format!("{a} {b} {c} {d}"), *h, *f),
        _ => (fen.clone(), "0", "1"),
    };
    format!(
        "{pos} hmvc {hm}; fmvn {fm}; c0 \"{} - {}, {}\";\n",
        info.white.name.replace('"', "'"),
        info.black.name.replace('"', "'"),
        record.end.outcome.pgn()
    )
}

/// The EPD file of final positions (`-epdout`), appended to game by game.
pub struct EpdOut {
    file: File,
}

impl EpdOut {
    pub fn open(path: &std::path::Path) -> Result<EpdOut, String> {
        let file = File::options()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot open EPD file {}: {e}", path.display()))?;
        Ok(EpdOut { file })
    }

    /// Appends one game's final position.
    pub fn write(&mut self, info: &GameInfo, record: &GameRecord) -> std::io::Result<()> {
        self.file.write_all(final_epd(info, record).as_bytes())
    }

    pub fn sync(&mut self) {
        let _ = self.file.sync_data();
    }
}

impl PgnOut {
    /// Opens the file for appending.
    pub fn open(spec: &PgnSpec) -> Result<PgnOut, String> {
        let file = File::options()
            .create(true)
            .append(true)
            .open(&spec.path)
            .map_err(|e| format!("cannot open PGN file {}: {e}", spec.path.display()))?;
        Ok(PgnOut {
            file,
            verbosity: spec.verbosity,
            extras: spec.extras,
        })
    }

    /// Appends one game in a single write.
    pub fn write(&mut self, info: &GameInfo, record: &GameRecord) -> std::io::Result<()> {
        let text = game_text(info, record, self.verbosity, self.extras);
        self.file.write_all(text.as_bytes())?;
        self.file.flush()
    }

    /// Flushes the file to disk (at the end of the match).
    pub fn sync(&mut self) {
        let _ = self.file.sync_data();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Score;
    use std::time::Duration;

    #[test]
    fn extras_as_asked() {
        use crate::engine::InfoExtra;
        let e = crate::game::EngineMove {
            score: Some(Score::Cp(10)),
            depth: Some(9),
            used: Duration::from_millis(105),
            nodes: Some(12345),
            extra: InfoExtra {
                seldepth: Some(14),
                nps: Some(117_000),
                hashfull: Some(3),
                tbhits: None,
                time_ms: Some(101),
            },
            left: Some(Duration::from_millis(8530)),
            pv: String::new(),
        };
        assert_eq!(extras_text(&e, PgnExtras::default()), "");
        let mut all = PgnExtras::default();
        for k in [
            "nodes", "seldepth", "nps", "hashfull", "tbhits", "timeleft", "latency",
        ] {
            assert!(all.set(k, true));
        }
        assert!(!all.set("pv", true));
        assert_eq!(
            extras_text(&e, all),
            " n=12345 sd=14 nps=117000 hf=3 tl=8.530s lat=4ms"
        );
    }

    #[test]
    fn comments() {
        assert_eq!(
            move_comment(
                Some(Score::Cp(35)),
                Some(18),
                Some(Duration::from_millis(1200))
            ),
            "+0.35/18 1.2s"
        );
        assert_eq!(
            move_comment(Some(Score::Mate(-3)), None, Some(Duration::from_secs(12))),
            "-M3 12.0s"
        );
        assert_eq!(
            move_comment(None, Some(4), Some(Duration::from_millis(5))),
            "0.005s"
        );
    }
}
