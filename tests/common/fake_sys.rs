//! The real binary on a fake machine: a sysfs tree in the kernel's documented layout,
//! mounted over /sys in a private mount namespace, the kernel's own /sys/kernel bound
//! into it so the probe still loads.

use std::path::Path;
use std::process::Command;

/// `ringbar ARGS` with the tree `build` makes over /sys, and HOME in a new directory
/// (returned with the command, which needs it to live).
pub fn ringbar_on(build: impl FnOnce(&Path), args: &[&str]) -> (Command, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("tempdir");
    let sys = dir.path().join("sys");
    std::fs::create_dir_all(sys.join("kernel")).expect("mkdir");
    build(&sys);
    let script = format!(
        "mount --rbind /sys/kernel {sys}/kernel && mount --rbind {sys} /sys && exec {ringbar} \"$@\"",
        sys = sys.display(),
        ringbar = env!("CARGO_BIN_EXE_ringbar"),
    );
    let mut command = Command::new("unshare");
    command
        .args([
            "--mount",
            "--propagation",
            "private",
            "--",
            "sh",
            "-c",
            &script,
            "ringbar",
        ])
        .args(args)
        .env_remove("XDG_RUNTIME_DIR")
        .env_remove("XDG_CONFIG_HOME")
        .env("HOME", dir.path());
    (command, dir)
}

/// `ringbar --once --json` with the config `config` on the machine `build` makes: its
/// JSON document, after it exited 0.
pub fn once_json_with(build: impl FnOnce(&Path), config: &str) -> serde_json::Value {
    let (mut command, home) = ringbar_on(build, &["--once", "--json", "--interval-ms", "200"]);
    let file = home.path().join(".config/ringbar/config.toml");
    std::fs::create_dir_all(file.parent().expect("dir")).expect("mkdir");
    std::fs::write(&file, config).expect("config");
    let out = command.output().expect("run ringbar");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON")
}
