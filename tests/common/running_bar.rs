//! A copy of ringbar started in a session, and what its test hook says about it.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus};
use std::time::{Duration, Instant};

use super::session::*;

impl Session {
    /// Copies ringbar into the session, gives the copy CAP_BPF + CAP_PERFMON as a user
    /// would install it, and starts it as the test user.
    pub fn start_bar(&self, extra_env: &[(&str, &str)]) -> RunningBar {
        self.launch_bar("ringbar", true, true, extra_env)
    }

    /// Starts the bar with its stderr going to `stderr` instead of the log file (whose
    /// `log_text()` is then empty).
    pub fn start_bar_with_stderr(&self, stderr: std::process::Stdio) -> RunningBar {
        self.launch_bar_to("ringbar", true, true, &[], Some(stderr))
    }

    /// Starts the bar exactly as a user would: no test hook writing its state to files
    /// (for measurements; `bars()` and the tooltip readers see nothing).
    pub fn start_bar_unhooked(&self) -> RunningBar {
        self.launch_bar("ringbar", true, false, &[])
    }

    /// [`Session::start_bar`] inside the network namespace `netns` (`ip netns exec`: its
    /// interfaces, and a /sys that shows them).
    pub fn start_bar_in_netns(&self, netns: &str) -> RunningBar {
        let binary = self.install_bar("ringbar", true);
        let hook = self.hook_dir().display().to_string();
        let inner = self.as_user_with(&binary, &[("RINGBAR_TEST_HOOK", hook.as_str())]);
        let mut command = Command::new("ip");
        command
            .args(["netns", "exec", netns])
            .arg(inner.get_program())
            .args(inner.get_args());
        let runs = fs::read_dir(self.path()).map_or(0, |d| d.count());
        let log = self.path().join(format!("ringbar-{runs}.log"));
        RunningBar::spawn(command, log, self.hook_dir())
    }

    /// [`Session::start_bar`] in a mount namespace of its own where each `(source,
    /// target)` directory is bind-mounted first: a fake sysfs class over the real one.
    pub fn start_bar_with_mounts(
        &self,
        mounts: &[(&Path, &Path)],
        extra_env: &[(&str, &str)],
    ) -> RunningBar {
        let binary = self.install_bar("ringbar", true);
        let hook = self.hook_dir().display().to_string();
        let mut env = Vec::from(extra_env);
        env.push(("RINGBAR_TEST_HOOK", hook.as_str()));
        let inner = self.as_user_with(&binary, &env);
        let command = with_mounts(mounts, &inner);
        let runs = fs::read_dir(self.path()).map_or(0, |d| d.count());
        let log = self.path().join(format!("ringbar-{runs}.log"));
        RunningBar::spawn(command, log, self.hook_dir())
    }

    /// Starts a copy of ringbar without file capabilities: the probe cannot load.
    pub fn start_bar_without_capabilities(&self) -> RunningBar {
        self.start_bar_without_capabilities_with(&[])
    }

    /// [`Session::start_bar_without_capabilities`] with `extra_env`: where the dynamic
    /// loader must follow `LD_LIBRARY_PATH`, which it ignores in a program with file
    /// capabilities.
    pub fn start_bar_without_capabilities_with(&self, extra_env: &[(&str, &str)]) -> RunningBar {
        self.launch_bar("ringbar-nocaps", false, true, extra_env)
    }

    /// `ringbar --once --json` run by the test user, with the session's environment and
    /// `env`: what the installed bar prints, parsed.
    pub fn once_json(&self, env: &[(&str, &str)]) -> serde_json::Value {
        let out = self
            .as_user_with(self.installed_bar(), env)
            .args(["--once", "--json", "--interval-ms", "100"])
            .output()
            .expect("run ringbar --once");
        let text = String::from_utf8_lossy(&out.stdout);
        serde_json::from_str(&text).unwrap_or_else(|err| panic!("not JSON ({err}): {text}"))
    }

    /// The session's copy of ringbar with CAP_BPF + CAP_PERFMON, as a user would install
    /// it (made on first use): for running it other than as the bar, e.g. from Waybar.
    pub fn installed_bar(&self) -> PathBuf {
        self.install_bar("ringbar", true)
    }

