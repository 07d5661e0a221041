//! The network module while rfkill blocks the Wi-Fi radios: Waybar's `disabled`.

use super::tests::{module, sample_with_rates, text, wired};
use super::*;
use crate::events::network::Change;
use crate::modules::tests::input;
use crate::modules::Events;
use crate::text::Plain;

#[test]
fn blocked_wifi_radios_show_waybars_disabled_format() {
    let sample = sample_with_rates(None);
    let mut state = wired();
    state.apply(Change::LinkGone(2));
    state.wifi_blocked = true;
    let events = Events::default().with(Some(state));
    let shown = |toml: &str| {
        let (out, status) = text(module(toml).as_ref(), &sample, &events);
        (out, status.and_then(|s| s.class))
    };
    let own = "format-disconnected = \"offline\"\nformat-disabled = \"airplane\"\n";
    assert_eq!(shown(own), ("airplane".to_owned(), Some("disabled")));
    // Unset, the disconnected format; with Waybar's `rfkill = false`, disconnected.
    assert_eq!(
        shown("format-disconnected = \"offline\"\n"),
        ("offline".to_owned(), Some("disabled"))
    );
    assert_eq!(
        shown(&format!("{own}rfkill = false\n")),
        ("offline".to_owned(), Some("disconnected"))
    );
    let tooltip_format = "tooltip-format = \"t\"\ntooltip-format-disabled = \"radios off\"\n";
    let mut tooltip = String::new();
    let input = Input {
        events: &events,
        ..input(&sample)
    };
    module(tooltip_format).tooltip(&mut Plain(&mut tooltip), &input);
    assert_eq!(tooltip, "radios off");
}
