//! The network module's reading: each interface's receive and transmit rates, from its
//! counters on the sample tick. Which interface the label shows comes from rtnetlink's
//! events (`crate::events::network`), not from here.

use serde_json::{json, Value as Json};

use crate::sample::readings::{copy_same, Reading};

/// One interface's rates in bytes per second; `None` before a second reading.
#[derive(Debug, Default, PartialEq)]
pub struct InterfaceRates {
    pub name: String,
    pub down: Option<f64>,
    pub up: Option<f64>,
    /// What nl80211 says of a Wi-Fi interface; `None` for the others.
    pub wifi: Option<Wifi>,
}

/// A Wi-Fi interface at the tick, from nl80211.
#[derive(Debug, Default, PartialEq)]
pub struct Wifi {
    /// The network's name (bytes of any kind, as lossy UTF-8); empty while not
    /// associated.
    pub ssid: String,
    /// The access point's signal as the station hears it.
    pub signal_dbm: Option<i8>,
    pub frequency_mhz: Option<u32>,
}

impl Wifi {
    /// The signal as a percentage: -100 dBm or less is 0 %, -50 dBm or more is 100 %,
    /// linear between (the scale NetworkManager and Windows show).
    pub fn signal_percent(&self) -> Option<u8> {
        let dbm = i32::from(self.signal_dbm?);
        Some(((dbm + 100) * 2).clamp(0, 100) as u8)
    }

    pub fn associated(&self) -> bool {
        !self.ssid.is_empty()
    }
}

/// By hand for the same reason as [`InterfaceRates`]'.
impl Clone for Wifi {
    fn clone(&self) -> Self {
        let mut wifi = Wifi::default();
        wifi.clone_from(self);
        wifi
    }

    fn clone_from(&mut self, source: &Self) {
        let Wifi {
            ssid,
            signal_dbm,
            frequency_mhz,
        } = source;
        self.ssid.clone_from(ssid);
        self.signal_dbm = *signal_dbm;
        self.frequency_mhz = *frequency_mhz;
    }
}

/// `Clone` by hand: `clone_from` copies into the name the target already has, so the
/// sample's hand-over allocates nothing. Destructured, so a new field must be added.
impl Clone for InterfaceRates {
    fn clone(&self) -> Self {
        let mut rates = InterfaceRates::default();
        rates.clone_from(self);
        rates
    }

    fn clone_from(&mut self, source: &Self) {
        let InterfaceRates {
            name,
            down,
            up,
            wifi,
        } = source;
        self.name.clone_from(name);
        self.down = *down;
        self.up = *up;
        // Option's clone_from reuses the Wifi (and its SSID's buffer) both have.
        self.wifi.clone_from(wifi);
    }
}

/// Every interface of `/proc/net/dev` at one tick, in its order.
#[derive(Debug, Default, PartialEq)]
pub struct Traffic(pub Vec<InterfaceRates>);

impl Traffic {
    pub fn of(&self, name: &str) -> Option<&InterfaceRates> {
        self.0.iter().find(|rates| rates.name == name)
    }
}

impl Clone for Traffic {
    fn clone(&self) -> Self {
        Traffic(self.0.clone())
    }

    /// Vec::clone_from calls the elements' clone_from on the ones both have.
    fn clone_from(&mut self, source: &Self) {
        self.0.clone_from(&source.0);
    }
}

impl Reading for Traffic {
    fn boxed_clone(&self) -> Box<dyn Reading> {
        Box::new(self.clone())
    }

    fn copy_from(&mut self, other: &dyn Reading) {
        copy_same(self, other);
    }

    /// `interfaces[]` of `name`, `receive_bytes_per_second`, `transmit_bytes_per_second`,
    /// and for Wi-Fi `wifi` with `ssid`, `signal_dbm`, `signal_percent`, `frequency_mhz`.
    fn json(&self) -> Json {
        let interfaces: Vec<Json> = self
            .0
            .iter()
            .map(|rates| {
                json!({
                    "name": rates.name,
                    "receive_bytes_per_second": rates.down,
                    "transmit_bytes_per_second": rates.up,
                    "wifi": rates.wifi.as_ref().map(|wifi| json!({
                        "ssid": wifi.associated().then_some(&wifi.ssid),
                        "signal_dbm": wifi.signal_dbm,
                        "signal_percent": wifi.signal_percent(),
                        "frequency_mhz": wifi.frequency_mhz,
                    })),
                })
            })
            .collect();
        json!({ "interfaces": interfaces })
    }
}
