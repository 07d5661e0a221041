//! The sound server over its PulseAudio protocol, for the `audio` and `privacy` modules:
//! [`pulse`] follows it, [`reading`] makes one read of it into the core's state,
//! [`command`] carries out a click's, [`socket`] watches for a server that starts.

mod command;
pub mod pulse;
mod reading;
mod socket;
