//! What the temperature module's reader read: one sensor, in °C.

use serde_json::Value as Json;

use crate::sample::readings::{copy_same, Reading};

/// The sensor's temperature in °C; `None` while it cannot be read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TemperatureReading {
    pub celsius: Option<f64>,
}

impl Reading for TemperatureReading {
    fn boxed_clone(&self) -> Box<dyn Reading> {
        Box::new(self.clone())
    }

    fn copy_from(&mut self, other: &dyn Reading) {
        copy_same(self, other);
    }

    /// `{"celsius": 45.2}`, or `null` while the sensor cannot be read.
    fn json(&self) -> Json {
        match self.celsius {
            Some(celsius) => serde_json::json!({ "celsius": celsius }),
            None => Json::Null,
        }
    }
}
