//! The temperature module's sensor file, found as Waybar finds it and kept open: a tick
//! preads it. A sensor that cannot be read (gone, not yet there, a driver reload) is
//! looked for again every 5 seconds, and said once in the log until it reads again.
//! Paths under `/sys` are taken under the reader's sysfs root.

use std::path::{Path, PathBuf};

use super::reading::TemperatureReading;
use super::Sensor;
use crate::records::sysfs::{read_text, sorted_entries, SensorFile};
use crate::sample::readings::{value_mut, Reader, Reading};

/// Look for the sensor again this often while it cannot be read.
const RETRY_NS: u64 = 5_000_000_000;
/// What a temperature sensor may say, in °C: anything else is a broken reading.
const PLAUSIBLE: std::ops::RangeInclusive<f64> = -100.0..=300.0;

pub struct TemperatureReader {
    key: String,
    sensor: Sensor,
    sys: PathBuf,
    file: Option<SensorFile>,
    /// When the sensor was last looked for; `None` before the first read.
    looked_ns: Option<u64>,
    /// Whether the log says the sensor is missing (said once).
    said_missing: bool,
}

impl TemperatureReader {
    pub fn new(key: &str, sensor: &Sensor, sys: &Path) -> TemperatureReader {
        TemperatureReader {
            key: key.to_owned(),
            sensor: sensor.clone(),
            sys: sys.to_owned(),
            file: None,
            looked_ns: None,
            said_missing: false,
        }
    }

    /// `path` with `/sys` replaced by the reader's sysfs root.
    fn rooted(&self, path: &str) -> PathBuf {
        match path.strip_prefix("/sys/") {
            Some(rest) => self.sys.join(rest),
            None => PathBuf::from(path),
        }
    }

    /// The sensor file, in Waybar's order of the keys.
    fn locate(&self) -> PathBuf {
        let sensor = &self.sensor;
        let listed = sensor.hwmon_path.iter().flat_map(|paths| paths.all());
        if let Some(path) = listed.map(|p| self.rooted(p)).find(|p| p.exists()) {
            return path;
        }
        if let Some(input) = &sensor.input_filename {
            let dirs = sensor.hwmon_path_abs.iter().flat_map(|paths| paths.all());
            for dir in dirs.map(|d| self.rooted(d)).filter(|d| d.is_dir()) {
                let hwmon = sorted_entries(&dir).into_iter().find(|entry| {
                    let name = entry.file_name().map(|n| n.to_string_lossy().into_owned());
                    name.is_some_and(|n| n.starts_with("hwmon"))
                });
                if let Some(hwmon) = hwmon {
                    return hwmon.join(input);
                }
            }
            if let Some(name) = &sensor.hwmon_name {
                let named = sorted_entries(&self.sys.join("class/hwmon"))
                    .into_iter()
                    .find(|hwmon| read_text(&hwmon.join("name")).is_some_and(|n| n.trim() == name));
                if let Some(hwmon) = named {
                    return hwmon.join(input);
                }
            }
        }
        let zone = format!("class/thermal/thermal_zone{}/temp", sensor.thermal_zone);
        self.sys.join(zone)
    }
}

impl Reader for TemperatureReader {
    fn key(&self) -> &str {
        &self.key
    }

    fn empty(&self) -> Box<dyn Reading> {
        Box::new(TemperatureReading::default())
    }

    fn read(&mut self, now_ns: u64, out: &mut dyn Reading) {
        let Some(reading) = value_mut::<TemperatureReading>(out) else {
            return;
        };
        let due = self
            .looked_ns
            .is_none_or(|then| now_ns.saturating_sub(then) >= RETRY_NS);
        if reading.celsius.is_none() && due {
            self.looked_ns = Some(now_ns);
            self.file = SensorFile::existing(self.locate());
        }
        reading.celsius = self
            .file
            .as_mut()
            .and_then(|file| file.read_scaled(1000.0, PLAUSIBLE));
        match (reading.celsius, self.said_missing) {
            (None, false) => {
                self.said_missing = true;
                let at = self.locate();
                tracing::info!(
                    "{}: no temperature at {}; hidden until it reads",
                    self.key,
                    at.display()
                );
            }
            (Some(_), true) => {
                self.said_missing = false;
                tracing::info!("{}: temperature read again", self.key);
            }
            _ => {}
        }
    }
}
