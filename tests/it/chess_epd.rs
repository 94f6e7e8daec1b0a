//! EPD reading: operation syntax corner cases and every record of the shared suites
//! (`wac`, `bk`, `perftsuite`, the 8-move openings file).

use crate::shared_data;

use std::fs::File;
use std::io::BufReader;
use wily::chess::epd::{parse_epd_line, EpdError, EpdReader};

#[test]
fn operation_syntax() {
    let r = parse_epd_line(
        "r1b1k2r/pp3ppp/8/8/8/8/PPP2PPP/R3K2R w KQkq - bm O-O Rd1; am Kf1; id \"a; b\"; c0 \"x y\"",
    )
    .expect("line");
    assert_eq!(r.id(), Some("a; b"));
    assert_eq!(r.comment(), Some("x y"));
    assert_eq!(r.best_moves().len(), 2);
    assert_eq!(r.avoid_moves().len(), 1);
    let again = parse_epd_line(&r.to_line()).expect("re-read");
    assert_eq!(again, r);

    let p = parse_epd_line("4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66 ;D3 1197").expect("perft");
    assert_eq!(
        p.perft_counts().expect("counts"),
        vec![(1, 15), (2, 66), (3, 1197)]
    );
    let c = parse_epd_line("4k3/8/8/8/8/8/8/4K2R b K - hmvc 7; fmvn 33;").expect("counters");
    assert_eq!(c.board.halfmove_clock(), 7);
    assert_eq!(c.board.fullmove_number(), 33);

    assert_eq!(parse_epd_line("   "), Err(EpdError::Blank));
    assert_eq!(parse_epd_line("# comment"), Err(EpdError::Blank));
    assert!(matches!(
        parse_epd_line("4k3/8/8/8/8/8/8/4K3 w"),
        Err(EpdError::MissingFields(2))
    ));
    assert!(matches!(
        parse_epd_line("4k3/8/8/8/8/8/8/4K3 w - - id \"open"),
        Err(EpdError::UnterminatedString)
    ));
    assert!(matches!(
        parse_epd_line("4k3/8/8/8/8/8/8/4X3 w - - id \"x\";"),
        Err(EpdError::Fen(_))
    ));
    assert!(matches!(
        parse_epd_line("4k3/8/8/8/8/8/8/4K3 w - - 1bad x;"),
        Err(EpdError::BadOperation(_))
    ));
    let bad = parse_epd_line("4k3/8/8/8/8/8/8/4K3 w - - bm Qh5;").expect("parses");
    assert!(bad.best_moves().is_empty());
    assert!(matches!(bad.moves("bm"), Err(EpdError::BadMove { .. })));
    for e in [
        EpdError::Blank,
        EpdError::MissingFields(1),
        EpdError::UnterminatedString,
    ] {
        assert!(!e.to_string().is_empty());
    }
}

#[test]
fn reader_skips_comments_and_survives_garbage() {
    let text = b"# header\n\n4k3/8/8/8/8/8/8/4K3 w - - id \"one\";\n\xff\xfe garbage\n4k3/8/8/8/8/8/8/4K3 b - - id \"two\"\n";
    let items: Vec<_> = EpdReader::new(&text[..]).collect();
    assert_eq!(items.len(), 3);
    assert_eq!(items[0].0, 3);
    assert!(items[1].1.is_err());
    assert_eq!(items[2].1.as_ref().map(|r| r.id()), Ok(Some("two")));
}

#[test]
fn shared_suites_all_parse() {
    let Some(dir) = shared_data::dir() else {
        return;
    };
    let data = dir.join("data");
    let files = [
        ("epd/wac.epd", 300),
        ("epd/bk.epd", 24),
        ("epd/perftsuite.epd", 126),
        ("openings/8mvs_+90_+99.epd", 8533),
    ];
    for (name, expected) in files {
        let path = data.join(name);
        let file = File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut n = 0;
        for (line, rec) in EpdReader::new(BufReader::new(file)) {
            let rec = rec.unwrap_or_else(|e| panic!("{name}:{line}: {e}"));
            n += 1;
            if name.contains("wac") || name.contains("bk") {
                let bm = rec
                    .moves("bm")
                    .unwrap_or_else(|e| panic!("{name}:{line}: {e}"));
                let am = rec
                    .moves("am")
                    .unwrap_or_else(|e| panic!("{name}:{line}: {e}"));
                assert!(!bm.is_empty() || !am.is_empty(), "{name}:{line}: no bm/am");
                assert!(rec.id().is_some(), "{name}:{line}: no id");
            }
            if name.contains("perft") {
                let counts = rec.perft_counts().expect("counts");
                assert!(counts.len() >= 4, "{name}:{line}");
                let mut d1 = 0u64;
                rec.board.generate_moves(|pm| {
                    d1 += pm.len() as u64;
                    false
                });
                assert_eq!(counts[0], (1, d1), "{name}:{line}");
            }
        }
        assert_eq!(n, expected, "{name}");
    }
}
