//! Debian's Waybar (GTK3) run as the test user in a [`Session`], for ringbar's `--waybar`
//! mode: its modules' scripts are its children, and its bar is read back with OCR.
//!
//! Waybar 0.9.17 logs a bare `basic_string::_M_create` line at start in headless sway: its
//! xdg-output description listener expects `identifier (name)`, and "Headless output 1"
//! has no parenthesis, so it throws, catches and prints. The bar works all the same.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Child;
use std::time::{Duration, Instant};

use super::ocr;
use super::session::{Image, Session};
use super::stat_fields;

const WAIT: Duration = Duration::from_secs(20);

impl Session {
    /// Writes the config and style into the user's `~/.config/waybar/` and starts
    /// `waybar -c CONFIG -s STYLE` as the user, its output in a log.
    pub fn start_waybar(&self, config_json: &str, style_css: &str) -> RunningWaybar {
        self.start_waybar_with_mounts(config_json, style_css, &[])
    }

    /// [`Session::start_waybar`] in a mount namespace of its own where each `(source,
    /// target)` directory is bind-mounted first (a fake sysfs class over the real one),
    /// with the session's `SWAYSOCK` for Waybar's sway modules.
    pub fn start_waybar_with_mounts(
        &self,
        config_json: &str,
        style_css: &str,
        mounts: &[(&Path, &Path)],
    ) -> RunningWaybar {
        self.start_waybar_with(config_json, style_css, mounts, &[])
    }

    /// [`Session::start_waybar_with_mounts`] with `extra_env` (`NAME`, `VALUE`) too: a
    /// private system bus's address.
    pub fn start_waybar_with(
        &self,
        config_json: &str,
        style_css: &str,
        mounts: &[(&Path, &Path)],
        extra_env: &[(&str, &str)],
    ) -> RunningWaybar {
        let config = self.write_home_file(".config/waybar/config.jsonc", config_json);
        let style = self.write_home_file(".config/waybar/style.css", style_css);
        let runs = fs::read_dir(self.path()).map_or(0, |d| d.count());
        let log = self.path().join(format!("waybar-{runs}.log"));
        let file = fs::File::create(&log).expect("log");
        // The session's WAYLAND_DISPLAY and XDG_RUNTIME_DIR suffice (no D-Bus needed);
        // these two keep GTK3 off X11 and off the accessibility bus.
        let swaysock = self.swaysock();
        let mut env = vec![
            ("GDK_BACKEND", "wayland"),
            ("NO_AT_BRIDGE", "1"),
            ("SWAYSOCK", swaysock.as_str()),
        ];
        env.extend_from_slice(extra_env);
        let mut waybar = self.as_user_with("waybar", &env);
        waybar.arg("-c").arg(&config).arg("-s").arg(&style);
        let child = super::running_bar::with_mounts(mounts, &waybar)
            .stdout(file.try_clone().expect("dup"))
            .stderr(file)
            .spawn()
            .expect("start waybar (apt install waybar)");
        RunningWaybar { child, log }
    }
}

pub struct RunningWaybar {
    child: Child,
    pub log: PathBuf,
}

impl RunningWaybar {
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Waybar's log, with its modules' stderr (their scripts inherit it).
    pub fn log_text(&self) -> String {
        fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Panics with the log if Waybar exited or a module's continuous script died.
    fn assert_running(&mut self) {
        let exited = self.child.try_wait().expect("try_wait");
        let log = self.log_text();
        assert!(
            exited.is_none() && !log.contains("stopped unexpectedly"),
            "Waybar or its script stopped ({exited:?}); Waybar's log:\n{log}"
        );
    }

    pub fn wait_for_log(&mut self, needle: &str) {
        let started = Instant::now();
        while !self.log_text().contains(needle) {
            self.assert_running();
            assert!(
                started.elapsed() < WAIT,
                "timed out waiting for `{needle}` in Waybar's log:\n{}",
                self.log_text()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Screenshots the region `x, y, w, h` and reads it with OCR until `check` accepts the
    /// text; returns that text and screenshot.
    pub fn read_screen_until(
        &mut self,
        session: &Session,
        (x, y, w, h): (u32, u32, u32, u32),
        check: impl Fn(&str) -> bool,
    ) -> (String, Image) {
        let started = Instant::now();
        loop {
            let shot = session.screenshot(x, y, w, h);
            let text = ocr::read_text(&shot);
            if check(&text) {
                return (text, shot);
            }
            self.assert_running();
            assert!(
                started.elapsed() < WAIT,
                "timed out: OCR of Waybar's bar last read `{text}`; Waybar's log:\n{}",
                self.log_text()
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// Waybar's processes below it: its modules' scripts and what they started.
    pub fn descendants(&self) -> Vec<u32> {
        let parents: Vec<(u32, u32)> = fs::read_dir("/proc")
            .expect("/proc")
            .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
            .filter_map(|pid| Some((pid, stat_fields(pid)?.get(1)?.parse().ok()?)))
            .collect();
        let mut found = vec![self.pid()];
        let mut at = 0;
        while at < found.len() {
            let parent = found[at];
            found.extend(parents.iter().filter(|p| p.1 == parent).map(|p| p.0));
            at += 1;
        }
        found.remove(0);
        found
    }

    /// Kills Waybar and its scripts, which would outlive it (Waybar killed by a signal
    /// leaves them running).
    pub fn stop(&mut self) {
        for pid in self.descendants() {
            // SAFETY: kill has no memory-safety preconditions.
            unsafe { libc::kill(pid as i32, libc::SIGKILL) };
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for RunningWaybar {
    fn drop(&mut self) {
        self.stop();
    }
}
