//! The network module's reading: each interface's receive and transmit rates, from its
//! counters on the sample tick. Which interface the label shows comes from rtnetlink's
//! events (`crate::events::network`), not from here.

use serde_json::{json, Value as Json};

use crate::sample::readings::{copy_same, Reading};

/// One interface's rates in bytes per second; `None` before a second reading.
#[derive(Debug, Default, PartialEq)]
pub struct InterfaceRates {
    pub name: String,
    pub down: Option<f64>,
    pub up: Option<f64>,
}

/// `Clone` by hand: `clone_from` copies into the name the target already has, so the
/// sample's hand-over allocates nothing. Destructured, so a new field must be added.
impl Clone for InterfaceRates {
    fn clone(&self) -> Self {
        let mut rates = InterfaceRates::default();
        rates.clone_from(self);
        rates
    }

    fn clone_from(&mut self, source: &Self) {
        let InterfaceRates { name, down, up } = source;
        self.name.clone_from(name);
        self.down = *down;
        self.up = *up;
    }
}

/// Every interface of `/proc/net/dev` at one tick, in its order.
#[derive(Debug, Default, PartialEq)]
pub struct Traffic(pub Vec<InterfaceRates>);

impl Traffic {
    pub fn of(&self, name: &str) -> Option<&InterfaceRates> {
        self.0.iter().find(|rates| rates.name == name)
    }
}

impl Clone for Traffic {
    fn clone(&self) -> Self {
        Traffic(self.0.clone())
    }

    /// Vec::clone_from calls the elements' clone_from on the ones both have.
    fn clone_from(&mut self, source: &Self) {
        self.0.clone_from(&source.0);
    }
}

impl Reading for Traffic {
    fn boxed_clone(&self) -> Box<dyn Reading> {
        Box::new(self.clone())
    }

    fn copy_from(&mut self, other: &dyn Reading) {
        copy_same(self, other);
    }

    /// `interfaces[]` of `name`, `receive_bytes_per_second`, `transmit_bytes_per_second`.
    fn json(&self) -> Json {
        let interfaces: Vec<Json> = self
            .0
            .iter()
            .map(|rates| {
                json!({
                    "name": rates.name,
                    "receive_bytes_per_second": rates.down,
                    "transmit_bytes_per_second": rates.up,
                })
            })
            .collect();
        json!({ "interfaces": interfaces })
    }
}
