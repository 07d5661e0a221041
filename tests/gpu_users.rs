//! GPU users on fixture roots (this machine has no GPU): a fake sysfs with an i915 and an
//! amdgpu card, a fake procfs whose processes hold DRM fds with fdinfo in the kernel's
//! documented formats. Two samples make shares; then a PID is reused, a process's
//! fdinfo vanishes, and a process /proc denies is skipped; and warm ticks allocate nothing.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use common::alloc::{allocations, CountingAllocator};
use ringbar::config;
use ringbar::model::gpu_users::Owner;
use ringbar::model::history::Metric;
use ringbar::model::value::Value;
use ringbar::model::Hardware;
use ringbar::render::gpu;
use ringbar::sample::Sample;
use ringbar::sensors::fixtures::drm::{self, render_fd, Fd};
use ringbar::sensors::{fixtures, Roots, Sensors};
use ringbar::text::{Markup, Plain};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

const SECOND: u64 = 1_000_000_000;

fn owner(pid: u32, start_ns: u64, name: &str) -> (Owner, bool) {
    let mut comm = [0; 16];
    comm[..name.len()].copy_from_slice(name.as_bytes());
    let owner = Owner {
        pid,
        start_ns,
        comm,
    };
    (owner, false)
}

fn tooltip(hw: &Hardware) -> String {
    let mut sample = Sample::default();
    sample.hardware.clone_from(hw);
    let mut out = String::new();
    gpu::write(&mut Plain(&mut out), &sample);
    out
}

/// Gives up the capabilities that let root past file modes, on this thread only, so that
/// a directory with mode 000 is denied as another user's /proc entries are.
fn read_as_an_ordinary_user() {
    use caps::{CapSet, Capability};
    for cap in [
        Capability::CAP_DAC_OVERRIDE,
        Capability::CAP_DAC_READ_SEARCH,
    ] {
        caps::drop(None, CapSet::Effective, cap).expect("drop a capability");
    }
}

fn game(proc: &Path, render_ns: u64, gfx_ns: u64) {
    drm::process(
        proc,
        100,
        &[
            Fd {
                fd: 0,
                target: "/dev/pts/0",
                fdinfo: drm::plain_fdinfo(),
            },
            render_fd(5, 128, drm::i915(1, render_ns, 0, 512 * 1024)),
            // The same client through a dup'd fd: counted once.
            render_fd(9, 128, drm::i915(1, render_ns, 0, 512 * 1024)),
            render_fd(6, 129, drm::amdgpu(2, gfx_ns, 1024 * 1024)),
        ],
    );
}

#[test]
fn gpu_users_from_fixture_roots() {
    std::thread::spawn(run).join().expect("the test thread");
}

