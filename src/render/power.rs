//! The platform power profile (`Power  balanced (low-power balanced performance)`), where
//! the firmware has one.

use serde_json::{json, Value as Json};

use super::header;
use crate::sample::Sample;
use crate::text::{untrusted, Sink};

pub fn write(sink: &mut dyn Sink, sample: &Sample) {
    let hw = &sample.hardware;
    if !hw.power_profile_choices.is_empty() {
        header(sink, "Power");
        match hw.power_profile.as_str() {
            "" => sink.out().push('–'),
            profile => untrusted(sink, profile),
        }
        sink.out().push_str(" (");
        untrusted(sink, &hw.power_profile_choices);
        sink.out().push_str(")\n");
    }
}

/// `"power_profile"`: `null` where the firmware has none.
pub fn json(sample: &Sample) -> Json {
    let hw = &sample.hardware;
    if hw.power_profile_choices.is_empty() {
        return Json::Null;
    }
    json!({
        "current": (!hw.power_profile.is_empty()).then_some(&hw.power_profile),
        "choices": hw.power_profile_choices.split_whitespace().collect::<Vec<_>>(),
    })
}
