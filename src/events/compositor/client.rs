//! [`Compositor`]: the running compositor's workspaces and focused window, kept up to
//! date on the glib main loop, and the requests that switch workspaces.
//!
//! The backend is chosen from the environment: `SWAYSOCK` means sway (i3-ipc), then
//! `HYPRLAND_INSTANCE_SIGNATURE` means Hyprland. Nothing here blocks: sockets are
//! non-blocking and served by fd sources on the thread-default main context. A lost
//! connection is retried after 0.5 s, doubling to 10 s, and logged once per outage;
//! meanwhile the state is empty.

use std::path::PathBuf;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::hyprland_client::Hyprland;
use super::shared::Shared;
use super::sway_client::Sway;
use super::{step_target, CompositorState, Workspace};

enum Backend {
    Sway(Rc<Sway>),
    Hyprland(Rc<Hyprland>),
}

pub struct Compositor {
    shared: Rc<Shared>,
    backend: Backend,
}

/// Where to reach the compositor, from the environment.
#[derive(Debug, PartialEq, Eq)]
enum Endpoint {
    Sway(PathBuf),
    /// The folder of `.socket.sock` and `.socket2.sock`.
    Hyprland(PathBuf),
}

fn endpoint(var: impl Fn(&str) -> Option<String>) -> Result<Endpoint, &'static str> {
    if let Some(path) = var("SWAYSOCK").filter(|p| !p.is_empty()) {
        return Ok(Endpoint::Sway(path.into()));
    }
    let Some(signature) = var("HYPRLAND_INSTANCE_SIGNATURE").filter(|s| !s.is_empty()) else {
        return Err("neither SWAYSOCK nor HYPRLAND_INSTANCE_SIGNATURE is set");
    };
    if signature.contains('/') || signature.starts_with('.') {
        return Err("HYPRLAND_INSTANCE_SIGNATURE is not a signature");
    }
    // Hyprland 0.40 and later: $XDG_RUNTIME_DIR/hypr/SIG; older releases: /tmp/hypr/SIG.
    let runtime = var("XDG_RUNTIME_DIR").filter(|d| !d.is_empty());
    let current = runtime.map(|dir| PathBuf::from(dir).join("hypr").join(&signature));
    let old = PathBuf::from("/tmp/hypr").join(&signature);
    Ok(match current {
        Some(dir) if dir.exists() || !old.exists() => Endpoint::Hyprland(dir),
        _ => Endpoint::Hyprland(old),
    })
}

impl Compositor {
    /// Picks the backend from the environment: SWAYSOCK → sway; HYPRLAND_INSTANCE_SIGNATURE
    /// → Hyprland ($XDG_RUNTIME_DIR/hypr/$SIG/.socket.sock and .socket2.sock). `None`
    /// elsewhere (the reason is logged once, at info level). `on_change` runs on the glib
    /// main loop after every change of the state. The connection is made on the
    /// thread-default main context; a compositor not up yet is waited for.
    pub fn connect_from_env(on_change: impl Fn(&CompositorState) + 'static) -> Option<Rc<Self>> {
        Self::connect_with_env(|name| std::env::var(name).ok(), on_change)
    }

    /// [`Compositor::connect_from_env`] with the variables from `var` instead of the
    /// process's environment (for tests, and for a caller that knows better).
    pub fn connect_with_env(
        var: impl Fn(&str) -> Option<String>,
        on_change: impl Fn(&CompositorState) + 'static,
    ) -> Option<Rc<Self>> {
        static LOGGED: AtomicBool = AtomicBool::new(false);
        let endpoint = match endpoint(var) {
            Ok(endpoint) => endpoint,
            Err(why) => {
                if !LOGGED.swap(true, Ordering::Relaxed) {
                    tracing::info!("no workspaces or window title: {why}");
                }
                return None;
            }
        };
        let shared = Rc::new(Shared::new(on_change));
        let backend = match endpoint {
            Endpoint::Sway(path) => Backend::Sway(Sway::start(path, shared.clone())),
            Endpoint::Hyprland(dir) => Backend::Hyprland(Hyprland::start(dir, shared.clone())),
        };
        Some(Rc::new(Compositor { shared, backend }))
    }

    /// The state as last heard (empty while the compositor cannot be reached).
    pub fn state(&self) -> CompositorState {
        self.shared.state()
    }

    /// Asks the compositor to show `workspace`; returns at once (a failure is logged).
    pub fn focus_workspace(&self, workspace: &Workspace) {
        match &self.backend {
            Backend::Sway(sway) => sway.focus(workspace),
            Backend::Hyprland(hyprland) => hyprland.focus(workspace),
        }
    }

    /// Switches the keyboard to its next layout.
    pub fn next_layout(&self) {
        match &self.backend {
            Backend::Sway(sway) => sway.next_layout(),
            Backend::Hyprland(hyprland) => hyprland.next_layout(),
        }
    }

    /// Shows the next (or previous) workspace on the focused output, wrapping around:
    /// for scrolling over the workspaces.
    pub fn step_workspace(&self, forward: bool) {
        let state = self.shared.state();
        if let Some(target) = step_target(&state, forward) {
            self.focus_workspace(target);
        }
    }
}

impl Drop for Compositor {
    fn drop(&mut self) {
        match &self.backend {
            Backend::Sway(sway) => sway.stop(),
            Backend::Hyprland(hyprland) => hyprland.stop(),
        }
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
        let sway = [("SWAYSOCK", "/run/user/1000/sway-ipc.sock")];
        assert_eq!(
            endpoint(env(&sway)),
            Ok(Endpoint::Sway("/run/user/1000/sway-ipc.sock".into()))
        );
        let both = [
            ("HYPRLAND_INSTANCE_SIGNATURE", "abc_1_2"),
            ("SWAYSOCK", "/s"),
        ];
        assert_eq!(endpoint(env(&both)), Ok(Endpoint::Sway("/s".into())));
        let hypr = [
            ("HYPRLAND_INSTANCE_SIGNATURE", "abc_1_2"),
            ("XDG_RUNTIME_DIR", "/run/user/1000"),
        ];
        assert_eq!(
            endpoint(env(&hypr)),
            Ok(Endpoint::Hyprland("/run/user/1000/hypr/abc_1_2".into()))
        );
        assert!(endpoint(env(&[("HYPRLAND_INSTANCE_SIGNATURE", "../../etc")])).is_err());
        assert!(endpoint(env(&[("SWAYSOCK", "")])).is_err());
        assert!(endpoint(env(&[])).is_err());
    }
}

#[cfg(test)]
#[path = "client_tests.rs"]
mod fake_compositors;
