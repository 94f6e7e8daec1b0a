//! Syzygy endgame tablebases (win/draw/loss and distance-to-zero tables).
//!
//! Probing is done by the `pyrrhic-rs` crate, which takes the position as bitboards (no
//! FEN on the way) and generates moves through wily's own attack tables (cozy-chess).
//! That crate keeps its tables in process-wide state and trusts every file it maps, so
//! this module wraps it:
//! - every `.rtbw`/`.rtbz` file found is checked first ([`validate`]); a truncated or
//!   garbled file is reported and left out, never mapped;
//! - the prober only sees a private folder of links to the accepted files (the "view"),
//!   so it can open nothing else, however its own file discovery behaves;
//! - a material is probed only when its table and every table a capture or promotion
//!   leads to were accepted ([`Tablebases::probe_wdl`] checks this per probe, by a
//!   binary search in a short sorted list), so a probe never reaches a missing table;
//! - one set of folders per process: the tables stay loaded while any engine uses them,
//!   and another folder list is loaded only once no engine holds the old one.
//!
//! Probes take no lock once a table is mapped (the first probe of each table maps it
//! under the crate's own lock), so all Lazy SMP threads probe concurrently.

mod material;
pub mod rank;
pub mod swindle;
mod validate;

pub use material::{Material, MAX_TB_PIECES};
pub use validate::{check_table, TableKind};

use cozy_chess::{
    get_bishop_moves, get_king_moves, get_knight_moves, get_pawn_attacks, get_rook_moves, BitBoard,
    Board, Color, File, Move, Piece, Rank, Square,
};
use pyrrhic_rs::{DtzProbeValue, TableBases, WdlProbeResult};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// A position's value for the side to move, as the tables give it right after a capture
/// or pawn move (the 50-move counter at zero).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Wdl {
    Loss,
    /// Lost, but the 50-move rule saves the side to move.
    BlessedLoss,
    Draw,
    /// Won, but not within the 50-move rule.
    CursedWin,
    Win,
}

impl Wdl {
    /// The same result seen from the other side.
    pub fn flip(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::BlessedLoss => Wdl::CursedWin,
            Wdl::Draw => Wdl::Draw,
            Wdl::CursedWin => Wdl::BlessedLoss,
            Wdl::Win => Wdl::Loss,
        }
    }
}

/// One root move with its tablebase value: the result after it (for the side to move
/// at the root, with the root's 50-move counter) and its distance to a zeroing move in
/// plies counted from the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootMoveTb {
    pub mv: Move,
    pub wdl: Wdl,
    pub dtz: u32,
}

/// Move generation for the prober, from cozy-chess's attack tables.
#[derive(Clone)]
struct CozyAdapter;

fn sq(s: u64) -> Square {
    Square::index((s & 63) as usize)
}

impl pyrrhic_rs::EngineAdapter for CozyAdapter {
    fn pawn_attacks(color: pyrrhic_rs::Color, s: u64) -> u64 {
        let c = match color {
            pyrrhic_rs::Color::White => Color::White,
            pyrrhic_rs::Color::Black => Color::Black,
        };
        get_pawn_attacks(sq(s), c).0
    }
    fn knight_attacks(s: u64) -> u64 {
        get_knight_moves(sq(s)).0
    }
    fn bishop_attacks(s: u64, occ: u64) -> u64 {
        get_bishop_moves(sq(s), BitBoard(occ)).0
    }
    fn rook_attacks(s: u64, occ: u64) -> u64 {
        get_rook_moves(sq(s), BitBoard(occ)).0
    }
    fn queen_attacks(s: u64, occ: u64) -> u64 {
        get_bishop_moves(sq(s), BitBoard(occ)).0 | get_rook_moves(sq(s), BitBoard(occ)).0
    }
    fn king_attacks(s: u64) -> u64 {
        get_king_moves(sq(s)).0
    }
}

/// The bitboards the prober reads, taken straight from the board.
struct Bits {
    white: u64,
    black: u64,
    kings: u64,
    queens: u64,
    rooks: u64,
    bishops: u64,
    knights: u64,
    pawns: u64,
    ep: u32,
    white_to_move: bool,
}

