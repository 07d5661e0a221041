//! `signal: N`: SIGRTMIN+N sent to ringbar refreshes a module, as in Waybar. GLib's unix
//! signal sources take only SIGHUP, SIGINT, SIGTERM, SIGUSR1, SIGUSR2 and SIGWINCH, so
//! realtime signals come through a self-pipe: a process-wide `sigaction` handler writes a
//! byte into the pipe of every subscription to that signal, and each subscription watches
//! its pipe's read end on its module's main context. A handler (unlike `signalfd`) works
//! whichever thread the kernel picks, without blocking the signal in GTK's threads.
//!
//! The pipes live in a fixed table and are never closed, so the handler can never write
//! into a descriptor that was closed and reused; a free slot's pipe is drained when it is
//! taken again.

use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Mutex;

use gtk4::glib::{self, thread_guard::ThreadGuard, ControlFlow, IOCondition, Priority};

/// How many subscriptions may exist at once (modules with a `signal`).
const SLOTS: usize = 32;

struct Slot {
    read: AtomicI32,
    write: AtomicI32,
    /// The signal number whose handler writes here; 0 while the slot is free.
    signal: AtomicI32,
}

static TABLE: [Slot; SLOTS] = [const {
    Slot {
        read: AtomicI32::new(-1),
        write: AtomicI32::new(-1),
        signal: AtomicI32::new(0),
    }
}; SLOTS];

/// Which slots are taken and which signals have our handler; taken only outside the handler.
struct Registry {
    taken: [bool; SLOTS],
    /// Bit n: signal number n has the handler.
    installed: u128,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    taken: [false; SLOTS],
    installed: 0,
});

/// Refreshes on SIGRTMIN+N while it lives.
pub struct Subscription {
    slot: usize,
    source: glib::Source,
}

/// SIGRTMIN+`offset`, if the system has it (1 ≤ offset ≤ SIGRTMAX − SIGRTMIN).
pub fn realtime_signal(offset: u8) -> Option<i32> {
    let signal = libc::SIGRTMIN() + i32::from(offset);
    (offset >= 1 && signal <= libc::SIGRTMAX()).then_some(signal)
}

/// Calls `on_signal` on `context` after SIGRTMIN+`offset` arrives (several at once count
/// once).
pub fn subscribe(
    offset: u8,
    context: &glib::MainContext,
    on_signal: impl Fn() + 'static,
) -> Result<Subscription, String> {
    let signal = realtime_signal(offset).ok_or_else(|| {
        let max = libc::SIGRTMAX() - libc::SIGRTMIN();
        format!("signal {offset} is out of range (1 to {max})")
    })?;
    let mut registry = REGISTRY.lock().map_err(|_| "signal registry poisoned")?;
    let slot = registry
        .taken
        .iter()
        .position(|taken| !taken)
        .ok_or("too many modules with a signal")?;
    let read = slot_pipe(slot)?;
    drain(read);
    if registry.installed & (1 << signal) == 0 {
        install_handler(signal)?;
        registry.installed |= 1 << signal;
    }
    registry.taken[slot] = true;
    TABLE[slot].signal.store(signal, Ordering::SeqCst);
    drop(registry);

    let on_signal = ThreadGuard::new(on_signal);
    let condition = IOCondition::IN | IOCondition::HUP | IOCondition::ERR;
    let source =
        glib_unix::fd_source_new(read, condition, None, Priority::DEFAULT, move |fd, _| {
            drain(fd);
            (on_signal.get_ref())();
            ControlFlow::Continue
        });
    source.attach(Some(context));
    Ok(Subscription { slot, source })
}

impl Drop for Subscription {
    fn drop(&mut self) {
        self.source.destroy();
        TABLE[self.slot].signal.store(0, Ordering::SeqCst);
        if let Ok(mut registry) = REGISTRY.lock() {
            registry.taken[self.slot] = false;
        }
    }
}

/// The read end of the slot's pipe, made on first use (non-blocking, close-on-exec).
fn slot_pipe(slot: usize) -> Result<i32, String> {
    let entry = &TABLE[slot];
    let read = entry.read.load(Ordering::SeqCst);
    if read >= 0 {
        return Ok(read);
    }
    use rustix::pipe::{pipe_with, PipeFlags};
    use std::os::fd::IntoRawFd;
    let (read, write) = pipe_with(PipeFlags::CLOEXEC | PipeFlags::NONBLOCK)
        .map_err(|err| format!("pipe: {err}"))?;
    // Kept open for the life of the process: the handler may write at any time.
    let (read, write) = (read.into_raw_fd(), write.into_raw_fd());
    entry.read.store(read, Ordering::SeqCst);
    entry.write.store(write, Ordering::SeqCst);
    Ok(read)
}

/// Reads everything waiting in the pipe.
fn drain(fd: i32) {
    let mut buf = [0u8; 64];
    // SAFETY: `fd` is a pipe of the table, never closed.
    let fd = unsafe { std::os::fd::BorrowedFd::borrow_raw(fd) };
    while matches!(rustix::io::read(fd, &mut buf), Ok(n) if n > 0) {}
}

/// Catches every realtime signal, so that one sent to ringbar that no module subscribed to
/// (Waybar users send `pkill -RTMIN+N` to their bars) does nothing instead of killing it:
/// the handler finds no pipe to write to. Unlike `SIG_IGN`, a caught signal is back to its
/// default in the programs ringbar starts. Call it once, early, in every mode.
pub fn catch_realtime_signals() {
    let Ok(mut registry) = REGISTRY.lock() else {
        return;
    };
    for signal in libc::SIGRTMIN()..=libc::SIGRTMAX() {
        if registry.installed & (1 << signal) != 0 {
            continue;
        }
        match install_handler(signal) {
            Ok(()) => registry.installed |= 1 << signal,
            Err(err) => tracing::warn!("cannot catch signal {signal}: {err}"),
        }
    }
}

/// libc: rustix has no call to install a signal handler.
fn install_handler(signal: i32) -> Result<(), String> {
    // SAFETY: an all-zero sigaction is a valid value to fill in.
    let mut action: libc::sigaction = unsafe { std::mem::zeroed() };
    action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
    action.sa_flags = libc::SA_RESTART;
    // SAFETY: `action.sa_mask` is a valid sigset_t to initialise; `action` is fully set and
    // the handler below only does async-signal-safe work.
    let rc = unsafe {
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(signal, &action, std::ptr::null_mut())
    };
    match rc {
        0 => Ok(()),
        _ => Err(format!("sigaction: {}", std::io::Error::last_os_error())),
    }
}

/// The handler: one byte into each subscribed pipe. Only atomics and `write`, and errno is
/// kept as it was.
extern "C" fn on_signal(signal: libc::c_int) {
    // SAFETY: __errno_location returns this thread's errno, valid for the thread's life.
    let errno = unsafe { *libc::__errno_location() };
    for slot in &TABLE {
        if slot.signal.load(Ordering::SeqCst) == signal {
            let fd = slot.write.load(Ordering::SeqCst);
            if fd >= 0 {
                // SAFETY: `fd` is a pipe of the table and never closed; one byte from the
                // stack. A full pipe (EAGAIN) already holds a wake-up.
                unsafe { libc::write(fd, [1u8].as_ptr().cast(), 1) };
            }
        }
    }
    // SAFETY: as above.
    unsafe { *libc::__errno_location() = errno };
}
