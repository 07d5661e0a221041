//! A plugin's log lines, into the bar's log: a plugin has its own copy of `tracing`,
//! whose events go nowhere unless a subscriber takes them. This one formats each event
//! as the bar's log would (its message, then its fields) and hands the line over.

use std::fmt::Write;

use super::{level_number, Bytes, Host};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

/// Forwards events at or below the bar's most detailed level.
pub struct ToHost {
    pub log: unsafe extern "C" fn(level: u8, line: Bytes),
    pub max_level: u8,
}

impl ToHost {
    pub fn of(host: &Host) -> ToHost {
        ToHost {
            log: host.log,
            max_level: host.max_level,
        }
    }
}

/// One event's message and fields as text.
#[derive(Default)]
struct Line(String);

impl Visit for Line {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if !self.0.is_empty() {
            self.0.push(' ');
        }
        let _ = match field.name() {
            "message" => write!(self.0, "{value:?}"),
            name => write!(self.0, "{name}={value:?}"),
        };
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            self.0.push_str(value);
        } else {
            self.record_debug(field, &value);
        }
    }
}

impl Subscriber for ToHost {
    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        level_number(*metadata.level()) <= self.max_level
    }

    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }

    fn record(&self, _: &Id, _: &Record<'_>) {}

    fn record_follows_from(&self, _: &Id, _: &Id) {}

    fn event(&self, event: &Event<'_>) {
        let mut line = Line::default();
        event.record(&mut line);
        let level = level_number(*event.metadata().level());
        // SAFETY: the bar's function, lent the line for the call.
        unsafe { (self.log)(level, Bytes::of(line.0.as_bytes())) };
    }

    fn enter(&self, _: &Id) {}

    fn exit(&self, _: &Id) {}
}
