//! A menu file as Waybar takes it: GtkBuilder XML with a `GtkMenu` whose id is `menu`,
//! its entries `GtkMenuItem`s (check, radio and image items too) and
//! `GtkSeparatorMenuItem`s, a submenu a `GtkMenu` inside an item (`<child
//! type="submenu">`, as Glade writes it, or `<property name="submenu">`). Of an item it
//! reads `label`, `use-underline` and `sensitive`; everything else a GTK 3 file may say
//! is left aside. GTK 4 has no `GtkMenu`, so the file is read here, not by GtkBuilder.

use quick_xml::events::{BytesStart, Event};

use super::MenuEntry;

/// Objects nested deeper than this are refused: a menu is a few levels deep, and a
/// hostile file must not make the bar build a tower.
const MAX_DEPTH: usize = 32;
/// More objects than this are refused.
const MAX_OBJECTS: usize = 2000;

/// An `<object>` as read: its class, id, the properties kept, and the objects inside.
#[derive(Default)]
struct Object {
    class: String,
    id: Option<String>,
    label: String,
    use_underline: bool,
    sensitive: bool,
    children: Vec<Object>,
}

/// The entries of the `GtkMenu` with id `menu` in `xml`, or why there are none.
pub fn parse(xml: &str) -> Result<Vec<MenuEntry>, String> {
    let objects = read_objects(xml)?;
    let menu = find(&objects, "menu").ok_or("no object with the id \"menu\"")?;
    if menu.class != "GtkMenu" {
        return Err(format!(
            "the object \"menu\" is a {}, not a GtkMenu",
            menu.class
        ));
    }
    Ok(entries(menu))
}

fn find<'a>(objects: &'a [Object], id: &str) -> Option<&'a Object> {
    objects
        .iter()
        .find_map(|object| match object.id.as_deref() {
            Some(found) if found == id => Some(object),
            _ => find(&object.children, id),
        })
}

fn entries(menu: &Object) -> Vec<MenuEntry> {
    let items = menu
        .children
        .iter()
        .filter(|o| o.class.ends_with("MenuItem"));
    items.map(entry).collect()
}

fn entry(item: &Object) -> MenuEntry {
    if item.class == "GtkSeparatorMenuItem" {
        return MenuEntry::Separator;
    }
    // GTK 4's menus always take `_` as a mnemonic mark: `__` is a plain underscore.
    let label = match item.use_underline {
        true => item.label.clone(),
        false => item.label.replace('_', "__"),
    };
    let submenu = item.children.iter().find(|o| o.class == "GtkMenu");
    MenuEntry::Item {
        id: item.id.clone(),
        label,
        enabled: item.sensitive,
        submenu: submenu.map(entries),
    }
}

/// Every top-level object of the file, with the objects inside each.
fn read_objects(xml: &str) -> Result<Vec<Object>, String> {
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut top: Vec<Object> = Vec::new();
    // The objects open now, innermost last; the property being read, and its text.
    let mut open: Vec<Object> = Vec::new();
    let mut property: Option<(String, String)> = None;
    let mut count = 0;
    loop {
        let at = reader.buffer_position();
        let event = reader
            .read_event()
            .map_err(|err| format!("{} (line {})", err, line_of(xml, at)))?;
        match event {
            Event::Start(start) if start.name().as_ref() == b"object" => {
                count += 1;
                if open.len() >= MAX_DEPTH || count > MAX_OBJECTS {
                    return Err(format!(
                        "more than {MAX_DEPTH} objects deep or {MAX_OBJECTS} in all"
                    ));
                }
                open.push(object_of(&start));
            }
            Event::Empty(start) if start.name().as_ref() == b"object" => {
                count += 1;
                let object = object_of(&start);
                match open.last_mut() {
                    Some(parent) => parent.children.push(object),
                    None => top.push(object),
                }
            }
            Event::End(end) if end.name().as_ref() == b"object" => {
                let Some(object) = open.pop() else {
                    continue;
                };
                match open.last_mut() {
                    Some(parent) => parent.children.push(object),
                    None => top.push(object),
                }
            }
            Event::Start(start) if start.name().as_ref() == b"property" => {
                property = attribute(&start, b"name").map(|name| (name, String::new()));
            }
            Event::Text(text) => {
                if let Some((_, value)) = property.as_mut() {
                    value.push_str(&text.decode().unwrap_or_default());
                }
            }
            // `&amp;`, `&#233;`: their own events between the text's pieces.
            Event::GeneralRef(reference) => {
                if let Some((_, value)) = property.as_mut() {
                    let name = reference.decode().unwrap_or_default();
                    match reference.resolve_char_ref() {
                        Ok(Some(c)) => value.push(c),
                        _ => value.push_str(
                            quick_xml::escape::resolve_predefined_entity(&name).unwrap_or(""),
                        ),
                    }
                }
            }
            Event::End(end) if end.name().as_ref() == b"property" => {
                if let (Some((name, value)), Some(object)) = (property.take(), open.last_mut()) {
                    set_property(object, &name, value);
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if !open.is_empty() {
        return Err("the file ends inside an <object>".to_owned());
    }
    Ok(top)
}

fn object_of(start: &BytesStart<'_>) -> Object {
    Object {
        class: attribute(start, b"class").unwrap_or_default(),
        id: attribute(start, b"id"),
        sensitive: true,
        ..Object::default()
    }
}

fn set_property(object: &mut Object, name: &str, value: String) {
    // GtkBuilder's booleans: `True`, `yes`, `1`… (case does not matter).
    let yes = || {
        matches!(
            value.trim().to_ascii_lowercase().as_str(),
            "true" | "yes" | "t" | "y" | "1"
        )
    };
    match name.replace('_', "-").as_str() {
        "label" => object.label = value,
        "use-underline" => object.use_underline = yes(),
        "sensitive" => object.sensitive = yes(),
        _ => {}
    }
}

fn attribute(start: &BytesStart<'_>, key: &[u8]) -> Option<String> {
    let found = start
        .attributes()
        .flatten()
        .find(|a| a.key.as_ref() == key)?;
    found
        .normalized_value(quick_xml::XmlVersion::Implicit1_0)
        .ok()
        .map(|value| value.into_owned())
}

fn line_of(xml: &str, at: u64) -> usize {
    let at = usize::try_from(at).unwrap_or(usize::MAX).min(xml.len());
    xml.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1
}
