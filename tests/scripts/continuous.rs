//! Continuous scripts: a JSON line a second, a flood, an endless line.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};

use gtk4::glib::{self};
use ringbar::events::script::runner::ScriptState;

use crate::*;

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
