//! Where the process records come from: the BPF probe in the bar ([`probe`]), the probe
//! lent by the probe service ([`service`], its messages in [`wire`]), or the /proc walk
//! ([`procwalk`]); [`collector`] takes one of them into the model each tick, and names
//! the rows ([`realnames`], [`wchan`]). [`sysfs`] reads the kernel's sysfs files for the
//! sensors and the modules' readers.

#[cfg(feature = "app")]
pub mod cgroup;
#[cfg(feature = "app")]
pub mod collector;
#[cfg(feature = "app")]
pub mod fdlimit;
#[cfg(feature = "app")]
pub mod mapping;
#[cfg(feature = "app")]
pub mod privileges;
#[cfg(feature = "app")]
pub mod probe;
#[cfg(feature = "app")]
pub mod procfs;
#[cfg(feature = "app")]
pub mod procwalk;
#[cfg(feature = "app")]
pub mod realnames;
#[cfg(feature = "app")]
pub mod service;
#[cfg(feature = "app")]
pub mod sysfs;
#[cfg(feature = "app")]
pub mod wchan;
pub mod wire;

use std::time::{SystemTime, UNIX_EPOCH};

/// Where the process data came from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Source {
    /// The BPF probe in the kernel.
    #[default]
    Probe,
    /// The BPF probe, lent by the probe service (`ringbar-probe`).
    Service,
    /// The /proc walk, when the probe could not load.
    Proc,
}

impl Source {
    pub fn name(self) -> &'static str {
        match self {
            Source::Probe => "bpf",
            Source::Service => "bpf-service",
            Source::Proc => "proc",
        }
    }
}

/// The wall clock now, in ms since the Unix epoch (0 before it).
pub fn unix_ms_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// Gives back the room a burst (a fork storm's exit reports) made `buffer` take, once it
/// holds no more than `room` again; a steady buffer keeps its room and reallocates nothing.
pub fn give_back_burst_room<T>(buffer: &mut Vec<T>, room: usize) {
    let wanted = room.max(buffer.len());
    if buffer.capacity() > 4 * wanted {
        buffer.shrink_to(wanted);
    }
}

#[cfg(test)]
mod tests {
    use super::give_back_burst_room;

    #[test]
    fn a_buffer_keeps_its_room_until_a_burst_is_over() {
        let mut buffer: Vec<u64> = Vec::with_capacity(1024);
        give_back_burst_room(&mut buffer, 1024);
        assert_eq!(buffer.capacity(), 1024, "its own room is kept");
        buffer.extend(0..100_000);
        give_back_burst_room(&mut buffer, 1024);
        assert!(buffer.capacity() >= 100_000, "a burst still held is kept");
        buffer.truncate(3000);
        give_back_burst_room(&mut buffer, 1024);
        assert!(
            buffer.capacity() < 12_000,
            "room back: {}",
            buffer.capacity()
        );
        assert_eq!(buffer.len(), 3000);
    }
}
