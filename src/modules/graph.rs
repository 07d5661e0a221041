//! `cpu_graph` and `memory_graph`: the last minutes of CPU or memory use as a mini graph
//! in the bar itself (the bar draws it; see `ui/bar_graph.rs`). The text outputs show the
//! same as a sparkline, `CPU ▁▂▃▅▇█▅▃`. Not in the default layout.

use std::rc::Rc;

use serde::Deserialize;

use super::ModuleKind;
use super::Widget;
use super::{Input, Module, Status, Table};
use crate::model::history::Metric;
use crate::render::history::scale_top;
use crate::render::sparkline;

/// A graph module's `[cpu_graph]` / `[memory_graph]` table.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct GraphSettings {
    /// The graph's width on the bar, pixels.
    pub width: u32,
    /// How far back it reaches, seconds (at most the history's ten minutes).
    pub seconds: u32,
}

impl Default for GraphSettings {
    fn default() -> Self {
        GraphSettings {
            width: 60,
            seconds: 120,
        }
    }
}

/// What the bar draws for a graph module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BarGraph {
    pub metric: Metric,
    pub settings: GraphSettings,
}

/// Blocks of the text outputs' sparkline.
const TEXT_BLOCKS: usize = 8;

struct Graph {
    name: &'static str,
    title: &'static str,
    graph: BarGraph,
}

fn make(
    table: Table<'_>,
    name: &'static str,
    title: &'static str,
    metric: Metric,
) -> Result<Rc<dyn Module>, toml::de::Error> {
    let settings = match table {
        Some(table) => GraphSettings::deserialize(table)?,
        None => GraphSettings::default(),
    };
    if !(16..=400).contains(&settings.width) {
        return Err(serde::de::Error::custom(format!(
            "{name}.width must be within 16–400 pixels"
        )));
    }
    if !(10..=600).contains(&settings.seconds) {
        return Err(serde::de::Error::custom(format!(
            "{name}.seconds must be within 10–600"
        )));
    }
    let graph = BarGraph { metric, settings };
    Ok(Rc::new(Graph { name, title, graph }))
}

/// The `cpu_graph` module.
pub const CPU_KIND: ModuleKind = ModuleKind {
    name: "cpu_graph",
    make: make_cpu,
    waybar: None,
};

/// The `memory_graph` module.
pub const MEMORY_KIND: ModuleKind = ModuleKind {
    name: "memory_graph",
    make: make_memory,
    waybar: None,
};

pub fn make_cpu(_name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    make(table, "cpu_graph", "CPU", Metric::Cpu)
}

pub fn make_memory(_name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    make(table, "memory_graph", "MEM", Metric::Memory)
}

impl Module for Graph {
    fn name(&self) -> &str {
        self.name
    }

    fn widget(&self) -> Widget<'_> {
        Widget::Graph(&self.graph)
    }

    /// `CPU ▁▂▃▅▇█▅▃`: the last `seconds`, in blocks of 0–100 %; `CPU –` before a value.
    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        let history = &input.sample.history;
        let metric = self.graph.metric;
        out.push_str(self.title);
        out.push(' ');
        let mut columns = [None; TEXT_BLOCKS];
        let within = u64::from(self.graph.settings.seconds);
        let (used, _) = history.downsample(metric, within, &mut columns);
        if used == 0 {
            out.push('–');
        } else {
            let columns = &columns[..used];
            sparkline::write(out, columns, scale_top(metric, columns));
        }
        Some(Status {
            percentage: history.last(metric).map(f64::from),
            ..Status::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::model::history::Point;
    use crate::modules::tests::text_of;
    use crate::modules::Widget;
    use crate::sample::Sample;

    #[test]
    fn text_is_a_sparkline_of_the_last_seconds() {
        let mut sample = Sample::default();
        assert_eq!(text_of("cpu_graph", &sample).0, "CPU –");
        for (i, cpu) in [0.0, 30.0, 100.0].into_iter().enumerate() {
            let mut point = Point::empty();
            point.values[0] = cpu;
            point.values[1] = 50.0;
            sample
                .history
                .record(1_795_442_400_000 + 1000 * i as u64, 1_000_000_000, &point);
        }
        let (text, status) = text_of("cpu_graph", &sample);
        assert_eq!(text, "CPU ▁▃█");
        assert_eq!(status.and_then(|s| s.percentage), Some(100.0));
        assert_eq!(text_of("memory_graph", &sample).0, "MEM ▄▄▄");
    }

    #[test]
    fn settings_are_checked() {
        let parse = |table: &str| {
            let text = format!("modules_left = [\"cpu_graph\"]\n[cpu_graph]\n{table}");
            crate::config::parse(&text, "c.toml".as_ref()).map(|config| {
                match config.modules.left[0].widget() {
                    Widget::Graph(g) => Some((g.settings.width, g.settings.seconds)),
                    _ => None,
                }
            })
        };
        assert_eq!(parse("width = 100\n").expect("valid"), Some((100, 120)));
        assert!(parse("width = 4000\n").is_err());
        assert!(parse("seconds = 5\n").is_err());
        assert!(parse("colour = 1\n").is_err());
        let module = crate::modules::tests::default_module("memory_graph");
        assert_eq!(module.name(), "memory_graph");
    }
}
