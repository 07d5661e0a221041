//! `network`: the interface that carries the default route, as `format-wifi`,
//! `format-ethernet`, `format-linked` (up, no address), `format-disconnected` or
//! `format-disabled` (nothing connected while rfkill blocks Wi-Fi) says, each falling
//! back to `format` (`format-disabled` to `format-disconnected`); `{down}`/`{up}` are its rates, `{essid}` and
//! `{signalStrength}` a Wi-Fi network's name and signal. The classes name the
//! connection (`wifi`, `ethernet`, `linked`, `disconnected`, `disabled`). Links, addresses and routes
//! come from rtnetlink's events (`crate::events::network`); the rates from the interface
//! counters and Wi-Fi's name and signal from nl80211, on the sample tick. The tooltip
//! has the network, the addresses, the gateway and the rates.

mod fields;
#[cfg(feature = "app")]
mod netdev;
#[cfg(feature = "app")]
mod nl80211;
#[cfg(feature = "app")]
mod reader;
#[cfg(all(test, feature = "app"))]
mod reader_tests;
mod reading;
#[cfg(test)]
mod rfkill_tests;
mod settings;
#[cfg(test)]
mod tests;

use std::fmt::Write;
use std::rc::Rc;

use serde::Deserialize;

use super::alt_format::AltFormat;
use super::format;
use super::import::Waybar;
use super::ModuleKind;
use super::Sampling;
use super::{Action, Button, EventSource, Input, Module, Status, Table, Update};
use crate::events::network::{Connection, NetworkState, Primary};
use crate::render::{header, write_rate};
use crate::sample::readings::{Reader, Roots};
use crate::text::MarkupBuffer;
use crate::text::{untrusted, Sink};
pub use reading::{InterfaceRates, Traffic, Wifi};
use settings::{Settings, DEFAULT_FORMAT, DEFAULT_WIFI};
pub use settings::{KEYS, SETTINGS};

struct Network {
    /// As listed (`network`, `network#wifi`): the key of its reading.
    key: String,
    settings: Settings,
    alternative: AltFormat,
    /// The user's tooltip as it is filled, kept so that drawing it allocates nothing.
    tooltip_text: MarkupBuffer,
}

/// The `network` module.
pub const KIND: ModuleKind = ModuleKind {
    name: "network",
    make,
    waybar: Some(Waybar {
        settings: SETTINGS,
        fields: &KEYS,
        // Its rates are the monitor's sample's: Waybar's `interval` is the monitor's.
        convert: super::import::sampled,
        ..Waybar::named(&["network"])
    }),
};

pub fn make(name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    let settings = match table {
        Some(table) => Settings::deserialize(table)?,
        None => Settings::default(),
    };
    Ok(Rc::new(Network {
        key: name.to_owned(),
        settings,
        alternative: AltFormat::default(),
        tooltip_text: MarkupBuffer::default(),
    }))
}

impl Network {
    /// The interface shown and its connection; blocked radios are `disconnected` with
    /// `rfkill = false`.
    fn primary<'a>(&self, state: &'a NetworkState) -> Primary<'a> {
        let mut primary = state.primary(self.settings.interface.as_deref());
        if primary.connection == Connection::Disabled && !self.settings.rfkill {
            primary.connection = Connection::Disconnected;
        }
        primary
    }

    /// The format for `connection`; Wi-Fi's only once nl80211 has named the network
    /// (else the interface's name is all there is to show).
    fn format(&self, connection: Connection, wifi: Option<&Wifi>) -> &str {
        let own = self.connection_format(connection, wifi);
        (self.alternative).pick_set(own, self.settings.format_alt.as_deref())
    }

    /// The format of `connection`, as `format-CONNECTION` and `format` say.
    fn connection_format(&self, connection: Connection, wifi: Option<&Wifi>) -> &str {
        let s = &self.settings;
        match connection {
            Connection::Wifi if wifi.is_some_and(Wifi::associated) => match &s.format_wifi {
                Some(format) => format,
                None if s.format == DEFAULT_FORMAT => DEFAULT_WIFI,
                None => &s.format,
            },
            Connection::Wifi => &s.format,
            Connection::Ethernet => s.format_ethernet.as_deref().unwrap_or(&s.format),
            Connection::Linked => &s.format_linked,
            Connection::Disconnected => &s.format_disconnected,
            Connection::Disabled => s.format_disabled.as_ref().unwrap_or(&s.format_disconnected),
        }
    }

    /// The user's tooltip for `connection`, if they set one.
    fn tooltip_format(&self, connection: Connection) -> Option<&str> {
        let s = &self.settings;
        let own = match connection {
            Connection::Wifi => &s.tooltip_format_wifi,
            Connection::Ethernet => &s.tooltip_format_ethernet,
            Connection::Linked => &s.tooltip_format_linked,
            Connection::Disconnected => &s.tooltip_format_disconnected,
            Connection::Disabled => &s.tooltip_format_disabled,
        };
        own.as_deref().or(s.tooltip_format.as_deref())
    }

    fn rates<'a>(&self, input: &Input<'a>, primary: &Primary<'_>) -> Option<&'a InterfaceRates> {
        let traffic = input.sample.readings.get::<Traffic>(&self.key)?;
        traffic.of(&primary.link?.name)
    }

    /// `Network  wlan0 · wifi`, the Wi-Fi network with its signal and band, then the
    /// addresses (the first with its gateway) and the rates.
    fn link_tooltip(&self, sink: &mut dyn Sink, input: &Input<'_>) {
        let Some(state) = input.events.get::<NetworkState>() else {
            return;
        };
        let primary = self.primary(state);
        header(sink, "Network");
        let Some(link) = primary.link else {
            let _ = writeln!(sink.out(), "{}", primary.connection.name());
            return;
        };
        untrusted(sink, &link.name);
        let _ = writeln!(sink.out(), " · {}", primary.connection.name());
        let rates = self.rates(input, &primary);
        if let Some(wifi) = rates
            .and_then(|r| r.wifi.as_ref())
            .filter(|w| w.associated())
        {
            sink.out().push_str("  ");
            untrusted(sink, &wifi.ssid);
            let out = sink.out();
            if let (Some(dbm), Some(percent)) = (wifi.signal_dbm, wifi.signal_percent()) {
                let _ = write!(out, " · {dbm} dBm ({percent} %)");
            }
            if let Some(mhz) = wifi.frequency_mhz {
                let _ = write!(out, " · {mhz} MHz");
            }
            out.push('\n');
        }
        for (n, address) in state.addresses_of(link.index).enumerate() {
            let out = sink.out();
            let _ = write!(out, "  {}/{}", address.address, address.prefix);
            if let (0, Some(gateway)) = (n, primary.route.and_then(|r| r.gateway)) {
                let _ = write!(out, " · via {gateway}");
            }
            out.push('\n');
        }
        if let Some(rates) = rates {
            let out = sink.out();
            let mut rate = |label: &str, rate: Option<f64>| {
                out.push_str(label);
                match rate {
                    Some(rate) => write_rate(out, rate),
                    None => out.push('–'),
                }
            };
            rate("  down ", rates.down);
            rate(" · up ", rates.up);
            out.push('\n');
        }
    }
}

