//! Sections 4 and 5: heap allocations per tick and per tooltip refresh, and the time from
//! exec to the bar's first frame.

use std::fs;
use std::time::{Duration, Instant};

use ringbar::config::Config;
use ringbar::text::Markup;

use crate::common;
use crate::common::alloc::allocations;
use crate::common::session::{Compositor, Session};
use crate::report::{median, percentile, Report};

pub fn allocation_counts(report: &mut Report) {
    report.heading("4. Heap allocations (Rust side), once warm");
    let mut sampler = common::probe_sampler();
    let config = Config::default();
    let (mut label, mut tooltip) = (String::with_capacity(256), String::with_capacity(8192));
    let mut tick = || {
        let sample = sampler.take();
        for module in config.modules.all() {
            label.clear();
            module.text(&common::input(sample), &mut label);
        }
    };
    for _ in 1..=10 {
        tick();
    }
    let before = allocations();
    for _ in 11..=510 {
        tick();
    }
    let per_tick = (allocations() - before) as f64 / 500.0;
    let sample = sampler.sample();
    let cpu = config.modules.left.first().expect("the cpu module");
    for _ in 0..5 {
        tooltip.clear();
        cpu.tooltip(&mut Markup(&mut tooltip), &common::input(sample));
    }
    let before = allocations();
    for _ in 0..500 {
        tooltip.clear();
        cpu.tooltip(&mut Markup(&mut tooltip), &common::input(sample));
    }
    let per_tooltip = (allocations() - before) as f64 / 500.0;
    report.table(
        &["", "allocations"],
        &[
            vec![
                "per tick (sampler: probe sample, model, sensors; every module's text)".into(),
                format!("{per_tick:.2}"),
            ],
            vec![
                "per tooltip refresh (markup text)".into(),
                format!("{per_tooltip:.2}"),
            ],
        ],
    );
    report.note(
        "Counted by a global allocator over 500 ticks and 500 refreshes. GTK's own work \
         (setting label text, Pango layout) happens in C and is not counted; the bar sets a \
         label only when its text changed, and builds the tooltip only while it is shown.",
    );
}

pub fn startup(report: &mut Report) -> f64 {
    report.heading("5. Start-up: exec to the bar's first frame");
    let session = Session::start(Compositor::Sway);
    let first_frame = session.hook_dir().join("first-frame");
    let mut millis: Vec<f64> = (0..10)
        .map(|_| {
            let _ = fs::remove_file(&first_frame);
            let started = Instant::now();
            let bar = session.start_bar(&[]);
            while !first_frame.exists() {
                assert!(
                    started.elapsed() < Duration::from_secs(20),
                    "no first frame"
                );
                std::thread::sleep(Duration::from_micros(500));
            }
            let ms = started.elapsed().as_secs_f64() * 1000.0;
            drop(bar);
            ms
        })
        .collect();
    let (med, max) = (median(&mut millis), percentile(&mut millis, 1.0));
    report.table(
        &["", "ms"],
        &[
            vec!["median of 10 starts".into(), format!("{med:.0}")],
            vec!["slowest".into(), format!("{max:.0}")],
        ],
    );
    report.note(
        "From spawning the process (setpriv as the session's user, probe load, GTK start) \
         until GTK's frame clock has painted the bar's first frame.",
    );
    med
}
