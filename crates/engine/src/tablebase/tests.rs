//! Tests of the table checks and of probing the shared 3-4 piece tables (skipped, with a
//! message, when the shared data is not there). Values checked against an independent
//! Syzygy implementation.

use super::*;
use chess::parse_fen;

use testkit::syzygy::{serial, syzygy_dir};

fn board(fen: &str) -> Board {
    parse_fen(fen).expect(fen)
}

/// A scratch folder with copies of the named tables.
fn copies(dir: &Path, names: &[&str]) -> tempfile::TempDir {
    let tmp = testkit::scratch::dir("syzygy");
    for n in names {
        std::fs::copy(dir.join(n), tmp.path().join(n)).expect("copy a table");
    }
    tmp
}

fn set_len(path: &Path, len: u64) {
    let f = std::fs::OpenOptions::new().write(true).open(path).unwrap();
    f.set_len(len).unwrap();
}

#[test]
fn every_shared_table_passes_the_check() {
    let Some(dir) = syzygy_dir() else { return };
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let path = e.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        for kind in [TableKind::Wdl, TableKind::Dtz] {
            if let Some(stem) = name.strip_suffix(kind.suffix()) {
                let m = Material::parse(stem).expect(&name);
                check_table(&path, &m, kind).unwrap_or_else(|e| panic!("{name}: {e}"));
                n += 1;
            }
        }
    }
    assert!(n >= 70, "{n} tables checked");
}

#[test]
fn truncated_and_garbage_tables_are_refused() {
    let Some(dir) = syzygy_dir() else { return };
    let names = ["KRvKP.rtbw", "KRvKP.rtbz", "KQvK.rtbw", "KBNvK.rtbz"];
    let tmp = copies(&dir, &names);
    let p = |n: &str| tmp.path().join(n);
    let m = |n: &str| Material::parse(n.split('.').next().unwrap()).unwrap();
    // Cut at a size a whole table could have: only the header walk sees it.
    let full = std::fs::metadata(p("KRvKP.rtbw")).unwrap().len();
    set_len(&p("KRvKP.rtbw"), full - 64 * 10);
    let e = check_table(&p("KRvKP.rtbw"), &m("KRvKP"), TableKind::Wdl).unwrap_err();
    assert!(e.contains("header describes"), "{e}");
    // Every shorter length a whole table could have is refused, for tables with and
    // without pawns, WDL and DTZ.
    for name in [
        "KQvKR.rtbw",
        "KQvKR.rtbz",
        "KPvKP.rtbw",
        "KPvKP.rtbz",
        "KBNvK.rtbw",
    ] {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let cut = tmp.path().join(format!("cut-{name}"));
        let mut len = 16;
        while len < bytes.len() {
            std::fs::write(&cut, &bytes[..len]).unwrap();
            let kind = if name.ends_with("w") {
                TableKind::Wdl
            } else {
                TableKind::Dtz
            };
            assert!(
                check_table(&cut, &m(name), kind).is_err(),
                "{name} cut at {len}"
            );
            len += 64 * (1 + bytes.len() / 64 / 200);
        }
    }
    // Cut anywhere.
    set_len(&p("KRvKP.rtbz"), 1000);
    let e = check_table(&p("KRvKP.rtbz"), &m("KRvKP"), TableKind::Dtz).unwrap_err();
    assert!(e.contains("not the size of a whole table"), "{e}");
    // Garbage of a plausible size.
    let len = std::fs::metadata(p("KBNvK.rtbz")).unwrap().len() as usize;
    let garbage: Vec<u8> = (0..len).map(|i| (i * 7919 % 251) as u8).collect();
    std::fs::write(p("KBNvK.rtbz"), garbage).unwrap();
    let e = check_table(&p("KBNvK.rtbz"), &m("KBNvK"), TableKind::Dtz).unwrap_err();
    assert!(e.contains("bad magic"), "{e}");
    // A real table under another table's name.
    let e = check_table(&p("KQvK.rtbw"), &m("KRvK"), TableKind::Wdl).unwrap_err();
    assert!(e.contains("pieces"), "{e}");
    // The right magic with a damaged header.
    let mut bytes = std::fs::read(dir.join("KQvKR.rtbw")).unwrap();
    for b in &mut bytes[5..40] {
        *b = 0xff;
    }
    std::fs::write(p("KQvKR.rtbw"), bytes).unwrap();
    assert!(check_table(&p("KQvKR.rtbw"), &m("KQvKR"), TableKind::Wdl).is_err());
}

