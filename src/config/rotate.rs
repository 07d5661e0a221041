//! `rotate`: the text of a bar's labels, or of one module's, turned clockwise by a
//! quarter, a half or three quarters. A bar's table sets it for its labels; a module's
//! table (`[clock]`, `[custom.NAME]`) for that module on every bar, over the bar's.

use std::ops::Range;

use serde::{de, Deserialize};
use toml::de::{DeValue, ValueDeserializer};
use toml::Spanned;

/// How far a label's text is turned, clockwise.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Rotate {
    #[default]
    None,
    Quarter,
    Half,
    ThreeQuarters,
}

impl Rotate {
    pub fn degrees(self) -> u16 {
        match self {
            Rotate::None => 0,
            Rotate::Quarter => 90,
            Rotate::Half => 180,
            Rotate::ThreeQuarters => 270,
        }
    }

    /// Turned on its side: its width is the text's height.
    pub fn is_sideways(self) -> bool {
        matches!(self, Rotate::Quarter | Rotate::ThreeQuarters)
    }
}

impl<'de> Deserialize<'de> for Rotate {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Rotate, D::Error> {
        match i64::deserialize(d)? {
            0 => Ok(Rotate::None),
            90 => Ok(Rotate::Quarter),
            180 => Ok(Rotate::Half),
            270 => Ok(Rotate::ThreeQuarters),
            other => Err(de::Error::custom(format!(
                "rotate {other} is not 0, 90, 180 or 270 (degrees, clockwise)"
            ))),
        }
    }
}

/// A module table's `rotate`, taken out of it so that the module reads the rest; when
/// it does not read, where it is and why.
pub(super) fn take(table: &mut Spanned<DeValue<'_>>) -> Option<Result<Rotate, Located>> {
    let DeValue::Table(keys) = table.get_mut() else {
        return None;
    };
    let value = keys.remove("rotate")?;
    let span = value.span();
    Some(
        Rotate::deserialize(ValueDeserializer::from(value))
            .map_err(|err| (span, format!("`rotate`: {}", err.message()))),
    )
}

/// A span in the config's text and what is wrong there.
pub(super) type Located = (Range<usize>, String);
