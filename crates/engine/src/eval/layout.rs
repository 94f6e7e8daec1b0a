//! The layout of [`EvalParams`] for the tuner: every field by name in declaration order,
//! its shape, all the weights as one flat run of `i32` (an [`S`] is two: middlegame then
//! endgame), and the role each weight plays in the evaluation (linear, king danger, endgame
//! scale factor, or fixed), which decides how the tuner fits it.

use super::params::EvalParams;
use super::score::S;

/// The values of a field: an `i32`, an [`S`], or an array of either (nested arrays too).
pub trait Values {
    /// Array dimensions, outermost first (empty for a single value).
    fn dims(&self) -> Vec<usize>;
    /// True when the elements are [`S`] pairs.
    fn pairs(&self) -> bool;
    /// Appends the values, flattened, to `out`.
    fn push_to(&self, out: &mut Vec<i32>);
    /// Replaces the values with the next ones of `from`, in `push_to`'s order.
    fn take_from(&mut self, from: &mut std::slice::Iter<'_, i32>);
    /// The first value (its address places the field in the flat run).
    fn first_i32(&self) -> &i32;
}

impl Values for i32 {
    fn dims(&self) -> Vec<usize> {
        Vec::new()
    }
    fn pairs(&self) -> bool {
        false
    }
    fn push_to(&self, out: &mut Vec<i32>) {
        out.push(*self);
    }
    fn take_from(&mut self, from: &mut std::slice::Iter<'_, i32>) {
        if let Some(v) = from.next() {
            *self = *v;
        }
    }
    fn first_i32(&self) -> &i32 {
        self
    }
}

impl Values for S {
    fn dims(&self) -> Vec<usize> {
        Vec::new()
    }
    fn pairs(&self) -> bool {
        true
    }
    fn push_to(&self, out: &mut Vec<i32>) {
        out.extend([self.mg, self.eg]);
    }
    fn take_from(&mut self, from: &mut std::slice::Iter<'_, i32>) {
        self.mg.take_from(from);
        self.eg.take_from(from);
    }
    fn first_i32(&self) -> &i32 {
        &self.mg
    }
}

impl<T: Values, const N: usize> Values for [T; N] {
    fn dims(&self) -> Vec<usize> {
        let inner = self.first().map(|t| t.dims()).unwrap_or_default();
        std::iter::once(N).chain(inner).collect()
    }
    fn pairs(&self) -> bool {
        self.first().is_some_and(|t| t.pairs())
    }
    fn push_to(&self, out: &mut Vec<i32>) {
        self.iter().for_each(|t| t.push_to(out));
    }
    fn take_from(&mut self, from: &mut std::slice::Iter<'_, i32>) {
        self.iter_mut().for_each(|t| t.take_from(from));
    }
    fn first_i32(&self) -> &i32 {
        self[0].first_i32()
    }
}

/// Which percentage knob scales a weight's term. Each group is summed per colour and then
/// scaled as a whole (with the evaluation's truncation), so it is also the unit of that
/// rounding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// No knob.
    Plain,
    /// `pawn_structure_scale`.
    PawnStructure,
    /// `passed_pawn_scale`, the part cached with the pawn structure (`passed_rank`).
    PassedStatic,
    /// `passed_pawn_scale`, the part that depends on the pieces.
    PassedPieces,
    /// `blocked_pawn_scale`.
    BlockedPawns,
    /// `tropism_scale`.
    Tropism,
    /// `king_safety_scale` (shelter and storm; the danger penalty joins it).
    KingSafety,
}

impl Group {
    /// Every group.
    pub const ALL: [Group; 7] = [
        Group::Plain,
        Group::PawnStructure,
        Group::PassedStatic,
        Group::PassedPieces,
        Group::BlockedPawns,
        Group::Tropism,
        Group::KingSafety,
    ];

    /// The knob's percentage in `p` (100 for `Plain`).
    pub fn percent(self, p: &EvalParams) -> i32 {
        match self {
            Group::Plain => 100,
            Group::PawnStructure => p.pawn_structure_scale,
            Group::PassedStatic | Group::PassedPieces => p.passed_pawn_scale,
            Group::BlockedPawns => p.blocked_pawn_scale,
            Group::Tropism => p.tropism_scale,
            Group::KingSafety => p.king_safety_scale,
        }
    }
}

/// What a weight does in the evaluation, which decides how the tuner fits it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// An [`S`] added to both halves a whole number of times: linear.
    Linear(Group),
    /// An `i32` added to the endgame half a whole number of times: linear.
    EndgameLinear(Group),
    /// An `i32` added into a king's danger, whose middlegame penalty is its square.
    Danger,
    /// `king_danger_eg_divisor`: the endgame penalty is the danger divided by it.
    DangerEgDivisor,
    /// An endgame scale factor (out of 128) that multiplies one or both halves.
    ScaleFactor,
    /// Not fitted: the danger's unit (`king_danger_divisor`) and cap, the pawnless margin
    /// (a threshold on fixed material values), the percentage knobs (users' settings).
    Fixed,
}

