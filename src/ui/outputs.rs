//! Bars on outputs: each of the config's bars on every monitor it names, following
//! hotplug, or one plain window; each module's clicks and tooltip wired to the app.

use std::cell::Cell;
use std::rc::Rc;

use gtk4 as gtk;
use gtk4::prelude::*;
use gtk4::{gdk, gio, glib};

use super::app::App;
use super::bar::{self, Bar};
use super::row_view::RowView;
use crate::modules::{Action, Button, Module, Target, Update, Widget};

/// Calls `then` once, when `monitor` learns its name (GDK may learn a new output's name
/// a moment after the output).
fn once_named(monitor: &gdk::Monitor, then: impl Fn(&gdk::Monitor) + 'static) {
    let handler = Rc::new(Cell::new(None));
    let own = handler.clone();
    let id = monitor.connect_connector_notify(move |monitor| {
        if monitor.connector().is_none() {
            return;
        }
        if let Some(id) = own.take() {
            monitor.disconnect(id);
        }
        then(monitor);
    });
    handler.set(Some(id));
}

impl App {
    /// One layer-shell bar per monitor, following hotplug.
    pub fn follow_monitors(self: &Rc<Self>, display: &gdk::Display) {
        let monitors = display.monitors();
        self.monitors.replace(Some(monitors.clone()));
        monitors.connect_items_changed(glib::clone!(
            #[weak(rename_to = app)]
            self,
            move |list, _, _, _| app.sync_monitors(list)
        ));
        self.sync_monitors(&monitors);
    }

    pub(super) fn sync_monitors(self: &Rc<Self>, list: &gio::ListModel) {
        let monitors: Vec<gdk::Monitor> = (0..list.n_items())
            .filter_map(|i| list.item(i).and_downcast::<gdk::Monitor>())
            .collect();
        let mut added = Vec::new();
        self.unnamed.borrow_mut().retain(|m| monitors.contains(m));
        {
            let config = self.config.borrow();
            let mut bars = self.bars.borrow_mut();
            bars.retain(|bar| {
                let keep = bar.monitor.as_ref().is_none_or(|m| monitors.contains(m));
                if !keep {
                    tracing::info!("output {} removed: its bar is gone", bar.output_name());
                    bar.retire();
                }
                keep
            });
            for monitor in &monitors {
                let connector = monitor.connector().map(|c| c.to_string());
                for (index, spec) in config.bars.iter().enumerate() {
                    let wanted = bar::wants(spec, monitor);
                    let there = bars
                        .iter()
                        .any(|b| b.monitor.as_ref() == Some(monitor) && b.spec == index);
                    if wanted && !there {
                        if let Some(name) = &connector {
                            tracing::info!("bar on output {name}");
                        }
                        let row = |module: &Rc<dyn Module>| self.button_row(module);
                        added.push(Bar::layer(spec, index, monitor, &row));
                    }
                }
                // Watched once, however often the outputs change meanwhile (a storm of
                // them ran a sync per watch each time, and every sync added watches).
                if connector.is_none() && !self.unnamed.borrow().contains(monitor) {
                    self.unnamed.borrow_mut().push(monitor.clone());
                    let list = list.clone();
                    once_named(
                        monitor,
                        glib::clone!(
                            #[weak(rename_to = app)]
                            self,
                            move |monitor| app.named(monitor, &list)
                        ),
                    );
                }
            }
        }
        for bar in added {
            self.add_bar(bar);
        }
        self.render_all();
    }

    /// `monitor` learned its name: a bar already on it says so, and the bars that name
    /// outputs get their chance.
    fn named(self: &Rc<Self>, monitor: &gdk::Monitor, list: &gio::ListModel) {
        self.unnamed.borrow_mut().retain(|m| m != monitor);
        let on_it = self
            .bars
            .borrow()
            .iter()
            .any(|b| b.monitor.as_ref() == Some(monitor));
        if let (true, Some(name)) = (on_it, monitor.connector()) {
            tracing::info!("bar on output {name}");
        }
        self.sync_monitors(list);
    }

