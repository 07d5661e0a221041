//! The names of the history's culprits, each kept once. A bucket holds a one-byte slot
//! number instead of a 32-byte name, so that ten minutes of culprits under the names the
//! lists show (`qemu-system-x86_64`, not the kernel's 15-byte `qemu-system-x86`) fit the
//! ring's budget. Rarely do more than a few dozen names take turns at the top; past
//! [`SLOTS`] of them, a name no bucket refers to any more gives its slot up first.

use super::{Bucket, Culprit, History, SECONDS};
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

/// A culprit as a bucket keeps it: its name is a slot of the history's [`Names`].
#[derive(Clone, Copy, Debug)]
pub(super) struct Kept {
    pub(super) pid: u32,
    pub(super) slot: u8,
}

impl Kept {
    pub(super) const NONE: Kept = Kept { pid: 0, slot: 0 };
}

/// Culprits into and out of the name table.
impl History {
    /// The culprit with its name in a slot of the name table.
    pub(super) fn keep(&mut self, culprit: &Culprit) -> Kept {
        if culprit.is_none() {
            return Kept::NONE;
        }
        let slot = match self.names.find(&culprit.name) {
            Some(slot) => slot,
            None => {
                let buckets = &self.buckets;
                let (slot, evicted) = self.names.insert(culprit.name, || slots_in_use(buckets));
                if evicted {
                    self.forget_slot(slot);
                }
                slot
            }
        };
        Kept {
            pid: culprit.pid,
            slot,
        }
    }

    /// The buckets that named the slot's previous name no longer name a culprit.
    fn forget_slot(&mut self, slot: u8) {
        for kept in self.buckets.iter_mut().flat_map(|b| b.culprits.iter_mut()) {
            if kept.pid != 0 && kept.slot == slot {
                *kept = Kept::NONE;
            }
        }
    }

    pub(super) fn culprit(&self, kept: Kept) -> Culprit {
        if kept.pid == 0 {
            return Culprit::NONE;
        }
        Culprit {
            pid: kept.pid,
            name: *self.names.get(kept.slot),
        }
    }
}

/// Which name slots some bucket refers to.
fn slots_in_use(buckets: &[Bucket; SECONDS]) -> InUse {
    let mut in_use = [false; SLOTS];
    for kept in buckets.iter().flat_map(|b| b.culprits.iter()) {
        if kept.pid != 0 {
            in_use[usize::from(kept.slot)] = true;
        }
    }
    in_use
}
