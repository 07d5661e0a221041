//! `ringbar --bench N`: N whole samples back to back (process records, model, ranking and
//! sensors, as the bar takes them), and their timing.

use std::time::Instant;

use super::{print, report_probe_error, Failure};
use crate::startup;

pub fn run(samples: usize, kernel_threads: bool) -> Result<(), Failure> {
    let started = startup::start().map_err(Failure::Message)?;
    report_probe_error(started.probe_error.as_deref());
    let mut sampler = started.sampler;
    sampler.set_kernel_threads(kernel_threads);
    sampler.take(); // warm-up: buffers grow here
    let mut micros = Vec::with_capacity(samples);
    for _ in 0..samples {
        let begun = Instant::now();
        sampler.take();
        micros.push(begun.elapsed().as_secs_f64() * 1e6);
    }
    micros.sort_by(f64::total_cmp);
    let at = |q: f64| micros[((micros.len() - 1) as f64 * q).round() as usize];
    let sample = sampler.sample();
    print(&format!(
        "source={} samples={samples} tasks={} procs={} median_us={:.0} p99_us={:.0} max_us={:.0}\n",
        sample.source.name(),
        sample.processes.tasks,
        sample.processes.processes,
        at(0.5),
        at(0.99),
        at(1.0)
    ))
}
