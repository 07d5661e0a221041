//! What the compositor says about workspaces and the focused window, for the `workspaces`
//! and `window` modules.
//!
//! Each compositor is a folder ([`sway`], [`hyprland`]) whose core half is pure: the IPC
//! framing, the parsers and the requests that switch workspaces, all from bytes and
//! strings to [`CompositorState`]. With the `app` feature, `Compositor` talks to the
//! running compositor on the glib main loop through the backend of its folder's
//! `client.rs`; `registry.rs` lists the backends.
//!
//! Names and titles come from other programs: they stay data here (never markup, never
//! escaped), are cut at [`MAX_TEXT`] characters where they are shown, and odd bytes are
//! replaced, never a panic.

pub mod hyprland;
pub mod keyboard;
pub mod niri;
pub mod registry;
pub mod sway;
pub mod wayfire;
pub mod wayland;

#[cfg(feature = "app")]
mod backend;
#[cfg(feature = "app")]
mod client;
#[cfg(feature = "app")]
pub mod io;
#[cfg(feature = "app")]
mod lines;
#[cfg(feature = "app")]
mod oneshot;
#[cfg(feature = "app")]
mod shared;

#[cfg(feature = "app")]
pub use client::Compositor;

/// Reads one environment variable (the process's, or a test's).
pub type Env<'a> = &'a dyn Fn(&str) -> Option<String>;

/// Where a compositor is reached, as a backend's `locate` finds it in the environment:
/// `None` when the environment does not name that compositor, `Err` when it names it
/// wrongly.
pub type Located = Option<Result<std::path::PathBuf, &'static str>>;

/// [`Workspace::windows`] where the compositor does not say which windows a workspace
/// holds (the standard protocols do not): neither empty nor occupied.
pub const WINDOWS_UNKNOWN: u32 = u32::MAX;

/// The longest window title or app id kept, in characters.
pub const MAX_TEXT: usize = 1024;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Workspace {
    /// Sway: the workspace's `num` (-1 for a name without a number). Hyprland: its id
    /// (-99..=-2 for special workspaces, below -1337 for named ones); 0.57 gives named
    /// and special workspaces no id, and they get -1 and -99 here.
    pub id: i64,
    pub name: String,
    /// The output's connector name, e.g. "HEADLESS-1", "DP-2".
    pub output: String,
    pub focused: bool,
    pub visible: bool,
    pub urgent: bool,
    /// How many windows it holds (floating ones too); 0 = empty, [`WINDOWS_UNKNOWN`] when
    /// the compositor does not say.
    pub windows: u32,
    /// A Hyprland special workspace (named "special:…").
    pub special: bool,
    /// Hyprland's number of its output (`monitorID`): persistent workspaces given as a
    /// count are numbered from it. `None` elsewhere.
    pub monitor_id: Option<u32>,
    /// The window last focused on it, where the compositor says (Sway, Hyprland):
    /// what a bar on its output shows as the window (Waybar's `separate-outputs`).
    pub last_window: Option<WindowName>,
    /// The windows it holds, at most [`MAX_LISTED`], in the compositor's order (Sway:
    /// its tree's; Hyprland, niri and Wayfire: oldest first), for Waybar's
    /// `window-rewrite`. Empty where the compositor does not say (ext-workspace).
    pub window_names: Vec<WindowName>,
}

/// The most windows of one workspace kept in [`Workspace::window_names`].
pub const MAX_LISTED: usize = 256;

/// A window's title and app id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WindowName {
    pub title: String,
    /// Its app id (or X11 class); `None` where the compositor does not say (Hyprland's
    /// last window).
    pub app_id: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CompositorState {
    /// In display order: see [`sort_workspaces`].
    pub workspaces: Vec<Workspace>,
    /// The focused window's title; `None` when no window has the focus.
    pub window_title: Option<String>,
    pub window_app_id: Option<String>,
    /// The keyboard's layouts; `None` until the compositor has said.
    pub keyboard: Option<keyboard::Keyboard>,
    /// The binding mode (Sway) or submap (Hyprland); `None` for the default one.
    pub mode: Option<String>,
    /// The windows in Sway's scratchpad; `None` where the compositor has none.
    pub scratchpad: Option<Vec<Stashed>>,
}

/// A window in the scratchpad.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stashed {
    /// Its app id (or X11 class).
    pub app: String,
    pub title: String,
}

impl CompositorState {
    pub fn focused_workspace(&self) -> Option<&Workspace> {
        self.workspaces.iter().find(|w| w.focused)
    }
}