    fn install_bar(&self, name: &str, capabilities: bool) -> PathBuf {
        let binary = self.path().join(name);
        if !binary.exists() {
            super::copy_bar(&binary);
            fs::set_permissions(&binary, fs::Permissions::from_mode(0o755)).expect("chmod");
            if capabilities {
                let status = Command::new("setcap")
                    .arg("cap_bpf,cap_perfmon+ep")
                    .arg(&binary)
                    .status()
                    .expect("run setcap (libcap2-bin)");
                assert!(status.success(), "setcap failed");
            }
        }
        binary
    }

    fn launch_bar(
        &self,
        name: &str,
        capabilities: bool,
        hooked: bool,
        extra_env: &[(&str, &str)],
    ) -> RunningBar {
        self.launch_bar_to(name, capabilities, hooked, extra_env, None)
    }

    fn launch_bar_to(
        &self,
        name: &str,
        capabilities: bool,
        hooked: bool,
        extra_env: &[(&str, &str)],
        stderr: Option<std::process::Stdio>,
    ) -> RunningBar {
        let binary = self.install_bar(name, capabilities);
        for name in ["bars", "tooltip.markup", "tooltip.text"] {
            let _ = fs::remove_file(self.hook_dir().join(name));
        }
        let runs = fs::read_dir(self.path()).map_or(0, |d| d.count());
        let log_path = self.path().join(format!("ringbar-{runs}.log"));
        let log = fs::File::create(&log_path).expect("log");
        let hook = self.hook_dir().display().to_string();
        let mut env = Vec::from(extra_env);
        if hooked {
            env.push(("RINGBAR_TEST_HOOK", hook.as_str()));
        }
        let mut command = self.as_user_with(&binary, &env);
        command.stdout(log.try_clone().expect("dup"));
        match stderr {
            Some(stderr) => command.stderr(stderr),
            None => command.stderr(log),
        };
        let child = command.spawn().expect("start ringbar");
        RunningBar {
            child,
            log_seen: std::cell::Cell::new(0),
            log: log_path,
            hook: self.hook_dir(),
        }
    }
}

/// `inner` in a mount namespace of its own where each `(source, target)` directory is
/// bind-mounted first (as root, before `inner` drops to the test user).
pub fn with_mounts(mounts: &[(&Path, &Path)], inner: &Command) -> Command {
    let mut script = String::new();
    for (source, target) in mounts {
        script.push_str(&format!(
            "mount --bind '{}' '{}' && ",
            source.display(),
            target.display()
        ));
    }
    script.push_str("exec \"$@\"");
    let mut command = Command::new("unshare");
    command
        .args(["--mount", "--propagation", "private", "--", "sh", "-c"])
        .arg(script)
        .arg("sh")
        .arg(inner.get_program())
        .args(inner.get_args());
    command
}

pub struct RunningBar {
    child: Child,
    log_seen: std::cell::Cell<usize>,
    pub log: PathBuf,
    hook: PathBuf,
}

