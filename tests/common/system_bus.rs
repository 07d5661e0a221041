//! A bus that stands for the system bus: `dbus-daemon` as root with a policy that lets
//! the test user and root reach any name; with [`start_with_polkit`], a real `polkitd`
//! on it that grants one action to both (a rule file in /etc/polkit-1/rules.d, removed
//! when dropped), for a daemon that asks polkit before it acts (power-profiles-daemon)
//! on a machine with no logind session to count as "active".

use std::fs;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

use super::bus::Helper;
use super::session::Session;
use super::wait_for;

const WAIT: Duration = Duration::from_secs(20);
const POLKITD: &str = "/usr/lib/polkit-1/polkitd";

pub struct SystemBus {
    pub address: String,
    rule: Option<PathBuf>,
    // Dropped in this order: polkitd, then the bus.
    _polkitd: Option<Helper>,
    _bus: Helper,
}

impl Drop for SystemBus {
    fn drop(&mut self) {
        if let Some(rule) = &self.rule {
            let _ = fs::remove_file(rule);
        }
    }
}

/// The bus alone.
pub fn start(session: &Session) -> SystemBus {
    let socket = session.path().join("system_bus");
    let config = session.path().join("system_bus.conf");
    fs::write(
        &config,
        format!(
            "<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\" \
             \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n<busconfig>\n\
             <type>system</type>\n<listen>unix:path={}</listen>\n<auth>EXTERNAL</auth>\n\
             <policy context=\"default\">\n<allow user=\"*\"/>\n<allow own=\"*\"/>\n\
             <allow send_destination=\"*\" eavesdrop=\"true\"/>\n<allow receive_sender=\"*\"/>\n\
             </policy>\n</busconfig>\n",
            socket.display()
        ),
    )
    .expect("write the bus config");
    let bus = Helper(
        Command::new("dbus-daemon")
            .arg(format!("--config-file={}", config.display()))
            .args(["--nofork", "--nopidfile"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start dbus-daemon (package dbus)"),
    );
    wait_for("the system bus socket", WAIT, || socket.exists());
    // The test user connects too.
    let _ = Command::new("chmod").arg("666").arg(&socket).status();
    SystemBus {
        address: format!("unix:path={}", socket.display()),
        rule: None,
        _polkitd: None,
        _bus: bus,
    }
}

/// The bus, with polkitd granting `action` to the test user and root.
pub fn start_with_polkit(session: &Session, action: &str) -> SystemBus {
    let mut system_bus = start(session);
    let address = system_bus.address.clone();
    let rules = PathBuf::from("/etc/polkit-1/rules.d");
    fs::create_dir_all(&rules).expect("mkdir /etc/polkit-1/rules.d");
    let rule = rules.join("49-ringbar-test.rules");
    fs::write(
        &rule,
        format!(
            "polkit.addRule(function(action, subject) {{\n  if (action.id == \"{action}\" && \
             (subject.user == \"ringbar-test\" || subject.user == \"root\")) {{\n    \
             return polkit.Result.YES;\n  }}\n}});\n"
        ),
    )
    .expect("write the polkit rule");
    let polkitd = Command::new(POLKITD)
        .arg("--no-debug")
        .env("DBUS_SYSTEM_BUS_ADDRESS", &address)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    // From here a failed check drops the guard: polkitd killed, the rule removed.
    system_bus.rule = Some(rule);
    system_bus._polkitd = Some(Helper(polkitd.expect("start polkitd (package polkitd)")));
    let bus_ready = || {
        Command::new("dbus-send")
            .arg(format!("--bus={address}"))
            .args(["--print-reply", "--dest=org.freedesktop.DBus"])
            .args(["/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner"])
            .arg("string:org.freedesktop.PolicyKit1")
            .output()
            .is_ok_and(|out| String::from_utf8_lossy(&out.stdout).contains("boolean true"))
    };
    wait_for("polkitd on the bus", WAIT, bus_ready);
    system_bus
}
