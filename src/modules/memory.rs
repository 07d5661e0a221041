//! `memory`: `MEM 2.0G/7.8G`, MemTotal − MemAvailable (what `free` calls used) of the
//! total; its level is the used share.

use std::rc::Rc;

use super::import::{self, Waybar};
use super::thresholds::Thresholds;
use super::ModuleKind;
use super::{Input, Module, Status, Table};
use crate::render::write_bytes;

const DEFAULTS: Thresholds = Thresholds {
    warning: 80.0,
    critical: 95.0,
};

struct Memory {
    thresholds: Thresholds,
}

/// The `memory` module.
pub const KIND: ModuleKind = ModuleKind {
    name: "memory",
    make,
    waybar: Some(Waybar {
        convert: import::sampled,
        ..Waybar::named(&["memory"])
    }),
};

pub fn make(_name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    let thresholds = Thresholds::from_table(table, DEFAULTS)?;
    Ok(Rc::new(Memory { thresholds }))
}

impl Module for Memory {
    fn name(&self) -> &str {
        "memory"
    }

    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        let sample = input.sample;
        out.push_str("MEM ");
        let percent = match sample.processes.memory {
            Some(m) if m.total > 0 => {
                write_bytes(out, m.used() as f64);
                out.push('/');
                write_bytes(out, m.total as f64);
                Some(m.used() as f64 / m.total as f64 * 100.0)
            }
            _ => {
                out.push('–');
                None
            }
        };
        let t = self.thresholds;
        Some(Status::of(percent, t.warning, t.critical))
    }
}

#[cfg(test)]
mod tests {
    use crate::model::Memory;
    use crate::modules::tests::text_of;
    use crate::modules::Level;
    use crate::sample::Sample;

    #[test]
    fn text_and_level() {
        let mut sample = Sample::default();
        assert_eq!(text_of("memory", &sample).0, "MEM –");
        sample.processes.memory = Some(Memory {
            total: 8 << 30,
            available: 2 << 30,
            swap_total: 0,
            swap_free: 0,
        });
        let (text, status) = text_of("memory", &sample);
        assert_eq!(text, "MEM 6.0G/8.0G");
        let status = status.expect("shown");
        assert_eq!(
            (status.level, status.percentage),
            (Level::Normal, Some(75.0))
        );
    }
}
