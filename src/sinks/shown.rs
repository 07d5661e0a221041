//! The shown modules of a text output (`--once`, `--waybar`) on one line: their texts
//! joined by two spaces, and each distinct tooltip once, in the order met (the monitor
//! modules share theirs).

use std::rc::Rc;

use crate::events::script::markup::visible_text;
use crate::modules::{Input, Module, Status};
use crate::text::{push_escaped, Markup, Plain};

pub struct Shown {
    pub text: String,
    pub tooltips: Vec<String>,
    /// The statuses of the modules shown, in order.
    pub statuses: Vec<Status>,
}

/// Texts and tooltips as Pango markup (`markup`, everything untrusted escaped), or as
/// plain text.
pub fn shown(input: &Input<'_>, modules: &[Rc<dyn Module>], markup: bool) -> Shown {
    let mut shown = Shown {
        text: String::new(),
        tooltips: Vec::new(),
        statuses: Vec::new(),
    };
    let mut one = String::new();
    for module in modules {
        one.clear();
        let Some(status) = module.text(input, &mut one) else {
            continue;
        };
        if !shown.text.is_empty() {
            shown.text.push_str("  ");
        }
        match (markup, status.markup) {
            (true, false) => push_escaped(&mut shown.text, &one),
            (false, true) => visible_text(&one, &mut shown.text),
            _ => shown.text.push_str(&one),
        }
        shown.statuses.push(status);
        let mut tooltip = String::new();
        if markup {
            module.tooltip(&mut Markup(&mut tooltip), input);
        } else {
            module.tooltip(&mut Plain(&mut tooltip), input);
        }
        if !shown.tooltips.contains(&tooltip) {
            shown.tooltips.push(tooltip);
        }
    }
    shown
}
