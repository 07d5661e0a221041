//! A real systemd manager where PID 1 is not systemd: `systemd --user` (Debian's
//! systemd), for a user, on a given bus. systemd starts only where it sees itself booted
//! (`/run/systemd/system` exists), so it runs in a mount namespace of its own with that
//! folder on a tmpfs; and it makes cgroups for its units, so it runs in a cgroup of the
//! v2 hierarchy delegated to its user. It starts only `ringbar-test.target`: no unit of
//! the machine's default target but the user's D-Bus (`dbus.socket` and `dbus.service`
//! of Debian's dbus-user-session, at `$XDG_RUNTIME_DIR/bus`), which systemd waits for
//! before it offers its own interface on a bus. Everything it ran goes with its cgroup
//! (killed through `cgroup.kill`) when dropped.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use super::wait_for;

const WAIT: Duration = Duration::from_secs(20);

pub struct Systemd {
    child: Child,
    cgroup: PathBuf,
    /// `$XDG_RUNTIME_DIR` of the manager (its `systemd/private` socket is there).
    pub runtime_dir: PathBuf,
    pub home: PathBuf,
    user: (u32, u32),
}

/// The root of the cgroup v2 hierarchy: `/sys/fs/cgroup/unified` beside cgroup v1
/// controllers, `/sys/fs/cgroup` on a machine with v2 alone.
pub fn v2_root() -> PathBuf {
    let hybrid = Path::new("/sys/fs/cgroup/unified");
    match hybrid.join("cgroup.procs").exists() {
        true => hybrid.to_path_buf(),
        false => PathBuf::from("/sys/fs/cgroup"),
    }
}

impl Systemd {
    /// A manager for the user `uid:gid`, its home in `dir` (its units in
    /// `HOME/.config/systemd/user`), on its own user bus in `runtime_dir`, or on the bus
    /// at `bus_address` where one is given.
    pub fn start(
        name: &str,
        dir: &Path,
        runtime_dir: &Path,
        (uid, gid): (u32, u32),
        bus_address: Option<&str>,
    ) -> Systemd {
        let home = dir.join(format!("{name}-home"));
        let runtime_dir = runtime_dir.to_path_buf();
        let units = home.join(".config/systemd/user");
        fs::create_dir_all(&units).expect("mkdir the units' folder");
        fs::create_dir_all(&runtime_dir).expect("mkdir the runtime dir");
        fs::write(
            units.join("ringbar-test.target"),
            "[Unit]\nDescription=What the test starts\n\
             Wants=dbus.socket dbus.service\nAfter=dbus.socket dbus.service\n",
        )
        .expect("write the target");
        let cgroup = v2_root().join(format!("ringbar-test-{name}-{}", std::process::id()));
        fs::create_dir_all(&cgroup).expect("mkdir the delegated cgroup");
        for path in [&home, &runtime_dir, &cgroup] {
            chown_tree(path, uid, gid);
        }
        let _ = Command::new("chmod").arg("700").arg(&runtime_dir).status();
        let script = format!(
            "echo $$ > {procs} && mount -t tmpfs tmpfs /run/systemd && \
             mkdir /run/systemd/system && exec setpriv --reuid={uid} --regid={gid} \
             --clear-groups env -i HOME={home} XDG_RUNTIME_DIR={run} PATH=/usr/bin:/bin \
             {bus} /lib/systemd/systemd --user --unit=ringbar-test.target",
            procs = cgroup.join("cgroup.procs").display(),
            home = home.display(),
            run = runtime_dir.display(),
            bus = bus_address.map_or(String::new(), |a| format!("DBUS_SESSION_BUS_ADDRESS={a}")),
        );
        fs::create_dir_all("/run/systemd").expect("mkdir /run/systemd");
        let child = Command::new("unshare")
            .args(["--mount", "--propagation", "private", "sh", "-c", &script])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start systemd --user (Debian's systemd, util-linux's unshare)");
        let manager = Systemd {
            child,
            cgroup,
            runtime_dir,
            home,
            user: (uid, gid),
        };
        let private = manager.runtime_dir.join("systemd/private");
        wait_for("systemd's private socket", WAIT, || private.exists());
        manager
    }

    /// Writes a unit file into the manager's unit folder and reloads it.
    pub fn add_unit(&self, name: &str, text: &str) {
        let path = self.home.join(".config/systemd/user").join(name);
        fs::write(&path, text).expect("write the unit");
        chown_tree(&path, self.user.0, self.user.1);
        self.systemctl(&["daemon-reload"]);
    }

    /// `systemctl --user ARGS` against this manager; its output.
    pub fn systemctl(&self, args: &[&str]) -> String {
        let (uid, gid) = self.user;
        let out = Command::new("setpriv")
            .args([
                &format!("--reuid={uid}"),
                &format!("--regid={gid}"),
                "--clear-groups",
            ])
            .args(["env", "-i", "PATH=/usr/bin:/bin"])
            .arg(format!("XDG_RUNTIME_DIR={}", self.runtime_dir.display()))
            .args(["systemctl", "--user", "--no-pager"])
            .args(args)
            .output()
            .expect("run systemctl");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// The manager's process, for signals.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Systemd {
    fn drop(&mut self) {
        end_cgroup(&self.cgroup, &mut self.child);
    }
}

/// Kills everything in `cgroup` and `child`, then removes `cgroup`: its units' cgroups
/// first, then its own, once the processes are gone.
pub fn end_cgroup(cgroup: &Path, child: &mut Child) {
    let _ = fs::write(cgroup.join("cgroup.kill"), "1");
    let _ = child.kill();
    let _ = child.wait();
    for _ in 0..50 {
        let _ = Command::new("find")
            .arg(cgroup)
            .args(["-depth", "-type", "d", "-exec", "rmdir", "{}", ";"])
            .stderr(Stdio::null())
            .status();
        if !cgroup.exists() {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn chown_tree(path: &Path, uid: u32, gid: u32) {
    let _ = Command::new("chown")
        .arg("-R")
        .arg(format!("{uid}:{gid}"))
        .arg(path)
        .status();
}