impl Bits {
    #[inline]
    fn of(board: &Board) -> Bits {
        let white_to_move = board.side_to_move() == Color::White;
        let ep = board.en_passant().map_or(0, |f: File| {
            let rank = if white_to_move {
                Rank::Sixth
            } else {
                Rank::Third
            };
            Square::new(f, rank) as u32
        });
        Bits {
            white: board.colors(Color::White).0,
            black: board.colors(Color::Black).0,
            kings: board.pieces(Piece::King).0,
            queens: board.pieces(Piece::Queen).0,
            rooks: board.pieces(Piece::Rook).0,
            bishops: board.pieces(Piece::Bishop).0,
            knights: board.pieces(Piece::Knight).0,
            pawns: board.pieces(Piece::Pawn).0,
            ep,
            white_to_move,
        }
    }
}

fn from_pyrrhic(w: WdlProbeResult) -> Wdl {
    match w {
        WdlProbeResult::Loss => Wdl::Loss,
        WdlProbeResult::BlessedLoss => Wdl::BlessedLoss,
        WdlProbeResult::Draw => Wdl::Draw,
        WdlProbeResult::CursedWin => Wdl::CursedWin,
        WdlProbeResult::Win => Wdl::Win,
    }
}

/// True when either side may still castle (such positions are not in the tables).
#[inline]
pub fn has_castling(board: &Board) -> bool {
    [Color::White, Color::Black].into_iter().any(|c| {
        let r = board.castle_rights(c);
        r.short.is_some() || r.long.is_some()
    })
}

/// The engine's tablebase settings, handed to each search.
#[derive(Clone)]
pub struct TbConfig {
    /// The loaded tables (`None`: no tablebases).
    pub tables: Option<Arc<Tablebases>>,
    /// Least remaining depth for a probe in the tree (`SyzygyProbeDepth`).
    pub probe_depth: i32,
    /// Cursed wins and blessed losses count as draws (`Syzygy50MoveRule`).
    pub rule50: bool,
    /// Swindle mode for roots the tables call drawn (`Swindle`; see `swindle.rs`).
    pub swindle: bool,
}

impl Default for TbConfig {
    fn default() -> Self {
        TbConfig {
            tables: None,
            probe_depth: 1,
            rule50: true,
            swindle: true,
        }
    }
}

/// Loaded tables: what was accepted, and the prober over them.
pub struct Tablebases {
    /// The folder list as given (`:`-separated).
    source: String,
    /// The private folder of links the prober reads.
    view: PathBuf,
    prober: TableBases<CozyAdapter>,
    /// Keys of the materials (both colourings) whose WDL probes are safe, sorted.
    wdl: Vec<u32>,
    /// The same for DTZ probes at the root.
    dtz: Vec<u32>,
    largest: u32,
    wdl_count: usize,
    dtz_count: usize,
    /// One line per file left out, with the reason.
    problems: Vec<String>,
}

impl Drop for Tablebases {
    fn drop(&mut self) {
        // The prober is freed by its own drop (after this); the links can go now, as the
        // prober maps files only from the `Tablebases` it belongs to.
        let _ = std::fs::remove_dir_all(&self.view);
    }
}

impl Tablebases {
    /// Largest number of pieces (kings included) of any usable table.
    pub fn largest(&self) -> u32 {
        self.largest
    }

    /// The folder list these tables came from.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Files that were found but left out, one line each with the reason.
    pub fn problems(&self) -> &[String] {
        &self.problems
    }

    /// A one-line summary: tables, largest piece count, folders.
    pub fn summary(&self) -> String {
        format!(
            "Syzygy: {} WDL and {} DTZ tables, up to {} pieces, from {}{}",
            self.wdl_count,
            self.dtz_count,
            self.largest,
            self.source,
            if self.problems.is_empty() {
                String::new()
            } else {
                format!(" ({} files left out)", self.problems.len())
            }
        )
    }

    #[inline]
    fn usable(list: &[u32], board: &Board) -> bool {
        list.binary_search(&Material::of(board).key()).is_ok()
    }

    /// WDL value of `board` for the side to move, or `None` when its material is not in
    /// the usable tables, castling is still possible, or the probe fails.
    #[inline]
    pub fn probe_wdl(&self, board: &Board) -> Option<Wdl> {
        if board.occupied().len() > self.largest || has_castling(board) {
            return None;
        }
        if !Self::usable(&self.wdl, board) {
            return None;
        }
        let b = Bits::of(board);
        self.prober
            .probe_wdl(
                b.white,
                b.black,
                b.kings,
                b.queens,
                b.rooks,
                b.bishops,
                b.knights,
                b.pawns,
                b.ep,
                b.white_to_move,
            )
            .ok()
            .map(from_pyrrhic)
    }

