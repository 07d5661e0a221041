//! The system tray's pure core: what the StatusNotifierItem and `com.canonical.dbusmenu`
//! D-Bus interfaces send, checked and turned into plain values. Everything here is
//! untrusted input from other programs, so every size, count and depth is bounded.
//! The D-Bus edge that fetches these values lives in `ui::tray` (feature `app`).

pub mod address;
pub mod item;
pub mod menu;
pub mod pixmap;

pub use address::{session_bus_address, ItemAddress};
pub use item::{ItemState, Status};
pub use menu::{MenuBudget, MenuEntry, Toggle};
pub use pixmap::{Pixmap, PixmapError};
