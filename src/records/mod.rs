//! Where the process records come from: the BPF probe in the bar ([`probe`]), the probe
//! lent by the probe service ([`service`], its messages in [`wire`]), or the /proc walk
//! ([`procwalk`]); [`collector`] takes one of them into the model each tick, and names
//! the rows ([`realnames`], [`wchan`]).

#[cfg(feature = "app")]
pub mod cgroup;
#[cfg(feature = "app")]
pub mod collector;
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
pub mod wchan;
pub mod wire;
