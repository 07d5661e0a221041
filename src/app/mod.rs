//! The running application: start-up ([`startup`]: load the probe while privileged, drop
//! every capability, then read the user's files and make the [`sampler`]), the sampling
//! thread ([`worker`]), the [`monitor`] that holds the settings and the latest sample for
//! the main loop, the local [`wallclock`], how often a burst of changes is drawn
//! ([`pacing`]), where files live ([`paths`]), one bar per session ([`single_instance`]), the
//! remembered settings ([`state`], written off the main loop by [`state_writer`]), the log
//! ([`log`]), memory given back after a burst of windows ([`heap`]) and the code pages
//! start-up alone ran ([`code_pages`]).
//! The GTK bar (`ui`) and the command line (`cli`) run on it.

pub mod code_pages;
pub mod heap;
pub mod log;
pub mod monitor;
pub mod pacing;
pub mod paths;
pub mod sampler;
pub mod single_instance;
pub mod startup;
pub mod state;
pub mod state_writer;
pub mod wallclock;
pub mod worker;
