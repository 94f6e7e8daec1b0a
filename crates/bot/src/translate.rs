//! From the protocol layer's typed events to the bot's vocabulary: the events the bot
//! acts on are kept, with boards turned into `cozy_chess` positions; everything else is
//! dropped (and logged at trace level by the caller).

use crate::input::{BoardUpdate, Challenge, EndKind, ServerEvent, WatchRow};
use chess::castling::CastleFlags;
use chess::fen::parse_fen;
use cozy_chess::Board;
use ics::events::{self, ChatKind, EndReason, Event, OfferKind, Rating};
use ics::icc::IccInfo;
use lists::ServerTitles;
use std::time::Instant;

/// The bot's view of `ev`, or `None` for events it does not act on. `received` is when
/// the event arrived (for the reaction-time measurement).
pub fn translate(ev: Event, received: Instant) -> Option<ServerEvent> {
    Some(match ev {
        Event::LoggedIn { handle, .. } => ServerEvent::LoggedIn { handle },
        Event::Disconnected { .. } => ServerEvent::Disconnected,
        Event::Board(s) => ServerEvent::Board(Box::new(board_update(&s, received)?)),
        Event::Creating(c) => ServerEvent::Creating {
            white: c.white,
            black: c.black,
            // Servers print 0 for a player without a rating in the category.
            white_rating: c.white_rating.value().filter(|&r| r > 0),
            black_rating: c.black_rating.value().filter(|&r| r > 0),
        },
        Event::GameStart(g) => ServerEvent::GameStart {
            game: g.game,
            white: g.white,
            black: g.black,
            continuing: g.continuing,
            rated: g.rated,
            category: g.category,
        },
        Event::GameEnd(g) => ServerEvent::GameEnd {
            game: g.game,
            white: g.white,
            black: g.black,
            result: g.result.as_pgn().to_string(),
            kind: end_kind(g.reason),
            text: g.text,
        },
        Event::Challenge(m) => ServerEvent::Challenge(Challenge {
            name: m.challenger.name,
            rating: m.challenger.rating.value().filter(|&r| r > 0),
            registered: m.challenger.rating != Rating::Unregistered,
            // ICC's DG_MATCH lists the challenger's titles (GM, IM, C, ...); FICS text
            // does not (its computer notice is a separate event).
            titles: chat_titles(&m.challenger_titles),
            rated: m.rated,
            kind: m.category,
            variant: m.variant,
            base: m.base_minutes,
            increment: m.increment_secs,
            other_clock: m.other_clock,
            adjourned: m.adjourned,
        }),
        Event::IsComputer { name } => ServerEvent::IsComputer { name },
        Event::OfferReceived {
            kind: OfferKind::Match,
            ..
        } => return None,
        Event::OfferReceived { from, kind } => ServerEvent::Offer { from, kind },
        Event::Chat(c) if c.kind == ChatKind::Tell => {
            let titles = chat_titles(&c.titles);
            ServerEvent::Tell {
                from: c.from,
                titles,
                text: c.text,
            }
        }
        Event::Chat(c) => {
            let titles = chat_titles(&c.titles);
            if titles == ServerTitles::default() {
                return None;
            }
            ServerEvent::Titles {
                name: c.from,
                titles,
            }
        }
        Event::Seek(ad) => {
            let titles = ServerTitles {
                gm: ad.titles & events::title::GM != 0,
                im: ad.titles & events::title::IM != 0,
                computer: ad.titles & events::title::COMPUTER != 0,
            };
            if titles == ServerTitles::default() {
                return None;
            }
            ServerEvent::Titles {
                name: ad.name,
                titles,
            }
        }
        Event::Icc(info) => match *info {
            // ICC's game start names both players with their titles (GM, IM, C, ...).
            IccInfo::Game(g) => {
                let players: Vec<(String, ServerTitles)> = [g.white, g.black]
                    .into_iter()
                    .map(|p| (p.name, chat_titles(&p.titles)))
                    .filter(|(_, t)| *t != ServerTitles::default())
                    .collect();
                if players.is_empty() {
                    return None;
                }
                ServerEvent::PlayersTitles(players)
            }
            _ => return None,
        },
        Event::Arrival { name, adjourned } => ServerEvent::Arrival { name, adjourned },
        Event::AdjournedGames { count } => ServerEvent::AdjournedGames { count },
        Event::AdjournedOnline { names } => ServerEvent::AdjournedOnline { names },
        Event::StoredGames { player, games } => ServerEvent::StoredGames { player, games },
        Event::IllegalMove { text } => ServerEvent::IllegalMove { text },
        Event::NotYourMove => ServerEvent::NotYourMove,
        Event::ObserveStarted { game } => ServerEvent::ObserveStarted { game },
        Event::ObserveStopped { game } => ServerEvent::ObserveStopped { game },
        Event::ListMembers { list, names } if list == "follow" => ServerEvent::FollowList { names },
        Event::ListChanged { list, name, change } if list == "follow" => {
            ServerEvent::FollowChanged {
                name,
                present: change.present(),
            }
        }
        Event::NoSuchList { list } if list == "follow" => ServerEvent::NoFollowList,
        Event::SessionTakenOver { text } => ServerEvent::TakenOver { text },
        Event::GameListed(r) => ServerEvent::Watch(WatchRow::Game(r)),
        Event::GamesListEnd { shown, total } => {
            ServerEvent::Watch(WatchRow::GamesEnd { shown, total })
        }
        Event::RelayHeader { event, .. } => ServerEvent::Watch(WatchRow::RelayHeader(event)),
        Event::RelayGame(r) => ServerEvent::Watch(WatchRow::Relay(r)),
        Event::TourneyGamesHeader { .. } => ServerEvent::Watch(WatchRow::TourneyHeader),
        Event::TourneyGame(r) => ServerEvent::Watch(WatchRow::Tourney(r)),
        Event::CommandNotFound { command } => ServerEvent::CommandNotFound { command },
        Event::Tourney(n) => ServerEvent::Tourney(n),
        Event::YouAccepted {
            other,
            kind: OfferKind::Match,
        } => ServerEvent::YouAccepted { other },
        Event::SettingRefused { name } => ServerEvent::SettingRefused { name },
        Event::FingerNotes { name, notes } => ServerEvent::FingerNotes { name, notes },
        Event::SeekRefused { text } => ServerEvent::SeekRefused { text },
        _ => return None,
    })
}

