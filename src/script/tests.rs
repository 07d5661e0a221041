use super::lines::{Line, LineSplitter};
use super::*;

fn json(line: &str) -> ScriptOutput {
    parse_line(line.as_bytes(), true).expect("valid output")
}

fn label(config: &ScriptConfig, output: &ScriptOutput) -> String {
    let mut out = String::new();
    format(config, output, &mut out);
    out
}

fn text(text: &str) -> ScriptOutput {
    ScriptOutput {
        text: text.to_owned(),
        ..ScriptOutput::default()
    }
}

fn config_json(json: &str) -> Result<ScriptConfig, serde_json::Error> {
    serde_json::from_str(json)
}

#[test]
fn a_waybar_config_reads_as_json_and_toml() {
    let config = config_json(
        r#"{"exec": "~/bin/mpd.sh", "interval": 5, "return-type": "json", "format": "♪ {}",
            "format-icons": {"playing": ["a", "b"], "default": "x"}, "exec-if": "pgrep mpd",
            "signal": 8, "on-click": "mpc toggle", "on-scroll-up": "mpc volume +2",
            "max-length": 40, "tooltip": false, "escape": true, "exec-on-event": false}"#,
    )
    .expect("config");
    assert_eq!(config.interval, Some(IntervalSetting::Seconds(5.0)));
    assert!(config.is_json() && config.escapes());
    assert_eq!(config.signal, Some(8));
    assert_eq!(config.max_length, Some(40));
    let by_alt = BTreeMap::from([
        (
            "playing".to_owned(),
            Icons::Ladder(vec!["a".into(), "b".into()]),
        ),
        ("default".to_owned(), Icons::One("x".into())),
    ]);
    assert_eq!(config.format_icons, Some(FormatIcons::ByAlt(by_alt)));

    let toml: ScriptConfig = toml::from_str(
        "exec = \"date\"\ninterval = \"once\"\nformat-icons = [\"a\", \"b\"]\nrestart-interval = 2.5\n",
    )
    .expect("toml");
    assert_eq!(toml.interval, Some(IntervalSetting::Once));
    assert_eq!(toml.restart_interval, Some(IntervalSetting::Seconds(2.5)));
    assert_eq!(
        toml.format_icons,
        Some(FormatIcons::Icons(Icons::Ladder(vec![
            "a".into(),
            "b".into()
        ])))
    );
    assert_eq!(
        ScriptConfig::new("date"),
        toml::from_str("exec = 'date'").expect("toml")
    );
}

#[test]
fn bad_configs_are_refused() {
    for bad in [
        r#"{"exec": "x", "interval": 0}"#,
        r#"{"exec": "x", "interval": -1}"#,
        r#"{"exec": "x", "interval": 0.01}"#,
        r#"{"exec": "x", "interval": "twice"}"#,
        r#"{"exec": "x", "intervall": 5}"#,
        r#"{"exec": "x", "signal": 300}"#,
        r#"{"interval": 5}"#,
    ] {
        assert!(config_json(bad).is_err(), "{bad}");
    }
    let long = IntervalSetting::Seconds(1e300).duration();
    assert_eq!(long, Some(MAX_INTERVAL));
    assert_eq!(
        IntervalSetting::Seconds(f64::NAN).duration(),
        Some(MIN_INTERVAL)
    );
    assert_eq!(
        IntervalSetting::Seconds(0.5).duration(),
        Some(Duration::from_millis(500))
    );
}

