//! The running bar: one collector, one timeout source, one bar per monitor.
//!
//! Each tick samples, runs the model and sets label text directly on the widgets. The
//! tooltip markup is built only when GTK asks for it (the tooltip is about to show) or
//! while it is on screen.

use std::cell::{Cell, RefCell};
use std::path::PathBuf;
use std::rc::{Rc, Weak};
use std::time::Duration;

use gtk4 as gtk;
use gtk4::prelude::*;
use gtk4::{gdk, gio, glib};

use super::bar::Bar;
use super::test_hook::TestHook;
use crate::collector::{self, Collector};
use crate::config::{self, Config};
use crate::model::controls::Controls;
use crate::model::labels::{self, Level};
use crate::model::markup::{self, Notice};
use crate::model::Hardware;
use crate::sensors::nvidia::Nvml;
use crate::sensors::{Roots, Sensors};

/// Logs the output a bar was put on; GDK may learn a new output's name a moment later.
fn log_new_bar(monitor: &gdk::Monitor) {
    match monitor.connector() {
        Some(name) => tracing::info!("bar on output {name}"),
        None => {
            monitor.connect_connector_notify(|monitor| {
                if let Some(name) = monitor.connector() {
                    tracing::info!("bar on output {name}");
                }
            });
        }
    }
}

/// What `run` prepared before GTK started.
pub struct Startup {
    pub collector: Collector,
    pub controls: Controls,
    pub config: Config,
    pub config_file: Option<PathBuf>,
    pub config_notices: Vec<(String, String)>,
    pub probe_notice: Option<(String, String)>,
    pub state_file: Option<PathBuf>,
}

/// Config choices of sensors that are not on this machine, as notices.
fn sensor_problems(sensors: &Sensors, hardware: &Hardware) -> Vec<(String, String)> {
    sensors
        .config_problems(hardware)
        .into_iter()
        .map(|problem| {
            tracing::warn!("{problem}");
            ("config".to_owned(), problem)
        })
        .collect()
}

/// The first sample after start-up comes this soon, so the labels show rates at once.
const FIRST_TICK_MS: u32 = 250;

pub struct App {
    collector: RefCell<Collector>,
    sensors: RefCell<Sensors>,
    hardware: RefCell<Hardware>,
    controls: Cell<Controls>,
    config: RefCell<Config>,
    config_file: Option<PathBuf>,
    /// (title, detail) shown in the tooltip and as the ⚠ marker: the probe being off…
    probe_notice: Option<(String, String)>,
    /// …and config problems, which a reload may fix.
    config_notices: RefCell<Vec<(String, String)>>,
    bars: RefCell<Vec<Bar>>,
    /// The monitors followed, or `None` with the plain-window fallback.
    monitors: RefCell<Option<gio::ListModel>>,
    main_loop: glib::MainLoop,
    timeout: RefCell<Option<glib::SourceId>>,
    armed_ms: Cell<u32>,
    state_file: Option<PathBuf>,
    test_hook: Option<TestHook>,
    /// Reused text buffers: steady ticks do not allocate for formatting.
    text: RefCell<String>,
    markup: RefCell<String>,
    sample_failed: Cell<bool>,
}

impl App {
    pub fn new(start: Startup, main_loop: glib::MainLoop) -> Rc<App> {
        let mut hardware = Hardware::default();
        let sensors = Sensors::discover(
            Roots::system(),
            start.config.sensors.clone(),
            Nvml::load_logged(),
            collector::page_size(),
            collector::monotonic_ns(),
            &mut hardware,
        );
        let mut config_notices = start.config_notices;
        config_notices.extend(sensor_problems(&sensors, &hardware));
        Rc::new(App {
            collector: RefCell::new(start.collector),
            sensors: RefCell::new(sensors),
            hardware: RefCell::new(hardware),
            controls: Cell::new(start.controls),
            config: RefCell::new(start.config),
            config_file: start.config_file,
            probe_notice: start.probe_notice,
            config_notices: RefCell::new(config_notices),
            bars: RefCell::new(Vec::new()),
            monitors: RefCell::new(None),
            main_loop,
            timeout: RefCell::new(None),
            armed_ms: Cell::new(0),
            state_file: start.state_file,
            test_hook: TestHook::from_env(),
            text: RefCell::new(String::with_capacity(64)),
            markup: RefCell::new(String::with_capacity(4096)),
            sample_failed: Cell::new(false),
        })
    }

    /// Takes the first sample and arms the timeout.
    pub fn start(self: &Rc<Self>) {
        self.tick();
        self.arm(FIRST_TICK_MS.min(self.controls.get().interval_ms));
    }

