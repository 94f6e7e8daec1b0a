//! Move ordering: a staged picker that returns the hash move first (before any move
//! generation), then good captures by MVV/LVA and capture history (losing ones, checked by
//! SEE when picked, are pushed back), the killers and the counter move (tried before any
//! quiet move is generated: a node they refute never generates one), the other quiet moves
//! by history (and, for a piece a cheaper enemy piece attacks, by whether the move leaves
//! such attacks), losing captures and under-promotions. Fixed-size arrays: no allocation; the
//! search keeps one picker per ply and resets it, so a node never clears the arrays either.

use super::checks::CheckInfo;
use super::eval::pawn_attacks;
use super::history::{History, Played, NO_ROW};
use super::movelist::NULL_MOVE;
pub use super::movelist::{MoveList, MAX_MOVES};
use super::see::{captured_piece, piece_value, see_ge_known};
use cozy_chess::{
    get_bishop_moves, get_king_moves, get_knight_moves, get_rook_moves, BitBoard, Board, Color,
    Move, Piece, PieceMoves, Rank, Square,
};

const GOOD_CAPTURE: i32 = 40_000_000;
const BAD_CAPTURE: i32 = -30_000_000;
const UNDER_PROMOTION: i32 = -40_000_000;

/// What the picker needs to know about the path leading to this node.
#[derive(Clone, Copy)]
pub struct OrderContext {
    pub prev1: Option<Played>,
    pub prev2: Option<Played>,
    /// Continuation-history rows of `prev1` and `prev2` ([`Played::row`]).
    pub rows: [usize; 2],
    pub killers: [Option<Move>; 2],
    pub counter: Option<Move>,
    /// Every square the side not to move attacks ([`enemy_attacks`]), for the history
    /// tables split by threats. Left empty by quiescence outside check (it orders no quiet
    /// move) and by the root's first ordering (the first iteration searches every root move
    /// and the later ones order by score), which then read the "nothing attacked" table.
    pub attacked: BitBoard,
    /// The same attacks by the cheapest attacker class, for the quiet moves' threat
    /// ordering; made in the same pass as `attacked` ([`Threats::of_node`]). Empty in
    /// quiescence outside check; set at the root ([`OrderContext::root`]).
    pub threats: Threats,
}

impl Default for OrderContext {
    fn default() -> Self {
        OrderContext {
            prev1: None,
            prev2: None,
            rows: [NO_ROW; 2],
            killers: [None; 2],
            counter: None,
            attacked: BitBoard::EMPTY,
            threats: Threats::default(),
        }
    }
}

