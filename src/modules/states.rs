//! Waybar's `states` for a module that shows a percentage: names, each with the share
//! from which it holds (`{ "low": 0, "bright": 80 }`). The highest one the value
//! reaches is the module's state: a CSS class of the same name, and the format of its
//! `format-<state>` key when the module has one. A battery's hold up to their share
//! instead (`{ "warning": 30, "critical": 15 }`): the lowest one the charge is at or
//! below.

use std::rc::Rc;

use serde::de::{Deserializer, Error};
use serde::Deserialize;

/// The states, highest share first; each name shared with the statuses that carry it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct States(Vec<(Rc<str>, u8)>);

impl States {
    /// The state `percent` is in: the one with the highest share at or below it.
    pub fn of(&self, percent: f64) -> Option<&Rc<str>> {
        let (name, _) = self
            .0
            .iter()
            .find(|(_, from)| percent >= f64::from(*from))?;
        Some(name)
    }

    /// The state a battery's charge of `percent` is in: the one with the lowest share at
    /// or above it, as Waybar's battery takes them.
    pub fn up_to(&self, percent: f64) -> Option<&Rc<str>> {
        let (name, _) = self
            .0
            .iter()
            .rev()
            .find(|(_, to)| percent <= f64::from(*to))?;
        Some(name)
    }

    /// The states named with their shares (names already checked to be CSS classes).
    pub fn of_pairs(pairs: &[(&str, u8)]) -> States {
        let mut states: Vec<(Rc<str>, u8)> = pairs
            .iter()
            .map(|(name, share)| (Rc::from(*name), *share))
            .collect();
        states.sort_by_key(|(_, from)| std::cmp::Reverse(*from));
        States(states)
    }

    /// The names, each shared.
    pub fn shared_names(&self) -> impl Iterator<Item = &Rc<str>> {
        self.0.iter().map(|(name, _)| name)
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(name, _)| &**name)
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
            states.push((Rc::from(name), from));
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
        let of = |percent| states.of(percent).map(|s| &**s);
        assert_eq!(of(0.0), Some("low"));
        assert_eq!(of(39.9), Some("low"));
        assert_eq!(of(40.0), Some("medium"));
        assert_eq!(of(100.0), Some("bright"));
        let above = states_of("states = { bright = 80 }");
        assert_eq!(above.of(50.0), None, "below every state: none");
        assert_eq!(States::default().of(50.0), None);
    }

    #[test]
    fn a_batterys_state_is_the_lowest_it_is_at_or_below() {
        let states = states_of("states = { good = 95, warning = 30, critical = 15 }");
        let up_to = |percent| states.up_to(percent).map(|s| &**s);
        assert_eq!(up_to(97.0), None, "above every state");
        assert_eq!(up_to(95.0), Some("good"));
        assert_eq!(up_to(31.0), Some("good"));
        assert_eq!(up_to(30.0), Some("warning"));
        assert_eq!(up_to(15.0), Some("critical"));
        assert_eq!(up_to(0.0), Some("critical"));
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
