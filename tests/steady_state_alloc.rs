//! Steady-state ticks allocate nothing on the heap: the model, the sensors, the history,
//! the real probe through the sampler, and every module's text and tooltip, ticked many
//! times under an allocator that counts.

mod common;

use common::alloc::{allocations, CountingAllocator};
use ringbar::config::{self, Config};
use ringbar::model::{Memory, Model, TaskRecord};
use ringbar::sample::Sample;
use ringbar::sensors::{fixtures, Roots, Sensors, Wanted};
use ringbar::text::Markup;

/// What the bar does with a sample: every module's text, and its tooltip (shown); the
/// tooltips end up one after the other in `tooltip`.
fn render(config: &Config, sample: &Sample, text: &mut String, tooltip: &mut String) {
    tooltip.clear();
    for module in config.modules.all() {
        text.clear();
        module.text(&common::input(sample), text);
        module.tooltip(&mut Markup(tooltip), &common::input(sample));
    }
}

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

#[test]
fn the_model_allocates_nothing_once_warm() {
    let mut tasks: Vec<TaskRecord> = (0..500u32)
        .map(|i| TaskRecord {
            tgid: 100 + i / 4,
            pid: 100 + i,
            leader_start_ns: u64::from(i / 4),
            ..Default::default()
        })
        .collect();
    let mut model = Model::new(4096, 2);
    let mut tick = |t: u64, tasks: &mut Vec<TaskRecord>| {
        for task in tasks.iter_mut() {
            task.cpu_ns += 1_000_000;
            task.write_bytes += 4096;
            task.rss_pages = 10;
        }
        model.update(t * 100_000_000, tasks, &[], None, None);
        model.rank(t.is_multiple_of(2));
    };
    for t in 1..=5 {
        tick(t, &mut tasks);
    }
    let before = allocations();
    for t in 6..=1000 {
        tick(t, &mut tasks);
    }
    assert_eq!(
        allocations() - before,
        0,
        "allocations in 995 warm model ticks"
    );
}

#[test]
fn the_history_and_its_sparklines_allocate_nothing_once_warm() {
    let mut tasks: Vec<TaskRecord> = (0..200u32)
        .map(|i| TaskRecord {
            tgid: 100 + i / 2,
            pid: 100 + i,
            leader_start_ns: u64::from(i / 2),
            comm: *b"worker\0\0\0\0\0\0\0\0\0\0",
            ..Default::default()
        })
        .collect();
    let memory = Memory {
        total: 8 << 30,
        available: 5 << 30,
        ..Memory::default()
    };
    let mut model = Model::new(4096, 2);
    let mut sample = Sample::default();
    // The graph modules' sparklines besides the report's.
    let config = config::parse(
        "modules_left = [\"cpu\", \"memory\", \"cpu_graph\", \"memory_graph\"]\n\
         modules_center = []\nmodules_right = []\n",
        "config.toml".as_ref(),
    )
    .expect("valid");
    let (mut text, mut tooltip) = (String::with_capacity(256), String::with_capacity(16384));
    // Two seconds a tick: the ring of ten minutes wraps three times in 1000 ticks.
    let mut tick = |t: u64, tasks: &mut Vec<TaskRecord>| {
        for (i, task) in tasks.iter_mut().enumerate() {
            task.cpu_ns += (t % 7 + i as u64 % 3) * 10_000_000;
            task.write_bytes += 4096 * (t % 5);
            task.rss_pages = 10 + t % 11;
        }
        model.update(t * 2_000_000_000, tasks, &[], Some(memory), None);
        model.rank(false);
        sample.processes = *model.snapshot();
        sample.unix_ms = 1_795_442_400_000 + t * 2000;
        sample.record_history();
        render(&config, &sample, &mut text, &mut tooltip);
    };
    for t in 1..=5 {
        tick(t, &mut tasks);
    }
    let before = allocations();
    for t in 6..=1000 {
        tick(t, &mut tasks);
    }
    assert_eq!(
        allocations() - before,
        0,
        "allocations in 995 warm ticks recording the history and rendering it"
    );
    assert!(
        tooltip.contains("last 10 min · peak ") && tooltip.contains(", worker\n"),
        "{tooltip}"
    );
    assert!(
        text.starts_with("MEM ") && text.chars().any(|c| ('▁'..='█').contains(&c)),
        "{text}"
    );
}