impl OrderContext {
    /// The root's first ordering: no path, no killers, the threat ordering of quiet moves
    /// but an empty `attacked` (so the history tables read are the "nothing attacked"
    /// ones, see `attacked`).
    pub fn root(board: &Board) -> OrderContext {
        OrderContext {
            threats: Threats::of_node(board).0,
            ..OrderContext::default()
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    TtMove,
    Generate,
    GoodCaptures,
    Refutations,
    ScoreQuiets,
    Quiets,
    BadCaptures,
}

/// Quiet moves picked one by one (best first) before the rest are sorted at once: most
/// nodes cut off or prune after a few quiet moves, so sorting them all is wasted work.
const QUIET_SELECTIONS: usize = 6;

/// A sort key: the score in the high 32 bits (biased so unsigned order is signed order),
/// then 255 minus the move's slot, so that among equal scores the earlier slot wins and
/// every key is unique (any selection or sort then gives one fixed order).
#[inline(always)]
fn key(score: i32, slot: usize) -> u64 {
    (((score as u32) ^ 0x8000_0000) as u64) << 32 | (255 - slot) as u64
}

#[inline(always)]
fn key_score(key: u64) -> i32 {
    ((key >> 32) as u32 ^ 0x8000_0000) as i32
}

#[inline(always)]
fn key_slot(key: u64) -> usize {
    255 - (key & 0xFF) as usize
}

/// The staged move picker of one node.
///
/// Generation writes each move and its moving piece once, into a slot: captures and
/// promotions from the front, quiet moves from the back. Ordering then works on sort keys
/// ([`key`]: score and slot in one `u64`) alone: captures' keys (`0..n_captures`) are made
/// at generation, quiet moves' keys (`n_captures..len`) only when the quiet stage is
/// reached, so a capture cutoff never pays for history lookups.
pub struct MovePicker {
    moves: [Move; MAX_MOVES],
    pieces: [Piece; MAX_MOVES],
    /// The captured piece of each tactical move (a pawn for en passant); quiet slots are
    /// never read.
    victims: [Option<Piece>; MAX_MOVES],
    keys: [u64; MAX_MOVES],
    len: usize,
    n_captures: usize,
    /// Next unpicked capture / quiet key.
    cap_idx: usize,
    quiet_idx: usize,
    stage: Stage,
    tt_move: Option<Move>,
    captures_only: bool,
    /// Set by late-move pruning: quiet moves are skipped unless they give check.
    skip_quiets: Option<CheckInfo>,
    /// Quiet moves returned so far (selection, then one sort of the rest).
    quiets_picked: usize,
    /// The remaining quiet moves were cut down to checking ones (after `skip_quiets`).
    quiets_filtered: bool,
    /// Next of the refutation moves (killers, then the counter move) to try before the
    /// quiet moves are generated.
    refutation_idx: usize,
    /// The refutation moves returned before generation, and how many: the quiet stage
    /// skips them when it meets them again.
    early: [Move; 3],
    n_early: usize,
    /// The moving piece of the move returned last.
    last_piece: Piece,
    /// The piece the move returned last captures.
    last_victim: Option<Piece>,
    /// Whether the move returned last wins or keeps material by SEE (`see_ge(.., 0)`),
    /// when the picker had to find out to order it.
    last_see: Option<bool>,
}

/// The squares the side not to move attacks, by the cheapest attacker class, for
/// ordering quiet moves: a piece standing where a cheaper enemy piece attacks it is moved
/// first to squares no such piece attacks, and last to squares one does.
#[derive(Clone, Copy, Default)]
pub struct Threats {
    /// Squares attacked by enemy pawns.
    pawns: BitBoard,
    /// ... by enemy pawns or minor pieces.
    minors: BitBoard,
    /// ... by enemy pawns, minor pieces or rooks.
    rooks: BitBoard,
}

/// Ordering bonus for a knight or bishop leaving a square an enemy pawn attacks for one
/// no enemy pawn attacks, a rook leaving one a pawn or minor attacks likewise, a queen
/// leaving one a pawn, minor or rook attacks likewise (and the same as a penalty when
/// such a piece moves to another attacked square). Pieces not attacked so are not scored.
const ESCAPE_MINOR: i32 = 8_000;
const ESCAPE_ROOK: i32 = 12_000;
const ESCAPE_QUEEN: i32 = 16_000;

impl Threats {
    /// The layered maps and every square the side not to move attacks (x-rays not
    /// followed), in one pass over its pieces: the node's ordering context holds both.
    #[inline(always)]
    pub fn of_node(board: &Board) -> (Threats, BitBoard) {
        let them = !board.side_to_move();
        let occ = board.occupied();
        let pawns = BitBoard(pawn_attacks(
            board.colored_pieces(them, Piece::Pawn).0,
            them,
        ));
        let mut minors = pawns;
        for sq in board.colored_pieces(them, Piece::Knight) {
            minors |= get_knight_moves(sq);
        }
        for sq in board.colored_pieces(them, Piece::Bishop) {
            minors |= get_bishop_moves(sq, occ);
        }
        let mut rooks = minors;
        for sq in board.colored_pieces(them, Piece::Rook) {
            rooks |= get_rook_moves(sq, occ);
        }
        let mut all = rooks | get_king_moves(board.king(them));
        for sq in board.colored_pieces(them, Piece::Queen) {
            all |= get_bishop_moves(sq, occ) | get_rook_moves(sq, occ);
        }
        (
            Threats {
                pawns,
                minors,
                rooks,
            },
            all,
        )
    }

    /// For `piece` on `from`: the squares where it stands attacked by a cheaper enemy
    /// piece, and the bonus for a move out of them (negated for a move into them; zero when
    /// `from` is not in them).
    #[inline(always)]
    fn of(&self, piece: Piece, from: Square) -> (BitBoard, i32) {
        let (danger, bonus) = match piece {
            Piece::Knight | Piece::Bishop => (self.pawns, ESCAPE_MINOR),
            Piece::Rook => (self.minors, ESCAPE_ROOK),
            Piece::Queen => (self.rooks, ESCAPE_QUEEN),
            _ => return (BitBoard::EMPTY, 0),
        };
        (danger, if danger.has(from) { bonus } else { 0 })
    }
}

/// Every square a piece of the side not to move attacks (x-rays not followed).
pub fn enemy_attacks(board: &Board) -> BitBoard {
    Threats::of_node(board).1
}

/// Squares where a pawn arrives to promote (either side).
const PROMO_RANKS: BitBoard = BitBoard(0xFF00_0000_0000_00FF);

/// Squares where a pawn of each colour stands one step from promotion, `[color]` (the
/// other side's 2nd rank: an unmoved pawn there has no tactical move to offer).
const PRE_PROMO_RANK: [BitBoard; 2] = [BitBoard(0x00FF_0000_0000_0000), BitBoard(0xFF00)];

/// The square a pawn of the side to move would capture en passant on, if any.
#[inline]
fn ep_square(board: &Board) -> Option<Square> {
    let stm = board.side_to_move();
    board
        .en_passant()
        .map(|f| Square::new(f, Rank::Sixth.relative_to(stm)))
}

/// The side to move's pieces that might capture (or promote): each attacks an enemy
/// piece or the en-passant square `ep`, or is a pawn about to promote. A superset of the
/// pieces with a legal tactical move (pins and checks are left to the generator), so a
/// captures-only generation can skip every other piece.
fn capture_candidates(board: &Board, ep: BitBoard) -> BitBoard {
    let us = board.side_to_move();
    let enemy = board.colors(!us);
    let occ = board.occupied();
    let mut mask = BitBoard::EMPTY;
    let pawns = board.colored_pieces(us, Piece::Pawn);
    mask |= pawns & PRE_PROMO_RANK[us as usize];
    // Pawns diagonally behind a target: a pawn attacks forward, so the targets shifted
    // one rank back and one file aside (without wrapping round the board's edge).
    let targets = (enemy | ep).0;
    let back = match us {
        Color::White => targets >> 8,
        Color::Black => targets << 8,
    };
    const NOT_FILE_A: u64 = !0x0101_0101_0101_0101;
    const NOT_FILE_H: u64 = !0x8080_8080_8080_8080;
    let attackers = ((back << 1) & NOT_FILE_A) | ((back >> 1) & NOT_FILE_H);
    mask |= pawns & BitBoard(attackers);
    for sq in board.colored_pieces(us, Piece::Knight) {
        if !(get_knight_moves(sq) & enemy).is_empty() {
            mask |= sq.bitboard();
        }
    }
    let queens = board.colored_pieces(us, Piece::Queen);
    for sq in board.colored_pieces(us, Piece::Bishop) | queens {
        if !(get_bishop_moves(sq, occ) & enemy).is_empty() {
            mask |= sq.bitboard();
        }
    }
    for sq in board.colored_pieces(us, Piece::Rook) | queens {
        if !(get_rook_moves(sq, occ) & enemy).is_empty() {
            mask |= sq.bitboard();
        }
    }
    let king = board.king(us);
    if !(get_king_moves(king) & enemy).is_empty() {
        mask |= king.bitboard();
    }
    mask
}

impl MovePicker {
    /// Picker over all legal moves (`captures_only` false) or captures and queen
    /// promotions only (quiescence search).
    pub fn new(tt_move: Option<Move>, captures_only: bool) -> MovePicker {
        MovePicker {
            moves: [NULL_MOVE; MAX_MOVES],
            pieces: [Piece::Pawn; MAX_MOVES],
            victims: [None; MAX_MOVES],
            keys: [0; MAX_MOVES],
            len: 0,
            n_captures: 0,
            cap_idx: 0,
            quiet_idx: 0,
            stage: Stage::TtMove,
            tt_move,
            captures_only,
            skip_quiets: None,
            quiets_picked: 0,
            quiets_filtered: false,
            refutation_idx: 0,
            early: [NULL_MOVE; 3],
            n_early: 0,
            last_piece: Piece::Pawn,
            last_victim: None,
            last_see: None,
        }
    }

    /// Makes this picker start over for a new node, as [`MovePicker::new`] would, without
    /// clearing its arrays (the stages only read what generation wrote).
    #[inline]
    pub fn reset(&mut self, tt_move: Option<Move>, captures_only: bool) {
        self.len = 0;
        self.n_captures = 0;
        self.cap_idx = 0;
        self.quiet_idx = 0;
        self.stage = Stage::TtMove;
        self.tt_move = tt_move;
        self.captures_only = captures_only;
        self.skip_quiets = None;
        self.quiets_picked = 0;
        self.quiets_filtered = false;
        self.refutation_idx = 0;
        self.n_early = 0;
        self.last_piece = Piece::Pawn;
        self.last_victim = None;
        self.last_see = None;
    }

    /// The moving piece of the move [`MovePicker::next`] returned last.
    #[inline]
    pub fn last_piece(&self) -> Piece {
        self.last_piece
    }

    /// The piece the move [`MovePicker::next`] returned last captures (a pawn for en
    /// passant; `None` for a quiet move or castling).
    #[inline]
    pub fn last_victim(&self) -> Option<Piece> {
        self.last_victim
    }

    /// For the move [`MovePicker::next`] returned last: `Some(true)` when it is a capture
    /// the picker found not to lose material by SEE, `Some(false)` when it found it does,
    /// `None` when it did not look (the hash move, quiet moves, quiescence captures,
    /// under-promotions).
    #[inline]
    pub fn last_see(&self) -> Option<bool> {
        self.last_see
    }

    /// From now on, quiet moves are returned only when they give check (late-move
    /// pruning); `info` is the node's check data.
    pub fn skip_quiets(&mut self, info: CheckInfo) {
        self.skip_quiets = Some(info);
    }

    /// Generates the tactical moves (captures, en passant, promotions; only queen
    /// promotions for a captures-only picker) into the front slots, with their keys. Only
    /// pieces that attack something, or pawns about to promote, are asked for.
    #[inline(never)]
    fn generate_captures(&mut self, board: &Board, hist: &History) {
        let stm = board.side_to_move();
        let enemy = board.colors(!stm);
        let ep_sq = ep_square(board);
        let ep = ep_sq.map_or(BitBoard::EMPTY, |s| s.bitboard());
        let captures_only = self.captures_only;
        let tt_move = self.tt_move;
        let moves = &mut self.moves;
        let pieces = &mut self.pieces;
        let victims = &mut self.victims;
        let keys = &mut self.keys;
        let mut front = 0;
        board.generate_moves_for(capture_candidates(board, ep), |pm| {
            let piece = pm.piece;
            let from = pm.from;
            let tactical = pm.to & enemy;
            if piece == Piece::Pawn {
                // Promotions expand to four moves each: the generator's iterator does it.
                let tactical = tactical | pm.to & (PROMO_RANKS | ep);
                for mv in (PieceMoves { to: tactical, ..pm }) {
                    if Some(mv) == tt_move || front >= MAX_MOVES {
                        continue;
                    }
                    if captures_only && matches!(mv.promotion, Some(p) if p != Piece::Queen) {
                        continue;
                    }
                    let victim = if enemy.has(mv.to) {
                        board.piece_on(mv.to)
                    } else if Some(mv.to) == ep_sq {
                        Some(Piece::Pawn)
                    } else {
                        None
                    };
                    moves[front] = mv;
                    pieces[front] = piece;
                    victims[front] = victim;
                    keys[front] = key(Self::capture_score(stm, mv, piece, victim, hist), front);
                    front += 1;
                }
            } else {
                for to in tactical {
                    let mv = Move {
                        from,
                        to,
                        promotion: None,
                    };
                    if Some(mv) == tt_move || front >= MAX_MOVES {
                        continue;
                    }
                    let victim = board.piece_on(to);
                    moves[front] = mv;
                    pieces[front] = piece;
                    victims[front] = victim;
                    keys[front] = key(Self::capture_score(stm, mv, piece, victim, hist), front);
                    front += 1;
                }
            }
            false
        });
        self.n_captures = front;
        self.len = front;
        self.cap_idx = 0;
        self.quiet_idx = front;
    }

    /// Generates the quiet moves into the back slots (the first generated in the last
    /// slot) and makes their keys by history (the killers and the counter move, already
    /// tried, are skipped when met). This happens only when the quiet stage is reached: a
    /// node that cuts off on the hash move, a capture or a refutation never pays for it.
    /// Once late-move pruning has started only checking quiet moves can still be returned,
    /// so only pieces that may give check are asked for, only their moves to checking
    /// squares (or off a discovered-check line) are looked at, and only those that do give
    /// check are kept.
    #[inline(never)]
    fn generate_quiets(&mut self, board: &Board, hist: &History, ctx: &OrderContext) {
        match self.skip_quiets {
            None => self.generate_quiets_with::<false>(board, hist, ctx),
            Some(_) => self.generate_quiets_with::<true>(board, hist, ctx),
        }
    }

    /// [`MovePicker::generate_quiets`] for one setting of late-move pruning (`CHECKS_ONLY`
    /// matches `skip_quiets.is_some()`), so the common case carries no test per move
    /// (measured: a single copy testing an `Option` per move costs 1% more instructions on
    /// the bench, and so does one deriving the `Option` from the constant).
    #[inline(always)]
    fn generate_quiets_with<const CHECKS_ONLY: bool>(
        &mut self,
        board: &Board,
        hist: &History,
        ctx: &OrderContext,
    ) {
        let us = board.side_to_move();
        let enemy = board.colors(!us);
        let ep = ep_square(board).map_or(BitBoard::EMPTY, |s| s.bitboard());
        let tt_move = self.tt_move;
        let checks_only = self.skip_quiets;
        let mask = match (CHECKS_ONLY, &checks_only) {
            (false, _) | (true, None) => BitBoard::FULL,
            (true, Some(info)) => {
                // Castling may check with the rook: the king stays in while it may castle.
                let rights = board.castle_rights(us);
                let castling = if rights.short.is_some() || rights.long.is_some() {
                    board.king(us).bitboard()
                } else {
                    BitBoard::EMPTY
                };
                info.quiet_checker_candidates(board) | castling
            }
        };
        let scorer = hist.quiet_scorer(us, ctx.rows[0], ctx.rows[1], ctx.attacked);
        let threats = if CHECKS_ONLY {
            Threats::default()
        } else {
            ctx.threats
        };
        let moves = &mut self.moves;
        let pieces = &mut self.pieces;
        let keys = &mut self.keys;
        let floor = self.n_captures;
        let mut back = MAX_MOVES;
        let mut n = floor;
        board.generate_moves_for(mask, |pm| {
            let piece = pm.piece;
            let from = pm.from;
            let mut quiet = pm.to & !enemy;
            if piece == Piece::Pawn {
                quiet &= !(PROMO_RANKS | ep);
            }
            if let (true, Some(info)) = (CHECKS_ONLY, &checks_only) {
                if piece != Piece::King && !info.blockers().has(from) {
                    quiet &= info.check_squares(piece);
                }
            }
            let rows = scorer.from(from, piece);
            let (danger, escape) = threats.of(piece, from);
            // Quiet moves are never promotions (those are tactical).
            for to in quiet {
                let mv = Move {
                    from,
                    to,
                    promotion: None,
                };
                if Some(mv) == tt_move || back <= floor {
                    continue;
                }
                if let (true, Some(info)) = (CHECKS_ONLY, &checks_only) {
                    if !info.quiet_gives_check(board, mv, piece) {
                        continue;
                    }
                }
                back -= 1;
                moves[back] = mv;
                pieces[back] = piece;
                let bonus = if danger.has(to) { -escape } else { escape };
                keys[n] = key(rows.score(to) + bonus, back);
                n += 1;
            }
            false
        });
        self.len = n;
        self.quiets_filtered = checks_only.is_some();
    }

    #[inline]
    fn capture_score(
        stm: cozy_chess::Color,
        mv: Move,
        piece: Piece,
        victim: Option<Piece>,
        hist: &History,
    ) -> i32 {
        match mv.promotion {
            Some(p) if p != Piece::Queen => UNDER_PROMOTION + victim.map_or(0, piece_value),
            _ => {
                let v = victim.map_or(0, piece_value) + mv.promotion.map_or(0, piece_value);
                let ch = victim.map_or(0, |vp| hist.capture_score(stm, piece, mv.to, vp));
                GOOD_CAPTURE + v * 8 + ch / 32
            }
        }
    }

    /// Keeps only the remaining quiet moves that give check (late-move pruning has
    /// started): they are the only ones still returned, so only they need ordering.
    #[inline(never)]
    fn keep_checking_quiets(&mut self, board: &Board, info: &CheckInfo) {
        let mut kept = self.quiet_idx;
        for i in self.quiet_idx..self.len {
            let k = self.keys[i];
            let slot = key_slot(k);
            if info.quiet_gives_check(board, self.moves[slot], self.pieces[slot]) {
                self.keys[kept] = k;
                kept += 1;
            }
        }
        self.len = kept;
    }

    /// Moves the best remaining quiet key to `quiet_idx`.
    #[inline]
    fn select_quiet(&mut self) {
        let from = self.quiet_idx;
        let rest = &mut self.keys[from..self.len];
        let mut best = 0;
        let mut best_key = rest[0];
        for (i, &k) in rest.iter().enumerate().skip(1) {
            if k > best_key {
                best_key = k;
                best = i;
            }
        }
        rest.swap(0, best);
    }

    /// Sorts the remaining quiet keys best first.
    #[inline(never)]
    fn sort_quiets(&mut self) {
        self.keys[self.quiet_idx..self.len].sort_unstable_by(|a, b| b.cmp(a));
    }

    /// Index of the best-scored capture key in `cap_idx..n_captures` (the first among
    /// equals).
    #[inline]
    fn best_capture(&self) -> usize {
        let rest = &self.keys[self.cap_idx..self.n_captures];
        let mut best = 0;
        let mut best_score = rest[0] >> 32;
        for (i, &k) in rest.iter().enumerate().skip(1) {
            if k >> 32 > best_score {
                best_score = k >> 32;
                best = i;
            }
        }
        self.cap_idx + best
    }

    /// The moving piece of refutation move `mv` (a killer or the counter move, from other
    /// positions), when it is a legal quiet move here that was not returned already, and,
    /// once late-move pruning has started, gives check. Found without generating the quiet
    /// moves; the quiet stage skips it if it meets it again.
    #[inline(never)]
    fn refutation_ok(&self, board: &Board, mv: Move) -> Option<Piece> {
        if Some(mv) == self.tt_move
            || mv.promotion.is_some()
            || self.early[..self.n_early].contains(&mv)
            || board.colors(!board.side_to_move()).has(mv.to)
        {
            return None;
        }
        let piece = board.piece_on(mv.from)?;
        if piece == Piece::Pawn && Some(mv.to) == ep_square(board) || !board.is_legal(mv) {
            return None;
        }
        match &self.skip_quiets {
            Some(info) if !info.quiet_gives_check(board, mv, piece) => None,
            _ => Some(piece),
        }
    }

    /// The hash move, when it is legal here (and tactical, for a captures-only picker).
    #[inline(never)]
    fn tt_move_ok(&self, board: &Board, mv: Move) -> bool {
        board.is_legal(mv)
            && (!self.captures_only
                || captured_piece(board, mv).is_some()
                    && !board.colors(board.side_to_move()).has(mv.to)
                || mv.promotion == Some(Piece::Queen))
    }

    /// The next move to try, or `None` when exhausted.
    pub fn next(&mut self, board: &Board, hist: &History, ctx: &OrderContext) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::Generate;
                    if let Some(mv) = self.tt_move {
                        if self.tt_move_ok(board, mv) {
                            self.last_piece = board.piece_on(mv.from).unwrap_or(Piece::Pawn);
                            self.last_victim = if board.colors(board.side_to_move()).has(mv.to) {
                                None
                            } else {
                                captured_piece(board, mv)
                            };
                            self.last_see = None;
                            return Some(mv);
                        }
                        self.tt_move = None;
                    }
                }
                Stage::Generate => {
                    self.generate_captures(board, hist);
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => {
                    if self.cap_idx >= self.n_captures {
                        self.stage = Stage::Refutations;
                        continue;
                    }
                    let best = self.best_capture();
                    let k = self.keys[best];
                    let score = key_score(k);
                    if score < GOOD_CAPTURE {
                        self.stage = Stage::Refutations;
                        continue;
                    }
                    let slot = key_slot(k);
                    let mv = self.moves[slot];
                    if !self.captures_only
                        && !see_ge_known(board, mv, self.pieces[slot], self.victims[slot], 0)
                    {
                        self.keys[best] = key(BAD_CAPTURE + (score - GOOD_CAPTURE) / 8, slot);
                        continue;
                    }
                    let mv = self.take_capture(best);
                    self.last_see = (!self.captures_only).then_some(true);
                    return Some(mv);
                }
                Stage::Refutations => {
                    if self.captures_only || self.refutation_idx >= 3 {
                        self.stage = Stage::ScoreQuiets;
                        continue;
                    }
                    let mv = [ctx.killers[0], ctx.killers[1], ctx.counter][self.refutation_idx];
                    self.refutation_idx += 1;
                    if let Some(mv) = mv {
                        if let Some(piece) = self.refutation_ok(board, mv) {
                            self.early[self.n_early] = mv;
                            self.n_early += 1;
                            self.last_piece = piece;
                            self.last_victim = None;
                            self.last_see = None;
                            return Some(mv);
                        }
                    }
                }
                Stage::ScoreQuiets => {
                    if self.captures_only {
                        self.stage = Stage::BadCaptures;
                        continue;
                    }
                    self.generate_quiets(board, hist, ctx);
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    if !self.quiets_filtered {
                        if let Some(info) = &self.skip_quiets {
                            let info = *info;
                            self.keep_checking_quiets(board, &info);
                            self.quiets_filtered = true;
                        }
                    }
                    if self.quiet_idx >= self.len {
                        self.stage = Stage::BadCaptures;
                        continue;
                    }
                    if self.quiets_picked < QUIET_SELECTIONS {
                        self.select_quiet();
                    } else if self.quiets_picked == QUIET_SELECTIONS {
                        self.sort_quiets();
                    }
                    self.quiets_picked += 1;
                    let k = self.keys[self.quiet_idx];
                    self.quiet_idx += 1;
                    let slot = key_slot(k);
                    // A refutation met again (returned before generation) is skipped.
                    if self.n_early > 0 && self.early[..self.n_early].contains(&self.moves[slot]) {
                        continue;
                    }
                    self.last_piece = self.pieces[slot];
                    self.last_victim = None;
                    self.last_see = None;
                    return Some(self.moves[slot]);
                }
                Stage::BadCaptures => {
                    if self.cap_idx >= self.n_captures {
                        return None;
                    }
                    let best = self.best_capture();
                    // Captures demoted by SEE score near BAD_CAPTURE; under-promotions,
                    // never looked at, far below.
                    let demoted = key_score(self.keys[best]) > (BAD_CAPTURE + UNDER_PROMOTION) / 2;
                    let mv = self.take_capture(best);
                    self.last_see = demoted.then_some(false);
                    return Some(mv);
                }
            }
        }
    }

    /// Swaps the capture key at `best` to the next capture position, consumes it and
    /// returns its move.
    #[inline]
    fn take_capture(&mut self, best: usize) -> Move {
        let i = self.cap_idx;
        self.keys.swap(i, best);
        let slot = key_slot(self.keys[i]);
        self.last_piece = self.pieces[slot];
        self.last_victim = self.victims[slot];
        self.cap_idx += 1;
        self.moves[slot]
    }
}

#[cfg(test)]
#[path = "movepick_tests.rs"]
mod tests;
