//! What a bar killed with SIGKILL leaves of its scripts. Its own ending of runs never
//! comes then, and `PR_SET_PDEATHSIG` reaches only each run's shell: a loop in a second
//! shell, or a daemon, would live on under init. So a bar that runs scripts starts a
//! keeper: a shell in a process group of its own, blocked reading a pipe only the bar holds.
//! However the bar ends, the kernel closes that pipe; the keeper then kills every process
//! tagged with one of the bar's runs (see `orphans`) and exits. A bar that ends normally
//! has ended its runs already, so the keeper finds nothing.
//!
//! A shell rather than ringbar itself: waiting costs it about 1.5 MiB, where ringbar's
//! binary with its libraries mapped costs over 16.

use std::os::fd::OwnedFd;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use rustix::pipe::{pipe_with, PipeFlags};

/// Waits for the end of its input, then kills each process whose environment holds
/// `TAG` (`<run_var>=<the bar's pid>.`) and the group it leads (a daemon's
/// `setsid`), three times over for what forks meanwhile. Environments of other users'
/// processes are not readable, so only the bar's user's processes can match.
const SCRIPT: &str = r#"while read -r _; do :; done
for round in 1 2 3; do
    for file in $(grep -lz "^TAG" /proc/[0-9]*/environ 2>/dev/null); do
        pid=${file#/proc/}
        pid=${pid%/environ}
        [ "$pid" -gt 1 ] 2>/dev/null && [ "$pid" -ne $$ ] || continue
        kill -KILL -- "-$pid" 2>/dev/null
        kill -KILL "$pid" 2>/dev/null
    done
    sleep 0.2
done"#;

/// The write end of the keeper's pipe, open for the life of the process.
static PIPE: OnceLock<OwnedFd> = OnceLock::new();

/// Starts the keeper of this process's runs, which are tagged in the environment
/// variable `run_var`; once.
pub(super) fn start(run_var: &str) {
    if PIPE.get().is_some() {
        return;
    }
    // Close-on-exec: only the keeper's stdin is the read end, and no script holds either.
    let (read_end, write_end) = match pipe_with(PipeFlags::CLOEXEC) {
        Ok(ends) => ends,
        Err(err) => return warn_no_keeper(&err),
    };
    // The pattern for grep: the tags of this process's runs, the dot escaped.
    let tag = format!("{run_var}={}\\.", std::process::id());
    let script = SCRIPT.replace("TAG", &tag);
    // A process group of its own: a Ctrl-C in the bar's terminal does not reach it. It is
    // never waited for while the bar runs; if it dies, the orphans' reaper reaps it.
    let spawned = Command::new("/bin/sh")
        .args(["-c", &script])
        .stdin(Stdio::from(read_end))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn();
    match spawned {
        Ok(_) => {
            let _ = PIPE.set(write_end);
        }
        Err(err) => warn_no_keeper(&err),
    }
}

fn warn_no_keeper(err: &dyn std::fmt::Display) {
    tracing::warn!("scripts' processes would outlive a bar killed with SIGKILL: no keeper ({err})");
}
