//! Test helper: a Wayland client with many plain toplevel windows (xdg-shell, each a
//! one-pixel buffer), titled and named as the arguments say, open until killed.
//!
//! `windows COUNT TITLE APP_ID`: with a COUNT of one the window is titled TITLE, else
//! "TITLE N". Run with WAYLAND_DISPLAY and XDG_RUNTIME_DIR of the compositor.

use std::os::fd::AsFd;

use wayland_client::protocol::{
    wl_buffer::WlBuffer, wl_compositor::WlCompositor, wl_registry, wl_shm, wl_shm::WlShm,
    wl_shm_pool::WlShmPool, wl_surface::WlSurface,
};
use wayland_client::{delegate_noop, Connection, Dispatch, QueueHandle};
use wayland_protocols::xdg::shell::client::{xdg_surface, xdg_toplevel, xdg_wm_base};

#[derive(Default)]
struct Client {
    compositor: Option<WlCompositor>,
    shm: Option<WlShm>,
    wm_base: Option<xdg_wm_base::XdgWmBase>,
    buffer: Option<WlBuffer>,
}

impl Dispatch<wl_registry::WlRegistry, ()> for Client {
    fn event(
        client: &mut Self,
        registry: &wl_registry::WlRegistry,
        event: wl_registry::Event,
        _: &(),
        _: &Connection,
        qh: &QueueHandle<Self>,
    ) {
        if let wl_registry::Event::Global {
            name, interface, ..
        } = event
        {
            match interface.as_str() {
                "wl_compositor" => client.compositor = Some(registry.bind(name, 4, qh, ())),
                "wl_shm" => client.shm = Some(registry.bind(name, 1, qh, ())),
                "xdg_wm_base" => client.wm_base = Some(registry.bind(name, 1, qh, ())),
                _ => {}
            }
        }
    }
}

impl Dispatch<xdg_wm_base::XdgWmBase, ()> for Client {
    fn event(
        _: &mut Self,
        wm_base: &xdg_wm_base::XdgWmBase,
        event: xdg_wm_base::Event,
        _: &(),
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        if let xdg_wm_base::Event::Ping { serial } = event {
            wm_base.pong(serial);
        }
    }
}

/// A surface and whether it was shown.
type Shown = (WlSurface, std::sync::atomic::AtomicBool);

/// Each configure is acknowledged; the first shows the surface with the one-pixel
/// buffer (a window that answered each of a tiling compositor's configures with a
/// commit would make it lay out all windows again, each time).
impl Dispatch<xdg_surface::XdgSurface, Shown> for Client {
    fn event(
        client: &mut Self,
        xdg: &xdg_surface::XdgSurface,
        event: xdg_surface::Event,
        (surface, shown): &Shown,
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        if let xdg_surface::Event::Configure { serial } = event {
            xdg.ack_configure(serial);
            if !shown.swap(true, std::sync::atomic::Ordering::Relaxed) {
                surface.attach(client.buffer.as_ref(), 0, 0);
                surface.commit();
            }
        }
    }
}

delegate_noop!(Client: ignore WlCompositor);
delegate_noop!(Client: ignore WlShm);
delegate_noop!(Client: ignore WlShmPool);
delegate_noop!(Client: ignore WlBuffer);
delegate_noop!(Client: ignore WlSurface);
delegate_noop!(Client: ignore xdg_toplevel::XdgToplevel);

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [count, title, app_id] = args.as_slice() else {
        eprintln!("usage: windows COUNT TITLE APP_ID");
        std::process::exit(2);
    };
    let count: usize = count.parse().expect("COUNT is a number");
    let connection = Connection::connect_to_env().expect("a Wayland display");
    let mut queue = connection.new_event_queue();
    let qh = queue.handle();
    connection.display().get_registry(&qh, ());
    let mut client = Client::default();
    queue.roundtrip(&mut client).expect("the globals");
    let (Some(compositor), Some(shm), Some(wm_base)) = (
        client.compositor.clone(),
        client.shm.clone(),
        client.wm_base.clone(),
    ) else {
        panic!("the compositor lacks wl_compositor, wl_shm or xdg_wm_base");
    };
    let pixels = tempfile::tempfile().expect("a file for the buffer");
    pixels.set_len(4).expect("room for one pixel");
    let pool = shm.create_pool(pixels.as_fd(), 4, &qh, ());
    client.buffer = Some(pool.create_buffer(0, 1, 1, 4, wl_shm::Format::Argb8888, &qh, ()));
    let mut toplevels = Vec::with_capacity(count);
    for n in 1..=count {
        let surface = compositor.create_surface(&qh, ());
        let xdg = wm_base.get_xdg_surface(&surface, &qh, (surface.clone(), Default::default()));
        let toplevel = xdg.get_toplevel(&qh, ());
        match count {
            1 => toplevel.set_title(title.clone()),
            _ => toplevel.set_title(format!("{title} {n}")),
        }
        toplevel.set_app_id(app_id.clone());
        surface.commit();
        toplevels.push((surface, xdg, toplevel));
        // Read the compositor's answers as they come: a client that does not is
        // disconnected once the compositor's buffer for it is full.
        if n % 20 == 0 {
            if let Err(err) = queue.roundtrip(&mut client) {
                panic!("the compositor, after {n} windows: {err}");
            }
        }
    }
    loop {
        queue
            .blocking_dispatch(&mut client)
            .expect("the compositor");
    }
}
