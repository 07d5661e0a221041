//! For the compositor tests only (feature `test-support`, never in a release build): with
//! `RINGBAR_TEST_HOOK=DIR`, the bar writes what GTK holds in its widgets (module label
//! text, CSS classes, a tooltip label's markup and parsed text) to files in DIR after
//! every change, and how late a 16 ms timer on the main loop fired between two samples
//! (`stalls`, see [`StallMeter`]), and how many times the modules of each update source
//! were rendered (`renders`: a flood of events must not be a flood of redraws).
//!
//! A bar's geometry (`NAME.bounds`, `NAME.buttons`) is GTK's last layout, which a render
//! leaves stale until the window's next frame: each bar says `laid-out=false` from a
//! render until its window has painted again, when the bars are written once more. A
//! frame at a new size (the compositor resized the bar with its output) writes them too.

use std::cell::RefCell;
use std::fmt::Write as _;
use std::path::PathBuf;

use gtk4 as gtk;
use gtk4::prelude::*;

use super::bar::Bar;
use super::stall_meter::StallMeter;
use crate::modules::Update;

pub struct TestHook {
    dir: PathBuf,
    stalls: StallMeter,
    /// Renders so far, by update source.
    renders: RefCell<Vec<(Update, u64)>>,
    /// Bar windows rendered since their last frame: their geometry is not yet laid out.
    awaiting_layout: RefCell<Vec<gtk::Window>>,
    /// Each bar window's size when the bars were last written.
    sizes_written: RefCell<Vec<(gtk::Window, (i32, i32))>>,
}

fn classes(widget: &impl IsA<gtk::Widget>) -> String {
    let classes: Vec<String> = widget.css_classes().iter().map(|c| c.to_string()).collect();
    classes.join(",")
}

/// `tooltip:icon:classes` per tray item, `|`-separated; icon is `name=NAME`, `pixmap` or
/// `missing`.
fn describe_tray(tray: &gtk::Box) -> String {
    let mut parts = Vec::new();
    let mut child = tray.first_child();
    while let Some(widget) = child {
        child = widget.next_sibling();
        let Some(image) = widget.downcast_ref::<gtk::Image>() else {
            continue;
        };
        let icon = match image.storage_type() {
            gtk::ImageType::IconName => format!("name={}", image.icon_name().unwrap_or_default()),
            gtk::ImageType::Paintable => "pixmap".to_owned(),
            _ => "missing".to_owned(),
        };
        let tooltip = image.tooltip_text().unwrap_or_default().replace('\n', " ");
        parts.push(format!("{tooltip}:{icon}:{}", classes(image)));
    }
    parts.join("|")
}

impl TestHook {
    pub fn from_env() -> Option<TestHook> {
        let dir = PathBuf::from(std::env::var_os("RINGBAR_TEST_HOOK").filter(|d| !d.is_empty())?);
        std::fs::create_dir_all(&dir).ok()?;
        let stalls = StallMeter::start(dir.join("stalls"));
        Some(TestHook {
            dir,
            stalls,
            renders: RefCell::new(Vec::new()),
            awaiting_layout: RefCell::new(Vec::new()),
            sizes_written: RefCell::new(Vec::new()),
        })
    }

    /// `sample` was rendered: the main loop's worst stall since the previous one goes to
    /// `stalls`.
    pub fn sample_rendered(&self, sample: &crate::sample::Sample) {
        self.stalls.report(sample);
    }

    /// Whether the bar takes samples: while not, `stalls` gets its lines from a timer.
    pub fn sampling(&self, sampling: bool) {
        self.stalls.set_sampling(sampling);
    }

