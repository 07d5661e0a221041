//! Giving memory back after a burst of windows (a hotplug storm builds and drops a bar's
//! widgets, about half a megabyte each, many at once) and after start-up.
//!
//! Two things keep that memory after the windows are gone. GLib before 2.76 hands
//! GObjects out of its slice allocator, whose caches keep freed chunks for good (here about
//! 3 MiB after 100 outputs came and went); 2.76 dropped it for malloc, and
//! `G_SLICE=always-malloc` does the same on older GLib. And malloc keeps freed pages in its
//! heap until asked to trim it.

use std::cell::Cell;
use std::ffi::OsString;
use std::os::unix::process::CommandExt;
use std::time::Duration;

use gtk4::glib;

/// The variable GLib reads, once, the first time it allocates: in a library constructor,
/// before `main`. So it takes a new start of the program to set it.
const SLICE_VARIABLE: &str = "G_SLICE";

/// Starts the bar again with GLib's slice allocator turned off, where the GLib in use has
/// one and the user has not set it. Call before any thread starts. Returns only when it
/// did not start again (a new GLib, a set variable, or exec failing).
pub fn start_without_slice_allocator() {
    if std::env::var_os(SLICE_VARIABLE).is_some() || glib::check_version(2, 76, 0).is_none() {
        return;
    }
    // The running file, not /proc/self/exe: the kernel names the process after the path
    // it executes, and `ringbar` must stay `ringbar` in ps and in the bar's own top list.
    let Ok(program) = std::env::current_exe() else {
        return;
    };
    if !program.exists() {
        return; // replaced by an upgrade: run on, rather than start another version
    }
    let mut args = std::env::args_os();
    let arg0 = args.next().unwrap_or_else(|| OsString::from("ringbar"));
    let err = std::process::Command::new(&program)
        .arg0(arg0)
        .args(args)
        .env(SLICE_VARIABLE, "always-malloc")
        .exec();
    eprintln!("ringbar: starting again without GLib's slice allocator: {err}");
}

/// How long after a window's end the heap is trimmed: windows go in bursts (a dock
/// unplugged, a storm of outputs), and one trim after the burst is enough.
const TRIM_DELAY: Duration = Duration::from_secs(1);

thread_local! {
    static TRIM_PENDING: Cell<bool> = const { Cell::new(false) };
}

/// Gives malloc's free pages back to the system a moment from now, once for a burst of
/// calls. On the main loop.
pub fn trim_soon() {
    if TRIM_PENDING.with(|pending| pending.replace(true)) {
        return;
    }
    glib::timeout_add_local_once(TRIM_DELAY, || {
        TRIM_PENDING.with(|pending| pending.set(false));
        trim();
    });
}

/// [`trim`] now, and logs (at debug) how much of the process's resident memory it gave
/// back, as the kernel counts it; `after` says what it followed.
pub fn trim_after(after: &str) {
    let before = resident_kib();
    trim();
    if let (Some(before), Some(now)) = (before, resident_kib()) {
        tracing::debug!(
            "heap trimmed after {after}: {} KiB given back",
            before.saturating_sub(now)
        );
    }
}

/// This process's resident memory in KiB (`/proc/self/statm`'s second field, in pages).
fn resident_kib() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_ascii_whitespace().nth(1)?.parse().ok()?;
    Some(pages * (rustix::param::page_size() as u64 / 1024))
}

/// Gives malloc's free pages back to the system now (every thread's arena: a thread that
/// ended leaves its arena's freed memory resident until then).
#[cfg(target_env = "gnu")]
pub fn trim() {
    // SAFETY: malloc_trim takes no pointers and only returns free pages of the heap.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(not(target_env = "gnu"))]
pub fn trim() {}
