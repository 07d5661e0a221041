use std::path::Path;

use super::*;
use crate::modules::Module;
use std::rc::Rc;

fn parse_str(text: &str) -> Result<Config, String> {
    parse(text, Path::new("/home/u/.config/ringbar/config.toml")).map_err(|e| e.to_string())
}

fn names(part: &[Rc<dyn Module>]) -> Vec<&str> {
    part.iter().map(|m| m.name()).collect()
}

#[test]
fn empty_file_is_the_defaults() {
    let config = parse_str("").expect("valid");
    assert_eq!(names(&config.modules.left), DEFAULT_LEFT);
    assert_eq!(names(&config.modules.center), DEFAULT_CENTER);
    assert_eq!(names(&config.modules.right), DEFAULT_RIGHT);
    assert_eq!((config.bars[0].height, config.interval_ms), (26, 2000));
    assert_eq!(config.bars.len(), 1);
    assert!(config.bars[0].output.is_everywhere());
}

#[test]
fn the_documented_example_parses_to_the_defaults() {
    let example = include_str!("../../data/config.toml");
    let config = parse_str(example).expect("data/config.toml must parse");
    let defaults = Config::default();
    assert_eq!(names(&config.modules.left), names(&defaults.modules.left));
    assert_eq!(
        names(&config.modules.center),
        names(&defaults.modules.center)
    );
    assert_eq!(names(&config.modules.right), names(&defaults.modules.right));
    assert_eq!(config.bars[0].position, defaults.bars[0].position);
    assert_eq!(config.bars[0].layer, defaults.bars[0].layer);
    assert_eq!(config.bars[0].height, defaults.bars[0].height);
    assert_eq!(config.bars[0].width, defaults.bars[0].width);
    assert_eq!(config.bars.len(), 1);
    assert_eq!(config.interval_ms, defaults.interval_ms);
    assert_eq!(config.kernel_threads, defaults.kernel_threads);
    assert_eq!(config.sensors, defaults.sensors);
}

#[test]
fn every_key_is_read() {
    let config = parse_str(
        "position = \"bottom\"\nlayer = \"overlay\"\nheight = 40\nmargin_top = 1\n\
         margin_bottom = 2\nmargin_left = 3\nmargin_right = 4\n\
         modules_left = [\"memory\"]\nmodules_center = [\"cpu\"]\nmodules_right = [\"gpu\", \"cpu\"]\n\
         interval_ms = 500\nkernel_threads = true\n[cpu]\nwarning = 50\ncritical = 60.5\n\
         [sensors]\ncpu_temperature = { hwmon = \"k10temp\", label = \"Tccd1\" }\ngpu = \"card1\"\n",
    )
    .expect("valid");
    let bar = &config.bars[0];
    assert_eq!(bar.position, Position::Bottom);
    assert_eq!(bar.layer, Layer::Overlay);
    assert_eq!(bar.height, 40);
    assert_eq!(
        (
            bar.margin_top,
            bar.margin_bottom,
            bar.margin_left,
            bar.margin_right
        ),
        (1, 2, 3, 4)
    );
    assert_eq!(names(&config.modules.left), ["memory"]);
    assert_eq!(names(&config.modules.center), ["cpu"]);
    assert_eq!(names(&config.modules.right), ["gpu", "cpu"]);
    assert!(
        Rc::ptr_eq(&config.modules.center[0], &config.modules.right[1]),
        "one module made from its table, wherever it is listed"
    );
    assert_eq!(config.interval_ms, 500);
    assert!(config.kernel_threads);
    assert_eq!(
        config.sensors.cpu_temperature,
        Some(SensorName {
            hwmon: "k10temp".to_owned(),
            label: Some("Tccd1".to_owned())
        })
    );
    assert_eq!(config.sensors.gpu.as_deref(), Some("card1"));
    let unlabelled = parse_str("[sensors]\ncpu_temperature = { hwmon = \"zenpower\" }\n")
        .expect("label is optional");
    assert_eq!(
        unlabelled.sensors.cpu_temperature.map(|s| s.label),
        Some(None)
    );
    let typo = parse_str("[sensors]\ncpu_temperature = { hwmon = \"x\", lable = \"y\" }\n")
        .expect_err("unknown key");
    assert!(
        typo.contains(":2:") && typo.contains("unknown field `lable`"),
        "{typo}"
    );
}

