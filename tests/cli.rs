//! The `ringbar` binary as a user runs it. Needs root (the probe loads for real).

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::*;

const RINGBAR: &str = env!("CARGO_BIN_EXE_ringbar");

fn run(args: &[&str]) -> Output {
    Command::new(RINGBAR)
        .args(args)
        .output()
        .expect("run ringbar")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The row of a section whose name field (the last, after two spaces) is `name`.
fn row_value<'a>(section: &'a [&'a str], name: &str) -> Option<&'a str> {
    section.iter().find_map(|line| {
        let (value, row_name) = line.trim_start().split_once("  ")?;
        (row_name == name).then_some(value.trim())
    })
}

#[test]
fn once_prints_the_three_sections_with_the_busy_process() {
    require_root();
    let _serial = serial();
    let subjects = Subjects::new();
    let _spin = Subject::spawn(
        &subjects.program("rb-cli-spin", "/bin/sh"),
        &["-c", "while :; do :; done"],
    );
    std::thread::sleep(std::time::Duration::from_millis(200));
    let out = run(&["--once", "--interval-ms", "1000"]);
    let stdout = text(&out.stdout);
    assert!(
        out.status.success(),
        "ringbar --once failed: {}",
        text(&out.stderr)
    );

    let lines: Vec<&str> = stdout.lines().collect();
    let section = |title: &str| {
        lines
            .iter()
            .position(|l| l.starts_with(title))
            .unwrap_or_else(|| panic!("no {title} section in:\n{stdout}"))
    };
    let (cpu, memory, io) = (section("CPU  "), section("Memory  "), section("IO  "));
    assert!(
        cpu < memory && memory < io,
        "sections out of order:\n{stdout}"
    );
    assert!(
        lines[cpu].contains("100% = one core"),
        "the CPU header says what per-process % means"
    );

    let value = row_value(&lines[cpu + 1..memory], "rb-cli-spin")
        .unwrap_or_else(|| panic!("no spinner row:\n{stdout}"));
    let percent: f64 = value.trim_end_matches('%').parse().expect("a percentage");
    // Only the row's form here: its accuracy against the process's own runtime, over the
    // exact sampled window, is tests/probe_accuracy's (a busy machine gives it less than
    // a core, and this test cannot see when --once samples).
    assert!(
        percent > 0.0 && percent <= 105.0,
        "spinner at {percent}%:\n{stdout}"
    );
    let modules = lines[0];
    assert!(
        modules.contains("CPU ") && modules.contains("  MEM "),
        "the modules' texts come first: {stdout}"
    );
    assert!(
        lines
            .last()
            .is_some_and(|l| l.starts_with("sampled in ") && l.contains("every 1000 ms")),
        "{stdout}"
    );
}

#[test]
fn bench_ends_with_one_summary_line() {
    require_root();
    let out = run(&["--bench", "20"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let last = stdout.lines().last().expect("output");
    let numbers = last
        .strip_prefix("source=bpf ")
        .unwrap_or_else(|| panic!("root runs the probe: {last}"));
    let fields: Vec<(&str, u64)> = numbers
        .split(' ')
        .map(|f| {
            let (k, v) = f
                .split_once('=')
                .unwrap_or_else(|| panic!("not key=value: {f}"));
            (k, v.parse().unwrap_or_else(|_| panic!("not a number: {f}")))
        })
        .collect();
    let keys: Vec<&str> = fields.iter().map(|(k, _)| *k).collect();
    let phases = ["records_us", "model_us", "rank_us", "system_us", "rest_us"];
    assert_eq!(
        keys,
        [
            &["samples", "tasks", "procs", "median_us", "p99_us", "max_us"][..],
            &phases,
            &["walker"],
        ]
        .concat()
    );
    let value = |key: &str| {
        fields
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| *v)
            .expect("field")
    };
    assert_eq!(value("samples"), 20);
    assert!(value("tasks") >= value("procs") && value("procs") > 1);
    assert!(value("median_us") <= value("p99_us") && value("p99_us") <= value("max_us"));
    // Each phase's median is part of a sample; the records (walker or iterator) never take
    // nothing.
    for phase in phases {
        assert!(value(phase) <= value("max_us"), "{phase} > max_us: {last}");
    }
    assert!(value("records_us") > 0, "{last}");
    assert!(value("walker") <= 1, "{last}");
}

/// Runs a copy of ringbar as `nobody`, which cannot load the probe.
fn run_unprivileged(args: &[&str]) -> (Output, PathBuf) {
    require_root();
    // A copy an unprivileged user can execute, wherever the checkout lives.
    let dir = tempfile::tempdir().expect("tempdir").keep();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    // nobody's home is nobody's, as a user's is theirs (a sound server's client reads its cookie there).
    std::os::unix::fs::chown(&dir, Some(65534), Some(65534)).expect("chown");
    let exe = dir.join("ringbar");
    crate::common::copy_bar(&exe);
    let out = Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .arg(&exe)
        .args(args)
        // nobody's own (empty) home, not root's, which it may not read
        .env("HOME", &dir)
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("XDG_STATE_HOME")
        .output()
        .expect("run setpriv");
    let _ = std::fs::remove_dir_all(&dir);
    (out, exe)
}

/// The one line a run without the probe writes to stderr, checked for cause and fix.
fn assert_one_reason_line(stderr: &str, exe: &Path) {
    assert_eq!(
        stderr.lines().count(),
        1,
        "one line, not a libbpf dump: {stderr}"
    );
    assert!(
        stderr.starts_with("ringbar: BPF probe off, reading /proc instead:"),
        "{stderr}"
    );
    assert!(stderr.contains("CAP_BPF and CAP_PERFMON"), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "sudo setcap cap_bpf,cap_perfmon+ep {}",
            exe.display()
        )),
        "{stderr}"
    );
}

#[test]
fn without_privileges_once_reads_proc_and_says_why_in_one_line() {
    let (out, exe) = run_unprivileged(&["--once", "--interval-ms", "300"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "stderr: {stderr}");
    assert_one_reason_line(&stderr, &exe);
    let stdout = text(&out.stdout);
    assert!(stdout.lines().any(|l| l.starts_with("CPU  ")), "{stdout}");
    assert!(
        stdout.contains("sampled in ") && stdout.contains(" µs from /proc · "),
        "{stdout}"
    );
    let memory = stdout
        .lines()
        .find(|l| l.starts_with("Memory  "))
        .expect("Memory section");
    assert!(!memory.contains('–'), "real numbers from /proc: {memory}");
    // /proc refuses `nobody` the IO of root's processes: n/a, not 0.
    let io = stdout
        .lines()
        .find(|l| l.starts_with("IO  "))
        .expect("IO section");
    assert!(
        io.contains("n/a for ") && io.ends_with(" processes of other users"),
        "{io}"
    );
}

#[test]
fn without_privileges_bench_measures_the_proc_walk() {
    let (out, exe) = run_unprivileged(&["--bench", "5"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "stderr: {stderr}");
    assert_one_reason_line(&stderr, &exe);
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("source=proc samples=5 "), "{stdout}");
}

/// Script modules run once during `--once`: what each first says is printed as the bar
/// would show it (plain text without markup, or JSON), `exec-if` hides, a script that
/// says nothing in time is stopped.
#[test]
fn once_runs_the_script_modules_once() {
    require_root();
    let home = tempfile::tempdir().expect("tempdir");
    let config = home.path().join("ringbar");
    std::fs::create_dir_all(&config).expect("mkdir");
    let marker = format!("{}.5", 60_000 + std::process::id());
    std::fs::write(
        config.join("config.toml"),
        format!(
            "modules_left = []\nmodules_center = []\n\
             modules_right = [\"custom/json\", \"custom/plain\", \"custom/hidden\", \"custom/slow\", \
             \"custom/huge\"]\n\
             [custom.json]\nexec = \"echo '{{\\\"text\\\": \\\"rain <b>12°</b>\\\", \\\"tooltip\\\": \\\"wet &amp; cold\\\"}}'\"\n\
             return-type = \"json\"\ninterval = 30\n\
             [custom.plain]\nexec = \"while :; do echo plain; sleep 1; done\"\n\
             [custom.hidden]\nexec = \"echo never\"\nexec-if = \"false\"\n\
             [custom.slow]\nexec = \"sleep {marker}; echo late\"\ninterval = \"once\"\n\
             [custom.huge]\nexec = \"head -c 50000000 /dev/zero | tr '\\\\0' x; echo\"\ninterval = 30\n"
        ),
    )
    .expect("config");
    let once = |json: bool| {
        let mut command = Command::new(RINGBAR);
        command.args(["--once", "--interval-ms", "200"]);
        if json {
            command.arg("--json");
        }
        let out = command
            .env("XDG_CONFIG_HOME", home.path())
            .output()
            .expect("run ringbar");
        assert!(out.status.success(), "{}", text(&out.stderr));
        out
    };
    let out = once(false);
    let stdout = text(&out.stdout);
    let first = stdout.lines().next().unwrap_or_default();
    // The huge line's module shows the failure marker, its reason in the tooltip lines.
    assert_eq!(first, "rain 12°  plain  ⚠", "{stdout}");
    assert!(stdout.lines().any(|l| l == "wet & cold"), "{stdout}");
    assert!(
        text(&out.stderr).contains("custom/slow: said nothing within 5s"),
        "{}",
        text(&out.stderr)
    );
    // A 50 MB line takes longer than 5 s to read: it is refused for its length at once.
    assert!(
        stdout
            .lines()
            .any(|l| l == "custom/huge: an output line is longer than 64 KiB"),
        "{stdout}"
    );
    assert!(!text(&out.stderr).contains("custom/huge: said nothing"));
    let doc: serde_json::Value = serde_json::from_slice(&once(true).stdout).expect("JSON");
    let module = |name: &str| {
        doc["modules"]
            .as_array()
            .and_then(|m| m.iter().find(|m| m["name"] == name))
            .cloned()
            .unwrap_or_default()
    };
    assert_eq!(module("custom/json")["text"], "rain <b>12°</b>");
    assert_eq!(module("custom/plain")["text"], "plain");
    assert_eq!(module("custom/hidden")["visible"], false);
    assert_eq!(module("custom/slow")["visible"], false);
    let huge = module("custom/huge");
    assert_eq!(huge["text"], "⚠", "{huge}");
    assert_eq!(huge["class"], "failed", "{huge}");
    // The slow script was stopped, not left behind.
    let left = std::process::Command::new("pgrep")
        .args(["-f", &format!("sleep {marker}")])
        .output()
        .expect("pgrep");
    assert!(
        text(&left.stdout).trim().is_empty(),
        "{}",
        text(&left.stdout)
    );
}

/// `ringbar check` names every problem of a config, and passes the shipped example.
#[test]
fn check_names_every_problem_and_passes_the_example() {
    let dir = tempfile::tempdir().expect("tempdir");
    let broken = dir.path().join("broken.toml");
    std::fs::write(
        &broken,
        "heigth = 30\ninterval_ms = 5\nmodules_left = [\"cpu\", \"nope\"]\n[cpu]\nwarning = \"high\"\n",
    )
    .expect("write");
    let out = run(&["check", broken.to_str().expect("path")]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{stdout}");
    for (line, number) in lines.iter().zip([5, 1, 2, 3]) {
        let prefix = format!("{}:{number}: ", broken.display());
        assert!(line.starts_with(&prefix), "{line} / {prefix}");
    }
    assert!(
        text(&out.stderr).contains("4 problems in"),
        "{}",
        text(&out.stderr)
    );

    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/config.toml");
    let out = run(&["check", example.to_str().expect("path")]);
    assert!(out.status.success(), "{}", text(&out.stdout));
    assert!(text(&out.stdout).ends_with(": fine\n"));
    let out = run(&["check", "/nonexistent/ringbar.toml"]);
    assert_eq!(out.status.code(), Some(1));
    let out = run(&["check", "a", "b"]);
    assert_eq!(out.status.code(), Some(2), "a second file is a usage error");
}

/// Without a config of the user's, the first `ringbar/config.toml` of `$XDG_CONFIG_DIRS`
/// (the package's defaults in /etc/xdg) is read; the user's own wins once it exists.
#[test]
fn the_system_config_serves_until_the_user_has_one() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (home, system) = (dir.path().join("home"), dir.path().join("etc"));
    std::fs::create_dir_all(system.join("ringbar")).expect("mkdir");
    std::fs::create_dir_all(&home).expect("mkdir");
    std::fs::write(system.join("ringbar/config.toml"), "heigth = 3\n").expect("write");
    let check = || {
        Command::new(RINGBAR)
            .arg("check")
            .env("HOME", &home)
            .env_remove("XDG_CONFIG_HOME")
            .env("XDG_CONFIG_DIRS", format!("relative:{}", system.display()))
            .output()
            .expect("run ringbar check")
    };
    let out = check();
    assert_eq!(out.status.code(), Some(1));
    let system_file = system.join("ringbar/config.toml").display().to_string();
    assert!(
        text(&out.stdout).starts_with(&format!("{system_file}:1: `heigth = 3`")),
        "{}",
        text(&out.stdout)
    );
    let user = home.join(".config/ringbar");
    std::fs::create_dir_all(&user).expect("mkdir");
    std::fs::write(user.join("config.toml"), "height = 30\n").expect("write");
    let out = check();
    assert!(out.status.success(), "{}", text(&out.stderr));
}

/// A custom module without `exec` (Waybar's launchers and separators) runs nothing and
/// shows its `format`; its keys that need a script are refused.
#[test]
fn a_custom_module_without_exec_shows_its_format() {
    let home = tempfile::tempdir().expect("tempdir");
    let config = home.path().join("ringbar");
    std::fs::create_dir_all(&config).expect("mkdir");
    let write = |text: &str| std::fs::write(config.join("config.toml"), text).expect("config");
    write(
        "modules_left = []\nmodules_center = []\n\
         modules_right = [\"custom/launcher\", \"custom/sep\", \"custom/nothing\"]\n\
         [custom.launcher]\nformat = \"<b>apps</b>\"\non-click = \"wofi --show drun\"\n\
         [custom.sep]\nformat = \"|\"\n\
         [custom.nothing]\non-click = \"true\"\n",
    );
    let once = || {
        Command::new(RINGBAR)
            .args(["--once", "--json", "--interval-ms", "200"])
            .env("XDG_CONFIG_HOME", home.path())
            .output()
            .expect("run ringbar")
    };
    let out = once();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let shown: Vec<(String, String, bool)> = doc["modules"]
        .as_array()
        .expect("modules")
        .iter()
        .map(|m| {
            let field = |key: &str| m[key].as_str().unwrap_or("").to_owned();
            (field("name"), field("text"), m["visible"] == true)
        })
        .collect();
    let module = |name: &str, text: &str, visible| (name.to_owned(), text.to_owned(), visible);
    assert_eq!(
        shown,
        [
            module("custom/launcher", "<b>apps</b>", true),
            module("custom/sep", "|", true),
            module("custom/nothing", "", false),
        ],
        "the format as the label (markup, as a script's); none: hidden"
    );

    write("modules_right = [\"custom/x\"]\n[custom.x]\nformat = \"x\"\ninterval = 5\n");
    let out = Command::new(RINGBAR)
        .arg("check")
        .env("XDG_CONFIG_HOME", home.path())
        .output()
        .expect("run ringbar check");
    assert!(!out.status.success());
    let said = text(&out.stderr) + &text(&out.stdout);
    assert!(said.contains("`interval` needs `exec`"), "{said}");
}

/// The clock's `locale` names the days in its language, whatever the session's; the same
/// clock without it speaks the session's. `scripts/dev.sh` generates de_DE.UTF-8.
#[test]
fn a_clocks_locale_names_the_days_in_its_language() {
    let german = "de_DE.UTF-8";
    let has = Command::new("locale")
        .arg("-a")
        .output()
        .expect("locale -a");
    assert!(
        text(&has.stdout).lines().any(|l| l == "de_DE.utf8"),
        "{german} is missing: `scripts/dev.sh setup` generates it"
    );
    let home = tempfile::tempdir().expect("tempdir");
    let config = home.path().join("ringbar");
    std::fs::create_dir_all(&config).expect("mkdir");
    std::fs::write(
        config.join("config.toml"),
        format!(
            "modules_left = []\nmodules_center = []\nmodules_right = [\"clock\", \"clock#de\"]\n\
             [clock]\nformat = \"%A\"\n[\"clock#de\"]\nformat = \"%A\"\nlocale = \"{german}\"\n"
        ),
    )
    .expect("config");
    let day_in = |locale: &str| {
        let out = Command::new("date")
            .arg("+%A")
            .env("LC_ALL", locale)
            .output()
            .expect("date");
        text(&out.stdout).trim().to_owned()
    };
    let before = (day_in("C"), day_in(german));
    let out = Command::new(RINGBAR)
        .args(["--once", "--json", "--interval-ms", "200"])
        .env("XDG_CONFIG_HOME", home.path())
        .env_remove("LC_ALL")
        .env_remove("LC_TIME")
        .env_remove("LANG")
        .output()
        .expect("run ringbar");
    let after = (day_in("C"), day_in(german));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let shown = |name: &str| {
        let modules = doc["modules"].as_array().expect("modules");
        let module = modules.iter().find(|m| m["name"] == name).expect(name);
        module["text"].as_str().unwrap_or_default().to_owned()
    };
    let shown = (shown("clock"), shown("clock#de"));
    // Either side of a midnight that came during the run.
    assert!(
        shown == before || shown == after,
        "{shown:?}, date says {before:?}"
    );
    assert_ne!(shown.0, shown.1, "two languages");
}
