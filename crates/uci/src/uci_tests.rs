//! Tests of the UCI front end: `go` and `position` parsing, Chess960 castling, the option
//! listing (`uci` at the table's defaults, `ucifull` and `--full` with the tunables),
//! setting the tunables by name, bad input, and a session that plays a move.

use super::*;

#[test]
fn go_arguments_parse_into_limits() {
    let b = Board::default();
    let args: Vec<&str> =
        "wtime 1000 btime -5 winc 10 binc 20 movestogo 7 depth 9 nodes 500 searchmoves e2e4 g1f3 ponder"
            .split(' ')
            .collect();
    let (l, sm) = parse_go(&b, &args, false);
    assert_eq!(l.wtime, Some(Duration::from_millis(1000)));
    assert_eq!(l.btime, Some(Duration::ZERO));
    assert_eq!(l.winc, Some(Duration::from_millis(10)));
    assert_eq!(l.binc, Some(Duration::from_millis(20)));
    assert_eq!(l.movestogo, Some(7));
    assert_eq!(l.depth, Some(9));
    assert_eq!(l.nodes, Some(500));
    assert!(l.ponder && !l.infinite);
    assert_eq!(sm.len(), 2);
    let (l, _) = parse_go(&b, &["infinite", "movetime", "junk"], false);
    assert!(l.infinite);
    assert_eq!(l.movetime, None);
}

#[test]
fn position_command_applies_moves_and_converts_castling() {
    let args: Vec<&str> = "startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1"
        .split(' ')
        .collect();
    let (b, h, warn) = parse_position(&args, false).expect("parses");
    assert!(warn.is_none());
    assert_eq!(h.len(), 7);
    assert_eq!(
        chess::to_fen(&b),
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4"
    );
    let (b2, h2, warn) = parse_position(&["startpos", "moves", "e2e4", "e2e5"], false)
        .expect("parses up to the bad move");
    assert!(warn.is_some());
    assert_eq!(h2.len(), 1);
    assert_ne!(b2, Board::default());
    assert!(parse_position(&["fen", "bad"], false).is_err());
    assert!(parse_position(&[], false).is_err());
}

/// A buffer that collects a session's output.
struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Sink {
    fn new() -> Sink {
        Sink(Arc::new(Mutex::new(Vec::new())))
    }

    fn output(&self) -> Output {
        Arc::new(Mutex::new(Box::new(Sink(Arc::clone(&self.0)))))
    }

    fn text(&self) -> String {
        let bytes = self.0.lock().unwrap_or_else(|e| e.into_inner()).clone();
        String::from_utf8(bytes).expect("utf8")
    }
}

fn run_session(input: &str) -> String {
    let buf = Sink::new();
    run_io(Box::new(input.as_bytes()), buf.output(), None).expect("session runs");
    buf.text()
}

#[test]
fn uci_lists_the_table_rows_at_their_defaults_and_then_their_values() {
    let fresh = run_session("uci\nisready\n");
    let listed: Vec<&str> = fresh
        .lines()
        .filter(|l| l.starts_with("option name "))
        .collect();
    let rows: Vec<String> = OPTIONS
        .iter()
        .filter(|o| o.uci.is_some())
        .map(|o| o.uci_line(&o.default_value()))
        .collect();
    assert_eq!(listed, rows, "{fresh}");
    // After setoption the listing shows the values in use.
    let set = run_session(
        "setoption name Threads value 3\nsetoption name Contempt value 20\n\
         setoption name Pawn Hash value 2\nsetoption name UCI_Chess960 value true\nuci\n",
    );
    for line in [
        "option name Threads type spin default 3 min 1 max 256",
        "option name Contempt type spin default 20 min -500 max 500",
        "option name Pawn Hash type spin default 2 min 1 max 1024",
        "option name UCI_Chess960 type check default true",
    ] {
        assert!(set.contains(line), "{line}\n{set}");
    }
}

#[test]
fn chess960_castling_is_king_takes_rook_both_ways() {
    // Scharnagl position with the king on f1 and rooks on b1 and g1, all castling open.
    let fen = "1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3KR1 w GBgb - 0 1";
    let text = run_session(&format!(
        "setoption name UCI_Chess960 value true\nposition fen {fen} moves f1g1\nd\nquit\n"
    ));
    // White castled short: king g1, rook f1.
    assert!(
        text.contains("1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3RK1 b"),
        "{text}"
    );
    let mut b = parse_fen(fen).expect("fen");
    let castle = move_from_uci(&b, "f1g1", true).expect("castling");
    assert_eq!(move_to_uci(&b, castle, true), "f1g1");
    b.play(castle);
    assert!(b.castle_rights(cozy_chess::Color::White).short.is_none());
}