    /// Every legal move of `board` with its result and distance to zeroing, or `None`
    /// when `board` has no DTZ table, is mate or stalemate, or the probe fails.
    pub fn probe_root(&self, board: &Board) -> Option<Vec<RootMoveTb>> {
        if board.occupied().len() > self.largest
            || has_castling(board)
            || !Self::usable(&self.dtz, board)
        {
            return None;
        }
        let b = Bits::of(board);
        let rule50 = u32::from(board.halfmove_clock());
        let r = self
            .prober
            .probe_root(
                b.white,
                b.black,
                b.kings,
                b.queens,
                b.rooks,
                b.bishops,
                b.knights,
                b.pawns,
                rule50,
                b.ep,
                b.white_to_move,
            )
            .ok()?;
        let mut legal = Vec::new();
        board.generate_moves(|pm| {
            legal.extend(pm);
            false
        });
        let mut out = Vec::with_capacity(r.num_moves);
        for v in r.moves.iter().take(r.num_moves) {
            let DtzProbeValue::DtzResult(d) = v else {
                return None;
            };
            let promotion = match d.promotion {
                pyrrhic_rs::Piece::Queen => Some(Piece::Queen),
                pyrrhic_rs::Piece::Rook => Some(Piece::Rook),
                pyrrhic_rs::Piece::Bishop => Some(Piece::Bishop),
                pyrrhic_rs::Piece::Knight => Some(Piece::Knight),
                _ => None,
            };
            let mv = Move {
                from: sq(d.from_square as u64),
                to: sq(d.to_square as u64),
                promotion,
            };
            if !legal.contains(&mv) {
                return None;
            }
            out.push(RootMoveTb {
                mv,
                wdl: from_pyrrhic(d.wdl),
                dtz: d.dtz as u32,
            });
        }
        (out.len() == legal.len()).then_some(out)
    }
}

/// The tables in use in this process (see the module comment).
static LOADED: Mutex<Option<Arc<Tablebases>>> = Mutex::new(None);

fn lock_loaded() -> std::sync::MutexGuard<'static, Option<Arc<Tablebases>>> {
    LOADED.lock().unwrap_or_else(|e| e.into_inner())
}

/// Loads the tables of the `:`-separated folder list `source` (or shares them when this
/// process already loaded exactly that list). An error says why nothing was loaded: no
/// usable table, a folder that cannot be read, or another list still in use.
pub fn open(source: &str) -> Result<Arc<Tablebases>, String> {
    let source = source.trim();
    if source.is_empty() {
        return Err("no tablebase folder given".into());
    }
    let mut loaded = lock_loaded();
    if let Some(tb) = loaded.as_ref() {
        if tb.source == source {
            return Ok(Arc::clone(tb));
        }
        if Arc::strong_count(tb) > 1 {
            return Err(format!(
                "the tablebases from {} are in use by another engine of this process \
                 (one folder list per process)",
                tb.source
            ));
        }
    }
    // Nobody else holds the old tables: free them before the prober is started again.
    *loaded = None;
    let tb = Arc::new(load(source)?);
    *loaded = Some(Arc::clone(&tb));
    Ok(tb)
}

/// Accepted files of one kind by material.
type Found = HashMap<Material, PathBuf>;

/// Reads and checks every table file of the folders; returns the accepted ones and one
/// line per file left out.
fn scan(source: &str) -> Result<(Found, Found, Vec<String>), String> {
    let (mut wdl, mut dtz, mut problems) = (Found::new(), Found::new(), Vec::new());
    for dir in source.split(':').filter(|d| !d.is_empty()) {
        let entries = std::fs::read_dir(dir).map_err(|e| format!("cannot read {dir}: {e}"))?;
        let mut names: Vec<(String, PathBuf)> = entries
            .filter_map(|e| e.ok())
            .filter_map(|e| Some((e.file_name().into_string().ok()?, e.path())))
            .collect();
        names.sort();
        for (name, path) in names {
            for (kind, found) in [(TableKind::Wdl, &mut wdl), (TableKind::Dtz, &mut dtz)] {
                let Some(stem) = name.strip_suffix(kind.suffix()) else {
                    continue;
                };
                let Some(m) = Material::parse(stem) else {
                    problems.push(format!("{name}: not a table name"));
                    continue;
                };
                if found.contains_key(&m) {
                    continue;
                }
                match check_table(&path, &m, kind) {
                    Ok(()) => {
                        found.insert(m, path.clone());
                    }
                    Err(why) => problems.push(format!("{}: {why}", path.display())),
                }
            }
        }
    }
    Ok((wdl, dtz, problems))
}

