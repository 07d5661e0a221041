//! A compositor of Debian sid, headless, in the sid root the Hyprland harness builds
//! (`../shared/hyprland/headless-hyprland.sh setup`, at `$HYPR_ROOT`, /tmp/hypr/root by
//! default): labwc 0.20, or Wayfire 0.10 (which refuses to run as root, so it and its
//! clients run as `nobody`). No VM, the pixman renderer, run by chroot. Its clients (the
//! bar, foot, grim, the virtual pointer) run in the root too, with its libraries.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::running_bar::RunningBar;
use super::session::{Image, Pointer};

/// What the root needs besides what the harness puts there: the compositors, a terminal
/// for windows, grim for screenshots, and the libraries ringbar links.
const PACKAGES: [&str; 11] = [
    "labwc",
    "wayfire",
    "foot",
    "grim",
    "fonts-dejavu-core",
    "libgtk-4-1",
    "libgtk4-layer-shell0",
    "libpulse-mainloop-glib0",
    "libpulse0",
    "libpipewire-0.3-0",
    "wayland-utils",
];
/// The runtime folder inside the root.
const XDG: &str = "/run/ringbar-sid";
/// The home folder of the compositor's user inside the root, on the runtime tmpfs.
const HOME: &str = "/run/ringbar-sid/home";
/// Where the bar's test hook writes, inside the root.
const HOOK: &str = "/run/ringbar-hook";
/// Wayfire's user: it refuses root.
const NOBODY: u32 = 65534;

pub struct SidCompositor {
    root: PathBuf,
    compositor: Child,
    mounted: Vec<PathBuf>,
    /// Its user, when not root; its clients run as it too.
    user: Option<u32>,
    /// Its Wayland socket's name.
    socket: String,
    /// What its clients are told besides the display: Wayfire's IPC socket.
    env: Vec<String>,
}

fn warn_skip(why: &str, detail: &[u8]) {
    eprintln!(
        "\n********************************************************************\n\
         WARNING: the sid-compositor test is SKIPPED: {why}\n{}\n\
         ********************************************************************\n",
        String::from_utf8_lossy(detail)
    );
}

/// The sid root the Hyprland harness builds; `None` (after a loud warning) where it
/// cannot be had: Debian sid moves, and that is outside ringbar.
fn root() -> Option<PathBuf> {
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/hyprland/headless-hyprland.sh");
    if !script.exists() {
        warn_skip(&format!("no {}", script.display()), b"");
        return None;
    }
    let setup = Command::new(&script)
        .arg("setup")
        .output()
        .expect("run setup");
    if !setup.status.success() {
        warn_skip("the sid root's setup failed", &setup.stderr);
        return None;
    }
    Some(PathBuf::from(
        std::env::var("HYPR_ROOT").unwrap_or("/tmp/hypr/root".into()),
    ))
}

/// [`PACKAGES`] in the root (its /proc and /dev mounted, for their scripts).
fn install_packages(root: &Path) -> bool {
    if root.join("usr/bin/labwc").exists() && root.join("usr/bin/wayfire").exists() {
        return true;
    }
    let out = super::hyprland::apt_install(root, &PACKAGES);
    if !out.status.success() {
        warn_skip("apt in the sid root failed", &out.stderr);
    }
    out.status.success()
}

impl SidCompositor {
    /// labwc with one headless output and the desktops (workspaces) `desktops`.
    pub fn labwc(desktops: &[&str]) -> Option<SidCompositor> {
        let names: String = desktops
            .iter()
            .map(|name| format!("<name>{name}</name>"))
            .collect();
        let rc = format!(
            "<?xml version=\"1.0\"?>\n<labwc_config>\n  <desktops number=\"{}\">\
             <names>{names}</names></desktops>\n</labwc_config>\n",
            desktops.len()
        );
        let command = ["labwc", "-C", &format!("{XDG}/config")].map(str::to_owned);
        SidCompositor::start(None, ("rc.xml", &rc), &command)
    }

    /// Wayfire with one headless output and a grid of three workspaces, with its
    /// foreign-toplevel plugin (the window list other programs read) and its IPC, run as
    /// `nobody`. Its clients are told the IPC socket, as Wayfire tells those it starts.
    pub fn wayfire() -> Option<SidCompositor> {
        let ini = "[core]\nplugins = ipc ipc-rules vswitch foreign-toplevel\n\
                   xwayland = false\nvwidth = 3\nvheight = 1\n";
        let command = ["wayfire", "-c", &format!("{XDG}/config/wayfire.ini")].map(str::to_owned);
        SidCompositor::start(Some(NOBODY), ("wayfire.ini", ini), &command)
    }

