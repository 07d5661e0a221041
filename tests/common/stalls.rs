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
