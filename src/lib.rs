//! ringbar: a GTK4 Wayland status bar whose system monitor is an eBPF probe.
//!
//! [`model`] is the pure core; [`probe`] loads the BPF program; [`procfs`] reads the few
//! system-wide files; [`collector`] ties them together for one sample per tick.

pub mod cli;
pub mod collector;
pub mod config;
pub mod instance;
pub mod model;
pub mod paths;
pub mod privileges;
pub mod probe;
pub mod procfs;
pub mod procwalk;
pub mod sensors;
pub mod state;
pub mod ui;
