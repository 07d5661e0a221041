//! Labels and tooltips: format fields, icons, markup checked, `max-length`.

use std::collections::BTreeMap;

use super::*;
use crate::text::icons::{FormatIcons, Icons};

fn text(text: &str) -> ScriptOutput {
    ScriptOutput {
        text: text.to_owned(),
        ..ScriptOutput::default()
    }
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
        crate::text::push_escaped(&mut escaped, bad);
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

#[test]
fn a_tooltip_format_takes_the_labels_fields_and_the_scripts_tooltip() {
    let mut config = ScriptConfig::new("x");
    config.tooltip_format = Some("<b>{text}</b> {percentage}%\n{tooltip} ({alt})".into());
    let output = json(r#"{"text": "a&b", "tooltip": "<i>t</i>", "alt": "on", "percentage": 40}"#);
    let mut out = String::new();
    assert!(tooltip_markup(&config, &output, &mut out));
    assert_eq!(out, "<b>a&amp;b</b> 40%\n<i>t</i> (on)");
    // A label without a script: the format alone, its fields empty.
    let mut launcher = ScriptConfig::new("");
    launcher.tooltip_format = Some("Change wallpaper".into());
    out.clear();
    assert!(tooltip_markup(
        &launcher,
        &ScriptOutput::default(),
        &mut out
    ));
    assert_eq!(out, "Change wallpaper");
    launcher.tooltip = Some(false);
    assert!(!tooltip_markup(
        &launcher,
        &ScriptOutput::default(),
        &mut out
    ));
}