fn chat_titles(list: &[String]) -> ServerTitles {
    list.iter().fold(ServerTitles::default(), |t, x| {
        t.merge(ServerTitles::parse(&format!("({x})")))
    })
}

fn end_kind(r: EndReason) -> EndKind {
    match r {
        EndReason::Checkmate => EndKind::Checkmate,
        EndReason::Resignation => EndKind::Resignation,
        EndReason::Time => EndKind::Time,
        EndReason::Disconnection => EndKind::Disconnection,
        EndReason::Stalemate
        | EndReason::DrawAgreed
        | EndReason::Repetition
        | EndReason::FiftyMoveRule
        | EndReason::InsufficientMaterial
        | EndReason::TimeVsNoMaterial
        | EndReason::BothOutOfTime => EndKind::Draw,
        EndReason::Adjudication => EndKind::Adjudication,
        EndReason::Adjourned | EndReason::CourtesyAdjourned => EndKind::Adjourned,
        EndReason::Aborted | EndReason::CourtesyAborted | EndReason::AbortedOnMove1 => {
            EndKind::Aborted
        }
        EndReason::Other => EndKind::Other,
    }
}

/// The position of a style-12 update. Castling rights or an en-passant file the rules
/// layer refuses are dropped (and the position read again) rather than losing the board.
pub fn style12_board(s: &events::Style12) -> Option<Board> {
    let fen = s.to_fen();
    if let Ok(b) = parse_fen(&fen) {
        return Some(b);
    }
    let mut fields: Vec<&str> = fen.split(' ').collect();
    if fields.len() >= 4 {
        fields[2] = "-";
        fields[3] = "-";
    }
    match parse_fen(&fields.join(" ")) {
        Ok(b) => Some(b),
        Err(e) => {
            tracing::warn!(
                "game {}: unusable board from the server ({fen}): {e}",
                s.game
            );
            None
        }
    }
}