#[test]
fn json_lines() {
    let out = json(
        r#"{"text": "42°", "tooltip": "a\nb", "class": "hot", "percentage": 73.6, "alt": "sun"}"#,
    );
    assert_eq!(
        out,
        ScriptOutput {
            text: "42°".into(),
            tooltip: Some("a\nb".into()),
            classes: vec!["hot".into()],
            percentage: Some(73.6),
            alt: Some("sun".into()),
        }
    );
    let out = json(r#"{"text": "x", "class": ["a", "b", "a"], "extra": {"ignored": 1}}"#);
    assert_eq!(out.classes, ["a", "b"]);
    assert_eq!(out.tooltip, None);
    // Numbers as text, numeric strings as percentage, nulls as absent.
    let out = json(r#"{"text": 12, "percentage": " 50 ", "tooltip": null, "class": null}"#);
    assert_eq!((out.text.as_str(), out.percentage), ("12", Some(50.0)));
    assert_eq!(json("{}"), ScriptOutput::default());
    // The last non-blank line of a run's output wins; a blank output is empty.
    assert_eq!(json("{\"text\": \"a\"}\n{\"text\": \"b\"}\n\n").text, "b");
    assert_eq!(json(" \r\n"), ScriptOutput::default());
    // Control characters cannot break the label's line; the tooltip keeps its lines.
    let out = json(r#"{"text": "a\nb\u0007c", "tooltip": "x\r\ny\tz\u001b"}"#);
    assert_eq!(out.text, "a b c");
    assert_eq!(out.tooltip.as_deref(), Some("x\ny\tz "));
}

#[test]
fn bad_json_is_an_error_with_a_reason() {
    let error = |line: &[u8]| parse_line(line, true).expect_err("an error");
    assert!(
        error(b"{\"text\": ").starts_with("invalid JSON"),
        "{}",
        error(b"{")
    );
    assert!(error(b"not json").starts_with("invalid JSON"));
    assert_eq!(error(b"[1, 2]"), "the JSON is not an object");
    assert_eq!(error(br#"{"text": ["x"]}"#), "\"text\" is not a string");
    assert_eq!(error(br#"{"tooltip": {}}"#), "\"tooltip\" is not a string");
    assert_eq!(
        error(br#"{"percentage": "lots"}"#),
        "\"percentage\" is not a number"
    );
    assert_eq!(
        error(br#"{"percentage": true}"#),
        "\"percentage\" is not a number"
    );
    assert!(error(br#"{"class": 5}"#).contains("class"));
    assert!(error(br#"{"class": ["a", 5]}"#).contains("class"));
    assert_eq!(
        error(b"{\"text\": \"\xff\"}"),
        "output is not UTF-8 (byte 10)"
    );
    assert_eq!(
        parse_line(b"caf\xc3", false).expect_err("cut UTF-8"),
        "output is not UTF-8 (byte 3)"
    );
    // Nesting deep enough to overflow a naive parser's stack is refused, not a crash.
    let deep = format!(
        "{{\"text\": {}{}}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    assert!(error(deep.as_bytes()).starts_with("invalid JSON"));
}

#[test]
fn huge_lines_parse_without_trouble() {
    let long = "é".repeat(40_000);
    let out = json(&format!(r#"{{"text": "{long}"}}"#));
    assert_eq!(out.text.chars().count(), 40_000);
    let config = ScriptConfig {
        max_length: Some(10),
        ..ScriptConfig::new("x")
    };
    assert_eq!(label(&config, &out), format!("{}…", "é".repeat(9)));
}

#[test]
fn plain_text_is_text_tooltip_class() {
    let out = parse_line(b"up 3d\r\nsince Monday\nwarning\nignored", false).expect("plain");
    assert_eq!(out.text, "up 3d");
    assert_eq!(out.tooltip.as_deref(), Some("since Monday"));
    assert_eq!(out.classes, ["warning"]);
    let out = parse_line(b"{\"text\": \"not parsed\"}", false).expect("plain");
    assert_eq!(out.text, "{\"text\": \"not parsed\"}");
    let out = parse_line(b"only\n\n", false).expect("plain");
    assert_eq!((out.tooltip, out.classes.len()), (None, 0));
    assert_eq!(
        parse_line(b"", false).expect("empty"),
        ScriptOutput::default()
    );
}

#[test]
fn hostile_classes_are_dropped() {
    let out = json(
        r#"{"text": "x", "class": ["ok", "also-ok_2", "-dash", "bad class", "1digit", "a.b",
            "a{color:red}", "--x", "", "<b>", "é", "-", "_u"]}"#,
    );
    assert_eq!(out.classes, ["ok", "also-ok_2", "-dash", "_u"]);
    let many: Vec<String> = (0..50).map(|i| format!("\"c{i}\"")).collect();
    let out = json(&format!(
        r#"{{"text": "x", "class": [{}]}}"#,
        many.join(",")
    ));
    assert_eq!(out.classes.len(), MAX_CLASSES);
    let long = "a".repeat(MAX_CLASS_LEN + 1);
    assert!(json(&format!(r#"{{"class": "{long}"}}"#))
        .classes
        .is_empty());
    assert_eq!(
        safe_class(&"a".repeat(MAX_CLASS_LEN)).map(|c| c.len()),
        Some(64)
    );
    let out = parse_line(b"x\n\nwarn; color: red", false).expect("plain");
    assert!(out.classes.is_empty());
}

#[test]
fn format_fields() {
    let output = json(r#"{"text": "x", "percentage": 49.6, "alt": "muted"}"#);
    let mut config = ScriptConfig::new("x");
    assert_eq!(label(&config, &output), "x");
    config.format = Some("{} {text} {0} {percentage}% {alt} {{}} {unknown} {".into());
    assert_eq!(label(&config, &output), "x x x 50% muted {} {unknown} {");
    config.format = Some("}{percentage".into());
    assert_eq!(label(&config, &output), "}{percentage");
    // No percentage: 0, as Waybar.
    config.format = Some("{percentage}%".into());
    assert_eq!(label(&config, &text("x")), "0%");
    // An empty text hides the module whatever the format says.
    assert_eq!(label(&config, &text("")), "");
}

#[test]
fn icons_by_percentage_and_alt() {
    let mut config = ScriptConfig::new("x");
    config.format = Some("{icon} {}".into());
    let ladder = |icons: &[&str]| Icons::Ladder(icons.iter().map(|s| s.to_string()).collect());
    config.format_icons = Some(FormatIcons::Icons(ladder(&["low", "mid", "high"])));
    let at = |p: Option<f64>, alt: Option<&str>| ScriptOutput {
        text: "t".into(),
        percentage: p,
        alt: alt.map(str::to_owned),
        ..ScriptOutput::default()
    };
    let shown = |config: &ScriptConfig, p, alt| label(config, &at(p, alt));
    // Steps of 100 / 3 = 33, as Waybar.
    assert_eq!(shown(&config, Some(0.0), None), "low t");
    assert_eq!(shown(&config, Some(32.0), None), "low t");
    assert_eq!(shown(&config, Some(33.0), None), "mid t");
    assert_eq!(shown(&config, Some(66.0), None), "high t");
    assert_eq!(shown(&config, Some(100.0), None), "high t");
    assert_eq!(shown(&config, Some(1e9), None), "high t");
    assert_eq!(shown(&config, Some(-20.0), None), "low t");
    assert_eq!(shown(&config, None, None), "low t");
    let by_alt = BTreeMap::from([
        ("muted".to_owned(), Icons::One("🔇".into())),
        ("default".to_owned(), ladder(&["🔈", "🔊"])),
    ]);
    config.format_icons = Some(FormatIcons::ByAlt(by_alt));
    assert_eq!(shown(&config, Some(80.0), Some("muted")), "🔇 t");
    assert_eq!(shown(&config, Some(80.0), Some("other")), "🔊 t");
    assert_eq!(shown(&config, Some(10.0), None), "🔈 t");
    config.format_icons = Some(FormatIcons::ByAlt(BTreeMap::new()));
    assert_eq!(shown(&config, Some(10.0), None), " t");
    config.format_icons = Some(FormatIcons::Icons(ladder(&[])));
    assert_eq!(shown(&config, Some(10.0), None), " t");
    let many: Vec<String> = (0..150).map(|i| i.to_string()).collect();
    config.format_icons = Some(FormatIcons::Icons(Icons::Ladder(many)));
    assert_eq!(shown(&config, Some(100.0), None), "100 t");
}

#[test]
fn markup_passes_when_well_formed_and_shows_literally_when_not() {
    let mut config = ScriptConfig::new("x");
    let good = r#"<span color='#ff0000' weight="bold">hot</span> <b>&amp; &#233; &#x1F600;</b>"#;
    assert_eq!(label(&config, &text(good)), good);
    for bad in [
        "<b>unclosed",
        "</b>",
        "<b></i>",
        "a & b",
        "<script>x</script>",
        "<B>x</B>",
        "<b/>",
        "<b class='x'>x</b>",
        "<span onclick='x'>x</span>",
        "<span color=red>x</span>",
        "<span color='red' color='blue'>x</span>",
        "<span color='red\">x</span>",
        "<span color='<'>x</span>",
        "<!-- c -->",
        "<markup>x</markup>",
        "&nbsp;",
        "&#0;",
        "&#xD800;",
        "&#10;",
        "&#12345678901;",
        "&#x;",
        "&amp",
        "<span",
        "<spanx>",
    ] {
        let mut escaped = String::new();
        crate::render::push_escaped(&mut escaped, bad);
        assert_eq!(label(&config, &text(bad)), escaped, "{bad}");
    }
    let deep = format!("{}x{}", "<b>".repeat(17), "</b>".repeat(17));
    assert!(markup::check(&deep, false).is_err());
    let ok = format!("{}x{}", "<b>".repeat(16), "</b>".repeat(16));
    assert!(markup::check(&ok, false).is_ok());
    // escape: everything literal.
    config.escape = Some(true);
    assert_eq!(label(&config, &text("<b>x</b>")), "&lt;b&gt;x&lt;/b&gt;");
    // A broken format string shows literally too, with the text inside it.
    let mut config = ScriptConfig::new("x");
    config.format = Some("<b>{}".into());
    assert_eq!(
        label(&config, &text("<i>y</i>")),
        "&lt;b&gt;&lt;i&gt;y&lt;/i&gt;"
    );
    config.format = Some("<span size='large'>{}</span>".into());
    assert_eq!(
        label(&config, &text("a<b")),
        "<span size='large'>a&lt;b</span>"
    );
}

#[test]
fn max_length_counts_what_shows_and_keeps_markup_whole() {
    let mut config = ScriptConfig::new("x");
    config.max_length = Some(5);
    assert_eq!(label(&config, &text("hello")), "hello");
    assert_eq!(label(&config, &text("hello world")), "hell…");
    assert_eq!(
        label(&config, &text("<b>he&amp;l</b>lo world")),
        "<b>he&amp;l</b>…"
    );
    assert_eq!(
        label(
            &config,
            &text("<span color='red'>hello <i>world</i></span>")
        ),
        "<span color='red'>hell…</span>"
    );
    assert_eq!(label(&config, &text("a<b")), "a&lt;b");
    assert_eq!(label(&config, &text("a<b>c<d")), "a&lt;b&gt;…");
    config.max_length = Some(1);
    assert_eq!(label(&config, &text("ab")), "…");
    config.max_length = Some(0);
    assert_eq!(label(&config, &text("ab")), "");
    let mut out = String::new();
    markup::truncate("<b><i></i>abc</b>", 2, &mut out);
    assert_eq!(out, "<b><i></i>a…</b>");
}

#[test]
fn tooltips() {
    let mut config = ScriptConfig::new("x");
    config.format = Some("T {}".into());
    let tip = |config: &ScriptConfig, output: &ScriptOutput| {
        let mut out = String::new();
        tooltip_markup(config, output, &mut out).then_some(out)
    };
    let mut output = json(r#"{"text": "long text", "tooltip": "<b>a</b>\nb"}"#);
    assert_eq!(tip(&config, &output).as_deref(), Some("<b>a</b>\nb"));
    output.tooltip = Some("<b>a\nb".into());
    assert_eq!(tip(&config, &output).as_deref(), Some("&lt;b&gt;a\nb"));
    // No tooltip: the whole label, not cut by max-length.
    config.max_length = Some(3);
    output.tooltip = None;
    assert_eq!(tip(&config, &output).as_deref(), Some("T long text"));
    assert_eq!(tip(&config, &text("")), None);
    config.tooltip = Some(false);
    assert_eq!(tip(&config, &output), None);
    config.tooltip = None;
    config.escape = Some(true);
    output.tooltip = Some("<i>x</i>".into());
    assert_eq!(
        tip(&config, &output).as_deref(),
        Some("&lt;i&gt;x&lt;/i&gt;")
    );
}

fn split(max: usize, chunks: &[&[u8]], finish: bool) -> Vec<(String, bool)> {
    let mut splitter = LineSplitter::new(max);
    let mut lines = Vec::new();
    let mut push = |line: Line<'_>| {
        lines.push((String::from_utf8_lossy(line.bytes).into_owned(), line.cut));
    };
    for chunk in chunks {
        splitter.feed(chunk, &mut push);
    }
    if finish {
        splitter.finish(&mut push);
    }
    lines
}

#[test]
fn lines_are_split_and_capped() {
    let line = |s: &str, cut| (s.to_owned(), cut);
    assert_eq!(
        split(8, &[b"ab\ncd", b"ef\n\ngh"], true),
        [
            line("ab", false),
            line("cdef", false),
            line("", false),
            line("gh", false)
        ]
    );
    assert!(split(16, &[b"no newline"], false).is_empty());
    // Cut as soon as it passes the limit, and the rest skipped up to the newline.
    assert_eq!(
        split(4, &[b"abc", b"defgh", b"ijk", b"lm\nok\n"], true),
        [line("abcd", true), line("ok", false)]
    );
    assert_eq!(
        split(4, &[b"abcdefgh\nxy"], true),
        [line("abcd", true), line("xy", false)]
    );
    assert_eq!(split(4, &[b"abcd\n"], true), [line("abcd", false)]);
    assert_eq!(split(4, &[b"ab", b"cd\n"], true), [line("abcd", false)]);
    // An endless line: one report, and nothing kept.
    let mut splitter = LineSplitter::new(64);
    let mut count = 0;
    for _ in 0..10_000 {
        splitter.feed(&[b'x'; 4096], |line| {
            assert!(line.cut && line.bytes.len() == 64);
            count += 1;
        });
    }
    splitter.finish(|_| count += 100);
    assert_eq!(count, 1);
}
