//! Custom modules (`custom/NAME`) running real scripts on a glib main context of the test's
//! own: continuous JSON, a flood, an endless line, a hang, bad output, a crash loop,
//! `exec-if`, a signal and a click. Each test drives its context with a deadline.
#![cfg(feature = "app")]

use std::cell::RefCell;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::{Duration, Instant};

use gtk4::glib::{self, ControlFlow, Priority};
use ringbar::script::runner::{ScriptRunner, ScriptState};
use ringbar::script::{IntervalSetting, ScriptConfig};

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

#[test]
fn a_json_line_every_second_and_stop_kills_the_group() {
    on_own_context(|context, dir| {
        let exec = script(
            dir,
            "ticks.sh",
            r#"echo $$ > pid
i=0
while :; do
    i=$((i+1))
    printf '{"text": "tick %d", "class": ["c%d", "bad class"], "percentage": %d}\n' $i $i $i
    sleep 1
done"#,
        );
        let started = Instant::now();
        let (runner, states) = start(json(exec));
        assert_eq!(runner.state(), ScriptState::Starting);
        let third = || {
            states
                .borrow()
                .iter()
                .any(|(_, s)| text_of(s) == Some("tick 3"))
        };
        assert!(
            run_until(context, Duration::from_secs(6), third),
            "{states:?}"
        );
        let states = states.borrow();
        let (first, _) = states.first().expect("a state");
        let (last, ScriptState::Output(output)) = states.last().expect("a state") else {
            panic!("output expected: {states:?}");
        };
        assert_eq!(output.classes, ["c3"]);
        assert_eq!(output.percentage, Some(3.0));
        assert_eq!(states.len(), 3, "one update per line: {states:?}");
        let spacing = last.duration_since(*first);
        assert!(spacing >= Duration::from_millis(1800), "{spacing:?}");
        eprintln!(
            "first line after {:?}, third {spacing:?} later",
            first.duration_since(started)
        );

        let pid = read_pid(&dir.join("pid")).expect("the script's pid");
        let group = group_of(pid).expect("the script runs");
        // SAFETY: getpgrp takes no arguments and cannot fail.
        let ours = unsafe { libc::getpgrp() };
        assert_ne!(group, ours, "a process group of its own");
        let all_three = || group_members(group) >= 3;
        let ran = run_until(context, Duration::from_secs(2), all_three);
        assert!(ran, "sh -c, the script and its sleep");
        runner.stop();
        let gone = run_until(context, Duration::from_secs(2), || {
            group_members(group) == 0
        });
        assert!(gone, "the script and its sleep are killed");
        assert_eq!(
            text_of(&runner.state()),
            Some("tick 3"),
            "stop keeps the state"
        );
    });
}

