//! Tests of the pure part, by topic; the helpers they share.

use super::*;

mod config;
mod label;
mod lines;
mod output;
mod visible;

fn json(line: &str) -> ScriptOutput {
    parse_line(line.as_bytes(), true).expect("valid output")
}

fn label(config: &ScriptConfig, output: &ScriptOutput) -> String {
    let mut out = String::new();
    format(config, output, false, &mut out);
    out
}
