//! The processes: `sh -c` started in a process group (or a session) of its own, groups
//! killed, exit statuses read and described.

use std::ffi::OsStr;

use gtk4::gio;
use gtk4::glib;

use super::orphans;

#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Exit {
    Code(i32),
    Signal(i32),
}

#[derive(Clone, Copy)]
pub(super) enum Setup {
    /// A process group of its own, killed with ringbar.
    Group,
    /// A session of its own, left alone.
    Detached,
}

/// Starts `sh -c command`, with `RINGBAR_SCRIPT_RUN=tag` in its environment if a tag is
/// given; the process and its process group id.
pub(super) fn spawn_shell(
    command: &str,
    flags: gio::SubprocessFlags,
    setup: Setup,
    tag: Option<&str>,
) -> Result<(gio::Subprocess, i32), glib::Error> {
    let launcher = gio::SubprocessLauncher::new(flags);
    if let Some(tag) = tag {
        launcher.setenv(orphans::RUN_VAR, tag, true);
    }
    let parent = std::process::id() as i32;
    launcher.set_child_setup(move || child_setup(setup, parent));
    let argv = [OsStr::new("/bin/sh"), OsStr::new("-c"), OsStr::new(command)];
    let process = launcher.spawn(&argv)?;
    let pid = process
        .identifier()
        .and_then(|id| id.parse().ok())
        .unwrap_or(0);
    orphans::spawned(pid);
    Ok((process, pid))
}

/// Runs in the child between fork and exec: only async-signal-safe calls.
fn child_setup(setup: Setup, parent: i32) {
    crate::records::fdlimit::restore_in_child();
    // libc here, not rustix: the signal disposition and mask have no rustix call.
    // SAFETY: setsid, setpgid, prctl, getppid, _exit, signal, sigemptyset and sigprocmask
    // are async-signal-safe; `set` is a valid sigset_t on this stack.
    unsafe {
        match setup {
            Setup::Detached => {
                libc::setsid();
            }
            Setup::Group => {
                libc::setpgid(0, 0);
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                if libc::getppid() != parent {
                    libc::_exit(127);
                }
            }
        }
        // Rust ignores SIGPIPE, and ignored signals survive exec: scripts expect the default.
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigprocmask(libc::SIG_SETMASK, &set, std::ptr::null_mut());
    }
}

/// Ends a run: SIGKILL to its process group `pgid` (never to ours or to every process),
/// then to what it started outside the group (tagged `tag`).
pub(super) fn end_run(pgid: i32, tag: &str) {
    if pgid > 1 {
        // The group we created.
        if let Some(group) = rustix::process::Pid::from_raw(pgid) {
            let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
        }
        orphans::end(tag, pgid);
    }
}

pub(super) fn exit_of(process: &gio::Subprocess) -> Exit {
    if process.has_signaled() {
        Exit::Signal(process.term_sig())
    } else {
        Exit::Code(process.exit_status())
    }
}

pub(super) fn describe(exit: Exit) -> String {
    match exit {
        Exit::Code(code) => format!("exited with status {code}"),
        Exit::Signal(signal) => {
            let name = match signal {
                libc::SIGHUP => " (SIGHUP)",
                libc::SIGINT => " (SIGINT)",
                libc::SIGABRT => " (SIGABRT)",
                libc::SIGKILL => " (SIGKILL)",
                libc::SIGSEGV => " (SIGSEGV)",
                libc::SIGPIPE => " (SIGPIPE)",
                libc::SIGTERM => " (SIGTERM)",
                _ => "",
            };
            format!("killed by signal {signal}{name}")
        }
    }
}

pub(super) fn with_stderr(reason: String, stderr: &Option<String>) -> String {
    match stderr {
        Some(line) => format!("{reason}: {line}"),
        None => reason,
    }
}
