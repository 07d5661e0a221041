//! Screen backlights as the kernel's backlight class shows them
//! (`/sys/class/backlight/NAME/{type,max_brightness,actual_brightness,brightness}`), for
//! the `backlight` module, and the kernel's uevents that say one changed. The state and
//! the parsers are core; [`watch`] follows the devices.

#[cfg(test)]
mod tests;
#[cfg(feature = "app")]
pub mod watch;

use std::path::Path;
use std::rc::Rc;

/// The class directory, under a sysfs root.
pub const CLASS: &str = "class/backlight";

/// How a backlight is driven, from its `type` file; firmware first, as the kernel's
/// documentation recommends to pick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Firmware,
    Platform,
    Raw,
}

impl Kind {
    pub fn parse(text: &str) -> Kind {
        match text.trim() {
            "firmware" => Kind::Firmware,
            "platform" => Kind::Platform,
            _ => Kind::Raw,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Backlight {
    /// The directory's name: `intel_backlight`, `acpi_video0`.
    pub name: String,
    pub kind: Kind,
    /// `actual_brightness` where the driver has it, else `brightness`.
    pub brightness: u32,
    pub max: u32,
}

impl Backlight {
    /// 0–100, rounded.
    pub fn percent(&self) -> u32 {
        if self.max == 0 {
            return 0;
        }
        let percent = (u64::from(self.brightness.min(self.max)) * 100 + u64::from(self.max) / 2)
            / u64::from(self.max);
        percent as u32
    }

    /// The raw value `step` percent away from the current one: within 1 and the
    /// maximum (0 turns some panels off), and at least one unit away when `step` is not
    /// zero.
    pub fn stepped(&self, step: f64) -> u32 {
        let max = f64::from(self.max);
        let target = (f64::from(self.brightness) + step / 100.0 * max).round();
        let mut raw = target.clamp(1.0_f64.min(max), max) as u32;
        if raw == self.brightness && step > 0.0 {
            raw = (raw + 1).min(self.max);
        } else if raw == self.brightness && step < 0.0 {
            raw = raw.saturating_sub(1).max(1.min(self.max));
        }
        raw
    }

    /// The device in `dir` (`/sys/class/backlight/NAME`); `None` if it is gone or its
    /// files are not numbers.
    pub fn read(dir: &Path) -> Option<Backlight> {
        let name = dir.file_name()?.to_str()?.to_owned();
        let number = |file: &str| -> Option<u32> {
            std::fs::read_to_string(dir.join(file))
                .ok()?
                .trim()
                .parse()
                .ok()
        };
        let max = number("max_brightness")?;
        let brightness = number("actual_brightness").or_else(|| number("brightness"))?;
        let kind = std::fs::read_to_string(dir.join("type")).map_or(Kind::Raw, |t| Kind::parse(&t));
        Some(Backlight {
            name,
            kind,
            brightness,
            max,
        })
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BacklightState {
    /// By name.
    pub devices: Vec<Backlight>,
}

impl BacklightState {
    /// Every device under `class_dir`, by name; unreadable ones left out.
    pub fn read(class_dir: &Path) -> BacklightState {
        let mut devices: Vec<Backlight> = std::fs::read_dir(class_dir)
            .into_iter()
            .flatten()
            .flatten()
            .take(64)
            .filter_map(|entry| Backlight::read(&entry.path()))
            .collect();
        devices.sort_by(|a, b| a.name.cmp(&b.name));
        BacklightState { devices }
    }

    /// The device named `device`, or without a name the first firmware one, else
    /// platform, else raw (by name within a kind).
    pub fn pick(&self, device: Option<&str>) -> Option<&Backlight> {
        match device {
            Some(name) => self.devices.iter().find(|d| d.name == name),
            None => self
                .devices
                .iter()
                .min_by_key(|d| (d.kind, d.name.as_str())),
        }
    }
}

/// A scroll's change to the brightness of the module's device.
#[derive(Clone, Debug, PartialEq)]
pub struct BacklightCommand {
    /// The module's `device`; `None` picks as [`BacklightState::pick`] does.
    pub device: Option<Rc<str>>,
    /// Percent of the maximum, up or down.
    pub step: f64,
}

/// What a kernel uevent says, of what a backlight watch needs.
#[derive(Debug, PartialEq, Eq)]
pub struct Uevent<'a> {
    pub action: &'a str,
    pub subsystem: &'a str,
    pub devpath: &'a str,
}

/// A kernel uevent as it comes from `NETLINK_KOBJECT_UEVENT`'s kernel group:
/// `ACTION@DEVPATH`, then `KEY=VALUE` fields, each ending in a NUL byte. `None` for
/// anything else (udev's own messages start with `libudev`).
pub fn parse_uevent(message: &[u8]) -> Option<Uevent<'_>> {
    let mut fields = message.split(|&b| b == 0).filter(|f| !f.is_empty());
    let header = std::str::from_utf8(fields.next()?).ok()?;
    let (_, _) = header.split_once('@')?;
    let (mut action, mut subsystem, mut devpath) = (None, None, None);
    for field in fields.take(64) {
        let Ok(field) = std::str::from_utf8(field) else {
            continue;
        };
        match field.split_once('=') {
            Some(("ACTION", value)) => action = Some(value),
            Some(("SUBSYSTEM", value)) => subsystem = Some(value),
            Some(("DEVPATH", value)) => devpath = Some(value),
            _ => {}
        }
    }
    Some(Uevent {
        action: action?,
        subsystem: subsystem?,
        devpath: devpath?,
    })
}

impl super::EventState for BacklightState {
    const KEY: &'static str = "Backlight";
    type Command = BacklightCommand;
    type Settings = ();
    #[cfg(feature = "app")]
    type Watch = watch::BacklightWatch;
}
