//! What a script leaves behind. A script's shell runs in a process group of its own,
//! killed when ringbar ends the run; a child that left the group (`setsid`, a daemon's
//! double fork) would escape that and outlive the module, one more at every restart. So a
//! process that runs scripts becomes a child subreaper (`PR_SET_CHILD_SUBREAPER`): what a
//! script orphans becomes ringbar's child rather than init's, and each run's environment
//! carries `RINGBAR_SCRIPT_RUN=<ringbar's pid>.<n>`, by which ringbar tells what a run
//! started and ends it with the run. Orphans of click commands (`pavucontrol`), meant to
//! outlive the click, carry no tag: they are left alone and reaped when they exit.
//!
//! GLib reaps the shells ringbar spawned itself (each has a child watch); everything else
//! that ends as ringbar's child is reaped here, looked at with `WNOWAIT` first so that
//! GLib's own children are never taken from it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, Once};
use std::time::Duration;

use gtk4::glib;
use rustix::process::Signal;

/// The environment variable that tags a run's processes.
pub const RUN_VAR: &str = "RINGBAR_SCRIPT_RUN";
/// How often orphans that exited on their own are reaped.
const REAP_EVERY: Duration = Duration::from_secs(10);
/// A second sweep this long after a run ends catches what the first one orphaned.
const SECOND_SWEEP: Duration = Duration::from_secs(1);

/// The shells spawned through GLib: its child watches reap them.
static SPAWNED: Mutex<Vec<i32>> = Mutex::new(Vec::new());

/// A new tag for a run, unique in this process.
pub fn new_tag() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    format!(
        "{}.{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// Makes this process the subreaper of what its scripts start, and reaps on the
/// thread-default main context from then on, and starts the keeper that ends the runs'
/// processes if this process is killed; once per process. The bar calls it before its
/// first script starts; without it, what a script orphans goes to init as before.
pub fn adopt_orphans() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        super::keeper::start(RUN_VAR);
        let ours = Some(rustix::process::getpid());
        if let Err(err) = rustix::process::set_child_subreaper(ours) {
            tracing::warn!("scripts' orphans cannot be ended (PR_SET_CHILD_SUBREAPER: {err})");
            return;
        }
        glib::timeout_add_local(REAP_EVERY, || {
            reap();
            glib::ControlFlow::Continue
        });
    });
}

/// Remembers a shell GLib watches, so that it is never reaped here.
pub fn spawned(pid: i32) {
    if let Ok(mut spawned) = SPAWNED.lock() {
        spawned.push(pid);
    }
}

/// Ends every process of the run tagged `tag` that left its process group (`shell` is
/// the run's shell, `pgid` its group, already killed): now, and once more a second later
/// for what the first sweep orphaned.
pub fn end(tag: &str, shell: i32) {
    sweep(tag, shell);
    let tag = tag.to_owned();
    glib::timeout_add_local_once(SECOND_SWEEP, move || sweep(&tag, shell));
}

fn sweep(tag: &str, shell: i32) {
    let ours = std::process::id() as i32;
    let needle = format!("{RUN_VAR}={tag}");
    for_each_process(|pid, parent, _| {
        // Only children of ours (adopted orphans) or of the run's shell are candidates.
        if (parent == ours || parent == shell) && is_tagged(pid, needle.as_bytes()) {
            // `pid` carries this run's tag. A daemon that called setsid leads a group of
            // its own: that goes too.
            if let Some(pid) = rustix::process::Pid::from_raw(pid) {
                let _ = rustix::process::kill_process_group(pid, Signal::KILL);
                let _ = rustix::process::kill_process(pid, Signal::KILL);
            }
        }
    });
    reap();
}

/// Calls `visit` with each process's pid, parent pid and state letter.
fn for_each_process(mut visit: impl FnMut(i32, i32, u8)) {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return;
    };
    for entry in dir.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<i32>().ok())
        else {
            continue;
        };
        if let Some((state, parent)) = state_and_parent(pid) {
            visit(pid, parent, state);
        }
    }
}

/// The state letter and parent pid from `/proc/PID/stat` (the fields after the name's `)`).
fn state_and_parent(pid: i32) -> Option<(u8, i32)> {
    let stat = std::fs::read(format!("/proc/{pid}/stat")).ok()?;
    let after_name = &stat[stat.iter().rposition(|&b| b == b')')? + 1..];
    let text = std::str::from_utf8(after_name).ok()?;
    let mut fields = text.split_whitespace();
    let state = *fields.next()?.as_bytes().first()?;
    Some((state, fields.next()?.parse().ok()?))
}

fn is_tagged(pid: i32, needle: &[u8]) -> bool {
    std::fs::read(format!("/proc/{pid}/environ"))
        .is_ok_and(|environ| environ.split(|&b| b == 0).any(|var| var == needle))
}

/// Reaps the children that exited and are not GLib's to reap. A look with `WNOWAIT`
/// says whether any child exited at all; only then is /proc read.
pub fn reap() {
    use rustix::process::{waitid, WaitId, WaitIdOptions};
    // WNOWAIT leaves the child to be reaped.
    let options = WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT;
    if !matches!(waitid(WaitId::All, options), Ok(Some(_))) {
        return;
    }
    let Ok(mut spawned) = SPAWNED.lock() else {
        return;
    };
    // Forget the shells GLib has reaped already (their /proc entry is gone).
    spawned.retain(|pid| std::path::Path::new(&format!("/proc/{pid}")).exists());
    let ours = std::process::id() as i32;
    for_each_process(|pid, parent, state| {
        if parent == ours && state == b'Z' && !spawned.contains(&pid) {
            // `pid` is an exited child of ours that GLib does not watch.
            let pid = rustix::process::Pid::from_raw(pid);
            let _ = rustix::process::waitpid(pid, rustix::process::WaitOptions::NOHANG);
        }
    });
}
