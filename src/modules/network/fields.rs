//! The network formats' fields (`{essid}`, `{ipaddr}`, `{bandwidthDownBits}` …), as
//! Waybar names them, for the label and the user's tooltip.

use std::fmt::Write;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use super::{InterfaceRates, Wifi};
use crate::events::network::{NetworkState, Primary};
use crate::render::write_rate;

/// A rate in the label: 0 until there is one (the tooltip says `–`).
fn write_rate_or_zero(out: &mut String, rate: Option<f64>) {
    write_rate(out, rate.unwrap_or(0.0));
}

/// Bits per second with decimal prefixes, as Waybar writes them (`1.2Mb/s`).
fn write_bits(out: &mut String, bytes_per_second: Option<f64>) {
    const PREFIXES: [&str; 5] = ["", "k", "M", "G", "T"];
    let mut value = bytes_per_second.unwrap_or(0.0).max(0.0) * 8.0;
    let mut prefix = 0;
    while value >= 999.95 && prefix + 1 < PREFIXES.len() {
        value /= 1000.0;
        prefix += 1;
    }
    let _ = if prefix > 0 && value < 9.95 {
        write!(out, "{value:.1}{}b/s", PREFIXES[prefix])
    } else {
        write!(out, "{value:.0}{}b/s", PREFIXES[prefix])
    };
}

/// Text from outside in a label: control characters (an SSID may hold any byte) as `?`,
/// no deceptive ones.
fn push_clean(out: &mut String, text: &str) {
    out.extend(crate::text::shown(text, '?'));
}

/// The mask of a prefix length, in its address family's notation (24: 255.255.255.0).
fn netmask(address: IpAddr, prefix: u8) -> IpAddr {
    match address {
        IpAddr::V4(_) => {
            let bits = u32::MAX
                .checked_shl(32 - u32::from(prefix.min(32)))
                .unwrap_or(0);
            IpAddr::V4(Ipv4Addr::from(bits))
        }
        IpAddr::V6(_) => {
            let bits = u128::MAX
                .checked_shl(128 - u32::from(prefix.min(128)))
                .unwrap_or(0);
            IpAddr::V6(Ipv6Addr::from(bits))
        }
    }
}

/// Appends the field `key`; `false` for a key the network does not fill.
pub fn write_field(
    key: &str,
    out: &mut String,
    state: &NetworkState,
    primary: &Primary<'_>,
    rates: Option<&InterfaceRates>,
    icon: &str,
) -> bool {
    let address = primary
        .link
        .and_then(|link| state.addresses_of(link.index).next());
    let wifi = rates.and_then(|r| r.wifi.as_ref());
    let down = rates.and_then(|r| r.down);
    let up = rates.and_then(|r| r.up);
    let total = down.zip(up).map(|(down, up)| down + up);
    match key {
        "ifname" => out.push_str(primary.link.map_or("", |l| &l.name)),
        "essid" => push_clean(out, wifi.map_or("", |w| &w.ssid)),
        "signalStrength" => {
            if let Some(percent) = wifi.and_then(Wifi::signal_percent) {
                let _ = write!(out, "{percent}");
            }
        }
        "signaldBm" => {
            if let Some(dbm) = wifi.and_then(|w| w.signal_dbm) {
                let _ = write!(out, "{dbm}");
            }
        }
        "frequency" => {
            if let Some(mhz) = wifi.and_then(|w| w.frequency_mhz) {
                let _ = write!(out, "{:.1}", f64::from(mhz) / 1000.0);
            }
        }
        "ipaddr" => {
            if let Some(address) = address {
                let _ = write!(out, "{}", address.address);
            }
        }
        "cidr" => {
            if let Some(address) = address {
                let _ = write!(out, "{}", address.prefix);
            }
        }
        "netmask" => {
            if let Some(address) = address {
                let _ = write!(out, "{}", netmask(address.address, address.prefix));
            }
        }
        "gwaddr" => {
            if let Some(gateway) = primary.route.and_then(|r| r.gateway) {
                let _ = write!(out, "{gateway}");
            }
        }
        "down" | "bandwidthDownBytes" | "bandwidthDownOctets" => write_rate_or_zero(out, down),
        "up" | "bandwidthUpBytes" | "bandwidthUpOctets" => write_rate_or_zero(out, up),
        "bandwidthTotalBytes" => write_rate_or_zero(out, total),
        "bandwidthDownBits" => write_bits(out, down),
        "bandwidthUpBits" => write_bits(out, up),
        "bandwidthTotalBits" => write_bits(out, total),
        "icon" => out.push_str(icon),
        _ => return false,
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_as_waybar_writes_them() {
        let mut out = String::new();
        for rate in [0.0, 100.0, 1_250.0, 150_000.0, 2_500_000_000.0] {
            write_bits(&mut out, Some(rate));
            out.push(' ');
        }
        assert_eq!(out, "0b/s 800b/s 10kb/s 1.2Mb/s 20Gb/s ");
    }

    #[test]
    fn netmasks_of_prefix_lengths() {
        let v4 = IpAddr::V4(Ipv4Addr::LOCALHOST);
        let v6 = IpAddr::V6(Ipv6Addr::LOCALHOST);
        let mask = |address, prefix| netmask(address, prefix).to_string();
        assert_eq!(mask(v4, 24), "255.255.255.0");
        assert_eq!(mask(v4, 0), "0.0.0.0");
        assert_eq!(mask(v4, 32), "255.255.255.255");
        assert_eq!(mask(v4, 20), "255.255.240.0");
        assert_eq!(mask(v6, 64), "ffff:ffff:ffff:ffff::");
        assert_eq!(mask(v6, 0), "::");
    }
}