fn board_update(s: &events::Style12, received: Instant) -> Option<BoardUpdate> {
    Some(BoardUpdate {
        game: s.game,
        white: s.white.clone(),
        black: s.black.clone(),
        relation: s.relation,
        board: style12_board(s)?,
        castling: CastleFlags {
            white_short: s.white_castle_short,
            white_long: s.white_castle_long,
            black_short: s.black_castle_short,
            black_long: s.black_castle_long,
        },
        white_ms: s.white_clock_ms,
        black_ms: s.black_clock_ms,
        base: s.base_minutes,
        increment: s.increment_secs,
        move_number: s.move_number,
        last_move_verbose: s.last_move_verbose.clone(),
        last_move_san: s.last_move_san.clone(),
        last_move_ms: s.last_move_time_ms,
        received,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ics::parse::{parse_line, ClockUnit};

    fn one(line: &str) -> Option<ServerEvent> {
        translate(parse_line(line, ClockUnit::Auto)?, Instant::now())
    }

    #[test]
    fn recorded_lines_translate() {
        let b = one("<12> rnbqkbnr pppp-ppp -------- ----p--- -------- -----P-- PPPPP-PP RNBQKBNR W 4 1 1 1 1 0 1 AlphaBot BetaBot 1 5 0 39 39 299 299 2 P/e7-e5 (0:01) e5 0");
        let Some(ServerEvent::Board(u)) = b else {
            panic!("{b:?}")
        };
        assert_eq!(u.relation, events::Relation::MyMove);
        assert_eq!(u.white_ms, 299_000);
        assert_eq!(u.last_move_verbose.as_deref(), Some("P/e7-e5"));
        assert_eq!(
            chess::to_fen(&u.board).split(' ').next(),
            Some("rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR")
        );
        assert_eq!(
            one("{Game 1 (AlphaBot vs. BetaBot) AlphaBot checkmated} 0-1"),
            Some(ServerEvent::GameEnd {
                game: 1,
                white: "AlphaBot".into(),
                black: "BetaBot".into(),
                result: "0-1".into(),
                kind: EndKind::Checkmate,
                text: "AlphaBot checkmated".into(),
            })
        );
        let c = one("Challenge: AlphaBot (----) [white] BetaBot (----) rated blitz 5 0.");
        let Some(ServerEvent::Challenge(c)) = c else {
            panic!("{c:?}")
        };
        assert_eq!(
            (c.name.as_str(), c.base, c.rated, c.registered),
            ("AlphaBot", 5, true, true)
        );
        assert_eq!(
            one("AlphaBot offers you a draw."),
            Some(ServerEvent::Offer {
                from: "AlphaBot".into(),
                kind: OfferKind::Draw
            })
        );
        let t = one("BetaBot(C) tells you: status");
        let Some(ServerEvent::Tell { from, titles, text }) = t else {
            panic!("{t:?}")
        };
        assert_eq!(
            (from.as_str(), text.as_str(), titles.computer),
            ("BetaBot", "status", true)
        );
        assert_eq!(
            one("Illegal move."),
            Some(ServerEvent::IllegalMove {
                text: "Illegal move.".into()
            })
        );
        assert_eq!(one("fics% "), None);
        assert_eq!(
            one("Hyatt(GM)(C)(2500)[3] kibitzes: hello"),
            Some(ServerEvent::Titles {
                name: "Hyatt".into(),
                titles: ServerTitles {
                    gm: true,
                    im: false,
                    computer: true
                },
            })
        );
    }
}
