//! Every limit on what a client can make the server hold or do, in one place: its name, default and meaning.
//! `jungle serve --limit NAME=VALUE` changes one; docs/security.md lists them all.

use std::time::Duration;

/// The limits a server enforces. [`Limits::default`] is what `jungle serve` uses unless told otherwise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Finished games nobody watches are dropped from memory after this long unused (reloaded when asked for).
    pub room_idle: Duration,
    /// In a cluster, a game in play that nobody on this node watches or has asked for within this long is
    /// dropped from memory when another node changes it, rather than followed (the node that changed it holds
    /// it; this one reads it again when asked for).
    pub room_unwatched: Duration,
    /// The estimated memory of the rooms held, in MiB; beyond it the least recently used idle rooms go first.
    pub rooms_memory_mib: u64,
    /// The process's resident memory, in MiB, above which requests that would load more answer 503 (0: none).
    pub process_memory_mib: u64,
    /// The shortest clock a timed game may have.
    pub min_clock: Duration,
    /// Engine jobs waiting for a thread; beyond it analyses and new engine games are refused (503).
    pub engine_queue: usize,
    /// Unfinished engine games one client address may have at once.
    pub engine_games_per_client: usize,
    /// Open websockets in total, and from one client address.
    pub connections: usize,
    pub connections_per_client: usize,
    /// A websocket from which nothing arrives for this long is closed (the page pings every 30 s).
    pub connection_idle: Duration,
    /// Per client address, per minute: games created, PGN imports, analyses, and other API requests.
    pub creates_per_minute: u32,
    pub imports_per_minute: u32,
    pub analyses_per_minute: u32,
    pub requests_per_minute: u32,
    /// Per client address: log-ins and password changes a minute (each one guesses a password), and
    /// sign-ups an hour.
    pub logins_per_minute: u32,
    pub signups_per_hour: u32,
    /// Log-ins to one account an hour, from anywhere (a guesser with many addresses).
    pub logins_per_name_per_hour: u32,
    /// Messages per minute on one websocket (a burst of a tenth of it is allowed); a flood closes it.
    pub messages_per_minute: u32,
    /// A friend game whose second seat nobody takes for this long is aborted (and leaves the live list).
    pub join_wait: Duration,
    /// A game whose side to move has not made its first move this long after the game could begin (created,
    /// joined, or the opponent's first move) is aborted.
    pub first_move_wait: Duration,
    /// A player whose opponent has had no connection this long (in a game that has begun) may claim the win
    /// or call it a draw.
    pub claim_after: Duration,
    /// The shortest arena tournament (the form offers whole minutes from 5; tests set seconds).
    pub min_arena: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            room_idle: Duration::from_secs(300),
            room_unwatched: Duration::from_secs(5),
            rooms_memory_mib: 128,
            process_memory_mib: 1024,
            min_clock: Duration::from_secs(15),
            engine_queue: 32,
            engine_games_per_client: 3,
            connections: 4096,
            connections_per_client: 32,
            connection_idle: Duration::from_secs(120),
            creates_per_minute: 20,
            imports_per_minute: 10,
            analyses_per_minute: 30,
            requests_per_minute: 600,
            logins_per_minute: 10,
            signups_per_hour: 10,
            logins_per_name_per_hour: 30,
            messages_per_minute: 240,
            join_wait: Duration::from_secs(30 * 60),
            first_move_wait: Duration::from_secs(5 * 60),
            claim_after: Duration::from_secs(30),
            min_arena: Duration::from_secs(5 * 60),
        }
    }
}

/// A `--limit` that could not be applied.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum LimitError {
    #[error("limit \"{0}\" should be NAME=VALUE")]
    Shape(String),
    #[error("unknown limit \"{0}\" (known: {known})", known = Limits::NAMES.join(", "))]
    Unknown(String),
    #[error("limit {name}: \"{value}\" should be a whole number of at least 1")]
    Value { name: String, value: String },
}

