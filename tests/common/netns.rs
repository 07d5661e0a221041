//! A network namespace joined to this one by a veth pair, for real traffic between two
//! stacks (iperf3, curl) and for the network module's tests.

use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};

pub fn run(program: &str, args: &[&str]) {
    let out = Command::new(program).args(args).output().expect("run");
    assert!(
        out.status.success(),
        "{program} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A namespace `rbnetN` holding `rbNi` (10.77.N.2/24, default route via 10.77.N.1), the
/// peer of `rbNh` (10.77.N.1/24) in this namespace.
pub struct Netns {
    pub name: String,
    pub inner: String,
    pub host: String,
    pub subnet: u32,
}

impl Netns {
    pub fn new() -> Netns {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let n = std::process::id() % 200 + NEXT.fetch_add(1, Ordering::Relaxed);
        let netns = Netns {
            name: format!("rbnet{n}"),
            inner: format!("rb{n}i"),
            host: format!("rb{n}h"),
            subnet: n,
        };
        // What a killed earlier run may have left.
        let _ = Command::new("ip")
            .args(["netns", "del", &netns.name])
            .stderr(Stdio::null())
            .status();
        let _ = Command::new("ip")
            .args(["link", "del", &netns.host])
            .stderr(Stdio::null())
            .status();
        run("ip", &["netns", "add", &netns.name]);
        run(
            "ip",
            &[
                "link",
                "add",
                &netns.host,
                "type",
                "veth",
                "peer",
                "name",
                &netns.inner,
            ],
        );
        run("ip", &["link", "set", &netns.inner, "netns", &netns.name]);
        run(
            "ip",
            &["addr", "add", &netns.host_address(24), "dev", &netns.host],
        );
        run("ip", &["link", "set", &netns.host, "up"]);
        netns.ip(&["link", "set", "lo", "up"]);
        netns.ip(&["addr", "add", &netns.inner_address(24), "dev", &netns.inner]);
        netns.ip(&["link", "set", &netns.inner, "up"]);
        netns.add_default_route();
        netns
    }

    pub fn host_address(&self, prefix: u32) -> String {
        match prefix {
            32 => format!("10.77.{}.1", self.subnet),
            _ => format!("10.77.{}.1/{prefix}", self.subnet),
        }
    }

    pub fn inner_address(&self, prefix: u32) -> String {
        match prefix {
            32 => format!("10.77.{}.2", self.subnet),
            _ => format!("10.77.{}.2/{prefix}", self.subnet),
        }
    }

    /// `ip -n NAME ARGS`.
    pub fn ip(&self, args: &[&str]) {
        let mut all = vec!["-n", self.name.as_str()];
        all.extend_from_slice(args);
        run("ip", &all);
    }

    pub fn add_default_route(&self) {
        self.ip(&["route", "add", "default", "via", &self.host_address(32)]);
    }

    /// A command run in the namespace.
    pub fn exec(&self, program: &str) -> Command {
        let mut command = Command::new("ip");
        command.args(["netns", "exec", &self.name, program]);
        command
    }
}

impl Drop for Netns {
    fn drop(&mut self) {
        let _ = Command::new("ip")
            .args(["netns", "del", &self.name])
            .stderr(Stdio::null())
            .status();
        let _ = Command::new("ip")
            .args(["link", "del", &self.host])
            .stderr(Stdio::null())
            .status();
    }
}