#[test]
fn a_flood_keeps_memory_bounded_and_the_loop_responsive() {
    on_own_context(|context, dir| {
        let exec = script(dir, "flood.sh", r#"echo $$ > pid; exec yes '{"text":"x"}'"#);
        let before = vm_rss_kib();
        let cpu_before = cpu_ticks();
        let (runner, states) = start(json(exec));
        // A timer on the same loop must keep firing on time.
        let last_tick = Rc::new(RefCell::new((Instant::now(), Duration::ZERO)));
        let ticks = last_tick.clone();
        let timer = glib::MainContext::ref_thread_default().spawn_local(async move {
            loop {
                glib::timeout_future(Duration::from_millis(10)).await;
                let mut t = ticks.borrow_mut();
                let now = Instant::now();
                t.1 = t.1.max(now.duration_since(t.0));
                t.0 = now;
            }
        });
        run_for(context, Duration::from_secs(3));
        timer.abort();
        let after = vm_rss_kib();
        let worst_gap = last_tick.borrow().1;
        let cpu = cpu_ticks() - cpu_before;
        eprintln!(
            "flood: RSS {before} → {after} KiB, worst timer gap {worst_gap:?}, \
             {cpu} CPU ticks (1/100 s) in 3 s for the whole test process"
        );
        assert_eq!(text_of(&runner.state()), Some("x"));
        assert_eq!(states.borrow().len(), 1, "the same line is one update");
        assert!(after < before + 16 * 1024, "RSS {before} → {after} KiB");
        assert!(worst_gap < Duration::from_millis(250), "{worst_gap:?}");
        let group = read_pid(&dir.join("pid"))
            .and_then(group_of)
            .expect("group");
        assert!(group_members(group) >= 2, "sh -c and yes");
        drop(runner);
        let gone = || group_members(group) == 0;
        assert!(run_until(context, Duration::from_secs(2), gone));
    });
}

#[test]
fn an_endless_line_is_cut_and_memory_stays_bounded() {
    on_own_context(|context, dir| {
        let exec = script(
            dir,
            "endless.sh",
            "head -c 100000000 /dev/zero | tr '\\0' x",
        );
        let before = vm_rss_kib();
        let started = Instant::now();
        let (runner, _) = start(json(exec));
        let failed = || reason_of(&runner.state()).is_some();
        assert!(run_until(context, Duration::from_secs(5), failed));
        let reason = reason_of(&runner.state()).map(str::to_owned);
        eprintln!("endless line: {reason:?} after {:?}", started.elapsed());
        assert_eq!(
            reason.as_deref(),
            Some("an output line is longer than 64 KiB")
        );
        // Keep reading (and skipping) for a while.
        run_for(context, Duration::from_secs(3));
        let after = vm_rss_kib();
        eprintln!("endless line: RSS {before} → {after} KiB");
        assert!(after < before + 16 * 1024, "RSS {before} → {after} KiB");
    });
}

#[test]
fn a_hanging_interval_script_is_killed_after_the_timeout() {
    on_own_context(|context, dir| {
        let exec = script(dir, "hang.sh", "echo $$ > pid\necho started\nsleep 1000");
        let config = ScriptConfig {
            interval: Some(IntervalSetting::Seconds(1.0)),
            ..ScriptConfig::new(exec)
        };
        let started = Instant::now();
        let (runner, _) = start(config);
        let pid = || read_pid(&dir.join("pid"));
        assert!(run_until(context, Duration::from_secs(2), || pid().is_some()));
        let group = pid().and_then(group_of).expect("group");
        let all_three = || group_members(group) == 3;
        let ran = run_until(context, Duration::from_secs(2), all_three);
        assert!(ran, "sh -c, the script and its sleep");
        let failed = || reason_of(&runner.state()).is_some();
        assert!(run_until(context, Duration::from_secs(14), failed));
        let took = started.elapsed();
        eprintln!("hang: {:?} after {took:?}", runner.state());
        assert!(took >= Duration::from_millis(9500), "{took:?}");
        assert_eq!(reason_of(&runner.state()), Some("timed out after 10 s"));
        let gone = || group_members(group) == 0;
        assert!(run_until(context, Duration::from_secs(2), gone));
    });
}

#[test]
fn invalid_json_fails_then_recovers() {
    on_own_context(|context, dir| {
        let exec = script(
            dir,
            "bad.sh",
            "echo 'not json'\nsleep 1\necho '{\"text\": \"ok\"}'\nsleep 100",
        );
        let (runner, states) = start(json(exec));
        let ok = || text_of(&runner.state()) == Some("ok");
        assert!(run_until(context, Duration::from_secs(5), ok), "{states:?}");
        let states: Vec<_> = states.borrow().iter().map(|(_, s)| s.clone()).collect();
        let reason = reason_of(&states[0]).expect("failed first");
        assert!(reason.starts_with("invalid JSON: "), "{reason}");
        assert_eq!(states.len(), 2, "{states:?}");
    });
}

#[test]
fn a_dying_script_is_restarted_with_backoff() {
    on_own_context(|context, dir| {
        let exec = script(dir, "die.sh", "echo run >> runs\necho boom >&2\nexit 3");
        let started = Instant::now();
        let (runner, _) = start(ScriptConfig::new(exec));
        run_for(context, Duration::from_millis(4500));
        let runs = lines_in(&dir.join("runs"));
        eprintln!("crash loop: {runs} runs in {:?}", started.elapsed());
        // At 0, 1 and 3 s (then 7 s): not a busy loop.
        assert!((2..=4).contains(&runs), "{runs} runs");
        assert_eq!(
            reason_of(&runner.state()),
            Some("exited with status 3: boom")
        );
    });
}

#[test]
fn exec_if_hides_the_module_and_is_checked_again() {
    on_own_context(|context, dir| {
        let exec = script(dir, "shown.sh", "echo ran >> ran\necho shown");
        // exec-if runs in ringbar's directory, not the script's.
        let exec_if = format!(
            "cd '{}' && echo check >> checks && test -e show",
            dir.display()
        );
        let config = ScriptConfig {
            interval: Some(IntervalSetting::Seconds(0.5)),
            exec_if: Some(exec_if),
            ..ScriptConfig::new(exec)
        };
        let (runner, _) = start(config);
        let hidden = || runner.state() == ScriptState::Hidden;
        assert!(run_until(context, Duration::from_secs(3), hidden));
        let checks = || lines_in(&dir.join("checks")) >= 3;
        assert!(
            run_until(context, Duration::from_secs(3), checks),
            "checked again"
        );
        assert!(!dir.join("ran").exists(), "exec never ran");
        fs::write(dir.join("show"), "").expect("write");
        let shown = || text_of(&runner.state()) == Some("shown");
        assert!(run_until(context, Duration::from_secs(3), shown));
    });
}

#[test]
fn interval_output_plain_text_and_exit_status() {
    on_own_context(|context, dir| {
        let exec = script(
            dir,
            "plain.sh",
            "n=$(cat n 2>/dev/null || echo 0); echo $((n+1)) > n\n\
             [ $n -ge 1 ] && exit 1\nprintf 'up <b>2</b>\\nsince monday\\nwarning\\n'",
        );
        let config = ScriptConfig {
            interval: Some(IntervalSetting::Seconds(0.5)),
            ..ScriptConfig::new(exec)
        };
        let (runner, states) = start(config);
        let hidden = || runner.state() == ScriptState::Hidden;
        assert!(
            run_until(context, Duration::from_secs(3), hidden),
            "{states:?}"
        );
        let states = states.borrow();
        let ScriptState::Output(output) = &states[0].1 else {
            panic!("output first: {states:?}");
        };
        assert_eq!(output.text, "up <b>2</b>");
        assert_eq!(output.tooltip.as_deref(), Some("since monday"));
        assert_eq!(output.classes, ["warning"]);
        // Then the script exits 1: hidden, as in Waybar.
        assert_eq!(states[1].1, ScriptState::Hidden);
    });
}

#[test]
fn markup_pango_refuses_shows_as_text() {
    on_own_context(|context, dir| {
        let exec = script(
            dir,
            "markup.sh",
            r#"echo '{"text": "<span color=\"nocolour\">x</span>", "tooltip": "<b>ok</b>"}'
sleep 100"#,
        );
        let (runner, _) = start(json(exec));
        let shown = || matches!(runner.state(), ScriptState::Output(_));
        assert!(run_until(context, Duration::from_secs(3), shown));
        let ScriptState::Output(output) = runner.state() else {
            unreachable!()
        };
        assert_eq!(
            output.text,
            "&lt;span color=&quot;nocolour&quot;&gt;x&lt;/span&gt;"
        );
        assert_eq!(output.tooltip.as_deref(), Some("<b>ok</b>"));
        let mut label = String::new();
        ringbar::script::format(runner.config(), &output, &mut label);
        assert_eq!(label, output.text, "shows the markup as text");
    });
}

#[test]
fn a_signal_runs_the_script_again() {
    on_own_context(|context, dir| {
        let exec = script(dir, "count.sh", "echo x >> runs\nwc -l < runs");
        let config = ScriptConfig {
            interval: Some(IntervalSetting::Once),
            signal: Some(5),
            ..ScriptConfig::new(exec)
        };
        let (runner, _) = start(config);
        let shows = |n: &'static str| {
            let runner = runner.clone();
            move || text_of(&runner.state()) == Some(n)
        };
        assert!(run_until(context, Duration::from_secs(3), shows("1")));
        run_for(context, Duration::from_millis(300));
        assert_eq!(lines_in(&dir.join("runs")), 1, "once is once");
        let signal = libc::SIGRTMIN() + 5;
        let sent = Instant::now();
        // SAFETY: kill with our own pid and a signal that now has ringbar's handler.
        assert_eq!(unsafe { libc::kill(libc::getpid(), signal) }, 0);
        assert!(run_until(context, Duration::from_secs(3), shows("2")));
        eprintln!("signal: refreshed after {:?}", sent.elapsed());
        // SAFETY: as above; two at once may count once.
        unsafe {
            libc::kill(libc::getpid(), signal);
            libc::kill(libc::getpid(), signal);
        }
        assert!(run_until(context, Duration::from_secs(3), || {
            matches!(text_of(&runner.state()), Some("3" | "4"))
        }));
    });
}

