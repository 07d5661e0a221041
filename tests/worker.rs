//! The sampling outside the bar: the sampling thread refuses to sample while it holds
//! capabilities, holds none when spawned after the drop, and hands samples over at once
//! when a setting changes; the probe's short samples move to the main loop, which then
//! samples at the interval and answers settings at once, with no sampling thread left.

mod common;

use std::time::{Duration, Instant};

use common::{require_root, serial};
use ringbar::app::monitor::Monitor;
use ringbar::app::sampler::Sampler;
use ringbar::app::worker::{Taken, THREAD_NAME};
use ringbar::config;
use ringbar::model::controls::{Controls, Request};
use ringbar::records::collector::Collector;

const CONTROLS: Controls = Controls {
    interval_ms: 2000,
    kernel_threads: false,
};

fn proc_sampler() -> Sampler {
    let collector = Collector::with_proc(false);
    Sampler::new(
        collector,
        None,
        &config::Sensors::default(),
        CONTROLS,
        Vec::new(),
    )
}

/// Waits for the next sample handed over; how long it took.
fn next_sample(monitor: &mut Monitor) -> Duration {
    let asked = Instant::now();
    while !monitor.receive().any() {
        assert!(asked.elapsed() < Duration::from_secs(10), "no sample");
        std::thread::sleep(Duration::from_millis(2));
    }
    asked.elapsed()
}

/// This process's sampling thread, if one runs.
fn sampling_thread() -> Option<std::path::PathBuf> {
    let tasks = std::fs::read_dir("/proc/self/task").expect("/proc/self/task");
    tasks
        .filter_map(Result::ok)
        .map(|task| task.path())
        .find(|dir| {
            std::fs::read_to_string(dir.join("comm")).is_ok_and(|c| c.trim() == THREAD_NAME)
        })
}

