//! The soft `RLIMIT_NOFILE`: raised to the hard limit at start-up, so that the /proc
//! fallback may keep its files open (within [`fdbudget`](crate::model::fdbudget)), and
//! given back to the processes the bar starts, which expect the usual one (a program
//! that uses `select` breaks on fds past 1024; some close every fd up to the limit).

use std::sync::atomic::{AtomicU64, Ordering};

use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};

use crate::model::fdbudget::raised_soft_limit;

/// The soft limit the bar started with, once raised (`NOT_RAISED` before or without).
static STARTED_WITH: AtomicU64 = AtomicU64::new(NOT_RAISED);
const NOT_RAISED: u64 = u64::MAX - 1;
/// An unlimited soft limit, in `STARTED_WITH`.
const UNLIMITED: u64 = u64::MAX;

/// Raises the soft limit to the hard one; a refusal is logged, not fatal.
pub fn raise() {
    let limit = getrlimit(Resource::Nofile);
    let Some(soft) = raised_soft_limit(limit.current, limit.maximum) else {
        return;
    };
    let raised = Rlimit {
        current: soft,
        maximum: limit.maximum,
    };
    match setrlimit(Resource::Nofile, raised) {
        Ok(()) => {
            STARTED_WITH.store(limit.current.unwrap_or(UNLIMITED), Ordering::Relaxed);
            tracing::debug!(from = ?limit.current, to = ?soft, "RLIMIT_NOFILE raised");
        }
        Err(err) => tracing::debug!("RLIMIT_NOFILE stays {:?}: {err}", limit.current),
    }
}

/// In a child between fork and exec: the soft limit back to what the bar started with.
/// Async-signal-safe: an atomic load and two system calls.
pub fn restore_in_child() {
    let soft = STARTED_WITH.load(Ordering::Relaxed);
    if soft == NOT_RAISED {
        return;
    }
    let limit = Rlimit {
        current: (soft != UNLIMITED).then_some(soft),
        maximum: getrlimit(Resource::Nofile).maximum,
    };
    let _ = setrlimit(Resource::Nofile, limit);
}
