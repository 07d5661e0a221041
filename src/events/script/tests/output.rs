//! Output lines read: JSON and plain text, errors with reasons, huge lines, classes.

use super::*;

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
    let out = parse_line(
        "\u{202E}LIVE\u{200B}\nto\u{2066}ol\u{2069}tip".as_bytes(),
        false,
    )
    .expect("plain");
    assert_eq!(
        out.text, "LIVE",
        "direction controls and zero-width spaces dropped"
    );
    assert_eq!(out.tooltip.as_deref(), Some("tooltip"));
    let out = json(r#"{"text": "a\u202eb", "tooltip": "c\u2068d", "alt": "e\u200bf"}"#);
    assert_eq!((out.text.as_str(), out.alt.as_deref()), ("ab", Some("ef")));
    assert_eq!(out.tooltip.as_deref(), Some("cd"));
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