/// The sampling thread's `CapEff` line, found by its name.
fn sampling_thread_caps() -> String {
    let dir = sampling_thread().expect("the sampling thread");
    let status = std::fs::read_to_string(dir.join("status")).expect("status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("CapEff:"))
        .expect("CapEff")
        .trim()
        .to_owned()
}

#[test]
fn spawned_with_capabilities_the_sampling_thread_refuses_to_sample() {
    let _serial = serial();
    require_root();
    let refused = Monitor::start(proc_sampler(), CONTROLS, None).err();
    let message = refused.expect("a thread of root's holds capabilities: refused");
    assert!(message.contains("still holds capabilities"), "{message}");
    // The refusing thread ends by itself: gone before the next test looks for its own.
    let asked = Instant::now();
    while sampling_thread().is_some() {
        assert!(
            asked.elapsed() < Duration::from_secs(5),
            "the thread did not end"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn spawned_after_the_drop_it_holds_none_and_answers_settings_at_once() {
    let _serial = serial();
    require_root();
    // Capabilities belong to threads: this one drops them, as the bar's main thread does.
    std::thread::spawn(|| {
        ringbar::records::privileges::drop_all().expect("drop the capabilities");
        let mut monitor = Monitor::start(proc_sampler(), CONTROLS, None).expect("start");
        assert_eq!(sampling_thread_caps(), "0000000000000000");

        // One at once, the next after the short first interval, then every 2 s.
        next_sample(&mut monitor);
        next_sample(&mut monitor);
        let first = monitor.sample().unix_ms;
        assert!(monitor.sample().processes.processes > 0);

        // A new interval samples at once, not at the next 2 s tick.
        monitor.apply(Request::CycleInterval);
        let took = next_sample(&mut monitor);
        assert!(took < Duration::from_millis(1500), "{took:?}");
        assert_eq!(monitor.sample().interval_ms, 1000);
        let resampled = monitor.sample().unix_ms;
        assert!(resampled > first);

        // Kernel threads: the latest sample re-ranked and handed over, not a new one.
        monitor.apply(Request::ToggleKernelThreads);
        let took = next_sample(&mut monitor);
        assert!(monitor.sample().kernel_threads());
        assert!(took < Duration::from_millis(500), "{took:?}");
        assert_eq!(
            monitor.sample().unix_ms,
            resampled,
            "re-ranked, not sampled"
        );

        assert_eq!(monitor.receive(), Taken::Nothing, "nothing more yet");
    })
    .join()
    .expect("the test thread");
}

#[test]
fn the_probes_short_samples_move_to_the_main_loop_which_keeps_the_interval_and_the_settings() {
    let _serial = serial();
    require_root();
    // Loaded while privileged, as the bar does; sampled after the drop.
    let collector = Collector::with_probe(false).expect("the BPF probe loads");
    let sampler = Sampler::new(
        collector,
        None,
        &config::Sensors::default(),
        Controls {
            interval_ms: 100,
            kernel_threads: false,
        },
        Vec::new(),
    );
    std::thread::spawn(move || {
        ringbar::records::privileges::drop_all().expect("drop the capabilities");
        let controls = Controls {
            interval_ms: 100,
            kernel_threads: false,
        };
        let mut monitor = Monitor::start(sampler, controls, None).expect("start");
        assert!(sampling_thread().is_some(), "it starts on the thread");
        let mut samples = 0;
        while sampling_thread().is_some() {
            next_sample(&mut monitor);
            samples += 1;
            assert!(
                samples < 40,
                "still on the thread after {samples} short samples"
            );
        }
        // The thread parks the sampler and ends.
        let asked = Instant::now();
        while sampling_thread().is_some() {
            assert!(
                asked.elapsed() < Duration::from_secs(5),
                "the thread did not end"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(
            monitor.sample().sample_us < 1000,
            "{}",
            monitor.sample().sample_us
        );

        // The sampler the thread parked comes onto the main loop at the next receive (if
        // the loop above did not take it): that hands over no new sample.
        monitor.receive();
        // Samples come at the interval from the main loop's own calls.
        let before = monitor.sample().unix_ms;
        let mut stamps = Vec::new();
        for _ in 0..5 {
            next_sample(&mut monitor);
            stamps.push(monitor.sample().unix_ms);
        }
        assert!(stamps[0] > before);
        let gaps: Vec<u64> = stamps.windows(2).map(|w| w[1] - w[0]).collect();
        assert!(
            gaps.iter().all(|gap| (80..400).contains(gap)),
            "100 ms apart: {gaps:?}"
        );
        assert!(sampling_thread().is_none());
        assert!(monitor.sample().processes.processes > 0);

        // A new interval samples at once; kernel threads re-rank without a sample.
        monitor.apply(Request::CycleInterval);
        let took = next_sample(&mut monitor);
        assert!(took < Duration::from_millis(80), "{took:?}");
        assert_eq!(monitor.sample().interval_ms, 2000);
        let resampled = monitor.sample().unix_ms;
        monitor.apply(Request::ToggleKernelThreads);
        next_sample(&mut monitor);
        assert!(monitor.sample().kernel_threads());
        assert_eq!(
            monitor.sample().unix_ms,
            resampled,
            "re-ranked, not sampled"
        );
        assert_eq!(monitor.receive(), Taken::Nothing, "nothing more yet");
        assert!(sampling_thread().is_none(), "still on the main loop");
    })
    .join()
    .expect("the test thread");
}

/// This process's mappings of BPF maps (the probe's ring buffer and walker records).
fn bpf_map_mappings() -> usize {
    let maps = std::fs::read_to_string("/proc/self/maps").expect("/proc/self/maps");
    maps.lines()
        .filter(|line| line.ends_with("anon_inode:bpf-map"))
        .count()
}

/// Takes samples until `done` holds (each tick applies the requests), for at most 5 s.
fn tick_until(monitor: &mut Monitor, what: &str, mut done: impl FnMut(&mut Monitor) -> bool) {
    let asked = Instant::now();
    while !done(monitor) {
        assert!(asked.elapsed() < Duration::from_secs(5), "{what}");
        monitor.receive();
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn a_pause_unmaps_the_probe_and_the_first_sample_shown_after_it_is_over_the_short_gap() {
    let _serial = serial();
    require_root();
    let before = bpf_map_mappings();
    let collector = Collector::with_probe(false).expect("the BPF probe loads");
    let controls = Controls {
        interval_ms: 1000,
        kernel_threads: false,
    };
    let sampler = Sampler::new(
        collector,
        None,
        &config::Sensors::default(),
        controls,
        Vec::new(),
    );
    std::thread::spawn(move || {
        ringbar::records::privileges::drop_all().expect("drop the capabilities");
        let mut monitor = Monitor::start(sampler, controls, None).expect("start");
        next_sample(&mut monitor);
        next_sample(&mut monitor);
        assert!(bpf_map_mappings() > before, "the probe's maps are mapped");

        monitor.set_sampling(false);
        tick_until(&mut monitor, "the pause unmaps the probe's maps", |_| {
            bpf_map_mappings() == before
        });
        // A process that is busy for 1.5 s of the pause, then sleeps.
        let mut burner = std::process::Command::new("perl")
            .args(["-e", "$e = time + 1.5; 1 while time < $e; sleep 30"])
            .spawn()
            .expect("perl");
        std::thread::sleep(Duration::from_millis(2500));
        let paused = monitor.sample().unix_ms;

        monitor.set_sampling(true);
        next_sample(&mut monitor);
        let sample = monitor.sample();
        let processes = &sample.processes;
        assert!(sample.unix_ms > paused);
        assert!(bpf_map_mappings() > before, "mapped again");
        // Rates over the pause would be over 2.5 s, with the burner at ~60 %.
        assert!(
            processes.interval_ns > 0 && processes.interval_ns < 600_000_000,
            "rates over {} ms",
            processes.interval_ns / 1_000_000
        );
        let burner_ns = processes
            .top_cpu
            .rows()
            .iter()
            .find(|row| row.tgid == burner.id())
            .map_or(0, |row| row.value);
        assert!(
            burner_ns * 10 < processes.interval_ns,
            "the sleeping burner shows {burner_ns} ns of {} ns",
            processes.interval_ns
        );
        let _ = burner.kill();
        let _ = burner.wait();
    })
    .join()
    .expect("the test thread");
}
