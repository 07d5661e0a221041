//! Each core's busy share (`{usageN}`, `{iconN}` in the cpu module's format) against
//! /proc/stat read by this test around the same second, with one core kept busy by a
//! spinner pinned to it.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use common::{require_root, serial};
use serde_json::Value as Json;

const RINGBAR: &str = env!("CARGO_BIN_EXE_ringbar");

/// (busy, whole) ticks of each `cpuN` line, by N.
fn ticks() -> Vec<(u64, u64)> {
    let stat = std::fs::read_to_string("/proc/stat").expect("/proc/stat");
    let mut cores = Vec::new();
    for line in stat
        .lines()
        .filter(|l| l.starts_with("cpu") && !l.starts_with("cpu "))
    {
        let n: Vec<u64> = line
            .split_whitespace()
            .skip(1)
            .map(|w| w.parse().expect("a count"))
            .collect();
        // Steal is not busy, as ringbar counts it.
        let busy = n[0] + n[1] + n[2] + n[5] + n[6];
        cores.push((busy, busy + n[3] + n[4] + n[7]));
    }
    cores
}

/// Ends the child when the test does, however it ends.
struct Ends(Child);

impl Drop for Ends {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn each_cores_share_agrees_with_proc_stat() {
    require_root();
    let _serial = serial();
    let cores = ticks().len();
    assert!(cores >= 2, "this test wants two cores");
    let last = cores - 1;
    let _spinner = Ends(
        Command::new("taskset")
            .args(["-c", &last.to_string(), "sh", "-c", "while :; do :; done"])
            .spawn()
            .expect("taskset (util-linux)"),
    );
    let home = tempfile::tempdir().expect("tempdir");
    let config = home.path().join("ringbar/config.toml");
    std::fs::create_dir_all(config.parent().expect("a folder")).expect("mkdir");
    let shares: Vec<String> = (0..cores).map(|n| format!("{{usage{n}}}")).collect();
    std::fs::write(
        &config,
        format!(
            "modules_left = [\"cpu\"]\nmodules_center = []\nmodules_right = []\n[cpu]\n\
             format = \"{} {{icon{last}}} {{usage{cores}}}\"\n\
             format-icons = [\"a\", \"b\", \"c\", \"d\", \"e\"]\n",
            shares.join(" ")
        ),
    )
    .expect("write the config");
    // Waybar's stream: a line right after each sample, so /proc/stat read as each line
    // comes spans the same interval as the line's shares (to within the line's way here).
    let mut bar = Ends(
        Command::new(RINGBAR)
            .args(["--waybar", "--interval-ms", "1000"])
            .env("XDG_CONFIG_HOME", home.path())
            .stdout(Stdio::piped())
            .spawn()
            .expect("run ringbar --waybar"),
    );
    let mut lines = BufReader::new(bar.0.stdout.take().expect("piped")).lines();
    let mut next = || -> (String, Vec<(u64, u64)>) {
        let line = lines.next().expect("a line").expect("readable");
        let stat = ticks();
        let doc: Json = serde_json::from_str(&line).expect("JSON");
        (doc["text"].as_str().expect("text").to_owned(), stat)
    };
    let (first, _) = next();
    assert_eq!(
        first,
        format!("{}  –", vec!["–"; cores].join(" ")),
        "before a second reading: no share, no icon"
    );
    let (_, mut before) = next();
    for _ in 0..3 {
        let (text, after) = next();
        let words: Vec<&str> = text.split(' ').collect();
        assert_eq!(words.len(), cores + 2, "{text}");
        assert_eq!(
            words[cores..],
            ["e", "–"],
            "the busy core's icon; no such core: {text}"
        );
        for (n, word) in words[..cores].iter().enumerate() {
            let share: f64 = word.parse().unwrap_or_else(|_| panic!("core {n}: {text}"));
            let (busy, whole) = (after[n].0 - before[n].0, after[n].1 - before[n].1);
            let truth = busy as f64 / whole as f64 * 100.0;
            assert!(
                (share - truth).abs() <= 5.0,
                "core {n}: ringbar {share} %, /proc/stat {truth:.1} % ({text})"
            );
            if n == last {
                assert!(share >= 90.0, "the spinner's core: {text}");
            }
        }
        before = after;
    }
}
