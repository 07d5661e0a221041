//! `gpu`: `GPU 37% 61°C` for the GPU named by `[sensors] gpu`, else the busiest;
//! hidden on machines without a GPU.

use std::rc::Rc;

use super::thresholds::Thresholds;
use super::ModuleKind;
use super::{Input, Module, Sampling, Status, Table};
use crate::render::{number, write_percent_to, write_value};

const DEFAULTS: Thresholds = Thresholds {
    warning: 70.0,
    critical: 90.0,
};

struct Gpu {
    thresholds: Thresholds,
    decimals: usize,
}

/// The `gpu` module.
pub const KIND: ModuleKind = ModuleKind {
    name: "gpu",
    make,
    waybar: None,
};

pub fn make(_name: &str, table: Table<'_>) -> Result<Rc<dyn Module>, toml::de::Error> {
    let (thresholds, decimals) = Thresholds::with_decimals(table, DEFAULTS)?;
    Ok(Rc::new(Gpu {
        thresholds,
        decimals,
    }))
}

impl Module for Gpu {
    fn name(&self) -> &str {
        "gpu"
    }

    fn text(&self, input: &Input<'_>, out: &mut String) -> Option<Status> {
        let sample = input.sample;
        let gpu = sample.hardware.label_gpu()?;
        out.push_str("GPU ");
        let busy = gpu.reading.busy_percent.known();
        match busy {
            Some(p) => write_percent_to(out, p, self.decimals),
            None => out.push('–'),
        }
        write_value(out, " ", gpu.reading.celsius, "°C", number(0));
        let t = self.thresholds;
        Some(Status::of(busy, t.warning, t.critical))
    }

    fn sampling(&self) -> Option<Sampling> {
        Some(Sampling {
            gpus: true,
            ..Sampling::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{Gpu, GpuDriver, Value};
    use crate::modules::tests::text_of;
    use crate::modules::Level;
    use crate::sample::Sample;

    #[test]
    fn text_and_level_or_hidden() {
        let mut sample = Sample::default();
        assert_eq!(text_of("gpu", &sample), (String::new(), None));
        sample.hardware.gpus = vec![Gpu::new("card1", GpuDriver::Amdgpu, "0000:03:00.0")];
        assert_eq!(text_of("gpu", &sample).0, "GPU –");
        let reading = &mut sample.hardware.gpus[0].reading;
        reading.busy_percent = Value::Known(97.0);
        reading.celsius = Value::Known(61.4);
        let (text, status) = text_of("gpu", &sample);
        assert_eq!(text, "GPU 97% 61°C");
        assert_eq!(status.map(|s| s.level), Some(Level::Critical));
    }
}
