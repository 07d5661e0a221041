//! The keyboard layout and the binding mode as the compositors report them, for the
//! `language` and `mode` modules, and the short names XKB gives the layouts.

use std::collections::HashMap;
use std::path::Path;
use std::sync::OnceLock;

/// The layouts of the keyboard the compositor switches, and the active one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Keyboard {
    /// The active layout as XKB describes it: "English (US)", "German".
    pub active: String,
    /// All its layouts, in order (Sway: their descriptions; Hyprland: XKB's names,
    /// "us", "de"); empty when not known.
    pub layouts: Vec<String>,
}

/// What XKB's registry says of one layout (or variant) description.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LayoutName {
    /// The layout's name: "us", "de".
    pub short: String,
    /// The variant's name ("dvorak"); empty for the layout itself.
    pub variant: String,
    /// XKB's short description: "en", "de".
    pub short_description: String,
}

/// Where XKB's rules describe the layouts (xkb-data).
const REGISTRY: &str = "/usr/share/X11/xkb/rules/evdev.xml";

/// The names of the layout described as `description`, from XKB's registry (read once,
/// on first use); `None` for a description it does not hold.
pub fn layout_name(description: &str) -> Option<&'static LayoutName> {
    static NAMES: OnceLock<HashMap<String, LayoutName>> = OnceLock::new();
    NAMES
        .get_or_init(|| read_registry(Path::new(REGISTRY)))
        .get(description)
}

fn read_registry(path: &Path) -> HashMap<String, LayoutName> {
    match std::fs::read_to_string(path) {
        Ok(xml) => parse_registry(&xml),
        Err(err) => {
            tracing::info!(
                "language: cannot read {} ({err}); layouts by their full names",
                path.display()
            );
            HashMap::new()
        }
    }
}

/// Description → names, for every `<layout>` and `<variant>` of an XKB rules file.
pub fn parse_registry(xml: &str) -> HashMap<String, LayoutName> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut names = HashMap::new();
    // The element path's last names, the layout being read, and the item's fields.
    let mut path: Vec<String> = Vec::new();
    let mut layout = LayoutName::default();
    let mut item = (String::new(), String::new(), String::new()); // name, short, description
    loop {
        match reader.read_event() {
            Ok(Event::Start(start)) => {
                path.push(String::from_utf8_lossy(start.name().as_ref()).into_owned());
            }
            Ok(Event::Text(text)) => {
                let text = text.decode().unwrap_or_default();
                push_field(&path, &mut item, &text);
            }
            // `&amp;`, `&#233;`: their own events between the text's pieces.
            Ok(Event::GeneralRef(reference)) => {
                let name = reference.decode().unwrap_or_default();
                let text = match reference.resolve_char_ref() {
                    Ok(Some(c)) => c.to_string(),
                    _ => quick_xml::escape::resolve_predefined_entity(&name)
                        .unwrap_or_default()
                        .to_owned(),
                };
                push_field(&path, &mut item, &text);
            }
            Ok(Event::End(_)) => {
                let closed = path.pop().unwrap_or_default();
                let parent = path.iter().rev().nth(1).map(String::as_str);
                if closed != "configItem" {
                    continue;
                }
                let (name, short, description) = std::mem::take(&mut item);
                match parent {
                    Some("layoutList") => {
                        layout = LayoutName {
                            short: name,
                            variant: String::new(),
                            short_description: short,
                        };
                        names.insert(description, layout.clone());
                    }
                    Some("variantList") => {
                        let variant = LayoutName {
                            short: layout.short.clone(),
                            variant: name,
                            short_description: if short.is_empty() {
                                layout.short_description.clone()
                            } else {
                                short
                            },
                        };
                        names.insert(description, variant);
                    }
                    _ => {}
                }
            }
            Ok(Event::Eof) | Err(_) => break,
            Ok(_) => {}
        }
    }
    names
}

/// Appends text to the field of the configItem being read that `path` ends in.
fn push_field(path: &[String], item: &mut (String, String, String), text: &str) {
    match path.last().map(String::as_str) {
        Some("name") => item.0.push_str(text),
        Some("shortDescription") => item.1.push_str(text),
        Some("description") => item.2.push_str(text),
        _ => {}
    }
}

/// Sway's `mode` event and GET_BINDING_STATE, Hyprland's `submap`: the mode's name, or
/// `None` for the default one (Sway's "default", Hyprland's empty submap).
pub fn mode_of(name: &str) -> Option<String> {
    let name = name.trim();
    (!name.is_empty() && name != "default").then(|| super::cap_text(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_registry_names_layouts_and_variants() {
        let xml = r#"<?xml version="1.0" encoding="UTF-8"?>
<xkbConfigRegistry version="1.1">
  <modelList><model><configItem><name>pc105</name><description>Generic 105-key PC</description></configItem></model></modelList>
  <layoutList>
    <layout>
      <configItem><name>us</name><shortDescription>en</shortDescription><description>English (US)</description>
        <languageList><iso639Id>eng</iso639Id></languageList></configItem>
      <variantList>
        <variant><configItem><name>dvorak</name><description>English (Dvorak)</description></configItem></variant>
        <variant><configItem><name>x</name><shortDescription>xx</shortDescription><description>A &amp; B &#233;</description></configItem></variant>
      </variantList>
    </layout>
    <layout><configItem><name>de</name><shortDescription>de</shortDescription><description>German</description></configItem></layout>
  </layoutList>
</xkbConfigRegistry>"#;
        let names = parse_registry(xml);
        let name = |d: &str| {
            names.get(d).map(|n| {
                (
                    n.short.as_str(),
                    n.variant.as_str(),
                    n.short_description.as_str(),
                )
            })
        };
        assert_eq!(name("English (US)"), Some(("us", "", "en")));
        assert_eq!(name("English (Dvorak)"), Some(("us", "dvorak", "en")));
        assert_eq!(name("A & B é"), Some(("us", "x", "xx")));
        assert_eq!(name("German"), Some(("de", "", "de")));
        assert_eq!(name("Generic 105-key PC"), None, "a model is no layout");
        assert!(parse_registry("<broken").is_empty());
    }

    #[test]
    fn the_default_mode_is_none() {
        assert_eq!(mode_of("default"), None);
        assert_eq!(mode_of(""), None);
        assert_eq!(mode_of("resize"), Some("resize".to_owned()));
    }
}
