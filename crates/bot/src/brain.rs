//! The engine thread: owns the [`Engine`], starts, stops and releases searches on the
//! session's behalf, and reports progress and results back as [`Input`]s. Engine calls
//! that may block (starting a search waits for the previous one to wind down) never run
//! on the async driver's threads.

use crate::input::{Input, SearchSpec};
use engine::{Engine, EngineOptions, LearnedPosition, SearchControl, SearchInfo, SearchRequest};
use std::sync::mpsc as std_mpsc;
use tokio::sync::mpsc;

/// Orders for the engine thread.
#[derive(Debug)]
pub enum BrainCmd {
    Start(Box<SearchSpec>),
    Stop(u64),
    PonderHit(u64),
    /// Position learning: the learned positions every later search consults.
    Learned(Vec<LearnedPosition>),
    /// Load the Syzygy tablebases of these folders (`[engine] syzygy_path`).
    Syzygy(String),
}

/// Handle on the engine thread; dropping it ends the thread.
#[derive(Debug)]
pub struct Brain {
    /// The evaluation in use (the embedded network by its checksum, or `hce`), as
    /// [`Engine::eval_description`] says it; written at the head of each game log.
    pub eval: String,
    tx: std_mpsc::Sender<BrainCmd>,
    join: Option<std::thread::JoinHandle<()>>,
}

impl Brain {
    /// Starts the engine thread; search progress and results go to `inputs`.
    pub fn start(options: EngineOptions, inputs: mpsc::UnboundedSender<Input>) -> Brain {
        let (tx, rx) = std_mpsc::channel();
        let engine = Engine::new(options);
        let eval = engine.eval_description();
        tracing::info!("evaluation: {eval}");
        let join = std::thread::Builder::new()
            .name("wily-brain".into())
            .spawn(move || run(engine, rx, inputs))
            .map_err(|e| tracing::error!("cannot start the engine thread: {e}"))
            .ok();
        Brain { eval, tx, join }
    }

    /// Sends an order (ignored when the thread is gone).
    pub fn send(&self, cmd: BrainCmd) {
        if self.tx.send(cmd).is_err() {
            tracing::error!("the engine thread is gone");
        }
    }
}

impl Drop for Brain {
    fn drop(&mut self) {
        // Closing the channel ends the loop; the current search is stopped there.
        let (dead, _) = std_mpsc::channel();
        self.tx = dead;
        if let Some(j) = self.join.take() {
            let _ = j.join();
        }
    }
}

fn run(mut engine: Engine, rx: std_mpsc::Receiver<BrainCmd>, inputs: mpsc::UnboundedSender<Input>) {
    let mut current: Option<(u64, SearchControl)> = None;
    for cmd in rx {
        match cmd {
            BrainCmd::Start(spec) => {
                if let Some((_, c)) = current.take() {
                    c.stop();
                }
                if spec.new_game {
                    // Learned positions live outside the hash table and survive this.
                    engine.new_game();
                }
                engine.set_draw_score(spec.draw_score);
                engine.set_strength(spec.strength);
                engine.set_swindle(spec.swindle);
                let id = spec.id;
                let info_tx = inputs.clone();
                let on_info = Box::new(move |info: &SearchInfo| {
                    let _ = info_tx.send(Input::Info {
                        id,
                        info: info.clone(),
                    });
                });
                let request = SearchRequest {
                    board: spec.board,
                    history: spec.history,
                    limits: spec.limits,
                    searchmoves: Vec::new(),
                };
                let handle = engine.start(request, on_info);
                current = Some((id, handle.control()));
                let done_tx = inputs.clone();
                let waiter = std::thread::Builder::new()
                    .name("wily-search-wait".into())
                    .spawn(move || {
                        let result = handle.wait();
                        let _ = done_tx.send(Input::Done { id, result });
                    });
                if let Err(e) = waiter {
                    tracing::error!("cannot start a search waiter thread: {e}");
                }
            }
            BrainCmd::Stop(id) => {
                if let Some((cid, c)) = &current {
                    if *cid == id {
                        c.stop();
                        current = None;
                    }
                }
            }
            BrainCmd::PonderHit(id) => {
                if let Some((cid, c)) = &current {
                    if *cid == id {
                        c.ponderhit();
                    }
                }
            }
            BrainCmd::Learned(positions) => engine.set_learned(&positions),
            BrainCmd::Syzygy(path) => match engine.set_syzygy_path(&path) {
                Ok(text) => text.lines().for_each(|l| tracing::info!("{}", l.trim())),
                Err(e) => tracing::warn!("tablebases not loaded, playing without: {e}"),
            },
        }
    }
    if let Some((_, c)) = current {
        c.stop();
    }
    engine.stop();
}

#[cfg(test)]
mod tests {
    use super::*;
    use cozy_chess::Board;
    use engine::Limits;
    use std::time::Duration;

    #[test]
    fn searches_report_and_stop() {
        let (tx, mut rx) = mpsc::unbounded_channel();
        let brain = Brain::start(EngineOptions::default(), tx);
        brain.send(BrainCmd::Start(Box::new(SearchSpec {
            id: 1,
            board: Board::default(),
            history: Vec::new(),
            limits: Limits::depth(3),
            draw_score: 0,
            strength: None,
            swindle: true,
            new_game: true,
        })));
        let mut infos = 0;
        let result = loop {
            match rx.blocking_recv() {
                Some(Input::Info { id: 1, .. }) => infos += 1,
                Some(Input::Done { id: 1, result }) => break result,
                other => panic!("unexpected {other:?}"),
            }
        };
        assert!(infos >= 1);
        assert!(result.best.is_some());
        // An infinite search ends on Stop.
        brain.send(BrainCmd::Start(Box::new(SearchSpec {
            id: 2,
            board: Board::default(),
            history: Vec::new(),
            limits: Limits {
                infinite: true,
                ..Limits::default()
            },
            draw_score: 0,
            strength: None,
            swindle: true,
            new_game: false,
        })));
        std::thread::sleep(Duration::from_millis(50));
        brain.send(BrainCmd::Stop(2));
        loop {
            if let Some(Input::Done { id: 2, result }) = rx.blocking_recv() {
                assert!(result.best.is_some());
                break;
            }
        }
    }
}
