//! labwc 0.20 (Debian sid's) headless, in the sid root the Hyprland harness builds
//! (`../shared/hyprland/headless-hyprland.sh setup`, at `$HYPR_ROOT`, /tmp/hypr/root by
//! default): no VM, the pixman renderer, run by chroot. Its clients (the bar, foot, grim,
//! the virtual pointer) run in the root too, with its libraries.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::session::{Image, Pointer};

/// What the root needs besides what the harness puts there: labwc, a terminal for
/// windows, grim for screenshots, and the libraries ringbar links.
const PACKAGES: [&str; 10] = [
    "labwc",
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
const XDG: &str = "/run/ringbar-labwc";

pub struct Labwc {
    root: PathBuf,
    labwc: Child,
    mounted: Vec<PathBuf>,
}

fn warn_skip(why: &str, detail: &[u8]) {
    eprintln!(
        "\n********************************************************************\n\
         WARNING: the real-labwc test is SKIPPED: {why}\n{}\n\
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
    if root.join("usr/bin/labwc").exists() {
        return true;
    }
    let out = super::hyprland::apt_install(root, &PACKAGES);
    if !out.status.success() {
        warn_skip("apt in the sid root failed", &out.stderr);
    }
    out.status.success()
}

impl Labwc {
    /// labwc with one headless output and the desktops (workspaces) `desktops`.
    pub fn start(desktops: &[&str]) -> Option<Labwc> {
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
        let xdg = root.join(XDG.trim_start_matches('/'));
        let _ = fs::remove_dir_all(&xdg);
        fs::create_dir_all(xdg.join("config")).expect("runtime folder");
        fs::set_permissions(&xdg, fs::Permissions::from_mode(0o700)).expect("chmod");
        let names: String = desktops
            .iter()
            .map(|name| format!("<name>{name}</name>"))
            .collect();
        let rc = format!(
            "<?xml version=\"1.0\"?>\n<labwc_config>\n  <desktops number=\"{}\">\
             <names>{names}</names></desktops>\n</labwc_config>\n",
            desktops.len()
        );
        fs::write(xdg.join("config/rc.xml"), rc).expect("rc.xml");
        let log = fs::File::create(xdg.join("labwc.log")).expect("log");
        let labwc = Command::new("chroot")
            .arg(&root)
            .args(["env", "-i", "PATH=/usr/bin:/bin", "HOME=/root"])
            .arg(format!("XDG_RUNTIME_DIR={XDG}"))
            .args([
                "WLR_BACKENDS=headless",
                "WLR_RENDERER=pixman",
                "WLR_LIBINPUT_NO_DEVICES=1",
            ])
            .args(["labwc", "-C"])
            .arg(format!("{XDG}/config"))
            .stdout(log.try_clone().expect("dup"))
            .stderr(log)
            .spawn()
            .expect("start labwc");
        let labwc = Labwc {
            root,
            labwc,
            mounted,
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        while !xdg.join("wayland-0").exists() {
            assert!(
                Instant::now() < deadline,
                "labwc did not start: {}",
                labwc.log()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Some(labwc)
    }

    /// labwc's process id (`chroot` and `env` exec it in place).
    pub fn pid(&self) -> u32 {
        self.labwc.id()
    }

    pub fn log(&self) -> String {
        fs::read_to_string(self.host_path(&format!("{XDG}/labwc.log"))).unwrap_or_default()
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

    /// `program` as a client of labwc, in the root, with `env` besides the display.
    pub fn client(&self, program: &str, env: &[(&str, &str)]) -> Command {
        let mut command = Command::new("chroot");
        command
            .arg(&self.root)
            .args([
                "env",
                "-i",
                "PATH=/usr/local/bin:/usr/bin:/bin",
                "HOME=/root",
            ])
            .arg(format!("XDG_RUNTIME_DIR={XDG}"))
            .arg("WAYLAND_DISPLAY=wayland-0")
            .args(env.iter().map(|(k, v)| format!("{k}={v}")))
            .arg(program);
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
            "grim: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        Image::from_ppm(&out.stdout)
    }

    /// A virtual pointer on labwc's output layout of `layout` pixels.
    pub fn pointer(&self, helper: &Path, layout: (u32, u32)) -> Pointer {
        let inside = self.install(helper);
        Pointer::spawn(self.client(&inside, &[]), layout)
    }
}

impl Drop for Labwc {
    fn drop(&mut self) {
        let _ = self.labwc.kill();
        let _ = self.labwc.wait();
        // Lazily: a client the test left running lets go of them when it ends.
        for target in self.mounted.iter().rev() {
            let _ = Command::new("umount").arg("-l").arg(target).status();
        }
    }
}