/// Materials whose WDL table and every table reachable by captures and promotions were
/// accepted (a bare-kings position needs no table).
fn closed(wdl: &Found) -> Vec<Material> {
    fn ok(m: Material, wdl: &Found, memo: &mut HashMap<Material, bool>) -> bool {
        if m.is_bare_kings() {
            return true;
        }
        if let Some(&v) = memo.get(&m) {
            return v;
        }
        memo.insert(m, false);
        let here = wdl.contains_key(&m) || wdl.contains_key(&m.mirrored());
        let v = here && m.successors().into_iter().all(|s| ok(s, wdl, memo));
        memo.insert(m, v);
        v
    }
    let mut memo = HashMap::new();
    wdl.keys()
        .copied()
        .filter(|&m| ok(m, wdl, &mut memo))
        .collect()
}

/// A fresh private folder for the links; also removes those left by ended processes.
fn make_view() -> Result<PathBuf, String> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static SEQ: AtomicU64 = AtomicU64::new(0);
    let tmp = std::env::temp_dir();
    if let Ok(entries) = std::fs::read_dir(&tmp) {
        for e in entries.filter_map(|e| e.ok()) {
            let name = e.file_name().to_string_lossy().into_owned();
            let pid = name
                .strip_prefix("wily-syzygy-")
                .and_then(|r| r.split('-').next())
                .and_then(|p| p.parse::<u32>().ok());
            if let Some(pid) = pid {
                if !Path::new(&format!("/proc/{pid}")).exists() {
                    let _ = std::fs::remove_dir_all(e.path());
                }
            }
        }
    }
    let n = SEQ.fetch_add(1, Ordering::Relaxed);
    let view = tmp.join(format!("wily-syzygy-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&view);
    std::fs::create_dir(&view).map_err(|e| format!("cannot make {}: {e}", view.display()))?;
    Ok(view)
}

fn link(target: &Path, view: &Path) -> Result<(), String> {
    let target = std::fs::canonicalize(target).map_err(|e| format!("{}: {e}", target.display()))?;
    let name = target.file_name().ok_or("a table path without a name")?;
    std::os::unix::fs::symlink(&target, view.join(name))
        .map_err(|e| format!("cannot link {}: {e}", target.display()))
}

fn load(source: &str) -> Result<Tablebases, String> {
    let (wdl, dtz, mut problems) = scan(source)?;
    let usable = closed(&wdl);
    for m in wdl.keys().filter(|m| !usable.contains(m)) {
        problems.push(format!(
            "{}: left out, a table it leads to (by a capture or promotion) is missing",
            wdl[m].display()
        ));
    }
    if usable.is_empty() {
        let mut msg = format!("no usable Syzygy tables in {source}");
        for p in &problems {
            msg.push_str("\n  ");
            msg.push_str(p);
        }
        return Err(msg);
    }
    let view = make_view()?;
    let mut wdl_keys = Vec::new();
    let mut dtz_keys = Vec::new();
    let mut result = Ok(());
    for m in &usable {
        result = result.and_then(|_| link(&wdl[m], &view));
        wdl_keys.extend([m.key(), m.mirrored().key()]);
        if let Some(p) = dtz.get(m) {
            result = result.and_then(|_| link(p, &view));
            dtz_keys.extend([m.key(), m.mirrored().key()]);
        }
    }
    let prober = result.and_then(|_| {
        let path = view
            .to_str()
            .ok_or("the temporary folder's name is not UTF-8")?;
        TableBases::<CozyAdapter>::new(path).map_err(|e| format!("the prober failed: {e:?}"))
    });
    let prober = match prober {
        Ok(p) => p,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&view);
            return Err(e);
        }
    };
    wdl_keys.sort_unstable();
    wdl_keys.dedup();
    dtz_keys.sort_unstable();
    dtz_keys.dedup();
    problems.sort();
    Ok(Tablebases {
        source: source.to_string(),
        view,
        prober,
        largest: usable.iter().map(|m| m.pieces()).max().unwrap_or(0),
        wdl_count: usable.len(),
        dtz_count: usable.iter().filter(|m| dtz.contains_key(m)).count(),
        wdl: wdl_keys,
        dtz: dtz_keys,
        problems,
    })
}

#[cfg(test)]
mod tests;
