//! Knockout tournaments (`-tournament knockout`): a single-elimination bracket played
//! round by round, each round a match of its own through [`super::runner::run`].
//!
//! The bracket has a power of two of slots. Engines are ranked: the first `-seeds N`
//! engines in their command-line order, then the others in an order drawn from `-srand`;
//! ranks take the bracket's slots in the standard seeding order (rank 1 meets the last
//! rank, and ranks 1 and 2 can only meet in the final), and the ranks beyond the number
//! of engines are byes, which fall to the best ranks. A pairing plays `-games` games (and
//! `-rounds` times that); the engine with more points goes on. A tie plays two more games
//! with colours reversed, up to [`TIE_BREAKS`] times; a pairing still tied after that is
//! won by the better rank. Game numbers and openings run on across the rounds, so the PGN
//! reads as one event.
//!
//! With `-autosave` the knockout is saved as one event: its fingerprint covers the
//! engines, limits, `-srand`, bracket and every opening of the file, and its results are
//! kept by event game number. Every run (round or tie-break) saves the event after its games;
//! `-resume` checks the file once, cuts the outputs back to the save, and replays the
//! bracket from the saved results, playing only the games that are missing.

use super::openings::OpeningBook;
use super::resume::{self, EventSave};
use super::runner::{self, Summary};
use super::settings::{MatchSettings, Plan};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::fmt::Write;

/// Most two-game tie-breaks for one pairing.
pub const TIE_BREAKS: u32 = 10;

/// The rank (1-based) of each slot of a bracket of `size` slots (a power of two), in
/// slot order: neighbours meet in the first round.
pub fn seeding_order(size: usize) -> Vec<usize> {
    let mut order = vec![1];
    while order.len() < size {
        let n = order.len() * 2;
        order = order.iter().flat_map(|&r| [r, n + 1 - r]).collect();
    }
    order
}

/// The bracket's slots: the engine in each, `None` for a bye.
pub fn bracket(engines: usize, seeds: usize, srand: u64) -> Vec<Option<usize>> {
    let size = engines.next_power_of_two().max(2);
    let seeds = seeds.min(engines);
    let mut ranked: Vec<usize> = (0..seeds).collect();
    let mut rest: Vec<usize> = (seeds..engines).collect();
    rest.shuffle(&mut rand::rngs::StdRng::seed_from_u64(srand));
    ranked.extend(rest);
    seeding_order(size)
        .into_iter()
        .map(|r| ranked.get(r - 1).copied())
        .collect()
}

/// The first engine's points and the second's in a pairing's games so far.
fn points(s: &Summary, pairing: usize) -> (f64, f64) {
    let t = &s.standings.tallies[pairing];
    let mine = t.points();
    (mine, f64::from(t.games()) - mine)
}

/// The fingerprint of a knockout: what a resumed one must share with the saved one.
fn fingerprint(settings: &MatchSettings, slots: &[Option<usize>]) -> Result<String, String> {
    let mut text = String::from("knockout\n");
    for e in &settings.engines {
        text.push_str(&format!("engine {} {}", e.name, e.limits));
        if let Some(b) = &e.book {
            text.push_str(&format!(" book {} {:?}", b.path.display(), b.depth));
        }
        text.push('\n');
    }
    text.push_str(&format!(
        "games {} rounds {} repeat {} {:?} {:?} srand {} bracket {slots:?}\n",
        settings.games,
        settings.rounds,
        settings.repeat,
        settings.variant,
        settings.colours,
        settings.seed
    ));
    let book = OpeningBook::load(settings.openings.as_ref(), &mut Vec::new())?;
    for i in 0..book.len() {
        let o = book.get(i);
        text.push_str(&format!("{} {:?}\n", o.board, o.moves));
    }
    Ok(format!("{:016x}", resume::fnv1a(text.as_bytes())))
}

/// With `-autosave`: the event's save, checked against `-resume`'s file (whose outputs
/// are then cut back to the save), or a fresh one. Nothing is written when it fails.
fn event_save(
    settings: &MatchSettings,
    slots: &[Option<usize>],
) -> Result<Option<EventSave>, String> {
    let Some(autosave) = &settings.autosave else {
        return Ok(None);
    };
    let fingerprint = fingerprint(settings, slots)?;
    let results = match &settings.resume {
        Some(state) => {
            let outputs = runner::output_paths(settings);
            for note in resume::prepare(state, &fingerprint, state.scheduled, &outputs)? {
                eprintln!("resume: {note}");
            }
            eprintln!(
                "resume: {} knockout games already played, going on",
                state.finished_games().len()
            );
            state.results.clone()
        }
        None => {
            resume::refuse_unfinished(&autosave.path)?;
            String::new()
        }
    };
    Ok(Some(EventSave {
        fingerprint,
        results,
    }))
}

