//! `ringbar --bench N`: N whole samples back to back (process records, model, ranking and
//! sensors, as the bar takes them), and their timing.

use std::time::Instant;

use super::{print, report_probe_error, Failure};
use crate::app::startup;

pub fn run(samples: usize, kernel_threads: bool) -> Result<(), Failure> {
    let started = startup::start(None, true).map_err(Failure::Message)?;
    report_probe_error(started.probe_error.as_deref());
    let mut sampler = started.sampler;
    sampler.set_kernel_threads(kernel_threads);
    sampler.take(); // warm-up: buffers grow here
    let mut micros = Vec::with_capacity(samples);
    // Per phase (see collector::Phases): records, model, rank, system files; the rest.
    let mut phases: [Vec<f64>; 5] = Default::default();
    for _ in 0..samples {
        let begun = Instant::now();
        sampler.take();
        micros.push(begun.elapsed().as_secs_f64() * 1e6);
        let p = sampler.collector().phases();
        let collector_us =
            [p.records_ns, p.model_ns, p.rank_ns, p.system_ns].map(|ns| ns as f64 / 1e3);
        // The rest: sensors, real names, wait channels, history.
        let rest_us = (micros[micros.len() - 1] - collector_us.iter().sum::<f64>()).max(0.0);
        for (list, us) in phases
            .iter_mut()
            .zip(collector_us.into_iter().chain([rest_us]))
        {
            list.push(us);
        }
    }
    let sample = sampler.sample();
    let [records, model, rank, system, rest] = phases.map(|mut list| quantile(&mut list, 0.5));
    print(&format!(
        "source={} samples={samples} tasks={} procs={} median_us={:.0} p99_us={:.0} max_us={:.0} \
         records_us={records:.0} model_us={model:.0} rank_us={rank:.0} system_us={system:.0} \
         rest_us={rest:.0} walker={}\n",
        sample.source.name(),
        sample.processes.tasks,
        sample.processes.processes,
        quantile(&mut micros, 0.5),
        quantile(&mut micros, 0.99),
        quantile(&mut micros, 1.0),
        u8::from(sampler.collector().walked()),
    ))
}

/// The `q` quantile of `values` (sorted here).
fn quantile(values: &mut [f64], q: f64) -> f64 {
    values.sort_by(f64::total_cmp);
    values[((values.len() - 1) as f64 * q).round() as usize]
}
