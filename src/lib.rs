//! ringbar: a GTK4 Wayland status bar whose system monitor is an eBPF probe.
//!
//! The folders follow the data path (see ARCHITECTURE.md):
//! [`records`] (where process records come from: the BPF probe, the probe service, /proc)
//! → [`model`] (processes, deltas, apps, top lists, history) → [`sample`] (one whole
//! sample per tick, taken on its own thread) → [`modules`] (bar modules as data) →
//! [`sinks`] (plain text, JSON, the Waybar line; the GTK bar is [`ui`]). Beside the path:
//! [`sensors`] (sysfs), [`events`] (compositor IPC, D-Bus, scripts, `ringbar msg`),
//! [`render`] (the report's text writers), [`config`], [`app`] (start-up, privileges,
//! files) and [`cli`].
//!
//! The pure core, always built and free of GTK and libbpf, is `model`, `modules`,
//! `render`, `sinks`, `config` and the core halves of `records` (the probe service's
//! wire format), `sample`, `events` (parsers and state) and `app` (checked user files);
//! the `app` feature adds the edges.

#[cfg(feature = "app")]
pub mod app;
#[cfg(feature = "app")]
pub mod cli;
pub mod config;
pub mod events;
pub mod model;
pub mod modules;
pub mod records;
pub mod render;
pub mod sample;
#[cfg(feature = "app")]
pub mod sensors;
pub mod sinks;
pub mod text;
#[cfg(feature = "app")]
pub mod ui;
