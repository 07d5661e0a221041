//! Takes the network reading on the sampling thread: one pread of `/proc/net/dev` per
//! tick, each interface's rates from its byte counters since the last tick. Allocates
//! only when an interface appears.

use super::netdev;
use super::reading::{InterfaceRates, Traffic};
use crate::records::procfs::ProcFile;
use crate::sample::readings::{value_mut, Reader, Reading, Roots};

/// The counters of one interface at the last read.
struct Counters {
    name: Vec<u8>,
    received: u64,
    transmitted: u64,
    /// Seen in the read going on (the others are gone).
    seen: bool,
}

pub struct TrafficReader {
    /// Its module's name as listed.
    key: String,
    file: ProcFile,
    buffer: Vec<u8>,
    known: Vec<Counters>,
    last_ns: Option<u64>,
    failed_logged: bool,
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
            let (down, up) = match self.known.iter_mut().find(|k| k.name == name) {
                Some(known) => {
                    let rates = (
                        rate(known.received, received, seconds),
                        rate(known.transmitted, transmitted, seconds),
                    );
                    (known.received, known.transmitted) = (received, transmitted);
                    known.seen = true;
                    rates
                }
                None => {
                    self.known.push(Counters {
                        name: name.to_vec(),
                        received,
                        transmitted,
                        seen: true,
                    });
                    (None, None)
                }
            };
            if out.len() == shown {
                out.push(InterfaceRates::default());
            }
            let entry = &mut out[shown];
            entry.name.clear();
            entry.name.push_str(&String::from_utf8_lossy(name));
            (entry.down, entry.up) = (down, up);
            shown += 1;
        }
        out.truncate(shown);
        self.known.retain(|k| k.seen);
    }
}
