//! The user's configuration: `$XDG_CONFIG_HOME/ringbar/config.toml`.
//!
//! A broken file never stops the bar: [`load`] returns the defaults together with one
//! precise message (file, line, the offending line, what is wrong) for the bar to show.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::de::{self, Deserializer};
use serde::Deserialize;

/// Where the bar sits on its monitor.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Position {
    #[default]
    Top,
    Bottom,
}

/// The layer-shell layer of the bar.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Layer {
    Background,
    Bottom,
    #[default]
    Top,
    Overlay,
}

/// The labels the bar can show, in the order the user lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LabelKind {
    Cpu,
    Memory,
    Gpu,
    Pressure,
}

/// Percentages past which a label gets the `.warning` or `.critical` CSS class.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Thresholds {
    #[serde(deserialize_with = "percent")]
    pub cpu_warning: f64,
    #[serde(deserialize_with = "percent")]
    pub cpu_critical: f64,
    #[serde(deserialize_with = "percent")]
    pub memory_warning: f64,
    #[serde(deserialize_with = "percent")]
    pub memory_critical: f64,
    #[serde(deserialize_with = "percent")]
    pub gpu_warning: f64,
    #[serde(deserialize_with = "percent")]
    pub gpu_critical: f64,
    /// The pressure (PSI) label appears when a resource's "some" stall over the last
    /// 10 s reaches this share, and turns critical at the next.
    #[serde(deserialize_with = "percent")]
    pub pressure_warning: f64,
    #[serde(deserialize_with = "percent")]
    pub pressure_critical: f64,
}

/// A temperature sensor named by its hwmon driver name and, optionally, its label.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SensorName {
    pub hwmon: String,
    pub label: Option<String>,
}

/// Overrides for sensor discovery; by default everything is found automatically.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Sensors {
    /// `{ hwmon = "k10temp", label = "Tccd1" }`.
    pub cpu_temperature: Option<SensorName>,
    /// The GPU on the label: a card (`card1`) or PCI address (`0000:03:00.0`).
    pub gpu: Option<String>,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            cpu_warning: 70.0,
            cpu_critical: 90.0,
            memory_warning: 80.0,
            memory_critical: 95.0,
            gpu_warning: 70.0,
            gpu_critical: 90.0,
            pressure_warning: 10.0,
            pressure_critical: 40.0,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    pub position: Position,
    pub layer: Layer,
    /// Bar height in pixels; the content's natural height wins if it is taller.
    #[serde(deserialize_with = "height")]
    pub height: u32,
    pub margin_top: u32,
    pub margin_bottom: u32,
    pub margin_left: u32,
    pub margin_right: u32,
    #[serde(deserialize_with = "labels")]
    pub labels: Vec<LabelKind>,
    /// The sample interval at first start; clicks change it and the choice is remembered.
    #[serde(deserialize_with = "interval")]
    pub interval_ms: u32,
    /// Whether kernel threads are counted at first start; middle click toggles it.
    pub kernel_threads: bool,
    pub thresholds: Thresholds,
    pub sensors: Sensors,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            position: Position::Top,
            layer: Layer::Top,
            height: 26,
            margin_top: 0,
            margin_bottom: 0,
            margin_left: 0,
            margin_right: 0,
            labels: vec![
                LabelKind::Cpu,
                LabelKind::Memory,
                LabelKind::Gpu,
                LabelKind::Pressure,
            ],
            interval_ms: 2000,
            kernel_threads: false,
            thresholds: Thresholds::default(),
            sensors: Sensors::default(),
        }
    }
}

pub const MIN_INTERVAL_MS: u32 = 50;
pub const MAX_INTERVAL_MS: u32 = 60_000;

fn percent<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    let value = f64::deserialize(d)?;
    if (0.0..=100.0).contains(&value) {
        Ok(value)
    } else {
        Err(de::Error::custom(format!(
            "{value} is not a percentage between 0 and 100"
        )))
    }
}

fn height<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let value = u32::deserialize(d)?;
    if (1..=500).contains(&value) {
        Ok(value)
    } else {
        Err(de::Error::custom(format!(
            "height {value} is not between 1 and 500 pixels"
        )))
    }
}

