//! The tray's checks of what other programs send: pixmaps, item strings, bus addresses
//! and menu properties. Any bytes are refused or accepted, never a panic, and what is
//! accepted keeps within the limits.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ringbar::events::tray::menu::{MenuBudget, MenuEntry, Prop};
use ringbar::events::tray::pixmap::{self, Pixmap};
use ringbar::events::tray::{session_bus_address, ItemAddress};

fuzz_target!(|data: &[u8]| {
    if data.len() < 8 {
        return;
    }
    let width = i32::from_le_bytes([data[0], data[1], data[2], data[3]]);
    let height = i32::from_le_bytes([data[4], data[5], data[6], data[7]]);
    let body = &data[8..];
    if let Ok(image) = Pixmap::from_argb(width, height, body) {
        assert_eq!(image.rgba.len(), body.len());
        assert!(image.width as i32 <= pixmap::MAX_SIDE && image.height as i32 <= pixmap::MAX_SIDE);
    }
    let sizes: Vec<(i32, i32, usize)> = body
        .chunks_exact(3)
        .map(|c| (i32::from(c[0]) - 8, i32::from(c[1]), usize::from(c[2]) * 64))
        .collect();
    if let Some(index) = pixmap::pick(&sizes, u32::from(data[0])) {
        let (w, h, len) = sizes[index];
        assert_eq!(len, w as usize * h as usize * 4);
    }

    let text = String::from_utf8_lossy(body);
    if let Some(address) = ItemAddress::parse(&text) {
        assert_eq!(ItemAddress::parse(&address.to_item_string()), Some(address));
    }
    if let Some(address) = session_bus_address(Some(&text), Some("/run/user/1")) {
        assert!(address.starts_with("unix:"));
    }

    let mut entry = MenuEntry::new(width);
    let mut budget = MenuBudget::default();
    for (i, part) in text.split('\n').enumerate() {
        let (key, value) = part.split_once('=').unwrap_or((part, ""));
        let prop = match i % 3 {
            0 => Prop::Str(value),
            1 => Prop::Bool(value.is_empty()),
            _ => Prop::Int(value.len() as i32),
        };
        entry.set(key, prop);
        if budget.admit(i % 8) {
            entry.children.push(MenuEntry::new(i as i32));
        }
    }
    assert!(entry.label.len() <= 256);
    let _ = entry.describe();
});
