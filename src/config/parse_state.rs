//! What a config parse found so far: its problems, the modules made and the tables
//! read, shared by the parts of the parse.

use std::path::Path;
use std::rc::Rc;

use super::group_table::GroupTable;
use super::label_shape::LabelShape;
use super::rotate::{self, Rotate};
use super::ConfigError;
use crate::modules::Module;

/// What a parse found so far.
pub(super) struct Parse<'a> {
    pub(super) text: &'a str,
    pub(super) path: &'a Path,
    pub(super) errors: Vec<ConfigError>,
    /// The modules made, by name, so that a module listed twice is one module.
    pub(super) made: Vec<(String, Rc<dyn Module>)>,
    /// The modules whose table has `rotate`, by the module's name.
    pub(super) rotated: Vec<(String, Rotate)>,
    /// The modules whose table has `max-length`, `min-length` or `align`.
    pub(super) shaped: Vec<(String, LabelShape)>,
    /// The groups' tables, `[group.NAME]`, by the group's name (`group/NAME`).
    pub(super) groups: Vec<(String, GroupTable)>,
}

impl Parse<'_> {
    pub(super) fn located(&mut self, err: toml::de::Error) {
        let err = ConfigError::located(self.path, self.text, err);
        self.errors.push(err);
    }

    /// A module table's `rotate`, kept when it reads.
    pub(super) fn rotation(
        &mut self,
        module: &str,
        rotation: Option<Result<Rotate, rotate::Located>>,
    ) {
        match rotation {
            Some(Ok(rotation)) => self.rotated.push((module.to_owned(), rotation)),
            Some(Err((span, message))) => self.at(span, message),
            None => {}
        }
    }

    /// A module table's label shape, kept when it reads.
    pub(super) fn shape(
        &mut self,
        module: &str,
        shape: Option<Result<LabelShape, rotate::Located>>,
    ) {
        match shape {
            Some(Ok(shape)) => self.shaped.push((module.to_owned(), shape)),
            Some(Err((span, message))) => self.at(span, message),
            None => {}
        }
    }

    pub(super) fn at(&mut self, span: std::ops::Range<usize>, message: String) {
        let err = ConfigError::at(self.path, self.text, span, message);
        self.errors.push(err);
    }
}
