//! Sway's keyboard layout and binding mode: the replies to GET_INPUTS and
//! GET_BINDING_STATE, and the `input` and `mode` events.

use serde::Deserialize;

use super::super::keyboard::{mode_of, Keyboard};
use super::super::{cap_text, text};

pub const GET_BINDING_STATE: u32 = 12;
pub const GET_INPUTS: u32 = 100;
pub const EVENT_INPUT: u32 = 0x8000_0015;

#[derive(Deserialize)]
struct Input {
    #[serde(rename = "type", default)]
    kind: String,
    #[serde(default)]
    xkb_active_layout_name: Option<String>,
    #[serde(default)]
    xkb_layout_names: Vec<String>,
}

impl Input {
    /// A keyboard's layouts; `None` for other devices and keyboards without XKB.
    fn keyboard(self) -> Option<Keyboard> {
        if self.kind != "keyboard" {
            return None;
        }
        Some(Keyboard {
            active: cap_text(&self.xkb_active_layout_name?),
            layouts: self.xkb_layout_names.iter().map(|l| cap_text(l)).collect(),
        })
    }
}

/// The layouts of the first keyboard in a GET_INPUTS reply (sway gives every keyboard
/// the `input type:keyboard` layouts, which a switch changes together).
pub fn parse_inputs(json: &[u8]) -> Result<Option<Keyboard>, String> {
    let inputs: Vec<Input> =
        serde_json::from_str(&text(json)).map_err(|e| format!("GET_INPUTS: {e}"))?;
    Ok(inputs.into_iter().find_map(Input::keyboard))
}

#[derive(Deserialize)]
struct InputEvent {
    #[serde(default)]
    change: String,
    input: Option<Input>,
}

/// An `input` event: the keyboard's layouts when they changed (a switch, a new keymap,
/// a keyboard plugged in).
pub fn input_event(payload: &[u8]) -> Option<Keyboard> {
    let event: InputEvent = serde_json::from_str(&text(payload)).ok()?;
    match event.change.as_str() {
        "xkb_layout" | "xkb_keymap" | "added" => event.input?.keyboard(),
        _ => None,
    }
}

#[derive(Deserialize)]
struct Mode {
    #[serde(default, alias = "change")]
    name: String,
}

/// A `mode` event (`change`) or the GET_BINDING_STATE reply (`name`): the mode, `None`
/// for the default one; `Err` when it does not parse.
pub fn parse_mode(json: &[u8]) -> Result<Option<String>, String> {
    let mode: Mode = serde_json::from_str(&text(json)).map_err(|e| format!("mode: {e}"))?;
    Ok(mode_of(&mode.name))
}

/// The command that switches every keyboard to its next layout.
pub const NEXT_LAYOUT: &str = "input type:keyboard xkb_switch_layout next";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_events_and_modes_as_sway_sends_them() {
        let inputs = br#"[
            {"identifier": "0:0:Power_Button", "type": "switch"},
            {"identifier": "1:1:kbd", "type": "keyboard", "xkb_active_layout_name": "German",
             "xkb_layout_names": ["English (US)", "German"], "xkb_active_layout_index": 1}]"#;
        let keyboard = parse_inputs(inputs).expect("parses").expect("a keyboard");
        assert_eq!(keyboard.active, "German");
        assert_eq!(keyboard.layouts, ["English (US)", "German"]);
        assert_eq!(parse_inputs(b"[]"), Ok(None));
        assert!(parse_inputs(b"{").is_err());

        let switched = br#"{"change": "xkb_layout", "input": {"type": "keyboard",
            "xkb_active_layout_name": "English (US)", "xkb_layout_names": ["English (US)", "German"]}}"#;
        assert_eq!(
            input_event(switched).map(|k| k.active),
            Some("English (US)".into())
        );
        let pointer = br#"{"change": "added", "input": {"type": "pointer"}}"#;
        assert_eq!(input_event(pointer), None);
        let removed = br#"{"change": "removed", "input": {"type": "keyboard"}}"#;
        assert_eq!(input_event(removed), None);
        assert_eq!(input_event(b"\xff"), None);

        assert_eq!(
            parse_mode(br#"{"change": "resize", "pango_markup": false}"#),
            Ok(Some("resize".into()))
        );
        assert_eq!(parse_mode(br#"{"name": "default"}"#), Ok(None));
        assert!(parse_mode(b"[").is_err());
    }
}
