//! Tournaments without HTTP: a Swiss event played to its end with byes and tie-breaks, an arena pairing
//! whoever is free until its end, the next pairing made the moment a game ends, and the refusals.

use std::sync::Arc;

use jungle_rules::Side;

use super::*;
use crate::accounts::Account;
use crate::engine::EnginePool;
use crate::hub::Hub;
use crate::store::{Store, TournamentKind, TournamentStatus};

/// A hub whose store has the accounts `player1` … `player6` (ids 1 … 6), telling the tournaments of games'
/// ends as the server does.
fn hub() -> Arc<Hub> {
    let store = Store::in_memory().unwrap();
    for id in 1..=6 {
        store
            .insert_account(&format!("player{id}"), "hash")
            .unwrap();
    }
    let hub = Hub::new(store, EnginePool::new(1));
    hub.on_game_end(on_game_end);
    hub
}

fn account(id: i64) -> Account {
    Account {
        id,
        name: format!("player{id}"),
    }
}

fn swiss(rounds: u32, starts_in: u32) -> CreateRequest {
    CreateRequest {
        name: "Friday Swiss".into(),
        minutes: 3.0,
        increment: Some(2),
        kind: "swiss".into(),
        rounds: Some(rounds),
        starts_in_minutes: Some(starts_in),
        rated: true,
        ..CreateRequest::default()
    }
}

/// The unfinished games of the tournament: (id, blue, red).
fn playing(hub: &Hub, id: &str) -> Vec<(String, i64, i64)> {
    hub.store
        .tournament_games(id)
        .unwrap()
        .into_iter()
        .filter(|g| g.finished_at.is_none())
        .map(|g| (g.id, g.players.blue, g.players.red))
        .collect()
}

/// Ends a game the way a player does on this node: the loser resigns, or a draw is agreed (`None`).
fn end(hub: &Arc<Hub>, game: &str, winner: Option<Side>) {
    let room = hub.room(game).unwrap().expect("the game's room");
    match winner {
        Some(winner) => room.resign(&hub.store, Some(winner.opponent())).unwrap(),
        None => {
            room.offer_draw(&hub.store, Some(Side::Blue), |_| false)
                .unwrap();
            room.offer_draw(&hub.store, Some(Side::Red), |_| false)
                .unwrap();
        }
    }
    hub.after_change(&room);
}

#[tokio::test]
async fn a_swiss_event_is_played_round_by_round_to_its_podium() {
    let hub = hub();
    let t = create(&hub, &account(1), &swiss(3, 10)).unwrap();
    assert_eq!(t.status, TournamentStatus::Upcoming);
    for id in [2, 3] {
        join(&hub, &account(id), &t.id).unwrap();
    }
    // Not yet its time: nothing is paired.
    advance(&hub, &t.id).unwrap();
    assert!(playing(&hub, &t.id).is_empty());
    hub.store
        .execute_raw(&format!(
            "UPDATE tournaments SET starts_at = 0 WHERE id = '{}'",
            t.id
        ))
        .unwrap();
    sweep(&hub);
    let late = join(&hub, &account(4), &t.id).unwrap_err();
    assert!(matches!(late, TournamentError::Refused(_)), "{late}");
    for round in 1..=3u32 {
        let games = playing(&hub, &t.id);
        assert_eq!(
            games.len(),
            1,
            "round {round}: three players, one game and a bye"
        );
        let stored = hub.store.tournament(&t.id).unwrap().unwrap();
        assert_eq!(stored.current_round, round);
        assert!(
            hub.store.rated_game(&games[0].0).unwrap().is_some(),
            "rated"
        );
        // The next round is paired the moment the game ends, without a sweep.
        end(&hub, &games[0].0, (round != 2).then_some(Side::Blue));
    }
    let done = hub.store.tournament(&t.id).unwrap().unwrap();
    assert_eq!(done.status, TournamentStatus::Finished);
    let byes = hub.store.tournament_byes(&t.id).unwrap();
    let mut had: Vec<i64> = byes.iter().map(|&(_, who)| who).collect();
    had.sort_unstable();
    assert_eq!(had, [1, 2, 3], "each player sat out once");
    let record = record::Record::load(&hub.store, done).unwrap();
    let table = standings(&record);
    assert_eq!(table.lines.len(), 3);
    assert!(
        table
            .lines
            .iter()
            .all(|l| l.buchholz.is_some() && l.sonneborn_berger.is_some())
    );
    // 2 games won by Blue and one drawn, plus a bye each: 1 + 1 + 1 + ½ + ½ + 3 byes = 6 points in all.
    let total: u32 = table
        .lines
        .iter()
        .map(|l| {
            let halves = u32::from(l.score.ends_with('½'));
            let whole: u32 = l.score.trim_end_matches('½').parse().unwrap_or(0);
            whole * 2 + halves
        })
        .sum();
    assert_eq!(total, 12, "{:?}", table.lines);
    assert_eq!(table.podium().len(), 3);
    assert_eq!(table.podium()[0].rank, 1);
}

