//! Sysfs values: integers, and the busy share computed from two idle-residency reads.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ringbar::model::hardware::parse_integer;
use ringbar::model::hardware::IdleSample;

fuzz_target!(|input: (&[u8], [u64; 4])| {
    let (text, [t0, idle0, t1, idle1]) = input;
    let _ = parse_integer(text);
    let before = IdleSample {
        at_ns: t0,
        idle_ms: idle0,
    };
    let after = IdleSample {
        at_ns: t1,
        idle_ms: idle1,
    };
    if let Some(busy) = before.busy_percent_until(after) {
        assert!((0.0..=100.0).contains(&busy), "{busy}");
    }
});
