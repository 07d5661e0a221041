//! The markup reader against Pango itself: what the reader accepts, Pango must accept too
//! (given attribute values Pango knows), also once cut by `max-length`.

use gtk4::pango;

use super::markup::{self, SPAN_ATTRIBUTES};
use super::{format, ScriptConfig, ScriptOutput};

fn pango_accepts(text: &str) -> bool {
    pango::parse_markup(text, '\0').is_ok()
}

/// A value Pango takes for each attribute the reader allows.
fn value_for(attribute: &str) -> &'static str {
    match attribute {
        "font" | "font_desc" => "Sans Bold 10",
        "font_family" | "face" => "Sans",
        "size" | "font_size" => "10240",
        "style" | "font_style" => "italic",
        "weight" | "font_weight" => "bold",
        "variant" | "font_variant" => "small-caps",
        "stretch" | "font_stretch" => "condensed",
        "font_features" => "tnum",
        "alpha" | "fgalpha" | "bgalpha" => "50%",
        "underline" => "single",
        "rise" | "letter_spacing" => "1024",
        "strikethrough" | "fallback" | "allow_breaks" | "insert_hyphens" => "false",
        "lang" => "en",
        "gravity" => "south",
        "gravity_hint" => "natural",
        "show" => "spaces",
        _ => "#ff0000",
    }
}

#[test]
fn every_allowed_attribute_is_known_to_pango() {
    for attribute in SPAN_ATTRIBUTES {
        let text = format!("<span {attribute}='{}'>x</span>", value_for(attribute));
        assert!(markup::check(&text, false).is_ok(), "{text}");
        assert!(pango_accepts(&text), "Pango refuses {text}");
    }
}

#[test]
fn what_the_reader_accepts_pango_accepts() {
    const PIECES: [&str; 24] = [
        "<b>",
        "</b>",
        "<i>",
        "</i>",
        "<span color='red'>",
        "<span  weight = \"bold\"\tsize='10240' >",
        "</span>",
        "<small>",
        "</small>",
        "&amp;",
        "&#233;",
        "&#x1F600;",
        "&quot;",
        "x",
        "é",
        " ",
        "&",
        "<",
        ">",
        "'",
        "\"",
        "\n",
        "<tt>",
        "</tt>",
    ];
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let (mut accepted, mut cut) = (0, String::new());
    for _ in 0..50_000 {
        let len = next() % 10;
        let text: String = (0..len)
            .map(|_| PIECES[(next() % PIECES.len() as u64) as usize])
            .collect();
        for multiline in [false, true] {
            if markup::check(&text, multiline).is_ok() {
                accepted += 1;
                assert!(pango_accepts(&text), "Pango refuses {text:?}");
                for max in 0..6 {
                    cut.clear();
                    markup::truncate(&text, max, &mut cut);
                    assert!(markup::check(&cut, multiline).is_ok(), "{cut:?}");
                    assert!(pango_accepts(&cut), "Pango refuses {cut:?} of {text:?}");
                }
            }
        }
        // Whatever the text, the label is markup Pango takes.
        let mut config = ScriptConfig::new("x");
        config.max_length = Some((next() % 8) as usize);
        let output = ScriptOutput {
            text: text.replace('\n', " "),
            ..ScriptOutput::default()
        };
        let mut label = String::new();
        format(&config, &output, false, &mut label);
        assert!(
            pango_accepts(&label),
            "Pango refuses {label:?} for {text:?}"
        );
    }
    assert!(
        accepted > 1000,
        "{accepted} accepted: the test must reach markup"
    );
}
