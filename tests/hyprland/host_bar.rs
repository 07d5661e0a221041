//! The ringbar binary run here as Hyprland's bar (through waypipe), with the test hook.

use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::common::hyprland::HyprlandVm;
use crate::common::session::RunningBar;

/// Starts the bar with `config` as Hyprland's `exec` would: its environment and nothing
/// else. Its home, hook folder and log are in `dir`.
pub fn start(vm: &HyprlandVm, dir: &Path, config: &str) -> RunningBar {
    let home = dir.join("home");
    let hook = dir.join("hook");
    fs::create_dir_all(home.join(".config/ringbar")).expect("mkdir");
    fs::create_dir_all(&hook).expect("mkdir");
    fs::write(home.join(".config/ringbar/config.toml"), config).expect("write config");
    let mut command = Command::new(env!("CARGO_BIN_EXE_ringbar"));
    command
        .env_clear()
        .env("HOME", &home)
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .env("GTK_A11Y", "none")
        .env("RINGBAR_TEST_HOOK", &hook);
    for name in [
        "XDG_RUNTIME_DIR",
        "WAYLAND_DISPLAY",
        "HYPRLAND_INSTANCE_SIGNATURE",
    ] {
        command.env(name, vm.var(name));
    }
    RunningBar::spawn(command, dir.join("ringbar.log"), hook)
}

/// Waits up to `patience` for `check`; on a timeout, fails with what the bar showed and
/// logged.
pub fn wait_until(bar: &RunningBar, patience: Duration, what: &str, check: &dyn Fn() -> bool) {
    let deadline = Instant::now() + patience;
    while !check() {
        assert!(
            Instant::now() < deadline,
            "timed out waiting for {what}; the bar: {:?}\nits log:\n{}",
            bar.bars(),
            bar.log_text()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}