#[tokio::test]
async fn an_arena_pairs_whoever_is_free_and_stops_pairing_at_its_end() {
    let hub = hub();
    let request = CreateRequest {
        name: "Blitz arena".into(),
        minutes: 3.0,
        kind: "arena".into(),
        arena_minutes: Some(30.0),
        ..CreateRequest::default()
    };
    let t = create(&hub, &account(1), &request).unwrap();
    assert!(matches!(t.kind, TournamentKind::Arena { .. }));
    // Started at once; alone, the creator waits.
    assert!(playing(&hub, &t.id).is_empty());
    join(&hub, &account(2), &t.id).unwrap();
    let first = playing(&hub, &t.id);
    assert_eq!(first.len(), 1, "paired the moment a second player came");
    join(&hub, &account(3), &t.id).unwrap();
    join(&hub, &account(4), &t.id).unwrap();
    assert_eq!(
        playing(&hub, &t.id).len(),
        2,
        "the two free players paired together"
    );
    // A player who left is not paired, and may come back.
    leave(&hub, &account(4), &t.id).unwrap();
    end(&hub, &first[0].0, Some(Side::Blue));
    let winner = first[0].1;
    let now_playing = playing(&hub, &t.id);
    assert_eq!(
        now_playing.len(),
        2,
        "the two free players of the first game met others or each other"
    );
    // Three wins in a row double: 2 + 2 + 4.
    for _ in 0..2 {
        let game = playing(&hub, &t.id)
            .into_iter()
            .find(|g| g.1 == winner || g.2 == winner)
            .expect("the winner plays on");
        let side = if game.1 == winner {
            Side::Blue
        } else {
            Side::Red
        };
        end(&hub, &game.0, Some(side));
    }
    let record =
        record::Record::load(&hub.store, hub.store.tournament(&t.id).unwrap().unwrap()).unwrap();
    let line = standings(&record)
        .lines
        .into_iter()
        .find(|l| l.user_id == winner)
        .unwrap();
    assert_eq!(line.per_game.as_deref(), Some(&[2, 2, 4][..]));
    assert_eq!(line.rank, 1);
    // The end: no new pairings, the last games still count, then it is finished.
    hub.store
        .execute_raw(&format!(
            "UPDATE tournaments SET starts_at = 0 WHERE id = '{}'",
            t.id
        ))
        .unwrap();
    let running = playing(&hub, &t.id);
    assert!(!running.is_empty());
    for game in &running {
        end(&hub, &game.0, Some(Side::Blue));
    }
    assert!(
        playing(&hub, &t.id).is_empty(),
        "nobody paired after the end"
    );
    let done = hub.store.tournament(&t.id).unwrap().unwrap();
    assert_eq!(done.status, TournamentStatus::Finished);
    let rejoin = join(&hub, &account(4), &t.id).unwrap_err();
    assert!(rejoin.to_string().contains("over"), "{rejoin}");
}

