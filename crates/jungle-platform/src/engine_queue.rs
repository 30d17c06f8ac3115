//! The engine's waiting line, shared fairly. At most `threads` jobs run at once. Each job is asked for by a
//! [`Requester`]: a client (its analysis requests, and the engine's moves in the games it made) and, for an
//! engine move, the game. Every client and game has an account of the engine time given to it lately: a
//! job's expected time is added when it starts, and an account halves every [`HALF_LIFE`]. A free thread goes
//! to the waiting job whose client was given least (on a tie, whose client has fewer jobs waiting), then whose
//! game was given least, then to the earliest arrival. So a newcomer starts as soon as a thread is free,
//! however many long jobs others keep in line; clients who keep the line full take turns, and so do the
//! games of one client. Nobody is starved: while a job waits, the others' accounts grow as they are served
//! and its own shrinks.

use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::sync::oneshot;

/// How fast an account of engine time given is forgotten: it halves every `HALF_LIFE`.
pub const HALF_LIFE: Duration = Duration::from_secs(60);

/// An account below this (in seconds) is as good as empty, and is forgotten when nothing of it waits.
const FORGOTTEN_SECONDS: f64 = 0.001;

/// Whose account a job is charged to.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Party {
    Client(IpAddr),
    Game(String),
    /// Requests without an address (tests, the server's own work): one shared account.
    Unknown,
}

/// Who a job of engine time is for: the party whose turn decides first, and for an engine move the game,
/// which decides between the games of one client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Requester {
    first: Party,
    game: Option<Party>,
}

impl Requester {
    /// A client's request (`None`: no address known).
    pub fn of_client(address: Option<IpAddr>) -> Requester {
        Requester {
            first: address.map_or(Party::Unknown, Party::Client),
            game: None,
        }
    }

    /// The engine's move in game `id`, made by `owner` (`None` when not known, as after a restart: then the
    /// game takes its turn as a client of its own).
    pub fn of_game(id: &str, owner: Option<IpAddr>) -> Requester {
        let game = Party::Game(id.to_owned());
        match owner {
            Some(owner) => Requester {
                first: Party::Client(owner),
                game: Some(game),
            },
            None => Requester {
                first: game,
                game: None,
            },
        }
    }

    fn parties(&self) -> impl Iterator<Item = &Party> {
        std::iter::once(&self.first).chain(self.game.as_ref())
    }
}

#[derive(Debug)]
pub struct EngineQueue {
    threads: usize,
    state: Mutex<QueueState>,
}

#[derive(Debug, Default)]
struct QueueState {
    running: usize,
    waiting: Vec<Waiter>,
    /// Engine time given lately, by client and by game.
    accounts: HashMap<Party, Account>,
    /// Arrival order, to break ties between equal accounts.
    arrivals: u64,
}

#[derive(Debug)]
struct Waiter {
    requester: Requester,
    duration: Duration,
    arrival: u64,
    wake: oneshot::Sender<()>,
}

/// Seconds of engine time given, as of `at` (it decays from there).
#[derive(Clone, Copy, Debug)]
struct Account {
    seconds: f64,
    at: Instant,
}

impl Account {
    fn seconds_at(&self, now: Instant) -> f64 {
        let halvings =
            now.saturating_duration_since(self.at).as_secs_f64() / HALF_LIFE.as_secs_f64();
        self.seconds * 0.5f64.powf(halvings)
    }
}

impl QueueState {
    fn given(&self, party: Option<&Party>, now: Instant) -> f64 {
        party
            .and_then(|party| self.accounts.get(party))
            .map_or(0.0, |account| account.seconds_at(now))
    }

    /// Adds `duration` to the accounts of `requester`'s client and game.
    fn charge(&mut self, requester: &Requester, duration: Duration, now: Instant) {
        for party in requester.parties() {
            let seconds = self.given(Some(party), now) + duration.as_secs_f64();
            self.accounts
                .insert(party.clone(), Account { seconds, at: now });
        }
    }

