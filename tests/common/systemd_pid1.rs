//! systemd as PID 1, where this machine's PID 1 is not systemd: Debian's systemd booted as
//! the init of a PID namespace of its own (as a container's init), with its own mount
//! namespace and cgroup namespace, the cgroup v2 hierarchy mounted rooted at a cgroup
//! made for it. It starts `ringbar-test.target` and nothing else: its units have no
//! default dependencies, so no sysinit (no tmpfiles, no udev trigger), and the system
//! bus is a `dbus-daemon --system` it starts from a socket unit of the test's. Its /tmp,
//! /var/tmp and /run are its own, and /sys is read-only to it, so it changes nothing of
//! the machine's. The bus listens in the test's folder too, where the bar reaches it; the
//! unit folder (/run/systemd/system to it) is the test's. Everything it ran goes with
//! its cgroup when dropped.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use super::systemd::{end_cgroup, v2_root};
use super::wait_for;

const WAIT: Duration = Duration::from_secs(20);

pub struct SystemdPid1 {
    child: Child,
    cgroup: PathBuf,
    units: PathBuf,
    /// The system bus's address, for the bar's `DBUS_SYSTEM_BUS_ADDRESS`.
    pub bus_address: String,
}

impl SystemdPid1 {
    /// Boots it, with its files in `dir`; returns once its bus answers.
    pub fn start(dir: &Path) -> SystemdPid1 {
        let (units, bus_dir) = (dir.join("pid1-units"), dir.join("pid1-bus"));
        fs::create_dir_all(&units).expect("mkdir the unit folder");
        fs::create_dir_all(&bus_dir).expect("mkdir the bus folder");
        let no_defaults = "[Unit]\nDefaultDependencies=no\n";
        let unit = |name: &str, text: String| {
            fs::write(units.join(name), text).expect("write a unit");
        };
        unit(
            "ringbar-test.target",
            format!("{no_defaults}Wants=dbus.socket dbus.service\nAfter=dbus.service\n"),
        );
        unit(
            "dbus.socket",
            format!(
                "{no_defaults}[Socket]\nListenStream=/run/dbus/system_bus_socket\n\
                 ListenStream=/run/host-bus/bus\nSocketMode=0666\n"
            ),
        );
        unit(
            "dbus.service",
            format!(
                "{no_defaults}Requires=dbus.socket\nAfter=dbus.socket\n[Service]\n\
                 ExecStart=/usr/bin/dbus-daemon --system --address=systemd: --nofork \
                 --nopidfile --systemd-activation --syslog-only\n"
            ),
        );
        let cgroup = v2_root().join(format!("ringbar-test-pid1-{}", std::process::id()));
        fs::create_dir_all(&cgroup).expect("mkdir its cgroup");
        // The test's folders are bound in before /tmp (which may hold them) is hidden.
        let script = format!(
            "echo $$ > {procs} && exec unshare --pid --fork --mount --propagation private \
             --mount-proc --cgroup sh -c 'set -e; mount -t tmpfs tmpfs /run; \
             mkdir -p /run/systemd/system /run/host-bus; \
             mount --bind {units} /run/systemd/system; mount --bind {bus} /run/host-bus; \
             mount -t tmpfs tmpfs /tmp; mount -t tmpfs tmpfs /var/tmp; \
             mount --bind -o ro /sys /sys; mount -t cgroup2 cgroup2 /sys/fs/cgroup; \
             exec env -i container=ringbar-test PATH=/usr/sbin:/usr/bin:/sbin:/bin \
             /lib/systemd/systemd --system --unit=ringbar-test.target'",
            procs = cgroup.join("cgroup.procs").display(),
            units = units.display(),
            bus = bus_dir.display(),
        );
        let child = Command::new("sh")
            .args(["-c", &script])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("boot systemd (Debian's systemd, util-linux's unshare)");
        let socket = bus_dir.join("bus");
        let manager = SystemdPid1 {
            child,
            cgroup,
            units,
            bus_address: format!("unix:path={}", socket.display()),
        };
        wait_for("systemd's system bus", WAIT, || {
            manager.virtualization().contains("container")
        });
        manager
    }

    /// The manager's `Virtualization` as busctl reads it on the bus (`s "container-other"`).
    fn virtualization(&self) -> String {
        let out = Command::new("busctl")
            .arg(format!("--address={}", self.bus_address))
            .args([
                "get-property",
                "org.freedesktop.systemd1",
                "/org/freedesktop/systemd1",
            ])
            .args(["org.freedesktop.systemd1.Manager", "Virtualization"])
            .stderr(Stdio::null())
            .output();
        out.map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
            .unwrap_or_default()
    }

    /// Writes a unit file into its unit folder and reloads it.
    pub fn add_unit(&self, name: &str, text: &str) {
        fs::write(self.units.join(name), text).expect("write the unit");
        self.systemctl(&["daemon-reload"]);
    }

    /// `systemctl ARGS`, run inside its namespaces; its output.
    pub fn systemctl(&self, args: &[&str]) -> String {
        // The shell's child, the namespace's init, is the manager.
        let init =
            fs::read_to_string(self.cgroup.join("init.scope/cgroup.procs")).unwrap_or_default();
        let pid = init.lines().next().unwrap_or_default().to_owned();
        // Its root too: entering a mount namespace alone sets the namespace's own root,
        // which is not the manager's where the test runs in a chroot.
        let out = Command::new("nsenter")
            .args(["--target", &pid, "--mount", "--pid", "--root", "--wd"])
            .args(["systemctl", "--no-pager"])
            .args(args)
            .output()
            .expect("run nsenter (util-linux) and systemctl");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }
}

impl Drop for SystemdPid1 {
    fn drop(&mut self) {
        end_cgroup(&self.cgroup, &mut self.child);
    }
}
