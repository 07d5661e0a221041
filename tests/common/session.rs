//! A real Wayland session for the bar: headless sway (or weston) run by an unprivileged
//! user, a setcap'd copy of ringbar started as that user, a virtual pointer, screenshots.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::{Duration, Instant};

// The types a session hands out, where the tests have always found them.
#[allow(unused_imports)]
pub use super::running_bar::RunningBar;
#[allow(unused_imports)]
pub use super::screen::{Image, Pointer};
use super::wait_for;

/// The unprivileged account the compositor and the bar run as (sway refuses root).
const USER: &str = "ringbar-test";

pub const WIDTH: u32 = 1280;
pub const HEIGHT: u32 = 720;

pub fn user_ids() -> (u32, u32) {
    let lookup = || {
        let out = Command::new("id").args(["-u", USER]).output().ok()?;
        let uid = String::from_utf8(out.stdout).ok()?.trim().parse().ok()?;
        let out = Command::new("id").args(["-g", USER]).output().ok()?;
        let gid = String::from_utf8(out.stdout).ok()?.trim().parse().ok()?;
        Some((uid, gid))
    };
    if let Some(ids) = lookup() {
        return ids;
    }
    let status = Command::new("useradd")
        .args([
            "--system",
            "--no-create-home",
            "--shell",
            "/usr/sbin/nologin",
            USER,
        ])
        .status()
        .expect("run useradd");
    assert!(status.success(), "useradd {USER} failed");
    lookup().expect("the test user exists after useradd")
}

