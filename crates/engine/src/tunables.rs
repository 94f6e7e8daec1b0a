//! The search's tunable constants: pruning margins and the depths they apply at,
//! reductions, extension margins, the history bonus and the aspiration window, each with
//! its default, its legal range and SPSA's perturbation at the end of a run (`wily spsa`,
//! see `match/spsa.rs`). Front ends set them by name (UCI `setoption`); the search reads
//! them from a [`SearchParams`] shared by every thread of a search, with the late-move
//! reduction table rebuilt from its two constants whenever one of them changes. Making them
//! settable changed nothing (the bench signature stayed the same each time); the defaults
//! of the first 26 are the values two `wily spsa` runs found, each accepted by an SPRT
//! (docs/tuning.md, "Search constants"); the history bonus's four are still the hand-set values.
//! The last five are the amounts of Crafty's extensions (`extend.rs`, the console's
//! `extensions`), in hundredths of a ply: the check extension at a ply (as before they were
//! settable), the other four off.

/// One tunable constant: its name (also the UCI option's), default, range and SPSA step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tunable {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    /// SPSA's perturbation at the end of a run (the `c_end` of the usual schedule).
    pub step: i32,
    pub doc: &'static str,
}

macro_rules! tunables {
    ($($field:ident = $def:expr, $min:expr, $max:expr, $step:expr, $doc:literal;)*) => {
        /// Every tunable constant, in the order [`SearchParams`] holds them.
        pub const TUNABLES: &[Tunable] = &[$(Tunable {
            name: stringify!($field),
            default: $def,
            min: $min,
            max: $max,
            step: $step,
            doc: $doc,
        }),*];

        /// The values one search uses (see [`TUNABLES`] for what each means).
        #[derive(Clone, Debug)]
        pub struct SearchParams {
            $(#[doc = $doc] pub $field: i32,)*
            /// The late-move reduction table, inline (read at every reduced move).
            lmr: [[i32; 64]; 64],
        }

        impl SearchParams {
            fn slot(&mut self, name: &str) -> Option<&mut i32> {
                match name {
                    $(stringify!($field) => Some(&mut self.$field),)*
                    _ => None,
                }
            }

            /// The value of a tunable by name.
            pub fn get(&self, name: &str) -> Option<i32> {
                match name {
                    $(stringify!($field) => Some(self.$field),)*
                    _ => None,
                }
            }

            fn defaults() -> SearchParams {
                SearchParams {
                    $($field: $def,)*
                    lmr: [[0; 64]; 64],
                }
            }
        }
    };
}

tunables! {
    rfp_margin = 102, 40, 200, 8, "Reverse futility margin per remaining ply (cp).";
    razor_margin = 270, 100, 500, 20, "Razoring margin per remaining ply (cp).";
    nmp_eval_div = 190, 80, 400, 20, "Null move: one ply more reduction per this much eval above beta (cp).";
    nmp_slope = 23, 0, 40, 3, "Null move: static evaluation needed drops by this per ply (cp).";
    nmp_base = 143, 0, 300, 15, "Null move: static evaluation needed above beta at depth 0 (cp).";
    se_margin = 21, 5, 50, 3, "Singular extension: margin below the hash score, tenths of a cp per ply.";
    lmr_base = 83, 0, 200, 8, "Late-move reduction table: constant term (hundredths of a ply).";
    lmr_div = 159, 120, 400, 15, "Late-move reduction table: divisor of ln(depth) ln(moves) (hundredths).";
    lmr_hist_div = 8493, 3000, 16000, 800, "Late-move reductions: one ply less per this much quiet history.";
    lmp_base = 6, 0, 10, 1, "Late-move pruning: quiet moves tried before the rest are pruned, plus depth squared.";
    fut_base = 83, 20, 250, 10, "Futility pruning of quiet moves: constant margin (cp).";
    fut_slope = 107, 30, 200, 8, "Futility pruning of quiet moves: margin per ply of reduced depth (cp).";
    hist_prune = 3248, 500, 8000, 300, "History pruning: quiet moves below minus this per ply are pruned.";
    see_quiet = 29, 5, 80, 3, "SEE pruning of quiet moves: loss allowed per squared ply of reduced depth (cp).";
    see_capture = 98, 30, 200, 9, "SEE pruning of captures: loss allowed per ply (cp).";
    delta_margin = 224, 50, 400, 15, "Quiescence delta pruning's safety margin (cp).";
    asp_delta = 14, 5, 60, 2, "Aspiration window's first half-width (cp).";
    rfp_depth = 3, 1, 10, 1, "Reverse futility pruning: deepest remaining depth it applies at.";
    razor_depth = 2, 1, 8, 1, "Razoring: deepest remaining depth it applies at.";
    se_depth = 7, 4, 12, 1, "Singular extension: shallowest depth the hash move is tested at.";
    nmp_r_base = 4, 1, 6, 1, "Null move: constant part of the reduction (plies).";
    nmp_depth_div = 4, 2, 10, 1, "Null move: one ply more reduction per this many plies of depth.";
    iir_depth = 3, 2, 10, 1, "Internal iterative reduction: shallowest depth without a hash move.";
    fut_depth = 8, 3, 14, 1, "Futility pruning of quiet moves: deepest reduced depth it applies at.";
    hist_prune_depth = 2, 1, 8, 1, "History pruning: deepest reduced depth it applies at.";
    see_capture_depth = 5, 2, 12, 1, "SEE pruning of captures: deepest depth it applies at.";
    hist_bonus_quad = 16, 4, 40, 2, "History bonus for a cutoff: this times depth squared, plus the next.";
    hist_bonus_lin = 32, 0, 100, 5, "History bonus for a cutoff: this times depth.";
    hist_bonus_max = 2000, 800, 4000, 150, "History bonus for a cutoff: its cap.";
    hist_malus_pct = 100, 40, 200, 8, "History malus of the moves tried before a cutoff, percent of the bonus.";
    ext_incheck = 100, 0, 100, 10, "Check extension: hundredths of a ply for a move that gives check (Crafty's extensions incheck).";
    ext_onerep = 0, 0, 100, 10, "One-reply extension: hundredths of a ply for the only legal move out of check (Crafty's onerep; off).";
    ext_pushpp = 0, 0, 100, 10, "Passed pawn extension: hundredths of a ply for a passed pawn's push to the 6th or 7th rank without queens (Crafty's pushpp; off).";
    ext_recapture = 0, 0, 100, 10, "Recapture extension: hundredths of a ply for taking back an equal piece on its square (Crafty's recapture; off).";
    ext_mate = 0, 0, 100, 10, "Mate threat extension: hundredths of a ply for every move of a node whose null move is mated (Crafty's mate; off).";
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams::new()
    }
}

