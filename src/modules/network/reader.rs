//! Takes the network reading on the sampling thread: one pread of `/proc/net/dev` per
//! tick, each interface's rates from its byte counters since the last tick, and for a
//! Wi-Fi interface its network and signal from nl80211. Allocates only when an
//! interface appears.

use std::path::{Path, PathBuf};

use super::netdev;
use super::nl80211::Nl80211;
use super::reading::{InterfaceRates, Traffic, Wifi};
use crate::events::network::is_wireless;
use crate::records::procfs::ProcFile;
use crate::records::sysfs::read_integer;
use crate::sample::readings::{value_mut, Reader, Reading, Roots};

/// The counters of one interface at the last read.
struct Counters {
    name: Vec<u8>,
    received: u64,
    transmitted: u64,
    /// Seen in the read going on (the others are gone).
    seen: bool,
    /// A Wi-Fi interface's index, for nl80211.
    wifi: Option<u32>,
}

/// nl80211, opened when the first Wi-Fi interface shows up.
enum Wireless {
    Unopened,
    Open(Nl80211),
    /// It failed (logged once); tried again when another Wi-Fi interface appears.
    Failed,
}

pub struct TrafficReader {
    /// Its module's name as listed.
    key: String,
    file: ProcFile,
    buffer: Vec<u8>,
    known: Vec<Counters>,
    last_ns: Option<u64>,
    failed_logged: bool,
    sys: PathBuf,
    wireless: Wireless,
}

impl TrafficReader {
    pub fn new(key: &str, roots: &Roots) -> TrafficReader {
        TrafficReader {
            key: key.to_owned(),
            file: ProcFile::new(roots.proc.join("net/dev")),
            buffer: vec![0; 16 * 1024],
            known: Vec::new(),
            last_ns: None,
            failed_logged: false,
            sys: roots.sys.clone(),
            wireless: Wireless::Unopened,
        }
    }
}

impl Wireless {
    /// The index of interface `name` when it is Wi-Fi (its sysfs says so).
    fn index_of(&mut self, sys: &Path, name: &[u8]) -> Option<u32> {
        let name = std::str::from_utf8(name).ok()?;
        if !is_wireless(sys, name) {
            return None;
        }
        let index = read_integer(&sys.join("class/net").join(name).join("ifindex"))?;
        if matches!(self, Wireless::Failed) {
            *self = Wireless::Unopened;
        }
        u32::try_from(index).ok()
    }

    /// nl80211's view of interface `index` into `out`; `None` without nl80211.
    fn read(&mut self, index: u32, out: &mut Option<Wifi>) {
        if matches!(self, Wireless::Unopened) {
            *self = match Nl80211::open() {
                Ok(nl) => Wireless::Open(nl),
                Err(err) => {
                    tracing::warn!("network: cannot ask nl80211 ({err}); no Wi-Fi name or signal");
                    Wireless::Failed
                }
            };
        }
        let Wireless::Open(nl) = self else {
            *out = None;
            return;
        };
        let wifi = out.get_or_insert_with(Wifi::default);
        if let Err(err) = nl.read(index, wifi) {
            // The interface went away between the two reads, or the answer was late.
            tracing::debug!("network: nl80211 on interface {index}: {err}");
            wifi.ssid.clear();
            wifi.signal_dbm = None;
        }
    }
}

/// Bytes per second between two counter values; a counter that went back (a driver
/// reset) gives no rate.
fn rate(before: u64, after: u64, seconds: Option<f64>) -> Option<f64> {
    Some(after.checked_sub(before)? as f64 / seconds?)
}

impl Reader for TrafficReader {
    fn key(&self) -> &str {
        &self.key
    }

    fn empty(&self) -> Box<dyn Reading> {
        Box::new(Traffic::default())
    }

    fn read(&mut self, now_ns: u64, out: &mut dyn Reading) {
        let Some(Traffic(out)) = value_mut::<Traffic>(out) else {
            return;
        };
        let Some(text) = self.file.read(&mut self.buffer) else {
            if !self.failed_logged {
                tracing::warn!("network: cannot read /proc/net/dev; no rates");
                self.failed_logged = true;
            }
            out.clear();
            return;
        };
        self.failed_logged = false;
        let seconds = self
            .last_ns
            .map(|then| now_ns.saturating_sub(then) as f64 / 1e9)
            .filter(|&s| s > 0.0);
        self.last_ns = Some(now_ns);
        for known in &mut self.known {
            known.seen = false;
        }
        let mut shown = 0;
        for line in text.split(|&b| b == b'\n') {
            let Some((name, received, transmitted)) = netdev::parse_line(line) else {
                continue;
            };
            let (down, up, wifi) = match self.known.iter_mut().find(|k| k.name == name) {
                Some(known) => {
                    let rates = (
                        rate(known.received, received, seconds),
                        rate(known.transmitted, transmitted, seconds),
                        known.wifi,
                    );
                    (known.received, known.transmitted) = (received, transmitted);
                    known.seen = true;
                    rates
                }
                None => {
                    let wifi = self.wireless.index_of(&self.sys, name);
                    self.known.push(Counters {
                        name: name.to_vec(),
                        received,
                        transmitted,
                        seen: true,
                        wifi,
                    });
                    (None, None, wifi)
                }
            };
            if out.len() == shown {
                out.push(InterfaceRates::default());
            }
            let entry = &mut out[shown];
            entry.name.clear();
            entry.name.push_str(&String::from_utf8_lossy(name));
            (entry.down, entry.up) = (down, up);
            match wifi {
                Some(index) => self.wireless.read(index, &mut entry.wifi),
                None => entry.wifi = None,
            }
            shown += 1;
        }
        out.truncate(shown);
        self.known.retain(|k| k.seen);
    }
}
