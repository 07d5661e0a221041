//! The visible text of a script's markup, for the plain-text outputs.

use crate::events::script::markup::visible_text;

fn visible(markup: &str) -> String {
    let mut out = String::from(">");
    visible_text(markup, &mut out);
    out
}

#[test]
fn tags_go_and_entities_become_their_characters() {
    assert_eq!(visible("rain <b>12°</b>"), ">rain 12°");
    assert_eq!(
        visible("<span color=\"red\">a &amp; b &lt;c&gt; &quot;&apos;&#65;&#x42;</span>"),
        ">a & b <c> \"'AB"
    );
    assert_eq!(visible("two\nlines"), ">two\nlines");
}

#[test]
fn markup_that_is_not_accepted_stays_as_it_is() {
    assert_eq!(visible("<b>open"), "><b>open");
    assert_eq!(visible("a & b"), ">a & b");
}
