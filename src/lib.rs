//! ringbar: a GTK4 Wayland status bar whose system monitor is an eBPF probe.
//!
//! The pure core, always built and free of GTK and libbpf: [`model`] (records, processes,
//! deltas, ranking), [`sample`] (one whole sample), [`render`] (text, markup and JSON
//! writers), [`modules`] (bar modules as data), [`waybar`], [`wire`] (the probe service's
//! messages) and [`config`]. With the `app`
//! feature come the edges: [`probe`] loads the BPF program, [`procwalk`] and [`procfs`]
//! read /proc, [`sensors`] reads sysfs, [`sampler`] ties them into one sample per tick, [`worker`] takes
//! it on its own thread for the bar and `--waybar`,
//! [`ui`] is the GTK bar and [`cli`] the command line.

pub mod compositor;
pub mod config;
pub mod model;
pub mod modules;
pub mod readings;
pub mod render;
pub mod sample;
pub mod script;
pub mod tray;
pub mod user_file;
pub mod waybar;
pub mod wire;

#[cfg(feature = "app")]
pub mod cgroup;
#[cfg(feature = "app")]
pub mod cli;
#[cfg(feature = "app")]
pub mod collector;
#[cfg(feature = "app")]
pub mod control;
#[cfg(feature = "app")]
pub mod fdlimit;
#[cfg(feature = "app")]
pub mod instance;
#[cfg(feature = "app")]
pub mod monitor;
#[cfg(feature = "app")]
pub mod paths;
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
pub mod sampler;
#[cfg(feature = "app")]
pub mod sensors;
#[cfg(feature = "app")]
pub mod service;
#[cfg(feature = "app")]
pub mod startup;
#[cfg(feature = "app")]
pub mod state;
#[cfg(feature = "app")]
pub mod ui;
#[cfg(feature = "app")]
pub mod wallclock;
#[cfg(feature = "app")]
pub mod wchan;
#[cfg(feature = "app")]
pub mod worker;
