//! Chess960 on the local server: the words that ask for it in `seek` and `match`
//! (lasker 2.2's `fr`, FICS's `wild fr`), and the random start position of a new game.

use chess::chess960;
use cozy_chess::Board;
use rand::Rng;

/// True for a word that names a variant rather than a time, rating or colour.
pub fn is_variant_word(word: &str) -> bool {
    matches!(
        word.to_ascii_lowercase().as_str(),
        "fr" | "fischerandom" | "wild" | "w22"
    )
}

/// Whether the arguments of `seek` or `match` ask for Chess960: `fr` or `fischerandom`
/// (lasker), `wild fr` (FICS). A `wild` board other than `fr` is not offered here.
/// ICC's `wild 22` (two words) as the one word `w22`, so `22` is not read as a time.
pub fn join_wild_number<'a>(args: &[&'a str]) -> Vec<&'a str> {
    let mut out = Vec::with_capacity(args.len());
    let mut i = 0;
    while let Some(a) = args.get(i) {
        if a.eq_ignore_ascii_case("wild") && args.get(i + 1) == Some(&"22") {
            out.push("w22");
            i += 2;
        } else {
            out.push(a);
            i += 1;
        }
    }
    out
}

pub fn chess960_words(args: &[&str]) -> Result<bool, String> {
    let words: Vec<String> = args
        .iter()
        .filter(|a| is_variant_word(a))
        .map(|a| a.to_ascii_lowercase())
        .collect();
    match words.as_slice() {
        [] => Ok(false),
        w if w.iter().any(|x| x != "wild") => Ok(true),
        _ => Err("No such category/board: wild (only wild fr is played here).\n".into()),
    }
}

/// A start position drawn from the 960, as a new Chess960 game gets it.
pub fn random_start(rng: &mut impl Rng) -> Board {
    let n = rng.gen_range(0..chess960::POSITIONS);
    chess960::start_position(n).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn words() {
        assert_eq!(chess960_words(&["5", "0", "fr"]), Ok(true));
        assert_eq!(chess960_words(&["5", "0", "WILD", "fr"]), Ok(true));
        assert_eq!(chess960_words(&["fischerandom", "rated"]), Ok(true));
        assert_eq!(chess960_words(&["5", "0", "rated"]), Ok(false));
        assert!(chess960_words(&["wild"]).is_err());
        assert!(!is_variant_word("5") && is_variant_word("Fr"));
        assert_eq!(
            join_wild_number(&["5", "0", "wild", "22"]),
            vec!["5", "0", "w22"]
        );
        assert_eq!(chess960_words(&join_wild_number(&["wild", "22"])), Ok(true));
        assert_eq!(chess960_words(&["3", "0", "w22"]), Ok(true));
    }

    #[test]
    fn random_starts_are_start_positions() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..50 {
            let b = random_start(&mut rng);
            seen.insert(chess960::index_of(&b).expect("a 960 start"));
        }
        assert!(seen.len() > 40);
    }
}
