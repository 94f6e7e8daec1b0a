//! Pairing a tournament round, as values: a round robin by the circle method (every
//! entrant meets every other once; with an odd number, one bye a round) and a swiss
//! round (players in score order, each paired with the nearest one it has not met, the
//! bye to the lowest-placed player who has not had one). Colours go to the player who
//! has had White less often. The director (`tourney/director.rs`) keeps the scores and asks
//! for each round here.

/// One pairing of a round: indices into the entrant list; `black` `None` is a bye
/// for `white`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pair {
    pub white: usize,
    pub black: Option<usize>,
}

/// What the pairing of a swiss round needs to know of one player.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SwissPlayer {
    /// The score in half points.
    pub halves: u32,
    /// Indices of the players already met.
    pub met: Vec<usize>,
    /// Games played with White and with Black.
    pub whites: u32,
    pub blacks: u32,
    /// Had a bye already.
    pub had_bye: bool,
    /// Still playing (a withdrawn player is not paired).
    pub active: bool,
}

/// The number of rounds a round robin of `n` entrants takes.
pub fn round_robin_rounds(n: usize) -> u32 {
    let even = n + n % 2;
    u32::try_from(even.saturating_sub(1)).unwrap_or(u32::MAX)
}

/// Round `round` (1-based) of a round robin of `n` entrants (circle method: entrant 0
/// stays, the others turn one place a round; with an odd `n` a phantom entrant `n` is
/// the bye). Colours alternate from round to round.
pub fn round_robin(n: usize, round: u32) -> Vec<Pair> {
    let m = n + n % 2;
    if m < 2 {
        return Vec::new();
    }
    let r = usize::try_from(round.saturating_sub(1)).unwrap_or(0) % (m - 1);
    // Positions 1..m of the circle after `r` turns; position 0 is fixed.
    let at = |pos: usize| -> usize {
        if pos == 0 {
            0
        } else {
            (pos - 1 + r) % (m - 1) + 1
        }
    };
    let mut out = Vec::with_capacity(m / 2);
    for i in 0..m / 2 {
        let (a, b) = (at(i), at(m - 1 - i));
        // Alternate colours: the fixed entrant by round, the others by table.
        let swap = if i == 0 { r % 2 == 1 } else { i % 2 == 1 };
        let (w, bl) = if swap { (b, a) } else { (a, b) };
        out.push(match (w >= n, bl >= n) {
            (true, _) => Pair {
                white: bl,
                black: None,
            },
            (_, true) => Pair {
                white: w,
                black: None,
            },
            _ => Pair {
                white: w,
                black: Some(bl),
            },
        });
    }
    out
}

/// A swiss round for `players` (their index is their place in the entry list, which
/// breaks ties in score).
pub fn swiss(players: &[SwissPlayer]) -> Vec<Pair> {
    let mut order: Vec<usize> = (0..players.len()).filter(|&i| players[i].active).collect();
    order.sort_by(|&a, &b| players[b].halves.cmp(&players[a].halves).then(a.cmp(&b)));
    let mut out = Vec::new();
    if order.len() % 2 == 1 {
        // The lowest-placed player without a bye yet (else the lowest-placed).
        let pick = order
            .iter()
            .rposition(|&i| !players[i].had_bye)
            .unwrap_or(order.len() - 1);
        let bye = order.remove(pick);
        out.push(Pair {
            white: bye,
            black: None,
        });
    }
    let pairs = match pair_unmet(players, &order, true) {
        Some(p) => p,
        // Everyone has met everyone nearby: pair in order, repeats allowed.
        None => pair_unmet(players, &order, false).unwrap_or_default(),
    };
    let mut games: Vec<Pair> = pairs
        .into_iter()
        .map(|(a, b)| colours(players, a, b))
        .collect();
    games.append(&mut out);
    games
}

