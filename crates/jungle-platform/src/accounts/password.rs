//! Password hashing: argon2id (the `argon2` crate's defaults, OWASP's minimum: 19 MiB, 2 passes) in PHC
//! strings. Each hash takes tens of milliseconds of a core and 19 MiB, so it runs off the async runtime, and
//! at most [`hashing_slots`] at once: a flood of logins waits its turn (and gives up after [`HASH_WAIT`])
//! instead of taking every core and a few hundred MiB. Each slot keeps its 19 MiB of working memory and
//! hashes in it: memory the allocator was handed back on the blocking pool's many threads stayed with the
//! process (300 logins took it from 48 to 431 MB for good), while the slots' memory is a fixed
//! `hashing_slots() × 19 MiB`.

use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use argon2::password_hash::{Output, ParamsString, PasswordHash, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
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

fn failed(e: impl std::fmt::Display) -> PasswordError {
    PasswordError::Failed(e.to_string())
}

/// Hashes at once: half the cores, at least one.
pub fn hashing_slots() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get() / 2)
        .unwrap_or(1)
        .max(1)
}

/// The hashing slots: a permit to hash, and the working memories of the slots not in use.
struct Slots {
    permits: Semaphore,
    memories: Mutex<Vec<Vec<Block>>>,
}

fn slots() -> &'static Slots {
    static SLOTS: OnceLock<Slots> = OnceLock::new();
    SLOTS.get_or_init(|| Slots {
        permits: Semaphore::new(hashing_slots()),
        memories: Mutex::new(Vec::new()),
    })
}

/// Runs `work` on the blocking pool once a hashing slot is free, in that slot's working memory.
async fn in_a_slot<T: Send + 'static>(
    work: impl FnOnce(&mut Vec<Block>) -> Result<T, PasswordError> + Send + 'static,
) -> Result<T, PasswordError> {
    let slots = slots();
    let _permit = tokio::time::timeout(HASH_WAIT, slots.permits.acquire())
        .await
        .map_err(|_| PasswordError::Busy)?
        .map_err(|_| PasswordError::Busy)?;
    let lock = || slots.memories.lock().unwrap_or_else(|e| e.into_inner());
    // A slot's memory is made on its first use (none while nobody has logged in).
    let mut memory = lock().pop().unwrap_or_default();
    let (result, memory) = tokio::task::spawn_blocking(move || {
        let result = work(&mut memory);
        (result, memory)
    })
    .await
    .map_err(failed)?;
    lock().push(memory);
    result
}

/// The argon2id hash of `password` with `salt` under `params`, computed in `memory` (grown to the blocks
/// `params` needs; kept at that size for the next hash).
fn hash_in(
    memory: &mut Vec<Block>,
    params: &Params,
    password: &str,
    salt: &[u8],
) -> Result<Output, PasswordError> {
    if memory.len() < params.block_count() {
        memory.resize(params.block_count(), Block::default());
    }
    let argon2 = Argon2::new(Algorithm::Argon2id, Version::V0x13, params.clone());
    let length = params.output_len().unwrap_or(Params::DEFAULT_OUTPUT_LEN);
    Output::init_with(length, |out| {
        argon2
            .hash_password_into_with_memory(password.as_bytes(), salt, out, &mut memory[..])
            .map_err(|_| argon2::password_hash::Error::Crypto)
    })
    .map_err(failed)
}

/// A new argon2id hash of `password` with a fresh random salt.
pub async fn hash(password: String) -> Result<String, PasswordError> {
    in_a_slot(move |memory| hash_now(memory, &password)).await
}

fn hash_now(memory: &mut Vec<Block>, password: &str) -> Result<String, PasswordError> {
    let salt_bytes: [u8; 16] = rand::rng().random();
    let salt = SaltString::encode_b64(&salt_bytes).map_err(failed)?;
    let params = Params::default();
    let output = hash_in(memory, &params, password, &salt_bytes)?;
    let phc = PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(&params).map_err(failed)?,
        salt: Some(salt.as_salt()),
        hash: Some(output),
    };
    Ok(phc.to_string())
}

