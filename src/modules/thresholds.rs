//! `warning` and `critical`: the shares at which a monitor module gets the `.warning` or
//! `.critical` CSS class. Each module has its own defaults.

use serde::de::{self, Deserializer};
use serde::Deserialize;

use super::Table;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thresholds {
    pub warning: f64,
    pub critical: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Given {
    #[serde(default, deserialize_with = "percent")]
    warning: Option<f64>,
    #[serde(default, deserialize_with = "percent")]
    critical: Option<f64>,
}

fn percent<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    let value = f64::deserialize(d)?;
    if (0.0..=100.0).contains(&value) {
        Ok(Some(value))
    } else {
        Err(de::Error::custom(format!(
            "{value} is not a percentage between 0 and 100"
        )))
    }
}

impl Thresholds {
    /// The table's thresholds over `defaults`.
    pub fn from_table(
        table: Table<'_>,
        defaults: Thresholds,
    ) -> Result<Thresholds, toml::de::Error> {
        let Some(table) = table else {
            return Ok(defaults);
        };
        let given = Given::deserialize(table)?;
        Ok(Thresholds {
            warning: given.warning.unwrap_or(defaults.warning),
            critical: given.critical.unwrap_or(defaults.critical),
        })
    }
}
