//! Whisper and kibitz: what wily says about its searches at each level (1-6, as Crafty
//! defines them), with `noise`, a rate limit, scores from White's side and PVs in SAN
//! with move numbers.
//!
//! - 1: mate announcements only;
//! - 2: adds the time, score and depth of each move's search;
//! - 3: adds the principal variation;
//! - 4: adds book information (the book move and the candidates);
//! - 5: the PV after every finished iteration as well;
//! - 6: nearly everything: nodes, speed, selective depth, hash use, fail-highs/lows.

use chess::san::line_to_san;
use config::{ObserveSection, TalkSection, WatchSection};
use cozy_chess::{Board, Color, Move};
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// Whisper goes to observers; kibitz to observers and players.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Channel {
    Whisper,
    Kibitz,
}

impl Channel {
    fn command(self) -> &'static str {
        match self {
            Channel::Whisper => "whisper",
            Channel::Kibitz => "kibitz",
        }
    }
}

/// A search score from the side to move at the root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TalkScore {
    Cp(i32),
    /// Mate in n moves (negative: being mated).
    Mate(i32),
}

/// Bound of an iteration's score (for level 6 fail-high/low remarks).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TalkBound {
    Exact,
    Lower,
    Upper,
}

/// What a search reported, in the form talk needs.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub depth: u32,
    pub seldepth: u32,
    pub score: TalkScore,
    pub bound: TalkBound,
    pub nodes: u64,
    pub nps: u64,
    pub time: Duration,
    /// Permille.
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

/// A score from White's point of view: `+0.35`, `-1.20`, `+M5`, `-M3`.
pub fn white_score(root: &Board, score: TalkScore) -> String {
    let flip = root.side_to_move() == Color::Black;
    match score {
        TalkScore::Cp(cp) => {
            let v = if flip { -cp } else { cp };
            format!(
                "{}{:.2}",
                if v >= 0 { "+" } else { "-" },
                v.unsigned_abs() as f64 / 100.0
            )
        }
        TalkScore::Mate(n) => {
            let white_mates = (n > 0) != flip;
            format!(
                "{}M{}",
                if white_mates { "+" } else { "-" },
                n.unsigned_abs()
            )
        }
    }
}

/// A line of moves in SAN with move numbers, from `root`: `23. Nf3 Nc6 24. Bb5` or
/// `23... Nc6 24. Bb5`. Stops at the first move that is not legal.
pub fn pv_text(root: &Board, pv: &[Move]) -> String {
    let sans = line_to_san(root, pv);
    let mut out = String::new();
    let mut number = root.fullmove_number();
    let mut white = root.side_to_move() == Color::White;
    for (i, san) in sans.iter().enumerate() {
        if !out.is_empty() {
            out.push(' ');
        }
        if white {
            out.push_str(&format!("{number}. "));
        } else if i == 0 {
            out.push_str(&format!("{number}... "));
        }
        out.push_str(san);
        if !white {
            number += 1;
        }
        white = !white;
    }
    out
}

fn seconds(d: Duration) -> String {
    format!("{:.1}s", d.as_secs_f64())
}

/// Keeps at most `per_minute` messages in any sliding minute.
#[derive(Debug, Clone)]
struct RateLimit {
    per_minute: usize,
    sent: VecDeque<Instant>,
}

impl RateLimit {
    fn allow(&mut self, now: Instant) -> bool {
        while let Some(&t) = self.sent.front() {
            if now.saturating_duration_since(t) >= Duration::from_secs(60) {
                self.sent.pop_front();
            } else {
                break;
            }
        }
        if self.sent.len() >= self.per_minute {
            return false;
        }
        self.sent.push_back(now);
        true
    }
}

/// The talk levels in force for a game: read from the settings each time a line may be
/// said, so an operator's `whisper N`, `kibitz N` or `noise N` (or a reload) takes effect
/// at the next line. Kept nowhere else.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Levels {
    /// Whisper level 0-6.
    pub whisper: u8,
    /// Kibitz level 0-6.
    pub kibitz: u8,
    /// Nothing is said about a search below this many nodes.
    pub noise: u64,
}

impl Levels {
    /// The highest level on either channel.
    pub fn level(&self) -> u8 {
        self.whisper.max(self.kibitz)
    }