#[test]
fn module_tables_set_the_thresholds() {
    use crate::modules::Level;
    use crate::sample::Sample;

    let config = parse_str(
        "modules_left = [\"cpu\", \"memory\"]\n[cpu]\nwarning = 10\ncritical = 20\n\
         [memory]\ncritical = 50\n",
    )
    .expect("valid");
    let mut sample = Sample::default();
    let s = &mut sample.processes;
    (s.interval_ns, s.online_cpus, s.cpu_busy_ns) = (1_000_000_000, 1, 150_000_000);
    s.memory = Some(crate::model::Memory {
        total: 100,
        available: 40,
        swap_total: 0,
        swap_free: 0,
    });
    let input = crate::modules::tests::input(&sample);
    let level = |module: &Rc<dyn Module>| {
        let mut out = String::new();
        module.text(&input, &mut out).expect("shown").level
    };
    assert_eq!(
        level(&config.modules.left[0]),
        Level::Warning,
        "15 % ≥ 10 %"
    );
    assert_eq!(
        level(&config.modules.left[1]),
        Level::Critical,
        "60 % ≥ 50 %"
    );
    let defaults = Config::default();
    let cpu = defaults.modules.right.iter().find(|m| m.name() == "cpu");
    assert_eq!(level(cpu.expect("cpu by default")), Level::Normal);
}

#[test]
fn the_compositor_can_be_named() {
    let config = parse("compositor = \"niri\"\n", Path::new("c.toml")).expect("valid");
    assert_eq!(config.compositor.as_deref(), Some("niri"));
    assert_eq!(Config::default().compositor, None);
    assert!(parse("compositor = 3\n", Path::new("c.toml")).is_err());
}

#[test]
fn errors_name_file_line_and_key() {
    let typo = parse_str("height = 30\nheigth = 30\n").expect_err("typo");
    assert!(
        typo.starts_with(
            "/home/u/.config/ringbar/config.toml:2: `heigth = 30`: unknown field `heigth`, \
             expected one of `output`, `position`, `layer`, `height`, `width`, `margin_top`, \
             `margin_bottom`, `margin_left`, `margin_right`, `spacing`, `rotate`, `modules_left`, \
             `modules_center`, `modules_right`, `interval_ms`, `kernel_threads`, `group_by`, `sensors`, \
             `compositor`, or a module table: `[cpu]`, `[memory]`"
        ) && typo.ends_with(
            "`[tray]`, `[cpu_graph]`, `[memory_graph]`; or a bar of its own in a [[bar]] \
             table (using the defaults)"
        ),
        "{typo}"
    );
    let wrong_type = parse_str("\n\nheight = \"tall\"\n").expect_err("wrong type");
    assert!(
        wrong_type.starts_with(
            "/home/u/.config/ringbar/config.toml:3: `height = \"tall\"`: invalid type: \
             string \"tall\", expected u32"
        ),
        "{wrong_type}"
    );
    let bad_toml = parse_str("position = top\n").expect_err("bad toml");
    assert!(
        bad_toml.contains("config.toml:1: `position = top`"),
        "{bad_toml}"
    );
    let nested = parse_str("[cpu]\nwarning = 150\n").expect_err("range");
    assert!(
        nested.contains(":2: `warning = 150`: 150 is not a percentage between 0 and 100"),
        "{nested}"
    );
    let unknown_in_module = parse_str("[gpu]\nwarning = 1\ncolour = 2\n").expect_err("key");
    assert!(
        unknown_in_module.contains(":3: `colour = 2`: unknown field `colour`"),
        "{unknown_in_module}"
    );
    let bad_value = parse_str("position = \"middle\"\n").expect_err("variant");
    assert!(
        bad_value.contains(":1: `position = \"middle\"`: unknown variant `middle`"),
        "{bad_value}"
    );
    assert!(parse_str("interval_ms = 10\n")
        .expect_err("too fast")
        .contains("interval_ms 10 is not between 50 and 60000"));
    let unknown_module = parse_str("modules_left = [\"cpu\",\n  \"cpux\"]\n").expect_err("name");
    assert!(
        unknown_module.contains(":2: `\"cpux\"]`: no module is called \"cpux\"; modules: cpu, "),
        "{unknown_module}"
    );
    let listed = crate::modules::names().all(|name| unknown_module.contains(name));
    assert!(listed, "every module named: {unknown_module}");
}

