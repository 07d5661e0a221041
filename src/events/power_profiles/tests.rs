//! Cycling and the driver of the active profile.

use super::*;

fn profiles(active: &str, names: &[&str]) -> PowerProfiles {
    PowerProfiles {
        active: active.to_owned(),
        profiles: names
            .iter()
            .map(|n| Profile {
                name: (*n).to_owned(),
                driver: format!("{n}-driver"),
            })
            .collect(),
        degraded: String::new(),
    }
}

#[test]
fn the_next_profile_wraps_around_in_the_daemons_order() {
    let all = ["power-saver", "balanced", "performance"];
    assert_eq!(profiles("power-saver", &all).next(), Some("balanced"));
    assert_eq!(profiles("balanced", &all).next(), Some("performance"));
    assert_eq!(profiles("performance", &all).next(), Some("power-saver"));
    assert_eq!(profiles("unknown", &all).next(), Some("power-saver"));
    assert_eq!(profiles("balanced", &["balanced"]).next(), None);
    assert_eq!(profiles("balanced", &all).driver(), "balanced-driver");
    assert_eq!(profiles("gone", &all).driver(), "");
}

#[test]
fn names_are_cleaned() {
    assert_eq!(clean("bal\u{7}anced\n"), "balanced");
    assert_eq!(clean(&"x".repeat(200)).len(), MAX_NAME);
}