#[test]
fn a_click_runs_its_command_then_the_script() {
    on_own_context(|context, dir| {
        let exec = script(dir, "count.sh", "echo x >> runs\nwc -l < runs");
        let config = ScriptConfig {
            interval: Some(IntervalSetting::Once),
            on_click: Some(format!("cd '{}' && touch clicked", dir.display())),
            ..ScriptConfig::new(exec)
        };
        let (runner, _) = start(config);
        let shows = |n: &'static str| {
            let runner = runner.clone();
            move || text_of(&runner.state()) == Some(n)
        };
        assert!(run_until(context, Duration::from_secs(3), shows("1")));
        let command = runner.config().on_click.clone().expect("on-click");
        let clicked = Instant::now();
        runner.run_action(&command);
        assert!(run_until(context, Duration::from_secs(3), || dir
            .join("clicked")
            .exists()));
        // exec-on-event: the script runs again once the command is done.
        assert!(run_until(context, Duration::from_secs(3), shows("2")));
        eprintln!("click: refreshed after {:?}", clicked.elapsed());
        // A command that keeps running is left alone, and the module runs again anyway.
        let pid_file: PathBuf = dir.join("long.pid");
        runner.run_action(&format!(
            "echo $$ > '{}'; exec sleep 30",
            pid_file.display()
        ));
        assert!(run_until(context, Duration::from_secs(3), shows("3")));
        let pid = read_pid(&pid_file).expect("pid");
        drop(runner);
        run_for(context, Duration::from_millis(200));
        assert_eq!(group_members(pid), 1, "detached from the module");
        // SAFETY: kill with the pid of the sleep this test started.
        unsafe { libc::kill(pid, libc::SIGKILL) };
    });
}

