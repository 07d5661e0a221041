//! Golden tests: what the bar's labels and tooltip say on each kind of machine, read
//! through the real sensor code from fake sysfs/procfs trees (and a fake NVML), including
//! a machine whose files disappear mid-run.

use std::io::Write;
use std::path::Path;
use std::sync::{Arc, Mutex};

use super::fixtures::{self, write};
use super::nvidia::tests::FakeNvidia;
use super::nvidia::Nvidia;
use super::{Roots, Sensors};
use crate::config;
use crate::model::{Hardware, Snapshot};
use crate::render::report;
use crate::sample::readings::Readings;
use crate::sample::Sample;
use crate::text::Markup;

const SECOND: u64 = 1_000_000_000;

/// Log lines captured from `tracing` while a test runs.
#[derive(Clone, Default)]
struct Log(Arc<Mutex<Vec<u8>>>);

impl Write for Log {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("log lock").extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Log {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().expect("log lock")).into_owned()
    }
}

fn logged<R>(f: impl FnOnce() -> R) -> (R, String) {
    let log = Log::default();
    let writer = log.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(move || writer.clone())
        .with_ansi(false)
        .without_time()
        .with_max_level(tracing::Level::INFO)
        .finish();
    let result = tracing::subscriber::with_default(subscriber, f);
    (result, log.text())
}

/// A procfs tree with pressure (memory stalled 23 % of the last 10 s) and vmstat.
fn busy_proc(proc: &Path) {
    write(
        proc,
        "pressure/cpu",
        "some avg10=1.50 avg60=0.80 avg300=0.20 total=123\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
    );
    write(
        proc,
        "pressure/memory",
        "some avg10=23.00 avg60=5.00 avg300=1.00 total=456\nfull avg10=4.00 avg60=1.00 avg300=0.00 total=78\n",
    );
    write(
        proc,
        "pressure/io",
        "some avg10=3.10 avg60=1.00 avg300=0.50 total=9\nfull avg10=1.00 avg60=0.00 avg300=0.00 total=1\n",
    );
    write(
        proc,
        "vmstat",
        "nr_free_pages 4096\npswpin 1000\npswpout 2000\n",
    );
}

struct Machine {
    _dir: tempfile::TempDir,
    roots: Roots,
}

impl Machine {
    fn new(build: impl FnOnce(&Path, &Path)) -> Machine {
        let dir = tempfile::tempdir().expect("tempdir");
        let roots = Roots {
            sys: dir.path().join("sys"),
            proc: dir.path().join("proc"),
        };
        std::fs::create_dir_all(&roots.sys).expect("mkdir");
        std::fs::create_dir_all(&roots.proc).expect("mkdir");
        build(&roots.sys, &roots.proc);
        Machine { _dir: dir, roots }
    }

    fn sensors(
        &self,
        config: config::Sensors,
        nvidia: Option<Box<dyn Nvidia>>,
        hw: &mut Hardware,
    ) -> Sensors {
        Sensors::discover(self.roots.clone(), config, nvidia, 4096, SECOND, hw)
    }

    /// What the bar shows: the CPU, GPU and pressure labels ("hidden" where hidden) and
    /// the tooltip, at 50 % CPU on 4 CPUs, with the modules' own readings (pressure)
    /// taken now.
    fn render(&self, hw: &Hardware) -> String {
        let config = config::parse(
            "modules_left = [\"cpu\", \"gpu\", \"pressure\"]\nmodules_center = []\nmodules_right = []\n",
            "c.toml".as_ref(),
        )
        .expect("valid");
        let mut readers = crate::modules::readers_of(config.modules.all(), &self.roots);
        let mut sample = Sample {
            processes: Snapshot {
                interval_ns: SECOND,
                online_cpus: 4,
                cpu_busy_ns: 2 * SECOND,
                ..Snapshot::default()
            },
            hardware: hw.clone(),
            interval_ms: 2000,
            readings: Readings::of(&readers),
            ..Sample::default()
        };
        sample.readings.read(&mut readers, SECOND, true);
        let mut labels = Vec::new();
        for module in config.modules.all() {
            let mut text = String::new();
            let input = crate::modules::tests::input(&sample);
            match module.text(&input, &mut text) {
                Some(_) => labels.push(text),
                None => labels.push(format!("(no {} label)", module.name())),
            }
        }
        let mut out = labels.join(" | ");
        out.push_str("\n---\n");
        report::write(&mut Markup(&mut out), &sample);
        out
    }
}

