//! The GTK edge: start-up order, the display, the main loop.
//!
//! Order matters: the probe is loaded while the process still holds CAP_BPF/CAP_PERFMON,
//! then every capability is dropped, and only then does GTK initialise.

mod app;
mod bar;
mod style;
mod test_hook;

use std::cell::Cell;
use std::process::ExitCode;
use std::rc::Rc;

use gtk4 as gtk;
use gtk4::prelude::*;
use gtk4::{gdk, gio, glib};

use crate::collector::Collector;
use crate::model::controls::Controls;
use crate::{config, paths, privileges, state};

/// Runs the bar until the compositor goes away.
pub fn run() -> ExitCode {
    let mut notices = Vec::new();
    let (config, config_error) = match paths::config_file() {
        Some(path) => config::load(&path),
        None => (config::Config::default(), None),
    };
    if let Some(err) = config_error {
        tracing::error!("config: {err}");
        notices.push(("config".to_owned(), err.to_string()));
    }
    let state_file = paths::state_file();
    let defaults = Controls {
        interval_ms: config.interval_ms,
        kernel_threads: config.kernel_threads,
    };
    let controls = state_file
        .as_deref()
        .map_or(defaults, |path| state::load(path, defaults));

    let (collector, probe_error) = Collector::new(controls.kernel_threads);
    if let Some(err) = probe_error {
        tracing::warn!("BPF probe off, reading /proc instead: {err}");
        notices.push((
            "BPF probe off".to_owned(),
            format!("{err} Until then the numbers come from /proc."),
        ));
    }

    match privileges::drop_all() {
        Ok(dropped) => tracing::debug!("capabilities dropped: {dropped:?}"),
        Err(err) => {
            // Never run the UI with privileges it should not have.
            tracing::error!("cannot drop privileges: {err}");
            return ExitCode::FAILURE;
        }
    }

    // The cairo renderer costs a sixth of the memory of GL on software rendering
    // (FACTS.md); a user's explicit GSK_RENDERER wins. No threads exist yet.
    if std::env::var_os("GSK_RENDERER").is_none() {
        std::env::set_var("GSK_RENDERER", "cairo");
    }
    if let Err(err) = gtk::init() {
        tracing::error!("cannot start GTK (no display?): {err}");
        return ExitCode::FAILURE;
    }
    gio::resources_register_include!("ringbar.gresource")
        .expect("the bundled GResource is valid: it was compiled by build.rs");
    let Some(display) = gdk::Display::default() else {
        tracing::error!("no display: is WAYLAND_DISPLAY set?");
        return ExitCode::FAILURE;
    };
    let _style = style::install(&display, paths::style_file());

    tracing::info!(
        "{} {}",
        controls.interval_line(),
        controls.kernel_threads_line()
    );
    let app = app::App::new(collector, controls, config, notices, state_file);
    let main_loop = glib::MainLoop::new(None, false);
    let exit_code = Rc::new(Cell::new(0u8));

    if is_wayland(&display) && gtk4_layer_shell::is_supported() {
        app.follow_monitors(&display);
    } else {
        tracing::warn!(
            "this display has no wlr-layer-shell (X11, or a compositor without it): \
             showing a plain window instead of a bar"
        );
        let window = app.add_fallback();
        let main_loop = main_loop.clone();
        window.connect_close_request(move |_| {
            main_loop.quit();
            glib::Propagation::Proceed
        });
    }
    {
        let (main_loop, exit_code) = (main_loop.clone(), exit_code.clone());
        display.connect_closed(move |_, is_error| {
            tracing::error!("the compositor went away (display closed): exiting");
            tracing::debug!("display closed, error: {is_error}");
            exit_code.set(1);
            main_loop.quit();
        });
    }
    app.start();
    main_loop.run();
    ExitCode::from(exit_code.get())
}

/// By type name: gdk4's `backend()` panics on backends it does not know.
fn is_wayland(display: &gdk::Display) -> bool {
    display.type_().name() == "GdkWaylandDisplay"
}