/// Plays the knockout and returns the text to print at its end (each round's results
/// are printed as the round ends).
pub fn run(settings: &MatchSettings) -> Result<String, String> {
    let first_slots = bracket(settings.engines.len(), settings.seeds, settings.seed);
    let mut saved = event_save(settings, &first_slots)?;
    let resumed = saved
        .as_ref()
        .map_or(0, |e| resume::finished(&e.results).len());
    let order = seeding_order(first_slots.len());
    let rank_of = |e: usize| {
        let slot = first_slots.iter().position(|&s| s == Some(e));
        slot.map_or(usize::MAX, |i| order[i])
    };
    let mut slots = first_slots.clone();
    let name = |e: usize| settings.engines[e].name.as_str();
    let mut first_game = 0usize;
    let mut first_opening = 0usize;
    let mut out = String::new();
    let mut round = 1;
    let mut games_played = 0usize;
    let mut wall = std::time::Duration::ZERO;
    while slots.len() > 1 {
        let pairs: Vec<(usize, usize)> = slots.chunks(2).filter_map(|c| c[0].zip(c[1])).collect();
        let mut totals = vec![(0.0f64, 0.0f64); pairs.len()];
        let mut open: Vec<usize> = (0..pairs.len()).collect();
        let mut games = settings.games * settings.rounds;
        let mut breaks = 0;
        while !open.is_empty() {
            let plan_pairs: Vec<(usize, usize)> = open.iter().map(|&i| pairs[i]).collect();
            let mut sub = settings.clone();
            sub.resume = None;
            sub.plan = Some(Plan {
                pairs: plan_pairs,
                games,
                first_game,
                first_opening,
                saved: saved.clone(),
            });
            let s = runner::run(&sub)?;
            if let Some(e) = saved.as_mut() {
                e.results = resume::merge_results(&e.results, first_game, &s.results);
            }
            games_played += s.games;
            wall += s.wall;
            first_game += s.scheduled;
            first_opening += (games as usize).div_ceil(if settings.repeat { 2 } else { 1 });
            if s.interrupted {
                out.push_str("Knockout stopped by Ctrl-C\n");
                return Ok(out);
            }
            for (k, &i) in open.iter().enumerate() {
                let (a, b) = points(&s, k);
                totals[i].0 += a;
                totals[i].1 += b;
            }
            open.retain(|&i| totals[i].0 == totals[i].1);
            if breaks == TIE_BREAKS {
                break;
            }
            breaks += 1;
            games = 2;
        }
        let mut text = format!("Knockout round {round}:\n");
        let mut next = Vec::with_capacity(slots.len() / 2);
        for c in slots.chunks(2) {
            let winner = match (c[0], c[1]) {
                (Some(a), Some(b)) => {
                    let i = pairs.iter().position(|&p| p == (a, b)).unwrap_or(0);
                    let (pa, pb) = totals[i];
                    let w = if pa > pb {
                        a
                    } else if pb > pa {
                        b
                    } else if rank_of(a) <= rank_of(b) {
                        a
                    } else {
                        b
                    };
                    let tie = if pa == pb {
                        " (tied: the better seed)"
                    } else {
                        ""
                    };
                    let _ = writeln!(
                        text,
                        "  {} - {}: {pa} - {pb}, {} goes on{tie}",
                        name(a),
                        name(b),
                        name(w)
                    );
                    Some(w)
                }
                (Some(a), None) | (None, Some(a)) => {
                    let _ = writeln!(text, "  {} has a bye", name(a));
                    Some(a)
                }
                (None, None) => None,
            };
            next.push(winner);
        }
        print!("{text}");
        out.push_str(&text);
        slots = next;
        round += 1;
    }
    if let (Some(a), Some(_)) = (&settings.autosave, &saved) {
        resume::State::mark_finished(&a.path)?;
    }
    if resumed > 0 {
        let _ = writeln!(out, "Resumed: {resumed} games were played before this run");
    }
    if let Some(Some(w)) = slots.first() {
        let _ = writeln!(
            out,
            "Knockout winner: {} ({games_played} games in {:.1} s)",
            name(*w),
            wall.as_secs_f64()
        );
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeding_keeps_the_best_ranks_apart() {
        assert_eq!(seeding_order(2), vec![1, 2]);
        assert_eq!(seeding_order(4), vec![1, 4, 2, 3]);
        assert_eq!(seeding_order(8), vec![1, 8, 4, 5, 2, 7, 3, 6]);
    }

    #[test]
    fn byes_fall_to_the_seeds_and_the_draw_follows_srand() {
        let b = bracket(3, 1, 7);
        assert_eq!(b.len(), 4);
        assert_eq!(b[0], Some(0), "the seed takes the first slot");
        assert_eq!(b[1], None, "and the bye against it");
        let mut rest: Vec<_> = b[2..].iter().flatten().copied().collect();
        rest.sort();
        assert_eq!(rest, vec![1, 2]);
        // Two seeds of eight engines meet only in the final: different halves.
        let b = bracket(8, 2, 1);
        assert_eq!((b[0], b[4]), (Some(0), Some(1)));
        assert_eq!(bracket(8, 2, 1), b, "the same srand, the same draw");
        let all: Vec<_> = (0..20).map(|s| bracket(8, 0, s)).collect();
        assert!(all.iter().any(|x| x != &all[0]), "srand changes the draw");
        for x in &all {
            let mut e: Vec<_> = x.iter().flatten().copied().collect();
            e.sort();
            assert_eq!(e, (0..8).collect::<Vec<_>>());
        }
    }
}
