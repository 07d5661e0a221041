//! How many /proc files the fallback walk may keep open between samples.
//!
//! Held open, a process's `stat`, `statm` and `io` are read again with one `pread` each
//! instead of open, read and close. Every held file is an fd of the bar's process, so the
//! walk holds at most what the fd limit leaves after a reserve for everything else, and
//! reads the processes beyond that the plain way.

/// Fds left for the rest of the bar: GTK and its Wayland, D-Bus and inotify fds, the
/// scripts' pipes, the control socket, the config watchers and files read for a moment
/// (a process's `cmdline` for its name, sysfs sensors).
pub const FD_RESERVE: u64 = 256;

/// Never more held files than this, whatever the limit. GTK and GLib wait in `poll`, which
/// takes any fd number (unlike `select`, bounded by FD_SETSIZE = 1024), so fd numbers
/// past 1024 do not trouble the bar; what a held file costs is kernel memory — a `struct
/// file` and the page-sized buffer of its seq_file, about 4.5 KiB — so 16,384 of them
/// (5,461 processes) pin at most ~72 MiB, and `poll`'s own fds stay a small set at the
/// low end. Processes past it are read the plain way.
pub const MAX_HELD_FDS: u64 = 16_384;

/// The held-file budget for a soft `RLIMIT_NOFILE` of `soft_limit` (`None`: unlimited).
pub fn held_fd_budget(soft_limit: Option<u64>) -> usize {
    let limit = soft_limit.unwrap_or(u64::MAX);
    let budget = limit.saturating_sub(FD_RESERVE).min(MAX_HELD_FDS);
    usize::try_from(budget).unwrap_or(0)
}

/// The soft limit to ask for at start-up: the hard limit (`None`: unlimited, which the
/// kernel caps at `fs.nr_open`), or `None` when the soft limit is already there.
pub fn raised_soft_limit(soft: Option<u64>, hard: Option<u64>) -> Option<Option<u64>> {
    match (soft, hard) {
        (_, None) if soft.is_none() => None,
        (Some(soft), Some(hard)) if soft >= hard => None,
        (_, hard) => Some(hard),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_keeps_a_reserve_and_a_ceiling() {
        assert_eq!(held_fd_budget(Some(1024)), 768);
        assert_eq!(held_fd_budget(Some(300)), 44);
        assert_eq!(held_fd_budget(Some(256)), 0);
        assert_eq!(
            held_fd_budget(Some(10)),
            0,
            "below the reserve: hold nothing"
        );
        assert_eq!(held_fd_budget(Some(20_000)), 16_384);
        assert_eq!(held_fd_budget(None), 16_384);
    }

    #[test]
    fn the_soft_limit_rises_to_the_hard_one() {
        assert_eq!(
            raised_soft_limit(Some(1024), Some(524_288)),
            Some(Some(524_288))
        );
        assert_eq!(raised_soft_limit(Some(1024), None), Some(None));
        assert_eq!(raised_soft_limit(Some(4096), Some(4096)), None);
        assert_eq!(raised_soft_limit(None, None), None);
    }
}
