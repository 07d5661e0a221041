//! [`Compositor`]: the running compositor's workspaces and focused window, kept up to
//! date on the glib main loop, and the requests that switch workspaces.
//!
//! The backend is the first of the registry's that the environment names (`SWAYSOCK`
//! means sway, then `HYPRLAND_INSTANCE_SIGNATURE` Hyprland, …), unless the config names
//! one. Nothing here blocks: sockets are
//! non-blocking and served by fd sources on the thread-default main context. A lost
//! connection is retried after 0.5 s, doubling to 10 s, and logged once per outage;
//! meanwhile the state is empty.

use std::path::PathBuf;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::backend::Backend;
use super::registry::Kind;
use super::registry::BACKENDS;
use super::shared::Shared;
use super::{step_target, CompositorState, Workspace};

pub struct Compositor {
    shared: Rc<Shared>,
    backend: Rc<dyn Backend>,
}

/// The compositor to speak to and where: the first of [`BACKENDS`] the environment names,
/// or the one `forced` names.
fn endpoint(
    var: &dyn Fn(&str) -> Option<String>,
    forced: Option<&str>,
) -> Result<(&'static Kind, PathBuf), String> {
    if let Some(name) = forced {
        let Some(kind) = BACKENDS.iter().find(|kind| kind.name == name) else {
            let known: Vec<&str> = BACKENDS.iter().map(|kind| kind.name).collect();
            return Err(format!(
                "no compositor {name:?} (known: {})",
                known.join(", ")
            ));
        };
        return match (kind.locate)(var) {
            Some(Ok(path)) => Ok((kind, path)),
            Some(Err(why)) => Err(why.into()),
            None => Err(format!("the environment does not say where {name} is")),
        };
    }
    for kind in BACKENDS {
        match (kind.locate)(var) {
            Some(Ok(path)) => return Ok((kind, path)),
            Some(Err(why)) => return Err(why.into()),
            None => {}
        }
    }
    Err(
        "the environment names no compositor ringbar knows (SWAYSOCK, \
         HYPRLAND_INSTANCE_SIGNATURE, NIRI_SOCKET, WAYLAND_DISPLAY)"
            .into(),
    )
}

impl Compositor {
    /// Picks the backend from the environment: the first of the registry's compositors it
    /// names (SWAYSOCK → sway, HYPRLAND_INSTANCE_SIGNATURE → Hyprland, …), or `forced`.
    /// `None` when there is none (the reason is logged once, at info level).
    /// `on_change` runs on the glib main loop after every change of the state. The
    /// connection is made on the thread-default main context; a compositor not up yet is
    /// waited for.
    pub fn connect_from_env(
        forced: Option<&str>,
        on_change: impl Fn(&CompositorState) + 'static,
    ) -> Option<Rc<Self>> {
        Self::connect_with_env(|name| std::env::var(name).ok(), forced, on_change)
    }

    /// [`Compositor::connect_from_env`] with the variables from `var` instead of the
    /// process's environment (for tests, and for a caller that knows better).
    pub fn connect_with_env(
        var: impl Fn(&str) -> Option<String>,
        forced: Option<&str>,
        on_change: impl Fn(&CompositorState) + 'static,
    ) -> Option<Rc<Self>> {
        static LOGGED: AtomicBool = AtomicBool::new(false);
        let (kind, path) = match endpoint(&var, forced) {
            Ok(found) => found,
            // The config's choice that cannot be followed is a mistake to point out.
            Err(why) if forced.is_some() => {
                tracing::warn!("config: compositor: {why}; no workspaces or window title");
                return None;
            }
            Err(why) => {
                if !LOGGED.swap(true, Ordering::Relaxed) {
                    tracing::info!("no workspaces or window title: {why}");
                }
                return None;
            }
        };
        tracing::debug!("compositor: {} at {}", kind.name, path.display());
        let shared = Rc::new(Shared::new(on_change));
        let backend = (kind.start)(path, shared.clone());
        Some(Rc::new(Compositor { shared, backend }))
    }

    /// The state as last heard (empty while the compositor cannot be reached).
    pub fn state(&self) -> CompositorState {
        self.shared.state()
    }

    /// Asks the compositor to show `workspace`; returns at once (a failure is logged).
    pub fn focus_workspace(&self, workspace: &Workspace) {
        self.backend.focus(workspace);
    }

    /// Switches the keyboard to its next layout.
    pub fn next_layout(&self) {
        self.backend.next_layout();
    }

    /// Shows the next (or previous) workspace on the focused output, wrapping around:
    /// for scrolling over the workspaces. Unless `warp`, the compositor keeps the pointer
    /// where it is (Sway's `mouse_warping`; the others do not warp it).
    pub fn step_workspace(&self, forward: bool, warp: bool) {
        let state = self.shared.state();
        if let Some(target) = step_target(&state, forward) {
            match warp {
                true => self.backend.focus(target),
                false => self.backend.focus_without_warping(target),
            }
        }
    }
}

impl Drop for Compositor {
    fn drop(&mut self) {
        self.backend.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn the_backend_comes_from_the_environment() {
        let found = |vars: &[(&str, &str)], forced: Option<&str>| {
            endpoint(&env(vars), forced).map(|(kind, path)| (kind.name, path))
        };
        let sway = [("SWAYSOCK", "/run/user/1000/sway-ipc.sock")];
        assert_eq!(
            found(&sway, None),
            Ok(("sway", "/run/user/1000/sway-ipc.sock".into()))
        );
        let both = [
            ("HYPRLAND_INSTANCE_SIGNATURE", "abc_1_2"),
            ("SWAYSOCK", "/s"),
            ("XDG_RUNTIME_DIR", "/run/user/1000"),
        ];
        assert_eq!(found(&both, None), Ok(("sway", "/s".into())));
        // The config's choice wins over the order of the registry.
        assert_eq!(
            found(&both, Some("hyprland")),
            Ok(("hyprland", "/run/user/1000/hypr/abc_1_2".into()))
        );
        let hypr = &both[..1];
        assert_eq!(found(hypr, None).map(|(name, _)| name), Ok("hyprland"));
        assert!(found(&[("HYPRLAND_INSTANCE_SIGNATURE", "../../etc")], None).is_err());
        assert!(found(&[("SWAYSOCK", "")], None).is_err());
        assert!(found(&[], None).is_err());
        assert!(found(&sway, Some("hyprland")).is_err());
        let unknown = found(&sway, Some("weston")).expect_err("not a backend");
        assert!(unknown.contains("known: sway, hyprland"), "{unknown}");
    }
}

#[cfg(test)]
#[path = "client_tests.rs"]
mod fake_compositors;
