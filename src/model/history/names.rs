//! The names of the history's culprits, each kept once. A bucket holds a one-byte slot
//! number instead of a 32-byte name, so that ten minutes of culprits under the names the
//! lists show (`qemu-system-x86_64`, not the kernel's 15-byte `qemu-system-x86`) fit the
//! ring's budget. Rarely do more than a few dozen names take turns at the top; past
//! [`SLOTS`] of them, a name no bucket refers to any more gives its slot up first.

use crate::model::app::Label;

/// Distinct culprit names kept at once.
pub const SLOTS: usize = 128;

/// Which slots the ring still refers to.
pub type InUse = [bool; SLOTS];

#[derive(Clone)]
pub struct Names {
    names: [Label; SLOTS],
    filled: usize,
    /// The slot given up next when every slot is still referred to.
    next_evicted: usize,
}

impl Default for Names {
    fn default() -> Self {
        Names {
            names: [Label::default(); SLOTS],
            filled: 0,
            next_evicted: 0,
        }
    }
}

impl Names {
    pub fn get(&self, slot: u8) -> &Label {
        &self.names[usize::from(slot)]
    }

    pub fn find(&self, name: &Label) -> Option<u8> {
        let slot = self.names[..self.filled].iter().position(|n| n == name)?;
        Some(slot as u8)
    }

    /// Puts `name` in a slot: a free one, else one the ring no longer refers to
    /// (`in_use` is asked only when every slot is taken), else the next in turn. Returns
    /// the slot and whether it was taken from a name the ring still refers to (the caller
    /// then forgets those references).
    pub fn insert(&mut self, name: Label, in_use: impl FnOnce() -> InUse) -> (u8, bool) {
        let (slot, evicted) = if self.filled < SLOTS {
            self.filled += 1;
            (self.filled - 1, false)
        } else {
            match in_use().iter().position(|used| !used) {
                Some(free) => (free, false),
                None => {
                    let slot = self.next_evicted;
                    self.next_evicted = (slot + 1) % SLOTS;
                    (slot, true)
                }
            }
        };
        self.names[slot] = name;
        (slot as u8, evicted)
    }

    pub fn clear(&mut self) {
        self.filled = 0;
        self.next_evicted = 0;
    }
}

const _: () = assert!(SLOTS <= 256, "a slot number is one byte");
