//! What makes a script run again: a signal, a click; and many runs leave nothing behind.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use ringbar::events::script::{IntervalSetting, ScriptConfig};

use crate::*;

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
            ..ScriptConfig::new(exec)
        };
        // The module's `on-click`, which a click hands to the runner.
        let command = format!("cd '{}' && touch clicked", dir.display());
        let (runner, _) = start(config);
        let shows = |n: &'static str| {
            let runner = runner.clone();
            move || text_of(&runner.state()) == Some(n)
        };
        assert!(run_until(context, Duration::from_secs(3), shows("1")));
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
