//! `warning` and `critical`: the shares at which a monitor module gets the `.warning` or
//! `.critical` CSS class. Each module has its own defaults. The modules whose label shows a
//! percentage (`cpu`, `gpu`) also take `decimals`.

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

/// The decimals of a label's percentage unless the table says: whole percents, so an idle
/// machine's label (and the bar) does not change with every sample.
pub const DEFAULT_DECIMALS: usize = 0;
const MAX_DECIMALS: u8 = 2;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GivenWithDecimals {
    #[serde(default, deserialize_with = "percent")]
    warning: Option<f64>,
    #[serde(default, deserialize_with = "percent")]
    critical: Option<f64>,
    #[serde(default, deserialize_with = "decimals")]
    decimals: Option<u8>,
}

pub(super) fn decimals<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u8>, D::Error> {
    let value = i64::deserialize(d)?;
    match u8::try_from(value) {
        Ok(n) if n <= MAX_DECIMALS => Ok(Some(n)),
        _ => Err(de::Error::custom(format!(
            "{value} decimals: between 0 and {MAX_DECIMALS}"
        ))),
    }
}

/// A `warning` or `critical` share: a number from 0 to 100.
pub(super) fn percent<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
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

    /// The table's thresholds over `defaults`, and the label's decimals.
    pub fn with_decimals(
        table: Table<'_>,
        defaults: Thresholds,
    ) -> Result<(Thresholds, usize), toml::de::Error> {
        let Some(table) = table else {
            return Ok((defaults, DEFAULT_DECIMALS));
        };
        let given = GivenWithDecimals::deserialize(table)?;
        let thresholds = Thresholds {
            warning: given.warning.unwrap_or(defaults.warning),
            critical: given.critical.unwrap_or(defaults.critical),
        };
        let decimals = given.decimals.map_or(DEFAULT_DECIMALS, usize::from);
        Ok((thresholds, decimals))
    }
}