    /// The plain-window fallback: one bar, not tied to a monitor. Closing it quits.
    pub fn add_fallback(self: &Rc<Self>) {
        let row = |module: &Rc<dyn Module>| self.button_row(module);
        let Some(spec) = self.config.borrow().bars.first().cloned() else {
            return;
        };
        let bar = Bar::fallback(&spec, &row);
        let main_loop = self.main_loop.clone();
        bar.window.connect_close_request(move |_| {
            main_loop.quit();
            glib::Propagation::Proceed
        });
        self.add_bar(bar);
        self.render_all();
    }

    /// A click or scroll on `module`, whose widget `anchor` is (a menu opens on it).
    fn clicked(
        self: &Rc<Self>,
        module: &dyn crate::modules::Module,
        button: Button,
        anchor: Option<gtk::Widget>,
    ) {
        match module.action(button) {
            Some(Action::Menu(menu)) => {
                if let Some(anchor) = anchor {
                    super::module_menu::open(&menu, &anchor, module.name());
                }
                if let Some(command) = module.command(button) {
                    crate::events::script::runner::run_detached(module.name(), command);
                }
            }
            Some(Action::Script(button)) => {
                if let Some(command) = module.command(button) {
                    self.sources.run_script_action(module.name(), command);
                }
            }
            Some(Action::Run(button)) => {
                if let Some(command) = module.command(button) {
                    crate::events::script::runner::run_detached(module.name(), command);
                }
            }
            Some(action) => self.perform(action),
            None => {}
        }
    }

    /// The button row of `module`: a press asks the module what its button means, and
    /// scrolling on the row is a scroll on the module.
    pub(super) fn button_row(self: &Rc<Self>, module: &Rc<dyn Module>) -> RowView {
        let Widget::Buttons(row) = module.widget() else {
            unreachable!("a row is made for a module of buttons");
        };
        let pressed = module.clone();
        let on_press = glib::clone!(
            #[weak(rename_to = app)]
            self,
            move |target: &Target, which: Button| {
                let Widget::Buttons(row) = pressed.widget() else {
                    return;
                };
                match row.press(target, which, pressed.command(which)) {
                    Some(Action::Run(button)) => {
                        if let Some(command) = pressed.command(button) {
                            crate::events::script::runner::run_detached(pressed.name(), command);
                        }
                    }
                    Some(Action::Spawn(command)) => {
                        crate::events::script::runner::run_detached(pressed.name(), &command);
                    }
                    Some(action) => app.perform(action),
                    None => {}
                }
            }
        );
        let scrolled = module.clone();
        let on_scroll = glib::clone!(
            #[weak(rename_to = app)]
            self,
            move |forward: bool| {
                let button = if forward {
                    Button::ScrollDown
                } else {
                    Button::ScrollUp
                };
                app.clicked(scrolled.as_ref(), button, None);
            }
        );
        RowView::new(
            module.css_class(),
            row.icons(),
            Rc::new(on_press),
            Rc::new(on_scroll),
        )
    }

    /// The ⚠ marker of `bar`, with the titles of the latest sample's notices.
    pub(super) fn show_notices(&self, bar: &Bar) {
        let titles = self.notice_titles();
        bar.set_notice(&titles.iter().map(String::as_str).collect::<Vec<_>>());
    }

    /// Tells the app when `content` (a monitor tooltip's) shows and hides.
    fn follow_monitor_tooltip(self: &Rc<Self>, content: &gtk::Widget) {
        for open in [true, false] {
            let shown = glib::clone!(
                #[weak(rename_to = app)]
                self,
                move |_: &gtk::Widget| app.monitor_tooltip_shown(open)
            );
            if open {
                content.connect_map(shown);
            } else {
                content.connect_unmap(shown);
            }
        }
    }