    /// Reads the config again, rediscovers the sensors it names and rebuilds the bars
    /// (position, height and labels may have changed). The user style reloads apart.
    pub fn reload(self: &Rc<Self>) {
        tracing::info!("reloading the config");
        let (config, error) = match &self.config_file {
            Some(path) => config::load(path),
            None => (Config::default(), None),
        };
        let mut notices = Vec::new();
        if let Some(err) = error {
            tracing::error!("config: {err}");
            notices.push(("config".to_owned(), err.to_string()));
        }
        {
            let mut hardware = self.hardware.borrow_mut();
            let mut sensors = self.sensors.borrow_mut();
            sensors.reconfigure(
                config.sensors.clone(),
                collector::monotonic_ns(),
                &mut hardware,
            );
            notices.extend(sensor_problems(&sensors, &hardware));
        }
        self.config.replace(config);
        self.config_notices.replace(notices);

        let old: Vec<Bar> = self.bars.borrow_mut().drain(..).collect();
        for bar in &old {
            bar.window.destroy();
        }
        let monitors = self.monitors.borrow().clone();
        match monitors {
            Some(list) => self.sync_monitors(&list),
            None if !old.is_empty() => {
                self.add_fallback();
            }
            None => {}
        }
        self.tick();
    }

    fn notices(&self) -> Vec<(String, String)> {
        self.probe_notice
            .iter()
            .chain(self.config_notices.borrow().iter())
            .cloned()
            .collect()
    }

    /// One layer-shell bar per monitor, following hotplug.
    pub fn follow_monitors(self: &Rc<Self>, display: &gdk::Display) {
        let monitors = display.monitors();
        self.monitors.replace(Some(monitors.clone()));
        let weak = Rc::downgrade(self);
        monitors.connect_items_changed(move |list, _, _, _| {
            if let Some(app) = weak.upgrade() {
                app.sync_monitors(list);
            }
        });
        self.sync_monitors(&monitors);
    }

    fn sync_monitors(self: &Rc<Self>, list: &gtk4::gio::ListModel) {
        let monitors: Vec<gdk::Monitor> = (0..list.n_items())
            .filter_map(|i| list.item(i).and_downcast::<gdk::Monitor>())
            .collect();
        let mut added = Vec::new();
        {
            let mut bars = self.bars.borrow_mut();
            bars.retain(|bar| {
                let keep = bar.monitor.as_ref().is_none_or(|m| monitors.contains(m));
                if !keep {
                    tracing::info!("output {} removed: its bar is gone", bar.output_name());
                    bar.window.destroy();
                }
                keep
            });
            for monitor in &monitors {
                if !bars.iter().any(|b| b.monitor.as_ref() == Some(monitor)) {
                    log_new_bar(monitor);
                    added.push(Bar::layer(&self.config.borrow(), monitor));
                }
            }
        }
        for bar in added {
            self.add_bar(bar);
        }
        self.render();
    }

    /// The plain-window fallback: one bar, not tied to a monitor. Closing it quits.
    pub fn add_fallback(self: &Rc<Self>) {
        let bar = Bar::fallback(&self.config.borrow());
        let main_loop = self.main_loop.clone();
        bar.window.connect_close_request(move |_| {
            main_loop.quit();
            glib::Propagation::Proceed
        });
        self.add_bar(bar);
        self.render();
    }

    fn add_bar(self: &Rc<Self>, bar: Bar) {
        let notices = self.notices();
        if !notices.is_empty() {
            let titles: Vec<&str> = notices.iter().map(|(t, _)| t.as_str()).collect();
            bar.set_notice(Some(&format!("⚠ {}", titles.join(" · "))));
        }
        if !self.collector.borrow().uses_probe() {
            bar.window.add_css_class("probe-off");
        }

        let click = gtk::GestureClick::new();
        click.set_button(0);
        let weak = Rc::downgrade(self);
        click.connect_pressed(move |gesture, _, _, _| {
            let Some(app) = weak.upgrade() else { return };
            match gesture.current_button() {
                gdk::BUTTON_PRIMARY => app.cycle_interval(),
                gdk::BUTTON_MIDDLE => app.toggle_kernel_threads(),
                _ => {}
            }
        });
        bar.content.add_controller(click);

        let weak: Weak<App> = Rc::downgrade(self);
        let tooltip_label = bar.tooltip.clone();
        bar.content
            .connect_query_tooltip(move |_, _, _, _, tooltip| {
                let Some(app) = weak.upgrade() else {
                    return false;
                };
                app.fill_tooltip(&tooltip_label);
                tooltip.set_custom(Some(&tooltip_label));
                true
            });

        if let Some(hook) = &self.test_hook {
            hook.on_first_frame(&bar.window);
        }
        bar.window.present();
        self.bars.borrow_mut().push(bar);
    }

