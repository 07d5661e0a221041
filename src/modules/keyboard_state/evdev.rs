//! The keyboards' LEDs through evdev: each `/dev/input/event*` that has the Num, Caps
//! and Scroll Lock LEDs is opened for reading, asked for its LEDs (`EVIOCGLED`), and
//! told to pass this reader nothing but LED events (`EVIOCSMASK`), so the bar never
//! hears a key and wakes only when a LED changes (the compositor sets them when a lock
//! key is pressed). `/dev/input` is watched for keyboards plugged in later, and for a
//! node udev has just made readable.

use std::cell::{Cell, RefCell};
use std::ffi::c_ulong;
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::rc::{Rc, Weak};

use gtk4::gio::prelude::{FileExt, FileMonitorExt};
use gtk4::{gio, glib};
use rustix::fs::{Mode, OFlags};
use rustix::io::Errno;
use rustix::ioctl::{self, opcode};

use super::{KeyboardChoice, Leds};
use crate::events::source::{OnChange, Watch};

const INPUT: &str = "/dev/input";
/// The event type of LEDs, and its bits of Num, Caps and Scroll Lock.
const EV_LED: u8 = 0x11;
const THREE_LOCKS: u64 = 0b111;
/// Keyboards read at most; a flood of devices costs no more.
const MAX_KEYBOARDS: usize = 16;
/// The longest device name kept.
const NAME_BYTES: usize = 128;

/// `struct input_mask`, for `EVIOCSMASK`.
#[repr(C)]
struct InputMask {
    kind: u32,
    codes_size: u32,
    codes_ptr: u64,
}

/// A keyboard being read.
struct Keyboard {
    path: PathBuf,
    name: String,
    fd: OwnedFd,
    /// Its watch on the main loop; `None` once the watch has ended itself.
    watch: Option<glib::SourceId>,
}

/// The keyboards' LEDs, followed; dropping it stops.
pub struct Keyboards {
    /// Holds the keyboards open and watched; dropped, they close.
    _inner: Rc<Inner>,
}

struct Inner {
    /// The one device to read, if the config names one.
    only: Option<PathBuf>,
    keyboards: RefCell<Vec<Keyboard>>,
    on_change: OnChange<Leds>,
    /// What was last told (`None` inside: no keyboard); `None` before the first.
    told: RefCell<Option<Option<Leds>>>,
    monitor: RefCell<Option<gio::FileMonitor>>,
    /// The permission note is written once.
    denied_noted: Cell<bool>,
}

impl Watch<Leds> for Keyboards {
    fn start(settings: &KeyboardChoice, on_change: OnChange<Leds>) -> Option<Keyboards> {
        let inner = Rc::new(Inner {
            only: settings.device_path.as_ref().map(PathBuf::from),
            keyboards: RefCell::new(Vec::new()),
            on_change,
            told: RefCell::new(None),
            monitor: RefCell::new(None),
            denied_noted: Cell::new(false),
        });
        *inner.monitor.borrow_mut() = watch_folder(Rc::downgrade(&inner));
        let mut denied = None;
        for path in inner.candidates() {
            if let Err(Errno::ACCESS) = Inner::add(&inner, &path) {
                denied.get_or_insert(path);
            }
        }
        if inner.keyboards.borrow().is_empty() {
            match denied {
                Some(path) => inner.note_denied(&path),
                None => tracing::info!(
                    "keyboard-state: no keyboard with Num, Caps and Scroll Lock LEDs in {}; hidden until one appears",
                    inner.only.as_deref().unwrap_or(Path::new(INPUT)).display()
                ),
            }
        }
        inner.tell();
        Some(Keyboards { _inner: inner })
    }
}

impl Drop for Inner {
    fn drop(&mut self) {
        for keyboard in self.keyboards.get_mut().drain(..) {
            if let Some(watch) = keyboard.watch {
                watch.remove();
            }
        }
        if let Some(monitor) = self.monitor.get_mut().take() {
            monitor.cancel();
        }
    }
}