#[test]
fn intel_laptop_with_i915() {
    let machine = Machine::new(|sys, proc| {
        fixtures::intel_i915_laptop(sys);
        busy_proc(proc);
    });
    let mut hw = Hardware::default();
    let mut sensors = machine.sensors(config::Sensors::default(), None, &mut hw);
    sensors.read(SECOND, &mut hw, super::Wanted::ALL);
    write(&machine.roots.sys, fixtures::I915_RC6, "120500\n");
    write(&machine.roots.sys, fixtures::I915_GT0_THROTTLE_PL1, "1\n");
    write(&machine.roots.proc, "vmstat", "pswpin 1000\npswpout 2512\n");
    sensors.read(3 * SECOND, &mut hw, super::Wanted::ALL);
    assert_eq!(
        machine.render(&hw),
        "CPU 50% 54°C 2.0GHz | GPU 25% | PSI mem 23%\n---\n\
         <b>CPU</b>  50.0% of 4 CPUs · per process, 100% = one core · 54.0°C · 2000 MHz avg, 3000 max of 4700\n\
         <b>Memory</b>  – · in 0B/s out 1.0M/s\n\
         <b>IO</b>  read 0B/s · write 0B/s\n\
         <b>GPU</b>\n\
         \x20 card0 i915  25.0% · 350 / 1300 MHz · <b>throttled</b> pl1\n\
         <b>Pressure</b>  cpu 1.5% · mem 23.0% full 4.0% · io 3.1% full 1.0%\n\
         <b>Power</b>  balanced (low-power balanced performance)\n\
         <small>sampled in 0 µs from the BPF probe · every 2000 ms · kernel threads excluded · by process</small>"
    );
}

#[test]
fn intel_desktop_with_xe() {
    let machine = Machine::new(|sys, _| fixtures::intel_xe(sys));
    let mut hw = Hardware::default();
    let mut sensors = machine.sensors(config::Sensors::default(), None, &mut hw);
    sensors.read(SECOND, &mut hw, super::Wanted::ALL);
    write(&machine.roots.sys, fixtures::XE_IDLE, "200400\n");
    sensors.read(2 * SECOND, &mut hw, super::Wanted::ALL);
    assert_eq!(
        machine.render(&hw),
        "CPU 50% 54°C 2.0GHz | GPU 60% 48°C | (no pressure label)\n---\n\
         <b>CPU</b>  50.0% of 4 CPUs · per process, 100% = one core · 54.0°C · 2000 MHz avg, 3000 max of 4700\n\
         <b>Memory</b>  –\n\
         <b>IO</b>  read 0B/s · write 0B/s\n\
         <b>GPU</b>\n\
         \x20 card0 xe  60.0% · 1950 / 2450 MHz · 48°C\n\
         <small>sampled in 0 µs from the BPF probe · every 2000 ms · kernel threads excluded · by process</small>"
    );
}