/// The role of the weights of field `name`.
fn role_of(name: &str) -> Role {
    match name {
        "pawn_doubled" | "pawn_isolated" | "pawn_isolated_open" | "pawn_backward"
        | "pawn_backward_open" | "pawn_supported" | "pawn_phalanx" | "pawn_candidate" => {
            Role::Linear(Group::PawnStructure)
        }
        "passed_rank" => Role::Linear(Group::PassedStatic),
        "passed_blockaded"
        | "passed_free_path"
        | "passed_safe_path"
        | "passed_unstoppable"
        | "passed_rook_behind"
        | "passed_enemy_rook_behind" => Role::Linear(Group::PassedPieces),
        "passed_enemy_king_distance" | "passed_own_king_distance" => {
            Role::EndgameLinear(Group::PassedPieces)
        }
        "pawn_blocked" => Role::Linear(Group::BlockedPawns),
        "tropism" => Role::Linear(Group::Tropism),
        "king_shield" | "king_storm" | "king_storm_blocked" | "king_pawnless_flank" => {
            Role::Linear(Group::KingSafety)
        }
        "king_attack_weight" | "king_zone_attack" | "king_weak_square" | "king_safe_check"
        | "king_no_queen" | "king_unsafe_check" | "king_defender" | "king_flank_attack"
        | "king_blocker" => Role::Danger,
        "king_danger_eg_divisor" => Role::DangerEgDivisor,
        "scale_ocb" | "scale_ocb_pieces" | "scale_pawnless" | "scale_one_pawn"
        | "scale_knn_vs_pawns" => Role::ScaleFactor,
        "king_danger_divisor"
        | "king_danger_max"
        | "pawnless_margin"
        | "king_safety_scale"
        | "king_safety_own"
        | "king_safety_opponent"
        | "tropism_scale"
        | "pawn_structure_scale"
        | "passed_pawn_scale"
        | "blocked_pawn_scale" => Role::Fixed,
        _ => Role::Linear(Group::Plain),
    }
}

/// One field of [`EvalParams`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// The field's name.
    pub name: &'static str,
    /// Index of its first `i32` in the flat run.
    pub start: usize,
    /// Number of `i32`s.
    pub len: usize,
    /// Array dimensions, outermost first (empty for a single value).
    pub dims: Vec<usize>,
    /// True when the elements are [`S`] pairs (middlegame, endgame).
    pub pairs: bool,
    /// What its weights do.
    pub role: Role,
}

/// Visits every field of `p` (name and values) in declaration order.
macro_rules! visit_fields {
    ($($name:ident),* $(,)?) => {
        fn visit(p: &EvalParams, f: &mut dyn FnMut(&'static str, &dyn Values)) {
            $( f(stringify!($name), &p.$name); )*
        }
        fn visit_mut(p: &mut EvalParams, f: &mut dyn FnMut(&mut dyn Values)) {
            $( f(&mut p.$name); )*
        }
    };
}

visit_fields!(
    piece_value,
    pst,
    mobility_knight,
    mobility_bishop,
    mobility_rook,
    mobility_queen,
    pawn_doubled,
    pawn_isolated,
    pawn_isolated_open,
    pawn_backward,
    pawn_backward_open,
    pawn_supported,
    pawn_phalanx,
    pawn_candidate,
    passed_rank,
    passed_enemy_king_distance,
    passed_own_king_distance,
    passed_blockaded,
    passed_free_path,
    passed_safe_path,
    passed_unstoppable,
    passed_rook_behind,
    passed_enemy_rook_behind,
    pawn_blocked,
    king_attack_weight,
    king_zone_attack,
    king_weak_square,
    king_safe_check,
    king_no_queen,
    king_unsafe_check,
    king_defender,
    king_flank_attack,
    king_blocker,
    king_danger_divisor,
    king_danger_eg_divisor,
    king_danger_max,
    king_shield,
    king_storm,
    king_storm_blocked,
    king_pawnless_flank,
    tropism,
    bishop_pair,
    bishop_pawns,
    rook_open_file,
    rook_half_open_file,
    rook_seventh,
    queen_seventh,
    knight_outpost,
    bishop_outpost,
    threat_by_pawn,
    threat_by_minor,
    threat_by_rook,
    hanging,
    hanging_pawn,
    threat_pawn_push,
    threat_by_king,
    restricted,
    minor_behind_pawn,
    bishop_long_diagonal,
    weak_queen,
    rook_queen_file,
    knight_reachable_outpost,
    knight_on_queen,
    slider_on_queen,
    rook_on_king_ring,
    bishop_on_king_ring,
    king_protector,
    queen_infiltration,
    weak_queen_protection,
    rook_on_closed_file,
    king_pawn_distance,
    tempo,
    scale_ocb,
    scale_ocb_pieces,
    scale_pawnless,
    pawnless_margin,
    scale_one_pawn,
    scale_knn_vs_pawns,
    kpk_win,
    king_safety_scale,
    king_safety_own,
    king_safety_opponent,
    tropism_scale,
    pawn_structure_scale,
    passed_pawn_scale,
    blocked_pawn_scale,
);

/// Every field of [`EvalParams`] in declaration order.
pub fn fields() -> Vec<Field> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut scratch = Vec::new();
    visit(&EvalParams::default(), &mut |name, v| {
        scratch.clear();
        v.push_to(&mut scratch);
        out.push(Field {
            name,
            start,
            len: scratch.len(),
            dims: v.dims(),
            pairs: v.pairs(),
            role: role_of(name),
        });
        start += scratch.len();
    });
    out
}

