//! The compositors ringbar speaks to, in the order the environment is asked about them:
//! a backend is its folder and one line here.

use super::backend::Kind;

pub(super) const BACKENDS: [Kind; 5] = [
    super::sway::BACKEND,
    super::hyprland::BACKEND,
    super::niri::BACKEND,
    super::wayfire::BACKEND,
    // The standard protocols of any compositor: the fallback, as it always locates.
    super::wayland::BACKEND,
];
