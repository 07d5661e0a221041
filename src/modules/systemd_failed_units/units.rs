//! What a systemd manager says, the system's (PID 1) or the user's: its state
//! (`running`, `degraded`…), how many units failed, and which.

/// Failed units kept at most, for the tooltip; the count is systemd's own.
pub const MAX_UNITS: usize = 64;

/// Characters kept of a unit's name or description.
const TEXT_CHARS: usize = 256;

/// One manager's failed units and state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Manager {
    /// `SystemState`: `running`, `degraded`, `starting`…; `unknown` until read.
    pub state: String,
    /// `NFailedUnits`.
    pub failed_count: u32,
    /// The failed units, as `ListUnitsFiltered(["failed"])` gives them.
    pub failed: Vec<Unit>,
    /// Its properties (`SystemState`, `NFailedUnits`) were read.
    pub properties_read: bool,
    /// The manager said its properties changed: all is to be read again (it says
    /// how many units failed, not which, and not when its state changes).
    pub stale: bool,
}

/// A failed unit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Unit {
    pub name: String,
    pub description: String,
    pub load_state: String,
    pub active_state: String,
    pub sub_state: String,
}

impl Unit {
    /// A row of `ListUnits`: name, description, load, active and sub state, the rest
    /// left aside; untrusted text made safe to show.
    pub fn from_row(row: [&str; 5]) -> Unit {
        let [name, description, load_state, active_state, sub_state] = row.map(shown);
        Unit {
            name,
            description,
            load_state,
            active_state,
            sub_state,
        }
    }
}

impl Manager {
    /// The manager from its failed units; its properties are read next.
    pub fn listed(failed: impl Iterator<Item = Unit>) -> Manager {
        let failed: Vec<Unit> = failed.take(MAX_UNITS).collect();
        Manager {
            state: "unknown".to_owned(),
            failed_count: u32::try_from(failed.len()).unwrap_or(u32::MAX),
            failed,
            properties_read: false,
            stale: false,
        }
    }

    /// `SystemState` from `GetAll`; whether it changed.
    pub fn apply_state(&mut self, state: &str) -> bool {
        let state = shown(state);
        let changed = self.state != state;
        self.state = state;
        changed
    }

    /// `NFailedUnits` from `GetAll`; whether it changed.
    pub fn apply_count(&mut self, count: u32) -> bool {
        let changed = self.failed_count != count;
        self.failed_count = count;
        changed
    }

    /// Whether the manager counts as fine: running (or not asked).
    pub fn is_ok(&self) -> bool {
        self.state == "running"
    }
}

/// Untrusted text as it is kept: control characters as spaces, deceptive ones dropped, cut.
fn shown(text: &str) -> String {
    crate::text::shown(text, ' ').take(TEXT_CHARS).collect()
}
