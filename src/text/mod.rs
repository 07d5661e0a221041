//! Text as the outputs take it: a [`Sink`] that is plain text (the terminal, JSON) or
//! Pango markup (GTK labels and tooltips, Waybar), with everything from outside escaped
//! on the way in, and [`markup`], the reader of a script's Pango markup. The lowest layer
//! of the output side: the sample's readings, the report writers, the script modules and
//! the sinks all write through it.

use std::fmt::Write;

pub mod icons;
pub mod markup;
pub mod rewrite;
#[cfg(test)]
mod tests;

/// Where a writer's text goes. Ringbar's own text (numbers, units, headers) goes straight
/// to [`Sink::out`]; anything from outside (process names, messages, sysfs strings) goes
/// through [`Sink::untrusted`], which escapes it for markup.
pub trait Sink {
    /// The buffer for text that contains no markup characters.
    fn out(&mut self) -> &mut String;
    /// Appends one character of untrusted text.
    fn untrusted_char(&mut self, c: char);
    /// Starts or ends emphasis (bold) for headers; plain text ignores it.
    fn bold(&mut self, on: bool);
    /// Starts or ends the small print of the footer; plain text ignores it.
    fn small(&mut self, on: bool);
    /// Whether the history is written as sparklines; not where it is drawn as graphs.
    fn sparklines(&self) -> bool {
        true
    }
    /// Appends markup already checked safe (a script's): as it is, or its visible text.
    fn checked_markup(&mut self, markup: &str);
    /// A gap of about `pixels` between two pieces of text (upower's `tooltip-spacing`);
    /// one space where the text is plain.
    fn gap(&mut self, _pixels: u16) {
        self.out().push(' ');
    }
}

/// Text as the terminal shows it.
pub struct Plain<'a>(pub &'a mut String);

impl Sink for Plain<'_> {
    fn out(&mut self) -> &mut String {
        self.0
    }

    fn untrusted_char(&mut self, c: char) {
        self.0.push(c);
    }

    fn bold(&mut self, _on: bool) {}

    fn small(&mut self, _on: bool) {}

    fn checked_markup(&mut self, markup: &str) {
        markup::visible_text(markup, self.0);
    }
}

/// Pango markup, for GTK tooltips and Waybar.
pub struct Markup<'a>(pub &'a mut String);

impl Sink for Markup<'_> {
    fn out(&mut self) -> &mut String {
        self.0
    }

    fn untrusted_char(&mut self, c: char) {
        push_escaped_char(self.0, c);
    }

    fn bold(&mut self, on: bool) {
        self.0.push_str(if on { "<b>" } else { "</b>" });
    }

    fn small(&mut self, on: bool) {
        self.0.push_str(if on { "<small>" } else { "</small>" });
    }

    fn checked_markup(&mut self, markup: &str) {
        self.0.push_str(markup);
    }

    /// A space a point high, widened by Pango's letter spacing (in 1024ths of a point; a
    /// pixel is ¾ of a point at 96 dpi) to `pixels`.
    fn gap(&mut self, pixels: u16) {
        let spacing = u32::from(pixels) * 768;
        let _ = write!(
            self.0,
            "<span size=\"1024\" letter_spacing=\"{spacing}\"> </span>"
        );
    }
}

/// Appends `text` with Pango's five special characters escaped.
pub fn push_escaped(out: &mut String, text: &str) {
    text.chars().for_each(|c| push_escaped_char(out, c));
}

pub(crate) fn push_escaped_char(out: &mut String, c: char) {
    match c {
        '&' => out.push_str("&amp;"),
        '<' => out.push_str("&lt;"),
        '>' => out.push_str("&gt;"),
        '\'' => out.push_str("&#39;"),
        '"' => out.push_str("&quot;"),
        c => out.push(c),
    }
}

/// A module's own tooltip markup, filled into a buffer the module keeps so that drawing
/// it allocates nothing once warm, then handed to the sink as checked markup.
#[derive(Default)]
pub struct MarkupBuffer(std::cell::RefCell<String>);

impl MarkupBuffer {
    /// Fills the buffer afresh with `fill` and writes it to `sink`.
    pub fn write(&self, sink: &mut dyn Sink, fill: impl FnOnce(&mut String)) {
        let Ok(mut markup) = self.0.try_borrow_mut() else {
            return;
        };
        markup.clear();
        fill(&mut markup);
        sink.checked_markup(&markup);
    }
}

/// Appends untrusted text, with control characters as `?` so it cannot break a line, and
/// without the characters that would rearrange or hide it (see [`shown_char`]).
pub fn untrusted(sink: &mut dyn Sink, text: &str) {
    for c in shown(text, '?') {
        sink.untrusted_char(c);
    }
}

/// [`untrusted`] line by line: the text's own line breaks stay (a tooltip's lines), any
/// other control character is `?`.
pub fn untrusted_lines(sink: &mut dyn Sink, text: &str) {
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            sink.out().push('\n');
        }
        untrusted(sink, line);
    }
}

/// Whether `c` would rearrange or hide the text around it rather than show itself: the
/// bidirectional controls (embeddings, overrides, isolates and marks: U+202E shows "EVIL"
/// as "LIVE") and the invisible characters that can hide inside a word (zero-width space,
/// word joiner, invisible operators, byte order mark). The zero-width joiner and
/// non-joiner stay: emoji sequences and several scripts are written with them.
pub fn is_deceptive(c: char) -> bool {
    matches!(
        c,
        '\u{061C}'
            | '\u{180E}'
            | '\u{200B}'
            | '\u{200E}'
            | '\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{2069}'
            | '\u{FEFF}'
    )
}

/// How a character from outside (a title, a track, a name, a script's line) is shown:
/// as itself, as `control` if it is a control character, not at all if it is deceptive.
pub fn shown_char(c: char, control: char) -> Option<char> {
    if c.is_control() {
        Some(control)
    } else if is_deceptive(c) {
        None
    } else {
        Some(c)
    }
}

/// `text` as it may be shown: see [`shown_char`].
pub fn shown(text: &str, control: char) -> impl Iterator<Item = char> + '_ {
    text.chars().filter_map(move |c| shown_char(c, control))
}