fn chown(path: &Path, uid: u32, gid: u32) {
    std::os::unix::fs::chown(path, Some(uid), Some(gid)).expect("chown");
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Compositor {
    Sway,
    /// Sway on sway's wayland backend: its outputs are windows of a headless sway, so
    /// closing one unplugs an output (Debian's sway 1.7 cannot disable headless outputs).
    NestedSway,
    /// Weston 10: no wlr-layer-shell.
    Weston,
}

pub struct Session {
    dir: tempfile::TempDir,
    /// The test hook's folder, in memory where the machine has /dev/shm (see [`hook_dir_in_memory`]).
    hook: tempfile::TempDir,
    uid: u32,
    gid: u32,
    compositor: Child,
    /// The inner sway of [`Compositor::NestedSway`], which the bar connects to.
    nested: Option<Child>,
    /// Sway's one virtual pointer, made with the session: a bar that starts after it
    /// has its seat's pointer from the start. (A pointer made later races GTK, which
    /// binds it when the seat gains one: under load, GDK met the first events without
    /// a seat and dropped them.)
    pub(super) pointer: std::cell::RefCell<Option<Pointer>>,
}

impl Session {
    pub fn start(kind: Compositor) -> Session {
        Session::start_with(kind, "")
    }

    /// [`Session::start`] with more lines in sway's config (`mode "resize" { … }`).
    pub fn start_with(kind: Compositor, sway_config: &str) -> Session {
        // The bar's defaults list `audio`: its plugin beside it, as installed.
        super::sound_plugin::build();
        let (uid, gid) = user_ids();
        let dir = tempfile::tempdir().expect("tempdir");
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).expect("chmod");
        for sub in ["run", "home", "home/.config/ringbar", "home/.config/pulse"] {
            fs::create_dir_all(dir.path().join(sub)).expect("mkdir");
        }
        // A PulseAudio client (pactl) that finds no server would start PulseAudio itself
        // where it is installed, which would take the place of the server a test starts.
        let client_conf = dir.path().join("home/.config/pulse/client.conf");
        fs::write(&client_conf, "autospawn = no\n").expect("write client.conf");
        for sub in [
            "run",
            "home",
            "home/.config",
            "home/.config/ringbar",
            "home/.config/pulse",
            "home/.config/pulse/client.conf",
        ] {
            chown(&dir.path().join(sub), uid, gid);
        }
        let hook = hook_dir_in_memory(dir.path());
        chown(hook.path(), uid, gid);
        fs::set_permissions(dir.path().join("run"), fs::Permissions::from_mode(0o700))
            .expect("chmod");
        let config = dir.path().join("sway.cfg");
        fs::write(
            &config,
            format!(
                "output HEADLESS-1 resolution {WIDTH}x{HEIGHT}\nxwayland disable\n{sway_config}"
            ),
        )
        .expect("write sway config");

        let log = fs::File::create(dir.path().join("compositor.log")).expect("log");
        let mut session = Session {
            compositor: Command::new("true").spawn().expect("placeholder"),
            nested: None,
            pointer: std::cell::RefCell::new(None),
            dir,
            hook,
            uid,
            gid,
        };
        let mut command = match kind {
            Compositor::Sway | Compositor::NestedSway => {
                let env = [
                    ("WLR_BACKENDS", "headless"),
                    ("WLR_RENDERER", "pixman"),
                    ("WLR_LIBINPUT_NO_DEVICES", "1"),
                ];
                let mut c = session.user_command("sway", &env, false);
                c.args(["-c"]).arg(&config);
                c
            }
            Compositor::Weston => {
                let mut c = session.user_command("weston", &[], false);
                c.args([
                    "--backend=headless-backend.so",
                    "--socket=wayland-1",
                    "--idle-time=0",
                    &format!("--width={WIDTH}"),
                    &format!("--height={HEIGHT}"),
                ]);
                c
            }
        };
        let _ = session.compositor.wait();
        session.compositor = command
            .stdout(log.try_clone().expect("dup"))
            .stderr(log)
            .spawn()
            .expect("start the compositor");
        let socket = session.runtime_dir().join("wayland-1");
        let started = Instant::now();
        while !socket.exists() {
            let log = fs::read_to_string(session.path().join("compositor.log")).unwrap_or_default();
            let exited = session.compositor.try_wait().ok().flatten();
            assert!(
                exited.is_none() && started.elapsed() < Duration::from_secs(15),
                "the compositor did not start ({exited:?}):\n{log}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        if kind != Compositor::Weston {
            wait_for("sway's IPC socket", Duration::from_secs(10), || {
                session.sway_socket(&session.compositor).is_some()
            });
        }
        if kind == Compositor::NestedSway {
            let inner_config = session.path().join("inner.cfg");
            fs::write(&inner_config, "xwayland disable\n").expect("write inner config");
            let env = [
                ("WAYLAND_DISPLAY", "wayland-1"),
                ("WLR_BACKENDS", "wayland"),
                ("WLR_RENDERER", "pixman"),
                ("WLR_LIBINPUT_NO_DEVICES", "1"),
            ];
            let log = fs::File::create(session.path().join("nested.log")).expect("log");
            let mut inner = session.user_command("sway", &env, false);
            inner.args(["-c"]).arg(&inner_config);
            let child = inner
                .stdout(log.try_clone().expect("dup"))
                .stderr(log)
                .spawn()
                .expect("start the nested sway");
            session.nested = Some(child);
            let socket = session.runtime_dir().join("wayland-2");
            wait_for("the nested sway", Duration::from_secs(15), || {
                socket.exists() && session.sway_socket(session.client_compositor()).is_some()
            });
        }
        if kind != Compositor::Weston {
            drop(session.pointer());
        }
        session
    }

    /// The compositor the bar and the test tools talk to.
    fn client_compositor(&self) -> &Child {
        self.nested.as_ref().unwrap_or(&self.compositor)
    }

    fn wayland_display(&self) -> &'static str {
        if self.nested.is_some() {
            "wayland-2"
        } else {
            "wayland-1"
        }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn runtime_dir(&self) -> PathBuf {
        self.path().join("run")
    }

    pub fn home(&self) -> PathBuf {
        self.path().join("home")
    }

    pub fn hook_dir(&self) -> PathBuf {
        self.hook.path().to_path_buf()
    }

    /// Writes a file into the user's `~/.config/ringbar/`.
    pub fn write_config_file(&self, name: &str, text: &str) {
        self.write_home_file(&format!(".config/ringbar/{name}"), text);
    }

    /// Writes a file under the user's home, making its folders; all owned by the user.
    pub fn write_home_file(&self, relative: &str, text: &str) -> PathBuf {
        let path = self.home().join(relative);
        let parent = path.parent().expect("a file in a folder");
        fs::create_dir_all(parent).expect("mkdir");
        for dir in parent
            .ancestors()
            .take_while(|d| d.starts_with(self.home()))
        {
            chown(dir, self.uid, self.gid);
        }
        fs::write(&path, text).expect("write a file in the home");
        chown(&path, self.uid, self.gid);
        path
    }

    pub fn remove_config_file(&self, name: &str) {
        let _ = fs::remove_file(self.home().join(".config/ringbar").join(name));
    }

    /// A command run as the test user, with only the session's environment.
    pub fn as_user(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        self.as_user_with(program, &[])
    }

    /// [`Session::as_user`] with extra environment variables.
    pub fn as_user_with(
        &self,
        program: impl AsRef<std::ffi::OsStr>,
        env: &[(&str, &str)],
    ) -> Command {
        self.user_command(program, env, true)
    }

    /// `setpriv … env -i VARS… PROGRAM`: the program sees only the variables given here.
    fn user_command(
        &self,
        program: impl AsRef<std::ffi::OsStr>,
        env: &[(&str, &str)],
        wayland_client: bool,
    ) -> Command {
        let mut c = Command::new("setpriv");
        c.arg(format!("--reuid={}", self.uid))
            .arg(format!("--regid={}", self.gid))
            .args(["--init-groups", "--", "env", "-i"])
            .arg(format!("HOME={}", self.home().display()))
            .arg(format!("XDG_RUNTIME_DIR={}", self.runtime_dir().display()))
            .arg("PATH=/usr/local/bin:/usr/bin:/bin")
            .arg("GTK_A11Y=none");
        if wayland_client {
            c.arg(format!("WAYLAND_DISPLAY={}", self.wayland_display()));
        }
        for (name, value) in env {
            c.arg(format!("{name}={value}"));
        }
        c.arg(program);
        c
    }

    /// `sway-ipc.UID.PID.sock` of that sway (setpriv and env exec, so the child is sway).
    fn sway_socket(&self, sway: &Child) -> Option<PathBuf> {
        let name = format!("sway-ipc.{}.{}.sock", self.uid, sway.id());
        let path = self.runtime_dir().join(name);
        path.exists().then_some(path)
    }

    /// The IPC socket of the sway the bar runs in, as sway exports it to what it starts.
    pub fn swaysock(&self) -> String {
        let socket = self
            .sway_socket(self.client_compositor())
            .expect("sway IPC socket");
        socket.display().to_string()
    }

    /// `swaymsg ARGS` as the test user, to the sway the bar runs in; its stdout.
    pub fn swaymsg(&self, args: &[&str]) -> String {
        self.swaymsg_to(self.client_compositor(), args)
    }

    /// `swaymsg ARGS` to the outer, headless sway of [`Compositor::NestedSway`].
    pub fn swaymsg_outer(&self, args: &[&str]) -> String {
        self.swaymsg_to(&self.compositor, args)
    }

    /// `swaymsg ARGS` to the outer sway, for a command that may match nothing yet (a
    /// nested output's window is listed by the inner sway before the outer one maps it):
    /// whether it succeeded.
    pub fn try_swaymsg_outer(&self, args: &[&str]) -> bool {
        self.run_swaymsg(&self.compositor, args).status.success()
    }

    fn swaymsg_to(&self, sway: &Child, args: &[&str]) -> String {
        let out = self.run_swaymsg(sway, args);
        assert!(
            out.status.success(),
            "swaymsg {args:?} failed: {}{}",
            String::from_utf8_lossy(&out.stderr),
            String::from_utf8_lossy(&out.stdout)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn run_swaymsg(&self, sway: &Child, args: &[&str]) -> std::process::Output {
        let socket = self.sway_socket(sway).expect("sway IPC socket");
        self.as_user("swaymsg")
            .arg("-s")
            .arg(socket)
            .args(args)
            .output()
            .expect("run swaymsg")
    }

    /// The `y` of the focused workspace's rect: the space above it is reserved by bars.
    pub fn workspace_y(&self) -> i64 {
        self.workspace_rect("y")
    }

    /// A field (`x`, `y`, `width`, `height`) of the first workspace's rect.
    pub fn workspace_rect(&self, field: &str) -> i64 {
        let json = self.swaymsg(&["-t", "get_workspaces", "-r"]);
        let rect = &json[json.find("\"rect\"").expect("a workspace rect")..];
        let key = format!("\"{field}\":");
        let value = &rect[rect.find(&key).expect("rect field") + key.len()..];
        let digits: String = value
            .trim_start()
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '-')
            .collect();
        digits.parse().expect("rect field is a number")
    }

    /// Kills the compositor, as if the user's session ended.
    pub fn kill_compositor(&mut self) {
        for child in self.nested.iter_mut().chain([&mut self.compositor]) {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The bar writes its test hook's files on its main loop, and the stall tests time that
/// loop. On a disk busy writing back (a build that just finished), a write there waited up
/// to half a second, which read as the bar stalling: the hook lives in memory
/// (`/dev/shm`, as a desktop's runtime folder does), in `session` where there is none.
fn hook_dir_in_memory(session: &Path) -> tempfile::TempDir {
    let memory = Path::new("/dev/shm");
    let parent = if memory.is_dir() { memory } else { session };
    tempfile::Builder::new()
        .prefix("ringbar-hook")
        .tempdir_in(parent)
        .expect("the test hook's folder")
}

impl Drop for Session {
    fn drop(&mut self) {
        self.kill_compositor();
    }
}
