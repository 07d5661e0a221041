//! A conservative reader of Pango markup, for text that comes from a script: it accepts a
//! subset of what Pango accepts, so that what passes cannot make `gtk_label_set_markup` fail
//! on its structure. Attribute values are only checked for their characters; Pango itself
//! judges colours and sizes (the runner asks it).

/// Pango's tags. Case matters; `<markup>`, comments and `<b/>` are refused.
const TAGS: [&str; 10] = [
    "b", "big", "i", "s", "small", "span", "sub", "sup", "tt", "u",
];

/// `<span>` attributes of Pango's long-standing set (not the ones 1.50 added); a test checks
/// them against the installed Pango.
pub const SPAN_ATTRIBUTES: [&str; 36] = [
    "font",
    "font_desc",
    "font_family",
    "face",
    "size",
    "font_size",
    "style",
    "font_style",
    "weight",
    "font_weight",
    "variant",
    "font_variant",
    "stretch",
    "font_stretch",
    "font_features",
    "foreground",
    "fgcolor",
    "color",
    "background",
    "bgcolor",
    "alpha",
    "fgalpha",
    "bgalpha",
    "underline",
    "underline_color",
    "rise",
    "strikethrough",
    "strikethrough_color",
    "fallback",
    "lang",
    "letter_spacing",
    "gravity",
    "gravity_hint",
    "allow_breaks",
    "insert_hyphens",
    "show",
];

/// How deep tags may nest.
pub const MAX_DEPTH: usize = 16;
/// The longest attribute value.
const MAX_VALUE: usize = 256;
/// The longest entity between `&` and `;`.
const MAX_ENTITY: usize = 10;

/// One piece of markup, as it appears in the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece<'a> {
    /// One visible character: a character or an entity.
    Visible(&'a str),
    /// A start tag, with its name.
    Open(&'a str, &'a str),
    /// An end tag.
    Close(&'a str),
}

/// Whether `text` is markup this reader accepts; the reason if not. `multiline` allows line
/// breaks and tabs (tooltips); a label allows no control character at all.
pub fn check(text: &str, multiline: bool) -> Result<(), String> {
    scan(text, multiline, |_| {})
}

/// Calls `visit` with each piece of `text`, in order, if the whole of it is accepted (the
/// pieces before an error have been visited).
pub fn scan<'a>(
    text: &'a str,
    multiline: bool,
    mut visit: impl FnMut(Piece<'a>),
) -> Result<(), String> {
    let mut open: Vec<&str> = Vec::new();
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let len = match c {
            '<' if rest.starts_with("</") => {
                let end = rest.find('>').ok_or("an unclosed end tag")?;
                let name = &rest[2..end];
                if open.pop() != Some(name) {
                    return Err(format!("</{}> closes nothing open", clip(name)));
                }
                visit(Piece::Close(&rest[..=end]));
                end + 1
            }
            '<' => {
                let (name, len) = start_tag(rest)?;
                if open.len() == MAX_DEPTH {
                    return Err("tags nest too deep".to_owned());
                }
                open.push(name);
                visit(Piece::Open(&rest[..len], name));
                len
            }
            '&' => {
                let len = entity(rest, multiline)?;
                visit(Piece::Visible(&rest[..len]));
                len
            }
            c => {
                allowed_char(c, multiline)?;
                visit(Piece::Visible(&rest[..c.len_utf8()]));
                c.len_utf8()
            }
        };
        rest = &rest[len..];
    }
    match open.last() {
        None => Ok(()),
        Some(name) => Err(format!("<{name}> is not closed")),
    }
}

/// Appends the text `markup` shows, without its tags and with its entities decoded, for a
/// plain-text output; markup [`check`] refuses is appended as it is.
pub fn visible_text(markup: &str, out: &mut String) {
    let start = out.len();
    let accepted = scan(markup, true, |piece| {
        if let Piece::Visible(text) = piece {
            out.push(decode(text));
        }
    });
    if accepted.is_err() {
        out.truncate(start);
        out.push_str(markup);
    }
}

/// The character a visible piece stands for: itself, or what its entity names.
fn decode(piece: &str) -> char {
    let Some(name) = piece.strip_prefix('&').and_then(|p| p.strip_suffix(';')) else {
        return piece.chars().next().unwrap_or('?');
    };
    let code = match name {
        "amp" => Some('&' as u32),
        "lt" => Some('<' as u32),
        "gt" => Some('>' as u32),
        "quot" => Some('"' as u32),
        "apos" => Some('\'' as u32),
        _ => match name.strip_prefix("#x") {
            Some(hex) => number(hex, 16),
            None => name.strip_prefix('#').and_then(|d| number(d, 10)),
        },
    };
    code.and_then(char::from_u32).unwrap_or('?')
}

