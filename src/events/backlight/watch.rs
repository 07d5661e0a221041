//! Follows the backlights on the main loop: read from sysfs at the start, then again
//! whenever the kernel says one changed. The kernel sends a uevent (`change`, with
//! `SOURCE=sysfs` or `hotkey`) on every brightness change, and `add`/`remove` as
//! devices come and go; any user may listen on `NETLINK_KOBJECT_UEVENT`'s kernel group,
//! with no udev in between. No polling.
//!
//! A scroll sets the brightness by writing `brightness` where the user may (a udev rule
//! can grant that), else through logind's `SetBrightness` on the user's session, which
//! needs no privilege for a seat's active session.

use std::cell::RefCell;
use std::io;
use std::os::fd::AsRawFd;
use std::path::PathBuf;
use std::rc::Rc;

use gtk4::gio;
use gtk4::glib::{self, prelude::*};
use netlink_sys::{protocols::NETLINK_KOBJECT_UEVENT, Socket, SocketAddr};

use super::{parse_uevent, BacklightCommand, BacklightState, CLASS};
use crate::events::bus_watch::call;
use crate::events::source::{OnChange, Watch};

/// The kernel's multicast group of `NETLINK_KOBJECT_UEVENT` (udev's own is 2).
const KERNEL_GROUP: u32 = 1;
/// The kernel's uevents are at most 2 KiB.
const BUFFER: usize = 8192;

/// The system bus, reached on the first scroll that needs logind.
enum Bus {
    Unreached,
    Connecting,
    Connected(gio::DBusConnection),
}

struct Inner {
    class_dir: PathBuf,
    state: BacklightState,
    bus: Bus,
    /// The latest value for logind while the bus is being reached.
    pending: Option<(String, u32)>,
    on_change: OnChange<BacklightState>,
}

/// Follows the backlights; dropping it stops.
pub struct BacklightWatch {
    inner: Rc<RefCell<Inner>>,
    source: Option<glib::SourceId>,
}

impl Watch<BacklightState> for BacklightWatch {
    fn start(_: &(), on_change: OnChange<BacklightState>) -> Option<BacklightWatch> {
        let class_dir = PathBuf::from("/sys").join(CLASS);
        let state = BacklightState::read(&class_dir);
        if state.devices.is_empty() {
            tracing::info!(
                "backlight: no device in {}; hidden until one appears",
                class_dir.display()
            );
        }
        let inner = Rc::new(RefCell::new(Inner {
            class_dir,
            state,
            bus: Bus::Unreached,
            pending: None,
            on_change,
        }));
        let source = match listen(&inner) {
            Ok(source) => Some(source),
            Err(err) => {
                tracing::warn!("backlight: cannot listen to the kernel's uevents ({err}); changes will not show");
                None
            }
        };
        let weak = Rc::downgrade(&inner);
        glib::idle_add_local_once(move || {
            if let Some(inner) = weak.upgrade() {
                tell(&inner.borrow());
            }
        });
        Some(BacklightWatch { inner, source })
    }

    /// Carries out a scroll: the state takes the new value at once, so that a second
    /// scroll before the kernel's event builds on the first.
    fn command(&self, command: &BacklightCommand) {
        let (name, raw) = {
            let mut inner = self.inner.borrow_mut();
            let device = command.device.as_deref();
            let Some(at) = inner
                .state
                .pick(device)
                .and_then(|picked| inner.state.devices.iter().position(|d| d == picked))
            else {
                return;
            };
            let light = &mut inner.state.devices[at];
            let raw = light.stepped(command.step);
            if raw == light.brightness {
                return;
            }
            light.brightness = raw;
            (light.name.clone(), raw)
        };
        let file = self.inner.borrow().class_dir.join(&name).join("brightness");
        if writable(&file) {
            if let Err(err) = std::fs::write(&file, raw.to_string()) {
                tracing::warn!("backlight: cannot write {}: {err}", file.display());
            }
        } else {
            set_through_logind(&self.inner, name, raw);
        }
        tell(&self.inner.borrow());
    }
}

