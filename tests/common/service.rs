//! The real probe service, `ringbar-probe`, run as root on a socket of the test's own.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use super::wait_for;

pub struct ProbeService {
    child: Child,
    socket: PathBuf,
    log: PathBuf,
}

impl ProbeService {
    /// Starts the service listening at `dir/probe.sock`; returns once it serves.
    pub fn start(dir: &Path) -> ProbeService {
        let socket = dir.join("probe.sock");
        let log = dir.join(format!(
            "probe-{}.log",
            std::time::UNIX_EPOCH.elapsed().map_or(0, |d| d.as_nanos())
        ));
        let child = Command::new(env!("CARGO_BIN_EXE_ringbar-probe"))
            .arg("--socket")
            .arg(&socket)
            .env("RINGBAR_LOG", "info")
            .stdout(Stdio::null())
            .stderr(fs::File::create(&log).expect("log file"))
            .spawn()
            .expect("start ringbar-probe");
        let service = ProbeService { child, socket, log };
        wait_for(
            "the probe service to serve",
            Duration::from_secs(20),
            || service.log_text().contains("serving"),
        );
        service
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn socket(&self) -> &Path {
        &self.socket
    }

    pub fn log_text(&self) -> String {
        fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// SIGKILL: no chance to say goodbye to its clients.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for ProbeService {
    fn drop(&mut self) {
        self.kill();
    }
}