/// Pairs `order` (best first) so that nobody meets an old opponent when `strict`;
/// backtracks when the greedy choice leaves the rest unpairable.
fn pair_unmet(
    players: &[SwissPlayer],
    order: &[usize],
    strict: bool,
) -> Option<Vec<(usize, usize)>> {
    let Some((&first, rest)) = order.split_first() else {
        return Some(Vec::new());
    };
    for k in 0..rest.len() {
        let other = rest[k];
        if strict && players[first].met.contains(&other) {
            continue;
        }
        let mut remaining = rest.to_vec();
        remaining.remove(k);
        if let Some(mut tail) = pair_unmet(players, &remaining, strict) {
            tail.insert(0, (first, other));
            return Some(tail);
        }
    }
    None
}

/// White to the one who has had White less often (the higher-placed on a tie).
fn colours(players: &[SwissPlayer], a: usize, b: usize) -> Pair {
    let balance = |p: &SwissPlayer| i64::from(p.whites) - i64::from(p.blacks);
    let (w, bl) = if balance(&players[b]) < balance(&players[a]) {
        (b, a)
    } else {
        (a, b)
    };
    Pair {
        white: w,
        black: Some(bl),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn a_round_robin_meets_everyone_once() {
        for n in 2..=8 {
            let rounds = round_robin_rounds(n);
            let mut met = HashSet::new();
            let mut byes = vec![0; n];
            for r in 1..=rounds {
                let mut seen = HashSet::new();
                for p in round_robin(n, r) {
                    assert!(seen.insert(p.white), "n {n} round {r}: twice");
                    match p.black {
                        Some(b) => {
                            assert!(seen.insert(b));
                            assert!(met.insert((p.white.min(b), p.white.max(b))), "met twice");
                        }
                        None => byes[p.white] += 1,
                    }
                }
                assert_eq!(seen.len(), n, "n {n} round {r}: everyone paired");
            }
            assert_eq!(met.len(), n * (n - 1) / 2, "n {n}: every pair met");
            let expected = usize::from(n % 2 == 1);
            assert!(byes.iter().all(|&b| b == expected), "n {n}: byes {byes:?}");
        }
        assert_eq!(round_robin_rounds(4), 3);
        assert_eq!(round_robin_rounds(5), 5);
    }

    fn player(halves: u32) -> SwissPlayer {
        SwissPlayer {
            halves,
            active: true,
            ..SwissPlayer::default()
        }
    }

    #[test]
    fn swiss_pairs_by_score_without_repeats_and_gives_one_bye() {
        let mut ps = vec![player(2), player(2), player(0), player(0)];
        // 0 met 1 already: 0 plays the next unmet (2), 1 plays 3.
        ps[0].met = vec![1];
        ps[1].met = vec![0];
        let pairs = swiss(&ps);
        let mut got: Vec<(usize, usize)> = pairs
            .iter()
            .map(|p| {
                let b = p.black.expect("no bye with four");
                (p.white.min(b), p.white.max(b))
            })
            .collect();
        got.sort();
        assert_eq!(got, vec![(0, 2), (1, 3)]);

        let mut five = vec![player(2), player(2), player(2), player(0), player(0)];
        five[4].had_bye = true;
        let pairs = swiss(&five);
        let byes: Vec<usize> = pairs
            .iter()
            .filter(|p| p.black.is_none())
            .map(|p| p.white)
            .collect();
        assert_eq!(byes, vec![3], "the lowest without a bye: {pairs:?}");
        let withdrawn = {
            let mut v = vec![player(0), player(0), player(0)];
            v[2].active = false;
            swiss(&v)
        };
        assert_eq!(withdrawn.len(), 1);
        assert!(withdrawn[0].black.is_some());
    }

    #[test]
    fn white_goes_to_who_had_it_less() {
        let mut ps = vec![player(0), player(0)];
        ps[0].whites = 1;
        ps[1].blacks = 1;
        assert_eq!(
            swiss(&ps),
            vec![Pair {
                white: 1,
                black: Some(0)
            }]
        );
    }
}