impl Drop for BacklightWatch {
    fn drop(&mut self) {
        if let Some(source) = self.source.take() {
            source.remove();
        }
    }
}

fn tell(inner: &Inner) {
    (inner.on_change)(Some(&inner.state));
}

/// Whether this user may write `file` (a udev rule may give a group the right).
fn writable(file: &std::path::Path) -> bool {
    rustix::fs::access(file, rustix::fs::Access::WRITE_OK).is_ok()
}

/// The kernel's uevents on the main loop: a backlight's read again on each of its own.
fn listen(inner: &Rc<RefCell<Inner>>) -> io::Result<glib::SourceId> {
    let mut socket = Socket::new(NETLINK_KOBJECT_UEVENT)?;
    socket.bind(&SocketAddr::new(0, KERNEL_GROUP))?;
    socket.set_non_blocking(true)?;
    let fd = socket.as_raw_fd();
    let weak = Rc::downgrade(inner);
    let mut buffer = vec![0; BUFFER];
    let on_readable = move |_, _| {
        let Some(inner) = weak.upgrade() else {
            return glib::ControlFlow::Break;
        };
        let mut ours = false;
        loop {
            match socket.recv(&mut &mut buffer[..], 0) {
                Ok(length) => {
                    let uevent = parse_uevent(&buffer[..length]);
                    ours |= uevent.is_some_and(|u| u.subsystem == "backlight");
                }
                Err(err) if err.kind() == io::ErrorKind::WouldBlock => break,
                // Events were dropped (ENOBUFS): read everything again.
                Err(_) => {
                    ours = true;
                    break;
                }
            }
        }
        if ours {
            let mut inner = inner.borrow_mut();
            let now = BacklightState::read(&inner.class_dir);
            if now != inner.state {
                inner.state = now;
                tell(&inner);
            }
        }
        glib::ControlFlow::Continue
    };
    Ok(glib_unix::unix_fd_add_local(
        fd,
        glib::IOCondition::IN,
        on_readable,
    ))
}

/// logind's `Session.SetBrightness` on the caller's own session; the system bus is
/// reached on first use, and the latest value is sent once it is.
fn set_through_logind(inner_rc: &Rc<RefCell<Inner>>, name: String, raw: u32) {
    let mut inner = inner_rc.borrow_mut();
    match &inner.bus {
        Bus::Connected(connection) => call_logind(connection, name, raw),
        Bus::Connecting => inner.pending = Some((name, raw)),
        Bus::Unreached => {
            inner.pending = Some((name, raw));
            inner.bus = Bus::Connecting;
            let (on_connected, on_failed) = (Rc::downgrade(inner_rc), Rc::downgrade(inner_rc));
            crate::events::bus_watch::system_bus::connect(
                "backlight",
                move |connection| {
                    if let Some(inner) = on_connected.upgrade() {
                        let mut inner = inner.borrow_mut();
                        if let Some((name, raw)) = inner.pending.take() {
                            call_logind(&connection, name, raw);
                        }
                        inner.bus = Bus::Connected(connection);
                    }
                },
                move || {
                    if let Some(inner) = on_failed.upgrade() {
                        let mut inner = inner.borrow_mut();
                        inner.bus = Bus::Unreached;
                        inner.pending = None;
                    }
                },
            );
        }
    }
}

fn call_logind(connection: &gio::DBusConnection, name: String, raw: u32) {
    let args = ("backlight", name.as_str(), raw).to_variant();
    call(
        connection,
        "org.freedesktop.login1",
        "/org/freedesktop/login1/session/auto",
        "org.freedesktop.login1.Session",
        "SetBrightness",
        Some(&args),
        None,
        move |result| {
            if let Err(err) = result {
                tracing::warn!(
                    "backlight: logind did not set {name} to {raw}: {}",
                    err.message()
                );
            }
        },
    );
}
