//! `ringbar --waybar`: the monitor inside Waybar. One JSON line per sample on stdout, in
//! Waybar's custom-module protocol, on a glib main loop that also serves `ringbar msg`
//! and the reload signals. It ends when Waybar closes the pipe, or on SIGTERM/SIGINT.

use std::cell::RefCell;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::rc::Rc;

use gtk4::glib;

use crate::control::{self, Command};
use crate::modules::{Action, Input, Module, Update};
use crate::monitor::Monitor;
use crate::ticker::Ticker;
use crate::wallclock::LocalClock;
use crate::{paths, startup};

/// The first line with rates comes this soon after start.
const FIRST_TICK_MS: u32 = 250;

struct Stream {
    monitor: RefCell<Monitor>,
    modules: RefCell<Vec<Rc<dyn Module>>>,
    config_file: Option<PathBuf>,
    main_loop: glib::MainLoop,
    ticker: Rc<Ticker>,
}

pub fn run() -> ExitCode {
    let started = match startup::start() {
        Ok(started) => started,
        Err(err) => {
            tracing::error!("{err}");
            return ExitCode::FAILURE;
        }
    };
    if let Some(err) = &started.probe_error {
        tracing::warn!("BPF probe off, reading /proc instead: {err}");
    }
    let stream = Rc::new(Stream {
        monitor: RefCell::new(Monitor::new(
            started.sampler,
            started.controls,
            started.state_file,
        )),
        modules: RefCell::new(monitor_modules(&started.config)),
        config_file: started.config_file,
        main_loop: glib::MainLoop::new(None, false),
        ticker: Rc::new(Ticker::default()),
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
            move || stream.obey(Command::Reload)
        ),
    );

    stream.tick();
    let first = FIRST_TICK_MS.min(stream.monitor.borrow().interval_ms());
    stream.arm(first);
    stream.main_loop.run();
    ExitCode::SUCCESS
}

/// The configured modules Waybar shows from ringbar: those of the sample tick. Waybar
/// has its own clock and workspaces.
fn monitor_modules(config: &crate::config::Config) -> Vec<Rc<dyn Module>> {
    let modules = config.modules.all();
    modules
        .filter(|m| m.update() == Update::Sample)
        .cloned()
        .collect()
}

impl Stream {
    fn obey(self: &Rc<Self>, command: Command) {
        match command {
            Command::CycleInterval => {
                self.monitor.borrow_mut().apply(Action::CycleInterval);
                self.tick();
                let ms = self.monitor.borrow().interval_ms();
                self.arm(ms);
            }
            Command::ToggleKernelThreads => {
                self.monitor.borrow_mut().apply(Action::ToggleKernelThreads);
                self.emit();
            }
            Command::ToggleGroupBy => {
                self.monitor.borrow_mut().apply(Action::ToggleGroupBy);
                self.emit();
            }
            Command::Reload => {
                let config = self
                    .monitor
                    .borrow_mut()
                    .reload_config(self.config_file.as_deref());
                self.modules.replace(monitor_modules(&config));
                self.emit();
            }
        }
    }

    /// (Re)arms the sample tick at `ms`.
    fn arm(self: &Rc<Self>, ms: u32) {
        let tick = glib::clone!(
            #[weak(rename_to = stream)]
            self,
            #[upgrade_or]
            None,
            move || {
                stream.tick();
                Some(stream.monitor.borrow().interval_ms())
            }
        );
        self.ticker.arm(ms, Rc::new(tick));
    }

    fn tick(&self) {
        self.monitor.borrow_mut().sampler.take();
        self.emit();
    }

    /// Writes the latest sample's line. Waybar gone (EPIPE) ends the stream.
    fn emit(&self) {
        let monitor = self.monitor.borrow();
        let input = Input {
            sample: monitor.sampler.sample(),
            clock: &LocalClock,
            compositor: &crate::modules::NO_COMPOSITOR,
            output: "",
            scripts: &crate::modules::NO_SCRIPTS,
        };
        let line = crate::waybar::line(&input, &self.modules.borrow());
        let mut stdout = std::io::stdout().lock();
        let written = writeln!(stdout, "{line}").and_then(|()| stdout.flush());
        if let Err(err) = written {
            tracing::info!("stdout closed ({err}): exiting");
            self.main_loop.quit();
        }
    }
}
