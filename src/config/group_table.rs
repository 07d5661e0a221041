//! `[group.NAME]`: a group's table as the config file holds it.

use serde::Deserialize;
use toml::Spanned;

use crate::modules::group::{Drawer, Orientation};

/// `[group.NAME]`, as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct GroupTable {
    pub(super) modules: Vec<Spanned<String>>,
    #[serde(default)]
    pub(super) orientation: Orientation,
    pub(super) drawer: Option<Drawer>,
}
