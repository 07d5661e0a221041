//! power-profiles-daemon's state as its D-Bus API gives it (`ActiveProfile`, `Profiles`,
//! `PerformanceDegraded`), for the `power_profile` module. The state is core;
//! [`dbus`] follows the daemon on the system bus.

#[cfg(feature = "app")]
pub mod dbus;
#[cfg(test)]
mod tests;

/// One profile the daemon offers, and the driver that implements it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Profile {
    /// `power-saver`, `balanced`, `performance`.
    pub name: String,
    /// `platform_profile`, `intel_pstate`, `amd_pstate`, `placeholder`…
    pub driver: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PowerProfiles {
    pub active: String,
    /// In the daemon's order.
    pub profiles: Vec<Profile>,
    /// Why `performance` runs degraded (`lap-detected`, `high-operating-temperature`);
    /// empty when it does not.
    pub degraded: String,
}

/// What a click asks of the daemon.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PowerProfileCommand {
    /// The next profile, in the daemon's order, wrapping around.
    Cycle,
}

/// The longest name kept (a profile, a driver, a reason): the daemon's are short words.
const MAX_NAME: usize = 64;

/// Control characters out and the length bounded: a name as a daemon sent it.
pub fn clean(name: &str) -> String {
    name.chars()
        .filter(|&c| !c.is_control() && !crate::text::is_deceptive(c))
        .take(MAX_NAME)
        .collect()
}

impl PowerProfiles {
    /// The active profile's driver; empty when the daemon did not say.
    pub fn driver(&self) -> &str {
        self.profiles
            .iter()
            .find(|p| p.name == self.active)
            .map_or("", |p| p.driver.as_str())
    }

    /// The profile after the active one, wrapping around; `None` with fewer than two.
    pub fn next(&self) -> Option<&str> {
        if self.profiles.len() < 2 {
            return None;
        }
        let at = self.profiles.iter().position(|p| p.name == self.active);
        let next = at.map_or(0, |at| (at + 1) % self.profiles.len());
        Some(self.profiles[next].name.as_str())
    }
}

impl super::EventState for PowerProfiles {
    const KEY: &'static str = "PowerProfiles";
    type Command = PowerProfileCommand;
    type Settings = ();
    #[cfg(feature = "app")]
    type Watch = dbus::PowerProfilesWatch;
}
