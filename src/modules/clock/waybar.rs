//! Waybar's clock settings into ringbar's: its formats put strftime codes in braces
//! (`{:%H:%M}`), ringbar's are plain; its `calendar` and `actions` carry over as they are,
//! with the keys of Waybar's older releases moved to where they went.

use serde_json::{Map, Value as Json};
use toml::Value;

use crate::modules::import::Carried;

/// The calendar's formats in Waybar's releases before the `calendar` block.
const OLD_CALENDAR_FORMATS: [(&str, &str); 4] = [
    ("today-format", "today"),
    ("format-calendar", "days"),
    ("format-calendar-weeks", "weeks"),
    ("format-calendar-weekdays", "weekdays"),
];

pub fn from_waybar(key: &str, value: &Json) -> Carried {
    let text = |key: &str| {
        let format = value.as_str().map(strftime);
        Carried::one(format.map(|format| (key.to_owned(), Value::String(format))))
    };
    match key {
        "format" => text("format"),
        "format-alt" => text("format_alt"),
        "tooltip-format" => text("tooltip-format"),
        "tooltip" => Carried::renamed("tooltip", value),
        "interval" => Carried::NotNeeded,
        "locale" => match value.as_str().map(super::locale::Locale::new) {
            Some(Ok(_)) => Carried::renamed("locale", value),
            Some(Err(missing)) => Carried::Refused(missing),
            None => Carried::Refused("not a locale's name".to_owned()),
        },
        "calendar" => match value.as_object() {
            Some(calendar) => calendar_settings(calendar),
            None => Carried::Refused("not a table".to_owned()),
        },
        "actions" => Carried::renamed("actions", value),
        "timezone-tooltip-format" => text("timezone-tooltip-format"),
        "timezone" | "timezones" => time_zones(key, value),
        "calendar-weeks-pos" => nested("calendar", "weeks-pos", value),
        "on-scroll" => match value.as_object().and_then(|o| o.get("calendar")) {
            Some(months) => nested("calendar", "on-scroll", months),
            None => Carried::No,
        },
        _ => match OLD_CALENDAR_FORMATS.iter().find(|(old, _)| *old == key) {
            Some((_, new)) => {
                let mut formats = toml::Table::new();
                let Some(format) = super::super::import::to_toml(value) else {
                    return Carried::No;
                };
                formats.insert((*new).to_owned(), format);
                let mut calendar = toml::Table::new();
                calendar.insert("format".to_owned(), Value::Table(formats));
                Carried::one(Some(("calendar".to_owned(), Value::Table(calendar))))
            }
            None => Carried::No,
        },
    }
}

/// `timezone` or `timezones` as they are, if the system knows every zone named (Waybar
/// skips those it does not know, with a warning).
fn time_zones(key: &str, value: &Json) -> Carried {
    let names = match value {
        Json::String(name) => vec![name.as_str()],
        Json::Array(names) => names.iter().filter_map(Json::as_str).collect(),
        _ => return Carried::Refused("not a zone name or a list of them".to_owned()),
    };
    match names
        .into_iter()
        .find_map(|name| super::zones::check(name).err())
    {
        Some(unknown) => Carried::Refused(unknown),
        None => Carried::renamed(key, value),
    }
}

/// `calendar.KEY = value`.
fn nested(table: &str, key: &str, value: &Json) -> Carried {
    let Some(value) = super::super::import::to_toml(value) else {
        return Carried::No;
    };
    let inner = toml::Table::from_iter([(key.to_owned(), value)]);
    Carried::one(Some((table.to_owned(), Value::Table(inner))))
}

/// The `calendar` block; its `on-click-right` (Waybar 0.9.18's place for the mode
/// switch) goes to `actions`.
fn calendar_settings(calendar: &Map<String, Json>) -> Carried {
    let mut table = toml::Table::new();
    let mut settings = Vec::new();
    for (key, value) in calendar {
        let Some(value) = super::super::import::to_toml(value) else {
            continue;
        };
        if key == "on-click-right" {
            let actions = toml::Table::from_iter([(key.clone(), value)]);
            settings.push(("actions".to_owned(), Value::Table(actions)));
        } else {
            table.insert(key.clone(), value);
        }
    }
    settings.insert(0, ("calendar".to_owned(), Value::Table(table)));
    Carried::Set(settings)
}

/// `{:%H:%M}` as `%H:%M`; a `%` outside the braces is Waybar's literal `%`, so `%%`.
pub fn strftime(format: &str) -> String {
    let mut out = String::new();
    let mut rest = format;
    let literal = |out: &mut String, text: &str| out.push_str(&text.replace('%', "%%"));
    while let Some(open) = rest.find("{:") {
        literal(&mut out, &rest[..open]);
        // fmt's locale flag (`{:L%A}`): ringbar's clock speaks the locale anyway.
        let after = &rest[open + 2..];
        let after = after.strip_prefix('L').unwrap_or(after);
        let close = after.find('}').unwrap_or(after.len());
        out.push_str(&after[..close]);
        rest = after.get(close + 1..).unwrap_or("");
    }
    literal(&mut out, rest);
    out
}