/// The role of every `i32` of the flat run, by index.
pub fn roles() -> Vec<Role> {
    fields()
        .iter()
        .flat_map(|f| std::iter::repeat_n(f.role, f.len))
        .collect()
}

impl EvalParams {
    /// Every weight as one flat run of `i32` (see [`fields`] for what is where).
    pub fn to_flat(&self) -> Vec<i32> {
        let mut out = Vec::with_capacity(std::mem::size_of::<EvalParams>() / 4);
        visit(self, &mut |_, v| v.push_to(&mut out));
        out
    }

    /// The weights of a flat run made by [`EvalParams::to_flat`]; `None` when its length
    /// is wrong.
    pub fn from_flat(flat: &[i32]) -> Option<EvalParams> {
        if flat.len() != std::mem::size_of::<EvalParams>() / 4 {
            return None;
        }
        let mut p = EvalParams::default();
        let mut it = flat.iter();
        visit_mut(&mut p, &mut |v| v.take_from(&mut it));
        Some(p)
    }

    /// The flat index of the weight `w` (a reference into `self`), by its address: the
    /// fields are `i32`s and pairs of them in declaration order (`repr(C)`). `None` for a
    /// reference from elsewhere.
    pub fn flat_index(&self, w: &i32) -> Option<usize> {
        let base = self as *const EvalParams as usize;
        let offset = (w as *const i32 as usize).checked_sub(base)?;
        (offset < std::mem::size_of::<EvalParams>()).then_some(offset / 4)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_field_list_covers_the_struct_in_declaration_order() {
        let p = EvalParams::default();
        let fields = fields();
        let total: usize = fields.iter().map(|f| f.len).sum();
        assert_eq!(
            total * 4,
            std::mem::size_of::<EvalParams>(),
            "a field is missing"
        );
        // Each field's first i32 sits at its flat index (declaration order = memory order).
        let mut i = 0;
        visit(&p, &mut |name, v| {
            assert_eq!(fields[i].name, name);
            assert_eq!(p.flat_index(v.first_i32()), Some(fields[i].start), "{name}");
            i += 1;
        });
        assert_eq!(i, fields.len());
        assert_eq!(p.flat_index(&p.piece_value[0].mg), Some(0));
        assert_eq!(p.flat_index(&p.piece_value[1].eg), Some(3));
        assert_eq!(p.flat_index(&p.pst[1][0].mg), Some(12 + 128));
        let f = |name: &str| fields.iter().find(|f| f.name == name).expect(name).start;
        assert_eq!(p.flat_index(&p.tempo.mg), Some(f("tempo")));
        assert_eq!(
            p.flat_index(&p.blocked_pawn_scale),
            Some(f("blocked_pawn_scale"))
        );
        assert_eq!(
            p.flat_index(&p.king_safe_check[3]),
            Some(f("king_safe_check") + 3)
        );
        assert_eq!(p.flat_index(&0), None);
        let pst = fields.iter().find(|f| f.name == "pst").expect("pst");
        assert_eq!(
            (pst.dims.clone(), pst.pairs, pst.len),
            (vec![6, 64], true, 768)
        );
    }

    #[test]
    fn flat_round_trip_and_wrong_lengths() {
        let p = EvalParams::default();
        let mut flat = p.to_flat();
        assert_eq!(EvalParams::from_flat(&flat), Some(p.clone()));
        let i = p.flat_index(&p.bishop_pair.eg).expect("inside");
        flat[i] += 7;
        let q = EvalParams::from_flat(&flat).expect("same length");
        assert_eq!(q.bishop_pair.eg, p.bishop_pair.eg + 7);
        assert_eq!(EvalParams::from_flat(&flat[1..]), None);
    }

    #[test]
    fn roles_follow_the_knobs() {
        let fields = fields();
        let role = |name: &str| fields.iter().find(|f| f.name == name).expect(name).role;
        assert_eq!(role("pst"), Role::Linear(Group::Plain));
        assert_eq!(role("pawn_candidate"), Role::Linear(Group::PawnStructure));
        assert_eq!(
            role("passed_own_king_distance"),
            Role::EndgameLinear(Group::PassedPieces)
        );
        assert_eq!(role("king_no_queen"), Role::Danger);
        assert_eq!(role("scale_ocb"), Role::ScaleFactor);
        assert_eq!(role("king_safety_own"), Role::Fixed);
        assert_eq!(roles().len() * 4, std::mem::size_of::<EvalParams>());
    }
}
