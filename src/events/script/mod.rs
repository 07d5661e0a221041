//! Waybar-compatible custom modules (`custom/NAME`): a user's script prints its state and
//! ringbar shows it. This is the pure part: the module's settings ([`ScriptConfig`], with
//! Waybar's keys; `config.rs`), what one output line says ([`parse_line`]; `output.rs`) and
//! the label and tooltip made of it ([`format()`], [`tooltip_markup`]; `label.rs`). The
//! `app` feature adds `runner`, which runs the scripts on the glib main loop.
//!
//! # Markup
//!
//! As in Waybar, a script's `text`, `tooltip` and `alt` are Pango markup unless the module
//! sets `escape: true`, and so are `format` and `format-icons`. A script's bytes must never
//! break the bar, so markup from a script is read first ([`markup`]): only Pango's own tags
//! (`b`, `big`, `i`, `s`, `small`, `span`, `sub`, `sup`, `tt`, `u`) properly nested, `span`
//! attributes of its long-standing set, quoted values, well-formed entities, no control
//! characters (no line breaks in the label). Text that fails is escaped and shows literally,
//! as with `escape: true`, where Waybar would log an error and show nothing. The runner
//! also asks Pango itself, which knows the value syntax (colours, sizes); text Pango refuses
//! is escaped there in the same way. [`format()`] checks the whole label once more, so a broken
//! `format` string shows literally too. The output of [`format()`] and [`tooltip_markup`] is
//! therefore always markup for `gtk_label_set_markup`/`set_tooltip_markup`.
//!
//! Differences from Waybar: control characters in the text (a JSON `"\n"`) become spaces,
//! so a label stays one line; `max-length` counts visible characters, cuts markup without
//! breaking it and ends with `…`; classes that are not CSS identifiers are dropped.

pub mod lines;

pub use crate::text::markup;
#[cfg(feature = "app")]
pub mod runner;
#[cfg(feature = "app")]
pub mod signals;

mod config;
mod label;
mod output;

pub use config::{realtime_offset, IntervalSetting, ScriptConfig, MAX_INTERVAL, MIN_INTERVAL};
pub use label::{format, push_markup, static_label, tooltip_markup};
pub use output::{parse_line, safe_class, ScriptOutput, ScriptState, MAX_CLASSES, MAX_CLASS_LEN};

#[cfg(all(test, feature = "app"))]
mod pango_tests;
#[cfg(test)]
mod tests;
