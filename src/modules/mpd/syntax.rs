//! What an mpd format may hold: Waybar's fields, a time spec after `elapsedTime` and
//! `totalTime`, and Pango markup around them (Waybar's labels are markup).

pub const KEYS: [&str; 17] = [
    "artist",
    "albumArtist",
    "album",
    "title",
    "date",
    "volume",
    "elapsedTime",
    "totalTime",
    "songPosition",
    "queueLength",
    "uri",
    "filename",
    "stateIcon",
    "consumeIcon",
    "randomIcon",
    "repeatIcon",
    "singleIcon",
];

/// The fields that take a spec after a colon.
const TIMES: [&str; 2] = ["elapsedTime", "totalTime"];

/// Checks a format's fields, and that it is Pango markup the label takes (`multiline`: a
/// tooltip's): the error to show otherwise.
pub fn check(format: &str, multiline: bool) -> Result<(), String> {
    check_fields(format)?;
    let mut bare = String::new();
    crate::modules::format::fill(format, &mut bare, |_, _| true);
    check_markup(&bare, multiline)
}

/// `text` is Pango markup ringbar takes (Waybar's labels are markup: `<span color=…>`).
pub fn check_markup(text: &str, multiline: bool) -> Result<(), String> {
    crate::text::markup::check(text, multiline)
        .map_err(|why| format!("{text:?} is not Pango markup ({why}); write & as &amp;"))
}

fn check_fields(format: &str) -> Result<(), String> {
    let mut unknown = None;
    crate::modules::format::fill(format, &mut String::new(), |key, _| {
        let (name, spec) = split(key);
        let known = KEYS.contains(&name) && (spec.is_none() || TIMES.contains(&name));
        if !known && unknown.is_none() {
            unknown = Some(key.to_owned());
        }
        true
    });
    match unknown {
        None => Ok(()),
        Some(key) => Err(format!(
            "no {{{key}}} in an mpd format; it takes {}, and a time spec after elapsedTime or totalTime ({{elapsedTime:%M:%S}})",
            KEYS.map(|k| format!("{{{k}}}")).join(", ")
        )),
    }
}

pub fn split(key: &str) -> (&str, Option<&str>) {
    match key.split_once(':') {
        Some((name, spec)) => (name, Some(spec)),
        None => (key, None),
    }
}
