//! The compositors ringbar speaks to, in the order the environment is asked about them:
//! a backend is its folder and one line here. Each names itself with a [`Kind`]: how to
//! tell it runs, Waybar's names of its modules, and (in the bar) how to start it.

#[cfg(feature = "app")]
use super::backend::Start;
use super::{Env, Located};

/// One kind of compositor.
pub struct Kind {
    /// Its name for the config's `compositor` key and the logs: "sway", "niri".
    pub name: &'static str,
    /// Where it is reached, from the environment.
    pub locate: fn(Env) -> Located,
    /// Waybar's modules for this compositor (`niri/window`), each with the module of
    /// ringbar's that it is (`window`).
    pub waybar: &'static [(&'static str, &'static str)],
    /// Connects (or keeps trying to) at the place `locate` found.
    #[cfg(feature = "app")]
    pub(super) start: Start,
}

pub const BACKENDS: &[Kind] = &[
    super::sway::BACKEND,
    super::hyprland::BACKEND,
    super::niri::BACKEND,
    super::wayfire::BACKEND,
    // The standard protocols of any compositor: the fallback, as it always locates.
    super::wayland::BACKEND,
];

/// Waybar's names of every compositor's modules, each with the module of ringbar's that
/// it is (`sway/workspaces` → `workspaces`).
pub fn waybar_modules() -> impl Iterator<Item = (&'static str, &'static str)> {
    BACKENDS.iter().flat_map(|kind| kind.waybar.iter().copied())
}
