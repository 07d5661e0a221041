//! The lines around the sections: notices about the bar itself above them, and the
//! footer below, which says how the sample was taken.

use std::fmt::Write;

use crate::sample::{Sample, Source};
use crate::text::{untrusted, Sink};

/// `⚠ config  config.toml:2: …`, one line per notice.
pub fn write_notices(sink: &mut dyn Sink, sample: &Sample) {
    for notice in &sample.notices {
        sink.bold(true);
        sink.out().push_str("⚠ ");
        untrusted(sink, &notice.title);
        sink.bold(false);
        sink.out().push_str("  ");
        untrusted(sink, &notice.detail);
        sink.out().push('\n');
    }
}

/// `sampled in 120 µs from the BPF probe · every 2000 ms · kernel threads excluded`, no
/// newline.
pub fn write(sink: &mut dyn Sink, sample: &Sample) {
    sink.small(true);
    let _ = write!(
        sink.out(),
        "sampled in {} µs from {} · every {} ms · kernel threads {} · by {}",
        sample.sample_us,
        match sample.source {
            Source::Probe => "the BPF probe",
            Source::Service => "the BPF probe of ringbar-probe",
            Source::Proc => "/proc",
        },
        sample.interval_ms,
        if sample.kernel_threads() {
            "included"
        } else {
            "excluded"
        },
        sample.processes.group_by.name(),
    );
    sink.small(false);
}