impl Module for Network {
    fn name(&self) -> &str {
        "network"
    }

    /// Links change by events; the rates on each sample.
    fn follows(&self) -> &[Update] {
        const {
            &[
                Update::Event(EventSource::of::<NetworkState>()),
                Update::Sample,
            ]
        }
    }

    fn reader(&self, roots: &Roots) -> Option<Box<dyn Reader>> {
        #[cfg(feature = "app")]
        return Some(Box::new(reader::TrafficReader::new(&self.key, roots)));
        #[cfg(not(feature = "app"))]
        {
            let _ = roots;
            None
        }
    }

    /// Hidden until rtnetlink has told the state (or where it cannot be followed).
    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        let state = input.events.get::<NetworkState>()?;
        let primary = self.primary(state);
        let rates = self.rates(input, &primary);
        let connection = primary.connection;
        let wifi = rates.and_then(|r| r.wifi.as_ref());
        // Wi-Fi's icon by its signal, as Waybar picks it.
        let signal = wifi.and_then(Wifi::signal_percent).map(f64::from);
        let icons = self.settings.format_icons.as_ref();
        let icon = icons.map_or("", |icons| icons.icon(signal, Some(connection.name())));
        format::fill(self.format(connection, wifi), out, |key, out| {
            fields::write_field(key, out, state, &primary, rates, icon)
        });
        Some(Status {
            class: Some(connection.name()),
            ..Status::default()
        })
    }

    fn sampling(&self) -> Option<Sampling> {
        Some(Sampling {
            net_include_local: Some(self.settings.include_loopback),
            ..Sampling::default()
        })
    }

    /// The link's section, then the processes using the network (the probe's counts).
    fn tooltip(&self, sink: &mut dyn Sink, input: &Input<'_>) {
        if !self.settings.tooltip {
            return;
        }
        let state = input.events.get::<NetworkState>();
        let primary = state.map(|state| self.primary(state));
        let own = primary
            .as_ref()
            .and_then(|p| self.tooltip_format(p.connection));
        let (Some(format), Some(state), Some(primary)) = (own, state, primary) else {
            self.link_tooltip(sink, input);
            crate::render::net::write(sink, input.sample);
            return;
        };
        let rates = self.rates(input, &primary);
        let wifi = rates.and_then(|r| r.wifi.as_ref());
        let signal = wifi.and_then(Wifi::signal_percent).map(f64::from);
        let icons = self.settings.format_icons.as_ref();
        let icon = icons.map_or("", |icons| {
            icons.icon(signal, Some(primary.connection.name()))
        });
        self.tooltip_text.write(sink, |text| {
            format::fill_escaped(format, text, &[], |key, out| {
                fields::write_field(key, out, state, &primary, rates, icon)
            });
        });
    }

    fn history_graphs(&self) -> bool {
        false
    }

    fn alt_format(&self) -> Option<&AltFormat> {
        Some(&self.alternative)
    }

    fn action(&self, button: Button) -> Option<Action> {
        if self.settings.format_alt.is_some() {
            return self.alternative.click(button);
        }
        self.command(button).map(|_| Action::Run(button))
    }
}
