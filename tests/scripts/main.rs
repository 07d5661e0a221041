//! Custom modules (`custom/NAME`) running real scripts on a glib main context of the test's
//! own: continuous JSON, a flood, an endless line, a hang, bad output, a crash loop,
//! `exec-if`, a signal and a click. Each test drives its context with a deadline.
#![cfg(feature = "app")]

mod continuous;
mod crash;
mod events;
mod interval;

use std::cell::RefCell;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::rc::Rc;
use std::time::{Duration, Instant};

use gtk4::glib::{self, ControlFlow, Priority};
use ringbar::events::script::runner::{ScriptRunner, ScriptState};
use ringbar::events::script::ScriptConfig;

type States = Rc<RefCell<Vec<(Instant, ScriptState)>>>;

/// Runs `test` with a temporary directory and a main context of its own as the default.
fn on_own_context(test: impl FnOnce(&glib::MainContext, &Path)) {
    let dir = tempfile::tempdir().expect("tempdir");
    let context = glib::MainContext::new();
    context
        .with_thread_default(|| test(&context, dir.path()))
        .expect("context");
}

/// Iterates `context` until `done` holds or `limit` passes; whether it held.
fn run_until(context: &glib::MainContext, limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    // Wakes the loop so the deadline is seen.
    let tick = glib::timeout_source_new(Duration::from_millis(10), None, Priority::DEFAULT, || {
        ControlFlow::Continue
    });
    tick.attach(Some(context));
    let deadline = Instant::now() + limit;
    let held = loop {
        if done() {
            break true;
        }
        if Instant::now() >= deadline {
            break false;
        }
        context.iteration(true);
    };
    tick.destroy();
    held
}

fn run_for(context: &glib::MainContext, time: Duration) {
    run_until(context, time, || false);
}

/// `body` as an executable shell script in `dir`.
fn script(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    fs::write(
        &path,
        format!("#!/bin/sh\ncd '{}'\n{body}\n", dir.display()),
    )
    .expect("write");
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).expect("chmod");
    path.display().to_string()
}

fn start(config: ScriptConfig) -> (Rc<ScriptRunner>, States) {
    let states = States::default();
    let sink = states.clone();
    let runner = ScriptRunner::start("test", config, move |state| {
        sink.borrow_mut().push((Instant::now(), state.clone()));
    });
    (runner, states)
}

fn json(exec: String) -> ScriptConfig {
    ScriptConfig {
        return_type: Some("json".into()),
        ..ScriptConfig::new(exec)
    }
}

fn text_of(state: &ScriptState) -> Option<&str> {
    match state {
        ScriptState::Output(output) => Some(&output.text),
        _ => None,
    }
}

fn reason_of(state: &ScriptState) -> Option<&str> {
    match state {
        ScriptState::Failed { reason } => Some(reason),
        _ => None,
    }
}

/// CPU time of this process (all threads), from /proc/self/stat, in clock ticks.
fn cpu_ticks() -> u64 {
    let stat = fs::read_to_string("/proc/self/stat").expect("stat");
    let after = &stat[stat.rfind(')').expect("comm") + 1..];
    let fields: Vec<&str> = after.split_whitespace().collect();
    // utime and stime are fields 14 and 15; `after` starts at field 3.
    let ticks = |i: usize| fields[i - 3].parse::<u64>().expect("ticks");
    ticks(14) + ticks(15)
}

fn open_fds() -> usize {
    fs::read_dir("/proc/self/fd").expect("fds").count()
}

/// Children of this process that nobody reaped.
fn zombie_children() -> usize {
    let me = std::process::id().to_string();
    let entries = fs::read_dir("/proc").expect("/proc").flatten();
    entries
        .filter_map(|entry| fs::read_to_string(entry.path().join("stat")).ok())
        .filter(|stat| {
            let after = stat.rfind(')').map_or("", |i| &stat[i + 1..]);
            let mut fields = after.split_whitespace();
            (fields.next(), fields.next()) == (Some("Z"), Some(me.as_str()))
        })
        .count()
}

fn vm_rss_kib() -> u64 {
    let status = fs::read_to_string("/proc/self/status").expect("status");
    let line = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .expect("VmRSS");
    let kib = line.split_whitespace().nth(1).expect("a number");
    kib.parse().expect("a number")
}

/// The process group of the process a `/proc` stat file describes.
fn group_in(stat: &Path) -> Option<i32> {
    let stat = fs::read_to_string(stat).ok()?;
    // pid (comm) state ppid pgrp ...
    let after = &stat[stat.rfind(')')? + 1..];
    after.split_whitespace().nth(2)?.parse().ok()
}

fn group_of(pid: i32) -> Option<i32> {
    group_in(&Path::new("/proc").join(pid.to_string()).join("stat"))
}

/// Processes whose process group is `pgid` (zombies included).
fn group_members(pgid: i32) -> usize {
    let entries = fs::read_dir("/proc").expect("/proc").flatten();
    entries
        .filter(|entry| group_in(&entry.path().join("stat")) == Some(pgid))
        .count()
}

fn read_pid(path: &Path) -> Option<i32> {
    fs::read_to_string(path).ok()?.trim().parse().ok()
}

fn lines_in(path: &Path) -> usize {
    fs::read_to_string(path).map_or(0, |text| text.lines().count())
}
