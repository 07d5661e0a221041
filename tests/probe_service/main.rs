//! The probe service, `ringbar-probe`, with real users: what a client without any
//! capability receives (the raw records, not only what ringbar shows), and a bar that
//! outlives the service being killed mid-sample.

#[path = "../common/mod.rs"]
mod common;

mod lent;
mod lifecycle;
mod push;
mod raw_client;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

fn world_readable_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o777)).expect("chmod");
    dir
}

fn as_nobody(program: &Path) -> Command {
    let mut command = Command::new("setpriv");
    command
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .arg(program);
    command
}
