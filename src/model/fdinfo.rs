//! DRM client usage stats: the `drm-*` keys a GPU driver adds to `/proc/PID/fdinfo/FD`
//! for an open DRM device (the kernel's "DRM client usage stats" documentation). One
//! `key: value` per line; keys carry no whitespace; numbers may end in a unit.
//!
//! - `drm-driver: i915`, `drm-pdev: 0000:00:02.0`, `drm-client-id: 7`
//! - `drm-engine-<name>: <n> ns` (busy time), `drm-engine-capacity-<name>: <n>` (a group
//!   of identical engines), `drm-cycles-<name>: <n>` and, in xe, the GPU timestamp
//!   `drm-total-cycles-<name>: <n>` it is measured against
//! - memory per region in bytes, `KiB` or `MiB`: `drm-total-<region>`,
//!   `drm-resident-<region>` (and `drm-shared-`, `drm-active-`, `drm-purgeable-`, which
//!   are parts of those), and the older `drm-memory-<region>` (amdgpu)
//!
//! Parsed into a fixed-size value: nothing here allocates, so the bar can parse every
//! DRM fd it watches each tick.

/// Engines kept per client (amdgpu has the most, about eight); more are ignored.
pub const ENGINES: usize = 12;
/// Bytes of an engine's name kept; a longer name is ignored rather than cut (two cut
/// names could collide).
pub const ENGINE_NAME: usize = 24;

/// A PCI slot (`0000:03:00.0`) as one number, so that `drm-pdev` and sysfs's or NVML's
/// spelling (any case, NVML's 8-digit domain) compare equal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PciSlot(pub u64);

impl PciSlot {
    /// `domain:bus:device.function`, in hex.
    pub fn parse(text: &str) -> Option<PciSlot> {
        let (domain, rest) = text.split_once(':')?;
        let (bus, rest) = rest.split_once(':')?;
        let (device, function) = rest.split_once('.')?;
        let hex = |s: &str, max: u64| {
            u64::from_str_radix(s, 16)
                .ok()
                .filter(|&v| v <= max && !s.is_empty() && s.len() <= 8)
        };
        Some(PciSlot(
            hex(domain, 0xffff_ffff)? << 24
                | hex(bus, 0xff)? << 16
                | hex(device, 0x1f)? << 8
                | hex(function, 0x7)?,
        ))
    }
}

/// One engine's counters in one read; `None` where the driver did not print the key.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Engine {
    name: [u8; ENGINE_NAME],
    name_len: u8,
    pub busy_ns: Option<u64>,
    /// 0: not printed, which the documentation says means 1.
    capacity: u64,
    pub cycles: Option<u64>,
    pub total_cycles: Option<u64>,
}

impl Engine {
    pub fn name(&self) -> &[u8] {
        &self.name[..usize::from(self.name_len)]
    }

    /// Identical engines the counters add up over (at least 1).
    pub fn capacity(&self) -> u64 {
        self.capacity.max(1)
    }
}

/// The `drm-*` keys of one fdinfo file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DrmFdinfo {
    /// Whether `drm-driver` was there: without it the fd is not a DRM client the
    /// driver reports on (or no longer a DRM fd at all).
    pub has_driver: bool,
    pub pdev: Option<PciSlot>,
    pub client_id: Option<u64>,
    engines: [Engine; ENGINES],
    engine_count: usize,
    /// Sums over the memory regions, in bytes.
    pub resident_bytes: Option<u64>,
    pub total_bytes: Option<u64>,
    pub legacy_memory_bytes: Option<u64>,
}

impl DrmFdinfo {
    /// Parses `text`; unknown keys and malformed lines are skipped.
    pub fn parse(text: &[u8]) -> DrmFdinfo {
        let mut info = DrmFdinfo::default();
        for line in text.split(|&b| b == b'\n') {
            info.line(line);
        }
        info
    }

    pub fn engines(&self) -> &[Engine] {
        &self.engines[..self.engine_count]
    }

    /// The memory the client holds: resident where the driver says (what is really in
    /// memory), else its total, else the older `drm-memory-*` sum.
    pub fn memory_bytes(&self) -> Option<u64> {
        self.resident_bytes
            .or(self.total_bytes)
            .or(self.legacy_memory_bytes)
    }

