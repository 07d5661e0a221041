//! DRM fdinfo: any text parses without panicking, and any two parses give a share in
//! 0–100 % (or none).
#![no_main]

use libfuzzer_sys::fuzz_target;
use ringbar::model::fdinfo::DrmFdinfo;
use ringbar::model::gpu_users::busy_share;

fuzz_target!(|input: (&[u8], &[u8], u64)| {
    let (before, after, elapsed_ns) = input;
    let before = DrmFdinfo::parse(before);
    let mut after = DrmFdinfo::parse(after);
    let _ = after.memory_bytes();
    if let Some(share) = busy_share(&before, &after, elapsed_ns) {
        assert!((0.0..=100.0).contains(&share), "{share}");
    }
    after.hold(&before);
});