/// Whether `password` matches `stored` (a PHC string). With no stored hash (no such account) a dummy hash is
/// checked all the same, so the answer takes as long and says nothing about which names exist.
pub async fn verify(password: String, stored: Option<String>) -> Result<bool, PasswordError> {
    in_a_slot(move |memory| {
        let exists = stored.is_some();
        let stored = match stored {
            Some(stored) => stored,
            None => dummy_hash(memory)?.to_string(),
        };
        let parsed = PasswordHash::new(&stored).map_err(failed)?;
        if Algorithm::try_from(parsed.algorithm).map_err(failed)? != Algorithm::Argon2id
            || parsed.version != Some(Version::V0x13.into())
        {
            return Err(failed("not an argon2id (version 19) hash"));
        }
        let (Some(salt), Some(expected)) = (parsed.salt, parsed.hash) else {
            return Err(failed("the hash has no salt or no value"));
        };
        let params = Params::try_from(&parsed).map_err(failed)?;
        // This server makes every hash with the default costs; a stored hash asking for far more (a damaged
        // row) would take a slot's memory or time for good.
        let default = Params::default();
        if params.m_cost() > 4 * default.m_cost() || params.t_cost() > 4 * default.t_cost() {
            return Err(failed(
                "the hash asks for more memory or passes than this server gives",
            ));
        }
        let mut salt_bytes = [0u8; 64];
        let salt = salt.decode_b64(&mut salt_bytes).map_err(failed)?;
        let found = hash_in(memory, &params, &password, salt)?;
        // `Output`'s equality takes the same time wherever the values differ.
        Ok(exists && found == expected)
    })
    .await
}

/// A hash of nothing anyone types, made once, for [`verify`] without an account.
fn dummy_hash(memory: &mut Vec<Block>) -> Result<&'static str, PasswordError> {
    static DUMMY: OnceLock<String> = OnceLock::new();
    if let Some(hash) = DUMMY.get() {
        return Ok(hash);
    }
    let hash = hash_now(memory, "no account has this password")?;
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
        let greedy = "$argon2id$v=19$m=4000000,t=2,p=1$c2l4dGVlbiBieXRlIHNsdA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
        assert!(verify("x".into(), Some(greedy.into())).await.is_err());
    }

    #[tokio::test]
    async fn hashes_agree_with_the_argon2_crates_own_hasher_both_ways() {
        use argon2::password_hash::{PasswordHasher, PasswordVerifier};
        let ours = hash("battery staple".into()).await.unwrap();
        let parsed = PasswordHash::new(&ours).unwrap();
        assert!(
            Argon2::default()
                .verify_password(b"battery staple", &parsed)
                .is_ok()
        );
        let salt = SaltString::encode_b64(b"sixteen byte slt").unwrap();
        let theirs = Argon2::default()
            .hash_password(b"battery staple", &salt)
            .unwrap()
            .to_string();
        assert!(
            verify("battery staple".into(), Some(theirs.clone()))
                .await
                .unwrap()
        );
        assert!(
            !verify("battery stapler".into(), Some(theirs))
                .await
                .unwrap()
        );
    }

    #[tokio::test]
    async fn a_flood_of_hashes_keeps_one_working_memory_per_slot() {
        let hashes: Vec<_> = (0..12)
            .map(|i| tokio::spawn(hash(format!("password {i}"))))
            .collect();
        for hash in hashes {
            hash.await.unwrap().unwrap();
        }
        let memories = slots().memories.lock().unwrap();
        assert!(
            memories.len() <= hashing_slots(),
            "{} working memories kept for {} slots",
            memories.len(),
            hashing_slots()
        );
        let blocks = Params::default().block_count();
        assert!(memories.iter().all(|m| m.len() == blocks));
    }
}
