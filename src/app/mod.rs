//! The application around the data path: start-up ([`startup`]: load the probe while
//! privileged, drop every capability, then read the user's files), where files live
//! ([`paths`]), one bar per session ([`instance`]), the remembered settings ([`state`])
//! and the files the user controls, read with limits ([`user_file`]).

#[cfg(feature = "app")]
pub mod fdlimit;
#[cfg(feature = "app")]
pub mod instance;
#[cfg(feature = "app")]
pub mod paths;
#[cfg(feature = "app")]
pub mod privileges;
#[cfg(feature = "app")]
pub mod startup;
#[cfg(feature = "app")]
pub mod state;
pub mod user_file;
