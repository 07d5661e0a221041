//! The module's settings, by the names Waybar's bluetooth module gives them, and the keys
//! each of its formats takes.

use serde::de::Deserializer;
use serde::Deserialize;

use super::super::format;
use crate::text::icons::FormatIcons;

/// The keys the formats take, as Waybar names them.
pub const KEYS: [&str; 6] = [
    "status",
    "num_connections",
    "controller_alias",
    "device_alias",
    "device_battery_percentage",
    "icon",
];

/// The keys of the tooltip's formats: the label's, the addresses and the list of
/// connected devices.
pub(super) const TOOLTIP_KEYS: [&str; 9] = [
    "status",
    "num_connections",
    "controller_alias",
    "device_alias",
    "device_battery_percentage",
    "icon",
    "controller_address",
    "device_address",
    "device_enumerate",
];

/// The keys of a connected device's line in `{device_enumerate}`.
const DEVICE_KEYS: [&str; 3] = [
    "device_alias",
    "device_address",
    "device_battery_percentage",
];

/// The settings, as Waybar names them (`ringbar import-waybar` carries them over).
pub const SETTINGS: &[&str] = &[
    "format",
    "format-on",
    "format-off",
    "format-disabled",
    "format-connected",
    "format-connected-battery",
    "format-icons",
    "tooltip",
    "tooltip-format",
    "tooltip-format-on",
    "tooltip-format-off",
    "tooltip-format-disabled",
    "tooltip-format-connected",
    "tooltip-format-connected-battery",
    "tooltip-format-enumerate-connected",
    "tooltip-format-enumerate-connected-battery",
];

#[derive(Deserialize)]
#[serde(deny_unknown_fields, default)]
pub(super) struct Settings {
    #[serde(deserialize_with = "checked")]
    pub(super) format: String,
    #[serde(rename = "format-on", deserialize_with = "checked_optional")]
    pub(super) format_on: Option<String>,
    #[serde(rename = "format-off", deserialize_with = "checked_optional")]
    pub(super) format_off: Option<String>,
    /// While rfkill blocks the adapter; unset, `format`.
    #[serde(rename = "format-disabled", deserialize_with = "checked_optional")]
    pub(super) format_disabled: Option<String>,
    #[serde(rename = "format-connected", deserialize_with = "checked")]
    pub(super) format_connected: String,
    #[serde(
        rename = "format-connected-battery",
        deserialize_with = "checked_optional"
    )]
    pub(super) format_connected_battery: Option<String>,
    /// By the device's battery when one reports it, else by state (`off`, `on`,
    /// `connected`).
    #[serde(rename = "format-icons")]
    pub(super) format_icons: Option<FormatIcons>,
    pub(super) tooltip: bool,
    /// The tooltip as Pango markup, by status as the labels are, each falling back to
    /// `tooltip-format`; unset, ringbar's own list.
    #[serde(rename = "tooltip-format", deserialize_with = "tooltip_markup")]
    pub(super) tooltip_format: Option<String>,
    #[serde(rename = "tooltip-format-on", deserialize_with = "tooltip_markup")]
    pub(super) tooltip_format_on: Option<String>,
    #[serde(rename = "tooltip-format-off", deserialize_with = "tooltip_markup")]
    pub(super) tooltip_format_off: Option<String>,
    #[serde(
        rename = "tooltip-format-disabled",
        deserialize_with = "tooltip_markup"
    )]
    pub(super) tooltip_format_disabled: Option<String>,
    #[serde(
        rename = "tooltip-format-connected",
        deserialize_with = "tooltip_markup"
    )]
    pub(super) tooltip_format_connected: Option<String>,
    #[serde(
        rename = "tooltip-format-connected-battery",
        deserialize_with = "tooltip_markup"
    )]
    pub(super) tooltip_format_connected_battery: Option<String>,
    /// Each connected device's line in `{device_enumerate}`.
    #[serde(
        rename = "tooltip-format-enumerate-connected",
        deserialize_with = "device_markup"
    )]
    pub(super) tooltip_format_enumerate_connected: Option<String>,
    #[serde(
        rename = "tooltip-format-enumerate-connected-battery",
        deserialize_with = "device_markup"
    )]
    pub(super) tooltip_format_enumerate_connected_battery: Option<String>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            format: "BT {status}".to_owned(),
            format_on: None,
            format_off: None,
            format_disabled: None,
            format_connected: "BT {device_alias}".to_owned(),
            format_connected_battery: None,
            format_icons: None,
            tooltip: true,
            tooltip_format: None,
            tooltip_format_on: None,
            tooltip_format_off: None,
            tooltip_format_disabled: None,
            tooltip_format_connected: None,
            tooltip_format_connected_battery: None,
            tooltip_format_enumerate_connected: None,
            tooltip_format_enumerate_connected_battery: None,
        }
    }
}

fn checked<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    format::deserialize_checked(d, &KEYS)
}

fn checked_optional<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    checked(d).map(Some)
}

fn tooltip_markup<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    format::deserialize_markup(d, &TOOLTIP_KEYS)
}

fn device_markup<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    format::deserialize_markup(d, &DEVICE_KEYS)
}
