//! Names processes give themselves or get from how they were started: a program whose
//! name the kernel cuts to 15 bytes, and a shell that reads its script from a file
//! descriptor. The lists and the history's peak must name them alike, and a descriptor
//! is no script's name.

use std::process::{Command, Stdio};
use std::time::Duration;

use crate::common::{serial, Subjects};
use crate::{finish, text, Home, Running};

fn spawn(command: &mut Command) -> Running {
    Running(
        command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .spawn()
            .expect("spawn"),
    )
}

/// The `name` of the row of `pid` in `list`.
fn name_in(list: &serde_json::Value, pid: u32) -> Option<String> {
    list.as_array()?
        .iter()
        .find(|row| row["pid"] == pid)
        .map(|row| row["name"].as_str().unwrap_or_default().to_owned())
}

/// `ringbar --once --json` in `home`.
fn once_json(home: &Home) -> serde_json::Value {
    let out = finish(
        home.command(&["--once", "--json", "--interval-ms", "1000"]),
        Duration::from_secs(60),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON")
}

#[test]
fn the_peak_names_a_long_named_process_as_the_list_does() {
    crate::common::require_root();
    let _serial = serial();
    let home = Home::new();
    let subjects = Subjects::new();
    let long = subjects.program("rb-hostile-long-spinner", "/bin/sh");
    let spinner = spawn(Command::new(&long).args(["-c", "while :; do :; done"]));
    std::thread::sleep(Duration::from_millis(300));
    let doc = once_json(&home);
    let top = &doc["cpu"]["top"];
    let pid = spinner.0.id();
    assert_eq!(
        name_in(top, pid).as_deref(),
        Some("rb-hostile-long-spinner"),
        "{top}"
    );
    let peak = &doc["history"]["cpu"]["peak"];
    assert_eq!(peak["pid"], pid, "the spinner is the busiest: {peak}");
    assert_eq!(peak["name"], "rb-hostile-long-spinner", "{peak}");
}

#[test]
fn a_script_read_from_a_descriptor_keeps_its_shells_name() {
    crate::common::require_root();
    let _serial = serial();
    let home = Home::new();
    let script = home.path("spin.sh");
    std::fs::write(&script, "while :; do :; done\n").expect("script");
    let piped = spawn(Command::new("/bin/sh").args([
        "-c",
        &format!("exec bash /dev/fd/3 3< {}", script.display()),
    ]));
    std::thread::sleep(Duration::from_millis(300));
    let doc = once_json(&home);
    let top = &doc["cpu"]["top"];
    assert_eq!(name_in(top, piped.0.id()).as_deref(), Some("bash"), "{top}");
}
