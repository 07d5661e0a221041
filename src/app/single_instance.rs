//! One ringbar per display: an exclusive lock on
//! `$XDG_RUNTIME_DIR/ringbar-<display>.lock`, which holds the running bar's pid. A second
//! start finds the lock taken, asks the running bar to reload (through the control
//! socket) and exits.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{self, Read, Seek, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Held for the life of the process; the kernel drops the lock when it exits.
pub struct InstanceLock {
    file: File,
    path: PathBuf,
}

pub enum Claim {
    /// This is the first ringbar on the display.
    First(InstanceLock),
    /// Another one runs (its pid, once it has published it).
    Taken { pid: Option<i32> },
}

/// The display this process will draw on: `wayland-1`, or `x11-:0` for the X11 window.
pub fn display_name() -> String {
    if let Some(display) = std::env::var_os("WAYLAND_DISPLAY") {
        return display.to_string_lossy().into_owned();
    }
    match std::env::var_os("DISPLAY") {
        Some(display) => format!("x11-{}", display.to_string_lossy()),
        None => "wayland-0".to_owned(),
    }
}

/// `DIR/ringbar-<display>.lock`, with any `/` of an absolute socket path replaced.
pub fn lock_path(runtime_dir: &Path, display: &str) -> PathBuf {
    runtime_dir.join(format!("ringbar-{}.lock", display.replace('/', "_")))
}

/// Takes the lock at `path`, or reports who holds it. The directory must be the user's
/// own and writable by nobody else, and the lock a regular file of the user's, never
/// reached through a symlink: another user who could plant a link there would otherwise
/// have us truncate whatever it points to.
pub fn claim(path: &Path) -> io::Result<Claim> {
    if let Some(dir) = path.parent() {
        check_runtime_dir(dir)?;
    }
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
        .map_err(|err| match err.raw_os_error() {
            Some(libc::ELOOP) => refused(path, "is a symlink"),
            _ => err,
        })?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(refused(path, "is not a regular file"));
    }
    if meta.uid() != effective_uid() {
        return Err(refused(path, "belongs to another user"));
    }
    match file.try_lock() {
        Ok(()) => {
            // A previous bar's pid may still be there: until ours is published, nobody
            // must signal it (it could be any process by now).
            file.set_len(0)?;
            Ok(Claim::First(InstanceLock {
                file,
                path: path.to_owned(),
            }))
        }
        Err(TryLockError::WouldBlock) => Ok(Claim::Taken {
            pid: published_pid(file),
        }),
        Err(TryLockError::Error(err)) => Err(err),
    }
}

/// `$XDG_RUNTIME_DIR` must be ours and writable by us alone (the XDG spec makes it 0700).
fn check_runtime_dir(dir: &Path) -> io::Result<()> {
    let meta = std::fs::metadata(dir)?;
    if !meta.is_dir() {
        return Err(refused(dir, "is not a directory"));
    }
    if meta.uid() != effective_uid() {
        return Err(refused(dir, "belongs to another user"));
    }
    if meta.mode() & 0o022 != 0 {
        return Err(refused(dir, "is writable by other users"));
    }
    Ok(())
}

fn refused(path: &Path, why: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::PermissionDenied,
        format!("{} {why}", path.display()),
    )
}

fn effective_uid() -> u32 {
    rustix::process::geteuid().as_raw()
}

/// The pid in a taken lock file. The holder writes it once it can take signals, which
/// may be a moment after it took the lock.
fn published_pid(mut file: File) -> Option<i32> {
    let deadline = Instant::now() + Duration::from_secs(2);
    loop {
        let mut text = String::new();
        let pid = file
            .rewind()
            .and_then(|()| file.read_to_string(&mut text))
            .ok()
            .and_then(|_| text.trim().parse().ok())
            .filter(|&pid: &i32| pid > 0);
        if pid.is_some() || Instant::now() >= deadline {
            return pid;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

impl InstanceLock {
    /// Writes this process's pid: from now on a second start will ask this process to
    /// reload, so call this only once the control socket listens.
    pub fn publish_pid(&mut self) -> io::Result<()> {
        self.file.set_len(0)?;
        self.file.rewind()?;
        writeln!(self.file, "{}", std::process::id())?;
        self.file.flush()
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_second_claim_finds_the_first_and_its_pid() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = lock_path(dir.path(), "wayland-1");
        assert_eq!(path, dir.path().join("ringbar-wayland-1.lock"));
        let Claim::First(mut lock) = claim(&path).expect("claim") else {
            panic!("the first claim wins");
        };
        lock.publish_pid().expect("publish");
        match claim(&path).expect("claim") {
            Claim::Taken { pid } => assert_eq!(pid, Some(std::process::id() as i32)),
            Claim::First(_) => panic!("a second claim must not win"),
        }
        drop(lock);
        assert!(
            matches!(claim(&path), Ok(Claim::First(_))),
            "free again once the holder is gone"
        );
        assert_eq!(
            std::fs::read_to_string(&path).expect("read"),
            "",
            "a stale pid is wiped as soon as the lock is taken"
        );
    }

    #[test]
    fn a_planted_link_or_fifo_or_shared_directory_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("tempdir");
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "kept").expect("victim");
        let run = dir.path().join("run");
        std::fs::create_dir(&run).expect("mkdir");
        let path = lock_path(&run, "wayland-1");
        std::os::unix::fs::symlink(&victim, &path).expect("plant");
        let err = claim(&path).err().expect("a symlink is refused");
        assert!(err.to_string().ends_with("is a symlink"), "{err}");
        std::fs::remove_file(&path).expect("rm");
        use rustix::fs::{mknodat, FileType, Mode, CWD};
        mknodat(CWD, &path, FileType::Fifo, Mode::from_raw_mode(0o600), 0).expect("mkfifo");
        let err = claim(&path).err().expect("a FIFO is refused");
        assert!(err.to_string().ends_with("is not a regular file"), "{err}");
        std::fs::remove_file(&path).expect("rm");
        std::fs::set_permissions(&run, std::fs::Permissions::from_mode(0o1777)).expect("chmod");
        let err = claim(&path).err().expect("a shared directory is refused");
        assert!(
            err.to_string().ends_with("is writable by other users"),
            "{err}"
        );
        assert_eq!(std::fs::read_to_string(&victim).expect("victim"), "kept");
    }

    #[test]
    fn odd_display_names_and_a_missing_directory() {
        let dir = Path::new("/run/user/1000");
        assert_eq!(
            lock_path(dir, "/tmp/sway/wayland-9"),
            dir.join("ringbar-_tmp_sway_wayland-9.lock")
        );
        assert!(claim(Path::new("/nonexistent/ringbar.lock")).is_err());
    }
}