#[test]
fn many_runs_leave_no_fds_or_zombies_behind() {
    on_own_context(|context, dir| {
        let exec = script(dir, "quick.sh", "echo run >> runs\necho out\necho err >&2");
        let config = ScriptConfig {
            interval: Some(IntervalSetting::Seconds(0.1)),
            ..ScriptConfig::new(exec)
        };
        let fds = open_fds();
        let (runner, _) = start(config);
        run_for(context, Duration::from_secs(3));
        runner.stop();
        run_for(context, Duration::from_millis(300));
        let runs = lines_in(&dir.join("runs"));
        let (fds_after, zombies) = (open_fds(), zombie_children());
        eprintln!("{runs} runs: fds {fds} → {fds_after}, {zombies} zombies");
        assert!(runs >= 10, "{runs} runs");
        // Other tests open pipes meanwhile; a leak would be 3 per run.
        assert!(fds_after <= fds + 6, "fds {fds} → {fds_after}");
        assert_eq!(text_of(&runner.state()), Some("out"));
        drop(runner);
        assert!(run_until(
            context,
            Duration::from_secs(2),
            || zombie_children() == 0
        ));
    });
}

/// With RINGBAR_TEST_CRASH_DIR set, this test is the child of the next one: it starts a
/// continuous script in that directory, lets it run, then dies without any cleanup.
#[test]
fn crashing_child() {
    let Some(dir) = std::env::var_os("RINGBAR_TEST_CRASH_DIR") else {
        return;
    };
    let dir = PathBuf::from(dir);
    on_own_context(|context, _| {
        let exec = script(
            &dir,
            "loop.sh",
            "echo $$ > pid\nwhile :; do echo x; sleep 0.1; done",
        );
        let (runner, _) = start(ScriptConfig::new(exec));
        assert!(run_until(context, Duration::from_secs(3), || text_of(
            &runner.state()
        ) == Some(
            "x"
        )));
        // SAFETY: _exit ends the process at once, as a crash would: no destructor runs.
        unsafe { libc::_exit(9) };
    });
}

#[test]
fn a_crashed_ringbar_leaves_no_script_running() {
    let dir = tempfile::tempdir().expect("tempdir");
    let status = std::process::Command::new(std::env::current_exe().expect("test binary"))
        .args(["--exact", "crashing_child", "--test-threads=1"])
        .env("RINGBAR_TEST_CRASH_DIR", dir.path())
        .stdout(std::process::Stdio::null())
        .status()
        .expect("run the child");
    assert_eq!(status.code(), Some(9), "the child crashed on purpose");
    let pid = read_pid(&dir.path().join("pid")).expect("the script ran");
    let Some(group) = group_of(pid) else {
        return; // Gone already.
    };
    // The shell dies with its parent (PR_SET_PDEATHSIG), the script at its next line
    // (SIGPIPE: nobody reads the pipe any more).
    let deadline = Instant::now() + Duration::from_secs(2);
    while group_members(group) > 0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(
        group_members(group),
        0,
        "no process of the script's group is left"
    );
}
