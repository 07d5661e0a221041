//! The battery's formats for a status or a state beyond its own keys, as Waybar reads
//! them: `format-<state>` and `format-<status>-<state>` for each state `states` names
//! (`warning` and `critical` without it); `tooltip-format-<status>`,
//! `tooltip-format-<state>` and `tooltip-format-<status>-<state>`; and the icons' set
//! names `<status>-<state>` made once for each.

use std::collections::BTreeMap;
use std::rc::Rc;

/// Waybar's status names, as formats and icons' sets name them.
pub const STATUSES: [&str; 5] = ["charging", "discharging", "plugged", "full", "not-charging"];

/// Checks a format's text from the config (its fields).
pub type Check = fn(toml::Value) -> Result<String, toml::de::Error>;

/// One format, for a status, a state, or both.
#[derive(Clone, Debug, PartialEq)]
struct StateFormat {
    /// The tooltip's, not the label's.
    tooltip: bool,
    status: Option<&'static str>,
    state: Option<Rc<str>>,
    format: String,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct StateFormats {
    formats: Vec<StateFormat>,
    /// `<status>-<state>` for each status and state, for `format-icons`.
    icon_sets: Vec<(&'static str, Rc<str>, String)>,
}

impl StateFormats {
    /// Takes the keys of `other` (the table's keys that are no setting of their own),
    /// each a format named for a status or one of `states`; any other is refused.
    pub fn take(
        other: BTreeMap<String, toml::Value>,
        states: &[Rc<str>],
        known: &[&str],
        (check_label, check_tooltip): (Check, Check),
    ) -> Result<StateFormats, String> {
        let mut formats = Vec::new();
        for (key, value) in other {
            let Some((tooltip, status, state)) = split(&key, states) else {
                let known: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
                return Err(format!(
                    "unknown field `{key}`, expected one of {}, or format-<state>, \
                     format-<status>-<state> and tooltip-format-<status>, -<state> or \
                     -<status>-<state> for a state listed in `states`",
                    known.join(", ")
                ));
            };
            let checked = match tooltip {
                true => check_tooltip(value),
                false => check_label(value),
            };
            let format = checked.map_err(|e| format!("{key}: {}", e.message()))?;
            formats.push(StateFormat {
                tooltip,
                status,
                state,
                format,
            });
        }
        let icon_sets = states
            .iter()
            .flat_map(|state| {
                STATUSES
                    .iter()
                    .map(move |status| (*status, state.clone(), format!("{status}-{state}")))
            })
            .collect();
        Ok(StateFormats { formats, icon_sets })
    }

    /// Whether a label's format is among them.
    pub fn has_label(&self) -> bool {
        self.formats.iter().any(|f| !f.tooltip)
    }

    /// The label's format for `status` and `state` (`None`: for any status).
    pub fn get(&self, status: Option<&str>, state: &str) -> Option<&String> {
        self.find(false, status, Some(state))
    }

    /// The tooltip's format in Waybar's order: for the status and state, the status,
    /// the state.
    pub fn tooltip(&self, status: &str, state: Option<&str>) -> Option<&String> {
        let both = state.and_then(|state| self.find(true, Some(status), Some(state)));
        both.or_else(|| self.find(true, Some(status), None))
            .or_else(|| state.and_then(|state| self.find(true, None, Some(state))))
    }

    fn find(&self, tooltip: bool, status: Option<&str>, state: Option<&str>) -> Option<&String> {
        let found = self
            .formats
            .iter()
            .find(|f| f.tooltip == tooltip && f.status == status && f.state.as_deref() == state)?;
        Some(&found.format)
    }

    /// `<status>-<state>`, the name of an icons' set.
    pub fn icon_set(&self, status: &str, state: &str) -> Option<&str> {
        let found = self
            .icon_sets
            .iter()
            .find(|(s, st, _)| *s == status && &**st == state)?;
        Some(&found.2)
    }
}

/// A format's key as (tooltip's, status, state): `format-charging-good` as (no,
/// `charging`, `good`), `format-good` as (no, none, `good`), `tooltip-format-charging`
/// as (yes, `charging`, none); a state must be among `states`, and a label's format
/// names one.
type Named = (bool, Option<&'static str>, Option<Rc<str>>);

fn split(key: &str, states: &[Rc<str>]) -> Option<Named> {
    let (tooltip, rest) = match key.strip_prefix("tooltip-format-") {
        Some(rest) => (true, rest),
        None => (false, key.strip_prefix("format-")?),
    };
    let state_named = |name: &str| states.iter().find(|s| &***s == name).cloned();
    if let Some(state) = state_named(rest) {
        return Some((tooltip, None, Some(state)));
    }
    if let Some(status) = STATUSES.iter().find(|s| **s == rest).filter(|_| tooltip) {
        return Some((true, Some(*status), None));
    }
    STATUSES.iter().find_map(|status| {
        let state = rest.strip_prefix(status)?.strip_prefix('-')?;
        Some((tooltip, Some(*status), Some(state_named(state)?)))
    })
}
