//! Steady-state sampling allocates nothing on the heap: the real probe and the model,
//! ticked many times, under an allocator that counts.

mod common;

use common::alloc::{allocations, CountingAllocator};
use ringbar::collector::Collector;
use ringbar::config;
use ringbar::model::labels::{write_cpu, write_gpu, write_pressure};
use ringbar::model::markup::write_tooltip;
use ringbar::model::{Hardware, Model, Snapshot, TaskRecord};
use ringbar::sensors::{fixtures, Roots, Sensors};

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
fn sensors_and_their_text_allocate_nothing_once_warm() {
    let dir = tempfile::tempdir().expect("tempdir");
    let sys = dir.path().join("sys");
    // An Intel laptop with an AMD card besides: RC6 deltas, throttle reasons, amdgpu
    // hwmon, platform profile; pressure and vmstat from this machine's /proc.
    fixtures::intel_i915_laptop(&sys);
    fixtures::amd_desktop_gpu(&sys);
    let roots = Roots {
        sys,
        proc: "/proc".into(),
    };
    let mut hw = Hardware::default();
    let second = 1_000_000_000;
    let mut sensors = Sensors::discover(roots, config::Sensors::default(), None, 4096, 0, &mut hw);
    assert_eq!(hw.gpus.len(), 2);
    let snapshot = Snapshot::default();
    let (mut label, mut tooltip) = (String::with_capacity(256), String::with_capacity(4096));
    let mut before = 0;
    for t in 1..=505 {
        if t == 6 {
            assert!(tooltip.contains("card0 i915") && tooltip.contains("card1 amdgpu"));
            before = allocations();
        }
        sensors.read(t * second / 10, &mut hw);
        label.clear();
        write_cpu(&mut label, &snapshot, &hw.cpu);
        if let Some(gpu) = hw.label_gpu() {
            write_gpu(&mut label, gpu);
        }
        write_pressure(&mut label, &hw.pressure, 0.0);
        tooltip.clear();
        write_tooltip(&mut tooltip, &snapshot, &hw, 100, &[]);
    }
    assert_eq!(
        allocations() - before,
        0,
        "allocations in 500 warm sensor ticks with labels and tooltip"
    );
}

#[test]
fn real_sampling_allocates_nothing_once_warm() {
    common::require_root();
    let mut collector = Collector::with_probe(false).expect("the BPF probe loads");
    for _ in 0..10 {
        collector.sample().expect("sample");
    }
    let before = allocations();
    for i in 0..500u32 {
        collector.sample().expect("sample");
        collector.set_kernel_threads(i.is_multiple_of(2));
    }
    assert_eq!(allocations() - before, 0, "allocations in 500 warm samples");
}