impl Inner {
    /// The event nodes to try, in the kernel's order: the configured one, or all.
    fn candidates(&self) -> Vec<PathBuf> {
        if let Some(only) = &self.only {
            return vec![only.clone()];
        }
        let Ok(entries) = std::fs::read_dir(INPUT) else {
            return Vec::new();
        };
        let mut nodes: Vec<(u32, PathBuf)> = entries
            .flatten()
            .filter_map(|entry| {
                let name = entry.file_name();
                let number = name.to_str()?.strip_prefix("event")?.parse().ok()?;
                Some((number, entry.path()))
            })
            .collect();
        nodes.sort();
        nodes.into_iter().map(|(_, path)| path).collect()
    }

    /// Whether the config lets the source read `path`.
    fn wants(&self, path: &Path) -> bool {
        match &self.only {
            Some(only) => only == path,
            None => path
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("event")),
        }
    }

    /// Opens `path` and follows it if it is a keyboard with the three LEDs (not yet
    /// followed). `Err` when it cannot be opened.
    fn add(this: &Rc<Inner>, path: &Path) -> Result<(), Errno> {
        let mut keyboards = this.keyboards.borrow_mut();
        if keyboards.len() >= MAX_KEYBOARDS || keyboards.iter().any(|k| k.path == path) {
            return Ok(());
        }
        let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC;
        let fd = rustix::fs::open(path, flags, Mode::empty())?;
        if leds_present(&fd).unwrap_or(0) & THREE_LOCKS != THREE_LOCKS {
            return Ok(());
        }
        if let Err(err) = only_led_events(&fd) {
            tracing::debug!("keyboard-state: {}: EVIOCSMASK: {err}", path.display());
        }
        let name = device_name(&fd);
        tracing::info!("keyboard-state: reading {} ({name:?})", path.display());
        let weak = Rc::downgrade(this);
        let watched = path.to_owned();
        let condition = glib::IOCondition::IN | glib::IOCondition::HUP | glib::IOCondition::ERR;
        let watch = glib_unix::unix_fd_add_local(fd.as_raw_fd(), condition, move |_, _| match weak
            .upgrade()
        {
            Some(inner) => inner.on_readable(&watched),
            None => glib::ControlFlow::Break,
        });
        keyboards.push(Keyboard {
            path: path.to_owned(),
            name,
            fd,
            watch: Some(watch),
        });
        Ok(())
    }

    /// Reads what `path` has; forgets it when it is gone.
    fn on_readable(&self, path: &Path) -> glib::ControlFlow {
        let mut gone = false;
        if let Some(keyboard) = self.keyboards.borrow().iter().find(|k| k.path == path) {
            // What came is only LED events; the state is asked for whole below.
            let mut events = [0u8; 24 * 16];
            loop {
                match rustix::io::read(&keyboard.fd, &mut events) {
                    Ok(0) => break,
                    Ok(_) => {}
                    Err(Errno::AGAIN | Errno::INTR) => break,
                    Err(_) => {
                        gone = true;
                        break;
                    }
                }
            }
        }
        if gone {
            tracing::info!("keyboard-state: {} is gone", path.display());
            let mut keyboards = self.keyboards.borrow_mut();
            // The watch ends by returning `Break`: it is not removed again.
            keyboards.retain(|k| k.path != path);
        }
        self.tell();
        match gone {
            true => glib::ControlFlow::Break,
            false => glib::ControlFlow::Continue,
        }
    }

    /// Stops reading `path` (its node was deleted).
    fn remove(&self, path: &Path) {
        let mut keyboards = self.keyboards.borrow_mut();
        if let Some(at) = keyboards.iter().position(|k| k.path == path) {
            tracing::info!("keyboard-state: {} is gone", path.display());
            if let Some(watch) = keyboards.remove(at).watch {
                watch.remove();
            }
        }
    }

    /// Tells the LEDs of the keyboards read, if they changed.
    fn tell(&self) {
        let state = {
            let keyboards = self.keyboards.borrow();
            (!keyboards.is_empty()).then(|| {
                let bits = keyboards
                    .iter()
                    .fold(0, |bits, k| bits | led_state(&k.fd).unwrap_or(0));
                Leds {
                    keyboards: keyboards.iter().map(|k| k.name.clone()).collect(),
                    ..Leds::from_bits(bits)
                }
            })
        };
        if self.told.borrow().as_ref() == Some(&state) {
            return;
        }
        *self.told.borrow_mut() = Some(state.clone());
        (self.on_change)(state.as_ref());
    }

    fn note_denied(&self, path: &Path) {
        if !self.denied_noted.replace(true) {
            tracing::warn!(
                "keyboard-state: cannot read {}: permission denied; the user must be in the `input` group (`sudo usermod -aG input $USER`, then log in again); hidden until then",
                path.display()
            );
        }
    }
}

