//! The bars and where they go: one bar on every output from the top-level keys, or one
//! per `[[bar]]` table, each with its outputs (`output`: names, `!name` to leave one
//! out), edge (`position`: top, bottom, left, right), layer, size, margins and module
//! lists. A key a `[[bar]]` table leaves out is the top level's.

use serde::{de, Deserialize};
use toml::Spanned;

use super::label_shape::LabelShape;
use super::{Layer, Position, Rotate};
use crate::modules::Layout;

/// The most `[[bar]]` tables read.
pub const MAX_BARS: usize = 16;

/// Which outputs a bar goes on, by connector name (`DP-2`, `HEADLESS-1`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OutputMatch {
    /// Empty (or `*`): every output.
    names: Vec<String>,
    /// `!name`: never these.
    excluded: Vec<String>,
}

impl OutputMatch {
    pub fn of(list: &[String]) -> OutputMatch {
        let mut matching = OutputMatch::default();
        for name in list {
            match name.strip_prefix('!') {
                Some(excluded) => matching.excluded.push(excluded.to_owned()),
                None if name == "*" => {}
                None => matching.names.push(name.clone()),
            }
        }
        matching
    }

    pub fn matches(&self, connector: &str) -> bool {
        let named = self.names.is_empty() || self.names.iter().any(|n| n == connector);
        named && !self.excluded.iter().any(|n| n == connector)
    }

    /// Whether the bar goes on every output whatever its name (then it need not wait
    /// for a new output's name).
    pub fn is_everywhere(&self) -> bool {
        self.names.is_empty() && self.excluded.is_empty()
    }
}

/// One bar, as the config describes it.
#[derive(Clone, Debug)]
pub struct BarSpec {
    pub output: OutputMatch,
    pub position: Position,
    pub layer: Layer,
    /// Of a top or bottom bar, in pixels (the content's natural height wins).
    pub height: u32,
    /// Of a left or right bar, in pixels; labels wrap to fit it.
    pub width: u32,
    pub margin_top: u32,
    pub margin_bottom: u32,
    pub margin_left: u32,
    pub margin_right: u32,
    /// The gap in pixels between neighbouring modules.
    pub spacing: u32,
    /// How the text of this bar's labels is turned.
    pub rotate: Rotate,
    /// Modules whose own table turns their text, over the bar's `rotate`.
    pub rotated_modules: Vec<(String, Rotate)>,
    /// Modules whose table sizes their label (`max-length`, `min-length`, `align`).
    pub shaped_modules: Vec<(String, LabelShape)>,
    pub modules: Layout,
}

impl BarSpec {
    /// A left or right bar: modules from top to bottom.
    pub fn vertical(&self) -> bool {
        matches!(self.position, Position::Left | Position::Right)
    }

    /// How the text of the module named `module` is turned on this bar.
    pub fn rotate_of(&self, module: &str) -> Rotate {
        self.rotated_modules
            .iter()
            .find(|(name, _)| name == module)
            .map_or(self.rotate, |(_, rotate)| *rotate)
    }

    /// How the label of the module named `module` is sized.
    pub fn shape_of(&self, module: &str) -> LabelShape {
        self.shaped_modules
            .iter()
            .find(|(name, _)| name == module)
            .map_or_else(LabelShape::default, |(_, shape)| shape.clone())
    }
}

/// `output = "DP-1"` or `output = ["DP-1", "!HDMI-A-1"]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub(super) enum Outputs {
    One(String),
    Many(Vec<String>),
}

impl Outputs {
    pub(super) fn names(&self) -> Vec<String> {
        match self {
            Outputs::One(name) => vec![name.clone()],
            Outputs::Many(names) => names.clone(),
        }
    }
}

/// A `[[bar]]` table as written: what it leaves out is the top level's.
#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub(super) struct BarTable {
    pub output: Option<Outputs>,
    pub position: Option<Position>,
    pub layer: Option<Layer>,
    #[serde(deserialize_with = "optional_size")]
    pub height: Option<u32>,
    #[serde(deserialize_with = "optional_size")]
    pub width: Option<u32>,
    pub margin_top: Option<u32>,
    pub margin_bottom: Option<u32>,
    pub margin_left: Option<u32>,
    pub margin_right: Option<u32>,
    pub spacing: Option<u32>,
    pub rotate: Option<Rotate>,
    pub modules_left: Option<Vec<Spanned<String>>>,
    pub modules_center: Option<Vec<Spanned<String>>>,
    pub modules_right: Option<Vec<Spanned<String>>>,
}

/// A bar's height or width: 1 to 500 pixels.
pub(super) fn size<'de, D: de::Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let value = u32::deserialize(d)?;
    if (1..=500).contains(&value) {
        Ok(value)
    } else {
        Err(de::Error::custom(format!(
            "{value} is not between 1 and 500 pixels"
        )))
    }
}

fn optional_size<'de, D: de::Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    size(d).map(Some)
}
