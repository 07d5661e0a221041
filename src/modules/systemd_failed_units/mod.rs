//! `systemd-failed-units`, as Waybar has it: how many systemd units failed, of the
//! system's manager (PID 1, on the system bus) and the user's (on the session bus),
//! followed through the managers' `PropertiesChanged`. `{nr_failed} failed` while units
//! are failed, `format-ok` otherwise; class `ok` or `degraded`; hidden while all is well
//! unless `hide-on-ok = false`. The tooltip lists the failed units. A manager that is
//! not there (no systemd, or no user manager) counts as not asked.

#[cfg(feature = "app")]
mod daemon;
#[cfg(test)]
mod tests;
mod units;

use std::fmt::Write;
use std::rc::Rc;

use serde::de::Deserializer;
use serde::Deserialize;

pub use self::units::{Manager, Unit, MAX_UNITS};
use super::format;
use super::import::Waybar;
use super::{EventSource, Input, Module, ModuleKind, Status, Table, Update};
use crate::events::EventState;
use crate::text::{untrusted_lines, Sink};

/// The system manager's failed units, an event source.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SystemUnits(pub Manager);

/// The user manager's failed units, an event source.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UserUnits(pub Manager);

macro_rules! manager_state {
    ($state:ident, $key:literal, $scope:ident, $bus:ident, $log:literal, $absent:literal) => {
        impl AsRef<Manager> for $state {
            fn as_ref(&self) -> &Manager {
                &self.0
            }
        }
        impl AsMut<Manager> for $state {
            fn as_mut(&mut self) -> &mut Manager {
                &mut self.0
            }
        }
        impl From<Manager> for $state {
            fn from(manager: Manager) -> $state {
                $state(manager)
            }
        }
        impl EventState for $state {
            const KEY: &'static str = $key;
            type Command = std::convert::Infallible;
            type Settings = ();
            #[cfg(feature = "app")]
            type Watch = crate::events::bus_watch::BusWatch<daemon::Systemd<$scope>>;
        }
        /// Where this manager is found.
        pub struct $scope;
        #[cfg(feature = "app")]
        impl daemon::Scope for $scope {
            type State = $state;
            const BUS: crate::events::bus_watch::Bus = crate::events::bus_watch::Bus::$bus;
            const LOG: &'static str = $log;
            const SERVICE: &'static str = "systemd";
            const ABSENT: &'static str = $absent;
        }
    };
}

manager_state!(
    SystemUnits,
    "SystemUnits",
    SystemScope,
    System,
    "systemd-failed-units (system)",
    "systemd (org.freedesktop.systemd1)"
);
manager_state!(
    UserUnits,
    "UserUnits",
    UserScope,
    Session,
    "systemd-failed-units (user)",
    "the user's systemd (org.freedesktop.systemd1)"
);

pub const KEYS: [&str; 6] = [
    "nr_failed",
    "nr_failed_system",
    "nr_failed_user",
    "system_state",
    "user_state",
    "overall_state",
];
/// [`KEYS`], and the list of the failed units.
pub const TOOLTIP_KEYS: [&str; 7] = {
    let mut keys = ["failed_units_list"; 7];
    let mut i = 0;
    while i < KEYS.len() {
        keys[i] = KEYS[i];
        i += 1;
    }
    keys
};
pub const UNIT_KEYS: [&str; 6] = [
    "name",
    "description",
    "load_state",
    "active_state",
    "sub_state",
    "scope",
];

#[derive(Deserialize)]
#[serde(deny_unknown_fields, default)]
struct Settings {
    #[serde(deserialize_with = "checked_format")]
    format: String,
    #[serde(rename = "format-ok", deserialize_with = "checked_optional")]
    format_ok: Option<String>,
    #[serde(rename = "hide-on-ok")]
    hide_on_ok: bool,
    system: bool,
    user: bool,
    tooltip: bool,
    #[serde(rename = "tooltip-format", deserialize_with = "checked_tooltip")]
    tooltip_format: String,
    #[serde(rename = "tooltip-format-ok", deserialize_with = "checked_tooltip")]
    tooltip_format_ok: String,
    #[serde(rename = "tooltip-unit-format", deserialize_with = "checked_unit")]
    tooltip_unit_format: String,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            format: "{nr_failed} failed".to_owned(),
            format_ok: None,
            hide_on_ok: true,
            system: true,
            user: true,
            tooltip: true,
            tooltip_format: "System: {system_state}\nUser: {user_state}\n\
                             Failed units ({nr_failed}):\n{failed_units_list}"
                .to_owned(),
            tooltip_format_ok: "System: {system_state}\nUser: {user_state}".to_owned(),
            tooltip_unit_format: "{name}: {description}".to_owned(),
        }
    }
}

fn checked_format<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    format::deserialize_checked(d, &KEYS)
}

fn checked_optional<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    format::deserialize_checked(d, &KEYS).map(Some)
}

fn checked_tooltip<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    format::deserialize_checked(d, &TOOLTIP_KEYS)
}

fn checked_unit<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    format::deserialize_checked(d, &UNIT_KEYS)
}

