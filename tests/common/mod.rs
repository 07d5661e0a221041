//! Real processes as test subjects, and ground truth read from /proc.

#![allow(dead_code)] // each test binary uses a different part

#[cfg(not(feature = "test-support"))]
compile_error!(
    "the integration tests need the bar's test hook and the sensor fixtures: \
     cargo test --features test-support (scripts/dev.sh test passes it)"
);

pub mod alloc;
pub mod bus;
pub mod crowd;
pub mod fake_sys;
pub mod gamemode;
pub mod hyprland;
pub mod ipc;
pub mod mpd;
pub mod mpv;
pub mod netns;
pub mod niri;
pub mod ocr;
pub mod pidns;
pub mod running_bar;
pub mod screen;
pub mod service;
pub mod session;
pub mod sid_compositor;
pub mod sound;
pub mod sound_plugin;
pub mod stalls;
pub mod storm;
pub mod system_bus;
pub mod systemd;
pub mod systemd_pid1;
pub mod upower;
pub mod waybar;

pub use sound_plugin::copy_bar;

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The accuracy tests measure the whole machine: one at a time.
pub fn serial() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Runs the RCU callbacks waiting now (`rcu_barrier()`, through rcutree's
/// `do_rcu_barrier` parameter, root only), so the tasks already reaped are freed and their
/// last exit reports sent; a kernel without the parameter is left to its own pace.
pub fn flush_rcu_callbacks() {
    let _ = std::fs::write("/sys/module/rcutree/parameters/do_rcu_barrier", "1");
}

/// The names of the threads of process `pid` (`/proc/PID/task/*/comm`).
pub fn thread_names(pid: u32) -> Vec<String> {
    std::fs::read_dir(format!("/proc/{pid}/task"))
        .expect("the process's tasks")
        .flatten()
        .filter_map(|task| std::fs::read_to_string(task.path().join("comm")).ok())
        .map(|comm| comm.trim().to_owned())
        .collect()
}

pub fn require_root() {
    // SAFETY: geteuid has no preconditions.
    let euid = unsafe { libc::geteuid() };
    assert_eq!(
        euid, 0,
        "these tests load the BPF probe: run them as root (CI does)"
    );
}

/// A directory of symlinks to system programs under distinctive names: the kernel names a
/// process after the file it executed, so `rb-spin` is easy to find among the others.
pub struct Subjects {
    dir: tempfile::TempDir,
}

impl Subjects {
    pub fn new() -> Self {
        Subjects {
            dir: tempfile::tempdir().expect("tempdir"),
        }
    }

    /// Path of a program named `name` that runs `target`.
    pub fn program(&self, name: &str, target: &str) -> PathBuf {
        let link = self.dir.path().join(name);
        if !link.exists() {
            symlink(target, &link).expect("symlink");
        }
        link
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }
}

/// A child process killed and reaped when dropped.
pub struct Subject {
    pub child: Child,
    stdout: Option<BufReader<ChildStdout>>,
}

impl Subject {
    pub fn spawn(program: &Path, args: &[&str]) -> Subject {
        let child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("spawning {}: {e}", program.display()));
        Subject {
            child,
            stdout: None,
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn stdin(&mut self) -> &mut ChildStdin {
        self.child.stdin.as_mut().expect("piped stdin")
    }

    pub fn send_line(&mut self, line: &str) {
        writeln!(self.stdin(), "{line}").expect("write to subject");
        self.stdin().flush().expect("flush");
    }

    /// Blocks until the subject prints a line.
    pub fn read_line(&mut self) -> String {
        if self.stdout.is_none() {
            self.stdout = Some(BufReader::new(
                self.child.stdout.take().expect("piped stdout"),
            ));
        }
        let mut line = String::new();
        self.stdout
            .as_mut()
            .expect("stdout")
            .read_line(&mut line)
            .expect("read from subject");
        line.trim_end().to_owned()
    }
}

impl Drop for Subject {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Polls `check` every 10 ms until it holds; panics with `what` after `timeout`.
pub fn wait_for(what: &str, timeout: Duration, mut check: impl FnMut() -> bool) {
    let deadline = Instant::now() + timeout;
    while !check() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

pub fn read_proc(pid: u32, file: &str) -> Option<String> {
    fs::read_to_string(format!("/proc/{pid}/{file}")).ok()
}

pub fn comm_of(pid: u32) -> Option<String> {
    read_proc(pid, "comm").map(|s| s.trim_end().to_owned())
}

/// The state letter and flags of /proc/PID/stat (fields 3 and 9).
pub fn stat_fields(pid: u32) -> Option<Vec<String>> {
    let stat = read_proc(pid, "stat")?;
    // The name is in parentheses and may contain spaces: split after the last ')'.
    let rest = &stat[stat.rfind(')')? + 2..];
    Some(rest.split_whitespace().map(str::to_owned).collect())
}

pub fn state_of(pid: u32) -> Option<char> {
    stat_fields(pid)?.first()?.chars().next()
}

/// Resident bytes from /proc/PID/statm (exact on current kernels).
pub fn statm_rss_bytes(pid: u32) -> u64 {
    let statm = read_proc(pid, "statm").expect("statm");
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .expect("rss field")
        .parse()
        .expect("number");
    pages * page_size()
}

pub fn page_size() -> u64 {
    // SAFETY: sysconf has no preconditions.
    unsafe { libc::sysconf(libc::_SC_PAGESIZE) as u64 }
}

/// A field of /proc/PID/io, e.g. "write_bytes".
pub fn proc_io(pid: u32, field: &str) -> u64 {
    let io = read_proc(pid, "io").expect("io");
    io.lines()
        .find_map(|l| {
            l.strip_prefix(field)?
                .strip_prefix(": ")?
                .trim()
                .parse()
                .ok()
        })
        .unwrap_or_else(|| panic!("no {field} in /proc/{pid}/io"))
}

/// Busy and total jiffies over all CPUs from /proc/stat, as ringbar counts them: steal
/// (time the hypervisor gave to others; on this VM it reached 9 % of both CPUs) in the
/// total, not busy, since no task runs in it.
pub fn cpu_jiffies() -> (u64, u64) {
    let stat = fs::read_to_string("/proc/stat").expect("/proc/stat");
    let line = stat.lines().next().expect("cpu line");
    let v: Vec<u64> = line
        .split_whitespace()
        .skip(1)
        .map(|x| x.parse().expect("number"))
        .collect();
    // user nice system idle iowait irq softirq steal (guest is already in user)
    let not_busy = v[3] + v[4] + v[7];
    let total: u64 = v[..8].iter().sum();
    (total - not_busy, total)
}

pub fn busy_percent(before: (u64, u64), after: (u64, u64)) -> f64 {
    (after.0 - before.0) as f64 / (after.1 - before.1) as f64 * 100.0
}

/// A kernel `comm` as text.
pub fn name(comm: &[u8; 16]) -> String {
    let len = comm.iter().position(|&b| b == 0).unwrap_or(16);
    String::from_utf8_lossy(&comm[..len]).into_owned()
}

/// The sampler the bar runs, on the real probe, at 100 ms with the machine's sensors.
pub fn probe_sampler() -> ringbar::app::sampler::Sampler {
    let collector =
        ringbar::records::collector::Collector::with_probe(false).expect("the BPF probe loads");
    let controls = ringbar::model::controls::Controls {
        interval_ms: 100,
        kernel_threads: false,
    };
    ringbar::app::sampler::Sampler::new(
        collector,
        None,
        &ringbar::config::Sensors::default(),
        controls,
        Vec::new(),
    )
}

/// What modules render `sample` from in a test; the sample-driven ones never read the
/// clock.
pub fn input(sample: &ringbar::sample::Sample) -> ringbar::modules::Input<'_> {
    ringbar::modules::Input {
        sample,
        clock: &ringbar::modules::FixedClock { unix_ms: 0 },
        compositor: &ringbar::modules::NO_COMPOSITOR,
        output: "",
        scripts: &ringbar::modules::NO_SCRIPTS,
        events: &ringbar::modules::NO_EVENTS,
    }
}

/// How much of a core a process used from `start` until `percent` is called, from its
/// runtime in /proc/PID/schedstat (ns): the truth to hold a sampled CPU figure to on a
/// machine where other work competes with the process.
pub struct CpuShare {
    pid: u32,
    runtime_ns: u64,
    started: Instant,
}

impl CpuShare {
    pub fn start(pid: u32) -> CpuShare {
        CpuShare {
            pid,
            runtime_ns: runtime_ns(pid),
            started: Instant::now(),
        }
    }

    pub fn percent(&self) -> f64 {
        let used = runtime_ns(self.pid) - self.runtime_ns;
        used as f64 * 100.0 / self.started.elapsed().as_nanos() as f64
    }
}

fn runtime_ns(pid: u32) -> u64 {
    read_proc(pid, "schedstat")
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .expect("schedstat")
}

/// Linux 6.7 or newer, where the kernel has the open-coded task iterator the probe's
/// walker needs.
pub fn kernel_has_the_walker() -> bool {
    let release = std::fs::read_to_string("/proc/sys/kernel/osrelease").expect("osrelease");
    let mut numbers = release.split(|c: char| !c.is_ascii_digit());
    let mut next = || {
        numbers
            .next()
            .and_then(|n| n.parse::<u32>().ok())
            .unwrap_or(0)
    };
    (next(), next()) >= (6, 7)
}

/// VmRSS of a running process, in KiB.
pub fn rss_kib(pid: u32) -> u64 {
    status_kib(pid, "VmRSS")
}

/// A field of /proc/PID/status given in kB (`VmRSS`, `RssShmem`), in KiB.
pub fn status_kib(pid: u32, field: &str) -> u64 {
    fs::read_to_string(format!("/proc/{pid}/status"))
        .expect("the process is alive")
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("{field} in /proc/{pid}/status"))
}

/// The file names of the shared objects (`.so` files) process `pid` has mapped, sorted,
/// each once.
pub fn mapped_objects(pid: u32) -> Vec<String> {
    let maps = fs::read_to_string(format!("/proc/{pid}/maps")).unwrap_or_default();
    let mut names: Vec<String> = (maps.lines())
        .filter_map(|line| line.split_whitespace().nth(5))
        .filter(|path| path.contains(".so"))
        .filter_map(|path| path.rsplit('/').next())
        .map(str::to_owned)
        .collect();
    names.sort();
    names.dedup();
    names
}
