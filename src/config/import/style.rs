//! Which selectors of a Waybar style.css match nothing in ringbar. ringbar names its
//! widgets as Waybar does (`#clock`, `#workspaces button.focused`, `#battery.charging`,
//! `#custom-NAME`), so most of a Waybar style applies; these are the ones that do not.

/// One note per selector part that will not match, given the converted modules'
/// ringbar names.
pub fn style_notes(css: &str, modules: &[String]) -> Vec<String> {
    let mut known: Vec<String> = modules
        .iter()
        .map(|name| {
            let kind = name.split('#').next().unwrap_or(name);
            kind.replace('/', "-")
        })
        .collect();
    known.extend(["ringbar".to_owned(), "tray".to_owned()]);
    let mut notes = Vec::new();
    for selector in selectors(css) {
        for id in ids(&selector) {
            let note = match id {
                "waybar" => "window#waybar: ringbar's window is window#ringbar".to_owned(),
                id if known.iter().any(|k| k == id) => continue,
                id => format!("#{id}: no such module in the converted config; matches nothing"),
            };
            if !notes.contains(&note) {
                notes.push(note);
            }
        }
        if selector.contains("#workspaces") && selector.contains(".active") {
            let note = "#workspaces button.active: ringbar marks the focused workspace .focused"
                .to_owned();
            if !notes.contains(&note) {
                notes.push(note);
            }
        }
    }
    notes
}

/// The selectors of `css`: the text before each `{` outside any block, comments removed.
fn selectors(css: &str) -> Vec<String> {
    let mut text = String::new();
    let mut rest = css;
    while let Some(start) = rest.find("/*") {
        text.push_str(&rest[..start]);
        rest = rest[start + 2..]
            .find("*/")
            .map_or("", |end| &rest[start + 2 + end + 2..]);
    }
    text.push_str(rest);
    let mut selectors = Vec::new();
    let mut depth = 0usize;
    let mut current = String::new();
    for c in text.chars() {
        match c {
            '{' => {
                if depth == 0 {
                    selectors.extend(current.split(',').map(|s| s.trim().to_owned()));
                }
                depth += 1;
                current.clear();
            }
            '}' => {
                depth = depth.saturating_sub(1);
                current.clear();
            }
            ';' if depth == 0 => current.clear(), // an @import or @define-color
            c if depth == 0 => current.push(c),
            _ => {}
        }
    }
    selectors
}

/// The `#id` parts of a selector.
fn ids(selector: &str) -> impl Iterator<Item = &str> {
    selector.match_indices('#').map(move |(at, _)| {
        let rest = &selector[at + 1..];
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_'))
            .unwrap_or(rest.len());
        &rest[..end]
    })
}
