//! The real upowerd (Debian's `upower`) over a fake sysfs: umockdev's testbed
//! (`tests/upower/testbed.py`) gives upowerd the kernel's power_supply devices and their
//! uevents through umockdev's preload library, as upower's own tests do.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Duration;

use super::bus::Helper;
use super::session::Session;
use super::system_bus::SystemBus;

pub const PRELOAD: &str = "libumockdev-preload.so.0";

/// umockdev's testbed, driven by the helper script.
pub struct Testbed {
    child: Child,
    commands: Option<ChildStdin>,
    answers: BufReader<ChildStdout>,
    pub root: String,
}

impl Testbed {
    pub fn start() -> Testbed {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/upower/testbed.py");
        let mut child = Command::new("/usr/bin/python3")
            .arg(script)
            .env("LD_PRELOAD", PRELOAD)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start the testbed (python3-gi, gir1.2-umockdev-1.0)");
        let commands = child.stdin.take();
        let mut answers = BufReader::new(child.stdout.take().expect("its stdout"));
        let mut root = String::new();
        answers.read_line(&mut root).expect("the testbed's root");
        assert!(root.starts_with('/'), "the testbed's root: {root:?}");
        Testbed {
            child,
            commands,
            answers,
            root: root.trim().to_owned(),
        }
    }

    /// A laptop's battery at 48 of 60 Wh (80 %) drawing 12 W, its model `model` (a space
    /// as `\s`), and its AC adapter unplugged.
    pub fn add_laptop(&mut self, model: &str) {
        self.send("add AC type=Mains online=0");
        self.send(&format!(
            "add BAT0 type=Battery present=1 status=Discharging energy_full=60000000 \
             energy_full_design=60000000 energy_now=48000000 power_now=12000000 \
             voltage_now=12000000 model_name={model} serial_number=1"
        ));
    }

    pub fn send(&mut self, line: &str) {
        let commands = self.commands.as_mut().expect("the testbed's stdin");
        writeln!(commands, "{line}").expect("to the testbed");
        let mut answer = String::new();
        self.answers
            .read_line(&mut answer)
            .expect("from the testbed");
        assert_eq!(answer.trim(), "ok", "{line}");
    }
}

impl Drop for Testbed {
    fn drop(&mut self) {
        // End of input: the script ends and umockdev removes the testbed's folder.
        self.commands.take();
        for _ in 0..50 {
            if self.child.try_wait().ok().flatten().is_some() {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn start_upowerd(session: &Session, bus: &SystemBus, testbed: &Testbed) -> Helper {
    // Its history of charge and rate stays in the session, not the machine's.
    let history = session.path().join("upower-history");
    std::fs::create_dir_all(&history).expect("mkdir the history");
    let child = Command::new("/usr/libexec/upowerd")
        .env("UPOWER_HISTORY_DIR", &history)
        .env("LD_PRELOAD", PRELOAD)
        .env("UMOCKDEV_DIR", &testbed.root)
        .env("DBUS_SYSTEM_BUS_ADDRESS", &bus.address)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start upowerd (Debian's upower)");
    Helper(child)
}
