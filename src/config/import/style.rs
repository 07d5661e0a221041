//! A Waybar style.css for ringbar. ringbar names its widgets as Waybar does (`#clock`,
//! `#workspaces button.focused`, `#battery.charging`, `#custom-NAME`), so most of a
//! Waybar style applies as it is. The conversion renames what ringbar names otherwise
//! (`window#waybar`, `#pulseaudio`, the active workspace), drops what GTK 4 no longer reads (GTK 3's
//! properties), and names the selectors that match nothing.

/// GTK 3's properties that GTK 4's parser refuses ("No property named …"), or their
/// beginnings; `-GtkWidget-…` style properties are GTK 3's too.
const GTK3_ONLY: [&str; 5] = [
    "-gtk-icon-effect",
    "-gtk-icon-theme",
    "-gtk-key-bindings",
    "-gtk-outline-",
    "-Gtk",
];

/// Put before the user's rules (after their `@import`s, which CSS wants first): what
/// ringbar's own style adds that Waybar's bar lacks (a padding around the modules, a line
/// under the shown workspaces), taken away so the user's style draws what it drew in
/// Waybar. Low selectors, so that any of the user's for the same widgets wins.
pub const WAYBARS_GROUND: &str = "\
/* From `ringbar import-waybar`: ringbar's own padding and workspace lines taken away,
   as in Waybar. */
.ringbar { padding: 0; }
button.focused, button.visible { box-shadow: none; background-color: transparent; }

";

/// `css` for ringbar, and what was changed or will not apply.
pub fn convert_style(css: &str, modules: &[String]) -> (String, Vec<String>) {
    let mut notes = Vec::new();
    let mut out = String::with_capacity(WAYBARS_GROUND.len() + css.len());
    let mut segment = String::new();
    let mut rest = css;
    while let Some(at) = rest.find(['{', '}', ';', '/']) {
        segment.push_str(&rest[..at]);
        let mark = rest[at..].chars().next().unwrap_or(';');
        rest = &rest[at + 1..];
        match mark {
            '/' if rest.starts_with('*') => {
                // A comment stays where it is; what it holds is not CSS.
                let end = rest.find("*/").map_or(rest.len(), |end| end + 2);
                segment.push('/');
                segment.push_str(&rest[..end]);
                rest = &rest[end..];
            }
            '/' => segment.push('/'),
            '{' => {
                out.push_str(&renamed_selector(&segment, &mut notes));
                out.push('{');
                segment.clear();
            }
            _ => {
                match refused_by_gtk4(&segment, mark, &mut notes) {
                    Some(commented) => out.push_str(&commented),
                    None => {
                        out.push_str(&segment);
                        out.push(mark);
                    }
                }
                segment.clear();
            }
        }
    }
    out.push_str(&segment);
    out.push_str(rest);
    notes.extend(style_notes(&out, modules));
    out.insert_str(imports_end(&out), WAYBARS_GROUND);
    (out, notes)
}

/// Where the leading `@import`s, with the comments and blanks among them, end.
fn imports_end(css: &str) -> usize {
    let mut at = 0;
    loop {
        let rest = &css[at..];
        let statement = rest.trim_start();
        let end = if statement.starts_with("/*") {
            statement.find("*/").map(|end| end + 2)
        } else if statement.starts_with("@import") {
            statement.find(';').map(|end| end + 1)
        } else {
            None
        };
        let blank = rest.len() - statement.len();
        match end {
            Some(end) => at += blank + end,
            None => return at + blank,
        }
    }
}

/// A selector with ringbar's names: `window#waybar` is `window#ringbar`, a module that
/// ringbar names otherwise has ringbar's name (`#pulseaudio` is `#audio`), and the active
/// workspace (Hyprland's `.active` in Waybar) is `.focused`.
fn renamed_selector(selector: &str, notes: &mut Vec<String>) -> String {
    let mut renamed = selector.replace("#waybar", "#ringbar");
    if renamed != selector {
        note_once(notes, "window#waybar: renamed window#ringbar");
    }
    for id in ids(selector) {
        if let Some(ours) = ringbar_id(id) {
            renamed = renamed_id(&renamed, id, ours);
            note_once(
                notes,
                &format!("#{id}: renamed #{ours}, ringbar's name of the module"),
            );
        }
    }
    if renamed.contains("#workspaces") && renamed.contains(".active") {
        renamed = renamed.replace(".active", ".focused");
        note_once(
            notes,
            "#workspaces button.active: renamed .focused, ringbar's class for the active \
             workspace",
        );
    }
    renamed
}