    /// The modules that follow `kind` were rendered: `renders` gets a line per source,
    /// `Event(Media) 12`.
    pub fn rendered(&self, kind: Update) {
        let mut renders = self.renders.borrow_mut();
        match renders.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, count)) => *count += 1,
            None => renders.push((kind, 1)),
        }
        let mut text = String::new();
        for (kind, count) in renders.iter() {
            let _ = writeln!(text, "{kind:?} {count}");
        }
        self.write("renders", &text);
    }

    /// The modules were just rendered: each mapped bar's geometry waits for its window's
    /// next frame, which is asked for.
    pub fn rendered_bars(&self, bars: &[Bar]) {
        let mut awaiting = self.awaiting_layout.borrow_mut();
        awaiting.retain(|window| bars.iter().any(|bar| &bar.window == window));
        for bar in bars {
            let Some(clock) = bar.window.frame_clock().filter(|_| bar.window.is_mapped()) else {
                continue;
            };
            if !awaiting.contains(&bar.window) {
                awaiting.push(bar.window.clone());
            }
            clock.request_phase(gtk::gdk::FrameClockPhase::AFTER_PAINT);
        }
        drop(awaiting);
        self.write_bars(bars);
    }

    /// `window` painted a frame: `true` when that laid out a render's geometry, or the
    /// window has a new size, and the bars are to be written again.
    pub fn painted(&self, window: &gtk::Window) -> bool {
        let mut awaiting = self.awaiting_layout.borrow_mut();
        let before = awaiting.len();
        awaiting.retain(|w| w != window);
        let size = (window.width(), window.height());
        let resized = !self
            .sizes_written
            .borrow()
            .contains(&(window.clone(), size));
        awaiting.len() != before || resized
    }

    /// One line per bar, tab-separated: `output=… spec=… size=WxH mapped=… laid-out=…
    /// bar.classes=… cpu=… cpu.visible=… cpu.classes=… …`, a module listed twice by its
    /// first place.
    pub fn write_bars(&self, bars: &[Bar]) {
        let mut out = String::new();
        let awaiting = self.awaiting_layout.borrow();
        let mut sizes = self.sizes_written.borrow_mut();
        sizes.clear();
        for bar in bars {
            sizes.push((
                bar.window.clone(),
                (bar.window.width(), bar.window.height()),
            ));
            let _ = write!(
                out,
                "output={}\tspec={}\tsize={}x{}\tmapped={}\tlaid-out={}\tbar.classes={}",
                bar.output_name(),
                bar.spec,
                bar.window.width(),
                bar.window.height(),
                bar.window.is_mapped(),
                !awaiting.contains(&bar.window),
                classes(&bar.window)
            );
            let mut written: Vec<&str> = Vec::new();
            for slot in &bar.slots {
                if let (Some(row), false) = (&slot.row, written.contains(&slot.module.name())) {
                    written.push(slot.module.name());
                    let _ = write!(
                        out,
                        "\t{}={}\t{}.visible={}\t{}.buttons={}",
                        slot.module.name(),
                        row.describe(),
                        slot.module.name(),
                        row.widget.is_visible(),
                        slot.module.name(),
                        row.button_bounds(&bar.window)
                    );
                }
            }
            for slot in &bar.slots {
                if let Some(labels) = &slot.labels {
                    let _ = write!(out, "\t{}.labels={}", slot.module.name(), labels.describe());
                }
            }
            for slot in &bar.slots {
                if let Some(icon) = slot.picture_label.as_ref().and_then(|p| p.icon()) {
                    let _ = write!(out, "\t{}.icon={icon}", slot.module.name());
                }
            }
            for slot in &bar.slots {
                if let (Some(tray), false) = (&slot.tray, written.contains(&"tray")) {
                    written.push("tray");
                    let _ = write!(
                        out,
                        "\ttray={}\ttray.visible={}",
                        describe_tray(tray),
                        tray.is_visible()
                    );
                }
            }
            for slot in &bar.slots {
                let name = slot.module.name();
                if let (Some(graph), false) = (&slot.bar_graph, written.contains(&name)) {
                    let _ = write!(out, "\t{name}.graph={}", graph.describe());
                }
            }
            // Where each module sits in its window, as laid out for the last frame.
            let mut placed: Vec<&str> = Vec::new();
            for slot in &bar.slots {
                let name = slot.module.name();
                if placed.contains(&name) {
                    continue;
                }
                placed.push(name);
                if let Some(r) = slot.widget().compute_bounds(&bar.window) {
                    let _ = write!(
                        out,
                        "\t{name}.bounds={},{},{},{}",
                        r.x(),
                        r.y(),
                        r.width(),
                        r.height()
                    );
                }
            }
            if let Some(r) = bar.notice.compute_bounds(&bar.window) {
                let _ = write!(
                    out,
                    "\tnotice.bounds={},{},{},{}",
                    r.x(),
                    r.y(),
                    r.width(),
                    r.height()
                );
            }
            let labels = bar
                .slots
                .iter()
                .map(|slot| (slot.module.name(), &slot.label))
                .chain([("notice", &bar.notice)]);
            for (name, label) in labels {
                if written.contains(&name) {
                    continue;
                }
                written.push(name);
                let _ = write!(
                    out,
                    "\t{name}={}\t{name}.visible={}\t{name}.classes={}",
                    label.text(),
                    label.is_visible(),
                    classes(label)
                );
            }
            out.push('\n');
        }
        self.write("bars", &out);
    }

    /// Writes `first-frame` once the window's first frame is painted (the start-up
    /// benchmark waits for it).
    pub fn on_first_frame(&self, window: &gtk::Window) {
        let path = self.dir.join("first-frame");
        window.connect_realize(move |window| {
            let Some(clock) = window.frame_clock() else {
                return;
            };
            let path = path.clone();
            let handler = std::rc::Rc::new(std::cell::Cell::new(None));
            let slot = handler.clone();
            let id = clock.connect_after_paint(move |clock| {
                if let Err(err) = std::fs::write(&path, "") {
                    tracing::warn!("test hook: writing {}: {err}", path.display());
                }
                if let Some(id) = slot.take() {
                    clock.disconnect(id);
                }
            });
            handler.set(Some(id));
        });
    }

    /// A tooltip label's markup and the text Pango parsed from it, read back from GTK.
    pub fn write_tooltip(&self, tooltip: &gtk::Label) {
        self.write("tooltip.markup", &tooltip.label());
        self.write("tooltip.text", &tooltip.text());
        self.write("tooltip.margin", &tooltip.margin_top().to_string());
    }

    /// The history graphs of the tooltip last filled, as `HistoryGraphs::describe`
    /// writes them (empty for a tooltip without graphs).
    pub fn write_graphs(&self, graphs: Option<&super::history_graph::HistoryGraphs>) {
        self.write(
            "tooltip.graphs",
            &graphs.map(|g| g.describe()).unwrap_or_default(),
        );
    }

    /// The tray menu last shown, as `MenuEntry::describe` writes it.
    pub fn write_menu(&self, text: &str) {
        self.write("tray-menu", text);
    }

    /// A module's own menu last opened, as `Menu::describe` writes it.
    pub fn write_module_menu(&self, text: &str) {
        self.write("module-menu", text);
    }

    fn write(&self, name: &str, text: &str) {
        let path = self.dir.join(name);
        let tmp = self.dir.join(format!(".{name}.tmp"));
        if let Err(err) = std::fs::write(&tmp, text).and_then(|()| std::fs::rename(&tmp, &path)) {
            tracing::warn!("test hook: writing {}: {err}", path.display());
        }
    }
}
