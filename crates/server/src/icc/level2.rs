//! A client's level-2 settings on the local server's ICC dialect: one on/off switch per
//! DG number, set all at once from the bit string of `level2settings=` at the login
//! prompt (leftmost bit is DG 0) or one at a time with `set-2 N V`.

/// The highest DG number a client can switch (ICC's table stops below 200).
pub const MAX_DG: usize = 255;

/// Which DGs a client asked for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Level2 {
    bits: [u64; 4],
}

impl Level2 {
    /// Nothing on (a FICS client, or an ICC client that asked for no DGs).
    pub fn none() -> Level2 {
        Level2::default()
    }

    /// From a `level2settings=` bit string: `1` turns DG i on for the i-th character,
    /// anything else leaves it off; characters past [`MAX_DG`] are ignored.
    pub fn from_bits(text: &str) -> Level2 {
        let mut l = Level2::none();
        for (i, c) in text.chars().take(MAX_DG + 1).enumerate() {
            l.set(i, c == '1');
        }
        l
    }

    /// Whether DG `n` is on.
    pub fn on(&self, n: usize) -> bool {
        n <= MAX_DG
            && self
                .bits
                .get(n / 64)
                .is_some_and(|w| w & (1 << (n % 64)) != 0)
    }

    /// Turn DG `n` on or off (numbers past [`MAX_DG`] are ignored).
    pub fn set(&mut self, n: usize, on: bool) {
        if n > MAX_DG {
            return;
        }
        if let Some(w) = self.bits.get_mut(n / 64) {
            if on {
                *w |= 1 << (n % 64);
            } else {
                *w &= !(1 << (n % 64));
            }
        }
    }

    /// Whether any DG is on.
    #[cfg(test)]
    pub fn any(&self) -> bool {
        self.bits.iter().any(|w| *w != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_strings_and_set2() {
        let l = Level2::from_bits("1001x1");
        assert!(l.on(0) && !l.on(1) && !l.on(2) && l.on(3) && !l.on(4) && l.on(5));
        assert!(!l.on(200) && !l.on(10_000));
        let mut l = Level2::none();
        assert!(!l.any());
        l.set(139, true);
        l.set(9999, true);
        assert!(l.on(139) && l.any());
        l.set(139, false);
        assert!(!l.any());
        let long: String = "1".repeat(400);
        assert!(Level2::from_bits(&long).on(MAX_DG));
    }
}