    /// (Re)arms the single timeout source at `ms`.
    fn arm(self: &Rc<Self>, ms: u32) {
        if let Some(source) = self.timeout.take() {
            source.remove();
        }
        let weak = Rc::downgrade(self);
        let source = glib::timeout_add_local(Duration::from_millis(u64::from(ms)), move || {
            match weak.upgrade() {
                Some(app) => app.on_timeout(),
                None => glib::ControlFlow::Break,
            }
        });
        self.timeout.replace(Some(source));
        self.armed_ms.set(ms);
    }

    fn on_timeout(self: &Rc<Self>) -> glib::ControlFlow {
        self.tick();
        let wanted = self.controls.get().interval_ms;
        if self.armed_ms.get() == wanted {
            return glib::ControlFlow::Continue;
        }
        // This source ends by returning Break: forget it so arm() does not remove it too.
        self.timeout.take();
        self.arm(wanted);
        glib::ControlFlow::Break
    }

    fn tick(&self) {
        self.sensors
            .borrow_mut()
            .read(collector::monotonic_ns(), &mut self.hardware.borrow_mut());
        match self.collector.borrow_mut().sample() {
            Ok(_) => self.sample_failed.set(false),
            Err(err) => {
                if !self.sample_failed.replace(true) {
                    tracing::warn!("sampling failed: {err}");
                }
            }
        }
        self.render();
    }

    fn cycle_interval(self: &Rc<Self>) {
        let mut controls = self.controls.get();
        controls.cycle_interval();
        self.controls.set(controls);
        self.save_state();
        tracing::info!("{}", controls.interval_line());
        self.tick();
        self.arm(controls.interval_ms);
    }

    fn toggle_kernel_threads(&self) {
        let mut controls = self.controls.get();
        controls.toggle_kernel_threads();
        self.controls.set(controls);
        self.collector
            .borrow_mut()
            .set_kernel_threads(controls.kernel_threads);
        self.save_state();
        tracing::info!("{}", controls.kernel_threads_line());
        self.render();
    }

    fn save_state(&self) {
        if let Some(path) = &self.state_file {
            if let Err(err) = crate::state::save(path, self.controls.get()) {
                tracing::warn!("cannot remember the setting in {}: {err}", path.display());
            }
        }
    }

    /// Sets every bar's labels from the latest snapshot, and the tooltip if it is shown.
    fn render(&self) {
        let collector = self.collector.borrow();
        let snapshot = collector.snapshot();
        let config = self.config.borrow();
        let t = &config.thresholds;
        let hw = self.hardware.borrow();
        let mut text = self.text.borrow_mut();
        for bar in self.bars.borrow_mut().iter_mut() {
            text.clear();
            let level = labels::write_cpu(&mut text, snapshot, &hw.cpu)
                .map_or(Level::Normal, |p| {
                    Level::of(p, t.cpu_warning, t.cpu_critical)
                });
            bar.cpu.show(&text, level);
            text.clear();
            let level = labels::write_memory(&mut text, snapshot).map_or(Level::Normal, |p| {
                Level::of(p, t.memory_warning, t.memory_critical)
            });
            bar.memory.show(&text, level);
            text.clear();
            let gpu = hw.label_gpu().map(|gpu| {
                labels::write_gpu(&mut text, gpu).map_or(Level::Normal, |p| {
                    Level::of(p, t.gpu_warning, t.gpu_critical)
                })
            });
            bar.gpu.show_if(gpu.map(|level| (text.as_str(), level)));
            text.clear();
            let stall = labels::write_pressure(&mut text, &hw.pressure, t.pressure_warning);
            let level = stall.map(|p| Level::of(p, t.pressure_warning, t.pressure_critical));
            bar.pressure
                .show_if(level.map(|level| (text.as_str(), level)));
        }
        drop(hw);
        drop(text);
        drop(collector);
        for bar in self.bars.borrow().iter() {
            if bar.tooltip.is_mapped() {
                self.fill_tooltip(&bar.tooltip);
            }
        }
        if let Some(hook) = &self.test_hook {
            hook.write_bars(&self.bars.borrow());
        }
    }

    fn fill_tooltip(&self, label: &gtk::Label) {
        let collector = self.collector.borrow();
        let snapshot = collector.snapshot();
        let probe_notice = self.probe_notice.iter();
        let config_notices = self.config_notices.borrow();
        let notices: Vec<Notice<'_>> = probe_notice
            .chain(config_notices.iter())
            .map(|(title, detail)| Notice { title, detail })
            .collect();
        let mut markup = self.markup.borrow_mut();
        markup.clear();
        markup::write_tooltip(
            &mut markup,
            snapshot,
            &self.hardware.borrow(),
            self.controls.get().interval_ms,
            &notices,
        );
        if label.label() != markup.as_str() {
            label.set_markup(&markup);
        }
        if let Some(hook) = &self.test_hook {
            if let Some(bar) = self.bars.borrow().iter().find(|b| &b.tooltip == label) {
                hook.write_tooltip(bar);
            }
        }
    }
}
