//! Password hashing: argon2id (the `argon2` crate's defaults, OWASP's minimum: 19 MiB, 2 passes) in PHC
//! strings. Each hash takes tens of milliseconds of a core and 19 MiB, so it runs off the async runtime, and
//! at most [`hashing_slots`] at once: a flood of logins waits its turn (and gives up after [`HASH_WAIT`])
//! instead of taking every core and a few hundred MiB.

use std::sync::OnceLock;
use std::time::Duration;

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use rand::Rng;
use tokio::sync::Semaphore;

/// How long a request waits for a hashing slot before it is refused as busy.
pub const HASH_WAIT: Duration = Duration::from_secs(10);

/// Why a password could not be hashed or checked.
#[derive(Debug, thiserror::Error)]
pub enum PasswordError {
    #[error("the server is busy checking passwords: try again in a moment")]
    Busy,
    #[error("password hashing failed: {0}")]
    Failed(String),
}

/// Hashes at once: half the cores, at least one.
pub fn hashing_slots() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get() / 2)
        .unwrap_or(1)
        .max(1)
}

fn slots() -> &'static Semaphore {
    static SLOTS: OnceLock<Semaphore> = OnceLock::new();
    SLOTS.get_or_init(|| Semaphore::new(hashing_slots()))
}

/// Runs `work` on the blocking pool once a hashing slot is free.
async fn in_a_slot<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, PasswordError> + Send + 'static,
) -> Result<T, PasswordError> {
    let _slot = tokio::time::timeout(HASH_WAIT, slots().acquire())
        .await
        .map_err(|_| PasswordError::Busy)?
        .map_err(|_| PasswordError::Busy)?;
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| PasswordError::Failed(e.to_string()))?
}

/// A new argon2id hash of `password` with a fresh random salt.
pub async fn hash(password: String) -> Result<String, PasswordError> {
    in_a_slot(move || hash_now(&password)).await
}

fn hash_now(password: &str) -> Result<String, PasswordError> {
    let salt_bytes: [u8; 16] = rand::rng().random();
    let salt =
        SaltString::encode_b64(&salt_bytes).map_err(|e| PasswordError::Failed(e.to_string()))?;
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|hash| hash.to_string())
        .map_err(|e| PasswordError::Failed(e.to_string()))
}

/// Whether `password` matches `stored` (a PHC string). With no stored hash (no such account) a dummy hash is
/// checked all the same, so the answer takes as long and says nothing about which names exist.
pub async fn verify(password: String, stored: Option<String>) -> Result<bool, PasswordError> {
    in_a_slot(move || {
        let exists = stored.is_some();
        let stored = match stored {
            Some(stored) => stored,
            None => dummy_hash()?.to_string(),
        };
        let parsed =
            PasswordHash::new(&stored).map_err(|e| PasswordError::Failed(e.to_string()))?;
        let matches = Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok();
        Ok(exists && matches)
    })
    .await
}

/// A hash of nothing anyone types, made once, for [`verify`] without an account.
fn dummy_hash() -> Result<&'static str, PasswordError> {
    static DUMMY: OnceLock<String> = OnceLock::new();
    if let Some(hash) = DUMMY.get() {
        return Ok(hash);
    }
    let hash = hash_now("no account has this password")?;
    Ok(DUMMY.get_or_init(|| hash))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn hashes_are_salted_argon2id_and_verify_only_their_password() {
        let first = hash("correct horse".into()).await.unwrap();
        let second = hash("correct horse".into()).await.unwrap();
        assert!(first.starts_with("$argon2id$"), "{first}");
        assert_ne!(first, second, "a fresh salt each time");
        assert!(
            verify("correct horse".into(), Some(first.clone()))
                .await
                .unwrap()
        );
        assert!(!verify("correct horsE".into(), Some(first)).await.unwrap());
        assert!(
            !verify("no account has this password".into(), None)
                .await
                .unwrap()
        );
        assert!(verify("x".into(), Some("not a hash".into())).await.is_err());
    }
}
