//! The match's games in the order they are started: pairings (gauntlet or round robin),
//! rounds, game pairs, colours and the opening each game uses.
//!
//! Each pairing plays `games` games per round. With `repeat`, games come in pairs that
//! share an opening with colours reversed (the first engine of the pairing has White in
//! the pair's first game); without it, every game takes the next opening and colours
//! alternate. Every pairing sees the same openings in the same order, and the pairings
//! are interleaved so that a stopped match has played them evenly (within a stage: a
//! pyramid's stage is one engine's games against those before it, played before the next
//! engine's).

use super::config::Tournament;
use std::ops::Range;

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
        // A knockout's pairings come round by round from its bracket (`knockout.rs`);
        // all of them is what a round robin would play.
        Tournament::RoundRobin | Tournament::Knockout => (0..engines)
            .flat_map(|i| (i + 1..engines).map(move |j| (i, j)))
            .collect(),
        Tournament::Pyramid => (1..engines)
            .flat_map(|j| (0..j).map(move |i| (i, j)))
            .collect(),
    }
}

/// The pairings' stages, as ranges of pairing indices: a pyramid's stage `j` holds engine
/// `j`'s pairings with those before it; the other kinds have one stage.
pub fn stages(engines: usize, tournament: Tournament, pairs: usize) -> Vec<Range<usize>> {
    match tournament {
        Tournament::Pyramid => (1..engines)
            .map(|j| j * (j - 1) / 2..j * (j + 1) / 2)
            .collect(),
        _ => std::iter::once(0..pairs).collect(),
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
    let all = 0..pairs.len();
    schedule_staged(
        pairs,
        std::slice::from_ref(&all),
        games,
        rounds,
        repeat,
        colours,
    )
}

/// Every game of the match in starting order: per round, stage after stage (see
/// [`stages`]), each stage's pairings interleaved.
pub fn schedule_staged(
    pairs: &[(usize, usize)],
    stages: &[Range<usize>],
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
        for stage in stages {
            for k in 0..units {
                let opening = round as usize * units + k;
                for (p, &(a, b)) in pairs.iter().enumerate().take(stage.end).skip(stage.start) {
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
    fn a_pyramid_plays_each_newcomer_against_those_before_it_in_turn() {
        let p = pairings(4, Tournament::Pyramid);
        assert_eq!(p, vec![(0, 1), (0, 2), (1, 2), (0, 3), (1, 3), (2, 3)]);
        let st = stages(4, Tournament::Pyramid, p.len());
        assert_eq!(st, vec![0..1, 1..3, 3..6]);
        let jobs = schedule_staged(&p, &st, 2, 1, true, Colours::default());
        let order: Vec<_> = jobs.iter().map(|j| (j.pairing, j.opening)).collect();
        assert_eq!(
            order,
            vec![
                (0, 0),
                (0, 0),
                (1, 0),
                (1, 0),
                (2, 0),
                (2, 0),
                (3, 0),
                (3, 0),
                (4, 0),
                (4, 0),
                (5, 0),
                (5, 0)
            ]
        );
        // Each stage sees the same openings; a second game pair takes the next one.
        let jobs = schedule_staged(&p, &st, 4, 1, true, Colours::default());
        let stage2: Vec<_> = jobs[4..12].iter().map(|j| (j.pairing, j.opening)).collect();
        assert_eq!(
            stage2,
            vec![
                (1, 0),
                (1, 0),
                (2, 0),
                (2, 0),
                (1, 1),
                (1, 1),
                (2, 1),
                (2, 1)
            ]
        );
        assert_eq!(stages(3, Tournament::RoundRobin, 3), vec![0..3]);
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
