//! A real MPD (Debian's `mpd`) run as the test user, with a music directory of three
//! tagged tones made by sox (the second's title has markup and control bytes), at its
//! socket `$XDG_RUNTIME_DIR/mpd/socket` and a free TCP port, asked with a password.

use std::process::Stdio;
use std::time::Duration;

use super::bus::Helper;
use super::session::Session;
use super::wait_for;

const WAIT: Duration = Duration::from_secs(20);
pub const PASSWORD: &str = "s3 cret";

/// MPD's files under the test user's home, and a free TCP port for it.
pub struct Mpd<'a> {
    session: &'a Session,
    pub port: u16,
    daemon: Option<Helper>,
}

impl<'a> Mpd<'a> {
    pub fn new(session: &'a Session) -> Mpd<'a> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let home = session.home();
        let music = home.join("music");
        let conf = format!(
            "music_directory \"{music}\"\ndb_file \"{home}/mpd.db\"\n\
             state_file \"{home}/mpd.state\"\nlog_file \"{home}/mpd.log\"\n\
             log_level \"verbose\"\nbind_to_address \"{run}/mpd/socket\"\n\
             bind_to_address \"127.0.0.1\"\nport \"{port}\"\n\
             password \"{PASSWORD}@read,add,control,admin\"\ndefault_permissions \"\"\n\
             audio_output {{\n type \"null\"\n name \"silence\"\n mixer_type \"software\"\n}}\n",
            music = music.display(),
            home = home.display(),
            run = session.runtime_dir().display(),
        );
        session.write_home_file("mpd.conf", &conf);
        session.write_home_file("music/.keep", "");
        let mpd = Mpd {
            session,
            port,
            daemon: None,
        };
        mpd.user(
            "mkdir",
            &["-p", &format!("{}/mpd", session.runtime_dir().display())],
        );
        // Three tagged tones of a minute; the second's title has markup and control bytes.
        for (file, hz, artist, title) in [
            ("a.flac", "440", "Alpha", "One"),
            ("b.flac", "550", "Beta", "<b>Two</b> & \u{1}\u{7}x"),
            ("c.flac", "660", "Gamma", "Three"),
        ] {
            let path = format!("{}/{file}", music.display());
            mpd.user(
                "sox",
                &[
                    "-n", "-r", "8000", "-c", "1", &path, "synth", "60", "sine", hz,
                ],
            );
            let artist = format!("--set-tag=ARTIST={artist}");
            let title = format!("--set-tag=TITLE={title}");
            mpd.user(
                "metaflac",
                &[&artist, &title, "--set-tag=ALBUM=Tones", &path],
            );
        }
        mpd
    }

    fn user(&self, program: &str, args: &[&str]) {
        let status = self
            .session
            .as_user(program)
            .args(args)
            .stdout(Stdio::null())
            .status();
        assert!(status.is_ok_and(|s| s.success()), "{program} {args:?}");
    }

    pub fn start(&mut self) {
        let conf = self.session.home().join("mpd.conf");
        let child = self
            .session
            .as_user("mpd")
            .arg("--no-daemon")
            .arg(&conf)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start mpd (Debian's mpd)");
        self.daemon = Some(Helper(child));
        let socket = self.session.runtime_dir().join("mpd/socket");
        wait_for("MPD's socket", WAIT, || socket.exists());
    }

    pub fn kill(&mut self) {
        if let Some(mut daemon) = self.daemon.take() {
            daemon.kill();
        }
        let _ = std::fs::remove_file(self.session.runtime_dir().join("mpd/socket"));
    }

    /// Sends the daemon a signal (`-STOP`, `-CONT`).
    pub fn signal(&self, name: &str) {
        let daemon = self.daemon.as_ref().expect("MPD runs");
        let _ = std::process::Command::new("kill")
            .args([name, &daemon.0.id().to_string()])
            .status();
    }

    /// `setvol` `times` times over one TCP connection, the last to 99 %: how long MPD
    /// took to answer them all.
    pub fn set_volume_times(&self, times: u32) -> Duration {
        use std::io::{BufRead, BufReader, Write};
        let stream = std::net::TcpStream::connect(("127.0.0.1", self.port)).expect("MPD's port");
        let mut reader = BufReader::new(stream.try_clone().expect("clone"));
        let mut writer = stream;
        let mut line = String::new();
        reader.read_line(&mut line).expect("MPD's greeting");
        writeln!(writer, "password \"{PASSWORD}\"").expect("send");
        let started = std::time::Instant::now();
        let commands: String = (1..=times)
            .map(|i| format!("setvol {}\n", 99 - (times - i) % 100))
            .collect();
        writer.write_all(commands.as_bytes()).expect("send");
        for _ in 0..=times {
            line.clear();
            reader.read_line(&mut line).expect("an answer");
            assert!(line.starts_with("OK"), "MPD answered {line:?}");
        }
        started.elapsed()
    }

    /// `mpc ARGS…` as the user, with the password; its output.
    pub fn mpc(&self, args: &[&str]) -> String {
        let host = format!(
            "{PASSWORD}@{}/mpd/socket",
            self.session.runtime_dir().display()
        );
        let out = self
            .session
            .as_user_with("mpc", &[("MPD_HOST", host.as_str())])
            .args(args)
            .output()
            .expect("run mpc");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(self.session.home().join("mpd.log")).unwrap_or_default()
    }
}