    /// Takes the waiter whose turn it is: its client given least (on a tie, the client with fewer jobs in
    /// line: a newcomer before those who queued many at once), then its game given least, then first come.
    fn take_next(&mut self, now: Instant) -> Option<Waiter> {
        let mut queued: HashMap<&Party, usize> = HashMap::new();
        for waiter in &self.waiting {
            *queued.entry(&waiter.requester.first).or_default() += 1;
        }
        let rank = |w: &Waiter| {
            (
                self.given(Some(&w.requester.first), now),
                queued[&w.requester.first],
                self.given(w.requester.game.as_ref(), now),
                w.arrival,
            )
        };
        let (index, _) = self
            .waiting
            .iter()
            .map(rank)
            .enumerate()
            .min_by(|(_, a), (_, b)| {
                a.0.total_cmp(&b.0)
                    .then(a.1.cmp(&b.1))
                    .then(a.2.total_cmp(&b.2))
                    .then(a.3.cmp(&b.3))
            })?;
        Some(self.waiting.swap_remove(index))
    }

    /// Drops the accounts that have decayed to nothing and have nothing waiting, so the table stays as small
    /// as the set of recent requesters.
    fn forget_old_accounts(&mut self, now: Instant) {
        let waiting: HashSet<&Party> = self
            .waiting
            .iter()
            .flat_map(|w| w.requester.parties())
            .collect();
        self.accounts.retain(|party, account| {
            account.seconds_at(now) >= FORGOTTEN_SECONDS || waiting.contains(party)
        });
    }
}

/// A running job's thread: dropping it hands the thread to the next waiting job.
#[derive(Debug)]
pub struct Slot {
    queue: Arc<EngineQueue>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.queue.release();
    }
}

/// A job waiting in line. If it is dropped (its request went away) after being handed a thread but before
/// taking it, it hands the thread on, so none is lost.
struct Pending {
    queue: Arc<EngineQueue>,
    woken: Option<oneshot::Receiver<()>>,
}

impl Drop for Pending {
    fn drop(&mut self) {
        if let Some(mut woken) = self.woken.take() {
            woken.close();
            if woken.try_recv().is_ok() {
                self.queue.release();
            }
        }
    }
}

impl EngineQueue {
    pub fn new(threads: usize) -> Arc<EngineQueue> {
        Arc::new(EngineQueue {
            threads: threads.max(1),
            state: Mutex::new(QueueState::default()),
        })
    }

    fn lock(&self) -> MutexGuard<'_, QueueState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Jobs waiting for a thread now.
    pub fn waiting(&self) -> usize {
        self.lock().waiting.len()
    }

    /// Waits for a thread for `requester`'s job expected to take `duration`.
    pub async fn acquire(self: &Arc<Self>, requester: &Requester, duration: Duration) -> Slot {
        let wake = {
            let mut state = self.lock();
            if state.running < self.threads {
                state.running += 1;
                state.charge(requester, duration, Instant::now());
                return Slot {
                    queue: self.clone(),
                };
            }
            let (wake, woken) = oneshot::channel();
            state.arrivals += 1;
            let arrival = state.arrivals;
            state.waiting.push(Waiter {
                requester: requester.clone(),
                duration,
                arrival,
                wake,
            });
            woken
        };
        // The thread is handed over by `release` (running stays counted).
        let mut pending = Pending {
            queue: self.clone(),
            woken: Some(wake),
        };
        if let Some(woken) = pending.woken.as_mut() {
            let _ = woken.await;
        }
        pending.woken = None;
        Slot {
            queue: self.clone(),
        }
    }