#[tokio::test]
async fn bad_requests_and_limits_are_refused_with_reasons() {
    let hub = hub();
    let creator = account(1);
    let refused =
        |request: CreateRequest| create(&hub, &creator, &request).unwrap_err().to_string();
    assert!(
        refused(CreateRequest {
            name: "x".repeat(61),
            ..swiss(3, 5)
        })
        .contains("longer than 60")
    );
    assert!(
        refused(CreateRequest {
            name: " ".into(),
            ..swiss(3, 5)
        })
        .contains("needs a name")
    );
    assert!(
        refused(CreateRequest {
            minutes: 0.0,
            ..swiss(3, 5)
        })
        .contains("minutes")
    );
    assert!(
        refused(CreateRequest {
            rounds: Some(40),
            ..swiss(3, 5)
        })
        .contains("rounds 40")
    );
    assert!(
        refused(CreateRequest {
            kind: "knockout".into(),
            ..swiss(3, 5)
        })
        .contains("swiss or arena")
    );
    assert!(
        refused(CreateRequest {
            preset: Some("chess".into()),
            ..swiss(3, 5)
        })
        .contains("unknown rules preset")
    );
    assert!(
        refused(CreateRequest {
            preset: Some("modern".into()),
            ..swiss(3, 5)
        })
        .contains("rated")
    );
    assert!(
        refused(CreateRequest {
            kind: "arena".into(),
            rounds: None,
            arena_minutes: Some(0.5),
            ..swiss(3, 5)
        })
        .contains("arena minutes")
    );
    assert!(
        refused(CreateRequest {
            starts_at: Some(1),
            ..swiss(3, 5)
        })
        .contains("not both")
    );
    for _ in 0..LIMITS.open_per_account {
        create(&hub, &creator, &swiss(3, 5)).unwrap();
    }
    assert!(matches!(
        create(&hub, &creator, &swiss(3, 5)).unwrap_err(),
        TournamentError::TooMany(_)
    ));
    let t = hub
        .store
        .tournaments(TournamentStatus::Upcoming, 10)
        .unwrap()
        .remove(0);
    let twice = join(&hub, &creator, &t.id).unwrap_err();
    assert!(twice.to_string().contains("already"), "{twice}");
    let unknown = join(&hub, &creator, "nope").unwrap_err();
    assert!(
        matches!(unknown, TournamentError::NoTournament(_)),
        "{unknown}"
    );
    let stranger = leave(&hub, &account(5), &t.id).unwrap_err();
    assert!(stranger.to_string().contains("not in"), "{stranger}");
}

#[tokio::test]
async fn an_arena_player_who_never_came_to_a_game_is_paused_until_they_join_again() {
    let hub = hub();
    let request = CreateRequest {
        name: "Blitz arena".into(),
        minutes: 3.0,
        kind: "arena".into(),
        arena_minutes: Some(30.0),
        ..CreateRequest::default()
    };
    let t = create(&hub, &account(1), &request).unwrap();
    join(&hub, &account(2), &t.id).unwrap();
    let (game, blue, red) = playing(&hub, &t.id).remove(0);
    // Blue never moves: the game is aborted (as the first-move wait does) and the hub's listener told.
    assert!(hub.store.finish(&game, 0, "*", None, "aborted").unwrap());
    on_game_end(&hub, &game);
    let players = hub.store.tournament_players(&t.id).unwrap();
    let active = |id: i64| players.iter().find(|p| p.user_id == id).unwrap().active;
    assert!(!active(blue), "the absent player is paused");
    assert!(active(red));
    assert!(
        playing(&hub, &t.id).is_empty(),
        "nobody is paired with an absent player"
    );
    // Back: paired again at once, and the aborted game counted for nobody.
    join(&hub, &account(blue), &t.id).unwrap();
    assert_eq!(playing(&hub, &t.id).len(), 1);
    let record =
        record::Record::load(&hub.store, hub.store.tournament(&t.id).unwrap().unwrap()).unwrap();
    assert!(
        standings(&record)
            .lines
            .iter()
            .all(|l| l.score == "0" && l.games == 0)
    );
}
