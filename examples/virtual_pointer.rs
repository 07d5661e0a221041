//! Test helper: one `zwlr_virtual_pointer_v1` held for the helper's whole life (a pointer
//! created per click loses its clicks: sway drops them with the device). Commands on stdin, one per line, each
//! answered with `ok` once the compositor has processed it:
//!
//!   move X Y W H      absolute motion to (X, Y) in a W×H output layout
//!   click BUTTON      press and release `left`, `middle`, `right`, or the side buttons
//!                     `back` and `forward`
//!   scroll DIRECTION  one wheel step `up` or `down`
//!
//! Run with WAYLAND_DISPLAY and XDG_RUNTIME_DIR of the compositor.

use std::io::{BufRead, Write};
use std::time::Instant;

use wayland_client::globals::{registry_queue_init, GlobalListContents};
use wayland_client::protocol::{wl_pointer, wl_registry, wl_seat};
use wayland_client::{delegate_noop, Connection, Dispatch, QueueHandle};
use wayland_protocols_wlr::virtual_pointer::v1::client::{
    zwlr_virtual_pointer_manager_v1::ZwlrVirtualPointerManagerV1,
    zwlr_virtual_pointer_v1::ZwlrVirtualPointerV1,
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
delegate_noop!(State: ZwlrVirtualPointerManagerV1);
delegate_noop!(State: ignore ZwlrVirtualPointerV1);

// Linux input event codes.
const BTN_LEFT: u32 = 0x110;
const BTN_RIGHT: u32 = 0x111;
const BTN_MIDDLE: u32 = 0x112;
const BTN_SIDE: u32 = 0x113;
const BTN_EXTRA: u32 = 0x114;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let conn = Connection::connect_to_env()?;
    let (globals, mut queue) = registry_queue_init::<State>(&conn)?;
    let qh = queue.handle();
    let seat: wl_seat::WlSeat = globals.bind(&qh, 1..=7, ())?;
    let manager: ZwlrVirtualPointerManagerV1 = globals.bind(&qh, 1..=2, ())?;
    let pointer = manager.create_virtual_pointer(Some(&seat), &qh, ());
    let mut state = State;
    queue.roundtrip(&mut state)?;

    let started = Instant::now();
    let now = || started.elapsed().as_millis() as u32;
    let mut stdout = std::io::stdout();
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["move", x, y, w, h] => {
                pointer.motion_absolute(now(), x.parse()?, y.parse()?, w.parse()?, h.parse()?);
                pointer.frame();
            }
            ["click", button] => {
                let code = match *button {
                    "left" => BTN_LEFT,
                    "middle" => BTN_MIDDLE,
                    "right" => BTN_RIGHT,
                    "back" => BTN_SIDE,
                    "forward" => BTN_EXTRA,
                    other => return Err(format!("unknown button {other}").into()),
                };
                pointer.button(now(), code, wl_pointer::ButtonState::Pressed);
                pointer.frame();
                pointer.button(now(), code, wl_pointer::ButtonState::Released);
                pointer.frame();
            }
            ["scroll", direction] => {
                let steps = match *direction {
                    "up" => -1,
                    "down" => 1,
                    other => return Err(format!("unknown direction {other}").into()),
                };
                pointer.axis_source(wl_pointer::AxisSource::Wheel);
                let axis = wl_pointer::Axis::VerticalScroll;
                pointer.axis_discrete(now(), axis, f64::from(steps) * 15.0, steps);
                pointer.frame();
            }
            _ => return Err(format!("unknown command: {line}").into()),
        }
        queue.roundtrip(&mut state)?;
        writeln!(stdout, "ok")?;
        stdout.flush()?;
    }
    pointer.destroy();
    queue.roundtrip(&mut state)?;
    Ok(())
}
