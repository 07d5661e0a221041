//! `ringbar --waybar`: the monitor inside Waybar. One JSON line per sample on stdout, in
//! Waybar's custom-module protocol, on a glib main loop that also serves `ringbar msg`
//! and the reload signals. It ends when Waybar closes the pipe, or on SIGTERM/SIGINT.
//! As in the bar, the monitor samples on its own thread and hands each sample over.

use std::cell::RefCell;
use std::path::PathBuf;
use std::process::ExitCode;
use std::rc::Rc;

use gtk4::glib;

use super::latest_line::LatestLine;
use crate::app::monitor::Monitor;
use crate::app::wallclock::LocalClock;
use crate::app::{paths, startup};
use crate::events::control::{self, Message};
use crate::modules::{Input, Module, Update};

struct Stream {
    monitor: RefCell<Monitor>,
    out: Rc<LatestLine>,
    modules: RefCell<Vec<Rc<dyn Module>>>,
    config_file: Option<PathBuf>,
    main_loop: glib::MainLoop,
}

/// `interval_ms` (`--interval-ms`) overrides the interval of the config and the state file
/// at start.
pub fn run(interval_ms: Option<u32>) -> ExitCode {
    startup::ignore_reloads_until_handled();
    let Some(started) = startup::start_logged(interval_ms) else {
        return ExitCode::FAILURE;
    };
    let monitor = match Monitor::start(started.sampler, started.controls, started.state_file) {
        Ok(monitor) => monitor,
        Err(err) => {
            tracing::error!("{err}");
            return ExitCode::FAILURE;
        }
    };
    let main_loop = glib::MainLoop::new(None, false);
    let out = LatestLine::new(glib::clone!(
        #[strong]
        main_loop,
        move || main_loop.quit()
    ));
    let stream = Rc::new(Stream {
        monitor: RefCell::new(monitor),
        out,
        modules: RefCell::new(monitor_modules(&started.config)),
        config_file: started.config_file,
        main_loop,
    });

    let _server = paths::runtime_dir().and_then(|dir| {
        let obey = glib::clone!(
            #[weak]
            stream,
            move |command| stream.obey(command)
        );
        control::Server::start(&dir, "waybar", obey)
            .map_err(|err| tracing::warn!("`ringbar msg` cannot reach this instance: {err}"))
            .ok()
    });
    startup::handle_signals(
        &stream.main_loop,
        glib::clone!(
            #[weak]
            stream,
            move || stream.obey(Message::Reload)
        ),
    );

    let _samples = stream.monitor.borrow().watch(glib::clone!(
        #[weak]
        stream,
        #[upgrade_or]
        glib::ControlFlow::Break,
        move || {
            if stream.monitor.borrow_mut().receive().any() {
                stream.emit();
            }
            glib::ControlFlow::Continue
        }
    ));
    stream.main_loop.run();
    ExitCode::SUCCESS
}

/// The configured modules Waybar shows from ringbar: those of the sample tick. Waybar
/// has its own clock and workspaces.
fn monitor_modules(config: &crate::config::Config) -> Vec<Rc<dyn Module>> {
    let modules = config.modules.all();
    modules
        .filter(|m| m.follows() == [Update::Sample])
        .cloned()
        .collect()
}

impl Stream {
    /// The monitor's settings go to the sampling thread, which hands over a sample at
    /// once (a new one, or the latest re-ranked): its line follows.
    fn obey(self: &Rc<Self>, command: Message) {
        match command {
            Message::Monitor(request) => self.monitor.borrow_mut().apply(request),
            Message::Reload => {
                let config = self
                    .monitor
                    .borrow_mut()
                    .reload_config(self.config_file.as_deref());
                self.modules.replace(monitor_modules(&config));
                self.emit();
            }
        }
    }

    /// Writes the latest sample's line, never waiting for Waybar to read. Waybar gone
    /// (EPIPE) ends the stream.
    fn emit(&self) {
        let monitor = self.monitor.borrow();
        let input = Input {
            sample: monitor.sample(),
            clock: &LocalClock,
            compositor: &crate::modules::NO_COMPOSITOR,
            output: "",
            scripts: &crate::modules::NO_SCRIPTS,
            events: &crate::modules::NO_EVENTS,
        };
        self.out
            .write(crate::sinks::waybar::line(&input, &self.modules.borrow()));
    }
}