fn interval<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let value = u32::deserialize(d)?;
    if (MIN_INTERVAL_MS..=MAX_INTERVAL_MS).contains(&value) {
        Ok(value)
    } else {
        Err(de::Error::custom(format!(
            "interval_ms {value} is not between {MIN_INTERVAL_MS} and {MAX_INTERVAL_MS}"
        )))
    }
}

fn labels<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<LabelKind>, D::Error> {
    let labels = Vec::<LabelKind>::deserialize(d)?;
    for (i, label) in labels.iter().enumerate() {
        if labels[..i].contains(label) {
            return Err(de::Error::custom(format!(
                "label {label:?} is listed twice"
            )));
        }
    }
    Ok(labels)
}

/// Why a config file was not used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    pub path: PathBuf,
    /// 1-based line of the problem, when it has one.
    pub line: Option<usize>,
    /// The offending line of the file, trimmed.
    pub source_line: String,
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        if !self.source_line.is_empty() {
            write!(f, ": `{}`", self.source_line)?;
        }
        write!(f, ": {} (using the defaults)", self.message)
    }
}

/// Parses config text; `path` is only used in the message.
pub fn parse(text: &str, path: &Path) -> Result<Config, ConfigError> {
    toml::from_str(text).map_err(|err| {
        let (line, source_line) = match err.span() {
            Some(span) => locate(text, span.start),
            None => (None, String::new()),
        };
        ConfigError {
            path: path.to_owned(),
            line,
            source_line,
            message: err.message().trim().to_owned(),
        }
    })
}

/// The 1-based line containing byte `offset`, and that line's text.
fn locate(text: &str, offset: usize) -> (Option<usize>, String) {
    let offset = offset.min(text.len());
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    let number = text[..line_start].matches('\n').count() + 1;
    let mut source_line: String = text[line_start..line_end].trim().to_owned();
    if source_line.chars().count() > 80 {
        source_line = source_line.chars().take(77).collect::<String>() + "...";
    }
    (Some(number), source_line)
}

