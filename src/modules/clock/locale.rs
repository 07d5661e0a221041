//! Waybar's `locale` for the clock (`de_DE.UTF-8`): the day and month names and the
//! formats (`%c`, `%x`) of a language other than the session's. The clock's thread speaks
//! it while the clock formats (`uselocale`), and its own language again after.

use std::ffi::CString;

use serde::{Deserialize, Deserializer};

/// A locale the system has, loaded once.
pub struct Locale {
    /// The names and formats, with its character set, so that GLib reads them right
    /// whatever the session's is.
    handle: libc::locale_t,
}

impl Locale {
    /// `name` as `locale -a` lists it; an error for one the system lacks.
    pub fn new(name: &str) -> Result<Locale, String> {
        let missing = || format!("`{name}` is not a locale this system has (see `locale -a`)");
        // A path would be read as a locale file: only names.
        if name.is_empty() || name.contains('/') {
            return Err(missing());
        }
        let c_name = CString::new(name).map_err(|_| missing())?;
        let mask = libc::LC_TIME_MASK | libc::LC_CTYPE_MASK;
        // SAFETY: the name is a NUL-terminated string that lives across the call, and a
        // null base asks for a new locale object, which this value owns.
        let handle = unsafe { libc::newlocale(mask, c_name.as_ptr(), std::ptr::null_mut()) };
        match handle.is_null() {
            true => Err(missing()),
            false => Ok(Locale { handle }),
        }
    }

    /// The thread speaks this locale until the returned value drops.
    pub fn speak(&self) -> Spoken<'_> {
        // SAFETY: the handle is a live locale object (freed only when `self` drops, which
        // the borrow in `Spoken` forbids meanwhile).
        let previous = unsafe { libc::uselocale(self.handle) };
        Spoken {
            previous,
            _locale: self,
        }
    }
}

impl Drop for Locale {
    fn drop(&mut self) {
        // SAFETY: the handle came from newlocale and no thread uses it: `Spoken` borrows
        // `self`, so none is alive.
        unsafe { libc::freelocale(self.handle) };
    }
}

/// The clock's thread in a [`Locale`]; its own locale again when dropped.
pub struct Spoken<'a> {
    previous: libc::locale_t,
    _locale: &'a Locale,
}

impl Drop for Spoken<'_> {
    fn drop(&mut self) {
        // SAFETY: `previous` is what uselocale returned: the thread's locale before, a
        // live object or LC_GLOBAL_LOCALE.
        unsafe { libc::uselocale(self.previous) };
    }
}

/// `locale`: a name the system has, checked when the config is read.
pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Locale>, D::Error> {
    let name = String::deserialize(d)?;
    Locale::new(&name)
        .map(Some)
        .map_err(serde::de::Error::custom)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_locale_the_system_lacks_is_refused_by_name() {
        for name in ["xx_NOWHERE.UTF-8", "", "../../tmp/x", "de\0DE"] {
            let err = Locale::new(name).err().expect(name);
            assert!(err.contains("is not a locale this system has"), "{err}");
        }
        // Every glibc has these.
        for name in ["C", "POSIX", "C.UTF-8"] {
            assert!(Locale::new(name).is_ok(), "{name}");
        }
    }

    #[test]
    fn speaking_a_locale_ends_with_it() {
        let c = Locale::new("C.UTF-8").expect("C.UTF-8");
        // SAFETY: a null locale asks uselocale only for the thread's current one.
        let before = unsafe { libc::uselocale(std::ptr::null_mut()) };
        {
            let _spoken = c.speak();
            // SAFETY: as above.
            let now = unsafe { libc::uselocale(std::ptr::null_mut()) };
            assert_eq!(now, c.handle);
        }
        // SAFETY: as above.
        let after = unsafe { libc::uselocale(std::ptr::null_mut()) };
        assert_eq!(after, before);
    }
}
