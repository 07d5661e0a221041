//! A real sound server for the test user: PipeWire, WirePlumber and pipewire-pulse on
//! the session's test bus, with a null sink made the default (for the audio module's
//! tests, the README's screenshot and the benchmark).

use std::process::{Command, Stdio};
use std::time::Duration;

use super::bus::{bus_address, Helper};
use super::session::Session;
use super::wait_for;

const WAIT: Duration = Duration::from_secs(20);

/// PipeWire, WirePlumber and pipewire-pulse as the test user, and a null sink made the
/// default.
pub struct Sound<'a> {
    session: &'a Session,
    daemons: Vec<Helper>,
}

impl<'a> Sound<'a> {
    pub fn start(session: &'a Session) -> Sound<'a> {
        // The bar's client of the server is in its sound plugin.
        super::sound_plugin::build();
        let mut sound = Sound {
            session,
            daemons: Vec::new(),
        };
        sound.start_daemons();
        sound
    }

    pub fn user(&self, program: &str) -> Command {
        let address = bus_address(self.session);
        let mut command = self
            .session
            .as_user_with(program, &[("DBUS_SESSION_BUS_ADDRESS", address.as_str())]);
        command.stdout(Stdio::null()).stderr(Stdio::null());
        command
    }

    pub fn start_daemons(&mut self) {
        // pipewire-pulse 0.3.65 stats `$XDG_RUNTIME_DIR/pulse`, then makes it, and exits
        // when that fails: a libpulse client (the pactl below) that makes it in between
        // ends the daemon. Made beforehand, as the user's, it is never raced for.
        let pulse_dir = self.session.runtime_dir().join("pulse");
        let made = self
            .session
            .as_user("mkdir")
            .args(["-p", "-m", "0700"])
            .arg(&pulse_dir)
            .status();
        assert!(
            made.is_ok_and(|s| s.success()),
            "mkdir {}",
            pulse_dir.display()
        );
        for program in ["pipewire", "wireplumber", "pipewire-pulse"] {
            let child = self.daemon(program);
            self.daemons.push(child);
            if program == "pipewire" {
                let socket = self.session.runtime_dir().join("pipewire-0");
                wait_for("PipeWire's socket", WAIT, || socket.exists());
            }
        }
        // pactl every 200 ms; a daemon that ended anyway (once seen in CI, before the
        // directory above was made first: pipewire-pulse never answered) is started again,
        // at most twice, and its log is kept.
        let deadline = std::time::Instant::now() + WAIT;
        let mut restarts = 0;
        while !self
            .user("pactl")
            .arg("info")
            .status()
            .is_ok_and(|s| s.success())
        {
            let ended = self
                .daemons
                .iter_mut()
                .position(|d| d.0.try_wait().ok().flatten().is_some());
            if let (Some(at), true) = (ended, restarts < 2) {
                let program = ["pipewire", "wireplumber", "pipewire-pulse"][at];
                eprintln!("{program} ended; started again: {}", self.log(program));
                self.daemons[at] = self.daemon(program);
                restarts += 1;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "pipewire-pulse does not answer; the daemons' logs:\n{}",
                ["pipewire", "wireplumber", "pipewire-pulse"]
                    .map(|p| self.log(p))
                    .join("\n")
            );
            std::thread::sleep(Duration::from_millis(200));
        }
        self.run(
            "pactl",
            &[
                "load-module",
                "module-null-sink",
                "sink_name=rbnull",
                "sink_properties=device.description=RingbarNull",
            ],
        );
        wait_for("the null sink as the default", WAIT, || {
            let _ = self
                .user("pactl")
                .args(["set-default-sink", "rbnull"])
                .status();
            self.output("pactl", &["get-default-sink"]).trim() == "rbnull"
        });
    }

    /// Starts `program` as the test user, its output in `PROGRAM.log` in the session.
    fn daemon(&self, program: &str) -> Helper {
        let log = std::fs::File::create(self.session.path().join(format!("{program}.log")))
            .expect("a daemon's log");
        let child = self
            .user(program)
            .stdout(log.try_clone().expect("dup"))
            .stderr(log)
            .spawn()
            .expect("start (Debian's pipewire)");
        Helper(child)
    }

    /// What `program` logged.
    fn log(&self, program: &str) -> String {
        let text = std::fs::read_to_string(self.session.path().join(format!("{program}.log")));
        format!("{program}: {}", text.unwrap_or_default().trim())
    }

    pub fn stop_daemons(&mut self) {
        // The server first, as a crash would take it.
        for mut daemon in self.daemons.drain(..) {
            daemon.kill();
        }
        // What a killed PipeWire leaves: its socket would be waited for in vain.
        for stale in ["pipewire-0", "pipewire-0.lock"] {
            let _ = std::fs::remove_file(self.session.runtime_dir().join(stale));
        }
    }

    pub fn output(&self, program: &str, args: &[&str]) -> String {
        let out = self
            .user(program)
            .args(args)
            .stdout(Stdio::piped())
            .output();
        String::from_utf8_lossy(&out.expect("run").stdout).into_owned()
    }

    pub fn run_as_root(&self, program: &str, args: &[&str]) {
        let status = Command::new(program).args(args).status().expect("run");
        assert!(status.success(), "{program} {args:?}");
    }

    pub fn run(&self, program: &str, args: &[&str]) {
        let status = self.user(program).args(args).status().expect("run");
        assert!(status.success(), "{program} {args:?}");
    }

    /// A null sink more, `name` with `description` (what the modules show).
    pub fn null_sink(&self, name: &str, description: &str) {
        let name = format!("sink_name={name}");
        let description = format!("sink_properties=device.description={description}");
        self.run(
            "pactl",
            &["load-module", "module-null-sink", &name, &description],
        );
    }

    /// `Volume: 0.45`, with ` [MUTED]` when muted.
    pub fn wpctl_volume(&self) -> String {
        self.output("wpctl", &["get-volume", "@DEFAULT_AUDIO_SINK@"])
            .trim()
            .to_owned()
    }

    /// The pid of pipewire-pulse, the server the bar speaks to.
    pub fn pulse_server_pid(&self) -> u32 {
        self.daemons[2].0.id()
    }
}
