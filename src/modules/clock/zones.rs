//! The clock's time zones (Waybar's `timezone` and `timezones`): the one shown, cycled by
//! the `tz_up` and `tz_down` actions, and `{tz_list}`, the time in the others.

use std::cell::Cell;
use std::path::Path;

use serde::{Deserialize, Deserializer};

use crate::modules::input::utc_offset_seconds;
use crate::modules::Input;

/// A zone as the config names it: empty for the local zone, an IANA name
/// (`America/Chicago`) from the system's zone database, or a UTC offset (`+09:00`).
pub fn zone_name<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let name = String::deserialize(d)?;
    check(&name).map_err(serde::de::Error::custom)?;
    Ok(name)
}

pub fn zone_names<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    let names = Vec::<String>::deserialize(d)?;
    for name in &names {
        check(name).map_err(serde::de::Error::custom)?;
    }
    Ok(names)
}

pub fn check(name: &str) -> Result<(), String> {
    if name.is_empty() || utc_offset_seconds(name).is_some() || in_zone_database(name) {
        return Ok(());
    }
    Err(format!(
        "`{name}` is not a time zone: not in {} and not an offset such as +09:00",
        zone_database()
    ))
}

/// Where the zone files are: `TZDIR`, as glibc and glib read it, or the usual place.
fn zone_database() -> String {
    std::env::var("TZDIR").unwrap_or_else(|_| "/usr/share/zoneinfo".to_owned())
}

fn in_zone_database(name: &str) -> bool {
    let relative = Path::new(name);
    let plain = relative
        .components()
        .all(|part| matches!(part, std::path::Component::Normal(_)));
    plain && Path::new(&zone_database()).join(relative).is_file()
}

/// The zones to show, in order, and which of them is shown.
pub struct Zones {
    names: Vec<String>,
    shown: Cell<usize>,
}

impl Zones {
    /// `timezones` when it names any, else `timezone`, else the local zone.
    pub fn new(timezone: Option<&str>, timezones: &[String]) -> Zones {
        let names = match (timezones, timezone) {
            ([], Some(zone)) => vec![zone.to_owned()],
            ([], None) => vec![String::new()],
            (zones, _) => zones.to_vec(),
        };
        Zones {
            names,
            shown: Cell::new(0),
        }
    }

    pub fn shown(&self) -> &str {
        &self.names[self.shown.get()]
    }

    /// The next zone (`forward`) or the one before, round the list.
    pub fn step(&self, forward: bool) {
        let count = self.names.len();
        let shown = self.shown.get();
        self.shown.set(match forward {
            true => (shown + 1) % count,
            false => (shown + count - 1) % count,
        });
    }

    /// `{tz_list}`: the time in each named zone, a line each, as Waybar lists them: not
    /// the local zone, and not the zone shown unless the list has a `format` of its own.
    pub fn write_list(&self, input: &Input<'_>, format: (&str, bool), out: &mut String) {
        let (format, own_format) = format;
        if self.names.len() == 1 {
            return;
        }
        let mut first = true;
        for (index, zone) in self.names.iter().enumerate() {
            if zone.is_empty() || (index == self.shown.get() && !own_format) {
                continue;
            }
            if !std::mem::take(&mut first) {
                out.push('\n');
            }
            input.clock.format_in(zone, format, out);
        }
    }
}