#[test]
fn keys_of_earlier_versions_say_what_to_write_instead() {
    let labels = parse_str("labels = [\"cpu\"]\n").expect_err("replaced");
    assert!(
        labels.contains(":1: `labels = [\"cpu\"]`: `labels` is now `modules_left`"),
        "{labels}"
    );
    let thresholds = parse_str("\n[thresholds]\ncpu_warning = 50\n").expect_err("replaced");
    assert!(
        thresholds.contains(":2: `[thresholds]`: `[thresholds]` is gone")
            && thresholds.contains("`[cpu]` with `warning = 70.0`"),
        "{thresholds}"
    );
}

#[test]
fn load_survives_missing_garbage_and_unreadable_files() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("config.toml");
    let (config, error) = load(&path);
    assert_eq!((config.bars[0].height, error), (26, None));

    std::fs::write(&path, b"height = 30\n\xff\xfe\x00garbage").expect("write");
    let (config, error) = load(&path);
    assert_eq!(config.bars[0].height, 26);
    let error = error.expect("garbage is reported");
    assert_eq!(error.line, Some(2));
    assert!(error.to_string().contains("not UTF-8"), "{error}");

    std::fs::write(&path, "height = 30\n").expect("write");
    assert_eq!(load(&path).0.bars[0].height, 30);

    // A directory where the file should be: a read error, not a panic.
    let dir_path = dir.path().join("dir.toml");
    std::fs::create_dir(&dir_path).expect("mkdir");
    let (config, error) = load(&dir_path);
    assert_eq!(config.bars[0].height, 26);
    assert!(error.expect("reported").message.starts_with("cannot read"));
    let as_error: &dyn std::error::Error = &ConfigError::whole_file(&path, "x".to_owned());
    assert!(as_error.to_string().ends_with("x (using the defaults)"));
}

#[test]
fn group_by_is_app_or_process_and_unset_by_default() {
    use crate::model::app::GroupBy;
    assert_eq!(Config::default().group_by, None);
    let app = parse_str("group_by = \"app\"\n").expect("app");
    assert_eq!(app.group_by, Some(GroupBy::App));
    let process = parse_str("group_by = \"process\"\n").expect("process");
    assert_eq!(process.group_by, Some(GroupBy::Process));
    let wrong = parse_str("group_by = \"apps\"\n").expect_err("apps");
    assert!(wrong.contains("group_by"), "{wrong}");
}

#[test]
fn module_lists_are_capped() {
    let list = |n: usize| vec!["\"cpu\""; n].join(", ");
    let at_cap = format!("modules_right = [{}]\n", list(MAX_MODULES_PER_GROUP));
    let config = parse_str(&at_cap).expect("64 modules are fine");
    assert_eq!(config.modules.right.len(), MAX_MODULES_PER_GROUP);
    let hostile = format!("modules_left = [{}]\n", list(1_000_000));
    let err = parse_str(&hostile).expect_err("a million modules");
    assert!(
        err.contains("more than 64 modules in one group (1000000 here)"),
        "{err}"
    );
    // Checked before any module is made: a million would take seconds and 100+ MB.
    assert!(err.len() < 400, "a short message: {} bytes", err.len());
}

