//! `ringbar import-waybar` on configs nobody here wrote: Debian's own
//! `/etc/xdg/waybar/config` and `style.css` from the `waybar` package (installed by
//! `scripts/dev.sh setup`), and a JSONC config with comments, trailing commas and an
//! `include`.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value as Json;

const RINGBAR: &str = env!("CARGO_BIN_EXE_ringbar");
const DEBIAN_CONFIG: &str = "/etc/xdg/waybar/config";

fn ringbar(args: &[&str], home: &Path) -> Output {
    Command::new(RINGBAR)
        .args(args)
        .env("HOME", home)
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("XDG_CONFIG_DIRS")
        .env_remove("XDG_RUNTIME_DIR")
        .output()
        .expect("run ringbar")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn debians_waybar_config_converts_checks_and_runs() {
    assert!(
        Path::new(DEBIAN_CONFIG).is_file(),
        "Debian's waybar package is installed (scripts/dev.sh setup)"
    );
    let home = tempfile::tempdir().expect("home");
    let out = ringbar(&["import-waybar", DEBIAN_CONFIG], home.path());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let converted = text(&out.stdout);
    let report = text(&out.stderr);
    // Every module of Debian's comes over: its keyboard-state too, with its locks and
    // icons.
    assert!(!report.contains("no ringbar module yet"), "{report}");
    assert!(
        converted.contains("[keyboard-state]\ncapslock = true\nformat = \"{name} {icon}\""),
        "{converted}"
    );
    // Its scratchpad, with its icons and tooltip.
    assert!(!report.contains("`sway/scratchpad`"), "{report}");
    assert!(
        converted.contains("[scratchpad]\nformat = \"{icon} {count}\"\nformat-icons = [\""),
        "{converted}"
    );
    // Its mpd module, with its formats, time specs and icons.
    assert!(!report.contains("`mpd`: no ringbar module yet"), "{report}");
    assert!(
        converted.contains("[mpd]\nformat = \"{stateIcon} {consumeIcon}{randomIcon}{repeatIcon}{singleIcon}{artist} - {album} - {title} ({elapsedTime:%M:%S}/{totalTime:%M:%S})"),
        "{converted}"
    );
    assert!(converted.contains("[mpd.state-icons]"), "{converted}");
    // Its network module, with the formats whose fields ringbar fills.
    assert!(
        converted.contains("format-ethernet = \"{ipaddr}/{cidr} "),
        "{converted}"
    );
    // Its Wi-Fi format, and its binding mode's italic markup as the text it shows.
    assert!(
        converted.contains("format-wifi = \"{essid} ({signalStrength}%)"),
        "{converted}"
    );
    assert!(
        converted.contains("[mode]\nformat = \"{mode}\""),
        "{converted}"
    );
    // Its memory format, whose {} is the used share; its temperature, with its icons.
    assert!(
        converted.contains("[memory]\nformat = \"{percentage}% "),
        "{converted}"
    );
    assert!(
        converted.contains(
            "[temperature]\ncritical-threshold = 80\nformat = \"{temperatureC}°C {icon}\""
        ),
        "{converted}"
    );
    // Its backlight, with its icons from dark to bright.
    assert!(
        converted.contains("[backlight]\nformat = \"{percent}% {icon}\"\nformat-icons = ["),
        "{converted}"
    );
    // Its idle inhibitor, with its icons by status.
    assert!(
        converted.contains("[idle_inhibitor]\nformat = \"{icon}\"")
            && converted.contains("[idle_inhibitor.format-icons]"),
        "{converted}"
    );
    // The style beside it: what is renamed, and what will not match.
    assert!(
        report.contains("window#waybar: renamed window#ringbar"),
        "{report}"
    );
    assert!(
        report.contains("#disk: no such module in the converted config"),
        "{report}"
    );
    assert!(
        !report.contains("#clock:")
            && !report.contains("#battery:")
            && !report.contains("#scratchpad:"),
        "{report}"
    );

    let dir = home.path().join(".config/ringbar");
    std::fs::create_dir_all(&dir).expect("config dir");
    let file = dir.join("config.toml");
    std::fs::write(&file, &converted).expect("write");
    let check = ringbar(&["check", file.to_str().expect("path")], home.path());
    assert!(
        check.status.success(),
        "{}\n{converted}",
        text(&check.stdout)
    );

    let once = ringbar(&["--once", "--json", "--interval-ms", "200"], home.path());
    assert!(once.status.success(), "{}", text(&once.stderr));
    let doc: Json = serde_json::from_slice(&once.stdout).expect("JSON");
    let names: Vec<&str> = doc["modules"]
        .as_array()
        .expect("modules")
        .iter()
        .map(|m| m["name"].as_str().expect("name"))
        .collect();
    assert_eq!(
        names,
        [
            "workspaces",
            "mode",
            "scratchpad",
            "custom/media",
            "window",
            "mpd",
            "idle_inhibitor",
            "pulseaudio",
            "network",
            "cpu",
            "memory",
            "temperature",
            "backlight",
            "keyboard-state",
            "language",
            "battery",
            "battery#bat2",
            "clock",
            "tray"
        ]
    );
    // No MPD here: its own `format-disconnected`, and its class.
    let mpd = doc["modules"]
        .as_array()
        .expect("modules")
        .iter()
        .find(|m| m["name"] == "mpd")
        .expect("mpd");
    assert_eq!(mpd["class"], "disconnected", "{mpd}");
    assert!(
        mpd["text"]
            .as_str()
            .expect("text")
            .starts_with("Disconnected"),
        "{mpd}"
    );
    let memory = doc["modules"]
        .as_array()
        .expect("modules")
        .iter()
        .find(|m| m["name"] == "memory")
        .expect("memory");
    // Waybar's share, 100 × (MemTotal − MemAvailable) / MemTotal truncated, against
    // /proc/meminfo read now (within a percent: the two reads are apart).
    let shown = memory["text"].as_str().expect("memory's text");
    let (percent, _) = shown
        .split_once("% ")
        .unwrap_or_else(|| panic!("{shown:?}"));
    let percent: i64 = percent.parse().unwrap_or_else(|_| panic!("{shown:?}"));
    let meminfo = std::fs::read_to_string("/proc/meminfo").expect("meminfo");
    let kib = |key: &str| -> i64 {
        let line = meminfo.lines().find(|l| l.starts_with(key)).expect(key);
        line.split_whitespace()
            .nth(1)
            .and_then(|n| n.parse().ok())
            .expect(key)
    };
    let truth = 100 * (kib("MemTotal:") - kib("MemAvailable:")) / kib("MemTotal:");
    assert!((percent - truth).abs() <= 1, "{shown:?} against {truth}%");
    // Its cpu format, `{usage}% `: the busy share the sample measured, truncated.
    let cpu = doc["modules"]
        .as_array()
        .expect("modules")
        .iter()
        .find(|m| m["name"] == "cpu")
        .expect("cpu");
    let shown = cpu["text"].as_str().expect("shown");
    let (usage, _) = shown
        .split_once("% ")
        .unwrap_or_else(|| panic!("{shown:?}"));
    let busy = cpu["percentage"].as_f64().expect("measured");
    assert_eq!(
        usage.parse::<f64>().ok(),
        Some(busy.floor()),
        "{shown:?} at {busy}"
    );
}

#[test]
fn jsonc_comments_trailing_commas_and_includes_are_read() {
    let dir = tempfile::tempdir().expect("dir");
    std::fs::write(
        dir.path().join("modules.jsonc"),
        "{\n  // shared module settings\n  \"clock\": { \"format\": \"{:%H:%M}\", },\n  \"height\": 99,\n}\n",
    )
    .expect("include");
    let config = dir.path().join("config.jsonc");
    std::fs::write(
        &config,
        "// my bar\n{\n  \"include\": [\"modules.jsonc\"],\n  \"height\": 28, /* wins over the include */\n  \
         \"modules-right\": [\"clock\", \"cpu\",],\n}\n",
    )
    .expect("config");
    let out = ringbar(
        &["import-waybar", config.to_str().expect("path")],
        dir.path(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let converted = text(&out.stdout);
    assert!(converted.contains("height = 28"), "{converted}");
    assert!(converted.contains("format = \"%H:%M\""), "{converted}");
    assert!(
        converted.contains("modules_right = [\"clock\", \"cpu\"]"),
        "{converted}"
    );

    let broken = dir.path().join("broken.jsonc");
    std::fs::write(&broken, "{ \"height\": }").expect("broken");
    let out = ringbar(
        &["import-waybar", broken.to_str().expect("path")],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).starts_with(&format!("ringbar: {}", broken.display())),
        "{}",
        text(&out.stderr)
    );
}

/// What made real users' imports exit 1 with nothing printed, though Waybar loads their
/// configs: a stray `}` after the bar, `$HOME` in an include, an include that is gone.
/// Each is now a note, on stderr and in the output, and the import goes on.
#[test]
fn what_waybar_skips_is_a_note_not_a_failure() {
    let dir = tempfile::tempdir().expect("dir");
    let parts = dir.path().join(".config/waybar");
    std::fs::create_dir_all(&parts).expect("mkdir");
    std::fs::write(
        parts.join("modules.json"),
        "{\"clock\": {\"format\": \"{:L%A %H:%M}\"}}",
    )
    .expect("include");
    let config = parts.join("config");
    std::fs::write(
        &config,
        "{\n  \"include\": [\"$HOME/.config/waybar/modules.json\", \"~/.config/waybar/gone.json\"],\n  \
         \"modules-right\": [\"clock\", \"custom/launcher\"],\n  \
         \"custom/launcher\": {\"format\": \"apps\", \"on-click\": \"wofi\"}\n}\n}\n",
    )
    .expect("config");
    let out = ringbar(
        &["import-waybar", config.to_str().expect("path")],
        dir.path(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let converted = text(&out.stdout);
    let stderr = text(&out.stderr);
    assert!(converted.contains("format = \"%A %H:%M\""), "{converted}");
    assert!(
        converted.contains("modules_right = [\"clock\", \"custom/launcher\"]"),
        "{converted}"
    );
    for note in ["after the first JSON value", "gone.json", "no such file"] {
        assert!(stderr.contains(note), "{note} in {stderr}");
        assert!(converted.contains(note), "{note} in {converted}");
    }
    let checked = dir.path().join("converted.toml");
    std::fs::write(&checked, &converted).expect("write");
    let out = ringbar(&["check", checked.to_str().expect("path")], dir.path());
    assert!(
        out.status.success(),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
}

/// `-o DIR/` writes the config and the converted style whole, and never replaces the
/// user's files without `--force`: a redirect would have emptied them first.
#[test]
fn output_files_are_written_whole_and_kept_without_force() {
    let home = tempfile::tempdir().expect("home");
    let dir = home.path().join("ringbar");
    let dir_arg = format!("{}/", dir.display());
    let import = |extra: &[&str]| {
        let mut args = vec!["import-waybar", DEBIAN_CONFIG, "-o", &dir_arg];
        args.extend_from_slice(extra);
        ringbar(&args, home.path())
    };
    let out = import(&[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty());
    let config = dir.join("config.toml");
    let style = dir.join("style.css");
    let converted = std::fs::read_to_string(&config).expect("config.toml");
    assert!(converted.starts_with("# Converted from a Waybar config"));
    assert!(std::fs::read_to_string(&style)
        .expect("style.css")
        .contains("window#ringbar"));
    let check = ringbar(&["check", config.to_str().expect("path")], home.path());
    assert!(check.status.success(), "{}", text(&check.stdout));

    // The user's own files stay as they are, and nothing is written beside them.
    std::fs::write(&config, "# mine\n").expect("edit");
    std::fs::remove_file(&style).expect("rm style");
    let out = import(&[]);
    assert_eq!(out.status.code(), Some(1));
    let report = text(&out.stderr);
    assert!(
        report.contains(&format!(
            "{} exists; nothing written (--force replaces it)",
            config.display()
        )),
        "{report}"
    );
    assert_eq!(std::fs::read_to_string(&config).expect("kept"), "# mine\n");
    assert!(!style.exists());

    let out = import(&["--force"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read_to_string(&config).expect("replaced"),
        converted
    );
    assert!(style.exists());

    // A file name: that file alone.
    let single = home.path().join("single.toml");
    let out = ringbar(
        &[
            "import-waybar",
            DEBIAN_CONFIG,
            "-o",
            single.to_str().expect("path"),
        ],
        home.path(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(&single).expect("single"), converted);
    // No temporary file is left anywhere.
    for place in [home.path(), dir.as_path()] {
        let names: Vec<String> = std::fs::read_dir(place)
            .expect("list")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        assert!(
            !names.iter().any(|n| n.starts_with(".ringbar-import")),
            "{names:?}"
        );
    }
}
