//! What the reader may learn: no more than /proc would tell them.
//!
//! Two kernel rules decide it. `/proc/PID/io` needs ptrace read access (the task's uids and
//! gids all equal the reader's and it is dumpable, or the reader is root or holds
//! CAP_SYS_PTRACE). And a /proc mounted with `hidepid` hides every process the reader may not
//! ptrace-read, unless the reader is in the mount's `gid=` group.
//!
//! The probe marks each task private or not by the first rule, against the credentials of
//! the process reading the iterator (the BPF side sees them). The filtering itself happens
//! here, in user space, because the totals need the numbers: the IO of private processes
//! still counts in the system totals and is summed into one "other users" row, which needs
//! each process's counters from sample to sample. Those numbers never leave ringbar: the
//! model drops them from every list before any output sees them, and a ringbar with file
//! capabilities runs non-dumpable (the kernel's secure-execution mode), so its user cannot
//! read its memory either. The /proc fallback needs none of this: the kernel applies both
//! rules to the walk itself.

/// How the reader's /proc hides processes (`hidepid=` of the procfs mount).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HidePid {
    /// `hidepid=0` / `off`: every /proc/PID is visible.
    #[default]
    Off,
    /// `hidepid=1` / `noaccess`: other processes' directories exist but cannot be read;
    /// `hidepid=2` / `invisible`: they do not exist; `hidepid=4` / `ptraceable`: only
    /// those the reader may ptrace exist. For ringbar all three hide them.
    Hidden { exempt_gid: Option<u32> },
}

impl HidePid {
    /// The `hidepid` of the procfs mounted at `/proc`, from /proc/self/mountinfo; `Off`
    /// when there is no such mount or no such option. Of several mounts stacked on /proc,
    /// the last one listed is on top, the one the reader sees.
    pub fn from_mountinfo(mountinfo: &str) -> HidePid {
        let Some(options) = mountinfo.lines().rev().find_map(proc_mount_options) else {
            return HidePid::Off;
        };
        let (mut hidden, mut exempt_gid) = (false, None);
        for option in options.split(',') {
            match option.split_once('=') {
                Some(("hidepid", value)) => {
                    hidden = !matches!(value, "0" | "off");
                }
                Some(("gid", value)) => exempt_gid = value.parse().ok(),
                _ => {}
            }
        }
        if hidden {
            HidePid::Hidden { exempt_gid }
        } else {
            HidePid::Off
        }
    }
}

/// The super options of a mountinfo line whose mount point is `/proc` and type `proc`.
/// A line: `ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL…] - FSTYPE SOURCE SUPEROPTS`.
fn proc_mount_options(line: &str) -> Option<&str> {
    let (before, after) = line.split_once(" - ")?;
    if before.split(' ').nth(4)? != "/proc" {
        return None;
    }
    let mut after = after.split(' ');
    (after.next()? == "proc").then_some(())?;
    after.nth(1)
}

/// What the model may show the reader.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Privacy {
    /// Root or CAP_SYS_PTRACE: /proc shows this reader everything.
    pub sees_all: bool,
    /// /proc hides the processes the reader may not read (hidepid, not exempt): they are
    /// left out of every list.
    pub hide_private: bool,
}

impl Privacy {
    /// The privacy of a reader with these powers and groups on a /proc with `hidepid`.
    pub fn of_reader(sees_all: bool, hidepid: HidePid, in_group: impl Fn(u32) -> bool) -> Privacy {
        let hide_private = match hidepid {
            HidePid::Off => false,
            HidePid::Hidden { exempt_gid } => !exempt_gid.is_some_and(in_group),
        };
        Privacy {
            sees_all,
            hide_private: hide_private && !sees_all,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAIN: &str =
        "22 28 0:5 / /proc rw,nosuid,nodev,noexec,relatime shared:13 - proc proc rw\n\
                         23 28 0:21 / /sys rw,nosuid shared:2 - sysfs sysfs rw\n";

    fn with_options(options: &str) -> String {
        format!(
            "1 0 8:1 / / rw - ext4 /dev/vda rw\n\
             40 1 0:50 / /proc rw,relatime - proc proc {options}\n"
        )
    }

    #[test]
    fn hidepid_from_mountinfo() {
        assert_eq!(HidePid::from_mountinfo(PLAIN), HidePid::Off);
        assert_eq!(HidePid::from_mountinfo(""), HidePid::Off);
        for value in ["2", "invisible", "1", "noaccess", "4", "ptraceable"] {
            assert_eq!(
                HidePid::from_mountinfo(&with_options(&format!("rw,hidepid={value}"))),
                HidePid::Hidden { exempt_gid: None },
                "{value}"
            );
        }
        assert_eq!(
            HidePid::from_mountinfo(&with_options("rw,gid=27,hidepid=invisible")),
            HidePid::Hidden {
                exempt_gid: Some(27)
            }
        );
        assert_eq!(
            HidePid::from_mountinfo(&with_options("rw,hidepid=off")),
            HidePid::Off
        );
        // `unshare -m; mount -t proc -o hidepid=2 proc /proc`: the new mount is on top.
        let stacked = format!("{PLAIN}{}", with_options("rw,hidepid=invisible"));
        assert_eq!(
            HidePid::from_mountinfo(&stacked),
            HidePid::Hidden { exempt_gid: None }
        );
        // A procfs mounted elsewhere is not the reader's /proc.
        let elsewhere = "40 1 0:50 / /mnt/proc rw - proc proc rw,hidepid=2\n";
        assert_eq!(HidePid::from_mountinfo(elsewhere), HidePid::Off);
        assert_eq!(HidePid::from_mountinfo("garbage\n - \n"), HidePid::Off);
    }

    #[test]
    fn who_is_exempt() {
        let hidden = HidePid::Hidden {
            exempt_gid: Some(27),
        };
        let member = |gid| gid == 27;
        let stranger = |_| false;
        assert!(Privacy::of_reader(false, hidden, stranger).hide_private);
        assert!(!Privacy::of_reader(false, hidden, member).hide_private);
        assert!(!Privacy::of_reader(true, hidden, stranger).hide_private);
        assert!(!Privacy::of_reader(false, HidePid::Off, stranger).hide_private);
    }
}
