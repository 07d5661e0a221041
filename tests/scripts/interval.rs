//! Interval scripts and bad output: a hang, invalid JSON, a crash loop, `exec-if`, plain
//! text, refused markup.

use std::fs;
use std::time::{Duration, Instant};

use ringbar::events::script::runner::ScriptState;
use ringbar::events::script::{IntervalSetting, ScriptConfig};

use crate::*;

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
        ringbar::events::script::format(runner.config(), &output, false, &mut label);
        assert_eq!(label, output.text, "shows the markup as text");
    });
}

/// The bar raises its own soft fd limit (for the /proc fallback's held files); the
/// scripts it starts get back the limit it started with.
#[test]
fn a_script_gets_the_fd_limit_the_bar_started_with() {
    use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};
    let hard = getrlimit(Resource::Nofile).maximum;
    assert!(hard.is_none_or(|h| h > 1024), "hard limit {hard:?}");
    let started_with = Rlimit {
        current: Some(1024),
        maximum: hard,
    };
    setrlimit(Resource::Nofile, started_with).expect("soft limit 1024");
    ringbar::records::fdlimit::raise();
    let raised = getrlimit(Resource::Nofile).current;
    assert!(
        raised.is_none_or(|soft| soft > 1024),
        "not raised: {raised:?}"
    );
    on_own_context(|context, dir| {
        let exec = script(dir, "limit.sh", "ulimit -n\nsleep 100");
        let (runner, states) = start(ScriptConfig::new(exec));
        let said = || text_of(&runner.state()).is_some();
        assert!(
            run_until(context, Duration::from_secs(5), said),
            "{states:?}"
        );
        assert_eq!(text_of(&runner.state()), Some("1024"));
    });
}

#[test]
fn a_whole_output_is_one_line_of_text_and_a_too_long_one_fails() {
    on_own_context(|context, dir| {
        // A JSON array printed by `jq .`: over several lines, with blank ones.
        let exec = script(
            dir,
            "pretty.sh",
            "printf '[\\n  {\\n    \"path\": \"/a.png\"\\n  },\\n\\n  {\"path\": \"/b.png\"}\\n]\\n'",
        );
        let config = ScriptConfig {
            interval: Some(IntervalSetting::Once),
            whole_output: true,
            ..ScriptConfig::new(exec)
        };
        let (runner, states) = start(config);
        let shown = || matches!(runner.state(), ScriptState::Output(_));
        assert!(
            run_until(context, Duration::from_secs(3), shown),
            "{states:?}"
        );
        let ScriptState::Output(output) = runner.state() else {
            unreachable!()
        };
        let value: serde_json::Value = serde_json::from_str(&output.text).expect(&output.text);
        assert_eq!(value[1]["path"], "/b.png", "{}", output.text);
        assert_eq!(output.tooltip, None, "no line is the tooltip");

        // 40 lines of 2 KiB: more than a whole output may be.
        let exec = script(
            dir,
            "long.sh",
            "i=0; while [ $i -lt 40 ]; do head -c 2048 /dev/zero | tr '\\0' x; echo; \
             i=$((i+1)); done",
        );
        let config = ScriptConfig {
            interval: Some(IntervalSetting::Once),
            whole_output: true,
            ..ScriptConfig::new(exec)
        };
        let (runner, states) = start(config);
        let failed = || reason_of(&runner.state()).is_some();
        assert!(
            run_until(context, Duration::from_secs(3), failed),
            "{states:?}"
        );
        let reason = reason_of(&runner.state()).unwrap_or_default().to_owned();
        assert!(reason.contains("longer than 64 KiB"), "{reason}");
    });
}
