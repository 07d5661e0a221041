//! The plugins the bar opens from beside itself (`sound/`, `video/`). A `cargo test`
//! builds a library only into a test harness, so the tests build them as they start a
//! session, a sound server or a copy of the bar: once per test binary, with the test
//! build's profile and features, a no-op when they are up to date.

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
            .args(["build", "--quiet", "--locked", "--workspace"])
            .args(["--exclude", "ringbar"])
            .args(["--features", "ringbar/test-support", "--target-dir"])
            .arg(target)
            .current_dir(env!("CARGO_MANIFEST_DIR"));
        if profile.file_name() == Some("release".as_ref()) {
            cargo.arg("--release");
        }
        let status = cargo.status().expect("run cargo");
        assert!(status.success(), "the plugins do not build");
        for file in ringbar::events::plugin::FILE_NAMES {
            let plugin = profile.join(file);
            assert!(plugin.exists(), "no {}", plugin.display());
        }
    });
}

/// A copy of the bar at `to`, with its plugins beside it, as a package installs them: a
/// copy alone would find no plugin (and log so) where a module needs one.
pub fn copy_bar(to: &Path) {
    build();
    let bar = Path::new(env!("CARGO_BIN_EXE_ringbar"));
    std::fs::copy(bar, to).expect("copy ringbar");
    for plugin in ringbar::events::plugin::FILE_NAMES {
        std::fs::copy(bar.with_file_name(plugin), to.with_file_name(plugin))
            .unwrap_or_else(|err| panic!("copy {plugin}: {err}"));
    }
}
