//! The monitor's whole report: what its tooltip shows and `--once` prints.

use super::{cpu, footer, gpu, history, io, memory, net, oom, power};
use crate::model::history::Metric;
use crate::sample::Sample;
use crate::text::Sink;

/// Notices, CPU (D/Z rows first), Memory, the OOM kills if there were any, IO, GPUs where
/// the machine has them, the sections of the modules' own readings (pressure, batteries,
/// disks) in the layout's order, the power profile, and the footer. CPU,
/// Memory, IO and GPU end with their history's sparkline once there is one.
pub fn write(sink: &mut dyn Sink, sample: &Sample) {
    footer::write_notices(sink, sample);
    cpu::write(sink, sample);
    history::write(sink, sample, Metric::Cpu);
    memory::write(sink, sample);
    history::write(sink, sample, Metric::Memory);
    oom::write(sink, sample);
    io::write(sink, sample);
    history::write(sink, sample, Metric::Io);
    net::write(sink, sample);
    history::write(sink, sample, Metric::Net);
    gpu::write(sink, sample);
    history::write(sink, sample, Metric::Gpu);
    for (_, reading) in sample.readings.iter() {
        reading.write_report(sink);
    }
    power::write(sink, sample);
    footer::write(sink, sample);
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::model::app::Label;
    use crate::model::process::tests::{comm, thread};
    use crate::model::{CpuReading, LoadAverage, Memory, Model, Value};
    use crate::sample::{Notice, Source};
    use crate::text::{Markup, Plain};

    /// A sample with a spinner, a hog writing 6 MiB/s, a D task and a zombie (in its
    /// second sample) whose names are hostile to markup.
    pub(crate) fn sample() -> Sample {
        let mut m = Model::new(4096, 2);
        let mut spin = thread(100, 100, 0, 0);
        spin.comm = comm("<b>&amp;");
        let mut hog = thread(200, 200, 1, 0);
        hog.comm[..5].copy_from_slice(b"x\xffy\"'");
        hog.rss_pages = 100 * 256; // 100 MiB
        let mut stuck = thread(300, 300, 2, 0);
        stuck.comm = comm("stuck");
        stuck.blocked_ns = 12_700_000_000; // the kernel: off the CPU for 12.7 s
        let mut zombie = thread(400, 400, 6, 0);
        zombie.comm = comm("z(1) </span>");
        let tasks = |spin, hog| [spin, hog, stuck, zombie];
        m.update(1_000_000_000, &tasks(spin, hog), &[], None, None);
        spin.cpu_ns = 500_000_000;
        hog.read_bytes = 1024 * 1024;
        hog.write_bytes = 3 * 1024 * 1024;
        let memory = Memory {
            total: 8 << 30,
            available: 6 << 30,
            swap_total: 1 << 30,
            swap_free: 1 << 29,
        };
        let load = Some(LoadAverage([1.0, 0.5, 0.25]));
        m.update(1_500_000_000, &tasks(spin, hog), &[], Some(memory), load);
        m.rank(false);
        let mut processes = *m.snapshot();
        processes.stuck.rows_mut()[0].wchan = Label::new(b"folio_wait_bit_common");
        let mut sample = Sample {
            processes,
            source: Source::Proc,
            interval_ms: 500,
            sample_us: 42,
            ..Sample::default()
        };
        sample.hardware.cpu = CpuReading {
            celsius: Value::Known(61.25),
            average_mhz: Value::Known(2000.0),
            highest_mhz: Value::Known(3000.0),
            lowest_mhz: Value::Known(1000.0),
            hardware_max_mhz: Some(4700.0),
            nominal_mhz: None,
        };
        sample
            .notices
            .push(Notice::new("config", "c.toml:2: `a = <1>`: bad"));
        sample
    }

    #[test]
    fn plain_golden_text() {
        let mut out = String::new();
        write(&mut Plain(&mut out), &sample());
        assert_eq!(
            out,
            "⚠ config  c.toml:2: `a = <1>`: bad\n\
             CPU  50.0% of 2 CPUs · load 1.00 0.50 0.25 · per process, 100% = one core · 61.2°C · 2000 MHz avg, 3000 max of 4700\n\
             \x20   D 12s  stuck  folio_wait_bit_common\n\
             \x20       Z  z(1) </span>\n\
             \x20  100.0%  <b>&amp;\n\
             Memory  2.0G / 8.0G · swap 512M / 1.0G\n\
             \x20    100M  x\u{fffd}y\"'\n\
             IO  read 2.0M/s · write 6.0M/s\n\
             \x20 r   2.0M/s  w   6.0M/s  x\u{fffd}y\"'\n\
             sampled in 42 µs from /proc · every 500 ms · kernel threads excluded · by process"
        );
    }

    #[test]
    fn markup_golden_text_is_the_same_with_names_escaped() {
        let mut out = String::new();
        write(&mut Markup(&mut out), &sample());
        assert_eq!(
            out,
            "<b>⚠ config</b>  c.toml:2: `a = &lt;1&gt;`: bad\n\
             <b>CPU</b>  50.0% of 2 CPUs · load 1.00 0.50 0.25 · per process, 100% = one core · 61.2°C · 2000 MHz avg, 3000 max of 4700\n\
             \x20   D 12s  stuck  folio_wait_bit_common\n\
             \x20       Z  z(1) &lt;/span&gt;\n\
             \x20  100.0%  &lt;b&gt;&amp;amp;\n\
             <b>Memory</b>  2.0G / 8.0G · swap 512M / 1.0G\n\
             \x20    100M  x\u{fffd}y&quot;&#39;\n\
             <b>IO</b>  read 2.0M/s · write 6.0M/s\n\
             \x20 r   2.0M/s  w   6.0M/s  x\u{fffd}y&quot;&#39;\n\
             <small>sampled in 42 µs from /proc · every 500 ms · kernel threads excluded · by process</small>"
        );
    }

    #[test]
    fn zombies_show_from_their_second_sample() {
        let mut m = Model::new(4096, 2);
        let mut zombie = thread(400, 400, 6, 0);
        zombie.comm = comm("zombie");
        for time in [1, 2, 3] {
            m.update(time * 1_000_000_000, &[zombie], &[], None, None);
        }
        m.rank(false);
        let sample = Sample {
            processes: *m.snapshot(),
            ..Sample::default()
        };
        let mut out = String::new();
        write(&mut Plain(&mut out), &sample);
        assert!(out.contains("\n        Z  zombie\n"), "{out}");
    }
}