#[test]
fn amd_desktop_with_amdgpu_and_an_nvidia_card() {
    let machine = Machine::new(|sys, _| fixtures::amd_desktop(sys));
    let mut hw = Hardware::default();
    let mut sensors = machine.sensors(
        config::Sensors::default(),
        Some(Box::new(FakeNvidia)),
        &mut hw,
    );
    sensors.read(SECOND, &mut hw, super::Wanted::ALL);
    let expected_tooltip_gpus = "<b>GPU</b>\n\
         \x20 card1 amdgpu  37.0% · 1800 MHz · 61°C · VRAM 1.2G / 8.0G\n\
         \x20 nvidia0 nvidia NVIDIA GeForce RTX 3070  83.0% · 1905 / 2100 MHz · 71°C · VRAM 3.0G / 8.0G\n\
         \x20 nvidia1 nvidia  – · – / – MHz · –°C · VRAM – / –\n";
    assert_eq!(
        machine.render(&hw),
        format!(
            "CPU 50% 61°C | GPU 83% 71°C | (no pressure label)\n---\n\
             <b>CPU</b>  50.0% of 4 CPUs · per process, 100% = one core · 61.2°C\n\
             <b>Memory</b>  –\n\
             <b>IO</b>  read 0B/s · write 0B/s\n\
             {expected_tooltip_gpus}\
             <small>sampled in 0 µs from the BPF probe · every 2000 ms · kernel threads excluded · by process</small>"
        ),
        "the busiest GPU is on the label"
    );

    // The config can pin the label to a GPU by PCI address or card.
    let pinned = config::Sensors {
        gpu: Some("0000:03:00.0".to_owned()),
        ..config::Sensors::default()
    };
    let mut hw = Hardware::default();
    let mut sensors = machine.sensors(pinned, Some(Box::new(FakeNvidia)), &mut hw);
    sensors.read(SECOND, &mut hw, super::Wanted::ALL);
    assert!(machine
        .render(&hw)
        .starts_with("CPU 50% 61°C | GPU 37% 61°C |"));
    assert!(sensors.config_problems(&hw).is_empty());

    let typo = config::Sensors {
        gpu: Some("card7".to_owned()),
        cpu_temperature: Some(config::SensorName {
            hwmon: "k10temp".to_owned(),
            label: Some("Tccd9".to_owned()),
        }),
        ..config::Sensors::default()
    };
    let mut hw = Hardware::default();
    let sensors = machine.sensors(typo, None, &mut hw);
    assert_eq!(
        sensors.config_problems(&hw),
        [
            "sensors.cpu_temperature: no hwmon \"k10temp\" with label \"Tccd9\" here; using automatic discovery",
            "sensors.gpu: no GPU \"card7\" here; showing the busiest",
        ]
    );
}

/// A layout that shows no GPU reads none, names no problem with `[sensors] gpu`, and
/// holds no NVML; a reload that shows them loads it, and one that does not drops it.
#[test]
fn gpus_are_read_and_nvml_held_only_while_the_layout_shows_them() {
    let machine = Machine::new(|sys, _| fixtures::amd_desktop(sys));
    let unshown = config::Sensors {
        gpu: Some("card7".to_owned()),
        skip_gpus: true,
        ..config::Sensors::default()
    };
    let mut hw = Hardware::default();
    let mut sensors = machine.sensors(unshown.clone(), None, &mut hw);
    sensors.read(SECOND, &mut hw, super::Wanted::ALL);
    assert!(hw.gpus.is_empty());
    assert!(sensors.config_problems(&hw).is_empty());
    sensors.read(200 * SECOND, &mut hw, super::Wanted::ALL); // rediscovered: still none
    assert!(hw.gpus.is_empty());

    let shown = config::Sensors::default();
    let load = || Some(Box::new(FakeNvidia) as Box<dyn Nvidia>);
    sensors.reconfigure(shown.clone(), load, 2 * SECOND, &mut hw);
    let cards: Vec<&str> = hw.gpus.iter().map(|g| g.card.as_str()).collect();
    assert_eq!(cards, ["card1", "nvidia0", "nvidia1"]);
    // Still shown: the loaded NVML is kept, not loaded again.
    sensors.reconfigure(shown, || panic!("loaded again"), 3 * SECOND, &mut hw);
    assert_eq!(hw.gpus.len(), 3);

    sensors.reconfigure(unshown, || panic!("loaded unshown"), 4 * SECOND, &mut hw);
    assert!(hw.gpus.is_empty());
    assert!(sensors.nvidia.is_none(), "NVML dropped");
}

#[test]
fn a_machine_with_nothing_shows_a_clean_bar_and_logs_nothing() {
    let machine = Machine::new(|_, _| {});
    let (text, log) = logged(|| {
        let mut hw = Hardware::default();
        let mut sensors = machine.sensors(config::Sensors::default(), None, &mut hw);
        for tick in 1..=100 {
            sensors.read(tick * 10 * SECOND, &mut hw, super::Wanted::ALL);
        }
        machine.render(&hw)
    });
    assert_eq!(
        text,
        "CPU 50% | (no gpu label) | (no pressure label)\n---\n\
         <b>CPU</b>  50.0% of 4 CPUs · per process, 100% = one core\n\
         <b>Memory</b>  –\n\
         <b>IO</b>  read 0B/s · write 0B/s\n\
         <small>sampled in 0 µs from the BPF probe · every 2000 ms · kernel threads excluded · by process</small>"
    );
    assert_eq!(log, "", "nothing to say on a machine without sensors");
}