/// Display order: numbered workspaces by number, then named ones by name, then special
/// ones by name. (Sway's unnumbered workspaces have num -1; Hyprland's named ones have
/// ids below -1337.)
pub fn sort_workspaces(workspaces: &mut [Workspace]) {
    workspaces.sort_by(display_order);
}

/// The order of [`sort_workspaces`].
pub fn display_order(a: &Workspace, b: &Workspace) -> std::cmp::Ordering {
    let key = |w: &Workspace| match (w.special, w.id >= 0) {
        (true, _) => (2, 0),
        (false, true) => (0, w.id),
        (false, false) => (1, 0),
    };
    key(a).cmp(&key(b)).then_with(|| a.name.cmp(&b.name))
}

/// The workspace a scroll step goes to: the next (or previous) non-special workspace on
/// the focused output, wrapping around at the ends like sway's `next_on_output`. `None`
/// when there is nowhere else to go.
pub fn step_target(state: &CompositorState, forward: bool) -> Option<&Workspace> {
    let focused = state.focused_workspace()?;
    let on_output: Vec<&Workspace> = state
        .workspaces
        .iter()
        .filter(|w| !w.special && w.output == focused.output)
        .collect();
    // From a special workspace, step from the regular one shown under it.
    let current = on_output
        .iter()
        .position(|w| w.name == focused.name)
        .or_else(|| on_output.iter().position(|w| w.visible))?;
    let len = on_output.len();
    if len < 2 {
        return None;
    }
    let next = if forward {
        (current + 1) % len
    } else {
        (current + len - 1) % len
    };
    Some(on_output[next])
}

/// Bytes as text: odd bytes become U+FFFD instead of failing the whole reply.
pub(crate) fn text(json: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(json)
}

/// `text` cut to [`MAX_TEXT`] characters.
pub fn cap_text(text: &str) -> String {
    match text.char_indices().nth(MAX_TEXT) {
        Some((end, _)) => text[..end].to_owned(),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ws(id: i64, name: &str, output: &str) -> Workspace {
        Workspace {
            id,
            name: name.into(),
            output: output.into(),
            special: name.starts_with("special:"),
            ..Workspace::default()
        }
    }

    #[test]
    fn display_order_is_numbers_then_names_then_special() {
        let mut list = vec![
            ws(-1, "mail", "A"),
            ws(-98, "special:scratch", "A"),
            ws(10, "10", "A"),
            ws(-1338, "chat", "A"),
            ws(2, "2:web", "A"),
            ws(2, "2", "A"),
        ];
        sort_workspaces(&mut list);
        let names: Vec<&str> = list.iter().map(|w| w.name.as_str()).collect();
        assert_eq!(
            names,
            ["2", "2:web", "10", "chat", "mail", "special:scratch"]
        );
    }

    #[test]
    fn steps_wrap_on_the_focused_output_and_skip_special_and_other_outputs() {
        let mut state = CompositorState {
            workspaces: vec![
                ws(1, "1", "A"),
                ws(2, "2", "B"),
                ws(3, "3", "A"),
                ws(-98, "special:s", "A"),
                ws(5, "5", "A"),
            ],
            ..CompositorState::default()
        };
        state.workspaces[2].focused = true;
        state.workspaces[2].visible = true;
        let name = |w: Option<&Workspace>| w.map(|w| w.name.clone());
        assert_eq!(name(step_target(&state, true)), Some("5".into()));
        assert_eq!(name(step_target(&state, false)), Some("1".into()));
        state.workspaces[2].focused = false;
        state.workspaces[4].focused = true;
        assert_eq!(name(step_target(&state, true)), Some("1".into()));
        // A special workspace has the focus: step from the regular one it covers.
        state.workspaces[4].focused = false;
        state.workspaces[3].focused = true;
        assert_eq!(name(step_target(&state, true)), Some("5".into()));
        // Alone on its output, or nothing focused: nowhere to go.
        state.workspaces[3].focused = false;
        state.workspaces[1].focused = true;
        assert_eq!(step_target(&state, true), None);
        state.workspaces[1].focused = false;
        assert_eq!(step_target(&state, true), None);
    }

    #[test]
    fn text_is_capped_on_a_character_boundary() {
        let long = "é".repeat(MAX_TEXT + 10);
        let capped = cap_text(&long);
        assert_eq!(capped.chars().count(), MAX_TEXT);
        assert_eq!(cap_text("short"), "short");
    }
}