/// The node count of the last `info ... nodes N` line.
fn last_nodes(text: &str) -> u64 {
    text.lines()
        .rev()
        .filter_map(|l| l.split(" nodes ").nth(1))
        .find_map(|rest| rest.split_whitespace().next()?.parse().ok())
        .expect("an info line with nodes")
}

#[test]
fn search_constants_are_listed_set_by_name_and_change_the_search() {
    let go = "position fen r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4\n\
              go depth 8\nisready\n";
    // `uci` leaves them out, `ucifull` and `uci` under `--full` list them.
    let plain = run_session(&format!("uci\n{go}"));
    let full = run_session("ucifull\nisready\n");
    let buf = Sink::new();
    run_full(
        Box::new("uci\nisready\n".as_bytes()),
        buf.output(),
        None,
        true,
    )
    .expect("session runs");
    let flag = buf.text();
    for t in TUNABLES {
        let line = format!(
            "option name {} type spin default {} min {} max {}",
            t.name, t.default, t.min, t.max
        );
        assert!(!plain.contains(&line), "{line}");
        assert!(full.contains(&line), "{line}");
        assert!(flag.contains(&line), "{line}");
    }
    // Both listings end in uciok after the user options, the tunables last.
    let user = |t: &str| t.lines().filter(|l| l.starts_with("option name ")).count();
    assert_eq!(user(&full), user(&plain) + TUNABLES.len(), "{full}");
    assert!(full.contains("uciok") && flag.contains("uciok"));
    // The defaults by name are the defaults.
    let default = |n: &str| TUNABLES.iter().find(|t| t.name == n).map(|t| t.default);
    let (lmr_div, rfp) = (default("lmr_div").unwrap(), default("rfp_margin").unwrap());
    let same = run_session(&format!(
        "setoption name lmr_div value {lmr_div}\nsetoption name RFP_MARGIN value {rfp}\n{go}"
    ));
    assert_eq!(last_nodes(&plain), last_nodes(&same));
    let changed = run_session(&format!(
        "setoption name lmr_div value 150\nsetoption name rfp_margin value 60\n{go}"
    ));
    assert!(!changed.contains("unknown option"), "{changed}");
    assert_ne!(last_nodes(&plain), last_nodes(&changed));
    // Out of range is clamped, not refused; a bad value is reported.
    let odd = run_session(
        "setoption name rfp_margin value 99999\nsetoption name rfp_margin value x\nisready\n",
    );
    assert!(
        odd.contains("unknown option or bad value: rfp_margin x"),
        "{odd}"
    );
}

#[test]
fn bad_input_is_reported_not_fatal() {
    let text = run_session(
        "position fen nonsense\nsetoption name Hash value lots\nfoo\ngo perft 2\nisready\nquit\n",
    );
    assert!(text.contains("info string bad FEN"));
    assert!(text.contains("info string unknown option or bad value"));
    assert!(text.contains("info string unknown command 'foo'"));
    assert!(text.contains("Nodes searched: 400"));
    assert!(text.contains("readyok"));
}

#[test]
fn session_answers_and_plays_a_move() {
    let text = run_session("uci\nisready\nposition startpos moves e2e4\ngo depth 4\nisready\n");
    assert!(text.contains("uciok"));
    assert!(text.contains("readyok"));
    assert!(text.contains("info depth 1 "));
    let best = text
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .expect("a bestmove line");
    let mv = best.split_whitespace().next().expect("move");
    let mut b = Board::default();
    b.play("e2e4".parse().expect("move"));
    assert!(
        move_from_uci(&b, mv, false).is_ok(),
        "bestmove {mv} is legal"
    );
}

#[test]
fn a_final_info_line_is_printed_only_when_the_last_line_disagrees() {
    let root = Board::default();
    let e4: Move = "e2e4".parse().expect("move");
    let d4: Move = "d2d4".parse().expect("move");
    let e5: Move = "e7e5".parse().expect("move");
    let r = SearchResult {
        best: Some(e4),
        ponder: Some(e5),
        score: engine::Score::Cp(31),
        depth: 9,
        nodes: 2000,
        time: Duration::from_millis(4),
        pv: vec![d4],
    };
    assert_eq!(final_info_line(&root, &r, Some(e4), false), None);
    let line = final_info_line(&root, &r, Some(d4), false).expect("a line");
    assert_eq!(
        line,
        "info depth 9 score cp 31 nodes 2000 nps 500000 time 4 pv e2e4 e7e5"
    );
    let none = SearchResult { best: None, ..r };
    assert_eq!(final_info_line(&root, &none, None, false), None);
}

