//! Text from outside as it is shown: control characters replaced, deceptive ones dropped.

use super::*;

#[test]
fn direction_controls_and_invisible_characters_are_not_shown() {
    let shown_text = |text: &str| shown(text, '?').collect::<String>();
    // U+202E would show "EVIL" as "LIVE"; the isolates and marks reorder what they hold.
    assert_eq!(shown_text("\u{202E}EVIL\u{202C}"), "EVIL");
    assert_eq!(shown_text("a\u{2066}b\u{2067}c\u{2068}d\u{2069}"), "abcd");
    assert_eq!(shown_text("\u{200E}x\u{200F}\u{061C}"), "x");
    assert_eq!(
        shown_text("pay\u{200B}pal\u{2060}\u{FEFF}\u{2062}"),
        "paypal"
    );
    assert_eq!(shown_text("tab\tbell\u{7}"), "tab?bell?");
    // Joiners stay: emoji sequences and scripts such as Persian need them.
    let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}";
    assert_eq!(shown_text(family), family);
    assert_eq!(shown_text("می\u{200C}خواهم"), "می\u{200C}خواهم");
    assert_eq!(shown_text("עברית and العربية"), "עברית and العربية");
}

#[test]
fn every_sink_drops_them_from_untrusted_text() {
    let mut markup = String::new();
    untrusted(&mut Markup(&mut markup), "<\u{202E}b>");
    assert_eq!(markup, "&lt;b&gt;");
    let mut plain = String::new();
    untrusted(&mut Plain(&mut plain), "\u{202D}\u{2066}ok\n");
    assert_eq!(plain, "ok?");
}

#[test]
fn a_script_cannot_write_them_in_its_markup() {
    let refused = markup::check("<b>&#x202E;LIVE</b>", false).expect_err("refused");
    assert!(refused.contains("U+202E"), "{refused}");
    assert!(markup::check("&#8294;x", true).is_err());
    assert!(markup::check("<b>\u{2067}x</b>", true).is_err());
    assert!(
        markup::check("a&#x200D;b", false).is_ok(),
        "a joiner is fine"
    );
}