    /// Keeps, of each engine counter, the larger of this read's and `before`'s: a
    /// counter that went back stays where it was until it catches up (as the
    /// documentation asks of readers).
    pub fn hold(&mut self, before: &DrmFdinfo) {
        let max = |a: Option<u64>, b: Option<u64>| match (a, b) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, _) => a,
        };
        for engine in &mut self.engines[..self.engine_count] {
            if let Some(old) = before.engines().iter().find(|e| e.name() == engine.name()) {
                engine.busy_ns = max(engine.busy_ns, old.busy_ns);
                engine.cycles = max(engine.cycles, old.cycles);
                engine.total_cycles = max(engine.total_cycles, old.total_cycles);
            }
        }
    }

    fn line(&mut self, line: &[u8]) {
        let Ok(line) = std::str::from_utf8(line) else {
            return;
        };
        let Some((key, value)) = line.split_once(':') else {
            return;
        };
        let Some(key) = key.strip_prefix("drm-") else {
            return;
        };
        let value = value.trim();
        if key == "driver" {
            self.has_driver = !value.is_empty();
        } else if key == "pdev" {
            self.pdev = PciSlot::parse(value);
        } else if key == "client-id" {
            self.client_id = value.parse().ok();
        } else if let Some(name) = key.strip_prefix("engine-capacity-") {
            // Zero capacity is not allowed: treated as absent (1).
            if let Some(n) = plain(value) {
                self.set(name, |engine| engine.capacity = n);
            }
        } else if let Some(name) = key.strip_prefix("engine-") {
            if let Some(ns) = with_unit(value, &["ns"]) {
                self.set(name, |engine| engine.busy_ns = Some(ns));
            }
        } else if let Some(name) = key.strip_prefix("total-cycles-") {
            if let Ok(n) = value.parse::<u64>() {
                self.set(name, |engine| engine.total_cycles = Some(n));
            }
        } else if let Some(name) = key.strip_prefix("cycles-") {
            if let Ok(n) = value.parse::<u64>() {
                self.set(name, |engine| engine.cycles = Some(n));
            }
        } else if let Some(slot) = self.memory_slot(key) {
            if let Some(bytes) = memory(value) {
                *slot = Some(slot.unwrap_or(0).saturating_add(bytes));
            }
        }
    }

    /// The sum a memory key adds to; `None` for the parts (shared, active, purgeable)
    /// and for keys that are no memory at all.
    fn memory_slot(&mut self, key: &str) -> Option<&mut Option<u64>> {
        let (kind, region) = key.split_once('-')?;
        if region.is_empty() {
            return None;
        }
        match kind {
            "resident" => Some(&mut self.resident_bytes),
            "total" => Some(&mut self.total_bytes),
            "memory" => Some(&mut self.legacy_memory_bytes),
            _ => None,
        }
    }

    /// Sets a value of the engine named `name`, added if new and there is room.
    fn set(&mut self, name: &str, set: impl FnOnce(&mut Engine)) {
        let name = name.as_bytes();
        if name.is_empty() || name.len() > ENGINE_NAME {
            return;
        }
        let index = match self.engines().iter().position(|e| e.name() == name) {
            Some(index) => index,
            None if self.engine_count < ENGINES => {
                let engine = &mut self.engines[self.engine_count];
                engine.name[..name.len()].copy_from_slice(name);
                engine.name_len = name.len() as u8; // at most ENGINE_NAME
                self.engine_count += 1;
                self.engine_count - 1
            }
            None => return,
        };
        set(&mut self.engines[index]);
    }
}

/// A number without a unit, above zero.
fn plain(value: &str) -> Option<u64> {
    value.parse().ok().filter(|&n| n > 0)
}

/// `<n>` or `<n> <unit>` with a unit from `units`.
fn with_unit(value: &str, units: &[&str]) -> Option<u64> {
    let mut words = value.split_ascii_whitespace();
    let number = words.next()?.parse().ok()?;
    match (words.next(), words.next()) {
        (None, None) => Some(number),
        (Some(unit), None) if units.contains(&unit) => Some(number),
        _ => None,
    }
}

/// `<n> [KiB|MiB]` in bytes; `None` where it would not fit in 64 bits.
fn memory(value: &str) -> Option<u64> {
    let mut words = value.split_ascii_whitespace();
    let number: u64 = words.next()?.parse().ok()?;
    let scale = match (words.next(), words.next()) {
        (None, None) => 1,
        (Some("KiB"), None) => 1 << 10,
        (Some("MiB"), None) => 1 << 20,
        _ => return None,
    };
    number.checked_mul(scale)
}

#[cfg(test)]
mod tests;
