use super::*;

fn text(name: &str, value: &str) -> (String, Property) {
    (name.to_owned(), Property::Text(value.to_owned()))
}

fn flag(name: &str, on: bool) -> (String, Property) {
    (name.to_owned(), Property::Bool(on))
}

const HCI0: &str = "/org/bluez/hci0";
const PHONES: &str = "/org/bluez/hci0/dev_00_11_22_33_44_55";

#[test]
fn adapters_devices_and_batteries_as_announced() {
    let mut state = BluetoothState::default();
    assert_eq!(state.adapter(), None);
    state.update(
        HCI0,
        ADAPTER,
        &[text("Alias", "laptop"), flag("Powered", false)],
    );
    state.update("/org/bluez/hci1", ADAPTER, &[flag("Powered", true)]);
    assert_eq!(
        state.adapter().map(|a| a.path.as_str()),
        Some("/org/bluez/hci1")
    );
    state.update("/org/bluez/hci1", ADAPTER, &[flag("Powered", false)]);
    assert_eq!(
        state.adapter().map(|a| a.alias.as_str()),
        Some("laptop"),
        "the first"
    );
    state.update(HCI0, ADAPTER, &[flag("Powered", true)]);

    // A battery may come before its device; the adapter is the path's parent.
    let battery = [("Percentage".to_owned(), Property::Byte(230))];
    state.update(PHONES, BATTERY, &battery);
    state.update(
        PHONES,
        DEVICE,
        &[text("Alias", "Buds\u{7}\nPro"), flag("Connected", true)],
    );
    let adapter = state.adapter().expect("hci0").clone();
    let connected: Vec<&Device> = state.connected(&adapter).collect();
    assert_eq!(connected.len(), 1);
    assert_eq!(connected[0].alias, "BudsPro", "control characters out");
    assert_eq!(connected[0].battery, Some(100), "clamped");
    assert_eq!(connected[0].adapter, HCI0);

    state.remove(PHONES, &[BATTERY.to_owned()]);
    assert_eq!(state.devices[0].battery, None);
    state.update(PHONES, DEVICE, &[flag("Connected", false)]);
    assert_eq!(state.connected(&adapter).count(), 0);
    state.remove(HCI0, &[ADAPTER.to_owned()]);
    assert!(state.devices.is_empty(), "the adapter's devices go with it");
    assert_eq!(state.adapters.len(), 1);
    let long = "x".repeat(300);
    state.update(HCI0, ADAPTER, &[text("Alias", &long)]);
    assert_eq!(state.adapters[1].alias.len(), MAX_NAME);
}
