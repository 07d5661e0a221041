//! The bar and its tray: the first bar with a `tray` module starts the tray's
//! StatusNotifierHost; every bar's tray box is shown by it; a change redraws the modules
//! of the bus.

use std::rc::Rc;

use gtk4 as gtk;

use super::app::App;
use super::tray::TrayHost;
use crate::modules::{TraySettings, Update};

impl App {
    /// Puts a bar's tray box under the tray host, starting the host on first use.
    pub(super) fn attach_tray(self: &Rc<Self>, container: &gtk::Box, settings: &TraySettings) {
        let host = self
            .tray
            .borrow_mut()
            .get_or_insert_with(|| {
                let app = Rc::downgrade(self);
                TrayHost::start(Box::new(move || {
                    if let Some(app) = app.upgrade() {
                        app.render_where(|update| update == Update::Bus);
                    }
                }))
            })
            .clone();
        host.attach(container, settings);
    }
}
