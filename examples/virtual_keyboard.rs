//! Test helper: a `zwp_virtual_keyboard_v1` whose keymap has the XKB layouts named on
//! the command line (`virtual_keyboard us de`), so that a headless compositor, which
//! has no keyboard of its own, has one whose layouts can be switched. Prints `ready`
//! once the compositor has the keymap, and holds the keyboard until stdin closes.
//!
//! Run with WAYLAND_DISPLAY and XDG_RUNTIME_DIR of the compositor.

use std::io::{BufRead, Write};
use std::os::fd::AsFd;

use wayland_client::globals::{registry_queue_init, GlobalListContents};
use wayland_client::protocol::{wl_keyboard, wl_registry, wl_seat};
use wayland_client::{delegate_noop, Connection, Dispatch, QueueHandle};
use wayland_protocols_misc::zwp_virtual_keyboard_v1::client::{
    zwp_virtual_keyboard_manager_v1::ZwpVirtualKeyboardManagerV1,
    zwp_virtual_keyboard_v1::ZwpVirtualKeyboardV1,
};

struct State;

impl Dispatch<wl_registry::WlRegistry, GlobalListContents> for State {
    fn event(
        _: &mut Self,
        _: &wl_registry::WlRegistry,
        _: wl_registry::Event,
        _: &GlobalListContents,
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
    }
}

delegate_noop!(State: ignore wl_seat::WlSeat);
delegate_noop!(State: ZwpVirtualKeyboardManagerV1);
delegate_noop!(State: ignore ZwpVirtualKeyboardV1);

/// A keymap by its components, as xkbcommon writes one for the rules' names: the
/// compositor compiles it with XKB's own files (xkb-data), group names included.
fn keymap(layouts: &[String]) -> String {
    let mut symbols = String::from("pc");
    for (group, layout) in layouts.iter().enumerate() {
        match group {
            0 => symbols.push_str(&format!("+{layout}")),
            n => symbols.push_str(&format!("+{layout}:{}", n + 1)),
        }
    }
    symbols.push_str("+inet(evdev)");
    format!(
        "xkb_keymap {{\n  xkb_keycodes {{ include \"evdev+aliases(qwerty)\" }};\n  \
         xkb_types {{ include \"complete\" }};\n  xkb_compat {{ include \"complete\" }};\n  \
         xkb_symbols {{ include \"{symbols}\" }};\n}};\n"
    )
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let layouts: Vec<String> = std::env::args().skip(1).collect();
    if layouts.is_empty() {
        return Err("usage: virtual_keyboard LAYOUT...".into());
    }
    let conn = Connection::connect_to_env()?;
    let (globals, mut queue) = registry_queue_init::<State>(&conn)?;
    let qh = queue.handle();
    let seat: wl_seat::WlSeat = globals.bind(&qh, 1..=7, ())?;
    let manager: ZwpVirtualKeyboardManagerV1 = globals.bind(&qh, 1..=1, ())?;
    let keyboard = manager.create_virtual_keyboard(&seat, &qh, ());

    // The keymap goes as a file, its text NUL-terminated.
    let runtime = std::env::var_os("XDG_RUNTIME_DIR").ok_or("no XDG_RUNTIME_DIR")?;
    let path = std::path::Path::new(&runtime).join(format!("keymap-{}", std::process::id()));
    let mut text = keymap(&layouts).into_bytes();
    text.push(0);
    std::fs::write(&path, &text)?;
    let file = std::fs::File::open(&path)?;
    std::fs::remove_file(&path)?;
    let format = wl_keyboard::KeymapFormat::XkbV1 as u32;
    keyboard.keymap(format, file.as_fd(), text.len() as u32);
    let mut state = State;
    queue.roundtrip(&mut state)?;
    let mut stdout = std::io::stdout();
    writeln!(stdout, "ready")?;
    stdout.flush()?;
    for line in std::io::stdin().lock().lines() {
        line?;
    }
    keyboard.destroy();
    queue.roundtrip(&mut state)?;
    Ok(())
}
