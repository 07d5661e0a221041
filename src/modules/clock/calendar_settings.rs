//! The clock's `[clock.calendar]` table: Waybar's `calendar` block, read the same way.

use serde::Deserialize;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    #[default]
    Month,
    Year,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WeeksPos {
    #[default]
    #[serde(rename = "")]
    Hidden,
    Left,
    Right,
}

/// How weeks are counted: ISO 8601, or from the first Monday or Sunday of the year.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Numbering {
    Iso,
    Monday,
    Sunday,
}

/// `[clock.calendar.format]`: Pango markup around each part, `{}` standing for it.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Formats {
    #[serde(deserialize_with = "part")]
    pub months: Option<String>,
    #[serde(deserialize_with = "part")]
    pub weekdays: Option<String>,
    #[serde(deserialize_with = "part")]
    pub days: Option<String>,
    #[serde(deserialize_with = "part")]
    pub weeks: Option<String>,
    #[serde(deserialize_with = "part")]
    pub today: Option<String>,
}

fn part<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    let text = String::deserialize(d)?;
    crate::text::markup::check(&text, true).map_err(serde::de::Error::custom)?;
    Ok(Some(text))
}

/// `[clock.calendar]`, Waybar's `calendar` block.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default, rename_all = "kebab-case")]
pub struct Calendar {
    pub mode: Mode,
    /// Months side by side in the year view: 1, 2, 3, 4, 6 or 12.
    #[serde(deserialize_with = "columns")]
    pub mode_mon_col: u32,
    pub weeks_pos: WeeksPos,
    /// Months a scroll moves the calendar (a year at a time in the year view).
    pub on_scroll: i32,
    /// 0 = Sunday … 6 = Saturday.
    #[serde(deserialize_with = "weekday_number")]
    pub first_day_of_week: Option<u32>,
    /// Weeks from Monday, numbered as ISO 8601 does.
    pub iso8601: bool,
    pub weeks_numbering: Option<Numbering>,
    pub format: Formats,
}

impl Default for Calendar {
    fn default() -> Self {
        Calendar {
            mode: Mode::Month,
            mode_mon_col: 1,
            weeks_pos: WeeksPos::Hidden,
            on_scroll: 1,
            first_day_of_week: None,
            iso8601: false,
            weeks_numbering: None,
            format: Formats::default(),
        }
    }
}

fn columns<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let n = u32::deserialize(d)?;
    match [1, 2, 3, 4, 6, 12].contains(&n) {
        true => Ok(n),
        false => Err(serde::de::Error::custom(format!(
            "{n} months side by side: 1, 2, 3, 4, 6 or 12"
        ))),
    }
}

fn weekday_number<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    let n = u32::deserialize(d)?;
    match n <= 6 {
        true => Ok(Some(n)),
        false => Err(serde::de::Error::custom(format!(
            "day {n}: 0 (Sunday) to 6 (Saturday)"
        ))),
    }
}