/// ringbar's name for Waybar's `#id` of a module it names otherwise: Waybar's id is its
/// module's name after any `compositor/` (`#pulseaudio`, `#submap` of `hyprland/submap`).
fn ringbar_id(id: &str) -> Option<&'static str> {
    crate::modules::registry::aliases().find_map(|(waybar, ours)| {
        let waybar_id = waybar.rsplit('/').next().unwrap_or(waybar);
        (waybar_id == id && id != ours).then_some(ours)
    })
}

/// `selector` with each `#from` (a whole id, not the start of a longer one) as `#to`.
fn renamed_id(selector: &str, from: &str, to: &str) -> String {
    let is_id_char = |c: char| c.is_alphanumeric() || c == '-' || c == '_';
    let mut out = String::with_capacity(selector.len());
    let mut rest = selector;
    let pattern = format!("#{from}");
    while let Some(at) = rest.find(&pattern) {
        let after = &rest[at + pattern.len()..];
        out.push_str(&rest[..at]);
        match after.starts_with(is_id_char) {
            true => out.push_str(&pattern),
            false => {
                out.push('#');
                out.push_str(to);
            }
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// A declaration (`color: red`) GTK 4 refuses, commented out with its `;` (a `}` stays
/// outside the comment); `None` for one it reads.
fn refused_by_gtk4(written: &str, mark: char, notes: &mut Vec<String>) -> Option<String> {
    let declaration = &without_comments(written);
    let property = declaration.split(':').next().unwrap_or_default().trim();
    let gtk3_property =
        declaration.contains(':') && GTK3_ONLY.iter().any(|old| property.starts_with(old));
    let gtk3_value = declaration.contains("-gtk-gradient(");
    if !(gtk3_property || gtk3_value) {
        return None;
    }
    let what = if gtk3_property {
        format!("`{property}`")
    } else {
        "-gtk-gradient()".to_owned()
    };
    note_once(
        notes,
        &format!("{what}: GTK 3's, which GTK 4 refuses; commented out"),
    );
    let indent = &written[..written.len() - written.trim_start().len()];
    let text = declaration.trim();
    Some(match mark {
        ';' => format!("{indent}/* {text}; (GTK 3 only) */"),
        _ => format!("{indent}/* {text} (GTK 3 only) */{mark}"),
    })
}

fn note_once(notes: &mut Vec<String>, note: &str) {
    if !notes.iter().any(|n| n == note) {
        notes.push(note.to_owned());
    }
}

/// One note per selector part that will not match, given the converted modules'
/// ringbar names.
fn style_notes(css: &str, modules: &[String]) -> Vec<String> {
    let mut known: Vec<String> = Vec::new();
    for name in modules {
        let kind = name.split('#').next().unwrap_or(name).replace('/', "-");
        // A module listed by a Waybar name (`pulseaudio`) is named by ringbar's (`#audio`).
        known.extend(ringbar_id(&kind).map(str::to_owned));
        known.push(kind);
    }
    known.extend(["ringbar".to_owned(), "tray".to_owned()]);
    let mut notes = Vec::new();
    for selector in selectors(css) {
        for id in ids(&selector) {
            if !known.iter().any(|k| k == id) {
                let note =
                    format!("#{id}: no such module in the converted config; matches nothing");
                note_once(&mut notes, &note);
            }
        }
    }
    notes
}

/// `css` without its comments.
fn without_comments(css: &str) -> String {
    let mut text = String::new();
    let mut rest = css;
    while let Some(start) = rest.find("/*") {
        text.push_str(&rest[..start]);
        rest = rest[start + 2..]
            .find("*/")
            .map_or("", |end| &rest[start + 2 + end + 2..]);
    }
    text.push_str(rest);
    text
}

/// The selectors of `css`: the text before each `{` outside any block, comments removed.
fn selectors(css: &str) -> Vec<String> {
    let text = without_comments(css);
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
