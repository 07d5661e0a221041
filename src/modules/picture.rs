//! A picture before a module's label, and the sizes the config gives it.

use serde::Deserialize;

/// A picture before a module's label.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Picture<'a> {
    /// A theme's icon name, or a file: a name with a `/` (`~/` is the home folder); none
    /// is drawn where the file is not a regular file.
    pub source: &'a str,
    /// The box it is scaled to fit, its aspect kept, in pixels.
    pub width: i32,
    pub height: i32,
    /// Between the picture and the label, in pixels.
    pub spacing: i32,
}

/// A picture's side from the config: 1 to 1024 pixels.
pub fn deserialize_pixels<'de, D: serde::Deserializer<'de>>(d: D) -> Result<i32, D::Error> {
    pixels_from(d, 1)
}

/// A space from the config: 0 to 1024 pixels.
pub fn deserialize_spacing<'de, D: serde::Deserializer<'de>>(d: D) -> Result<i32, D::Error> {
    pixels_from(d, 0)
}

fn pixels_from<'de, D: serde::Deserializer<'de>>(d: D, least: i32) -> Result<i32, D::Error> {
    let pixels = i32::deserialize(d)?;
    if !(least..=1024).contains(&pixels) {
        return Err(serde::de::Error::custom(format!(
            "{pixels} is not {least} to 1024 pixels"
        )));
    }
    Ok(pixels)
}
