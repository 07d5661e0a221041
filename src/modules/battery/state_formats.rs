//! The battery's formats for a state, as Waybar reads them: `format-<state>` and
//! `format-<status>-<state>`, for each state `states` names (`warning` and `critical`
//! without it), and the icons' set names `<status>-<state>` made once for each.

use std::collections::BTreeMap;
use std::rc::Rc;

use super::formats::{checked_label, STATUSES};

/// One state's format, for one status or for any.
#[derive(Clone, Debug, PartialEq)]
struct StateFormat {
    status: Option<&'static str>,
    state: Rc<str>,
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
    /// each a `format-[<status>-]<state>` for one of `states`; any other is refused.
    pub fn take(
        other: BTreeMap<String, toml::Value>,
        states: &[Rc<str>],
        known: &[&str],
    ) -> Result<StateFormats, String> {
        let mut formats = Vec::new();
        for (key, value) in other {
            let Some((status, state)) = split(&key, states) else {
                let known: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
                return Err(format!(
                    "unknown field `{key}`, expected one of {}, or format-<state> and \
                     format-<status>-<state> for a state listed in `states`",
                    known.join(", ")
                ));
            };
            let format = checked_label(value).map_err(|e| format!("{key}: {}", e.message()))?;
            formats.push(StateFormat {
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

    pub fn is_empty(&self) -> bool {
        self.formats.is_empty()
    }

    /// The format for `state`, for `status` (`None`: `format-<state>`).
    pub fn get(&self, status: Option<&str>, state: &str) -> Option<&String> {
        let found = self
            .formats
            .iter()
            .find(|f| f.status == status && &*f.state == state)?;
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

/// `format-charging-good` as (`charging`, `good`), `format-good` as (none, `good`), for a
/// state among `states`.
fn split(key: &str, states: &[Rc<str>]) -> Option<(Option<&'static str>, Rc<str>)> {
    let rest = key.strip_prefix("format-")?;
    let state_named = |name: &str| states.iter().find(|s| &***s == name).cloned();
    if let Some(state) = state_named(rest) {
        return Some((None, state));
    }
    STATUSES.iter().find_map(|status| {
        let state = rest.strip_prefix(status)?.strip_prefix('-')?;
        Some((Some(*status), state_named(state)?))
    })
}
