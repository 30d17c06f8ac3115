//! A client process's share of the games, and playing it.

use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::game::{self, Plan};
use crate::options::Options;
use crate::report::Report;
use crate::target::{self, Target};
use crate::watch::Watch;

/// What one client process plays: slots `first..first + count` of `total`. Times are on the wall clock
/// (milliseconds since the Unix epoch) so that every process begins each slot and samples each second at the
/// same moment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Share {
    pub targets: Vec<Target>,
    pub source: Option<IpAddr>,
    pub first: usize,
    pub count: usize,
    pub total: usize,
    pub pace_ms: u64,
    pub moves_per_slot: Option<u64>,
    pub start_unix_ms: u64,
    pub ramp_ms: u64,
    pub window_ms: u64,
    /// The process's runtime threads: its part of the machine's cores, at least one (client processes that
    /// each took every core would take turns on them with each other and with the servers).
    pub threads: usize,
}

/// Splits the run's games over `processes` client processes (one share when 0: this process plays them).
pub fn split(options: &Options, targets: &[Target], start: SystemTime) -> Vec<Share> {
    let processes = options.processes.max(1);
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let start_unix_ms = start
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    (0..processes)
        .map(|index| {
            let first = options.games * index / processes;
            let next = options.games * (index + 1) / processes;
            Share {
                targets: targets.to_vec(),
                source: if options.processes == 0 {
                    None
                } else {
                    target::source_for_process(targets, index)
                },
                first,
                count: next - first,
                total: options.games,
                pace_ms: options.pace.as_millis() as u64,
                moves_per_slot: options.moves_per_slot,
                start_unix_ms,
                ramp_ms: options.ramp.as_millis() as u64,
                window_ms: options.window.as_millis() as u64,
                threads: (cores / processes).max(1),
            }
        })
        .collect()
}

/// The instant the wall clock shows `unix_ms`.
fn instant_at(unix_ms: u64) -> Instant {
    let now = Instant::now();
    let now_ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    if unix_ms >= now_ms {
        now + Duration::from_millis(unix_ms - now_ms)
    } else {
        now.checked_sub(Duration::from_millis(now_ms - unix_ms))
            .unwrap_or(now)
    }
}

/// Plays the share's slots, sampling the games in play at each second of the window.
pub async fn play(share: &Share) -> Report {
    let start = instant_at(share.start_unix_ms);
    let window_start = start + Duration::from_millis(share.ramp_ms);
    let end = window_start + Duration::from_millis(share.window_ms);
    let plan = Arc::new(Plan {
        targets: share.targets.clone(),
        source: share.source,
        pace: Duration::from_millis(share.pace_ms),
        window_start,
        end,
        moves_per_slot: share.moves_per_slot,
        in_play: AtomicU64::new(0),
    });
    let own_usage = Watch::start(vec![std::process::id()], window_start, end);
    let samples = Arc::new(Mutex::new(Vec::new()));
    let sampler = tokio::spawn(sample_in_play(Arc::clone(&plan), Arc::clone(&samples)));
    let slots: Vec<_> = (share.first..share.first + share.count)
        .map(|index| {
            // Slot i of n begins i/n of the way through the ramp.
            let offset = share.ramp_ms * index as u64 / share.total.max(1) as u64;
            let begin = start + Duration::from_millis(offset);
            tokio::spawn(game::slot(Arc::clone(&plan), index, begin))
        })
        .collect();
    let mut report = Report {
        processes: 1,
        ..Report::default()
    };
    for slot in slots {
        match slot.await {
            Ok(slot) => report.merge(slot),
            Err(_) => report.fail_named("a game slot's task panicked".to_string()),
        }
    }
    let stopped = Instant::now().min(end);
    report.window_ms = stopped.saturating_duration_since(window_start).as_millis() as u64;
    sampler.abort();
    if let Some(Ok(spent)) = own_usage.finish() {
        report.client_cpu_ms = spent.cpu.as_millis() as u64;
        report.client_wait_ms = spent.waiting.unwrap_or_default().as_millis() as u64;
    }
    report.games_in_play = std::mem::take(&mut samples.lock().expect("samples"));
    report
}

/// Records the games in play at each whole second of the window (until the slots stop).
async fn sample_in_play(plan: Arc<Plan>, samples: Arc<Mutex<Vec<u64>>>) {
    let mut at = plan.window_start;
    while at < plan.end {
        tokio::time::sleep_until(at.into()).await;
        let in_play = plan.in_play.load(Ordering::Relaxed);
        samples.lock().expect("samples").push(in_play);
        at += Duration::from_secs(1);
    }
}