impl RunningBar {
    /// A virtual pointer at the middle of `module`'s label, after a moment for the
    /// compositor to see it there: then `.click(button)` or `.scroll(direction)`.
    pub fn point_at<'s>(
        &self,
        session: &'s Session,
        module: &str,
    ) -> std::cell::RefMut<'s, Pointer> {
        let field = self.laid_out_field(&format!("{module}.bounds"));
        let b: Vec<u32> = field.split(',').filter_map(|n| n.parse().ok()).collect();
        assert_eq!(b.len(), 4, "bounds {field:?}");
        let mut pointer = session.pointer();
        pointer.move_to(b[0] + b[2] / 2, b[1] + b[3] / 2);
        std::thread::sleep(Duration::from_millis(300));
        pointer
    }

    /// Starts the bar by `command`, which sets RINGBAR_TEST_HOOK=`hook` (for a bar on
    /// another compositor than a [`Session`]'s); its output goes to `log`.
    pub fn spawn(mut command: Command, log: PathBuf, hook: PathBuf) -> RunningBar {
        let file = fs::File::create(&log).expect("log");
        let child = command
            .stdout(file.try_clone().expect("dup"))
            .stderr(file)
            .spawn()
            .expect("start ringbar");
        RunningBar {
            child,
            log_seen: std::cell::Cell::new(0),
            log,
            hook,
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Asks the bar to reload its config, as a user does (SIGHUP).
    pub fn send_reload(&self) {
        let status = Command::new("kill")
            .args(["-HUP", &self.pid().to_string()])
            .status()
            .expect("kill");
        assert!(status.success(), "the bar is alive");
    }

    pub fn hook_dir(&self) -> &Path {
        &self.hook
    }

    pub fn log_text(&self) -> String {
        fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Waits for `needle` in the log after the previous match: successive calls see
    /// successive lines, so the same text can be waited for again.
    pub fn wait_for_log(&self, needle: &str) {
        let started = Instant::now();
        loop {
            let seen = self.log_seen.get();
            if let Some(at) = self.log_text().get(seen..).and_then(|t| t.find(needle)) {
                self.log_seen.set(seen + at + needle.len());
                return;
            }
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "timed out waiting for `{needle}` in the bar's log:\n{}",
                self.log_text()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The bars' widget state as the test hook last wrote it: one map per bar.
    pub fn bars(&self) -> Vec<std::collections::HashMap<String, String>> {
        let text = fs::read_to_string(self.hook.join("bars")).unwrap_or_default();
        text.lines()
            .map(|line| {
                line.split('\t')
                    .filter_map(|field| field.split_once('='))
                    .map(|(k, v)| (k.to_owned(), v.to_owned()))
                    .collect()
            })
            .collect()
    }

    /// The middle of button `index` of `module` on the first bar, from its
    /// `MODULE.buttons` field ("x,y,w,h;…"), once the bar has laid it out (GTK's first
    /// allocation of a new button is 1×1 at its corner: a click there hits its neighbour).
    pub fn button_center(&self, module: &str, index: usize) -> (u32, u32) {
        let rect = || -> Option<Vec<u32>> {
            let buttons = self.laid_out_field(&format!("{module}.buttons"));
            let rect: Vec<u32> = buttons
                .split(';')
                .nth(index)?
                .split(',')
                .map(|n| n.parse().ok())
                .collect::<Option<_>>()?;
            (rect.len() == 4 && rect[2] > 1 && rect[3] > 1).then_some(rect)
        };
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(r) = rect() {
                return (r[0] + r[2] / 2, r[1] + r[3] / 2);
            }
            assert!(
                std::time::Instant::now() < deadline,
                "no button {index} of {module}: {:?}",
                self.field(&format!("{module}.buttons"))
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// A field of the first bar's geometry (`NAME.bounds`, `NAME.buttons`) once GTK has
    /// laid out what was last rendered: until the bar's next frame, it is where the
    /// previous text was.
    pub fn laid_out_field(&self, key: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let bar = self.bars().into_iter().next().unwrap_or_default();
            if bar.get("laid-out").is_some_and(|v| v == "true") {
                return bar.get(key).cloned().unwrap_or_default();
            }
            assert!(
                Instant::now() < deadline,
                "the bar's layout of {key} never came: {bar:?}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// One field of the first bar's state (empty while there is none).
    pub fn field(&self, key: &str) -> String {
        self.bars()
            .first()
            .and_then(|b| b.get(key).cloned())
            .unwrap_or_default()
    }

    /// How many times the modules following `source` were rendered (`Event(Media)`,
    /// `Compositor`), as the test hook counts them.
    pub fn renders(&self, source: &str) -> u64 {
        let text = fs::read_to_string(self.hook.join("renders")).unwrap_or_default();
        text.lines()
            .filter_map(|line| line.rsplit_once(' '))
            .find(|(kind, _)| *kind == source)
            .and_then(|(_, count)| count.parse().ok())
            .unwrap_or(0)
    }

    pub fn tooltip_markup(&self) -> String {
        fs::read_to_string(self.hook.join("tooltip.markup")).unwrap_or_default()
    }

    /// The history graphs of the tooltip last filled (`HistoryGraphs::describe`).
    pub fn tooltip_graphs(&self) -> String {
        fs::read_to_string(self.hook.join("tooltip.graphs")).unwrap_or_default()
    }

    pub fn tooltip_text(&self) -> String {
        fs::read_to_string(self.hook.join("tooltip.text")).unwrap_or_default()
    }

    /// `/proc/PID/status` of the bar itself (setpriv execs, so the child is ringbar).
    pub fn status(&self) -> String {
        fs::read_to_string(format!("/proc/{}/status", self.pid())).unwrap_or_default()
    }

    pub fn try_wait(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().expect("try_wait")
    }

    pub fn wait_exit(&mut self, timeout: Duration) -> ExitStatus {
        let started = Instant::now();
        loop {
            if let Some(status) = self.try_wait() {
                return status;
            }
            assert!(
                started.elapsed() < timeout,
                "ringbar still runs after {timeout:?}; its log:\n{}",
                self.log_text()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for RunningBar {
    fn drop(&mut self) {
        self.stop();
    }
}