/// Reads the config file. A missing file is not an error; anything else that is wrong
/// yields the defaults and the reason.
pub fn load(path: &Path) -> (Config, Option<ConfigError>) {
    let error = |message: String| ConfigError {
        path: path.to_owned(),
        line: None,
        source_line: String::new(),
        message,
    };
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            return (Config::default(), None);
        }
        Err(err) => {
            return (
                Config::default(),
                Some(error(format!("cannot read: {err}"))),
            )
        }
    };
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(err) => {
            let (line, _) = locate(
                &String::from_utf8_lossy(err.as_bytes()),
                err.utf8_error().valid_up_to(),
            );
            let mut e = error("not UTF-8 text".to_owned());
            e.line = line;
            return (Config::default(), Some(e));
        }
    };
    match parse(&text, path) {
        Ok(config) => (config, None),
        Err(err) => (Config::default(), Some(err)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(text: &str) -> Result<Config, String> {
        parse(text, Path::new("/home/u/.config/ringbar/config.toml")).map_err(|e| e.to_string())
    }

    #[test]
    fn empty_file_is_the_defaults() {
        assert_eq!(parse_str(""), Ok(Config::default()));
    }

    #[test]
    fn the_documented_example_parses() {
        let example = include_str!("../data/config.toml");
        let config = parse_str(example).expect("data/config.toml must parse");
        // The example shows the defaults, uncommented.
        assert_eq!(config, Config::default());
    }

    #[test]
    fn every_key_is_read() {
        let config = parse_str(
            "position = \"bottom\"\nlayer = \"overlay\"\nheight = 40\nmargin_top = 1\n\
             margin_bottom = 2\nmargin_left = 3\nmargin_right = 4\nlabels = [\"memory\", \"cpu\"]\n\
             interval_ms = 500\nkernel_threads = true\n[thresholds]\ncpu_warning = 50\n\
             cpu_critical = 60.5\nmemory_warning = 1\nmemory_critical = 2\ngpu_warning = 3\n\
             gpu_critical = 4\npressure_warning = 5\npressure_critical = 6\n[sensors]\n\
             cpu_temperature = { hwmon = \"k10temp\", label = \"Tccd1\" }\ngpu = \"card1\"\n",
        )
        .expect("valid");
        assert_eq!(config.position, Position::Bottom);
        assert_eq!(config.layer, Layer::Overlay);
        assert_eq!(config.height, 40);
        assert_eq!(
            (
                config.margin_top,
                config.margin_bottom,
                config.margin_left,
                config.margin_right
            ),
            (1, 2, 3, 4)
        );
        assert_eq!(config.labels, [LabelKind::Memory, LabelKind::Cpu]);
        assert_eq!(config.interval_ms, 500);
        assert!(config.kernel_threads);
        assert_eq!(config.thresholds.cpu_critical, 60.5);
        assert_eq!(config.thresholds.memory_critical, 2.0);
        assert_eq!(
            (
                config.thresholds.gpu_warning,
                config.thresholds.gpu_critical,
                config.thresholds.pressure_warning,
                config.thresholds.pressure_critical
            ),
            (3.0, 4.0, 5.0, 6.0)
        );
        assert_eq!(
            config.sensors.cpu_temperature,
            Some(SensorName {
                hwmon: "k10temp".to_owned(),
                label: Some("Tccd1".to_owned())
            })
        );
        assert_eq!(config.sensors.gpu.as_deref(), Some("card1"));
        let unlabelled = parse_str("[sensors]\ncpu_temperature = { hwmon = \"zenpower\" }\n")
            .expect("label is optional");
        assert_eq!(
            unlabelled.sensors.cpu_temperature.map(|s| s.label),
            Some(None)
        );
        let typo = parse_str("[sensors]\ncpu_temperature = { hwmon = \"x\", lable = \"y\" }\n")
            .expect_err("unknown key");
        assert!(
            typo.contains(":2:") && typo.contains("unknown field `lable`"),
            "{typo}"
        );
    }

    #[test]
    fn errors_name_file_line_and_key() {
        assert_eq!(
            parse_str("height = 30\nheigth = 30\n"),
            Err(
                "/home/u/.config/ringbar/config.toml:2: `heigth = 30`: unknown field `heigth`, \
                 expected one of `position`, `layer`, `height`, `margin_top`, `margin_bottom`, \
                 `margin_left`, `margin_right`, `labels`, `interval_ms`, `kernel_threads`, \
                 `thresholds`, `sensors` (using the defaults)"
                    .to_owned()
            )
        );
        let wrong_type = parse_str("\n\nheight = \"tall\"\n").expect_err("wrong type");
        assert!(
            wrong_type.starts_with("/home/u/.config/ringbar/config.toml:3: `height = \"tall\"`: invalid type: string \"tall\", expected u32"),
            "{wrong_type}"
        );
        let bad_toml = parse_str("position = top\n").expect_err("bad toml");
        assert!(
            bad_toml.contains("config.toml:1: `position = top`"),
            "{bad_toml}"
        );
        let nested = parse_str("[thresholds]\ncpu_warning = 150\n").expect_err("range");
        assert!(
            nested.contains(":2: `cpu_warning = 150`: 150 is not a percentage between 0 and 100"),
            "{nested}"
        );
        let bad_value = parse_str("position = \"left\"\n").expect_err("variant");
        assert!(
            bad_value.contains(":1: `position = \"left\"`: unknown variant `left`"),
            "{bad_value}"
        );
        assert!(parse_str("interval_ms = 10\n")
            .expect_err("too fast")
            .contains("interval_ms 10 is not between 50 and 60000"));
        assert!(parse_str("labels = [\"cpu\", \"cpu\"]\n")
            .expect_err("twice")
            .contains("listed twice"));
    }

    #[test]
    fn load_survives_missing_garbage_and_unreadable_files() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("config.toml");
        assert_eq!(load(&path), (Config::default(), None));

        std::fs::write(&path, b"height = 30\n\xff\xfe\x00garbage").expect("write");
        let (config, error) = load(&path);
        assert_eq!(config, Config::default());
        let error = error.expect("garbage is reported");
        assert_eq!(error.line, Some(2));
        assert!(error.to_string().contains("not UTF-8"), "{error}");

        std::fs::write(&path, "height = 30\n").expect("write");
        assert_eq!(load(&path).0.height, 30);

        // A directory where the file should be: a read error, not a panic.
        let dir_path = dir.path().join("dir.toml");
        std::fs::create_dir(&dir_path).expect("mkdir");
        let (config, error) = load(&dir_path);
        assert_eq!(config, Config::default());
        assert!(error.expect("reported").message.starts_with("cannot read"));
    }
}
