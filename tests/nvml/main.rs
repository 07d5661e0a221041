//! NVIDIA GPUs through the real NVML loader against a stand-in libnvidia-ml.so.1, built
//! here with `cc` from `fake_libnvidia_ml.c` (this machine has no NVIDIA GPU): the device
//! readings, the per-process lists (merged, grown when they outgrow their buffers, left out
//! when a query fails), zero allocations in warm ticks, and the bar's JSON naming the
//! processes NVML lists.

#[path = "../common/mod.rs"]
mod common;

use std::ffi::{c_int, c_uint};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::alloc::{allocations, CountingAllocator};
use ringbar::model::{GpuReading, Value};
use ringbar::sensors::nvidia::{self, Nvidia, NvidiaProcess, Nvml, LIBRARY};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

const MIB: u64 = 1 << 20;

/// Builds the stand-in library as `dir/libnvidia-ml.so.1`.
fn build_fake_nvml(dir: &Path) -> PathBuf {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/nvml/fake_libnvidia_ml.c");
    let library = dir.join(LIBRARY);
    let status = Command::new("cc")
        .args(["-shared", "-fPIC", "-O1", "-Wall", "-Werror", "-o"])
        .arg(&library)
        .arg(&source)
        .status()
        .expect("run cc (the test packages install gcc)");
    assert!(status.success(), "cc failed on {}", source.display());
    library
}

/// The stand-in's test controls, in the same loaded copy NVML's loader opened.
struct Controls(libloading::Library);

impl Controls {
    fn open(library: &Path) -> Controls {
        // SAFETY: the stand-in has no initialisers; it is already loaded by NVML's loader.
        Controls(unsafe { libloading::Library::new(library) }.expect("open the stand-in"))
    }

    /// Calls the control `name` (NUL-terminated, so looking it up allocates nothing), a C
    /// function taking `argument`.
    fn call<T>(&self, name: &[u8], argument: T) {
        // SAFETY: every control named below is `void name(T)` in fake_libnvidia_ml.c.
        unsafe {
            let control = self
                .0
                .get::<unsafe extern "C" fn(T)>(name)
                .expect("a control of the stand-in");
            control(argument);
        }
    }

    fn set_pids(&self, pids: &[u32]) {
        let (pids, count) = (pids.as_ptr(), pids.len() as c_uint);
        // SAFETY: `count` readable entries at `pids`, which the stand-in copies.
        let set: libloading::Symbol<unsafe extern "C" fn(*const c_uint, c_uint)> =
            unsafe { self.0.get(b"fake_nvml_set_pids\0") }.expect("fake_nvml_set_pids");
        // SAFETY: as above.
        unsafe { set(pids, count) }
    }

    fn set_busy(&self, busy: bool) {
        self.call(b"fake_nvml_set_busy\0", c_int::from(busy));
    }

    fn start_during_next_query(&self, count: u32) {
        self.call::<c_uint>(b"fake_nvml_start_during_next_query\0", count);
    }
}

fn processes(nvml: &Nvml, index: u32, seen: &mut u64) -> Vec<NvidiaProcess> {
    let mut out = Vec::new();
    nvml.processes(index, seen, &mut out);
    out.sort_by_key(|p| p.pid);
    out
}

fn process(pid: u32, memory_mib: Option<u64>, busy: Option<u32>) -> NvidiaProcess {
    NvidiaProcess {
        pid,
        memory_bytes: memory_mib.map(|m| m * MIB),
        busy_percent: busy,
    }
}

