//! The config parser: any text yields a config or one located error, never a panic.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Err(err) = ringbar::config::parse(text, Path::new("config.toml")) {
        // The message names a line that exists.
        if let Some(line) = err.line {
            assert!(
                line >= 1 && line <= text.lines().count().max(1) + 1,
                "{err}"
            );
        }
        let _ = err.to_string();
    }
});
