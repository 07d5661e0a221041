//! `/proc/PID/stat`, `statm` and `io` as the /proc fallback collector parses them.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ringbar::model::procstat::{parse_io, parse_statm_resident, ProcStat};

fuzz_target!(|text: &[u8]| {
    if let Some(stat) = ProcStat::parse(text) {
        // A name is at most 15 bytes and always NUL-terminated, like the kernel's comm.
        assert_eq!(stat.comm[15], 0);
        assert!(stat.state <= 8);
    }
    let _ = parse_statm_resident(text);
    let _ = parse_io(text);
});
