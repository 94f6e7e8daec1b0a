//! The match's games in the order they are started: pairings (gauntlet or round robin),
//! rounds, game pairs, colours and the opening each game uses.
//!
//! Each pairing plays `games` games per round. With `repeat`, games come in pairs that
//! share an opening with colours reversed (the first engine of the pairing has White in
//! the pair's first game); without it, every game takes the next opening and colours
//! alternate. Every pairing sees the same openings in the same order, and the pairings
//! are interleaved so that a stopped match has played them evenly.

use super::config::Tournament;

/// One scheduled game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    /// 0-based game number in the match (the PGN `Round` is this plus one).
    pub number: usize,
    pub round: u32,
    /// Index into the pairings.
    pub pairing: usize,
    pub white: usize,
    pub black: usize,
    /// Index of the opening in the book's order.
    pub opening: usize,
    /// The pair this game belongs to (with `repeat`).
    pub pair: Option<usize>,
}

/// The pairings: `(first, second)` engine indices.
pub fn pairings(engines: usize, tournament: Tournament) -> Vec<(usize, usize)> {
    match tournament {
        Tournament::Gauntlet => (1..engines).map(|i| (0, i)).collect(),
        Tournament::RoundRobin => (0..engines)
            .flat_map(|i| (i + 1..engines).map(move |j| (i, j)))
            .collect(),
    }
}

/// How colours are given out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Colours {
    /// Keep the same colours in every game of a pairing (`-noswap`): no reversal within a
    /// pair, no alternation without pairs.
    pub noswap: bool,
    /// The pairing's second engine takes White where the first would (`-reverse`).
    pub reverse: bool,
}

/// Every game of the match in starting order.
pub fn schedule(pairs: &[(usize, usize)], games: u32, rounds: u32, repeat: bool) -> Vec<Job> {
    schedule_with(pairs, games, rounds, repeat, Colours::default())
}

/// Every game of the match in starting order, colours as `colours` says.
pub fn schedule_with(
    pairs: &[(usize, usize)],
    games: u32,
    rounds: u32,
    repeat: bool,
    colours: Colours,
) -> Vec<Job> {
    let unit = if repeat { 2 } else { 1 };
    let units = games.div_ceil(unit) as usize;
    let mut jobs = Vec::new();
    let mut pair_id = 0;
    for round in 0..rounds {
        for k in 0..units {
            let opening = round as usize * units + k;
            for (p, &(a, b)) in pairs.iter().enumerate() {
                let (a, b) = if colours.reverse { (b, a) } else { (a, b) };
                // Colours: both ways for a pair, else alternating with the opening.
                let games: &[(usize, usize)] = if repeat && colours.noswap {
                    &[(a, b), (a, b)]
                } else if repeat {
                    &[(a, b), (b, a)]
                } else if colours.noswap || opening.is_multiple_of(2) {
                    &[(a, b)]
                } else {
                    &[(b, a)]
                };
                for &(white, black) in games {
                    jobs.push(Job {
                        number: jobs.len(),
                        round,
                        pairing: p,
                        white,
                        black,
                        opening,
                        pair: repeat.then_some(pair_id),
                    });
                }
                if repeat {
                    pair_id += 1;
                }
            }
        }
    }
    jobs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairing_kinds() {
        assert_eq!(pairings(3, Tournament::Gauntlet), vec![(0, 1), (0, 2)]);
        assert_eq!(
            pairings(3, Tournament::RoundRobin),
            vec![(0, 1), (0, 2), (1, 2)]
        );
        assert_eq!(
            pairings(2, Tournament::RoundRobin),
            pairings(2, Tournament::Gauntlet)
        );
    }

    #[test]
    fn repeat_makes_pairs_with_shared_openings() {
        let p = pairings(3, Tournament::Gauntlet);
        let jobs = schedule(&p, 4, 1, true);
        assert_eq!(jobs.len(), 8);
        // Interleaved: pair of (0,1), pair of (0,2), next pair of (0,1), ...
        let shape: Vec<_> = jobs
            .iter()
            .map(|j| (j.white, j.black, j.opening, j.pair))
            .collect();
        assert_eq!(
            shape,
            vec![
                (0, 1, 0, Some(0)),
                (1, 0, 0, Some(0)),
                (0, 2, 0, Some(1)),
                (2, 0, 0, Some(1)),
                (0, 1, 1, Some(2)),
                (1, 0, 1, Some(2)),
                (0, 2, 1, Some(3)),
                (2, 0, 1, Some(3)),
            ]
        );
        assert!(jobs.iter().enumerate().all(|(i, j)| j.number == i));
    }

    #[test]
    fn noswap_and_reverse() {
        let p = pairings(2, Tournament::RoundRobin);
        let colours = |c: Colours, repeat: bool| -> Vec<(usize, usize)> {
            schedule_with(&p, 4, 1, repeat, c)
                .iter()
                .map(|j| (j.white, j.black))
                .collect()
        };
        let noswap = Colours {
            noswap: true,
            reverse: false,
        };
        let reverse = Colours {
            noswap: false,
            reverse: true,
        };
        assert_eq!(colours(noswap, true), vec![(0, 1); 4]);
        assert_eq!(colours(noswap, false), vec![(0, 1); 4]);
        assert_eq!(colours(reverse, true), vec![(1, 0), (0, 1), (1, 0), (0, 1)]);
        assert_eq!(
            colours(reverse, false),
            vec![(1, 0), (0, 1), (1, 0), (0, 1)]
        );
        let both = Colours {
            noswap: true,
            reverse: true,
        };
        assert_eq!(colours(both, true), vec![(1, 0); 4]);
        assert_eq!(schedule_with(&p, 4, 1, true, noswap)[1].pair, Some(0));
    }

    #[test]
    fn odd_games_round_up_with_repeat_and_rounds_continue_openings() {
        let p = pairings(2, Tournament::RoundRobin);
        let jobs = schedule(&p, 3, 2, true);
        assert_eq!(jobs.len(), 8);
        assert_eq!(jobs[4].round, 1);
        assert_eq!(jobs[4].opening, 2);
        let single = schedule(&p, 3, 1, false);
        let colours: Vec<_> = single.iter().map(|j| (j.white, j.opening)).collect();
        assert_eq!(colours, vec![(0, 0), (1, 1), (0, 2)]);
    }
}
