//! One game slot: two players playing random legal moves at a human pace, game after game.

use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use futures_util::SinkExt;
use rand::Rng;
use serde_json::Value;
use tokio_tungstenite::tungstenite::Message;

use crate::connection::{self, Socket, State};
use crate::report::{Failure, Report, Step, Wait};
use crate::target::Target;

/// How long a player waits for anything before counting a failure (the machine may be very busy).
pub const PATIENCE: Duration = Duration::from_secs(30);

/// After a failure a slot waits this long before its next game, so a server that refuses everything is not
/// hammered in a tight loop.
const AFTER_FAILURE: Duration = Duration::from_secs(1);

/// What every slot of a client process shares.
#[derive(Debug)]
pub struct Plan {
    pub targets: Vec<Target>,
    pub source: Option<IpAddr>,
    pub pace: Duration,
    /// Moves sent from then on are measured.
    pub window_start: Instant,
    /// No move is sent from then on.
    pub end: Instant,
    pub moves_per_slot: Option<u64>,
    /// Games with both players connected, right now.
    pub in_play: AtomicU64,
}

/// Slot `index` (of all processes' slots): its blue player uses target `index`, its red player the next one,
/// so with several nodes every move crosses from one node to another.
pub async fn slot(plan: Arc<Plan>, index: usize, begin: Instant) -> Report {
    tokio::time::sleep_until(begin.into()).await;
    let targets = &plan.targets;
    let blue = &targets[index % targets.len()];
    let red = &targets[(index + 1) % targets.len()];
    let mut report = Report::default();
    while Instant::now() < plan.end && !plan.slot_done(&report) {
        match play(&plan, blue, red, &mut report).await {
            Ok(()) => {}
            Err(failure) => {
                report.fail(&failure);
                tokio::time::sleep(AFTER_FAILURE).await;
            }
        }
    }
    report
}

impl Plan {
    fn slot_done(&self, slot: &Report) -> bool {
        self.moves_per_slot
            .is_some_and(|most| slot.moves_total >= most)
    }
}

/// Counts a game in play while it lives.
struct InPlay<'a>(&'a AtomicU64);

impl<'a> InPlay<'a> {
    fn new(count: &'a AtomicU64) -> InPlay<'a> {
        count.fetch_add(1, Ordering::Relaxed);
        InPlay(count)
    }
}

impl Drop for InPlay<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// One game, from creating it to its end (or the end of the run).
async fn play(
    plan: &Plan,
    blue_target: &Target,
    red_target: &Target,
    report: &mut Report,
) -> Result<(), Failure> {
    let source = plan.source;
    let created = connection::post(
        blue_target,
        source,
        Step::Create,
        "/api/games",
        r#"{"opponent":"friend","side":"blue"}"#,
    )
    .await?;
    let id = serde_json::from_str::<Value>(&created.body)
        .ok()
        .and_then(|v| v["id"].as_str().map(str::to_string))
        .ok_or(Failure::BadAnswer {
            step: Step::Create,
            what: "the game's id",
        })?;
    let no_cookie = |step| Failure::BadAnswer {
        step,
        what: "a seat cookie",
    };
    let blue_cookie = created.seat_cookie().ok_or(no_cookie(Step::Create))?;
    let joined = connection::post(
        red_target,
        source,
        Step::Join,
        &format!("/api/games/{id}/join"),
        "",
    )
    .await?;
    let red_cookie = joined.seat_cookie().ok_or(no_cookie(Step::Join))?;
    let mut blue = connection::websocket(blue_target, source, &id, &blue_cookie).await?;
    let mut red = connection::websocket(red_target, source, &id, &red_cookie).await?;
    let result = moves(plan, &mut blue, &mut red, report).await;
    let _ = blue.close(None).await;
    let _ = red.close(None).await;
    result
}

async fn moves(
    plan: &Plan,
    blue: &mut Socket,
    red: &mut Socket,
    report: &mut Report,
) -> Result<(), Failure> {
    let mut state = patiently(
        Wait::FirstState,
        connection::next_state(blue, Wait::FirstState),
    )
    .await?;
    patiently(
        Wait::FirstState,
        connection::next_state(red, Wait::FirstState),
    )
    .await?;
    let _in_play = InPlay::new(&plan.in_play);
    report.games_started += 1;
    loop {
        if state.over {
            report.games_finished += 1;
            return Ok(());
        }
        let jitter = rand::rng().random_range(0.5..1.5);
        tokio::time::sleep(plan.pace.mul_f64(jitter)).await;
        if Instant::now() >= plan.end || plan.slot_done(report) {
            return Ok(());
        }
        let (mover, opponent) = if state.blue_to_move {
            (&mut *blue, &mut *red)
        } else {
            (&mut *red, &mut *blue)
        };
        let Some(chosen) = &state.random_legal else {
            return Err(Failure::BadAnswer {
                step: Step::Websocket,
                what: "legal moves",
            });
        };
        let ply = state.ply + 1;
        let sent = Instant::now();
        mover
            .send(Message::Text(
                format!(r#"{{"type":"move","move":"{chosen}"}}"#).into(),
            ))
            .await
            .map_err(|_| Failure::Closed {
                waiting_for: Wait::Send,
            })?;
        // Both sockets are read at once, so each latency is when that socket had the move.
        let (own, seen) = tokio::join!(
            timed(
                sent,
                Wait::OwnMove,
                state_with_ply(mover, ply, Wait::OwnMove)
            ),
            timed(
                sent,
                Wait::OpponentMove,
                state_with_ply(opponent, ply, Wait::OpponentMove)
            ),
        );
        let ((new_state, own_us), (_, seen_us)) = (own?, seen?);
        report.moves_total += 1;
        if sent >= plan.window_start {
            report.moves += 1;
            report.mover_latency_us.push(own_us);
            report.opponent_latency_us.push(seen_us);
        }
        state = new_state;
    }
}

async fn patiently<T>(
    waiting_for: Wait,
    wait: impl Future<Output = Result<T, Failure>>,
) -> Result<T, Failure> {
    tokio::time::timeout(PATIENCE, wait)
        .await
        .map_err(|_| Failure::Timeout { waiting_for })?
}

/// The state `wait` brings and the microseconds from `sent` to its arrival.
async fn timed(
    sent: Instant,
    waiting_for: Wait,
    wait: impl Future<Output = Result<State, Failure>>,
) -> Result<(State, u32), Failure> {
    let state = patiently(waiting_for, wait).await?;
    let micros = u32::try_from(sent.elapsed().as_micros()).unwrap_or(u32::MAX);
    Ok((state, micros))
}

/// The first state at `ply` or later (a player's socket may still hold older states).
async fn state_with_ply(
    socket: &mut Socket,
    ply: u64,
    waiting_for: Wait,
) -> Result<State, Failure> {
    loop {
        let state = connection::next_state(socket, waiting_for).await?;
        if state.ply >= ply {
            return Ok(state);
        }
    }
}
