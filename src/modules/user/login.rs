//! The login source's client: the bar's user (its account's name and home, from the
//! system's user database) and the boot instant (the wall clock less CLOCK_BOOTTIME,
//! which counts suspended time too), read once at the start.

use gtk4::glib;

use super::Login;
use crate::events::source::{OnChange, Watch};

/// Says the login once; nothing to follow after that.
pub struct LoginWatch;

impl Watch<Login> for LoginWatch {
    fn start(_: &(), on_change: OnChange<Login>) -> Option<LoginWatch> {
        let (user, home) = account();
        let boot_unix_ms = boot_unix_ms();
        let boot_local = glib::DateTime::from_unix_local((boot_unix_ms / 1000) as i64)
            .map(|t| {
                (
                    t.year(),
                    t.month() as u32,
                    t.day_of_month() as u32,
                    t.hour() as u32,
                    t.minute() as u32,
                )
            })
            .unwrap_or((1970, 1, 1, 0, 0));
        on_change(Some(&Login {
            user,
            home,
            boot_unix_ms,
            boot_local,
        }));
        Some(LoginWatch)
    }
}

/// The milliseconds since the epoch at which the system booted.
fn boot_unix_ms() -> u64 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    let up = rustix::time::clock_gettime(rustix::time::ClockId::Boottime);
    let up_ms = up.tv_sec as u64 * 1000 + up.tv_nsec as u64 / 1_000_000;
    now.saturating_sub(up_ms)
}

/// The bar's account's login name and home, from the user database (NSS: a directory
/// service's users too); the uid and `$HOME` where it has none.
fn account() -> (String, String) {
    let uid = rustix::process::getuid().as_raw();
    let home = std::env::var("HOME").unwrap_or_default();
    let mut entry = std::mem::MaybeUninit::<libc::passwd>::uninit();
    let mut buffer = vec![0 as libc::c_char; 4096];
    let mut found: *mut libc::passwd = std::ptr::null_mut();
    // SAFETY: getpwuid_r writes into `entry` and `buffer`, which outlive the call and
    // whose sizes are given; `found` points to `entry` or is null. rustix has no
    // user-database call.
    let status = unsafe {
        libc::getpwuid_r(
            uid,
            entry.as_mut_ptr(),
            buffer.as_mut_ptr(),
            buffer.len(),
            &mut found,
        )
    };
    if status != 0 || found.is_null() {
        return (uid.to_string(), home);
    }
    // SAFETY: `found` is non-null, so getpwuid_r filled `entry`; its strings point into
    // `buffer`, alive here, and are NUL-terminated.
    let (name, dir) = unsafe {
        let entry = entry.assume_init_ref();
        (
            std::ffi::CStr::from_ptr(entry.pw_name)
                .to_string_lossy()
                .into_owned(),
            std::ffi::CStr::from_ptr(entry.pw_dir)
                .to_string_lossy()
                .into_owned(),
        )
    };
    (name, if dir.is_empty() { home } else { dir })
}
