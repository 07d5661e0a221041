//! Starting an event source: one place that knows how each [`Source`] starts, where its
//! state goes in [`Events`], and how a [`Command`] reaches it. The bar and `--once` both
//! start sources through [`start`].

use std::cell::RefCell;
use std::rc::Rc;

use crate::events::audio::pulse::AudioWatch;
use crate::events::backlight::watch::BacklightWatch;
use crate::events::bluetooth::bluez::BluetoothWatch;
use crate::events::capture::pipewire::CaptureWatch;
use crate::events::idle_inhibitor::IdleInhibitor;
use crate::events::media::mpris::MediaWatch;
use crate::events::network::netlink::NetworkWatch;
use crate::events::power_profiles::dbus::PowerProfilesWatch;
use crate::events::{Command, Source};
use crate::modules::Events;

/// A running source; dropping it stops it.
pub trait Watch {
    /// Carries out a click's command meant for this source.
    fn command(&self, _command: &Command) {}
}

/// What a source calls after it wrote its state into [`Events`]: also once when it
/// finds its service absent, so that `--once` need not wait for it.
pub type Changed = Rc<dyn Fn()>;

/// Starts `source`; `None` (after one log line) when it cannot run at all.
pub fn start(
    source: Source,
    events: &Rc<RefCell<Events>>,
    changed: Changed,
) -> Option<Box<dyn Watch>> {
    let events = events.clone();
    match source {
        Source::Network => {
            let on_change = move |state: &crate::events::network::NetworkState| {
                events.borrow_mut().network = Some(state.clone());
                changed();
            };
            match NetworkWatch::start(on_change) {
                Ok(watch) => Some(Box::new(watch)),
                Err(err) => {
                    tracing::warn!("network: cannot follow rtnetlink, not shown: {err}");
                    None
                }
            }
        }
        Source::Audio => {
            let on_change = move |state: Option<&crate::events::audio::AudioState>| {
                events.borrow_mut().audio = state.cloned();
                changed();
            };
            AudioWatch::start(on_change).map(|watch| Box::new(watch) as Box<dyn Watch>)
        }
        Source::Bluetooth => {
            let on_change = move |state: Option<&crate::events::bluetooth::BluetoothState>| {
                events.borrow_mut().bluetooth = state.cloned();
                changed();
            };
            Some(Box::new(BluetoothWatch::start(on_change)))
        }
        Source::PowerProfiles => {
            let on_change = move |state: Option<&crate::events::power_profiles::PowerProfiles>| {
                events.borrow_mut().power_profiles = state.cloned();
                changed();
            };
            Some(Box::new(PowerProfilesWatch::start(on_change)))
        }
        Source::Media => {
            let on_change = move |state: Option<&crate::events::media::MediaState>| {
                events.borrow_mut().media = state.cloned();
                changed();
            };
            Some(Box::new(MediaWatch::start(on_change)))
        }
        Source::IdleInhibitor => {
            let on_change = move |on: Option<bool>| {
                events.borrow_mut().idle_inhibitor = on;
                changed();
            };
            Some(Box::new(IdleInhibitor::start(on_change)))
        }
        Source::Backlight => {
            let on_change = move |state: Option<&crate::events::backlight::BacklightState>| {
                events.borrow_mut().backlight = state.cloned();
                changed();
            };
            Some(Box::new(BacklightWatch::start(on_change)))
        }
        Source::Capture => {
            let on_change = move |state: Option<&crate::events::capture::CaptureState>| {
                events.borrow_mut().capture = state.cloned();
                changed();
            };
            CaptureWatch::start(on_change).map(|watch| Box::new(watch) as Box<dyn Watch>)
        }
    }
}

impl Watch for CaptureWatch {}

impl Watch for NetworkWatch {}

impl Watch for AudioWatch {
    fn command(&self, command: &Command) {
        if let Command::Audio(command) = command {
            AudioWatch::command(self, *command);
        }
    }
}

impl Watch for BluetoothWatch {
    fn command(&self, command: &Command) {
        if let Command::Bluetooth(command) = command {
            BluetoothWatch::command(self, *command);
        }
    }
}

impl Watch for PowerProfilesWatch {
    fn command(&self, command: &Command) {
        if let Command::PowerProfile(command) = command {
            PowerProfilesWatch::command(self, *command);
        }
    }
}

impl Watch for MediaWatch {
    fn command(&self, command: &Command) {
        if let Command::Media(command) = command {
            MediaWatch::command(self, command);
        }
    }
}

impl Watch for IdleInhibitor {
    fn command(&self, command: &Command) {
        if let Command::ToggleIdleInhibitor = command {
            self.toggle();
        }
    }
}

impl Watch for BacklightWatch {
    fn command(&self, command: &Command) {
        if let Command::Backlight(command) = command {
            BacklightWatch::command(self, command);
        }
    }
}