fn run() {
    read_as_an_ordinary_user();
    let dir = tempfile::tempdir().expect("tempdir");
    let roots = Roots {
        sys: dir.path().join("sys"),
        proc: dir.path().join("proc"),
    };
    fixtures::intel_i915_laptop(&roots.sys);
    fixtures::amd_desktop_gpu(&roots.sys);
    let proc = roots.proc.clone();
    game(&proc, 0, 0);
    // Its child, holding the parent's i915 client (after fork): not counted again.
    drm::process(
        &proc,
        101,
        &[render_fd(5, 128, drm::i915(1, 0, 0, 512 * 1024))],
    );
    drm::process(&proc, 102, &[render_fd(4, 128, drm::i915(3, 0, 0, 4096))]);
    drm::process(&proc, 103, &[render_fd(4, 128, drm::i915(4, 0, 0, 4096))]);
    drm::process(&proc, 104, &[]);
    std::fs::create_dir_all(proc.join("104/fd")).expect("mkdir");
    std::fs::set_permissions(proc.join("103/fd"), PermissionsExt::from_mode(0o000)).expect("chmod");
    let denied = std::fs::read_dir(proc.join("103/fd"))
        .map(|_| ())
        .map_err(|e| e.kind());
    assert_eq!(
        denied,
        Err(std::io::ErrorKind::PermissionDenied),
        "the fixture denies 103"
    );

    let mut hw = Hardware::default();
    let mut sensors = Sensors::discover(roots, config::Sensors::default(), None, 4096, 0, &mut hw);
    assert_eq!(hw.gpus.len(), 2);
    let processes = [
        owner(100, 7, "game"),
        owner(101, 8, "game-child"),
        owner(102, 9, "compositor"),
        owner(103, 10, "other-user"),
        owner(104, 11, "shell"),
    ];
    sensors.read_users(SECOND, processes.iter().copied(), &mut hw);
    assert_eq!(sensors.user_scans(), 5, "every process looked at once");
    assert_eq!(
        tooltip(&hw),
        "GPU\n\
         \x20 card0 i915  –\n\
         \x20       –   512M  game\n\
         \x20       –   4.0M  compositor\n\
         \x20 card1 amdgpu  –\n\
         \x20       –   1.0G  game\n"
    );

    // 2 s later: the game kept render busy 1 s (50 %), gfx 0.5 s (25 %); the compositor
    // 0.2 s (10 %).
    game(&proc, SECOND, SECOND / 2);
    drm::process(
        &proc,
        101,
        &[render_fd(5, 128, drm::i915(1, SECOND, 0, 512 * 1024))],
    );
    drm::process(
        &proc,
        102,
        &[render_fd(4, 128, drm::i915(3, SECOND / 5, 0, 4096))],
    );
    sensors.read_users(3 * SECOND, processes.iter().copied(), &mut hw);
    assert_eq!(
        tooltip(&hw),
        "GPU\n\
         \x20 card0 i915  –\n\
         \x20   50.0%   512M  game\n\
         \x20   10.0%   4.0M  compositor\n\
         \x20 card1 amdgpu  –\n\
         \x20   25.0%   1.0G  game\n"
    );
    let mut sample = Sample::default();
    sample.hardware.clone_from(&hw);
    let json = gpu::json(&sample);
    assert_eq!(
        json[0]["processes"],
        serde_json::json!([
            {"pid": 100, "name": "game", "busy_percent": 50.0, "memory_bytes": 512u64 << 20},
            {"pid": 102, "name": "compositor", "busy_percent": 10.0, "memory_bytes": 4u64 << 20},
        ])
    );
    assert_eq!(json[1]["processes"][0]["busy_percent"], 25.0);
    assert_eq!(sensors.user_scans(), 5, "no process looked at again");

    // The history's GPU section names the busiest user of the label's GPU as its
    // culprit (card0, the busier one: 70 % against 20 %).
    sample.hardware.gpus[0].reading.busy_percent = Value::Known(70.0);
    sample.hardware.gpus[1].reading.busy_percent = Value::Known(20.0);
    sample.unix_ms = 1_795_444_094_000;
    sample.processes.interval_ns = 2 * SECOND;
    sample.record_history();
    let peak = sample.history.peak(Metric::Gpu).expect("a GPU peak");
    assert_eq!(peak.value, 70.0);
    assert_eq!(
        (peak.culprit.pid, peak.culprit.name.as_bytes()),
        (100, &b"game"[..])
    );

    // PID 100 is reused by a new process with a new client whose counters are already
    // high: no share on its first read (not 100 % inherited from the old counters); the
    // compositor's fdinfo is gone (it closed the GPU).
    std::fs::remove_dir_all(proc.join("100")).expect("rm");
    drm::process(
        &proc,
        100,
        &[render_fd(3, 128, drm::i915(9, 50 * SECOND, 0, 1024))],
    );
    std::fs::remove_file(proc.join("102/fdinfo/4")).expect("rm");
    let processes = [
        owner(100, 12, "reused"),
        owner(101, 8, "game-child"),
        owner(102, 9, "compositor"),
        owner(103, 10, "other-user"),
        owner(104, 11, "shell"),
    ];
    sensors.read_users(4 * SECOND, processes.iter().copied(), &mut hw);
    assert_eq!(
        sensors.user_scans(),
        6,
        "only the new process 100 looked at"
    );
    assert_eq!(
        tooltip(&hw),
        "GPU\n\
         \x20 card0 i915  –\n\
         \x20    0.0%   512M  game-child\n\
         \x20       –   1.0M  reused\n\
         \x20 card1 amdgpu  –\n",
        "client 1 goes on through the child (its parent is gone); the new 100 has no share yet"
    );
    sensors.read_users(5 * SECOND, processes.iter().copied(), &mut hw);
    let reused = hw.gpus[0].processes.rows().iter().find(|p| p.pid == 100);
    assert_eq!(
        reused.map(|p| (p.start_ns, p.busy_percent)),
        Some((12, Some(0.0)))
    );
    assert_eq!(sensors.user_scans(), 6);
}

/// Who uses the GPUs, from DRM fdinfo on fixture roots: the fd scans (the first ones and
/// the rescans every minute), the fdinfo reads, the accounting, the real names, the GPU
/// tooltip and the copy of the sample.
#[test]
fn gpu_users_allocate_nothing_once_warm() {
    let dir = tempfile::tempdir().expect("tempdir");
    let roots = Roots {
        sys: dir.path().join("sys"),
        proc: dir.path().join("proc"),
    };
    fixtures::intel_i915_laptop(&roots.sys);
    fixtures::amd_desktop_gpu(&roots.sys);
    let owners: Vec<(Owner, bool)> = (0..40u32)
        .map(|i| {
            let pid = 1000 + i;
            let fds = if i % 4 == 0 {
                vec![
                    drm::render_fd(3, 128, drm::i915(u64::from(i), 0, 0, 1024)),
                    drm::render_fd(4, 129, drm::amdgpu(u64::from(i), 0, 4096)),
                ]
            } else {
                vec![]
            };
            drm::process(&roots.proc, pid, &fds);
            std::fs::create_dir_all(roots.proc.join(format!("{pid}/fd"))).expect("mkdir");
            let comm = *b"gpu-user\0\0\0\0\0\0\0\0";
            (
                Owner {
                    pid,
                    start_ns: u64::from(i),
                    comm,
                },
                false,
            )
        })
        .collect();
    let mut sample = Sample::default();
    let mut sensors = Sensors::discover(
        roots,
        config::Sensors::default(),
        None,
        4096,
        0,
        &mut sample.hardware,
    );
    let mut shown = Sample::default();
    let mut tooltip = String::with_capacity(16384);
    let second = 1_000_000_000;
    let mut before = 0;
    // A tick a second for 200 s: every process is looked at again three times.
    for t in 1..=205 {
        if t == 6 {
            before = allocations();
        }
        // No `sensors.read`: its rediscovery each minute is not a steady tick.
        sensors.read_users(t * second, owners.iter().copied(), &mut sample.hardware);
        shown.clone_from(&sample);
        tooltip.clear();
        gpu::write(&mut Markup(&mut tooltip), &shown);
    }
    assert_eq!(
        allocations() - before,
        0,
        "allocations in 200 warm GPU-user ticks"
    );
    assert_eq!(
        shown.hardware.gpus[0].processes.rows().len(),
        5,
        "{tooltip}"
    );
    assert!(tooltip.contains("gpu-user\n"), "{tooltip}");
    assert!(
        sensors.user_scans() >= 40 + 3 * 40,
        "rescans: {}",
        sensors.user_scans()
    );
}
