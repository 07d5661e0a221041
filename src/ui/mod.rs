//! The GTK edge: start-up order, the display, the main loop.
//!
//! Order matters: the probe is loaded while the process still holds CAP_BPF/CAP_PERFMON,
//! then every capability is dropped, and only then does GTK initialise.

mod app;
mod bar;
mod bar_graph;
mod clip_bin;
mod config_watch;
mod group_box;
mod history_graph;
mod image_view;
mod inputs;
mod label_row;
pub(crate) mod module_menu;
mod outputs;
mod paced;
mod picture_label;
mod rotate_bin;
mod row_view;
mod shown_readings;
mod slot;
mod sources;
#[cfg(feature = "test-support")]
mod stall_meter;
mod style;
#[cfg(feature = "test-support")]
mod test_hook;
mod tray;
mod watchdog;

use std::cell::Cell;
use std::process::ExitCode;
use std::rc::Rc;

use gtk4 as gtk;
use gtk4::prelude::*;
use gtk4::{gdk, gio, glib};

use crate::app::single_instance::{self, Claim};
use crate::app::{code_pages, heap, paths, startup};
use crate::events::control;

/// Runs the bar until the compositor goes away (exit 1) or a SIGTERM/SIGINT (exit 0).
pub fn run() -> ExitCode {
    startup::ignore_reloads_until_handled();
    // The lock comes before the probe loads, so that a second start, which only asks the
    // first to reload, loads nothing. It reads two variables and creates a file in the
    // user's own runtime directory; CAP_BPF and CAP_PERFMON give no power over files.
    let display_name = single_instance::display_name();
    let mut lock =
        match paths::runtime_dir().map(|dir| single_instance::lock_path(&dir, &display_name)) {
            None => {
                tracing::warn!("XDG_RUNTIME_DIR is not set: not checking for another ringbar");
                None
            }
            Some(path) => match single_instance::claim(&path) {
                Ok(Claim::First(lock)) => Some(lock),
                Ok(Claim::Taken { pid }) => return defer_to_running(&display_name, pid),
                Err(err) => {
                    tracing::warn!(
                        "cannot lock {}: {err}; not checking for another ringbar",
                        path.display()
                    );
                    None
                }
            },
        };

    // Never run the UI with privileges it should not have.
    let Some(started) = startup::start_logged(None) else {
        return ExitCode::FAILURE;
    };

    // On software rendering the cairo renderer needs about 26 MB of RSS where GL needs
    // about 150 MB; a user's explicit GSK_RENDERER wins. No threads exist yet.
    if std::env::var_os("GSK_RENDERER").is_none() {
        std::env::set_var("GSK_RENDERER", "cairo");
    }
    // The capabilities are gone: a thread made now holds none.
    crate::app::log::log_in_background();
    if let Err(err) = gtk::init() {
        tracing::error!("cannot start GTK (no display?): {err}");
        return ExitCode::FAILURE;
    }
    outlive_the_session_bus();
    gio::resources_register_include!("ringbar.gresource")
        .expect("the bundled GResource is valid: it was compiled by build.rs");
    let Some(display) = gdk::Display::default() else {
        tracing::error!("no display: is WAYLAND_DISPLAY set?");
        return ExitCode::FAILURE;
    };
    let style = Rc::new(style::install(&display, paths::style_file()));

    let main_loop = glib::MainLoop::new(None, false);
    // Watch the connection before the bars are made: the compositor may die while they are.
    let exit_code = Rc::new(Cell::new(0u8));
    display.connect_closed(glib::clone!(
        #[strong]
        main_loop,
        #[strong]
        exit_code,
        move |_, is_error| {
            tracing::error!("the compositor went away (display closed): exiting");
            tracing::debug!("display closed, error: {is_error}");
            exit_code.set(1);
            main_loop.quit();
        }
    ));
    // The sampling thread: after the drop of the capabilities and after the environment
    // is set above.
    let app = match app::App::new(started, main_loop.clone()) {
        Ok(app) => app,
        Err(err) => {
            tracing::error!("{err}");
            return ExitCode::FAILURE;
        }
    };

    // Before any bar shows: until then SIGUSR1's default action would end the bar, as
    // CI saw a reload sent as soon as the first bar had drawn its labels.
    handle_signals(&app, &style, &main_loop);
    if is_wayland(&display) {
        watchdog::watch(&display);
    }
    // Before any bar shows: a `ringbar msg` sent once a bar is on screen must find this
    // bar's socket (commands are carried out once the main loop runs).
    let _config_watch = paths::config_file().and_then(|path| {
        config_watch::watch(
            &path,
            glib::clone!(
                #[weak]
                app,
                move || app.reload()
            ),
        )
    });
    let _server = paths::runtime_dir().and_then(|dir| {
        let obey = glib::clone!(
            #[weak]
            app,
            #[strong]
            style,
            move |command| {
                if command == control::Message::Reload {
                    style.reload();
                }
                app.obey(command);
            }
        );
        control::Server::start(&dir, "bar", obey)
            .map_err(|err| tracing::warn!("`ringbar msg` cannot reach this bar: {err}"))
            .ok()
    });
    if is_wayland(&display) && gtk4_layer_shell::is_supported() {
        app.follow_monitors(&display);
    } else {
        tracing::warn!(
            "this display has no wlr-layer-shell (X11, or a compositor without it): \
             showing a plain window instead of a bar"
        );
        app.add_fallback();
    }
    // Only now can a second start's request be taken: publish the pid.
    if let Some(lock) = &mut lock {
        if let Err(err) = lock.publish_pid() {
            tracing::warn!("cannot write {}: {err}", lock.path().display());
        }
    }
    app.start();
    give_back_start_up_memory_later();
    // A quit() before run() is lost: a display that closed during start-up ends it here.
    if exit_code.get() != 0 || display.is_closed() {
        tracing::error!("the compositor went away during start-up: exiting");
        return ExitCode::FAILURE;
    }
    main_loop.run();
    ExitCode::from(exit_code.get())
}

