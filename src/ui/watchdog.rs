//! Exits when the compositor is gone but GTK does not return.
//!
//! GTK 4.8 waits for a new surface's first configure event in a loop around
//! `wl_display_dispatch_queue`; when the compositor dies during that wait, the call fails
//! at once, every time, and the loop spins at 100 % CPU forever instead of reaching the
//! main loop, where the display's `closed` signal would end the bar. So a thread watches
//! a duplicate of the Wayland connection's fd for the compositor hanging up: it sleeps
//! in poll(2) (no periodic wake-up) until then, gives GTK a grace period to exit on its
//! own, and otherwise ends the process with status 1, so a supervisor restarts the bar.

use std::os::fd::{BorrowedFd, OwnedFd};
use std::time::Duration;

use gtk4::gdk;
use gtk4::glib::translate::ToGlibPtr;
use rustix::event::{poll, PollFd, PollFlags};

/// How long GTK has to exit by itself once the compositor hung up.
const GRACE: Duration = Duration::from_secs(3);

#[repr(C)]
struct WlDisplay {
    _opaque: [u8; 0],
}

extern "C" {
    // In libgtk-4: the wl_display of a GdkWaylandDisplay.
    fn gdk_wayland_display_get_wl_display(display: *mut gdk::ffi::GdkDisplay) -> *mut WlDisplay;
}

type GetFd = unsafe extern "C" fn(*mut WlDisplay) -> std::os::raw::c_int;

/// libwayland-client's `wl_display_get_fd`, looked up in the process: linking
/// libwayland-client into ringbar itself would put it ahead of gtk4-layer-shell, whose
/// shim must come first, and layer-shell would no longer work.
fn wl_display_get_fd() -> Option<GetFd> {
    // libc: rustix has no dynamic linker calls.
    // SAFETY: dlsym with RTLD_DEFAULT and a NUL-terminated name has no other precondition.
    let symbol = unsafe { libc::dlsym(libc::RTLD_DEFAULT, c"wl_display_get_fd".as_ptr()) };
    if symbol.is_null() {
        return None;
    }
    // SAFETY: the symbol is libwayland-client's `int wl_display_get_fd(struct wl_display *)`.
    Some(unsafe { std::mem::transmute::<*mut libc::c_void, GetFd>(symbol) })
}

/// Starts the watch for a Wayland `display` (the caller checked it is one).
pub fn watch(display: &gdk::Display) {
    // SAFETY: `display` is a live GdkWaylandDisplay; the call only reads its field.
    let wl_display = unsafe { gdk_wayland_display_get_wl_display(display.to_glib_none().0) };
    if wl_display.is_null() {
        return;
    }
    let Some(get_fd) = wl_display_get_fd() else {
        return;
    };
    // SAFETY: a live wl_display; the fd stays open as long as the display, which lives as
    // long as the process.
    let raw = unsafe { get_fd(wl_display) };
    // SAFETY: `raw` is the open connection fd; it is only borrowed here to duplicate it.
    let connection = unsafe { BorrowedFd::borrow_raw(raw) };
    let Ok(own) = connection.try_clone_to_owned() else {
        return;
    };
    let spawned = std::thread::Builder::new()
        .name("wayland-watch".into())
        .spawn(move || wait_for_hangup(&own));
    if let Err(err) = spawned {
        tracing::debug!("no compositor watch: {err}");
    }
}

fn wait_for_hangup(connection: &OwnedFd) {
    // Only the hang-up, never the data GTK reads from the same socket.
    let mut fds = [PollFd::new(connection, PollFlags::RDHUP)];
    loop {
        match poll(&mut fds, None) {
            Ok(_) if !fds[0].revents().is_empty() => break,
            Ok(_) | Err(rustix::io::Errno::INTR) => continue,
            Err(err) => {
                tracing::debug!("compositor watch: {err}");
                return;
            }
        }
    }
    std::thread::sleep(GRACE);
    // Written here, not through the log's thread: the process ends next.
    eprintln!("ringbar: the compositor went away and GTK did not return: exiting");
    // libc: rustix's exit is not stable API.
    // SAFETY: _exit ends the process at once, without running atexit handlers while the
    // main thread is inside GTK.
    unsafe { libc::_exit(1) };
}