    /// Whether a search of `nodes` nodes is worth a word (`noise`).
    pub fn heard(&self, nodes: u64) -> bool {
        nodes >= self.noise
    }

    /// wily's own game: `[talk]`'s levels; an opponent in `lists/AK` (`autokibitz`) is
    /// kibitzed at least at `talk.autokibitz_level`.
    pub fn played(talk: &TalkSection, autokibitz: bool) -> Levels {
        Levels {
            whisper: talk.whisper,
            kibitz: if autokibitz {
                talk.kibitz.max(talk.autokibitz_level)
            } else {
                talk.kibitz
            },
            noise: talk.noise,
        }
    }

    /// A game observed for `[observe]`: its levels, `[talk]`'s noise.
    pub fn observed(observe: &ObserveSection, talk: &TalkSection) -> Levels {
        Levels {
            whisper: observe.whisper,
            kibitz: observe.kibitz,
            noise: talk.noise,
        }
    }

    /// A game watched for `[watch]`: its levels, `[talk]`'s noise.
    pub fn watched(watch: &WatchSection, talk: &TalkSection) -> Levels {
        Levels {
            whisper: watch.whisper,
            kibitz: watch.kibitz,
            noise: talk.noise,
        }
    }

    fn channels(&self) -> [(Channel, u8); 2] {
        [
            (Channel::Whisper, self.whisper.min(6)),
            (Channel::Kibitz, self.kibitz.min(6)),
        ]
    }
}

/// Produces the whisper/kibitz commands for one game (played or observed) at the
/// [`Levels`] its caller reads when a line is due, within the game's rate limit.
#[derive(Debug, Clone)]
pub struct Talker {
    limit: RateLimit,
    dropped: u64,
}

impl Talker {
    pub fn new(per_minute: u32) -> Talker {
        Talker {
            limit: RateLimit {
                per_minute: per_minute.max(1) as usize,
                sent: VecDeque::new(),
            },
            dropped: 0,
        }
    }

    /// Messages dropped by the rate limit so far.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Emits `text` on every channel whose level is at least `min_level`.
    fn say(
        &mut self,
        now: Instant,
        levels: Levels,
        min_level: u8,
        text: &str,
        out: &mut Vec<String>,
    ) {
        for (ch, level) in levels.channels() {
            if level >= min_level && !text.is_empty() {
                if self.limit.allow(now) {
                    out.push(format!("{} {}", ch.command(), text));
                } else {
                    self.dropped += 1;
                }
            }
        }
    }

    /// The text for a finished search at `level` (what `on_move` says), or `None` when
    /// the level says nothing about it. Exposed for the console and tests.
    pub fn move_text(level: u8, root: &Board, r: &Report) -> Option<String> {
        if level == 0 {
            return None;
        }
        if level == 1 {
            return match r.score {
                TalkScore::Mate(n) if n > 0 => Some(format!("mate in {n}")),
                TalkScore::Mate(n) => Some(format!("mated in {}", n.unsigned_abs())),
                TalkScore::Cp(_) => None,
            };
        }
        let mut s = format!(
            "d{} {} {}",
            r.depth,
            white_score(root, r.score),
            seconds(r.time)
        );
        if level >= 6 {
            s.push_str(&format!(
                " sd{} n={} nps={} hash={}.{}%",
                r.seldepth,
                r.nodes,
                r.nps,
                r.hashfull / 10,
                r.hashfull % 10
            ));
        }
        if level >= 3 && !r.pv.is_empty() {
            s.push_str(" pv ");
            s.push_str(&pv_text(root, &r.pv));
        }
        Some(s)
    }

    /// After the search behind wily's move (or an observed position's analysis) ends.
    pub fn on_move(
        &mut self,
        now: Instant,
        levels: Levels,
        root: &Board,
        r: &Report,
    ) -> Vec<String> {
        let mut out = Vec::new();
        if !levels.heard(r.nodes) {
            return out;
        }
        for (ch, level) in levels.channels() {
            let Some(text) = Self::move_text(level, root, r) else {
                continue;
            };
            if self.limit.allow(now) {
                out.push(format!("{} {}", ch.command(), text));
            } else {
                self.dropped += 1;
            }
        }
        out
    }

