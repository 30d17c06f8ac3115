//! Per-client rate limits (the `governor` crate's GCRA limiter, keyed by client address): game creation,
//! PGN imports, analyses, log-ins, sign-ups, and every API request; and log-ins per account name, whatever
//! the address. A refused request gets 429 with `Retry-After`.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::LazyLock;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultDirectRateLimiter, DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::limits::Limits;

/// What a request costs against the limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Create,
    Import,
    Analyse,
    /// A log-in or a password change: a password guess.
    Login,
    Signup,
    /// Any other API request or websocket upgrade.
    Request,
}

impl Action {
    pub fn name(self) -> &'static str {
        match self {
            Action::Create => "game creations",
            Action::Import => "imports",
            Action::Analyse => "analyses",
            Action::Login => "log-in attempts",
            Action::Signup => "sign-ups",
            Action::Request => "requests",
        }
    }
}

#[derive(Debug)]
pub struct RateLimits {
    create: DefaultKeyedRateLimiter<IpAddr>,
    import: DefaultKeyedRateLimiter<IpAddr>,
    analyse: DefaultKeyedRateLimiter<IpAddr>,
    login: DefaultKeyedRateLimiter<IpAddr>,
    signup: DefaultKeyedRateLimiter<IpAddr>,
    request: DefaultKeyedRateLimiter<IpAddr>,
    /// Log-ins by account name key (`store::name_key`).
    login_name: DefaultKeyedRateLimiter<String>,
}

/// `per_minute` a minute, all of it at once if saved up.
pub fn per_minute(per_minute: u32) -> Quota {
    Quota::per_minute(NonZeroU32::new(per_minute).unwrap_or(NonZeroU32::MIN))
}

/// `per_hour` an hour, all of it at once if saved up.
pub fn per_hour(per_hour: u32) -> Quota {
    Quota::per_hour(NonZeroU32::new(per_hour).unwrap_or(NonZeroU32::MIN))
}

/// The clock of every connection's message limiter. Made once: making one (`quanta`'s `Clock::new`) asks the
/// processor with `cpuid` whether its counter can be trusted, several microseconds an instruction in a virtual
/// machine, which a limiter made per connection used to pay each time (the keyed limiters, made once at start,
/// keep their own, and a refusal's wait is read from the clock of the limiter that refused).
static CLOCK: LazyLock<DefaultClock> = LazyLock::new(DefaultClock::default);

/// One connection's message limit: `per_minute` a minute, a tenth of it at once (typing bursts, not floods).
pub fn message_flood(per_minute: u32) -> DefaultDirectRateLimiter {
    let burst = NonZeroU32::new((per_minute / 10).max(1)).unwrap_or(NonZeroU32::MIN);
    RateLimiter::direct_with_clock(
        self::per_minute(per_minute).allow_burst(burst),
        CLOCK.clone(),
    )
}

impl RateLimits {
    pub fn new(limits: &Limits) -> RateLimits {
        RateLimits {
            create: RateLimiter::keyed(per_minute(limits.creates_per_minute)),
            import: RateLimiter::keyed(per_minute(limits.imports_per_minute)),
            analyse: RateLimiter::keyed(per_minute(limits.analyses_per_minute)),
            login: RateLimiter::keyed(per_minute(limits.logins_per_minute)),
            signup: RateLimiter::keyed(per_hour(limits.signups_per_hour)),
            request: RateLimiter::keyed(per_minute(limits.requests_per_minute)),
            login_name: RateLimiter::keyed(per_hour(limits.logins_per_name_per_hour)),
        }
    }

    /// Counts `action` by `client`; `Err(wait)` when it is over its limit, with how long until it is not.
    pub fn check(&self, action: Action, client: IpAddr) -> Result<(), Duration> {
        let limiter = match action {
            Action::Create => &self.create,
            Action::Import => &self.import,
            Action::Analyse => &self.analyse,
            Action::Login => &self.login,
            Action::Signup => &self.signup,
            Action::Request => &self.request,
        };
        let counted = |limiter: &DefaultKeyedRateLimiter<IpAddr>| {
            limiter
                .check_key(&client)
                .map_err(|not_until| not_until.wait_time_from(limiter.clock().now()))
        };
        counted(limiter)?;
        if action != Action::Request {
            counted(&self.request)?;
        }
        Ok(())
    }

    /// Counts a log-in to the account `name_key`; `Err(wait)` when that account had too many lately.
    pub fn check_login_name(&self, name_key: &str) -> Result<(), Duration> {
        self.login_name
            .check_key(&name_key.to_string())
            .map_err(|not_until| not_until.wait_time_from(self.login_name.clock().now()))
    }

    /// Forgets clients whose allowance is full again (run now and then, so the tables stay small).
    pub fn forget_idle(&self) {
        self.create.retain_recent();
        self.import.retain_recent();
        self.analyse.retain_recent();
        self.login.retain_recent();
        self.signup.retain_recent();
        self.request.retain_recent();
        self.login_name.retain_recent();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_client_has_its_own_allowance_per_action() {
        let limits = Limits {
            creates_per_minute: 2,
            ..Limits::default()
        };
        let rates = RateLimits::new(&limits);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        assert!(rates.check(Action::Create, a).is_ok());
        assert!(rates.check(Action::Create, a).is_ok());
        let wait = rates.check(Action::Create, a).unwrap_err();
        assert!(
            wait > Duration::ZERO && wait <= Duration::from_secs(30),
            "{wait:?}"
        );
        assert!(
            rates.check(Action::Create, b).is_ok(),
            "another client is not affected"
        );
        assert!(
            rates.check(Action::Import, a).is_ok(),
            "another action is not affected"
        );
    }
}
