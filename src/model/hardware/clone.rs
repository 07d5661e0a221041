//! `Clone` by hand for the sensors' readings: a derived `clone_from` clones the whole
//! value and drops the old one, allocating, where these copy into the strings and lists
//! the target already has. The sample's hand-over to the main loop relies on it.
//! Destructured, so that a new field must be added here.

use super::{Gpu, Hardware};

impl Clone for Gpu {
    fn clone(&self) -> Self {
        Gpu {
            card: self.card.clone(),
            driver: self.driver,
            pci_slot: self.pci_slot.clone(),
            model: self.model.clone(),
            reading: self.reading,
            processes: self.processes,
        }
    }

    fn clone_from(&mut self, source: &Self) {
        let Gpu {
            card,
            driver,
            pci_slot,
            model,
            reading,
            processes,
        } = source;
        self.card.clone_from(card);
        self.driver = *driver;
        self.pci_slot.clone_from(pci_slot);
        self.model.clone_from(model);
        self.reading = *reading;
        // Fixed-size rows: a plain copy.
        self.processes = *processes;
    }
}

impl Clone for Hardware {
    fn clone(&self) -> Self {
        let mut hardware = Hardware::default();
        hardware.clone_from(self);
        hardware
    }

    fn clone_from(&mut self, source: &Self) {
        let Hardware {
            cpu,
            gpus,
            configured_gpu,
            swap,
            power_profile,
            power_profile_choices,
        } = source;
        self.cpu = *cpu;
        // Vec::clone_from calls the elements' clone_from on the ones both have.
        self.gpus.clone_from(gpus);
        self.configured_gpu = *configured_gpu;
        self.swap = *swap;
        self.power_profile.clone_from(power_profile);
        self.power_profile_choices.clone_from(power_profile_choices);
    }
}