    /// After each finished iteration (levels 5 and 6), and on fail-high/low (level 6).
    pub fn on_iteration(
        &mut self,
        now: Instant,
        levels: Levels,
        root: &Board,
        r: &Report,
    ) -> Vec<String> {
        let mut out = Vec::new();
        if !levels.heard(r.nodes) || levels.level() < 5 {
            return out;
        }
        let text = match r.bound {
            TalkBound::Exact => format!(
                "d{} {} {} {}",
                r.depth,
                white_score(root, r.score),
                seconds(r.time),
                pv_text(root, &r.pv)
            ),
            TalkBound::Lower | TalkBound::Upper => {
                if levels.level() < 6 {
                    return out;
                }
                let first = pv_text(root, r.pv.get(..1).unwrap_or(&[]));
                format!(
                    "d{} {} {} ({})",
                    r.depth,
                    first,
                    if r.bound == TalkBound::Lower {
                        "fails high"
                    } else {
                        "fails low"
                    },
                    white_score(root, r.score)
                )
            }
        };
        let level = if r.bound == TalkBound::Exact { 5 } else { 6 };
        self.say(now, levels, level, &text, &mut out);
        out
    }

    /// A book move (level 4+): the move and the candidates (`e4 45%, d4 30%`).
    pub fn on_book(
        &mut self,
        now: Instant,
        levels: Levels,
        root: &Board,
        mv: Move,
        candidates: &str,
    ) -> Vec<String> {
        let mut out = Vec::new();
        let mut text = format!("book {}", pv_text(root, &[mv]));
        if !candidates.is_empty() {
            text.push_str(&format!(" ({candidates})"));
        }
        self.say(now, levels, 4, &text, &mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::{move_from_uci, parse_fen};

    fn report(board: &Board, score: TalkScore, nodes: u64, pv: &[&str]) -> Report {
        let mut b = board.clone();
        let mut moves = Vec::new();
        for m in pv {
            let mv = move_from_uci(&b, m, false).unwrap();
            b.play(mv);
            moves.push(mv);
        }
        Report {
            depth: 12,
            seldepth: 20,
            score,
            bound: TalkBound::Exact,
            nodes,
            nps: 1_000_000,
            time: Duration::from_millis(1234),
            hashfull: 123,
            pv: moves,
        }
    }

    #[test]
    fn pv_numbers_for_both_sides() {
        let b = Board::default();
        let r = report(&b, TalkScore::Cp(20), 1, &["e2e4", "e7e5", "g1f3"]);
        assert_eq!(pv_text(&b, &r.pv), "1. e4 e5 2. Nf3");
        let black =
            parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
        let r = report(&black, TalkScore::Cp(20), 1, &["e7e5", "g1f3"]);
        assert_eq!(pv_text(&black, &r.pv), "1... e5 2. Nf3");
    }

    #[test]
    fn scores_are_from_whites_side() {
        let black = parse_fen("4k3/8/8/8/8/8/8/4K2R b K - 0 40").unwrap();
        assert_eq!(white_score(&black, TalkScore::Cp(-35)), "+0.35");
        assert_eq!(white_score(&black, TalkScore::Cp(120)), "-1.20");
        assert_eq!(white_score(&black, TalkScore::Mate(3)), "-M3");
        assert_eq!(white_score(&black, TalkScore::Mate(-2)), "+M2");
        assert_eq!(white_score(&Board::default(), TalkScore::Cp(-5)), "-0.05");
    }

    #[test]
    fn levels_one_to_three() {
        let b = Board::default();
        let r = report(&b, TalkScore::Cp(35), 10_000, &["e2e4", "e7e5"]);
        assert_eq!(Talker::move_text(1, &b, &r), None, "level 1: mates only");
        assert_eq!(Talker::move_text(2, &b, &r).unwrap(), "d12 +0.35 1.2s");
        assert_eq!(
            Talker::move_text(3, &b, &r).unwrap(),
            "d12 +0.35 1.2s pv 1. e4 e5"
        );
        let m = report(&b, TalkScore::Mate(4), 10_000, &["e2e4"]);
        assert_eq!(Talker::move_text(1, &b, &m).unwrap(), "mate in 4");
        let six = Talker::move_text(6, &b, &r).unwrap();
        assert!(
            six.contains("n=10000") && six.contains("hash=12.3%"),
            "{six}"
        );
    }

    #[test]
    fn channels_levels_and_noise() {
        let b = Board::default();
        let now = Instant::now();
        let r = report(&b, TalkScore::Cp(35), 10_000, &["e2e4"]);
        let lv = |whisper, kibitz, noise| Levels {
            whisper,
            kibitz,
            noise,
        };
        let mut t = Talker::new(100);
        let three_two = lv(3, 2, 5_000);
        assert_eq!(
            t.on_move(now, three_two, &b, &r),
            vec!["whisper d12 +0.35 1.2s pv 1. e4", "kibitz d12 +0.35 1.2s"]
        );
        let quiet = report(&b, TalkScore::Cp(35), 4_999, &["e2e4"]);
        assert!(
            t.on_move(now, three_two, &b, &quiet).is_empty(),
            "noise keeps it silent"
        );
        assert!(
            t.on_iteration(now, three_two, &b, &r).is_empty(),
            "iterations only from level 5"
        );
        let mut five = Talker::new(100);
        assert_eq!(
            five.on_iteration(now, lv(5, 0, 0), &b, &r),
            vec!["whisper d12 +0.35 1.2s 1. e4"]
        );
        let mut fh = r.clone();
        fh.bound = TalkBound::Lower;
        assert!(
            five.on_iteration(now, lv(5, 0, 0), &b, &fh).is_empty(),
            "fail highs from level 6"
        );
        let mut six = Talker::new(100);
        assert_eq!(
            six.on_iteration(now, lv(6, 0, 0), &b, &fh),
            vec!["whisper d12 1. e4 fails high (+0.35)"]
        );
    }

    #[test]
    fn autokibitz_raises_the_kibitz_level_of_played_games_only() {
        let t = TalkSection {
            whisper: 1,
            kibitz: 0,
            noise: 7,
            autokibitz_level: 3,
            ..TalkSection::default()
        };
        let plain = Levels::played(&t, false);
        assert_eq!((plain.whisper, plain.kibitz, plain.noise), (1, 0, 7));
        assert_eq!(Levels::played(&t, true).kibitz, 3);
        let loud = TalkSection {
            kibitz: 5,
            ..t.clone()
        };
        assert_eq!(Levels::played(&loud, true).kibitz, 5, "never lowers it");
        let o = ObserveSection {
            whisper: 4,
            kibitz: 2,
            ..ObserveSection::default()
        };
        assert_eq!(
            Levels::observed(&o, &t),
            Levels {
                whisper: 4,
                kibitz: 2,
                noise: 7
            }
        );
        assert!(Levels::observed(&o, &t).heard(7) && !Levels::observed(&o, &t).heard(6));
    }

    #[test]
    fn book_info_from_level_four() {
        let b = Board::default();
        let now = Instant::now();
        let e4 = move_from_uci(&b, "e2e4", false).unwrap();
        let lv = |whisper, kibitz| Levels {
            whisper,
            kibitz,
            noise: 0,
        };
        assert!(Talker::new(100)
            .on_book(now, lv(3, 3), &b, e4, "e4 50%")
            .is_empty());
        assert_eq!(
            Talker::new(100).on_book(now, lv(4, 0), &b, e4, "e4 50%, d4 50%"),
            vec!["whisper book 1. e4 (e4 50%, d4 50%)"]
        );
    }

    #[test]
    fn rate_limit_drops_the_excess() {
        let b = Board::default();
        let r = report(&b, TalkScore::Cp(1), 10, &["e2e4"]);
        let mut t = Talker::new(3);
        let two = Levels {
            whisper: 2,
            kibitz: 0,
            noise: 0,
        };
        let now = Instant::now();
        let n: usize = (0..10).map(|_| t.on_move(now, two, &b, &r).len()).sum();
        assert_eq!(n, 3);
        assert_eq!(t.dropped(), 7);
        let later = now + Duration::from_secs(61);
        assert_eq!(t.on_move(later, two, &b, &r).len(), 1);
    }
}