/// Appends `markup` (accepted by [`check`]) with at most `max` visible characters: when it
/// has more, the first `max - 1` and `…`, with the tags still open closed.
pub fn truncate(markup: &str, max: usize, out: &mut String) {
    let mut visible = 0;
    let accepted = scan(markup, true, |piece| {
        visible += usize::from(matches!(piece, Piece::Visible(_)));
    });
    if accepted.is_err() || visible <= max {
        out.push_str(markup);
        return;
    }
    if max == 0 {
        return;
    }
    let mut open: Vec<&str> = Vec::new();
    let (mut shown, mut done) = (0, false);
    let _ = scan(markup, true, |piece| match piece {
        _ if done => {}
        Piece::Visible(_) if shown + 1 == max => {
            out.push('…');
            done = true;
        }
        Piece::Visible(source) => {
            out.push_str(source);
            shown += 1;
        }
        Piece::Open(source, name) => {
            out.push_str(source);
            open.push(name);
        }
        Piece::Close(source) => {
            out.push_str(source);
            open.pop();
        }
    });
    for name in open.iter().rev() {
        out.push_str("</");
        out.push_str(name);
        out.push('>');
    }
}

/// Reads the start tag at the beginning of `text`: its name and length.
fn start_tag(text: &str) -> Result<(&str, usize), String> {
    let bytes = text.as_bytes();
    let mut i = 1;
    let name = ident(text, &mut i);
    if !TAGS.contains(&name) {
        return Err(format!("<{}> is not a Pango tag", clip(name)));
    }
    let mut seen: Vec<&str> = Vec::new();
    loop {
        let spaced = skip_space(bytes, &mut i);
        match bytes.get(i) {
            Some(b'>') => return Ok((name, i + 1)),
            Some(_) if spaced => {}
            _ => return Err(format!("a malformed <{name}> tag")),
        }
        let attribute = ident(text, &mut i);
        if name != "span" || !SPAN_ATTRIBUTES.contains(&attribute) {
            return Err(format!("<{name}> has no attribute {}", clip(attribute)));
        }
        if seen.contains(&attribute) {
            return Err(format!("{attribute} twice in <{name}>"));
        }
        seen.push(attribute);
        skip_space(bytes, &mut i);
        if bytes.get(i) != Some(&b'=') {
            return Err(format!("{attribute} has no value"));
        }
        i += 1;
        skip_space(bytes, &mut i);
        let quote = match bytes.get(i) {
            Some(&q @ (b'"' | b'\'')) => q,
            _ => return Err(format!("the value of {attribute} is not quoted")),
        };
        i += 1;
        let len = text[i..]
            .bytes()
            .position(|b| b == quote)
            .ok_or("an unclosed attribute value")?;
        value(&text[i..i + len])?;
        i += len + 1;
    }
}

/// An attribute value: no `<`, valid entities, no control characters, not too long.
fn value(text: &str) -> Result<(), String> {
    if text.len() > MAX_VALUE {
        return Err("an attribute value is too long".to_owned());
    }
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let len = match c {
            '<' => return Err("'<' in an attribute value".to_owned()),
            '&' => entity(rest, false)?,
            c => {
                allowed_char(c, false)?;
                c.len_utf8()
            }
        };
        rest = &rest[len..];
    }
    Ok(())
}

/// The length of the entity at the beginning of `text` (`&amp;`, `&#233;`, `&#xe9;`).
fn entity(text: &str, multiline: bool) -> Result<usize, String> {
    let end = text
        .bytes()
        .take(MAX_ENTITY + 2)
        .position(|b| b == b';')
        .ok_or("a bare '&'")?;
    let name = &text[1..end];
    let code = if let Some(hex) = name.strip_prefix("#x") {
        number(hex, 16)
    } else if let Some(decimal) = name.strip_prefix('#') {
        number(decimal, 10)
    } else if ["amp", "lt", "gt", "quot", "apos"].contains(&name) {
        return Ok(end + 1);
    } else {
        return Err(format!("an unknown entity &{};", clip(name)));
    };
    match code.and_then(char::from_u32) {
        Some(c) if !matches!(c, '\u{fffe}' | '\u{ffff}') => {
            allowed_char(c, multiline)?;
            Ok(end + 1)
        }
        _ => Err(format!("&{name}; is not a character")),
    }
}

fn number(digits: &str, radix: u32) -> Option<u32> {
    let plain = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_hexdigit());
    u32::from_str_radix(digits, radix).ok().filter(|_| plain)
}

fn allowed_char(c: char, multiline: bool) -> Result<(), String> {
    match c {
        '\n' | '\t' | '\r' if multiline => Ok(()),
        c if c.is_control() => Err(format!("the control character {:?}", c)),
        c if super::is_deceptive(c) => Err(format!(
            "the invisible or direction-changing character U+{:04X}",
            u32::from(c)
        )),
        _ => Ok(()),
    }
}

/// The name at `text[*i..]`, moving `i` past it: `[A-Za-z_][A-Za-z0-9_-]*`.
fn ident<'a>(text: &'a str, i: &mut usize) -> &'a str {
    let start = *i;
    for (n, b) in text.as_bytes()[start..].iter().enumerate() {
        let ok =
            b.is_ascii_alphabetic() || *b == b'_' || (n > 0 && (b.is_ascii_digit() || *b == b'-'));
        if !ok {
            break;
        }
        *i += 1;
    }
    &text[start..*i]
}

/// Moves `i` past spaces; whether there were any.
fn skip_space(bytes: &[u8], i: &mut usize) -> bool {
    let start = *i;
    while bytes
        .get(*i)
        .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
    {
        *i += 1;
    }
    *i > start
}

/// At most 20 characters of `text`, for messages.
fn clip(text: &str) -> String {
    text.chars().take(20).collect()
}