/// Watches `/dev/input` for keyboards that appear, become readable or go.
fn watch_folder(inner: Weak<Inner>) -> Option<gio::FileMonitor> {
    let folder = gio::File::for_path(INPUT);
    let monitor = folder
        .monitor_directory(gio::FileMonitorFlags::NONE, None::<&gio::Cancellable>)
        .ok()?;
    monitor.connect_changed(move |_, file, _, event| {
        let (Some(inner), Some(path)) = (inner.upgrade(), file.path()) else {
            return;
        };
        if !inner.wants(&path) {
            return;
        }
        match event {
            gio::FileMonitorEvent::Created | gio::FileMonitorEvent::AttributeChanged => {
                if let Err(Errno::ACCESS) = Inner::add(&inner, &path) {
                    if inner.keyboards.borrow().is_empty() {
                        inner.note_denied(&path);
                    }
                }
            }
            gio::FileMonitorEvent::Deleted => inner.remove(&path),
            _ => return,
        }
        inner.tell();
    });
    Some(monitor)
}

/// `EVIOCGBIT(EV_LED)`: which LEDs the device has. (The kernel's bitmaps are arrays of
/// longs; the three locks are the low bits of the first 64, on any little-endian or
/// 64-bit machine.)
fn leds_present(fd: impl AsFd) -> Result<u64, Errno> {
    let mut bits: [u64; 1] = [0];
    // SAFETY: EVIOCGBIT writes at most the buffer's size, which its opcode carries,
    // into the buffer.
    unsafe {
        ioctl::ioctl(
            fd,
            ioctl::Updater::<{ opcode::read::<[u64; 1]>(b'E', 0x20 + EV_LED) }, _>::new(&mut bits),
        )?;
    }
    Ok(bits[0])
}

/// `EVIOCGLED`: which LEDs are on.
fn led_state(fd: impl AsFd) -> Result<u64, Errno> {
    let mut bits: [u64; 1] = [0];
    // SAFETY: EVIOCGLED writes at most the buffer's size, which its opcode carries, into
    // the buffer.
    unsafe {
        ioctl::ioctl(
            fd,
            ioctl::Updater::<{ opcode::read::<[u64; 1]>(b'E', 0x19) }, _>::new(&mut bits),
        )?;
    }
    Ok(bits[0])
}

/// `EVIOCSMASK` of event types: only LED events (and the kernel's own sync events,
/// which are never masked) reach this reader.
fn only_led_events(fd: impl AsFd) -> Result<(), Errno> {
    let types: [c_ulong; 1] = [1 << EV_LED];
    let mask = InputMask {
        kind: 0,
        codes_size: std::mem::size_of_val(&types) as u32,
        codes_ptr: types.as_ptr() as u64,
    };
    // SAFETY: EVIOCSMASK reads a `struct input_mask`, and `codes_size` bytes at
    // `codes_ptr`, which point into `types`, alive for the call.
    unsafe {
        ioctl::ioctl(
            fd,
            ioctl::Setter::<{ opcode::write::<InputMask>(b'E', 0x93) }, _>::new(mask),
        )
    }
}

/// `EVIOCGNAME`: the device's name as its driver gives it.
fn device_name(fd: impl AsFd) -> String {
    let mut name = [0u8; NAME_BYTES];
    // SAFETY: EVIOCGNAME writes at most the buffer's size, which its opcode carries, into
    // the buffer.
    let asked = unsafe {
        ioctl::ioctl(
            fd,
            ioctl::Updater::<{ opcode::read::<[u8; NAME_BYTES]>(b'E', 0x06) }, _>::new(&mut name),
        )
    };
    if asked.is_err() {
        return String::new();
    }
    let end = name.iter().position(|b| *b == 0).unwrap_or(NAME_BYTES);
    String::from_utf8_lossy(&name[..end]).into_owned()
}
