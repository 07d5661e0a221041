//! The network module's settings, named as Waybar names them.

use serde::de::Deserializer;
use serde::Deserialize;

use crate::modules::format;
use crate::text::icons::FormatIcons;

/// Wi-Fi's label when neither `format-wifi` nor `format` is set.
pub(super) const DEFAULT_WIFI: &str = "NET {essid} {signalStrength}% {down}↓ {up}↑";
/// The label of the other connections when `format` is not set.
pub(super) const DEFAULT_FORMAT: &str = "NET {ifname} {down}↓ {up}↑";

/// The keys the formats take; Waybar's names for the rates too.
pub const KEYS: [&str; 20] = [
    "ifname",
    "essid",
    "signalStrength",
    "signaldBm",
    "frequency",
    "ipaddr",
    "cidr",
    "netmask",
    "gwaddr",
    "down",
    "up",
    "bandwidthDownBytes",
    "bandwidthUpBytes",
    "bandwidthTotalBytes",
    "bandwidthDownBits",
    "bandwidthUpBits",
    "bandwidthTotalBits",
    "bandwidthDownOctets",
    "bandwidthUpOctets",
    "icon",
];

/// The settings, named as Waybar names them (`ringbar import-waybar` carries them over).
pub const SETTINGS: &[&str] = &[
    "interface",
    "format",
    "format-wifi",
    "format-ethernet",
    "format-linked",
    "format-disconnected",
    "format-disabled",
    "format-alt",
    "format-icons",
    "tooltip",
    "tooltip-format",
    "tooltip-format-wifi",
    "tooltip-format-ethernet",
    "tooltip-format-linked",
    "tooltip-format-disconnected",
    "tooltip-format-disabled",
    "rfkill",
];

#[derive(Deserialize)]
#[serde(deny_unknown_fields, default)]
pub(super) struct Settings {
    /// Only this interface (`wlan0`, or a pattern with `*`: `wlp2*`); by default the one
    /// of the default route.
    pub(super) interface: Option<String>,
    #[serde(deserialize_with = "checked_format")]
    pub(super) format: String,
    #[serde(rename = "format-wifi", deserialize_with = "checked_optional")]
    pub(super) format_wifi: Option<String>,
    #[serde(rename = "format-ethernet", deserialize_with = "checked_optional")]
    pub(super) format_ethernet: Option<String>,
    #[serde(rename = "format-linked", deserialize_with = "checked_format")]
    pub(super) format_linked: String,
    #[serde(rename = "format-disconnected", deserialize_with = "checked_format")]
    pub(super) format_disconnected: String,
    /// While rfkill blocks the Wi-Fi radios and nothing is connected; unset,
    /// `format-disconnected`.
    #[serde(rename = "format-disabled", deserialize_with = "checked_optional")]
    pub(super) format_disabled: Option<String>,
    /// The label after a left click, whatever the connection.
    #[serde(rename = "format-alt", deserialize_with = "checked_optional")]
    pub(super) format_alt: Option<String>,
    /// As a script module's: one icon, a list, or a table by connection.
    #[serde(rename = "format-icons")]
    pub(super) format_icons: Option<FormatIcons>,
    pub(super) tooltip: bool,
    /// The tooltip as Pango markup with the formats' fields, by connection as the
    /// formats are, each falling back to `tooltip-format`; unset, ringbar's own.
    #[serde(rename = "tooltip-format", deserialize_with = "checked_markup")]
    pub(super) tooltip_format: Option<String>,
    #[serde(rename = "tooltip-format-wifi", deserialize_with = "checked_markup")]
    pub(super) tooltip_format_wifi: Option<String>,
    #[serde(
        rename = "tooltip-format-ethernet",
        deserialize_with = "checked_markup"
    )]
    pub(super) tooltip_format_ethernet: Option<String>,
    #[serde(rename = "tooltip-format-linked", deserialize_with = "checked_markup")]
    pub(super) tooltip_format_linked: Option<String>,
    #[serde(
        rename = "tooltip-format-disconnected",
        deserialize_with = "checked_markup"
    )]
    pub(super) tooltip_format_disconnected: Option<String>,
    #[serde(
        rename = "tooltip-format-disabled",
        deserialize_with = "checked_markup"
    )]
    pub(super) tooltip_format_disabled: Option<String>,
    /// Whether blocked Wi-Fi radios show as `disabled` (Waybar's `rfkill`).
    pub(super) rfkill: bool,
    /// The monitor's list of processes on the network counts their traffic to the
    /// machine itself (loopback, its own address); read through
    /// [`Module::net_include_local`].
    pub(super) include_loopback: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            interface: None,
            format: DEFAULT_FORMAT.to_owned(),
            format_wifi: None,
            format_ethernet: None,
            format_linked: "NET {ifname} linked".to_owned(),
            format_disconnected: "NET off".to_owned(),
            format_disabled: None,
            format_alt: None,
            format_icons: None,
            tooltip: true,
            tooltip_format: None,
            tooltip_format_wifi: None,
            tooltip_format_ethernet: None,
            tooltip_format_linked: None,
            tooltip_format_disconnected: None,
            tooltip_format_disabled: None,
            rfkill: true,
            include_loopback: false,
        }
    }
}

fn checked_format<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    format::deserialize_checked(d, &KEYS)
}

fn checked_optional<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    checked_format(d).map(Some)
}

fn checked_markup<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    format::deserialize_markup(d, &KEYS)
}