#[test]
fn every_problem_is_found_not_only_the_first() {
    let text = "heigth = 30\ninterval_ms = 5\nmodules_left = [\"cpu\", \"nope\"]\n\
                [cpu]\nwarning = \"high\"\n[custom.x]\nexec = 3\n";
    let errors = parse_all(text, Path::new("c.toml")).expect_err("five problems");
    let mut lines: Vec<usize> = errors.iter().filter_map(|e| e.line).collect();
    lines.sort_unstable();
    assert_eq!(lines, [1, 2, 3, 5, 7], "{errors:#?}");
    let messages: Vec<&str> = errors.iter().map(|e| e.message.as_str()).collect();
    assert!(
        messages
            .iter()
            .any(|m| m.starts_with("unknown field `heigth`")),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.contains("no module is called \"nope\"")),
        "{messages:?}"
    );
    // The first of them is what the bar shows.
    let first = parse(text, Path::new("c.toml")).expect_err("broken");
    assert_eq!(first, errors[0]);
    // A syntax error ends the reading: one error.
    let syntax = parse_all("height = [", Path::new("c.toml")).expect_err("a syntax error");
    assert_eq!(syntax.len(), 1);
}

#[test]
fn an_unknown_key_in_sensors_is_not_offered_the_module_tables() {
    let err = parse_str("[sensors]\ngpus = \"card1\"\n").expect_err("unknown");
    assert!(err.contains("unknown field `gpus`"), "{err}");
    assert!(!err.contains("module table"), "{err}");
    let top = parse_str("colour = 1\n").expect_err("unknown");
    assert!(top.contains("or a module table: `[cpu]`"), "{top}");
}

#[test]
fn include_loopback_is_the_network_tables_whether_listed_or_not() {
    assert!(!Config::default().net_include_local);
    let listed = "modules_right = [\"network\"]\n[network]\ninclude_loopback = true\n";
    assert!(parse_str(listed).expect("valid").net_include_local);
    let unlisted = "modules_right = [\"cpu\"]\n[network]\ninclude_loopback = true\n";
    assert!(parse_str(unlisted).expect("valid").net_include_local);
    let wrong = parse_str("[network]\ninclude_loopback = \"yes\"\n").expect_err("a string");
    assert!(wrong.contains("include_loopback"), "{wrong}");
}

#[test]
fn every_module_takes_the_click_keys_over_its_own_clicks() {
    use crate::modules::{Action, Button, Request};
    let text = "modules_right = [\"cpu\", \"battery#bat2\", \"clock\"]\n\
                [cpu]\nwarning = 50\non-click = \"btop\"\non-scroll-up = \"up\"\n\
                [\"battery#bat2\"]\non-click-right = \"power\"\n";
    let config = parse_str(text).expect("valid");
    let [cpu, battery, clock] = &config.modules.right[..] else {
        panic!("three modules");
    };
    assert_eq!(cpu.action(Button::Left), Some(Action::Run(Button::Left)));
    assert_eq!(cpu.command(Button::Left), Some("btop"));
    assert_eq!(cpu.command(Button::ScrollUp), Some("up"));
    assert_eq!(
        cpu.action(Button::Middle),
        Some(Action::Monitor(Request::ToggleKernelThreads)),
        "a button without a command keeps the module's own action"
    );
    assert_eq!(
        (battery.name(), battery.instance_class()),
        ("battery#bat2", Some("bat2"))
    );
    assert_eq!(
        battery.action(Button::Right),
        Some(Action::Run(Button::Right))
    );
    assert_eq!(battery.command(Button::Right), Some("power"));
    assert_eq!(clock.command(Button::Left), None);
    let wrong = parse_str("[cpu]\nwarning = 50\non-click = 5\n").expect_err("a number");
    assert!(wrong.contains(":3:") && wrong.contains("string"), "{wrong}");
    let unknown = parse_str("[cpu]\non-klick = \"x\"\n").expect_err("a typo");
    assert!(unknown.contains("on-klick"), "{unknown}");
}