#[test]
fn nvml_devices_and_their_processes_through_the_real_loader() {
    let dir = tempfile::tempdir().expect("tempdir");
    let library = build_fake_nvml(dir.path());
    let nvml = Nvml::load_from(library.as_os_str()).expect("NVML starts on the stand-in");
    let controls = Controls::open(&library);

    let found = nvidia::discover(&nvml);
    assert_eq!(found.len(), 2);
    let (gpu, index) = &found[0];
    assert_eq!((gpu.card.as_str(), *index), ("nvidia0", 0));
    assert_eq!(gpu.model, "NVIDIA GeForce RTX 4060");
    assert!(gpu.is_named("0000:01:00.0"), "{}", gpu.pci_slot);
    assert_eq!(
        (found[1].0.model.as_str(), found[1].0.pci_slot.as_str()),
        ("", "")
    );

    let mut reading = GpuReading::default();
    nvidia::read(&nvml, 0, &mut reading);
    assert_eq!(reading.busy_percent, Value::Known(83.0));
    assert_eq!(reading.vram_used, Value::Known(3072 * MIB));
    assert_eq!(reading.vram_total, Value::Known(8192 * MIB));
    assert_eq!(reading.celsius, Value::Known(71.0));
    assert_eq!(reading.mhz, Value::Known(1905.0));
    assert_eq!(reading.max_mhz, Value::Known(2460.0));
    nvidia::read(&nvml, 1, &mut reading);
    assert_eq!(reading.busy_percent, Value::Failed, "the lost GPU");

    // Both lists merged per process; the busiest engine of each; no memory figure kept
    // as none.
    controls.set_pids(&[100, 101, 102, 103]);
    let mut seen = 0;
    let busy = [
        process(100, Some(256), Some(10)),
        process(101, Some(512), Some(77)),
        process(102, None, Some(30)),
        process(103, Some(1024), Some(40)),
    ];
    assert_eq!(processes(&nvml, 0, &mut seen), busy);
    assert_eq!(seen, 1_000_000, "moved on to the latest sample");

    // No utilisation samples since the last (NOT_FOUND): the memory still shows.
    controls.set_busy(false);
    let idle = busy.map(|p| NvidiaProcess {
        busy_percent: None,
        ..p
    });
    assert_eq!(processes(&nvml, 0, &mut seen), idle);
    assert_eq!(seen, 1_000_000);
    controls.set_busy(true);
    assert_eq!(processes(&nvml, 0, &mut seen), busy);
    assert_eq!(seen, 2_000_000);

    // Forty processes, and five more start between NVML's count and its fill: the
    // buffers grow until the whole list fits.
    let many: Vec<u32> = (1000..1040).collect();
    controls.set_pids(&many);
    controls.start_during_next_query(5);
    let listed = processes(&nvml, 0, &mut seen);
    assert_eq!(listed.len(), 45, "{listed:?}");
    assert!(listed.iter().all(|p| p.busy_percent.is_some()));

    let mut lost_seen = 0;
    assert!(
        processes(&nvml, 1, &mut lost_seen).is_empty(),
        "the lost GPU"
    );
    assert_eq!(lost_seen, 0);

    // Warm ticks, the GPU going idle and busy and the list shrinking and growing within
    // what it had: nothing allocated.
    let mut out = Vec::with_capacity(64);
    let mut tick = |t: u32| {
        controls.set_busy(!t.is_multiple_of(7));
        controls.set_pids(&many[..20 + (t % 20) as usize]);
        for index in 0..2 {
            nvml.processes(index, &mut seen, &mut out);
            nvidia::read(&nvml, index, &mut reading);
        }
    };
    (0..5).for_each(&mut tick);
    let before = allocations();
    (5..505).for_each(&mut tick);
    assert_eq!(
        allocations() - before,
        0,
        "allocations in 500 warm NVML ticks"
    );
}

