//! A real MPRIS player: mpv with Debian's mpv-mpris, playing tones made by sox (their
//! titles and artists in the files' tags) on the session's test bus.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use super::bus::{bus_address, Helper};
use super::session::Session;
use super::wait_for;

const WAIT: Duration = Duration::from_secs(20);

/// A tone of `seconds` with a title and an artist, made by sox as the test user.
pub fn tone(session: &Session, name: &str, title: &str, artist: &str, seconds: u32) -> PathBuf {
    let path = session.home().join(format!("{name}.ogg"));
    let status = session
        .as_user("sox")
        .args(["-n", "-r", "44100", "-c", "2", "--comment"])
        .arg(format!("TITLE={title}"))
        .arg("--add-comment")
        .arg(format!("ARTIST={artist}"))
        .arg(&path)
        .args(["synth", &seconds.to_string(), "sine", "440", "vol", "0.1"])
        .status()
        .expect("run sox (Debian's sox)");
    assert!(status.success(), "sox made {}", path.display());
    path
}

/// mpv playing `files` in a loop (one file over and over, or the list from its start
/// again), with mpv-mpris, no sound or video device, and its JSON IPC at `socket`.
pub fn mpv(session: &Session, files: &[&Path], socket: &Path) -> Helper {
    let bus = bus_address(session);
    let looping = match files {
        [_] => "--loop=inf",
        _ => "--loop-playlist=inf",
    };
    let child = session
        .as_user_with("mpv", &[("DBUS_SESSION_BUS_ADDRESS", bus.as_str())])
        .args([
            "--no-config",
            "--script=/usr/lib/mpv-mpris/mpris.so",
            "--ao=null",
            "--vo=null",
            "--no-terminal",
            looping,
        ])
        .arg(format!("--input-ipc-server={}", socket.display()))
        .args(files)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start mpv (Debian's mpv and mpv-mpris)");
    wait_for("mpv's IPC socket", WAIT, || socket.exists());
    Helper(child)
}

/// mpv's property `name`, through its JSON IPC.
pub fn mpv_property(socket: &Path, name: &str) -> String {
    let mut stream = UnixStream::connect(socket).expect("mpv's IPC");
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .expect("timeout");
    let request = format!("{{\"command\":[\"get_property\",\"{name}\"],\"request_id\":7}}\n");
    stream.write_all(request.as_bytes()).expect("ask mpv");
    for line in BufReader::new(stream).lines() {
        let line = line.expect("mpv answers");
        let reply: serde_json::Value = serde_json::from_str(&line).expect("JSON");
        if reply["request_id"] == 7 {
            return reply["data"].to_string();
        }
    }
    panic!("mpv closed its IPC without answering");
}