/// Another ringbar runs on this display: ask it to reload, and step aside. The request
/// goes through the control socket, which only this user's instances serve and which
/// checks who asks (SO_PEERCRED); the pid is only for the message.
fn defer_to_running(display_name: &str, pid: Option<i32>) -> ExitCode {
    let asked = paths::runtime_dir()
        .ok_or_else(|| "XDG_RUNTIME_DIR is not set".to_owned())
        .and_then(|dir| {
            control::send(&dir, control::Message::Reload).map_err(|err| err.to_string())
        });
    let who = match pid {
        Some(pid) => format!("ringbar already runs on {display_name} (pid {pid})"),
        None => format!("ringbar is already starting on {display_name}"),
    };
    match asked {
        Ok(delivery) if !delivery.found() => tracing::info!("{who}, but does not answer yet"),
        Ok(_) => tracing::info!("{who}: asked it to reload its config and style"),
        Err(err) => tracing::warn!("{who}, but cannot be asked to reload: {err}"),
    }
    ExitCode::SUCCESS
}

/// SIGTERM and SIGINT end the main loop (the probe is detached as the process exits);
/// SIGUSR1 and SIGHUP reload the config and the style.
fn handle_signals(app: &Rc<app::App>, style: &Rc<style::Style>, main_loop: &glib::MainLoop) {
    let reload = glib::clone!(
        #[weak]
        app,
        #[strong]
        style,
        move || {
            app.reload();
            style.reload();
        }
    );
    startup::handle_signals(main_loop, reload);
}

/// By type name: gdk4's `backend()` panics on backends it does not know.
fn is_wayland(display: &gdk::Display) -> bool {
    display.type_().name() == "GdkWaylandDisplay"
}

/// GTK reads the desktop portal's settings through GLib's shared session bus
/// connection, which by default ends the process (SIGTERM) when the bus goes away: a
/// session bus that crashes or restarts would take the bar with it. The connection is the
/// same object for everyone in the process, so turning that off here covers GTK's too.
///
/// Synchronously, before the main loop runs: GTK's start has already made the connection
/// (so this does not wait on the bus), and a bus that went in the first milliseconds, before
/// an asynchronous answer was handled, ended the bar (once in a full test run).
fn outlive_the_session_bus() {
    match gio::bus_get_sync(gio::BusType::Session, None::<&gio::Cancellable>) {
        Ok(connection) => connection.set_exit_on_close(false),
        Err(err) => tracing::debug!("no shared session bus connection: {}", err.message()),
    }
}

/// Start-up is over some seconds after the bars first show (the first samples drawn,
/// the event sources answered): then the code only it ran is given back (see
/// [`code_pages`]), and the heap it left free (the config's parse, the event sources'
/// first answers, the sampling thread's arena once the main loop samples). A reload runs
/// some of it again, and gives it back again as well; reloads in a burst give it back once.
pub fn give_back_start_up_memory_later() {
    const AFTER_S: u32 = 10;
    thread_local!(static PENDING: Cell<bool> = const { Cell::new(false) });
    if PENDING.replace(true) {
        return;
    }
    glib::timeout_add_seconds_local_once(AFTER_S, || {
        PENDING.set(false);
        match code_pages::give_back() {
            Ok(bytes) => tracing::debug!("start-up's code pages given back ({} KiB)", bytes >> 10),
            Err(err) => tracing::debug!("start-up's code pages kept: {err}"),
        }
        heap::trim_after("start-up");
    });
}