    /// A job ended: its thread goes to the waiter whose turn it is, or becomes free.
    fn release(&self) {
        let mut state = self.lock();
        let now = Instant::now();
        while let Some(next) = state.take_next(now) {
            if next.wake.send(()).is_ok() {
                state.charge(&next.requester, next.duration, now);
                state.forget_old_accounts(now);
                return;
            }
            // That waiter gave up (its request was dropped): try the next.
        }
        state.running -= 1;
        state.forget_old_accounts(now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn address(last: u8) -> IpAddr {
        IpAddr::from([10, 0, 0, last])
    }

    fn client(last: u8) -> Requester {
        Requester::of_client(Some(address(last)))
    }

    fn game(id: &str, owner: u8) -> Requester {
        Requester::of_game(id, Some(address(owner)))
    }

    /// Queues one job for each requester in order (each after the one before joined the line), holding the
    /// only thread meanwhile, then frees it; answers the order the jobs ran in.
    async fn run_order(
        queue: &Arc<EngineQueue>,
        jobs: &[(&'static str, Requester, u64)],
    ) -> Vec<&'static str> {
        let first = queue
            .acquire(&Requester::of_client(None), Duration::ZERO)
            .await;
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut tasks = Vec::new();
        for (name, requester, seconds) in jobs.iter().cloned() {
            let (line, order) = (queue.clone(), order.clone());
            tasks.push(tokio::spawn(async move {
                let _slot = line.acquire(&requester, Duration::from_secs(seconds)).await;
                order.lock().unwrap().push(name);
            }));
            while queue.waiting() < tasks.len() {
                tokio::task::yield_now().await;
            }
        }
        drop(first);
        for task in tasks {
            task.await.unwrap();
        }
        Arc::try_unwrap(order).unwrap().into_inner().unwrap()
    }

    #[tokio::test]
    async fn a_newcomer_goes_before_clients_who_were_given_time_and_they_take_turns() {
        let queue = EngineQueue::new(1);
        // Two busy clients were given engine time lately, the second more.
        for (requester, seconds) in [(client(1), 10), (client(2), 20)] {
            drop(
                queue
                    .acquire(&requester, Duration::from_secs(seconds))
                    .await,
            );
        }
        let order = run_order(
            &queue,
            &[
                ("busy 2", client(2), 5),
                ("busy 1", client(1), 5),
                ("busy 1 again", client(1), 5),
                ("newcomer", client(3), 1),
            ],
        )
        .await;
        // The newcomer first, then the busy clients by what they were given (10 + 5 = 15 < 20 for the first
        // client's second job: it still goes before the second client).
        assert_eq!(order, ["newcomer", "busy 1", "busy 1 again", "busy 2"]);
        assert_eq!(queue.lock().running, 0);
    }

    #[tokio::test]
    async fn equal_requesters_are_served_in_turn_and_first_come_first() {
        let queue = EngineQueue::new(1);
        let order = run_order(
            &queue,
            &[
                ("a1", client(1), 2),
                ("a2", client(1), 2),
                ("b1", client(2), 2),
                ("b2", client(2), 2),
            ],
        )
        .await;
        assert_eq!(order, ["a1", "b1", "a2", "b2"]);
    }

    #[tokio::test]
    async fn clients_take_turns_then_the_games_of_one_client_and_unowned_games_count_as_clients() {
        let queue = EngineQueue::new(1);
        // Client 1 keeps three games' moves in line; client 2 has one game; a game restored without its
        // owner takes turns like a client.
        let order = run_order(
            &queue,
            &[
                ("1a", game("a", 1), 2),
                ("1a again", game("a", 1), 2),
                ("1b", game("b", 1), 2),
                ("1c", game("c", 1), 2),
                ("2d", game("d", 2), 2),
                ("restored", Requester::of_game("e", None), 2),
            ],
        )
        .await;
        // Nobody was given anything yet: the clients with fewer jobs waiting first, then client 1's games in
        // turn (game a's second move after b and c had theirs).
        assert_eq!(order, ["2d", "restored", "1a", "1b", "1c", "1a again"]);
    }

    #[tokio::test]
    async fn a_waiter_that_gives_up_leaves_no_hole() {
        let queue = EngineQueue::new(1);
        let first = queue.acquire(&client(1), Duration::ZERO).await;
        let quitter = {
            let queue = queue.clone();
            tokio::spawn(async move { queue.acquire(&client(2), Duration::ZERO).await })
        };
        while queue.waiting() < 1 {
            tokio::task::yield_now().await;
        }
        quitter.abort();
        let _ = quitter.await;
        drop(first);
        assert_eq!(queue.lock().running, 0);
        assert_eq!(queue.waiting(), 0);
        // The thread is free for the next job at once.
        drop(queue.acquire(&client(3), Duration::ZERO).await);
    }

    #[test]
    fn accounts_halve_every_half_life_and_are_forgotten_when_empty() {
        let start = Instant::now();
        let account = Account {
            seconds: 8.0,
            at: start,
        };
        assert!((account.seconds_at(start + HALF_LIFE) - 4.0).abs() < 1e-9);
        assert!((account.seconds_at(start + HALF_LIFE * 3) - 1.0).abs() < 1e-9);
        let mut state = QueueState::default();
        state.charge(&client(1), Duration::from_secs(1), start);
        state.forget_old_accounts(start + HALF_LIFE * 5);
        assert_eq!(state.accounts.len(), 1);
        state.forget_old_accounts(start + HALF_LIFE * 20);
        assert!(state.accounts.is_empty());
    }
}