#[test]
fn the_last_main_line_before_bestmove_starts_with_the_move_played() {
    // Node-limited searches stop inside iterations, where the best move can change
    // before the line is reported; every bestmove must follow a line that agrees.
    let mut script = String::from("uci\nsetoption name Hash value 4\n");
    for (i, fen) in [
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        "r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10",
        "8/5pk1/6p1/8/3R4/6P1/5PKP/2r5 b - - 0 40",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    ]
    .iter()
    .enumerate()
    {
        for nodes in [300 + 97 * i, 1100 + 31 * i, 2000, 3333] {
            script.push_str(&format!("position fen {fen}\ngo nodes {nodes}\nisready\n"));
        }
    }
    let text = run_session(&script);
    let mut last_head: Option<String> = None;
    let mut checked = 0;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("info ") {
            let words: Vec<&str> = rest.split_whitespace().collect();
            let multipv = words
                .iter()
                .position(|w| *w == "multipv")
                .and_then(|i| words.get(i + 1))
                .copied()
                .unwrap_or("1");
            if let Some(i) = words.iter().position(|w| *w == "pv") {
                if multipv == "1" {
                    last_head = words.get(i + 1).map(|s| s.to_string());
                }
            }
        } else if let Some(rest) = line.strip_prefix("bestmove ") {
            let best = rest.split_whitespace().next().expect("move").to_string();
            assert_eq!(last_head.as_deref(), Some(best.as_str()), "{text}");
            last_head = None;
            checked += 1;
        }
    }
    assert_eq!(checked, 16, "{text}");
}

#[test]
fn currmove_lines_wait_for_the_first_second() {
    let root = Board::default();
    let mut rm = RootMoveInfo {
        depth: 12,
        number: 4,
        total: 20,
        mv: "g1f3".parse().expect("move"),
        nodes: 0,
        time: CURRMOVE_AFTER - Duration::from_millis(1),
    };
    assert_eq!(currmove_line(&root, &rm, false), None);
    rm.time = CURRMOVE_AFTER;
    assert_eq!(
        currmove_line(&root, &rm, false).as_deref(),
        Some("info depth 12 currmove g1f3 currmovenumber 4")
    );
}

#[test]
fn a_long_search_tells_its_root_moves_and_a_short_one_does_not() {
    let legal: Vec<String> = {
        let b = Board::default();
        let mut v = Vec::new();
        b.generate_moves(|ms| {
            v.extend(ms.into_iter().map(|m| move_to_uci(&b, m, false)));
            false
        });
        v
    };
    let short = run_session("position startpos\ngo depth 3\nisready\n");
    assert!(
        short.contains("bestmove") && !short.contains("currmove"),
        "{short}"
    );
    let long = run_session("position startpos\ngo movetime 1600\nisready\n");
    let current: Vec<&str> = long.lines().filter(|l| l.contains(" currmove ")).collect();
    assert!(!current.is_empty(), "{long}");
    for l in current {
        let w: Vec<&str> = l.split_whitespace().collect();
        assert_eq!(
            (w[0], w[1], w[3], w[5]),
            ("info", "depth", "currmove", "currmovenumber")
        );
        assert!(legal.contains(&w[4].to_string()), "{l}");
        let n: usize = w[6].parse().expect("a number");
        assert!((1..=20).contains(&n), "{l}");
    }
}

#[test]
fn uci_says_which_evaluation_a_fresh_session_uses() {
    let text = run_session("uci\nisready\n");
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("info string eval "))
        .expect("an eval line");
    // The embedded network by its checksum when the build has one, else by hand.
    match engine::nnue::embedded_checksum() {
        Some(sum) => assert!(line.ends_with(&format!("checksum {sum:016x}")), "{line}"),
        None => assert_eq!(line, "hce"),
    }
    // A network file named by EvalFile is in use, by its own checksum, after Eval=nnue.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("n.wnn");
    let net = engine::nnue::Network::zeroed(engine::nnue::Arch {
        hidden: 32,
        activation: engine::nnue::Activation::SCRelu,
        buckets: 1,
    });
    net.save(&path).unwrap();
    let text = run_session(&format!(
        "setoption name EvalFile value {}\nsetoption name Eval value nnue\nuci\n",
        path.display()
    ));
    let want = format!("checksum {:016x}", net.file_checksum());
    assert!(text.contains(&want), "{text}");
}
