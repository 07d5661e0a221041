//! Reading a file the user controls (config, style, state) whole, safely: only a regular
//! file, opened without blocking (a FIFO would wait for a writer forever, with the main
//! loop and its signals stuck behind it), and at most a documented size (a symlink to
//! `/dev/zero` would otherwise be read until memory runs out).

use std::fs::{File, OpenOptions};
use std::io::{self, ErrorKind, Read};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

/// The largest `config.toml` and `style.css` ringbar reads.
pub const MAX_CONFIG_BYTES: usize = 1 << 20;
/// The largest `state.toml` ringbar reads (it writes three short lines).
pub const MAX_STATE_BYTES: usize = 64 << 10;

/// The bytes of the regular file at `path`, at most `limit` of them. A missing file is
/// `NotFound`; anything that is not a regular file (FIFO, device, socket, directory), or
/// a file over `limit`, is an error that says so.
pub fn read(path: &Path, limit: usize) -> io::Result<Vec<u8>> {
    // O_NONBLOCK makes the open of a FIFO return at once instead of waiting for a writer;
    // the check below then refuses it before any read.
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)?;
    let kind = file.metadata()?.file_type();
    if !kind.is_file() {
        return Err(io::Error::new(
            ErrorKind::InvalidInput,
            format!("not a regular file but {}", describe(kind)),
        ));
    }
    read_capped(file, limit)
}

fn read_capped(file: File, limit: usize) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    // One byte past the limit tells a file at the limit from a larger one.
    file.take(limit as u64 + 1).read_to_end(&mut bytes)?;
    if bytes.len() > limit {
        return Err(io::Error::new(
            ErrorKind::FileTooLarge,
            format!("larger than {}", size_text(limit)),
        ));
    }
    Ok(bytes)
}

fn describe(kind: std::fs::FileType) -> &'static str {
    if kind.is_dir() {
        "a directory"
    } else if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "something else"
    }
}

/// `1 MiB`, `64 KiB`.
fn size_text(bytes: usize) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else if bytes >= 1 << 10 && bytes.is_multiple_of(1 << 10) {
        format!("{} KiB", bytes >> 10)
    } else {
        format!("{bytes} bytes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn message(result: io::Result<Vec<u8>>) -> String {
        result.expect_err("refused").to_string()
    }

    #[test]
    fn a_regular_file_up_to_its_limit() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("config.toml");
        std::fs::write(&path, b"height = 30\n").expect("write");
        assert_eq!(read(&path, 12).expect("read"), b"height = 30\n");
        assert_eq!(message(read(&path, 11)), "larger than 11 bytes");
        let missing = read(&dir.path().join("none"), 10).expect_err("missing");
        assert_eq!(missing.kind(), ErrorKind::NotFound);
    }

    #[test]
    fn a_fifo_is_refused_without_waiting_for_a_writer() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("config.toml");
        use rustix::fs::{mknodat, FileType, Mode, CWD};
        mknodat(CWD, &path, FileType::Fifo, Mode::from_raw_mode(0o600), 0).expect("mkfifo");
        let started = Instant::now();
        assert_eq!(message(read(&path, 1024)), "not a regular file but a FIFO");
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "it did not wait"
        );
    }

    #[test]
    fn devices_and_directories_are_refused_whatever_the_link() {
        let dir = tempfile::tempdir().expect("tempdir");
        let link = dir.path().join("config.toml");
        std::os::unix::fs::symlink("/dev/zero", &link).expect("symlink");
        assert_eq!(
            message(read(&link, MAX_CONFIG_BYTES)),
            "not a regular file but a character device"
        );
        assert_eq!(
            message(read(dir.path(), MAX_CONFIG_BYTES)),
            "not a regular file but a directory"
        );
        assert_eq!(size_text(MAX_CONFIG_BYTES), "1 MiB");
        assert_eq!(size_text(MAX_STATE_BYTES), "64 KiB");
    }
}
