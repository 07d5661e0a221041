//! What one sample knows of the disks: the space of each configured mount point, and the
//! read and write rates of each block device shown. Its report section and JSON form.

use std::fmt::Write;

use serde_json::{json, Value as Json};

use crate::model::Value;
use crate::render::{header, pad_left, write_bytes, write_rate};
use crate::sample::readings::{copy_same, Reading};
use crate::text::{untrusted, Sink};

/// A filesystem's size, as statvfs(3) gives it, in bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Space {
    pub total: u64,
    /// Blocks in use (the reserved ones not counted as used).
    pub used: u64,
    /// Free for an unprivileged user (`f_bavail`): what `df` calls available.
    pub available: u64,
}

impl Space {
    /// The share of the whole filesystem in use, as Waybar's `{percentage_used}` reckons
    /// it (df's Use% leaves the blocks reserved for root out of the whole).
    pub fn used_percent(&self) -> f64 {
        share(self.used, self.total)
    }

    /// The share free for an unprivileged user, as Waybar's `{percentage_free}`.
    pub fn free_percent(&self) -> f64 {
        share(self.available, self.total)
    }
}

fn share(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        return 0.0;
    }
    part as f64 * 100.0 / whole as f64
}

/// A configured mount point that is mounted.
#[derive(Debug, Default, PartialEq)]
pub struct Mount {
    pub path: String,
    /// `ext4`, `btrfs`: from the mount table.
    pub filesystem: String,
    /// What is mounted (`/dev/nvme0n1p2`).
    pub source: String,
    /// Failed when statvfs(3) fails (a stale network mount).
    pub space: Value<Space>,
}

/// One block device's rates; `None` until a second sample.
#[derive(Debug, Default, PartialEq)]
pub struct Device {
    pub name: String,
    pub read_per_second: Option<f64>,
    pub write_per_second: Option<f64>,
}

#[derive(Debug, Default, PartialEq)]
pub struct DiskReading {
    pub mounts: Vec<Mount>,
    pub devices: Vec<Device>,
}

impl DiskReading {
    /// The mount whose filesystem is fullest, among those that read.
    pub fn fullest(&self) -> Option<(&Mount, Space)> {
        let known = self
            .mounts
            .iter()
            .filter_map(|m| Some((m, m.space.known()?)));
        known.max_by(|(_, a), (_, b)| a.used_percent().total_cmp(&b.used_percent()))
    }

    /// The devices' summed rates (read, write), once they have rates.
    pub fn total_rates(&self) -> (Option<f64>, Option<f64>) {
        let sum = |rate: fn(&Device) -> Option<f64>| {
            self.devices
                .iter()
                .filter_map(rate)
                .fold(None, |total: Option<f64>, r| Some(total.unwrap_or(0.0) + r))
        };
        (sum(|d| d.read_per_second), sum(|d| d.write_per_second))
    }
}

// By hand, not derived: a derived `clone_from` clones whole and allocates every tick.
impl Clone for Mount {
    fn clone(&self) -> Self {
        let mut mount = Mount::default();
        mount.clone_from(self);
        mount
    }

    fn clone_from(&mut self, source: &Self) {
        let Mount {
            path,
            filesystem,
            source: what,
            space,
        } = source;
        self.path.clone_from(path);
        self.filesystem.clone_from(filesystem);
        self.source.clone_from(what);
        self.space = *space;
    }
}

impl Clone for Device {
    fn clone(&self) -> Self {
        let mut device = Device::default();
        device.clone_from(self);
        device
    }

    fn clone_from(&mut self, source: &Self) {
        let Device {
            name,
            read_per_second,
            write_per_second,
        } = source;
        self.name.clone_from(name);
        self.read_per_second = *read_per_second;
        self.write_per_second = *write_per_second;
    }
}

impl Clone for DiskReading {
    fn clone(&self) -> Self {
        let mut reading = DiskReading::default();
        reading.clone_from(self);
        reading
    }

    fn clone_from(&mut self, source: &Self) {
        // Vec::clone_from calls the elements' clone_from on the ones both have.
        self.mounts.clone_from(&source.mounts);
        self.devices.clone_from(&source.devices);
    }
}

fn write_optional_rate(out: &mut String, rate: Option<f64>) {
    match rate {
        Some(rate) => write_rate(out, rate),
        None => out.push('–'),
    }
}

impl Reading for DiskReading {
    fn boxed_clone(&self) -> Box<dyn Reading> {
        Box::new(self.clone())
    }

    fn copy_from(&mut self, other: &dyn Reading) {
        copy_same(self, other);
    }

    /// `Disk  read 2.0M/s · write 6.0M/s`, a row per mount (free of total, share used),
    /// a row per device.
    fn write_report(&self, sink: &mut dyn Sink) {
        if self.mounts.is_empty() && self.devices.is_empty() {
            return;
        }
        header(sink, "Disk");
        let (read, write) = self.total_rates();
        let out = sink.out();
        out.push_str("read ");
        write_optional_rate(out, read);
        out.push_str(" · write ");
        write_optional_rate(out, write);
        out.push('\n');
        for mount in &self.mounts {
            sink.out().push_str("  ");
            untrusted(sink, &mount.path);
            sink.out().push_str("  ");
            untrusted(sink, &mount.filesystem);
            let out = sink.out();
            match mount.space {
                Value::Known(space) => {
                    out.push_str("  ");
                    write_bytes(out, space.available as f64);
                    out.push_str(" free of ");
                    write_bytes(out, space.total as f64);
                    let _ = write!(out, " · {}% used", space.used_percent().floor());
                }
                Value::Failed => out.push_str("  unreadable"),
                Value::Absent => {}
            }
            sink.out().push('\n');
        }
        for device in &self.devices {
            let out = sink.out();
            out.push_str("  r ");
            pad_left(out, 8, |o| write_optional_rate(o, device.read_per_second));
            out.push_str("  w ");
            pad_left(out, 8, |o| write_optional_rate(o, device.write_per_second));
            out.push_str("  ");
            untrusted(sink, &device.name);
            sink.out().push('\n');
        }
    }

    /// `"disk"`: sizes in bytes, rates in bytes per second; `null` where unknown.
    fn json(&self) -> Json {
        let mounts = self.mounts.iter().map(|mount| {
            let space = mount.space.known();
            json!({
                "path": mount.path,
                "filesystem": mount.filesystem,
                "source": mount.source,
                "total_bytes": space.map(|s| s.total),
                "used_bytes": space.map(|s| s.used),
                "available_bytes": space.map(|s| s.available),
                "used_percent": space.map(|s| s.used_percent()),
            })
        });
        let devices = self.devices.iter().map(|device| {
            json!({
                "name": device.name,
                "read_bytes_per_second": device.read_per_second,
                "write_bytes_per_second": device.write_per_second,
            })
        });
        json!({
            "mounts": mounts.collect::<Vec<_>>(),
            "devices": devices.collect::<Vec<_>>(),
        })
    }
}
