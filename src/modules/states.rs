//! Waybar's `states` for a module that shows a percentage: names, each with the share
//! from which it holds (`{ "low": 0, "bright": 80 }`). The highest one the value
//! reaches is the module's state: a CSS class of the same name, and the format of its
//! `format-<state>` key when the module has one.

use serde::de::{Deserializer, Error};
use serde::Deserialize;

/// The states, highest share first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct States(Vec<(String, u8)>);

impl States {
    /// The state `percent` is in: the one with the highest share at or below it.
    pub fn of(&self, percent: f64) -> Option<&str> {
        let (name, _) = self
            .0
            .iter()
            .find(|(_, from)| percent >= f64::from(*from))?;
        Some(name)
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(name, _)| name.as_str())
    }
}

/// A CSS class name: letters, digits, `-` and `_`, not starting with a digit or `-`.
fn is_class_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

impl<'de> Deserialize<'de> for States {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<States, D::Error> {
        let given = std::collections::BTreeMap::<String, u8>::deserialize(d)?;
        let mut states = Vec::with_capacity(given.len());
        for (name, from) in given {
            if !is_class_name(&name) {
                return Err(D::Error::custom(format!(
                    "states: {name:?} is not a CSS class name"
                )));
            }
            if from > 100 {
                return Err(D::Error::custom(format!(
                    "states: {name} = {from}, a percentage is at most 100"
                )));
            }
            states.push((name, from));
        }
        // Stable: states with the same share keep their names' order.
        states.sort_by_key(|(_, from)| std::cmp::Reverse(*from));
        Ok(States(states))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn states(toml: &str) -> Result<States, toml::de::Error> {
        #[derive(Deserialize)]
        struct Table {
            states: States,
        }
        toml::from_str::<Table>(toml).map(|t| t.states)
    }

    #[test]
    fn the_highest_state_reached_holds() {
        let states = states("states = { low = 0, bright = 80, medium = 40 }").expect("valid");
        assert_eq!(states.of(0.0), Some("low"));
        assert_eq!(states.of(39.9), Some("low"));
        assert_eq!(states.of(40.0), Some("medium"));
        assert_eq!(states.of(100.0), Some("bright"));
        let above = states_of("states = { bright = 80 }");
        assert_eq!(above.of(50.0), None, "below every state: none");
        assert_eq!(States::default().of(50.0), None);
    }

    fn states_of(toml: &str) -> States {
        states(toml).expect("valid")
    }

    #[test]
    fn names_must_be_classes_and_shares_percentages() {
        assert!(states("states = { \"a b\" = 10 }").is_err());
        assert!(states("states = { \"1st\" = 10 }").is_err());
        assert!(states("states = { high = 101 }").is_err());
        assert!(states("states = { high = -1 }").is_err());
        assert!(states("states = { high-ish = 50 }").is_ok());
    }
}
