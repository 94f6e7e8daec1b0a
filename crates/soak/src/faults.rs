//! The soak's trouble maker. Two kinds of faults:
//! - steady ones, drawn every tick from a seeded generator, on a random pair's proxy:
//!   garbage lines, lag spikes (200-800 ms), server lines cut in two with the rest
//!   following;
//! - planned ones, each due once the server has scored a given number of games and fired
//!   at a bot that is in the middle of a game: the bot's connection dropped, a line cut
//!   with the connection dropped after its first half, an adjournment by agreement (the
//!   bot is asked to stop, offers `adjourn`, its partner agrees, and the bot is started
//!   again to resume), and a full server restart. An adjournment, or a dropped
//!   connection, that adjourned no game (the game ended first) is fired again, up to
//!   three times. The bots play on past
//!   their share of games until every planned fault has found its game.

use super::world::{Pair, World};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;

/// The fault injector's tick.
pub const TICK: Duration = Duration::from_millis(100);

/// Chance per tick of a garbage line, of a lag spike and of a cut line (rest follows).
const GARBAGE_P: f64 = 0.4;
const LAG_P: f64 = 0.05;
const CUT_P: f64 = 0.05;

/// A fault due at a number of finished games.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Planned {
    Drop,
    CutDrop,
    Adjourn,
    Restart,
}

/// Planned faults not yet fired, soonest first.
#[derive(Debug, Default)]
pub struct Plan {
    due: Vec<(u32, Planned)>,
    /// An adjournment asked for: (pair, agreed count before, when to look).
    checking: Option<(usize, u32, Instant)>,
    /// Adjournments asked for again since the last one that happened.
    retries: u32,
    /// A dropped connection fired: (its kind, games adjourned by drops before it, when
    /// to look whether it adjourned a game).
    drop_check: Option<(Planned, u32, Instant)>,
    /// Drops fired again since the last one that adjourned a game.
    drop_retries: u32,
}

/// What the injector did besides the proxies' own counts.
#[derive(Debug, Default, Clone, Copy)]
pub struct Fired {
    pub drops: u32,
    pub cut_drops: u32,
    pub adjourn_requests: u32,
    pub restarts: u32,
    /// Planned faults that never found a game to hit before the games ran out.
    pub unfired: u32,
    /// Ticks so far.
    pub ticks: u64,
}

impl Plan {
    /// Spreads `n` faults of `kind` over the run, each at a seeded place within its share
    /// of the `games`.
    fn spread(&mut self, rng: &mut StdRng, games: u32, n: u32, kind: Planned, lo: f64, hi: f64) {
        for k in 0..n {
            let share = (hi - lo) / f64::from(n);
            let at = lo + share * (f64::from(k) + rng.gen_range(0.2..0.8));
            self.due.push(((f64::from(games) * at) as u32, kind));
        }
    }

    /// The plan for a run of `games`.
    pub fn new(
        seed: u64,
        games: u32,
        drops: u32,
        cut_drops: u32,
        adjourns: u32,
        restarts: u32,
    ) -> Plan {
        let mut rng = StdRng::seed_from_u64(seed ^ 0x0050_414e);
        let mut p = Plan::default();
        p.spread(&mut rng, games, drops, Planned::Drop, 0.02, 0.8);
        p.spread(&mut rng, games, cut_drops, Planned::CutDrop, 0.05, 0.7);
        p.spread(&mut rng, games, adjourns, Planned::Adjourn, 0.1, 0.6);
        p.spread(&mut rng, games, restarts, Planned::Restart, 0.3, 0.6);
        p.due.sort_by_key(|(at, _)| *at);
        p
    }

    /// Planned faults not yet done (an adjournment or a drop being checked counts).
    pub fn pending(&self) -> usize {
        self.due.len()
            + usize::from(self.checking.is_some())
            + usize::from(self.drop_check.is_some())
    }
}

/// A pair whose bot is in a game with at least `plies` moves played, picked at random.
fn playing(world: &World, rng: &mut StdRng, plies: usize) -> Option<(usize, Arc<Pair>)> {
    let busy: Vec<usize> = (0..world.pairs.len())
        .filter(|&i| world.pairs[i].game_plies().is_some_and(|n| n >= plies))
        .collect();
    if busy.is_empty() {
        return None;
    }
    let i = busy[rng.gen_range(0..busy.len())];
    Some((i, world.pairs[i].clone()))
}