#[test]
fn files_that_vanish_show_dashes_log_once_and_are_rediscovered() {
    let machine = Machine::new(|sys, _| fixtures::amd_desktop(sys));
    let sys = machine.roots.sys.clone();
    let ((), log) = logged(|| {
        let mut hw = Hardware::default();
        let mut sensors = machine.sensors(config::Sensors::default(), None, &mut hw);
        sensors.read(SECOND, &mut hw, super::Wanted::ALL);
        assert!(machine
            .render(&hw)
            .starts_with("CPU 50% 61°C | GPU 37% 61°C |"));

        // The driver starts returning garbage, then nothing, for a few ticks.
        write(&sys, fixtures::AMD_BUSY, "garbage\n");
        write(&sys, "class/hwmon/hwmon2/temp1_input", "");
        for tick in 2..=4 {
            sensors.read(tick * SECOND / 2, &mut hw, super::Wanted::ALL);
            assert!(
                machine
                    .render(&hw)
                    .starts_with("CPU 50% –°C | GPU – 61°C |"),
                "{}",
                machine.render(&hw)
            );
        }

        // The card is unplugged: after the quicker failing-state rediscovery it is gone.
        std::fs::remove_dir_all(sys.join(fixtures::AMD_CARD)).expect("unplug");
        std::fs::remove_file(sys.join("class/drm/card1")).expect("unplug");
        sensors.read(7 * SECOND, &mut hw, super::Wanted::ALL);
        let text = machine.render(&hw);
        // The temperature that reads nothing is dropped too, until it reads again.
        assert!(text.starts_with("CPU 50% | (no gpu label) |"), "{text}");
        assert!(!text.contains("<b>GPU</b>"), "{text}");

        // The sensors come back (driver reloaded): found again by the slow timer.
        fixtures::amd_desktop_gpu(&sys);
        write(&sys, "class/hwmon/hwmon2/temp1_input", "62000\n");
        sensors.read(8 * SECOND, &mut hw, super::Wanted::ALL);
        assert!(machine
            .render(&hw)
            .starts_with("CPU 50% | (no gpu label) |"));
        sensors.read(68 * SECOND, &mut hw, super::Wanted::ALL);
        assert!(
            machine
                .render(&hw)
                .starts_with("CPU 50% 62°C | GPU 37% 61°C |"),
            "{}",
            machine.render(&hw)
        );
    });
    let complaints = |needle: &str| log.lines().filter(|l| l.contains(needle)).count();
    assert_eq!(complaints("gpu_busy_percent: unexpected value"), 1, "{log}");
    assert_eq!(complaints("temp1_input: unexpected value"), 1, "{log}");
    assert_eq!(complaints("GPU card1 amdgpu is gone"), 1, "{log}");
    assert_eq!(complaints("GPU card1 amdgpu at 0000:03:00.0"), 2, "{log}");
}

#[test]
fn a_file_that_fails_with_eio_shows_a_dash_and_is_logged_once() {
    let machine = Machine::new(|sys, _| fixtures::amd_desktop(sys));
    // Reading /proc/self/mem at offset 0 fails with EIO: a driver's error, for real.
    let busy = machine.roots.sys.join(fixtures::AMD_BUSY);
    std::fs::remove_file(&busy).expect("remove");
    std::os::unix::fs::symlink("/proc/self/mem", &busy).expect("symlink");
    let ((), log) = logged(|| {
        let mut hw = Hardware::default();
        let mut sensors = machine.sensors(config::Sensors::default(), None, &mut hw);
        for tick in 1..=4 {
            sensors.read(tick * SECOND, &mut hw, super::Wanted::ALL);
            assert!(
                machine.render(&hw).contains("| GPU – 61°C |"),
                "{}",
                machine.render(&hw)
            );
        }
    });
    let errors: Vec<&str> = log.lines().filter(|l| l.contains("cannot read")).collect();
    assert_eq!(errors.len(), 1, "{log}");
    assert!(errors[0].contains("Input/output error"), "{log}");
}
