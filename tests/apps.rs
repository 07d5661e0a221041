//! Apps, not processes, on real cgroups: app-like scopes made on this machine's cgroup v2
//! hierarchy, real processes moved in through `cgroup.procs`, read by the real probe.

mod common;

use std::fs;
use std::io::Write;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use ringbar::model::app::{AppNames, GroupBy};
use ringbar::records::cgroup::{cgroup2_mount, CgroupNames};
use ringbar::records::collector::Collector;

/// A slice of scopes under the v2 root, removed (processes killed first) when dropped.
struct Scopes {
    slice: PathBuf,
    children: Vec<Child>,
}

impl Scopes {
    fn new() -> Scopes {
        let info = fs::read_to_string("/proc/self/mountinfo").expect("mountinfo");
        let root = cgroup2_mount(&info).expect("a cgroup2 mount");
        let slice = root.join(format!("ringbar-test-{}.slice", std::process::id()));
        fs::create_dir(&slice).expect("mkdir the test slice (as root)");
        Scopes {
            slice,
            children: Vec::new(),
        }
    }

    fn scope(&self, name: &str) -> PathBuf {
        let dir = self.slice.join(name);
        fs::create_dir(&dir).expect("mkdir a scope");
        dir
    }

    /// Starts `program` with `args` and moves it into `scope`.
    fn spawn_in(&mut self, scope: &Path, program: &Path, args: &[&str]) -> u32 {
        let child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .spawn()
            .expect("spawn");
        let pid = child.id();
        fs::write(scope.join("cgroup.procs"), pid.to_string()).expect("move into the scope");
        self.children.push(child);
        pid
    }
}

impl Drop for Scopes {
    fn drop(&mut self) {
        for child in &mut self.children {
            // SAFETY: kill(2) on our own child's process group, which setsid gave it.
            unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
            let _ = child.kill();
            let _ = child.wait();
        }
        std::thread::sleep(Duration::from_millis(200));
        if let Ok(dirs) = fs::read_dir(&self.slice) {
            for dir in dirs.flatten().filter(|d| d.path().is_dir()) {
                let _ = fs::remove_dir(dir.path());
            }
        }
        let _ = fs::remove_dir(&self.slice);
    }
}

fn ino(dir: &Path) -> u64 {
    fs::metadata(dir).expect("stat").ino()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn processes_group_by_their_app_scope_and_fall_back_to_their_name() {
    common::require_root();
    let _serial = common::serial();
    let subjects = common::Subjects::new();
    let mut scopes = Scopes::new();
    let terminal = scopes.scope("app-sway-rbterm-4242.scope");
    let quiet = scopes.scope("app-rbquiet@1.service");
    let plain = scopes.scope("plain");

    // A "terminal" that, once in its scope, starts two busy children: they stay there.
    let setsid = Path::new("/usr/bin/setsid");
    let shell = subjects.program("rb-term", "/bin/sh");
    let term = scopes.spawn_in(
        &terminal,
        setsid,
        &[
            shell.to_str().expect("utf-8"),
            "-c",
            "read go; (while :; do :; done) & (while :; do :; done) & wait",
        ],
    );
    let quiet_pid = scopes.spawn_in(&quiet, setsid, &["/bin/sleep", "1000"]);
    let lone = subjects.program("rb-lone", "/bin/sh");
    let lone_pid = scopes.spawn_in(
        &plain,
        setsid,
        &[lone.to_str().expect("utf-8"), "-c", "while :; do :; done"],
    );
    writeln!(scopes.children[0].stdin.as_mut().expect("stdin"), "go").expect("start the children");
    std::thread::sleep(Duration::from_millis(300));

    let mut collector = Collector::with_probe(false).expect("the BPF probe loads");
    collector.set_group_by(Some(GroupBy::App));
    let mut seen_fallback = false;
    let mut seen_app = false;
    for _ in 0..20 {
        collector.sample().expect("sample");
        std::thread::sleep(Duration::from_millis(200));
        collector.sample().expect("sample");
        let snap = collector.snapshot();
        assert_eq!(snap.group_by, GroupBy::App);

        // The probe reports each process's cgroup v2 id: its directory's inode.
        let procs = collector.model().processes();
        let cgroup_of = |pid: u32| procs.iter().find(|p| p.tgid == pid).map(|p| p.cgroup_id);
        assert_eq!(cgroup_of(term), Some(ino(&terminal)));
        assert_eq!(cgroup_of(quiet_pid), Some(ino(&quiet)));
        assert_eq!(cgroup_of(lone_pid), Some(ino(&plain)));

        for row in snap.apps.cpu.rows() {
            let name = text(row.name());
            if name == "rbterm" {
                assert_eq!(row.count, 3, "the terminal and its two children");
                assert!(row.app);
                seen_app = true;
            }
            if name == "rb-lone" {
                assert!(!row.app, "outside any app: its process name");
                assert_eq!((row.count, row.tgid), (1, lone_pid));
                seen_fallback = true;
            }
        }
        // The process lists are unchanged: no row there is an app's.
        assert!(snap.top_cpu.rows().iter().all(|r| !r.app));
        if seen_app && seen_fallback {
            break;
        }
    }
    assert!(seen_app, "the terminal's app row among the top by CPU");
    assert!(
        seen_fallback,
        "the lone process's own row among the top by CPU"
    );
}

#[test]
fn names_resolve_from_the_tree_and_removed_cgroups_leave_the_cache() {
    common::require_root();
    let _serial = common::serial();
    let mut scopes = Scopes::new();
    let app = scopes.scope("app-flatpak-org.example.RbMaps-77.scope");
    let nested = app.join("worker");
    fs::create_dir(&nested).expect("mkdir nested");
    let service = scopes.scope("rb\\x2dsync.service");
    let plain = scopes.scope("plain");
    let pid = scopes.spawn_in(&plain, Path::new("/bin/sleep"), &["1000"]);
    let _ = pid;

    let info = fs::read_to_string("/proc/self/mountinfo").expect("mountinfo");
    let mut names = CgroupNames::at(cgroup2_mount(&info), 2);
    assert!(names.has_apps(), "app-… scopes exist now");
    let app_id = ino(&app);
    let found = names.app(app_id).expect("the scope is an app");
    assert_eq!(
        (found.id, text(found.label.as_bytes())),
        (app_id, "RbMaps".into())
    );
    // A cgroup inside an app's is the app's.
    let inner = names.app(ino(&nested)).expect("nested");
    assert_eq!(inner.id, app_id);
    let svc = names.app(ino(&service)).expect("a service is an app");
    assert_eq!(text(svc.label.as_bytes()), "rb-sync");
    assert_eq!(names.app(ino(&plain)), None);

    // Created after the first walk: a new id makes it walk again.
    let late = scopes.scope("app-rblate@9.scope");
    names.next_sample();
    let late_app = names.app(ino(&late)).expect("found by a new walk");
    assert_eq!(text(late_app.label.as_bytes()), "rblate");

    // Removed: the id is no longer used, and after the grace it is gone from the cache.
    let nested_id = ino(&nested);
    fs::remove_dir(&nested).expect("rmdir");
    assert!(names.is_cached(nested_id));
    for _ in 0..3 {
        names.next_sample();
        names.app(app_id);
    }
    assert!(
        !names.is_cached(nested_id),
        "a removed cgroup leaves the cache"
    );
    assert!(names.is_cached(app_id), "one still in use stays");
}
