//! Waybar's custom-module protocol, for `ringbar --waybar`: one JSON object per line with
//! `text`, `tooltip`, `class` and `percentage`, which Waybar reads from a module whose
//! `exec` runs continuously with `"return-type": "json"`. Both texts are Pango markup
//! in Waybar, so everything from outside is escaped.

use std::rc::Rc;

use serde_json::json;

use super::shown;
use crate::modules::{Input, Level, Module};
use crate::sample::Source;

/// The line for one sample (no newline): the shown modules' texts, the tooltip, the
/// worst level and the modules' state classes (`charging`, a script's own) as class, plus `probe-off`
/// when the numbers come from /proc, and the first module's percentage, rounded (Waybar
/// reads it as an integer).
pub fn line(input: &Input<'_>, modules: &[Rc<dyn Module>]) -> String {
    let sample = input.sample;
    let shown = shown(input, modules, true);
    let statuses = &shown.statuses;
    let worst = statuses
        .iter()
        .map(|s| s.level)
        .max()
        .unwrap_or(Level::Normal);
    let percentage = statuses.iter().find_map(|s| s.percentage);
    let mut class: Vec<&str> = worst.css_class().into_iter().collect();
    for state in statuses.iter().flat_map(|s| s.state_classes()) {
        if !class.contains(&state) {
            class.push(state);
        }
    }
    if sample.source == Source::Proc {
        class.push("probe-off");
    }
    if !sample.notices.is_empty() {
        class.push("notice");
    }
    let line = json!({
        "text": shown.text,
        "tooltip": shown.tooltips.join("\n\n"),
        "class": class,
        "percentage": percentage.map(|p: f64| p.round().clamp(0.0, 100.0) as u8),
    });
    line.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config;
    use crate::model::Memory;
    use crate::sample::{Notice, Sample};

    #[test]
    fn a_line_waybar_reads() {
        let config = config::Config::default();
        let modules: Vec<_> = config.modules.right;
        let mut sample = Sample::default();
        let s = &mut sample.processes;
        (s.interval_ns, s.online_cpus, s.cpu_busy_ns) = (1_000_000_000, 2, 1_500_000_000);
        s.memory = Some(Memory {
            total: 8 << 30,
            available: 6 << 30,
            swap_total: 0,
            swap_free: 0,
        });
        sample.source = Source::Proc;
        sample
            .notices
            .push(Notice::new("config", "c.toml:1: <bad> & worse"));
        let input = crate::modules::tests::input(&sample);
        let line = line(&input, &modules);
        assert!(!line.contains('\n'), "one line: {line}");
        let parsed: serde_json::Value = serde_json::from_str(&line).expect("JSON");
        assert_eq!(parsed["text"], "CPU 75%  MEM 2.0G/8.0G");
        assert_eq!(parsed["class"], json!(["warning", "probe-off", "notice"]));
        assert_eq!(parsed["percentage"], 75);
        let tooltip = parsed["tooltip"].as_str().expect("tooltip");
        assert!(tooltip.starts_with("<b>⚠ config</b>  c.toml:1: &lt;bad&gt; &amp; worse\n<b>CPU</b>  75.0% of 2 CPUs · per process"), "{tooltip}");
        assert_eq!(
            tooltip.matches("<b>CPU</b>").count(),
            1,
            "one report for the monitor modules"
        );
    }

    /// A script's classes reach Waybar's `class` as they reach the bar's label, each once.
    #[test]
    fn a_scripts_classes_join_the_level_and_states() {
        let config = config::parse(
            "modules_right = [\"custom/a\", \"custom/b\"]\n\
             [custom.a]\nexec = \"true\"\n[custom.b]\nexec = \"true\"\n",
            "c.toml".as_ref(),
        )
        .expect("valid");
        let modules: Vec<_> = config.modules.right;
        let output = |json: &str| {
            crate::events::script::ScriptState::Output(
                crate::events::script::parse_line(json.as_bytes(), true).expect("valid output"),
            )
        };
        let mut scripts = crate::modules::Scripts::new();
        scripts.insert(
            "custom/a".into(),
            output(r#"{"text": "a", "class": ["vpn", "critical"]}"#),
        );
        scripts.insert(
            "custom/b".into(),
            output(r#"{"text": "b", "class": "vpn"}"#),
        );
        let sample = Sample::default();
        let input = crate::modules::Input {
            scripts: &scripts,
            ..crate::modules::tests::input(&sample)
        };
        let parsed: serde_json::Value =
            serde_json::from_str(&line(&input, &modules)).expect("JSON");
        assert_eq!(parsed["text"], "a  b");
        assert_eq!(parsed["class"], json!(["vpn", "critical"]));
    }
}