    /// `command` in the root as `user` (root for `None`), its `config` file written into
    /// the config folder first; once its Wayland socket is there.
    fn start(user: Option<u32>, config: (&str, &str), command: &[String]) -> Option<SidCompositor> {
        let root = root()?;
        let mut mounted = Vec::new();
        for dir in ["proc", "sys", "dev", "dev/pts"] {
            let target = root.join(dir);
            let status = Command::new("mount")
                .arg("--bind")
                .arg(Path::new("/").join(dir))
                .arg(&target)
                .status()
                .expect("mount");
            assert!(status.success(), "bind-mount /{dir} into the root");
            mounted.push(target);
        }
        // POSIX shared memory for everyone, as on a desktop: wlroots makes a non-root
        // compositor's buffers there (the bind mount of /dev does not carry /dev/shm).
        let shm = root.join("dev/shm");
        let status = Command::new("mount")
            .args(["-t", "tmpfs", "-o", "mode=1777", "tmpfs"])
            .arg(&shm)
            .status()
            .expect("mount");
        assert!(status.success(), "a tmpfs on the root's /dev/shm");
        mounted.push(shm);
        if !install_packages(&root) {
            for target in mounted.iter().rev() {
                let _ = Command::new("umount").arg("-l").arg(target).status();
            }
            return None;
        }
        // In memory, as a desktop's /run is: the bar writes its test hook there on its main
        // loop, and on a disk busy writing back such a write can wait long enough to read
        // as the bar stalling.
        let run = root.join("run");
        let status = Command::new("mount")
            .args(["-t", "tmpfs", "-o", "mode=0755", "tmpfs"])
            .arg(&run)
            .status()
            .expect("mount");
        assert!(status.success(), "a tmpfs on the root's /run");
        mounted.push(run);
        let inside = |path: &str| root.join(path.trim_start_matches('/'));
        for dir in [format!("{XDG}/config"), HOME.to_owned(), HOOK.to_owned()] {
            fs::create_dir_all(inside(&dir)).expect("a folder in the root");
        }
        fs::set_permissions(inside(XDG), fs::Permissions::from_mode(0o700)).expect("chmod");
        fs::write(inside(&format!("{XDG}/config/{}", config.0)), config.1).expect("config");
        if let Some(user) = user {
            let owned = Command::new("chown")
                .args(["-R", &format!("{user}:{user}")])
                .args([inside(XDG), inside(HOOK)])
                .status()
                .expect("chown");
            assert!(owned.success(), "chown the runtime folder");
        }
        let log = fs::File::create(inside(&format!("{XDG}/compositor.log"))).expect("log");
        let mut compositor = SidCompositor {
            root: root.clone(),
            compositor: Command::new("true").spawn().expect("placeholder"),
            mounted,
            user,
            socket: String::new(),
            env: Vec::new(),
        };
        compositor.compositor = compositor
            .in_root(&[
                "WLR_BACKENDS=headless",
                "WLR_RENDERER=pixman",
                "WLR_LIBINPUT_NO_DEVICES=1",
            ])
            .args(command)
            .stdout(log.try_clone().expect("dup"))
            .stderr(log)
            .spawn()
            .expect("start the compositor");
        // Its Wayland socket, and Wayfire's IPC socket (made as its plugin loads, later).
        let deadline = Instant::now() + Duration::from_secs(30);
        let wants_ipc = command[0] == "wayfire";
        loop {
            let names: Vec<String> = fs::read_dir(inside(XDG))
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect();
            let wayland = names
                .iter()
                .filter(|n| n.starts_with("wayland-") && !n.ends_with(".lock"))
                .min();
            let ipc = names
                .iter()
                .find(|n| n.starts_with("wayfire-") && n.ends_with(".socket"));
            if let (Some(wayland), true) = (wayland, ipc.is_some() || !wants_ipc) {
                compositor.socket = wayland.clone();
                if let Some(ipc) = ipc {
                    compositor.env.push(format!("WAYFIRE_SOCKET={XDG}/{ipc}"));
                }
                break;
            }
            assert!(
                Instant::now() < deadline,
                "{command:?} did not start: {}",
                compositor.log()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Some(compositor)
    }

    /// A command in the root as the compositor's user, with a clean environment: the
    /// runtime folder, the home folder and `env`.
    fn in_root(&self, env: &[&str]) -> Command {
        let mut command = Command::new("chroot");
        command.arg(&self.root);
        if let Some(user) = self.user {
            command
                .arg("setpriv")
                .args([format!("--reuid={user}"), format!("--regid={user}")])
                .arg("--clear-groups");
        }
        let home = if self.user.is_some() { HOME } else { "/root" };
        command
            .args(["env", "-i", "PATH=/usr/local/bin:/usr/bin:/bin"])
            .arg(format!("HOME={home}"))
            .arg(format!("XDG_RUNTIME_DIR={XDG}"))
            .args(env);
        command
    }

    /// The compositor's process id (`chroot`, `setpriv` and `env` exec it in place).
    pub fn pid(&self) -> u32 {
        self.compositor.id()
    }

    pub fn log(&self) -> String {
        fs::read_to_string(self.host_path(&format!("{XDG}/compositor.log"))).unwrap_or_default()
    }

    /// Where the root's `path` is on this machine.
    pub fn host_path(&self, path: &str) -> PathBuf {
        self.root.join(path.trim_start_matches('/'))
    }

    /// Copies `program` into the root; its path there.
    pub fn install(&self, program: &Path) -> String {
        let name = program
            .file_name()
            .and_then(|n| n.to_str())
            .expect("a name");
        let inside = format!("/usr/local/bin/{name}");
        fs::copy(program, self.host_path(&inside)).expect("copy into the root");
        inside
    }

    /// `program` as a client of the compositor, in the root, with `env` besides the
    /// display.
    pub fn client(&self, program: &str, env: &[(&str, &str)]) -> Command {
        let display = format!("WAYLAND_DISPLAY={}", self.socket);
        let env: Vec<String> = env.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let mut all: Vec<&str> = vec![&display];
        all.extend(self.env.iter().map(String::as_str));
        all.extend(env.iter().map(String::as_str));
        let mut command = self.in_root(&all);
        command.arg(program);
        command
    }

    /// The output's strip `geometry` (grim's "X,Y WxH"), or all of it for "".
    pub fn screenshot(&self, geometry: &str) -> Image {
        let mut grim = self.client("grim", &[]);
        if !geometry.is_empty() {
            grim.args(["-g", geometry]);
        }
        let out = grim
            .args(["-t", "ppm", "-"])
            .stderr(Stdio::piped())
            .output()
            .expect("run grim");
        assert!(
            out.status.success(),
            "grim: {}; the compositor's log:\n{}",
            String::from_utf8_lossy(&out.stderr),
            self.log()
        );
        Image::from_ppm(&out.stdout)
    }

    /// A virtual pointer on the compositor's output layout of `layout` pixels.
    pub fn pointer(&self, helper: &Path, layout: (u32, u32)) -> Pointer {
        let inside = self.install(helper);
        Pointer::spawn(self.client(&inside, &[]), layout)
    }

    /// A virtual pointer (made before the bar: GDK drops the first events of one made
    /// later), then the bar with `config` on the compositor's output.
    pub fn pointer_and_bar(&self, config: &str) -> (Pointer, RunningBar) {
        let screen = self.screenshot("");
        let layout = (screen.width as u32, screen.height as u32);
        let pointer = self.pointer(&super::hyprland::example("virtual_pointer"), layout);
        let bar_binary = self.install(Path::new(env!("CARGO_BIN_EXE_ringbar")));
        let home = if self.user.is_some() { HOME } else { "/root" };
        let folder = self.host_path(&format!("{home}/.config/ringbar"));
        fs::create_dir_all(&folder).expect("config folder");
        fs::write(folder.join("config.toml"), config).expect("config");
        if let Some(user) = self.user {
            let _ = Command::new("chown")
                .args(["-R", &format!("{user}:{user}")])
                .arg(self.host_path(HOME))
                .status();
        }
        let hook = self.host_path(HOOK);
        let bar = RunningBar::spawn(
            self.client(&bar_binary, &[("RINGBAR_TEST_HOOK", HOOK)]),
            self.host_path(&format!("{XDG}/ringbar.log")),
            hook,
        );
        bar.wait_for_log("bar on output HEADLESS-1");
        (pointer, bar)
    }

    /// foot in the root, running `args`.
    pub fn foot(&self, args: &[&str]) -> Client {
        let child = self
            .client("foot", &[])
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start foot");
        Client(child)
    }

    /// The bar's test hook folder, on this machine.
    pub fn hook_dir(&self) -> PathBuf {
        self.host_path(HOOK)
    }
}

/// A client killed when the test ends, passed or not.
pub struct Client(pub Child);

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Drop for SidCompositor {
    fn drop(&mut self) {
        let _ = self.compositor.kill();
        let _ = self.compositor.wait();
        // Lazily: a client the test left running lets go of them when it ends.
        for target in self.mounted.iter().rev() {
            let _ = Command::new("umount").arg("-l").arg(target).status();
        }
    }
}
