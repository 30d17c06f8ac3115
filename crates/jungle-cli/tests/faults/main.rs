//! Faults in a deployment (issue 18.4): `jungle serve` behind nginx, started by `scripts/cluster`, with
//! players that reach it only through nginx. A part is crashed in the middle of several games; every move a
//! player saw acknowledged must still be there when the players come back, nothing they did not see may be
//! there, the clocks must be right, and play (and the engine) must go on.

mod cluster;
mod player;

use std::net::SocketAddr;

use cluster::{Cluster, Topology};
use player::{NotPlayed, Player, Visitor, moves_of, ply_of};
use serde_json::Value;

/// Friend games played at once in each test (and one engine game).
const FRIEND_GAMES: usize = 3;

/// Five minutes a side: the clocks run, and no game can lose on time during a test.
const TIMED: &str = r#""minutes":5,"increment":0"#;

/// A game and what its players saw acknowledged.
struct Game {
    players: Vec<Player>,
    /// Every move a player saw in a state from the server, in order: the moves that must never be lost.
    acknowledged: Vec<String>,
    /// Varies the moves played from game to game.
    seed: usize,
}

impl Game {
    async fn between_friends(addr: SocketAddr, seed: usize) -> Game {
        let mut creator = Visitor::arrive(addr).await;
        let id = creator
            .create(&format!(r#"{{"opponent":"friend",{TIMED}}}"#))
            .await;
        let mut friend = Visitor::arrive(addr).await;
        friend.join(&id).await;
        let players = vec![creator.sit(&id).await, friend.sit(&id).await];
        Game {
            players,
            acknowledged: Vec::new(),
            seed,
        }
    }

    async fn against_the_engine(addr: SocketAddr, seed: usize) -> Game {
        let mut human = Visitor::arrive(addr).await;
        let id = human
            .create(&format!(
                r#"{{"opponent":"engine","level":1,"side":"blue",{TIMED}}}"#
            ))
            .await;
        Game {
            players: vec![human.sit(&id).await],
            acknowledged: Vec::new(),
            seed,
        }
    }

    fn id(&self) -> &str {
        &self.players[0].id
    }

    fn state(&self) -> &Value {
        &self.players[0].state
    }

    /// Plays `plies` more plies (the engine's replies count), each acknowledged before the next.
    async fn play(&mut self, plies: usize) {
        let target = self.acknowledged.len() + plies;
        while self.acknowledged.len() < target {
            let ply = self.acknowledged.len();
            match self.players.iter_mut().find(|p| p.my_turn()) {
                Some(mover) => {
                    let mv = mover
                        .play(ply * 7 + self.seed)
                        .await
                        .unwrap_or_else(|e| panic!("game {}: move {ply}: {e:?}", mover.id));
                    self.acknowledged.push(mv);
                }
                // The engine's turn: its reply arrives as the next state.
                None => {
                    let player = &mut self.players[0];
                    player
                        .await_ply(ply + 1)
                        .await
                        .unwrap_or_else(|e| panic!("game {}: no engine reply: {e}", player.id));
                    self.acknowledged.push(moves_of(&player.state)[ply].clone());
                }
            }
            // Every player sees every move.
            for player in &mut self.players {
                player
                    .await_ply(ply + 1)
                    .await
                    .unwrap_or_else(|e| panic!("game {}: {e}", player.id));
            }
            assert!(
                self.state()["outcome"].is_null(),
                "game {} ended: {}",
                self.id(),
                self.state()
            );
        }
    }

    /// Brings every player back after a fault: a connection that no longer answers is opened again through
    /// nginx, and the state it recovers must hold exactly the acknowledged moves.
    async fn recover(&mut self, clocks_before: &Clocks) {
        for player in &mut self.players {
            if !player.answers().await {
                player.reconnect().await;
            }
            assert_eq!(
                moves_of(&player.state),
                self.acknowledged,
                "game {}: the moves after the fault",
                player.id
            );
        }
        clocks_before.still_right(self.id(), self.state());
    }

    /// The player whose turn it is (none while the engine is to move).
    fn mover(&mut self) -> Option<&mut Player> {
        self.players.iter_mut().find(|p| p.my_turn())
    }

    /// Makes the next move, asking again while it is refused (a part of the deployment is coming back), a
    /// bounded number of times.
    async fn play_when_accepted(&mut self) {
        let ply = self.acknowledged.len();
        let seed = self.seed;
        let mover = self.mover().expect("a player to move");
        let mut last = String::new();
        for _ in 0..60 {
            match mover.play(ply * 7 + seed).await {
                Ok(mv) => {
                    self.acknowledged.push(mv);
                    return;
                }
                Err(NotPlayed::Refused(why)) => {
                    last = why;
                    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
                }
                Err(NotPlayed::Lost(why)) => {
                    last = why;
                    mover.reconnect().await;
                }
            }
        }
        panic!("game {}: move {ply} still not played: {last}", mover.id);
    }

    /// Waits until every player's state holds every acknowledged move (a move made by
    /// [`Game::play_when_accepted`] reaches the other players' nodes through the broker).
    async fn all_see_every_move(&mut self) {
        let ply = self.acknowledged.len();
        for player in &mut self.players {
            player
                .await_ply(ply)
                .await
                .unwrap_or_else(|e| panic!("game {}: {e}", player.id));
            assert_eq!(
                moves_of(&player.state),
                self.acknowledged,
                "game {}",
                player.id
            );
        }
    }

    fn reconnections(&self) -> usize {
        self.players.iter().map(|p| p.reconnections).sum()
    }
}

/// A game's clocks as the players last saw them before a fault.
struct Clocks {
    running: String,
    waiting_ms: u64,
}

impl Clocks {
    fn of(state: &Value) -> Clocks {
        let clock = &state["clock"];
        let running = clock["running"]
            .as_str()
            .expect("a running clock")
            .to_string();
        let waiting = if running == "blue" { "red" } else { "blue" };
        Clocks {
            waiting_ms: clock[format!("{waiting}_ms")].as_u64().unwrap(),
            running,
        }
    }

    /// The same side's clock runs, the waiting side keeps exactly its time (no time passes for a side that
    /// is not to move, whatever happened to the servers), and the running one has time left within the game's.
    fn still_right(&self, id: &str, state: &Value) {
        let after = Clocks::of(state);
        assert_eq!(after.running, self.running, "game {id}: {state}");
        assert_eq!(after.waiting_ms, self.waiting_ms, "game {id}: {state}");
        let running_ms = state["clock"][format!("{}_ms", self.running)]
            .as_u64()
            .unwrap();
        assert!(
            (1..=5 * 60 * 1000).contains(&running_ms),
            "game {id}: {state}"
        );
    }
}

/// Several friend games and an engine game, under way (past their first moves, so the clocks run).
async fn games_under_way(addr: SocketAddr) -> Vec<Game> {
    let mut games = Vec::new();
    for seed in 0..FRIEND_GAMES {
        games.push(Game::between_friends(addr, seed).await);
    }
    games.push(Game::against_the_engine(addr, FRIEND_GAMES).await);
    for game in &mut games {
        game.play(4).await;
    }
    games
}

async fn recover_all(games: &mut [Game], clocks: &[Clocks]) {
    for (game, clocks) in games.iter_mut().zip(clocks) {
        game.recover(clocks).await;
    }
}

fn clocks_of(games: &[Game]) -> Vec<Clocks> {
    games.iter().map(|g| Clocks::of(g.state())).collect()
}

/// After a fault: every game goes on for four more plies, every player seeing each (so across nodes), the
/// engine answering in its game.
async fn play_on(games: &mut [Game]) {
    for game in games {
        let before = ply_of(game.state());
        game.play(4).await;
        assert_eq!(ply_of(game.state()), before + 4);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_node_loses_no_acknowledged_move_and_its_players_go_on_elsewhere() {
    let cluster = Cluster::start("kill-node", Topology::ThreeNodes);
    let mut games = games_under_way(cluster.addr).await;
    let clocks = clocks_of(&games);
    // nginx places a game by its id, so a given node may hold none of these few games: the node killed is
    // one that holds a mover.
    let (holder, _) = movers_by_node(&cluster, &mut games).await.remove(0);

    cluster.kill(&holder);
    // No restart: nginx sends the players of the killed node to the two others.
    recover_all(&mut games, &clocks).await;
    let reconnected: usize = games.iter().map(Game::reconnections).sum();
    assert!(
        reconnected > 0,
        "nobody lost a connection: was a node killed?"
    );
    play_on(&mut games).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lone_node_on_sqlite_killed_and_restarted_loses_no_acknowledged_move() {
    let cluster = Cluster::start("kill-lone-node", Topology::OneNodeOnSqlite);
    let mut games = games_under_way(cluster.addr).await;
    let clocks = clocks_of(&games);

    cluster.kill("node1");
    cluster.restart("node1");
    recover_all(&mut games, &clocks).await;
    let reconnected: usize = games.iter().map(Game::reconnections).sum();
    assert!(
        reconnected > 0,
        "nobody lost a connection: was the node killed?"
    );
    play_on(&mut games).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn while_postgresql_is_down_moves_are_refused_and_play_resumes_after() {
    let cluster = Cluster::start("postgres", Topology::ThreeNodes);
    let mut games = games_under_way(cluster.addr).await;
    let clocks = clocks_of(&games);

    cluster.kill("postgres");
    for game in &mut games {
        let ply = game.acknowledged.len();
        let seed = game.seed;
        // The engine's game may be waiting for the engine, which cannot store its move either.
        let Some(mover) = game.mover() else { continue };
        match mover.play(ply * 7 + seed).await {
            Err(NotPlayed::Refused(_)) => {}
            other => panic!(
                "game {}: with the database down, a move got {other:?}",
                mover.id
            ),
        }
    }

    cluster.restart("postgres");
    // Nothing refused was stored after all: the games hold exactly the acknowledged moves, and no time went
    // from the clock of a side that was not to move.
    recover_all(&mut games, &clocks).await;
    for game in &mut games {
        if game.mover().is_some() {
            game.play_when_accepted().await;
        }
        // Before the next move, each player knows whose turn it is.
        game.all_see_every_move().await;
    }
    play_on(&mut games).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_nats_restarts_no_move_is_lost_or_doubled() {
    let cluster = Cluster::start("nats", Topology::ThreeNodes);
    let mut games = games_under_way(cluster.addr).await;

    cluster.kill("nats");
    // While the broker is away a move is stored and acknowledged to its player (or refused, and made again);
    // a player on another node may not hear of it until the broker is back.
    for game in &mut games {
        if game.mover().is_some() {
            game.play_when_accepted().await;
        }
    }
    cluster.restart("nats");

    // Every board comes to hold exactly the acknowledged moves: the nodes catch up once subscribed again, or
    // a player that heard nothing gets the whole state from the database on reconnecting.
    for game in &mut games {
        let ply = game.acknowledged.len();
        for player in &mut game.players {
            if player.await_ply(ply).await.is_err() {
                player.reconnect().await;
            }
            assert_eq!(
                moves_of(&player.state),
                game.acknowledged,
                "game {}",
                player.id
            );
        }
    }
    play_on(&mut games).await;
}

/// The goal for a hung node: its players play on elsewhere within this (issue 29). Printed with the stall
/// measured, never asserted (the machine may be busy): the test asserts on what happens.
const HUNG_NODE_GOAL: std::time::Duration = std::time::Duration::from_secs(10);

/// How long the test keeps a node hung: well past the age at which the store refuses a move (5 s).
const HUNG_FOR: std::time::Duration = std::time::Duration::from_secs(15);

/// Which node each game's mover is connected to (through nginx: the node that logged the upgrade's id).
async fn movers_by_node(cluster: &Cluster, games: &mut [Game]) -> Vec<(String, usize)> {
    let mut placed = Vec::new();
    for (index, game) in games.iter_mut().enumerate() {
        let mover = game.mover().expect("a player to move");
        let request_id = mover.request_id.clone();
        placed.push((cluster.node_that_answered(&request_id).await, index));
    }
    placed
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hung_node_costs_its_players_seconds_and_a_move_it_held_is_never_played() {
    let cluster = Cluster::start("hung-node", Topology::ThreeNodes);
    let mut games = games_under_way(cluster.addr).await;
    // Four movers on three nodes: some node holds two of them. Its game `a` plays on elsewhere at once; in
    // game `b` the mover waits, so the ply its held move was for is still free when the node runs again.
    let placed = movers_by_node(&cluster, &mut games).await;
    let (hung, a, b) = placed
        .iter()
        .find_map(|(node, a)| {
            let (_, b) = placed.iter().find(|(other, b)| other == node && b != a)?;
            Some((node.clone(), *a, *b))
        })
        .expect("a node with two movers");

    cluster.pause(&hung);
    let stopped = std::time::Instant::now();
    // Both movers send a move to the hung node: no answer comes.
    let ply_b = games[b].acknowledged.len();
    let seed_b = games[b].seed;
    let held = games[b]
        .mover()
        .unwrap()
        .send_move(ply_b * 7 + seed_b)
        .await
        .expect("the move is sent");
    let acknowledged_a = games[a].acknowledged.clone();
    let ply_a = acknowledged_a.len();
    let seed_a = games[a].seed;
    let mover = games[a].mover().unwrap();
    match mover.play(ply_a * 7 + seed_a).await {
        Err(NotPlayed::Lost(_)) => {}
        other => panic!("game {}: a move to a hung node got {other:?}", mover.id),
    }
    // As the page does: the connection is opened again through nginx, which passes the hung node over; the
    // move is made again and acknowledged by another node.
    mover.reconnect().await;
    assert_eq!(moves_of(&mover.state), acknowledged_a);
    let elsewhere = cluster.node_that_answered(&mover.request_id).await;
    assert_ne!(elsewhere, hung, "the reconnection went to the hung node");
    // Without waiting for the hung node to answer the upgrade: the question asked before it
    // (`/api/alive/ID`, routed as the socket) waited for the hung node instead, and nginx then passed the
    // node over for the socket too.
    let front_door = cluster.log("nginx-error");
    let waited_for = |path: &str| {
        front_door.lines().any(|line| {
            line.contains("while reading response header") && line.contains(&format!("GET {path} "))
        })
    };
    assert!(
        waited_for(&format!("/api/alive/{}", mover.id)),
        "the question before reconnecting did not wait for the hung node:\n{front_door}"
    );
    assert!(
        !waited_for(&format!("/ws/{}", mover.id)),
        "the reconnection's upgrade waited for the hung node:\n{front_door}"
    );
    let mv = mover
        .play(ply_a * 7 + seed_a)
        .await
        .unwrap_or_else(|e| panic!("game {}: the move again: {e:?}", mover.id));
    let stall = stopped.elapsed();
    games[a].acknowledged.push(mv);
    eprintln!(
        "a hung node: its player's move acknowledged through {elsewhere} {stall:?} after {hung} stopped \
         (goal {HUNG_NODE_GOAL:?})"
    );

    // Game b's mover comes back elsewhere too, and sees its game without the held move.
    let acknowledged_b = games[b].acknowledged.clone();
    let mover = games[b].mover().unwrap();
    if !mover.answers().await {
        mover.reconnect().await;
    }
    assert_eq!(moves_of(&mover.state), acknowledged_b);

    // The hung node runs again and reads the held move: refused as too old (and logged), never stored. (It
    // stays hung long enough for that: a move is refused once 5 s old when it reaches the database.)
    tokio::time::sleep_until((stopped + HUNG_FOR).into()).await;
    cluster.resume(&hung);
    let id_b = games[b].id().to_string();
    let refused = async {
        loop {
            let log = cluster.log(&hung);
            if log
                .lines()
                .any(|line| line.contains(&id_b) && line.contains("too late"))
            {
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        }
    };
    tokio::time::timeout(player::PATIENCE, refused)
        .await
        .unwrap_or_else(|_| panic!("game {id_b}: {hung} did not refuse the held move {held}"));
    // Whatever the node did, every player of every game now holds exactly the acknowledged moves.
    for game in &mut games {
        for player in &mut game.players {
            if !player.answers().await {
                player.reconnect().await;
            }
            assert_eq!(
                moves_of(&player.state),
                game.acknowledged,
                "game {}",
                player.id
            );
        }
    }
    // Game b's mover plays on, the hung node is back in nginx's hands, and every game goes on.
    games[b].play_when_accepted().await;
    games[b].all_see_every_move().await;
    play_on(&mut games).await;
}
