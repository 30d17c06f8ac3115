//! The lobby's rules without HTTP: seeks, acceptance (one game however many accept at once), rating ranges,
//! quick pairing and seats.

use super::*;
use crate::engine::EnginePool;
use crate::store::Store;

/// A hub whose store has the accounts `player1` … `player130` (ids 1 … 130).
fn hub() -> Arc<Hub> {
    let store = Store::in_memory().unwrap();
    for id in 1..=130 {
        let made = store
            .insert_account(&format!("player{id}"), "hash")
            .unwrap();
        assert_eq!(made.map(|a| a.id), Some(id));
    }
    Hub::new(store, EnginePool::new(1))
}

fn account(id: i64) -> Account {
    Account {
        id,
        name: format!("player{id}"),
    }
}

fn blitz() -> SeekRequest {
    SeekRequest {
        minutes: Some(3.0),
        increment: Some(2),
        ..SeekRequest::default()
    }
}

#[tokio::test]
async fn a_seek_is_listed_accepted_once_and_both_players_find_their_seats() {
    let hub = hub();
    let (alice, bob, carol) = (account(1), account(2), account(3));
    let seek = create_seek(
        &hub,
        &alice,
        &SeekRequest {
            colour: Some(Colour::Red),
            ..blitz()
        },
    )
    .unwrap();
    assert_eq!(hub.store.seeks_for(Some(2), now_ms(), 10).unwrap().len(), 1);
    let refused = accept(&hub, &alice, &seek.id).unwrap_err();
    assert!(matches!(refused, LobbyError::Refused(_)), "{refused}");
    let seat = accept(&hub, &bob, &seek.id).unwrap();
    assert_eq!(seat.side, Side::Blue, "Alice asked for Red");
    let late = accept(&hub, &carol, &seek.id).unwrap_err();
    assert!(matches!(late, LobbyError::AlreadyTaken), "{late}");
    assert!(late.to_string().starts_with("already taken"));
    assert!(
        hub.store
            .seeks_for(Some(3), now_ms(), 10)
            .unwrap()
            .is_empty()
    );
    // Alice's seat, from her account; Carol has none.
    let hers = super::seat(&hub, &alice, &seat.game_id).unwrap();
    assert_eq!(hers.side, Side::Red);
    let room = hub.room(&seat.game_id).unwrap().unwrap();
    assert_eq!(room.seat_of(Some(&hers.token)), Some(Side::Red));
    assert_eq!(room.seat_of(Some(&seat.token)), Some(Side::Blue));
    assert!(matches!(
        super::seat(&hub, &carol, &seat.game_id).unwrap_err(),
        LobbyError::Refused(_)
    ));
    let snapshot = room.snapshot();
    assert_eq!(snapshot.players.red, "player1");
    assert_eq!(snapshot.players.blue, "player2");
    assert!(snapshot.clock.is_some() && snapshot.correspondence.is_none());
    // The live list shows the game with both players.
    let live = hub.store.lobby_games(10).unwrap();
    assert_eq!(live.len(), 1);
    assert_eq!(live[0].names.red.as_deref(), Some("player1"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_accepting_one_seek_at_once_make_exactly_one_game() {
    let hub = hub();
    let seek = create_seek(&hub, &account(1), &blitz()).unwrap();
    let barrier = Arc::new(std::sync::Barrier::new(16));
    let tries: Vec<_> = (0..16)
        .map(|i| {
            let (hub, barrier, id) = (hub.clone(), barrier.clone(), seek.id.clone());
            tokio::task::spawn_blocking(move || {
                barrier.wait();
                accept(&hub, &account(100 + i), &id)
            })
        })
        .collect();
    let mut games = Vec::new();
    let mut taken = 0;
    for attempt in tries {
        match attempt.await.unwrap() {
            Ok(seat) => games.push(seat.game_id),
            Err(LobbyError::AlreadyTaken) => taken += 1,
            Err(e) => panic!("unexpected refusal: {e}"),
        }
    }
    assert_eq!(games.len(), 1, "{games:?}");
    assert_eq!(taken, 15);
    assert_eq!(hub.store.lobby_games(100).unwrap().len(), 1);
}

#[tokio::test]
async fn a_rating_range_refuses_players_outside_it_and_the_limit_on_open_seeks_holds() {
    let hub = hub();
    let narrow = SeekRequest {
        rated: true,
        rating_min: Some(1600),
        rating_max: Some(1800),
        ..blitz()
    };
    let seek = create_seek(&hub, &account(1), &narrow).unwrap();
    // A new account has the starting rating, below the range.
    let refused = accept(&hub, &account(2), &seek.id).unwrap_err();
    assert!(
        matches!(&refused, LobbyError::Refused(m) if m.contains("1600")),
        "{refused}"
    );
    assert_eq!(
        hub.store.seeks_for(None, now_ms(), 10).unwrap().len(),
        1,
        "still open"
    );
    for _ in 1..MAX_OPEN_SEEKS {
        create_seek(&hub, &account(1), &blitz()).unwrap();
    }
    assert!(matches!(
        create_seek(&hub, &account(1), &blitz()).unwrap_err(),
        LobbyError::TooManySeeks
    ));
    cancel_seek(&hub, &account(1), &seek.id).unwrap();
    assert!(matches!(
        cancel_seek(&hub, &account(2), &seek.id).unwrap_err(),
        LobbyError::NoSeek(_)
    ));
    create_seek(&hub, &account(1), &blitz()).unwrap();
}

#[tokio::test]
async fn quick_pairing_waits_then_pairs_the_next_player_at_that_time_control() {
    let hub = hub();
    let (alice, bob, carol) = (account(1), account(2), account(3));
    let Quick::Waiting(first) = quick_pair(&hub, &alice, 3, 2).unwrap() else {
        panic!("nobody was waiting");
    };
    assert!(first.rated);
    // Asking again keeps the one seek.
    let Quick::Waiting(again) = quick_pair(&hub, &alice, 3, 2).unwrap() else {
        panic!("Alice cannot pair with herself");
    };
    assert_eq!(again.id, first.id);
    // Carol at another time control does not meet Alice.
    assert!(matches!(
        quick_pair(&hub, &carol, 5, 3).unwrap(),
        Quick::Waiting(_)
    ));
    let Quick::Paired(seat) = quick_pair(&hub, &bob, 3, 2).unwrap() else {
        panic!("Bob should meet Alice");
    };
    let players = hub.store.players_of(&seat.game_id).unwrap().unwrap();
    let mut ids = [players.blue.unwrap(), players.red.unwrap()];
    ids.sort();
    assert_eq!(ids, [1, 2]);
    assert!(matches!(
        quick_pair(&hub, &bob, 4, 0).unwrap_err(),
        LobbyError::Bad(_)
    ));
}

#[tokio::test]
async fn a_correspondence_game_stores_its_deadline_and_each_move_moves_it() {
    let hub = hub();
    let seek = create_seek(
        &hub,
        &account(1),
        &SeekRequest {
            days: Some(2),
            colour: Some(Colour::Blue),
            ..SeekRequest::default()
        },
    )
    .unwrap();
    let before = now_ms();
    let seat = accept(&hub, &account(2), &seek.id).unwrap();
    let first = hub.store.correspondence(&seat.game_id).unwrap().unwrap();
    assert_eq!(first.days_per_move, 2);
    let deadline = first.deadline_ms;
    assert!(deadline >= before + 2 * crate::correspondence::DAY_MS);
    let room = hub.room(&seat.game_id).unwrap().unwrap();
    assert!(room.snapshot().clock.is_none());
    assert_eq!(
        room.snapshot().correspondence.map(|c| c.deadline_ms),
        Some(deadline)
    );
    // No abort timer and no claim for a correspondence game: it waits days.
    assert!(
        room.lock()
            .abort_deadline(hub.limits.join_wait, hub.limits.first_move_wait)
            .is_none()
    );
    std::thread::sleep(std::time::Duration::from_millis(5));
    room.play(&hub.store, Some(Side::Blue), "a3a4").unwrap();
    let moved = hub.store.correspondence(&seat.game_id).unwrap().unwrap();
    assert!(
        moved.deadline_ms > deadline,
        "the move gave Red a new deadline"
    );
    assert_eq!(room.snapshot().correspondence, Some(moved));
}
