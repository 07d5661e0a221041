use super::*;
use crate::modules::tests::{configured, input};
use crate::sample::readings::{Reader, Readings};
use crate::sample::Sample;

/// A sample whose `key` reading is `celsius`, as the sampler would hand it over.
fn sample_with(key: &'static str, celsius: Option<f64>) -> Sample {
    struct Fixed(&'static str, TemperatureReading);
    impl Reader for Fixed {
        fn key(&self) -> &str {
            self.0
        }
        fn empty(&self) -> Box<dyn crate::sample::readings::Reading> {
            Box::new(self.1.clone())
        }
        fn read(&mut self, _: u64, _: &mut dyn crate::sample::readings::Reading) {}
    }
    let readers: Vec<Box<dyn Reader>> = vec![Box::new(Fixed(key, TemperatureReading { celsius }))];
    Sample {
        readings: Readings::of(&readers),
        ..Sample::default()
    }
}

fn shown(module: &dyn Module, sample: &Sample) -> (String, Option<Status>) {
    let mut out = String::new();
    let status = module.text(&input(sample), &mut out);
    (out, status)
}

#[test]
fn waybars_fields_are_rounded_as_waybar_rounds_them() {
    let module = configured(
        "temperature",
        "format = \"{temperatureC}°C {temperatureF}°F {temperatureK}K\"\n",
    );
    let (text, status) = shown(&*module, &sample_with("temperature", Some(45.6)));
    assert_eq!(text, "46°C 114°F 319K");
    // fmt's number specs, as Waybar's configs write them; a reading just below zero.
    let padded = configured(
        "temperature",
        "format = \"{temperatureC:3}°C|{temperatureF:>5}\"\n",
    );
    let (text, _) = shown(&*padded, &sample_with("temperature", Some(45.6)));
    assert_eq!(text, " 46°C|  114");
    let (text, _) = shown(&*padded, &sample_with("temperature", Some(-0.3)));
    assert_eq!(text, "  0°C|   31");
    assert_eq!(status.expect("shown").level, Level::Normal);
    // The default format, and no sensor: hidden.
    let plain = configured("temperature", "");
    assert_eq!(
        shown(&*plain, &sample_with("temperature", Some(27.8))).0,
        "28°C"
    );
    assert!(shown(&*plain, &sample_with("temperature", None))
        .1
        .is_none());
}

#[test]
fn thresholds_choose_the_level_and_its_format_and_icons_run_up_to_critical() {
    let module = configured(
        "temperature",
        "warning-threshold = 70\ncritical-threshold = 80\n\
         format = \"{icon} {temperatureC}\"\nformat-critical = \"HOT {temperatureC}\"\n\
         format-icons = [\"a\", \"b\", \"c\", \"d\"]\n",
    );
    let at = |celsius: f64| shown(&*module, &sample_with("temperature", Some(celsius)));
    // Icons in steps of 80 / 4 = 20 °C, as Waybar steps them.
    assert_eq!(at(19.0).0, "a 19");
    assert_eq!(at(40.0).0, "c 40");
    let (text, status) = at(70.0);
    assert_eq!(text, "d 70");
    assert_eq!(status.expect("shown").level, Level::Warning);
    let (text, status) = at(79.6);
    assert_eq!(text, "HOT 80");
    assert_eq!(status.expect("shown").level, Level::Critical);
    // An empty format for a level hides the module there.
    let hiding = configured(
        "temperature",
        "critical-threshold = 50\nformat-critical = \"\"\n",
    );
    assert!(shown(&*hiding, &sample_with("temperature", Some(60.0)))
        .1
        .is_none());
}

#[test]
fn unknown_fields_and_keys_are_config_errors() {
    let text = "modules_right = [\"temperature\"]\n[temperature]\nformat = \"{temp}\"\n";
    let err = crate::config::parse(text, std::path::Path::new("c.toml")).expect_err("field");
    assert!(
        err.message.contains("no {temp} in a format here"),
        "{}",
        err.message
    );
    let text = "modules_right = [\"temperature\"]\n[temperature]\nthermal_zone = 1\n";
    let err = crate::config::parse(text, std::path::Path::new("c.toml")).expect_err("key");
    assert!(
        err.message.contains("unknown field `thermal_zone`"),
        "{}",
        err.message
    );
}

#[cfg(feature = "app")]
mod reader {
    use std::path::Path;

    use super::super::reader::TemperatureReader;
    use super::super::{Paths, Sensor, TemperatureReading};
    use crate::sample::readings::{Reader, Reading};
    use crate::sensors::fixtures::write;

    fn read(reader: &mut TemperatureReader, now_s: u64) -> Option<f64> {
        let mut out: Box<dyn Reading> = reader.empty();
        reader.read(now_s * 1_000_000_000, &mut *out);
        crate::sample::readings::value_mut::<TemperatureReading>(&mut *out)?.celsius
    }

    fn sys_with_sensors(sys: &Path) {
        write(sys, "class/thermal/thermal_zone0/temp", "27800\n");
        write(sys, "class/thermal/thermal_zone2/temp", "51000\n");
        write(sys, "class/hwmon/hwmon1/name", "k10temp\n");
        write(sys, "class/hwmon/hwmon1/temp1_input", "63250\n");
        write(
            sys,
            "devices/platform/coretemp.0/hwmon/hwmon4/temp1_input",
            "71000\n",
        );
    }

    #[test]
    fn the_sensor_is_found_in_waybars_order_of_keys() {
        let dir = tempfile::tempdir().expect("tempdir");
        let sys = dir.path();
        sys_with_sensors(sys);
        let at = |sensor: Sensor| read(&mut TemperatureReader::new("temperature", &sensor, sys), 1);
        assert_eq!(at(Sensor::default()), Some(27.8));
        let zone = Sensor {
            thermal_zone: 2,
            ..Sensor::default()
        };
        assert_eq!(at(zone), Some(51.0));
        // The first listed hwmon path that exists, under the sysfs root.
        let listed = Sensor {
            hwmon_path: Some(Paths::Many(vec![
                "/sys/class/hwmon/hwmon9/temp1_input".into(),
                "/sys/class/hwmon/hwmon1/temp1_input".into(),
            ])),
            ..Sensor::default()
        };
        assert_eq!(at(listed), Some(63.25));
        // The hwmonN directory in hwmon-path-abs, whatever its number.
        let abs = Sensor {
            hwmon_path_abs: Some(Paths::One("/sys/devices/platform/coretemp.0/hwmon".into())),
            input_filename: Some("temp1_input".into()),
            ..Sensor::default()
        };
        assert_eq!(at(abs), Some(71.0));
        let named = Sensor {
            hwmon_name: Some("k10temp".into()),
            input_filename: Some("temp1_input".into()),
            ..Sensor::default()
        };
        assert_eq!(at(named), Some(63.25));
        // Nothing there: no reading, and the zone is not made up.
        let missing = Sensor {
            thermal_zone: 7,
            ..Sensor::default()
        };
        assert_eq!(at(missing), None);
    }

    #[test]
    fn a_vanished_sensor_is_found_again_and_a_broken_value_is_no_reading() {
        let dir = tempfile::tempdir().expect("tempdir");
        let sys = dir.path();
        let mut reader = TemperatureReader::new("temperature", &Sensor::default(), sys);
        assert_eq!(read(&mut reader, 1), None);
        write(sys, "class/thermal/thermal_zone0/temp", "40000\n");
        // Looked for again 5 s later, not on every tick.
        assert_eq!(read(&mut reader, 2), None);
        assert_eq!(read(&mut reader, 7), Some(40.0));
        write(sys, "class/thermal/thermal_zone0/temp", "9999999\n");
        assert_eq!(read(&mut reader, 8), None, "999 °C is not a temperature");
    }
}