impl SearchParams {
    /// The defaults.
    pub fn new() -> SearchParams {
        let mut p = SearchParams::defaults();
        p.rebuild();
        p
    }

    /// Sets a tunable by name (ASCII case ignored), clamped to its range; the clamped value,
    /// or an error for an unknown name.
    pub fn set(&mut self, name: &str, value: i32) -> Result<i32, String> {
        let lower = name.to_ascii_lowercase();
        let t = TUNABLES
            .iter()
            .find(|t| t.name == lower)
            .ok_or_else(|| format!("no search parameter named '{name}'"))?;
        let v = value.clamp(t.min, t.max);
        if let Some(slot) = self.slot(t.name) {
            *slot = v;
        }
        if matches!(t.name, "lmr_base" | "lmr_div") {
            self.rebuild();
        }
        Ok(v)
    }

    /// The history bonus of the move that caused a cutoff at `depth`; the moves tried
    /// before it lose `hist_malus_pct` percent of it.
    #[inline]
    pub fn history_bonus(&self, depth: i32) -> i32 {
        (depth * depth * self.hist_bonus_quad + depth * self.hist_bonus_lin)
            .min(self.hist_bonus_max)
    }

    /// The late-move reduction for `depth` and the move's number.
    #[inline]
    pub fn lmr(&self, depth: i32, moves: usize) -> i32 {
        self.lmr[(depth.clamp(0, 63)) as usize][moves.min(63)]
    }

    fn rebuild(&mut self) {
        let base = f64::from(self.lmr_base) / 100.0;
        let div = f64::from(self.lmr_div) / 100.0;
        for (d, row) in self.lmr.iter_mut().enumerate() {
            for (m, r) in row.iter_mut().enumerate() {
                *r = if d == 0 || m == 0 {
                    0
                } else {
                    (base + (d as f64).ln() * (m as f64).ln() / div) as i32
                };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_in_range_and_readable_by_name() {
        let p = SearchParams::new();
        for t in TUNABLES {
            assert!(t.min <= t.default && t.default <= t.max, "{}", t.name);
            assert!(t.step > 0 && t.step < t.max - t.min, "{}", t.name);
            assert_eq!(p.get(t.name), Some(t.default), "{}", t.name);
        }
        let mut names: Vec<_> = TUNABLES.iter().map(|t| t.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), TUNABLES.len());
    }

    #[test]
    fn set_clamps_rejects_unknown_names_and_rebuilds_the_reduction_table() {
        let mut p = SearchParams::new();
        // The default table: lmr_base / 100 + ln d ln m / (lmr_div / 100).
        let (b, d) = (f64::from(p.lmr_base) / 100.0, f64::from(p.lmr_div) / 100.0);
        assert_eq!(p.lmr(1, 1), b as i32);
        assert_eq!(p.lmr(10, 20), (b + 10f64.ln() * 20f64.ln() / d) as i32);
        assert_eq!(p.lmr(0, 30), 0);
        assert_eq!(p.set("RFP_Margin", 120), Ok(120));
        assert_eq!(p.rfp_margin, 120);
        assert_eq!(p.set("rfp_margin", 10_000), Ok(200));
        assert!(p.set("no_such_thing", 1).is_err());
        let before = p.lmr(20, 40);
        p.set("lmr_div", 150).unwrap();
        assert!(p.lmr(20, 40) > before);
        p.set("lmr_base", 200).unwrap();
        assert_eq!(p.lmr(2, 1), 2);
    }
}
