//! The sound plugin the bar opens from beside itself (`sound/`). A `cargo test` builds a
//! library only into a test harness, so the tests build it as they start a session, a
//! sound server or a copy of the bar: once per test binary, with the test build's
//! profile and features, a no-op when it is up to date.

use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;

pub fn build() {
    static BUILT: OnceLock<()> = OnceLock::new();
    BUILT.get_or_init(|| {
        let bar = Path::new(env!("CARGO_BIN_EXE_ringbar"));
        let profile = bar.parent().expect("the profile's folder");
        let target = profile.parent().expect("the target folder");
        let mut cargo = Command::new(env!("CARGO"));
        cargo
            .args(["build", "--quiet", "--locked", "-p", "ringbar-sound"])
            .args(["--features", "ringbar/test-support", "--target-dir"])
            .arg(target)
            .current_dir(env!("CARGO_MANIFEST_DIR"));
        if profile.file_name() == Some("release".as_ref()) {
            cargo.arg("--release");
        }
        let status = cargo.status().expect("run cargo");
        assert!(status.success(), "the sound plugin does not build");
        let plugin = profile.join(ringbar::events::plugin::FILE_NAME);
        assert!(plugin.exists(), "no {}", plugin.display());
    });
}

/// A copy of the bar at `to`, with its sound plugin beside it, as a package installs
/// them: a copy alone would find no plugin (and log so) where a module needs one.
pub fn copy_bar(to: &Path) {
    build();
    let bar = Path::new(env!("CARGO_BIN_EXE_ringbar"));
    std::fs::copy(bar, to).expect("copy ringbar");
    let plugin = ringbar::events::plugin::FILE_NAME;
    std::fs::copy(bar.with_file_name(plugin), to.with_file_name(plugin))
        .expect("copy the sound plugin");
}
