//! The model fed arbitrary task and exit records over several samples: counters that
//! jump, go backwards or sit at u64::MAX, reused PIDs, unknown states. It must never
//! panic (overflow included) and the totals must stay sane.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ringbar::model::record::decode_exit;
use ringbar::model::{ExitRecord, Model, TaskRecord};

const TASK: usize = std::mem::size_of::<TaskRecord>();
const EXIT: usize = std::mem::size_of::<ExitRecord>();

fuzz_target!(|data: &[u8]| {
    let mut model = Model::new(4096, 2);
    // Each chunk of up to 8 records is one sample, 100 ms after the previous one.
    for (sample, chunk) in data.chunks(8 * TASK).enumerate() {
        let tasks: Vec<TaskRecord> = chunk
            .chunks_exact(TASK)
            .map(bytemuck::pod_read_unaligned)
            .collect();
        let exits: Vec<_> = chunk.chunks(EXIT).filter_map(decode_exit).collect();
        model.update(
            (sample as u64 + 1) * 100_000_000,
            &tasks,
            &exits,
            None,
            None,
        );
        model.rank(sample % 2 == 0);
        let s = model.snapshot();
        let _ = s.cpu_percent();
        assert!(s.top_cpu.rows().len() <= 5);
    }
});