#[test]
fn the_bar_names_the_processes_nvml_lists() {
    common::require_root();
    let dir = tempfile::tempdir().expect("tempdir");
    build_fake_nvml(dir.path());
    let subjects = common::Subjects::new();
    let game = common::Subject::spawn(&subjects.program("rb-nvml-game", "/bin/sleep"), &["60"]);
    let trainer = common::Subject::spawn(&subjects.program("rb-nvml-train", "/bin/sleep"), &["60"]);
    // Listed by NVML, but no such process: not shown.
    let pids = format!("{},{},4194000", game.pid(), trainer.pid());

    let out = Command::new(env!("CARGO_BIN_EXE_ringbar"))
        .args(["--once", "--json", "--interval-ms", "300"])
        .env("LD_LIBRARY_PATH", dir.path())
        .env("FAKE_NVML_PIDS", &pids)
        .output()
        .expect("run ringbar");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    let gpus = doc["gpus"].as_array().expect("gpus");
    let nvidia0 = gpus
        .iter()
        .find(|g| g["card"] == "nvidia0")
        .unwrap_or_else(|| panic!("no nvidia0 in {stdout}"));
    assert_eq!(nvidia0["driver"], "nvidia");
    assert_eq!(nvidia0["model"], "NVIDIA GeForce RTX 4060");
    assert_eq!(nvidia0["busy_percent"], 83.0);
    let listed = nvidia0["processes"].as_array().expect("processes");
    let row = |pid: u32| {
        listed
            .iter()
            .find(|p| p["pid"] == pid)
            .unwrap_or_else(|| panic!("pid {pid} not in {listed:?}"))
    };
    assert_eq!(row(game.pid())["name"], "rb-nvml-game");
    assert_eq!(row(game.pid())["memory_bytes"], 256 * MIB);
    assert_eq!(row(trainer.pid())["name"], "rb-nvml-train");
    assert_eq!(row(trainer.pid())["memory_bytes"], 512 * MIB);
    assert_eq!(row(trainer.pid())["busy_percent"], 77.0);
    assert_eq!(listed.len(), 2, "only processes that exist: {listed:?}");
    let lost = gpus
        .iter()
        .find(|g| g["card"] == "nvidia1")
        .expect("nvidia1");
    assert!(lost["busy_percent"].is_null(), "the lost GPU: {lost}");
}

/// NVML is loaded only while a listed module shows the GPUs: a bar with a clock and
/// workspaces maps no libnvidia-ml; a reload that lists `gpu` loads it, and the module
/// shows the stand-in's GPU; a reload without it unloads it again.
#[test]
fn nvml_is_loaded_only_while_a_listed_module_shows_the_gpus() {
    use common::session::{Compositor, Session};
    let _serial = common::serial();
    common::require_root();
    let dir = tempfile::tempdir().expect("tempdir");
    build_fake_nvml(dir.path());
    let nvml_mapped = |pid: u32| {
        (common::mapped_objects(pid).iter()).any(|name| name.starts_with("libnvidia-ml"))
    };
    let session = Session::start(Compositor::Sway);
    let minimal = "modules_left = [\"workspaces\"]\nmodules_center = [\"clock\"]\n\
                   modules_right = []\n";
    session.write_config_file("config.toml", minimal);
    // The bar runs as the test user, without file capabilities: the loader would ignore
    // LD_LIBRARY_PATH in a program that has them.
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let libraries = dir.path().to_str().expect("a UTF-8 path");
    let bar = session.start_bar_without_capabilities_with(&[("LD_LIBRARY_PATH", libraries)]);
    let wait = std::time::Duration::from_secs(20);
    common::wait_for("the clock", wait, || !bar.field("clock").is_empty());
    assert!(
        !nvml_mapped(bar.pid()),
        "{:?}",
        common::mapped_objects(bar.pid())
    );

    let reload = |config: &str| {
        session.write_config_file("config.toml", config);
        bar.send_reload();
    };
    reload("modules_left = [\"workspaces\"]\nmodules_center = [\"clock\"]\nmodules_right = [\"gpu\"]\n");
    common::wait_for("the stand-in's GPU", wait, || {
        bar.field("gpu").starts_with("GPU 83%")
    });
    assert!(
        nvml_mapped(bar.pid()),
        "{:?}",
        common::mapped_objects(bar.pid())
    );

    reload(minimal);
    common::wait_for("the module gone", wait, || bar.field("gpu").is_empty());
    common::wait_for("NVML unloaded", wait, || !nvml_mapped(bar.pid()));
}