#[test]
fn a_custom_module_without_exec_is_a_fixed_label_whose_clicks_run_their_commands() {
    use crate::modules::{Action, Button, Widget};
    let text = "modules_right = [\"custom/launcher\"]\n\
                [custom.launcher]\nformat = \"apps\"\non-click = \"wofi --show drun\"\n";
    let config = parse_str(text).expect("valid");
    let launcher = &config.modules.right[0];
    assert!(
        matches!(launcher.widget(), Widget::Label),
        "no script to run"
    );
    assert_eq!(
        launcher.action(Button::Left),
        Some(Action::Run(Button::Left))
    );
    assert_eq!(launcher.command(Button::Left), Some("wofi --show drun"));
    assert_eq!(launcher.action(Button::Right), None);
    let script = parse_str(
        "modules_right = [\"custom/s\"]\n[custom.s]\nexec = \"date\"\non-click = \"x\"\n",
    )
    .expect("valid");
    let script = &script.modules.right[0];
    assert_eq!(
        script.action(Button::Left),
        Some(Action::Script(Button::Left))
    );
    // The command is the module's, as every module's; `Action::Script` runs it through
    // the script's runner, which runs the script again after it.
    assert_eq!(script.command(Button::Left), Some("x"));
    for needs_exec in [
        "interval = 5",
        "exec-if = \"true\"",
        "signal = 3",
        "return-type = \"json\"",
    ] {
        let text =
            format!("modules_right = [\"custom/x\"]\n[custom.x]\nformat = \"x\"\n{needs_exec}\n");
        let err = parse_str(&text).expect_err(needs_exec);
        assert!(err.contains("needs `exec`"), "{err}");
    }
}

/// The GPUs are read (and NVML loaded) only for a layout with a module that shows them:
/// the `gpu` module, or one whose tooltip is the monitor's report.
#[test]
fn the_gpus_are_skipped_where_no_listed_module_shows_them() {
    let skips = |lists: &str| {
        let text = format!("modules_left = []\nmodules_center = []\n{lists}");
        parse_str(&text).expect("valid").sensors.skip_gpus
    };
    assert!(
        !Config::default().sensors.skip_gpus,
        "the default layout has `gpu`"
    );
    assert!(skips("modules_right = [\"clock\", \"workspaces\"]\n"));
    assert!(!skips("modules_right = [\"clock\", \"gpu\"]\n"));
    assert!(
        !skips("modules_right = [\"cpu\"]\n"),
        "its tooltip is the report"
    );
    assert!(skips(
        "modules_right = [\"cpu\"]\n[cpu]\ntooltip-format = \"{usage}%\"\n"
    ));
    // A table alone lists nothing.
    assert!(skips("modules_right = [\"clock\"]\n[gpu]\nwarning = 50\n"));
    let bars = "[[bar]]\nmodules_right = [\"clock\"]\n[[bar]]\nmodules_right = [\"gpu\"]\n";
    assert!(!skips(bars), "a second bar's module counts");
}

/// A layout with no module that shows the monitor's samples takes none.
#[test]
fn samples_are_taken_only_for_a_layout_that_shows_them() {
    let takes = |right: &str| {
        let text = format!("modules_left = []\nmodules_center = []\nmodules_right = {right}\n");
        parse_str(&text).expect("valid").takes_samples
    };
    assert!(Config::default().takes_samples);
    assert!(!takes("[\"clock\", \"workspaces\", \"window\"]"));
    assert!(takes("[\"clock\", \"memory\"]"));
    assert!(takes("[\"battery\"]"), "its reading comes with the samples");
    assert!(takes("[\"cpu_graph\"]"));
}