#[test]
fn known_positions_probe_right() {
    let Some(dir) = syzygy_dir() else { return };
    let _g = serial();
    let tb = open(dir.to_str().unwrap()).expect("tables");
    assert_eq!(tb.largest(), 4);
    assert!(tb.problems().is_empty(), "{:?}", tb.problems());
    let cases = [
        ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", Wdl::Win),
        ("4k3/8/8/8/8/8/8/3QK3 b - - 0 1", Wdl::Loss),
        ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", Wdl::Win),
        ("8/8/8/8/8/4k3/4P3/4K3 w - - 0 1", Wdl::Draw),
        ("8/8/8/8/8/4k3/4P3/4K3 b - - 0 1", Wdl::Draw),
        ("8/8/8/8/8/8/k7/2K1BN2 w - - 0 1", Wdl::Win),
        ("8/8/8/8/B7/N7/K2k4/8 b - - 0 1", Wdl::Loss),
        ("8/8/8/8/8/8/2k5/K1q5 w - - 0 1", Wdl::Loss),
        ("8/8/8/4k3/8/8/3K4/3B4 w - - 0 1", Wdl::Draw),
    ];
    for (fen, want) in cases {
        assert_eq!(tb.probe_wdl(&board(fen)), Some(want), "{fen}");
    }
    // Not in the tables: too many pieces, castling rights.
    assert_eq!(
        tb.probe_wdl(&board("4k3/8/8/8/8/8/3PP3/3QK3 w - - 0 1")),
        None
    );
    assert_eq!(tb.probe_wdl(&board("4k3/8/8/8/8/8/8/4K2R w K - 0 1")), None);
    // DTZ of every root move: the best win of KQvK is 15 plies from mate, and the
    // lost side's best defence lasts 16.
    let moves = tb
        .probe_root(&board("4k3/8/8/8/8/8/8/3QK3 w - - 0 1"))
        .unwrap();
    let best = moves
        .iter()
        .filter(|m| m.wdl == Wdl::Win)
        .map(|m| m.dtz)
        .min();
    assert_eq!(best, Some(15));
    let moves = tb
        .probe_root(&board("4k3/8/8/8/8/8/8/3QK3 b - - 0 1"))
        .unwrap();
    assert!(moves.iter().all(|m| m.wdl == Wdl::Loss));
    assert_eq!(moves.iter().map(|m| m.dtz).max(), Some(16));
    drop(tb);
}

#[test]
fn a_truncated_table_is_left_out_and_the_rest_still_probes() {
    let Some(dir) = syzygy_dir() else { return };
    let _g = serial();
    let tmp = copies(
        &dir,
        &[
            "KQvK.rtbw",
            "KQvK.rtbz",
            "KRvK.rtbw",
            "KRvK.rtbz",
            "KQvKR.rtbw",
        ],
    );
    set_len(&tmp.path().join("KQvK.rtbw"), 144);
    set_len(&tmp.path().join("KRvK.rtbz"), 1000);
    let tb = open(tmp.path().to_str().unwrap()).expect("the good tables load");
    let text = tb.problems().join("\n");
    assert!(text.contains("KQvK.rtbw"), "{text}");
    assert!(text.contains("KRvK.rtbz"), "{text}");
    // KQvKR leads to KQvK by a capture: left out with it.
    assert!(text.contains("KQvKR.rtbw"), "{text}");
    assert_eq!(tb.largest(), 3);
    assert_eq!(tb.probe_wdl(&board("4k3/8/8/8/8/8/8/3QK3 w - - 0 1")), None);
    assert_eq!(
        tb.probe_wdl(&board("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")),
        Some(Wdl::Win)
    );
    // No DTZ for KRvK: the root is not ranked by DTZ.
    assert!(tb
        .probe_root(&board("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"))
        .is_none());
    let r = rank::rank_root(&tb, &board("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), &[], true, 0)
        .expect("ranked by WDL");
    assert!(!r.by_dtz);
    assert!(r.score >= crate::types::TB_WIN_BOUND);
    drop(tb);
    // Nothing usable at all is an error.
    let empty = testkit::scratch::dir("syzygy-empty");
    std::fs::write(empty.path().join("KQvK.rtbw"), b"not a table").unwrap();
    let e = open(empty.path().to_str().unwrap())
        .err()
        .expect("an error");
    assert!(e.contains("no usable") && e.contains("KQvK.rtbw"), "{e}");
}

#[test]
fn one_folder_list_per_process() {
    let Some(dir) = syzygy_dir() else { return };
    let _g = serial();
    let a = open(dir.to_str().unwrap()).expect("tables");
    let again = open(dir.to_str().unwrap()).expect("shared");
    assert!(Arc::ptr_eq(&a, &again));
    let tmp = copies(&dir, &["KQvK.rtbw"]);
    let e = open(tmp.path().to_str().unwrap()).err().expect("busy");
    assert!(e.contains("in use"), "{e}");
    drop((a, again));
    let b = open(tmp.path().to_str().unwrap()).expect("free again");
    assert_eq!(b.largest(), 3);
}