#[test]
fn sensors_and_their_text_allocate_nothing_once_warm() {
    let dir = tempfile::tempdir().expect("tempdir");
    let sys = dir.path().join("sys");
    // An Intel laptop with an AMD card besides: RC6 deltas, throttle reasons, amdgpu
    // hwmon, platform profile; pressure and vmstat from this machine's /proc.
    fixtures::intel_i915_laptop(&sys);
    fixtures::amd_desktop_gpu(&sys);
    fixtures::battery(
        &sys,
        "BAT0",
        "Discharging",
        30_000_000,
        60_000_000,
        12_000_000,
    );
    fixtures::charge_battery(&sys, "BAT1", "Charging", 2_000_000, 4_000_000, 500_000);
    let roots = Roots {
        sys,
        proc: "/proc".into(),
    };
    let mut sample = Sample::default();
    let second = 1_000_000_000;
    let mut sensors = Sensors::discover(
        roots.clone(),
        config::Sensors::default(),
        None,
        4096,
        0,
        &mut sample.hardware,
    );
    assert_eq!(sample.hardware.gpus.len(), 2);
    // Every module shown, the pressure module too, and each core's share.
    let config = config::parse(
        "modules_left = [\"cpu\", \"memory\", \"gpu\", \"pressure\", \"cpu#cores\", \"battery\"]\n\
         [pressure]\nwarning = 0\n\
         [\"cpu#cores\"]\nformat = \"{usage0}% {usage1:.1f} {icon0}{icon1}\"\nformat-icons = [\"a\", \"b\"]\n",
        "config.toml".as_ref(),
    )
    .expect("valid");
    // The modules' own readings (pressure, batteries), as the sampler takes them.
    let mut readers = ringbar::modules::readers_of(config.modules.all(), &roots);
    sample.readings = ringbar::sample::readings::Readings::of(&readers);
    let (mut text, mut tooltip) = (String::with_capacity(256), String::with_capacity(16384));
    let mut before = 0;
    for t in 1..=505 {
        if t == 6 {
            assert!(tooltip.contains("card0 i915") && tooltip.contains("card1 amdgpu"));
            assert!(text.starts_with("BAT "), "{text}");
            assert!(tooltip.contains("BAT1"), "{tooltip}");
            before = allocations();
        }
        // A monitor tooltip opens and closes: the system readings come and go.
        let wanted = Wanted {
            tooltip: t % 100 < 50,
        };
        sensors.read(t * second / 10, &mut sample.hardware, wanted);
        sample
            .readings
            .read(&mut readers, t * second / 10, wanted.tooltip);
        render(&config, &sample, &mut text, &mut tooltip);
    }
    assert_eq!(
        allocations() - before,
        0,
        "allocations in 500 warm sensor ticks with module texts and tooltips"
    );
}

#[test]
fn real_sampling_allocates_nothing_once_warm() {
    common::require_root();
    let mut sampler = common::probe_sampler();
    let config = Config::default();
    let (mut text, mut tooltip) = (String::with_capacity(256), String::with_capacity(16384));
    for _ in 0..10 {
        render(&config, sampler.take(), &mut text, &mut tooltip);
    }
    // Meanwhile processes start and end all the time, as on a busy machine (a build,
    // a shell loop): their departures and lookups must not allocate either.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let churn = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let _ = std::process::Command::new("true").status();
            }
        })
    };
    // The tables grow, once, when the machine has more tasks or processes than ever
    // before (other work on a busy machine starts them): those samples are excused.
    let size = |s: &ringbar::sample::Sample| (s.processes.tasks, s.processes.processes);
    let mut high = size(sampler.sample());
    let (mut counted, mut excused) = (0, 0);
    for i in 0..500u32 {
        let before = allocations();
        let sample = sampler.take();
        let now = size(sample);
        render(&config, sample, &mut text, &mut tooltip);
        sampler.set_kernel_threads(i.is_multiple_of(2));
        let made = allocations() - before;
        if now.0 > high.0 || now.1 > high.1 {
            excused += 1;
        } else {
            counted += made;
        }
        high = (high.0.max(now.0), high.1.max(now.1));
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    churn.join().expect("the churn thread");
    eprintln!("{excused} of 500 samples had more tasks or processes than ever before");
    assert!(
        excused < 50,
        "the machine kept growing: {excused} samples excused"
    );
    assert_eq!(
        counted, 0,
        "allocations in warm samples with module texts and tooltips"
    );
    assert!(tooltip.contains("<b>CPU</b>"), "{tooltip}");
    assert!(
        tooltip.contains(" · peak "),
        "the history's line: {tooltip}"
    );
}

