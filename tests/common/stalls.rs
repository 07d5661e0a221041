//! The main loop's stalls, as the test hook writes them (`stalls`: one line per sample,
//! the worst delay of a 16 ms timer since the previous sample, in µs, first).

use std::path::Path;

/// The worst stall of each sample so far, in µs.
pub fn worst_per_sample(hook_dir: &Path) -> Vec<u64> {
    let text = std::fs::read_to_string(hook_dir.join("stalls")).unwrap_or_default();
    text.lines()
        .filter_map(|line| line.split(' ').next()?.parse().ok())
        .collect()
}

/// Asserts that the samples since the first `before` of them went on (at least three)
/// and the main loop never stalled 250 ms or more in them: nothing waited for `what`.
pub fn assert_on_time(hook_dir: &Path, before: usize, what: &str) {
    let stalls = worst_per_sample(hook_dir);
    let since = &stalls[before.min(stalls.len())..];
    assert!(since.len() >= 3, "samples went on: {since:?}");
    assert!(
        since.iter().all(|&us| us < 250_000),
        "the main loop waited for {what}: {since:?} µs"
    );
}
