//! A threefold repetition whose first position comes right after a double pawn step.
//! cozy-chess records the en-passant square after every double step and `Board::hash`
//! includes it, so a count of raw hashes sees the first occurrence as another position
//! (no capture there is possible, so by the rules it is the same). The local server must
//! grant the claim on the third occurrence, as `chess::Position` counts it.

use crate::server_support;

use server_support::*;

#[tokio::test]
async fn the_server_grants_a_repetition_that_starts_after_a_double_step() {
    bounded(60, async {
        let srv = server().await;
        let addr = srv.local_addr();
        let mut a = Client::login(addr, "AlphaBot", Some("alpha")).await;
        let mut b = Client::login(addr, "BetaBot", Some("beta")).await;
        start_match(&mut a, &mut b, "5 0 u").await;
        // The position after 1. e4 (Black to move) occurs after plies 1, 5 and 9; only
        // the first has e3 as its en-passant square, where no black pawn can capture.
        let line = ["e4", "Nc6", "Nf3", "Nb8", "Ng1", "Nc6", "Nf3", "Nb8", "Ng1"];
        for (i, mv) in line.iter().enumerate() {
            let (m, o) = if i % 2 == 0 {
                (&mut a, &mut b)
            } else {
                (&mut b, &mut a)
            };
            m.send(mv).await;
            let board = m.board().await;
            assert!(board.starts_with("<12> "), "{mv}: {board}");
            o.board().await;
        }
        b.send("draw").await;
        let end = "{Game 1 (AlphaBot vs. BetaBot) Game drawn by repetition} 1/2-1/2";
        b.expect(end).await;
        a.expect(end).await;
        srv.shutdown().await;
    })
    .await;
}