impl Limits {
    /// Every limit's name, as `--limit` takes it.
    pub const NAMES: &[&str] = &[
        "room-idle-secs",
        "room-unwatched-secs",
        "rooms-memory-mib",
        "process-memory-mib",
        "min-clock-secs",
        "engine-queue",
        "engine-games-per-client",
        "connections",
        "connections-per-client",
        "connection-idle-secs",
        "creates-per-minute",
        "imports-per-minute",
        "analyses-per-minute",
        "requests-per-minute",
        "logins-per-minute",
        "signups-per-hour",
        "logins-per-name-per-hour",
        "messages-per-minute",
        "join-wait-secs",
        "first-move-secs",
        "claim-after-secs",
        "min-arena-secs",
    ];

    /// Applies one `NAME=VALUE` setting.
    ///
    /// # Errors
    /// [`LimitError`] for an unknown name or a value that is not a positive whole number
    /// (`process-memory-mib` also takes 0: no bound).
    pub fn set(&mut self, setting: &str) -> Result<(), LimitError> {
        let (name, value) = setting
            .split_once('=')
            .ok_or_else(|| LimitError::Shape(setting.to_string()))?;
        let (name, value) = (name.trim(), value.trim());
        let bad = || LimitError::Value {
            name: name.to_string(),
            value: value.to_string(),
        };
        let number: u64 = value.parse().map_err(|_| bad())?;
        if number == 0 && name != "process-memory-mib" {
            return Err(bad());
        }
        let count = || usize::try_from(number).map_err(|_| bad());
        let rate = || u32::try_from(number).map_err(|_| bad());
        match name {
            "room-idle-secs" => self.room_idle = Duration::from_secs(number),
            "room-unwatched-secs" => self.room_unwatched = Duration::from_secs(number),
            "rooms-memory-mib" => self.rooms_memory_mib = number,
            "process-memory-mib" => self.process_memory_mib = number,
            "min-clock-secs" => self.min_clock = Duration::from_secs(number),
            "engine-queue" => self.engine_queue = count()?,
            "engine-games-per-client" => self.engine_games_per_client = count()?,
            "connections" => self.connections = count()?,
            "connections-per-client" => self.connections_per_client = count()?,
            "connection-idle-secs" => self.connection_idle = Duration::from_secs(number),
            "creates-per-minute" => self.creates_per_minute = rate()?,
            "imports-per-minute" => self.imports_per_minute = rate()?,
            "analyses-per-minute" => self.analyses_per_minute = rate()?,
            "requests-per-minute" => self.requests_per_minute = rate()?,
            "logins-per-minute" => self.logins_per_minute = rate()?,
            "signups-per-hour" => self.signups_per_hour = rate()?,
            "logins-per-name-per-hour" => self.logins_per_name_per_hour = rate()?,
            "messages-per-minute" => self.messages_per_minute = rate()?,
            "join-wait-secs" => self.join_wait = Duration::from_secs(number),
            "first-move-secs" => self.first_move_wait = Duration::from_secs(number),
            "claim-after-secs" => self.claim_after = Duration::from_secs(number),
            "min-arena-secs" => self.min_arena = Duration::from_secs(number),
            other => return Err(LimitError::Unknown(other.to_string())),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_named_limit_can_be_set_and_bad_settings_are_refused() {
        for name in Limits::NAMES {
            let mut limits = Limits::default();
            limits.set(&format!("{name}=7")).unwrap();
            assert_ne!(limits, Limits::default(), "{name} changed nothing");
        }
        let mut limits = Limits::default();
        limits.set("process-memory-mib=0").unwrap();
        assert_eq!(limits.process_memory_mib, 0);
        assert!(matches!(
            limits.set("connections"),
            Err(LimitError::Shape(_))
        ));
        assert!(matches!(
            limits.set("sockets=3"),
            Err(LimitError::Unknown(_))
        ));
        assert!(matches!(
            limits.set("connections=0"),
            Err(LimitError::Value { .. })
        ));
        assert!(matches!(
            limits.set("connections=-1"),
            Err(LimitError::Value { .. })
        ));
        assert!(matches!(
            limits.set("connections=lots"),
            Err(LimitError::Value { .. })
        ));
    }
}
