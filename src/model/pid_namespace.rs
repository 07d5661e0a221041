//! What a reader in a container's PID namespace may learn of the exit reports. The exit
//! hook runs in the dying task, for every reader at once, so each report names its group
//! in every namespace it lives in ([`ExitRecord::ns_tgid`]); a reader keeps the reports
//! of its own namespace, by its own pids, as its /proc would show them, and no other.

use super::record::{ExitRecord, NsTgid, NS_LEVELS};

/// A PID namespace, by the inode number of its `/proc/PID/ns/pid`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PidNamespace(pub u32);

impl PidNamespace {
    /// The initial namespace, whose inode number is fixed (`PROC_PID_INIT_INO`).
    pub const INITIAL: PidNamespace = PidNamespace(0xEFFF_FFFC);
}

impl ExitRecord {
    /// Makes this report `reader`'s view of it: its group's pid in `reader`'s namespace,
    /// and nothing of the namespaces above. False when the group lives outside that
    /// namespace (or deeper than [`NS_LEVELS`] below the initial one can tell).
    pub fn seen_from(&mut self, reader: PidNamespace) -> bool {
        if reader == PidNamespace::INITIAL {
            return true;
        }
        let Some(there) = self
            .ns_tgid
            .iter()
            .find(|at| at.ns == reader.0 && at.ns != 0)
        else {
            return false;
        };
        self.tgid = there.tgid;
        self.ns_tgid = [NsTgid::default(); NS_LEVELS];
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::record::{OomRecord, OOM_PID_ONLY, RECORD_OOM};

    const CONTAINER: PidNamespace = PidNamespace(4026532301);
    const NESTED: PidNamespace = PidNamespace(4026532405);
    const OTHER: PidNamespace = PidNamespace(4026532999);

    /// A group with host pid 5123, pid 7 in CONTAINER and 2 in NESTED below it.
    fn nested_exit() -> ExitRecord {
        let mut exit = ExitRecord {
            tgid: 5123,
            cpu_ns: 42,
            ..Default::default()
        };
        exit.ns_tgid[0] = NsTgid {
            ns: CONTAINER.0,
            tgid: 7,
        };
        exit.ns_tgid[1] = NsTgid {
            ns: NESTED.0,
            tgid: 2,
        };
        exit
    }

    #[test]
    fn the_initial_namespace_sees_every_report_as_it_is() {
        let mut exit = nested_exit();
        assert!(exit.seen_from(PidNamespace::INITIAL));
        assert_eq!(exit, nested_exit());
        let mut host_only = ExitRecord {
            tgid: 900,
            ..Default::default()
        };
        assert!(host_only.seen_from(PidNamespace::INITIAL));
        assert_eq!(host_only.tgid, 900);
    }

    #[test]
    fn a_container_sees_its_groups_by_its_own_pids_and_nothing_above() {
        let mut exit = nested_exit();
        assert!(exit.seen_from(CONTAINER));
        assert_eq!((exit.tgid, exit.cpu_ns), (7, 42));
        assert_eq!(exit.ns_tgid, [NsTgid::default(); NS_LEVELS], "no other pid");
        let mut exit = nested_exit();
        assert!(exit.seen_from(NESTED));
        assert_eq!(exit.tgid, 2);
    }

    #[test]
    fn a_container_sees_no_group_outside_it() {
        let host_only = ExitRecord {
            tgid: 900,
            ..Default::default()
        };
        for reader in [CONTAINER, NESTED, OTHER, PidNamespace(0)] {
            let mut seen = host_only;
            assert!(
                !seen.seen_from(reader),
                "{reader:?}: an empty slot never matches"
            );
        }
        assert!(!nested_exit().seen_from(OTHER));
    }

    #[test]
    fn an_oom_kill_named_by_its_host_pid_alone_stays_with_the_initial_namespace() {
        let oom = OomRecord {
            tgid: 5123,
            flags: RECORD_OOM | OOM_PID_ONLY,
            ..Default::default()
        };
        assert!(!oom.as_exit().seen_from(CONTAINER));
        assert!(oom.as_exit().seen_from(PidNamespace::INITIAL));
        let mut named = OomRecord {
            tgid: 5123,
            flags: RECORD_OOM,
            ..Default::default()
        };
        named.ns_tgid[0] = NsTgid {
            ns: CONTAINER.0,
            tgid: 7,
        };
        let mut seen = named.as_exit();
        assert!(seen.seen_from(CONTAINER));
        assert_eq!(seen.as_oom().map(|o| o.tgid), Some(7));
    }
}
