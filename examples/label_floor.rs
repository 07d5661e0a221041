//! Benchmark helper: the least a GTK4 bar can cost. A layer-shell window across the top
//! of the screen, `HEIGHT` pixels high, with one label that shows the time and is set
//! every `INTERVAL_MS`, drawn with the cairo renderer as ringbar draws
//! (`GSK_RENDERER=cairo`). Nothing else: no config, no CSS, no IPC.
//!
//! `label_floor HEIGHT INTERVAL_MS`. Run with WAYLAND_DISPLAY and XDG_RUNTIME_DIR of the
//! compositor.

use std::time::Duration;

use gtk4 as gtk;
use gtk4::glib;
use gtk4::prelude::*;
use gtk4_layer_shell::{Edge, LayerShell};

fn now() -> String {
    glib::DateTime::now_local()
        .and_then(|time| time.format("FLOOR %H:%M:%S"))
        .map(|text| text.to_string())
        .unwrap_or_default()
}

fn main() -> glib::ExitCode {
    let height: i32 = std::env::args()
        .nth(1)
        .and_then(|h| h.parse().ok())
        .unwrap_or(26);
    let interval_ms: u64 = std::env::args()
        .nth(2)
        .and_then(|ms| ms.parse().ok())
        .unwrap_or(1000);
    if std::env::var_os("GSK_RENDERER").is_none() {
        std::env::set_var("GSK_RENDERER", "cairo");
    }
    let app = gtk::Application::builder()
        .application_id("dev.ringbar.LabelFloor")
        .flags(gtk::gio::ApplicationFlags::NON_UNIQUE)
        .build();
    app.connect_activate(move |app| {
        let window = gtk::ApplicationWindow::new(app);
        window.init_layer_shell();
        window.set_layer(gtk4_layer_shell::Layer::Top);
        for edge in [Edge::Top, Edge::Left, Edge::Right] {
            window.set_anchor(edge, true);
        }
        window.set_default_size(-1, height);
        window.auto_exclusive_zone_enable();
        let label = gtk::Label::new(Some(&now()));
        window.set_child(Some(&label));
        glib::timeout_add_local(Duration::from_millis(interval_ms), move || {
            label.set_text(&now());
            glib::ControlFlow::Continue
        });
        window.present();
    });
    app.run_with_args::<&str>(&[])
}