/// The `systemd-failed-units` module.
pub const KIND: ModuleKind = ModuleKind {
    name: "systemd-failed-units",
    make,
    waybar: Some(Waybar {
        settings: &[
            "format",
            "format-ok",
            "hide-on-ok",
            "system",
            "user",
            "tooltip",
            "tooltip-format",
            "tooltip-format-ok",
            "tooltip-unit-format",
        ],
        fields: &TOOLTIP_KEYS,
        ..Waybar::named(&["systemd-failed-units"])
    }),
};

struct FailedUnitsModule {
    settings: Settings,
}

pub fn make(_name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    let settings = match table {
        Some(table) => Settings::deserialize(table)?,
        None => Settings::default(),
    };
    Ok(Rc::new(FailedUnitsModule { settings }))
}

/// What the module shows, from both managers.
struct Overall<'a> {
    system: Option<&'a Manager>,
    user: Option<&'a Manager>,
}

impl Overall<'_> {
    fn count(manager: Option<&Manager>) -> u32 {
        manager.map_or(0, |m| m.failed_count)
    }

    fn failed(&self) -> u32 {
        Self::count(self.system).saturating_add(Self::count(self.user))
    }

    /// A manager not asked, or not there, is `ignored`, as Waybar says.
    fn state(manager: Option<&Manager>) -> &str {
        manager.map_or("ignored", |m| m.state.as_str())
    }

    fn is_ok(&self) -> bool {
        let fine = |m: Option<&Manager>| m.is_none_or(Manager::is_ok);
        fine(self.system) && fine(self.user)
    }

    fn overall_state(&self) -> &'static str {
        match self.is_ok() {
            true => "ok",
            false => "degraded",
        }
    }

    fn fill(&self, format: &str, units: &str, out: &mut String) {
        format::fill(format, out, |key, out| {
            let _ = match key {
                "nr_failed" => write!(out, "{}", self.failed()),
                "nr_failed_system" => write!(out, "{}", Self::count(self.system)),
                "nr_failed_user" => write!(out, "{}", Self::count(self.user)),
                "system_state" => write!(out, "{}", Self::state(self.system)),
                "user_state" => write!(out, "{}", Self::state(self.user)),
                "overall_state" => write!(out, "{}", self.overall_state()),
                "failed_units_list" => write!(out, "{units}"),
                _ => return false,
            };
            true
        });
    }
}

impl FailedUnitsModule {
    fn overall<'a>(&self, input: &'a Input<'_>) -> Option<Overall<'a>> {
        let system = input.events.get::<SystemUnits>().map(AsRef::as_ref);
        let user = input.events.get::<UserUnits>().map(AsRef::as_ref);
        let overall = Overall {
            system: system.filter(|_| self.settings.system),
            user: user.filter(|_| self.settings.user),
        };
        // With neither manager there is nothing to say.
        (overall.system.is_some() || overall.user.is_some()).then_some(overall)
    }

    /// The tooltip's list: one `- ` line per failed unit.
    fn units_list(&self, overall: &Overall<'_>) -> String {
        let mut list = String::new();
        let scoped = [("system", overall.system), ("user", overall.user)];
        for (scope, manager) in scoped {
            for unit in manager.map_or(&[][..], |m| &m.failed) {
                if !list.is_empty() {
                    list.push('\n');
                }
                list.push_str("- ");
                format::fill(&self.settings.tooltip_unit_format, &mut list, |key, out| {
                    out.push_str(match key {
                        "name" => &unit.name,
                        "description" => &unit.description,
                        "load_state" => &unit.load_state,
                        "active_state" => &unit.active_state,
                        "sub_state" => &unit.sub_state,
                        "scope" => scope,
                        _ => return false,
                    });
                    true
                });
            }
        }
        list
    }
}

impl Module for FailedUnitsModule {
    fn name(&self) -> &str {
        "systemd-failed-units"
    }

    fn follows(&self) -> &[Update] {
        const SYSTEM: Update = Update::Event(EventSource::of::<SystemUnits>());
        const USER: Update = Update::Event(EventSource::of::<UserUnits>());
        match (self.settings.system, self.settings.user) {
            (true, true) => &[SYSTEM, USER],
            (true, false) => &[SYSTEM],
            (false, true) => &[USER],
            (false, false) => &[],
        }
    }

    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        let overall = self.overall(input)?;
        if overall.is_ok() && self.settings.hide_on_ok {
            return None;
        }
        let format = match (overall.failed(), &self.settings.format_ok) {
            (0, Some(ok)) => ok,
            _ => &self.settings.format,
        };
        overall.fill(format, "", out);
        Some(Status {
            class: Some(overall.overall_state()),
            ..Status::default()
        })
    }

    fn tooltip(&self, sink: &mut dyn Sink, input: &Input<'_>) {
        let Some(overall) = self.overall(input).filter(|_| self.settings.tooltip) else {
            return;
        };
        let format = match overall.is_ok() {
            true => &self.settings.tooltip_format_ok,
            false => &self.settings.tooltip_format,
        };
        let mut text = String::new();
        overall.fill(format, &self.units_list(&overall), &mut text);
        untrusted_lines(sink, &text);
    }

    fn history_graphs(&self) -> bool {
        false
    }
}
