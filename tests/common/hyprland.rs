//! Hyprland 0.57 in a QEMU VM, from `../shared/hyprland/headless-hyprland.sh`: its IPC
//! sockets forwarded to `/tmp/hypr/xdg/hypr/SIG/` here, its display reached through
//! waypipe. Booting takes minutes, so the end-to-end test boots it once.

use std::io::{Read, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use gtk4::gdk_pixbuf::Pixbuf;

use super::session::{Image, Pointer};

/// Hyprland under TCG is often busy for seconds (hyprctl gives up after 5 s).
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// Where the guest sees the folder shared with the host (`$ROOT$SHARE` here).
pub const GUEST_SHARE: &str = "/var/lib/hypr-vm";
/// What the guest needs besides Hyprland: the access point, station and tools of the
/// Wi-Fi test, BlueZ with btvirt, a system bus and Python's GLib (for a battery
/// provider) for the Bluetooth test, and the
/// libraries ringbar links (to run it there).
const GUEST_PACKAGES: [&str; 10] = [
    "hostapd",
    "wpasupplicant",
    "iw",
    "bluez",
    "bluez-test-tools",
    "dbus-daemon",
    "python3-gi",
    "libgtk-4-1",
    "libgtk4-layer-shell0",
    "libpipewire-0.3-0",
];

/// The VM, stopped when dropped (also when a check fails).
pub struct HyprlandVm {
    script: PathBuf,
    root: PathBuf,
    env: Vec<(String, String)>,
    /// [`GUEST_PACKAGES`] are installed in the guest.
    pub guest_tools: bool,
}

fn warn_skip(why: &str, detail: &[u8]) {
    eprintln!(
        "\n********************************************************************\n\
         WARNING: the real-Hyprland test is SKIPPED: {why}\n{}\n\
         ********************************************************************\n",
        String::from_utf8_lossy(detail)
    );
}

impl HyprlandVm {
    /// Sets the VM up and boots it. `None`, after a loud warning, when the script is
    /// missing or its setup fails (Debian sid moves): those are outside ringbar. A VM
    /// that was set up but does not start fails the test.
    pub fn boot() -> Option<HyprlandVm> {
        let script =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/hyprland/headless-hyprland.sh");
        if !script.exists() {
            warn_skip(&format!("no {}", script.display()), b"");
            return None;
        }
        let started = Instant::now();
        let setup = Command::new(&script)
            .arg("setup")
            .output()
            .expect("run setup");
        if !setup.status.success() {
            warn_skip("its setup failed (Debian sid moves)", &setup.stderr);
            return None;
        }
        eprintln!("Hyprland VM set up in {:?}", started.elapsed());
        let root = PathBuf::from(std::env::var("HYPR_ROOT").unwrap_or("/tmp/hypr/root".into()));
        let guest_tools = install_guest_packages(&root);
        let mut vm = HyprlandVm {
            script,
            root,
            env: Vec::new(),
            guest_tools,
        };
        let booted = Instant::now();
        let start = vm.run(&["start"]);
        assert!(
            start.status.success(),
            "the Hyprland VM did not start: {}",
            String::from_utf8_lossy(&start.stderr)
        );
        eprintln!("Hyprland VM ready after {:?}", booted.elapsed());
        let printed = String::from_utf8_lossy(&start.stdout).into_owned();
        vm.env = printed
            .lines()
            .filter_map(|l| l.strip_prefix("export ")?.split_once('='))
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect();
        for name in [
            "XDG_RUNTIME_DIR",
            "WAYLAND_DISPLAY",
            "HYPRLAND_INSTANCE_SIGNATURE",
        ] {
            assert!(!vm.var(name).is_empty(), "`start` printed no {name}");
        }
        Some(vm)
    }

    pub fn var(&self, name: &str) -> &str {
        self.env
            .iter()
            .find(|(k, _)| k == name)
            .map_or("", |(_, v)| v.as_str())
    }

    /// What a client of Hyprland's IPC needs (as Hyprland exports it to what it starts).
    pub fn client_env(&self) -> [(&str, &str); 2] {
        [
            (
                "HYPRLAND_INSTANCE_SIGNATURE",
                self.var("HYPRLAND_INSTANCE_SIGNATURE"),
            ),
            ("XDG_RUNTIME_DIR", self.var("XDG_RUNTIME_DIR")),
        ]
    }

    pub fn run(&self, args: &[&str]) -> Output {
        Command::new(&self.script)
            .args(args)
            .output()
            .expect("run headless-hyprland.sh")
    }

    /// One request on `.socket.sock`, as hyprctl sends it (`j/monitors`,
    /// `/dispatch LUA`), with a longer patience than hyprctl's; the reply.
    pub fn request(&self, request: &str) -> String {
        let path = Path::new(self.var("XDG_RUNTIME_DIR"))
            .join("hypr")
            .join(self.var("HYPRLAND_INSTANCE_SIGNATURE"))
            .join(".socket.sock");
        let mut socket = UnixStream::connect(&path)
            .unwrap_or_else(|e| panic!("connect {}: {e}", path.display()));
        socket
            .set_read_timeout(Some(REQUEST_TIMEOUT))
            .expect("timeout");
        socket.write_all(request.as_bytes()).expect("write request");
        let mut reply = String::new();
        socket
            .read_to_string(&mut reply)
            .unwrap_or_else(|e| panic!("Hyprland's reply to {request}: {e}"));
        reply
    }

    /// A `j/…` query's JSON, asked again while Hyprland answers nothing readable.
    pub fn query(&self, what: &str) -> serde_json::Value {
        let deadline = Instant::now() + REQUEST_TIMEOUT;
        loop {
            let reply = self.request(&format!("j/{what}"));
            match serde_json::from_str(&reply) {
                Ok(value) => return value,
                Err(e) => assert!(
                    Instant::now() < deadline,
                    "j/{what}: {e}; the reply: {reply:?}"
                ),
            }
            std::thread::sleep(Duration::from_millis(500));
        }
    }

    /// Runs Lua `code` through `dispatch`, which must answer `ok`. An empty reply means
    /// the connection closed before an answer, outside ringbar (which is not on this
    /// path): the forwarding chain (socat, QEMU's user network, socat) failing on the
    /// guest side, or Hyprland closing a connection whose request it did not read within
    /// its 5 s deadline, which a busy emulated guest can miss (a CI run saw it once). The
    /// request is sent again then; a toggle sent twice undoes itself, which the state
    /// checks after it catch.
    pub fn dispatch(&self, code: &str) {
        let mut reply = self.request(&format!("/dispatch {code}"));
        for _ in 0..3 {
            if !reply.trim().is_empty() {
                break;
            }
            eprintln!("dispatch {code}: an empty reply; sent again");
            std::thread::sleep(Duration::from_millis(500));
            reply = self.request(&format!("/dispatch {code}"));
        }
        assert_eq!(reply.trim(), "ok", "dispatch {code}");
    }

    /// The name of the workspace Hyprland shows on its focused monitor.
    pub fn active_workspace(&self) -> String {
        let active = self.query("activeworkspace");
        active["name"].as_str().unwrap_or_default().to_owned()
    }

    /// A shell command run in the guest (with Hyprland's first environment); its output.
    pub fn guest(&self, command: &str) -> String {
        let out = self.run(&["guest", command]);
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// A program run here whose Wayland display is Hyprland's (through waypipe).
    pub fn wayland_client(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut command = Command::new(program);
        command
            .env("XDG_RUNTIME_DIR", self.var("XDG_RUNTIME_DIR"))
            .env("WAYLAND_DISPLAY", self.var("WAYLAND_DISPLAY"));
        command
    }

    /// The top `rows` of the screen (a top bar), from a PNG of the whole screen taken by
    /// grim in the guest (`headless-hyprland.sh shot`), kept at `to`.
    pub fn screenshot_top(&self, to: &Path, rows: usize) -> Image {
        let out = self.run(&["shot", &to.display().to_string()]);
        assert!(
            out.status.success(),
            "shot failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let pixbuf = Pixbuf::from_file(to).expect("the screenshot is a PNG");
        let width = pixbuf.width() as usize;
        let rows = rows.min(pixbuf.height() as usize);
        let channels = pixbuf.n_channels() as usize;
        let stride = pixbuf.rowstride() as usize;
        let bytes = pixbuf.read_pixel_bytes();
        let mut ppm = format!("P6\n{width} {rows}\n255\n").into_bytes();
        for y in 0..rows {
            for x in 0..width {
                let at = y * stride + x * channels;
                ppm.extend_from_slice(&bytes[at..at + 3]);
            }
        }
        Image::from_ppm(&ppm)
    }

    /// Kills Hyprland in the guest; returns once it is gone.
    pub fn kill_hyprland(&self) {
        // The pid of each instance is the first line of its lock file.
        let killed = self.guest(
            "for l in $XDG_RUNTIME_DIR/hypr/*/hyprland.lock; do p=$(head -n1 $l); \
             kill -0 $p 2>/dev/null && kill $p && echo $p; done",
        );
        let pids: Vec<&str> = killed.split_whitespace().collect();
        assert!(!pids.is_empty(), "no running Hyprland in the guest");
        let gone = format!(
            "for i in $(seq 150); do alive=; for p in {}; do kill -0 $p 2>/dev/null && alive=1; \
             done; [ -z \"$alive\" ] && echo gone && break; sleep 0.2; done",
            pids.join(" ")
        );
        assert_eq!(
            self.guest(&gone).trim(),
            "gone",
            "Hyprland {pids:?} ignores SIGTERM"
        );
    }

    /// Starts a new Hyprland in the guest after [`HyprlandVm::kill_hyprland`]. The
    /// guest's forwarders connect by path to the first instance's sockets, so those
    /// paths become links to the new instance's: the host side, and the signature
    /// clients were given, stay the same. Returns once the links are made.
    pub fn start_hyprland(&self) {
        // setsid -f: a background job would hold the command channel open. Without
        // WAYLAND_DISPLAY, so that Hyprland does not try to nest in a Wayland session.
        self.guest(&format!(
            "env -u WAYLAND_DISPLAY -u HYPRLAND_INSTANCE_SIGNATURE setsid -f \
             Hyprland --i-am-really-stupid </dev/null >{GUEST_SHARE}/hyprland-restarted.log 2>&1"
        ));
        // Each guest command gets 60 s: wait in shorter steps.
        let link = "D=$XDG_RUNTIME_DIR/hypr/$HYPRLAND_INSTANCE_SIGNATURE; \
            for i in $(seq 150); do for n in $XDG_RUNTIME_DIR/hypr/*; do \
            [ \"$n\" != \"$D\" ] && [ -S $n/.socket.sock ] && [ -S $n/.socket2.sock ] && \
            kill -0 $(head -n1 $n/hyprland.lock) 2>/dev/null && N=$n; done; \
            [ -n \"$N\" ] && break; sleep 0.3; done; [ -n \"$N\" ] && \
            ln -sfn $N/.socket.sock $D/.socket.sock && ln -sfn $N/.socket2.sock $D/.socket2.sock \
            && echo linked $N";
        let deadline = Instant::now() + Duration::from_secs(480);
        loop {
            let out = self.guest(link);
            if out.starts_with("linked ") {
                eprintln!("{}", out.trim());
                return;
            }
            assert!(
                Instant::now() < deadline,
                "the new Hyprland made no sockets; its log:\n{}",
                self.guest_file("hyprland-restarted.log")
            );
        }
    }

    /// Where the guest's `GUEST_SHARE/name` is on the host.
    pub fn shared(&self, name: &str) -> PathBuf {
        self.root
            .join(GUEST_SHARE.trim_start_matches('/'))
            .join(name)
    }

    /// Copies the ringbar binary under test to `GUEST_SHARE/ringbar` in the guest.
    pub fn install_ringbar(&self) {
        std::fs::copy(env!("CARGO_BIN_EXE_ringbar"), self.shared("ringbar"))
            .expect("copy ringbar into the guest's share");
    }

    /// The tail of a file the guest wrote to its shared folder.
    pub fn guest_file(&self, name: &str) -> String {
        let path = self.shared(name);
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(40)..].join("\n")
    }
}

/// Installs [`GUEST_PACKAGES`] in the guest's root (a sid chroot) with its apt, before
/// the VM boots from it; services are not started there (policy-rc.d). `false`, after a
/// loud warning, when apt fails (Debian sid moves).
fn install_guest_packages(root: &Path) -> bool {
    let policy = root.join("usr/sbin/policy-rc.d");
    if std::fs::write(&policy, "#!/bin/sh\nexit 101\n").is_err() {
        warn_skip("cannot write the guest's policy-rc.d", b"");
        return false;
    }
    let _ = Command::new("chmod").arg("+x").arg(&policy).status();
    let installed = Command::new("chroot")
        .arg(root)
        .args(["dpkg-query", "-W", "-f=${db:Status-Abbrev}\n"])
        .args(GUEST_PACKAGES)
        .output()
        .is_ok_and(|out| {
            let text = String::from_utf8_lossy(&out.stdout);
            out.status.success()
                && text.lines().filter(|l| l.starts_with("ii")).count() == GUEST_PACKAGES.len()
        });
    if installed {
        return true;
    }
    let started = Instant::now();
    let out = apt_install(root, &GUEST_PACKAGES);
    if !out.status.success() {
        warn_skip(
            "the Wi-Fi and Bluetooth parts: apt in the guest's root failed (Debian sid moves)",
            &out.stderr,
        );
        return false;
    }
    eprintln!("guest packages installed in {:?}", started.elapsed());
    true
}

/// `apt-get update` and `install` of `packages` in the sid `root`: the output of the step
/// that failed, or of the install.
pub fn apt_install(root: &Path, packages: &[&str]) -> Output {
    let apt = |args: &[&str]| {
        Command::new("chroot")
            .arg(root)
            .args(["env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "-q"])
            .args(["-o", "Acquire::Check-Valid-Until=false"])
            .args(args)
            .output()
            .expect("run apt-get in the sid root")
    };
    let update = apt(&["update"]);
    if !update.status.success() {
        return update;
    }
    let mut install = vec!["install", "-y", "--no-install-recommends"];
    install.extend(packages);
    apt(&install)
}

impl Drop for HyprlandVm {
    fn drop(&mut self) {
        let _ = self.run(&["stop"]);
    }
}

/// A helper program of `examples/` (`cargo test` builds them).
pub fn example(name: &str) -> PathBuf {
    let path = std::env::current_exe()
        .expect("test binary path")
        .parent()
        .and_then(Path::parent)
        .expect("target dir")
        .join("examples")
        .join(name);
    assert!(
        path.exists(),
        "{} is missing: `cargo test` builds it",
        path.display()
    );
    path
}

/// `examples/virtual_pointer` on Hyprland's display.
pub fn pointer(vm: &HyprlandVm, layout: (u32, u32)) -> Pointer {
    Pointer::spawn(vm.wayland_client(example("virtual_pointer")), layout)
}
