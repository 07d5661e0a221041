//! Where a sample goes once the modules have rendered it: plain text and markup for
//! `--once` ([`shown`]), the JSON document of `--json` ([`json`]) and the Waybar line of
//! `--waybar` ([`waybar`]). The GTK bar, the fourth sink, is `ui`. Every sink maps a
//! module's status to classes with `Status::css_classes`.

pub mod json;
pub mod shown;
pub mod waybar;

pub use shown::{shown, Shown};