/// The main loop's own ticks, once the probe's short samples moved there: applying no
/// request, sampling, arming the tick's timer and telling whether the notices changed.
#[test]
fn sampling_on_the_main_loop_allocates_nothing_once_warm() {
    common::require_root();
    let sampler = common::probe_sampler();
    std::thread::spawn(move || {
        // Capabilities belong to threads: this one drops them, as the bar's main thread.
        ringbar::records::privileges::drop_all().expect("drop the capabilities");
        let controls = ringbar::model::controls::Controls {
            interval_ms: 100,
            kernel_threads: false,
        };
        let mut monitor =
            ringbar::app::monitor::Monitor::start(sampler, controls, None).expect("start");
        let next = |monitor: &mut ringbar::app::monitor::Monitor| {
            let asked = std::time::Instant::now();
            while !monitor.receive().any() {
                assert!(asked.elapsed().as_secs() < 10, "no sample");
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
        };
        // Until the sampling thread handed the sampler to the main loop and ended.
        let sampling_thread = || {
            common::thread_names(std::process::id())
                .iter()
                .any(|name| name == ringbar::app::worker::THREAD_NAME)
        };
        while sampling_thread() {
            next(&mut monitor);
        }
        for _ in 0..10 {
            next(&mut monitor);
        }
        // As above: a sample with more tasks or processes than ever grows the tables once.
        let size = |s: &Sample| (s.processes.tasks, s.processes.processes);
        let mut high = size(monitor.sample());
        let (mut counted, mut excused) = (0, 0);
        for _ in 0..50 {
            let before = allocations();
            next(&mut monitor);
            let made = allocations() - before;
            let now = size(monitor.sample());
            if now.0 > high.0 || now.1 > high.1 {
                excused += 1;
            } else {
                counted += made;
            }
            high = (high.0.max(now.0), high.1.max(now.1));
        }
        assert!(
            excused < 10,
            "the machine kept growing: {excused} ticks excused"
        );
        assert_eq!(counted, 0, "allocations in warm main-loop ticks");
        assert!(!sampling_thread(), "still on the main loop");
    })
    .join()
    .expect("the test thread");
}

/// The disk module's reader on this machine's /proc/diskstats and statvfs of `/`, the copy
/// of its reading into the main loop's sample, and the module's text and tooltip.
#[test]
fn the_disk_reading_and_its_texts_allocate_nothing_once_warm() {
    let config = config::parse(
        "modules_left = []\nmodules_center = []\nmodules_right = [\"disk\"]\n\
         [disk]\nformat = \"{path} {percentage_used}% {free} r {read} w {write}\"\n",
        "config.toml".as_ref(),
    )
    .expect("valid");
    let mut reader = config.modules.right[0]
        .reader(&Roots::system())
        .expect("a reader");
    let mut taken = Sample {
        readings: ringbar::sample::readings::Readings::of(std::slice::from_ref(&reader)),
        ..Sample::default()
    };
    let mut shown = Sample::default();
    let (mut text, mut tooltip) = (String::with_capacity(256), String::with_capacity(4096));
    let mut tick = |t: u64| {
        let readers = std::slice::from_mut(&mut reader);
        taken.readings.read(readers, t * 100_000_000, true);
        shown.clone_from(&taken);
        render(&config, &shown, &mut text, &mut tooltip);
    };
    for t in 1..=5 {
        tick(t);
    }
    let before = allocations();
    for t in 6..=1000 {
        tick(t);
    }
    assert_eq!(
        allocations() - before,
        0,
        "allocations in 995 warm disk ticks, copies and renders"
    );
    assert!(text.starts_with("/ ") && text.contains("% "), "{text}");
    assert!(tooltip.starts_with("<b>Disk</b>  read "), "{tooltip}");
}

/// The network module's reader on this machine's /proc/net/dev, with `lo` posing as Wi-Fi
/// in a fake sysfs so that each tick also asks nl80211 (which, on a kernel without
/// cfg80211, fails once and is not asked again), and the copy of its reading.
#[test]
fn the_network_reading_allocates_nothing_once_warm() {
    use ringbar::modules::network::Traffic;
    let config = config::parse(
        "modules_left = []\nmodules_center = []\nmodules_right = [\"network\"]\n",
        "config.toml".as_ref(),
    )
    .expect("valid");
    let sys = tempfile::tempdir().expect("tempdir");
    let lo = sys.path().join("class/net/lo");
    std::fs::create_dir_all(&lo).expect("mkdir");
    std::fs::write(lo.join("uevent"), "DEVTYPE=wlan\nINTERFACE=lo\n").expect("uevent");
    std::fs::write(lo.join("ifindex"), "1\n").expect("ifindex");
    let roots = Roots {
        sys: sys.path().to_owned(),
        proc: "/proc".into(),
    };
    let mut reader = config.modules.right[0].reader(&roots).expect("a reader");
    let mut taken = Sample {
        readings: ringbar::sample::readings::Readings::of(std::slice::from_ref(&reader)),
        ..Sample::default()
    };
    let mut shown = Sample::default();
    let mut tick = |t: u64| {
        let readers = std::slice::from_mut(&mut reader);
        taken.readings.read(readers, t * 100_000_000, true);
        shown.clone_from(&taken);
    };
    for t in 1..=5 {
        tick(t);
    }
    let before = allocations();
    for t in 6..=1000 {
        tick(t);
    }
    assert_eq!(
        allocations() - before,
        0,
        "allocations in 995 warm network ticks and copies"
    );
    let traffic = shown
        .readings
        .get::<Traffic>("network")
        .expect("the reading");
    let lo = traffic.of("lo").expect("lo in /proc/net/dev");
    // Without cfg80211: no Wi-Fi view; with it, index 1 is no Wi-Fi interface.
    let no_network = lo.wifi.as_ref().is_none_or(|wifi| !wifi.associated());
    assert!(lo.down.is_some() && no_network, "{lo:?}");
}

/// The hand-over of each sample from the sampling thread to the main loop: the copy into
/// the slot, the eventfd's wake-up, the glib source that watches it and the swap into the
/// main loop's sample, counted on both threads.
#[test]
fn handing_samples_over_to_the_main_loop_allocates_nothing_once_warm() {
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::Arc;

    use gtk4::glib;
    use ringbar::app::worker::{Handover, Watch};
    use ringbar::model::{Gpu, GpuDriver};
    use ringbar::modules::battery::{Batteries, Battery};
    use ringbar::sample::Notice;

    const WARM: u64 = 10;
    const ROUNDS: u64 = 400;
    // Everything in a sample that owns a buffer: GPUs, batteries, strings, notices.
    let mut sample = Sample::default();
    sample.hardware.gpus = vec![
        Gpu::new("card0", GpuDriver::I915, "0000:00:02.0"),
        Gpu::new("card1", GpuDriver::Amdgpu, "0000:03:00.0"),
    ];
    let batteries = Batteries(
        vec![Battery {
            name: "BAT0".into(),
            ..Battery::default()
        }],
        Some(true),
    );
    sample.readings.insert("battery", Box::new(batteries));
    sample.hardware.power_profile = "balanced".into();
    sample.hardware.power_profile_choices = "low-power balanced performance".into();
    sample.notices = vec![Notice::new("config", "line 3: unknown key `colour`")];
    sample.processes.interval_ns = 2_000_000_000;
    let handover = Arc::new(Handover::new(&sample).expect("eventfd"));
    // Which sample the main loop has taken: the sampling thread waits for it, so that
    // every round is handed over (none is overwritten) and counted.
    let taken = Arc::new(AtomicU64::new(0));

    let sampling = std::thread::spawn({
        let (handover, taken) = (handover.clone(), taken.clone());
        move || {
            let mut before = 0;
            for round in 1..=ROUNDS {
                if round == WARM + 1 {
                    before = allocations();
                }
                // Two seconds a round: the history ring wraps.
                sample.unix_ms = 1_795_442_400_000 + round * 2000;
                sample.hardware.gpus[round as usize % 2].model.clear();
                sample.hardware.gpus[round as usize % 2]
                    .model
                    .push_str("Arc A380");
                sample.record_history();
                handover.publish(&sample);
                while taken.load(Ordering::Acquire) != sample.unix_ms {
                    std::thread::yield_now();
                }
            }
            allocations() - before
        }
    });

    let context = glib::MainContext::default();
    let _owner = context.acquire().expect("the default main context");
    let latest = std::rc::Rc::new(std::cell::RefCell::new(Sample::default()));
    let received = std::rc::Rc::new(std::cell::Cell::new(0u64));
    let _watch = Watch::new(handover.clone(), None, {
        let (handover, latest, received, taken) = (
            handover.clone(),
            latest.clone(),
            received.clone(),
            taken.clone(),
        );
        move || {
            let mut latest = latest.borrow_mut();
            if handover.take(&mut latest).any() {
                received.set(received.get() + 1);
                taken.store(latest.unix_ms, Ordering::Release);
            }
            glib::ControlFlow::Continue
        }
    });
    let mut before = None;
    while received.get() < ROUNDS {
        if received.get() == WARM && before.is_none() {
            before = Some(allocations());
        }
        context.iteration(true);
    }
    let on_main = allocations() - before.expect("warmed up");
    let on_sampling = sampling.join().expect("the sampling thread");
    assert_eq!(received.get(), ROUNDS, "every sample handed over");
    let latest = latest.borrow();
    assert_eq!(latest.unix_ms, 1_795_442_400_000 + ROUNDS * 2000);
    assert_eq!(latest.hardware.gpus.len(), 2);
    assert_eq!(latest.notices, sample_notices());
    // The ring came along whole: each sample covers two seconds, 400 of them wrap it.
    assert_eq!(latest.history.filled(), 600, "{:?}", latest.history);
    assert_eq!(
        on_sampling, 0,
        "allocations on the sampling thread once warm"
    );
    assert_eq!(on_main, 0, "allocations on the main loop once warm");
}

fn sample_notices() -> Vec<ringbar::sample::Notice> {
    vec![ringbar::sample::Notice::new(
        "config",
        "line 3: unknown key `colour`",
    )]
}
