//! The open-files limit: every websocket is a file descriptor.

/// Descriptors a process needs besides its sockets (runtime, database, standard streams).
const SPARE: usize = 64;

/// Raises this process's soft open-files limit as far as its hard limit allows, and checks that `sockets`
/// (and a few more) fit under it.
///
/// # Errors
/// When they do not: the message says how many more processes would share the load.
pub fn raise(sockets: usize) -> Result<u64, String> {
    let limit = rlimit::increase_nofile_limit(u64::MAX)
        .map_err(|e| format!("cannot read or raise the open-files limit: {e}"))?;
    let needed = (sockets + SPARE) as u64;
    if needed > limit {
        return Err(format!(
            "this process would hold {needed} open files but may hold {limit} (its hard limit, `ulimit -Hn`): \
             use more --processes, or raise the hard limit"
        ));
    }
    Ok(limit)
}
