//! Dropping every capability once the probe is loaded, before GTK runs.
//!
//! `ringbar` gets CAP_BPF and CAP_PERFMON from file capabilities to load its probe. The
//! attached links, maps and ring buffer keep working without them (checked on Linux 6.18:
//! new iterator instances, map lookups and ring-buffer reads all work), so the UI
//! runs with nothing: empty effective/permitted/inheritable/ambient sets, no-new-privs,
//! and an empty bounding set where that is possible.

use caps::{CapSet, Capability};

use crate::model::{HidePid, Privacy};

/// What [`drop_all`] achieved.
#[derive(Debug, PartialEq, Eq)]
pub struct Dropped {
    /// Clearing the bounding set needs CAP_SETPCAP (root has it; a binary with only
    /// `cap_bpf,cap_perfmon` does not). Without it no-new-privs makes the bounding set
    /// moot: no execve can grant anything.
    pub bounding_cleared: bool,
}

/// What this process may see in /proc, found before the capabilities go: root and a holder
/// of CAP_SYS_PTRACE see everything; a /proc mounted with `hidepid` hides what the reader
/// may not read, unless the reader is in its `gid=` group.
pub fn reader_privacy() -> Privacy {
    let root = rustix::process::geteuid().is_root();
    let ptrace =
        caps::has_cap(None, CapSet::Effective, Capability::CAP_SYS_PTRACE).unwrap_or(false);
    let mountinfo = std::fs::read_to_string("/proc/self/mountinfo").unwrap_or_default();
    let hidepid = HidePid::from_mountinfo(&mountinfo);
    Privacy::of_reader(root || ptrace, hidepid, in_group)
}

/// Whether `gid` is this process's effective or a supplementary group.
fn in_group(gid: u32) -> bool {
    if rustix::process::getegid().as_raw() == gid {
        return true;
    }
    let groups = rustix::process::getgroups().unwrap_or_default();
    groups.iter().any(|g| g.as_raw() == gid)
}

pub fn drop_all() -> Result<Dropped, String> {
    let bounding_cleared = caps::has_cap(None, CapSet::Effective, Capability::CAP_SETPCAP)
        .unwrap_or(false)
        && caps::clear(None, CapSet::Bounding).is_ok();
    caps::clear(None, CapSet::Ambient)
        .map_err(|e| format!("clearing ambient capabilities: {e}"))?;
    // Permitted last: clearing it also clears effective; inheritable must go first.
    for set in [CapSet::Inheritable, CapSet::Effective, CapSet::Permitted] {
        caps::clear(None, set).map_err(|e| format!("clearing {set:?} capabilities: {e}"))?;
    }
    rustix::thread::set_no_new_privs(true).map_err(|e| format!("PR_SET_NO_NEW_PRIVS: {e}"))?;
    Ok(Dropped { bounding_cleared })
}

/// Checks that the calling thread holds no capability in any set, as the kernel reports
/// it in `/proc/thread-self/status`. Capabilities belong to threads: a thread spawned
/// before [`drop_all`] keeps what the process had, one spawned after inherits nothing.
pub fn check_this_thread_holds_none() -> Result<(), String> {
    let status = std::fs::read_to_string("/proc/thread-self/status")
        .map_err(|err| format!("reading /proc/thread-self/status: {err}"))?;
    for set in ["CapInh:", "CapPrm:", "CapEff:", "CapAmb:"] {
        let value = status
            .lines()
            .find_map(|line| line.strip_prefix(set))
            .map(str::trim)
            .ok_or_else(|| format!("no {set} in /proc/thread-self/status"))?;
        if u64::from_str_radix(value, 16) != Ok(0) {
            return Err(format!(
                "this thread still holds capabilities: {set} {value}"
            ));
        }
    }
    Ok(())
}