/// One tick of trouble: the steady faults, then the next planned one when it is due and
/// finds a game to hit.
pub async fn tick(world: &World, plan: &mut Plan, fired: &mut Fired, rng: &mut StdRng) {
    let n = world.pairs.len();
    if n == 0 {
        return;
    }
    let pick = |rng: &mut StdRng| match playing(world, rng, 1) {
        Some((_, p)) => p.proxy.clone(),
        None => world.pairs[rng.gen_range(0..n)].proxy.clone(),
    };
    fired.ticks += 1;
    // One of each steady fault early on, so that even a short soak has them all.
    let first = |k: u64| fired.ticks == k;
    if first(3) || rng.gen_bool(GARBAGE_P) {
        pick(rng).inject_garbage();
    }
    if first(6) || rng.gen_bool(LAG_P) {
        let ms = rng.gen_range(200..=800);
        pick(rng).lag(ms);
    }
    if first(9) || rng.gen_bool(CUT_P) {
        pick(rng).cut_line(false);
    }
    let done = world.journal.finished_count() as u32;
    if let Some((pair, before, at)) = plan.checking {
        if Instant::now() >= at {
            plan.checking = None;
            let agreed = world.journal.counts().adjourned_agreed;
            if agreed > before {
                plan.retries = 0;
            } else if plan.retries < 3 {
                plan.retries += 1;
                tracing::info!("soak: no adjournment by agreement yet (pair {pair}); again");
                plan.due.insert(0, (done, Planned::Adjourn));
            }
        }
    }
    if let Some((kind, before, at)) = plan.drop_check {
        // A drop can land just as its game ends (the mate on its way): then nothing was
        // adjourned, and the drop is fired again at the next game, up to three times.
        let cut_waiting = world.pairs.iter().any(|p| p.proxy.cut_drop_pending());
        if Instant::now() >= at && !cut_waiting {
            plan.drop_check = None;
            if world.journal.counts().adjourned_dropped > before {
                plan.drop_retries = 0;
            } else if plan.drop_retries < 3 {
                plan.drop_retries += 1;
                tracing::info!("soak: a {kind:?} adjourned no game; again");
                plan.due.insert(0, (done, kind));
            }
        }
    }
    let Some(&(at, kind)) = plan.due.first() else {
        return;
    };
    // One adjournment, and one drop, at a time: the next waits until the last one is
    // known to have done its work.
    let dropping = matches!(kind, Planned::Drop | Planned::CutDrop);
    if at > done
        || (kind == Planned::Adjourn && plan.checking.is_some())
        || (dropping && plan.drop_check.is_some())
    {
        return;
    }
    let hit = match kind {
        Planned::Restart => {
            if playing(world, rng, 2).is_none() {
                return;
            }
            match world.restart_server(Duration::from_secs(1)).await {
                Ok(()) => fired.restarts += 1,
                Err(e) => tracing::error!("soak: server restart: {e}"),
            }
            true
        }
        Planned::Drop => playing(world, rng, 2)
            .map(|(_, p)| {
                p.proxy.drop_all();
                fired.drops += 1;
            })
            .is_some(),
        Planned::CutDrop => playing(world, rng, 2)
            .map(|(_, p)| {
                p.proxy.cut_line(true);
                fired.cut_drops += 1;
            })
            .is_some(),
        Planned::Adjourn => match playing(world, rng, 2) {
            Some((i, p)) => {
                let before = world.journal.counts().adjourned_agreed;
                if p.request_stop(1) {
                    fired.adjourn_requests += 1;
                    plan.checking = Some((i, before, Instant::now() + Duration::from_secs(3)));
                }
                true
            }
            None => false,
        },
    };
    if hit {
        plan.due.remove(0);
        if dropping {
            let before = world.journal.counts().adjourned_dropped;
            plan.drop_check = Some((kind, before, Instant::now() + Duration::from_secs(3)));
        }
    }
}

/// Planned faults not done yet: those still due, and a line cut with a drop that was
/// asked for but has found no server line yet (the bots play on until it has).
fn pending(world: &World, plan: &Plan) -> u32 {
    let cuts = world
        .pairs
        .iter()
        .filter(|p| p.proxy.cut_drop_pending())
        .count();
    (plan.pending() + cuts) as u32
}

/// Runs the injector until the world stops; returns what it fired.
pub async fn run(world: Arc<World>, mut plan: Plan, seed: u64) -> Fired {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut fired = Fired::default();
    let mut ticker = tokio::time::interval(TICK);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    while !world.stopping.load(Ordering::Relaxed) {
        ticker.tick().await;
        tick(&world, &mut plan, &mut fired, &mut rng).await;
        world
            .planned_left
            .store(pending(&world, &plan), Ordering::Relaxed);
    }
    fired.unfired = plan.pending() as u32;
    fired
}