    /// Shows a new bar.
    fn add_bar(self: &Rc<Self>, bar: Bar) {
        self.wire(&bar);
        #[cfg(feature = "test-support")]
        if let Some(hook) = &self.test_hook {
            hook.on_first_frame(&bar.window);
            let app = Rc::downgrade(self);
            bar.window.connect_realize(move |window| {
                let Some(clock) = window.frame_clock() else {
                    return;
                };
                let (app, window) = (app.clone(), window.downgrade());
                clock.connect_after_paint(move |_| {
                    if let (Some(app), Some(window)) = (app.upgrade(), window.upgrade()) {
                        app.painted(&window);
                    }
                });
            });
        }
        bar.window.present();
        self.bars.borrow_mut().push(bar);
    }

    /// Takes back a bar whose window a reload kept, with its new content.
    pub(super) fn keep_bar(self: &Rc<Self>, bar: Bar) {
        tracing::info!("bar on output {}, its modules rebuilt", bar.output_name());
        self.wire(&bar);
        bar.window.present();
        self.bars.borrow_mut().push(bar);
    }

    /// Connects a bar's content to the app: clicks, scrolls, tooltips, the ⚠ marker.
    fn wire(self: &Rc<Self>, bar: &Bar) {
        self.show_notices(bar);
        if self.probe_off() {
            bar.window.add_css_class("probe-off");
        }
        for (index, slot) in bar.slots.iter().enumerate() {
            if let (Some(tray), Widget::Tray(settings)) = (&slot.tray, slot.module.widget()) {
                self.sources.attach_tray(tray, settings);
            }
            let click = gtk::GestureClick::new();
            click.set_button(0);
            let module = slot.module.clone();
            click.connect_pressed(glib::clone!(
                #[weak(rename_to = app)]
                self,
                move |gesture, _, _, _| {
                    let button = match gesture.current_button() {
                        gdk::BUTTON_PRIMARY => Button::Left,
                        gdk::BUTTON_MIDDLE => Button::Middle,
                        gdk::BUTTON_SECONDARY => Button::Right,
                        // The side buttons, as GDK numbers BTN_SIDE and BTN_EXTRA.
                        8 => Button::Back,
                        9 => Button::Forward,
                        _ => return,
                    };
                    app.clicked(module.as_ref(), button, gesture.widget());
                }
            ));
            slot.target().add_controller(click);
            if slot.module.action(Button::ScrollUp).is_some()
                || slot.module.action(Button::ScrollDown).is_some()
            {
                let scroll = gtk::EventControllerScroll::new(
                    gtk::EventControllerScrollFlags::VERTICAL
                        | gtk::EventControllerScrollFlags::DISCRETE,
                );
                let module = slot.module.clone();
                scroll.connect_scroll(glib::clone!(
                    #[weak(rename_to = app)]
                    self,
                    #[upgrade_or]
                    glib::Propagation::Proceed,
                    move |scroll, _, dy| {
                        let button = if dy < 0.0 {
                            Button::ScrollUp
                        } else {
                            Button::ScrollDown
                        };
                        app.clicked(module.as_ref(), button, scroll.widget());
                        glib::Propagation::Stop
                    }
                ));
                slot.target().add_controller(scroll);
            }

            if slot.module.follows() == [Update::Sample] {
                self.follow_monitor_tooltip(&slot.tooltip_widget);
            }
            let tooltip_label = slot.tooltip_widget.clone();
            slot.target().connect_query_tooltip(glib::clone!(
                #[weak(rename_to = app)]
                self,
                #[weak(rename_to = window)]
                bar.window,
                #[upgrade_or]
                false,
                move |_, _, _, _, tooltip| {
                    app.fill_tooltip(&window, index);
                    tooltip.set_custom(Some(&tooltip_label));
                    true
                }
            ));
        }

        self.follow_monitor_tooltip(bar.notice_tooltip.upcast_ref());
        let tooltip_label = bar.notice_tooltip.clone();
        bar.notice.connect_query_tooltip(glib::clone!(
            #[weak(rename_to = app)]
            self,
            #[weak(rename_to = window)]
            bar.window,
            #[upgrade_or]
            false,
            move |_, _, _, _, tooltip| {
                app.fill_notice_tooltip(&window);
                tooltip.set_custom(Some(&tooltip_label));
                true
            }
        ));
    }
}
