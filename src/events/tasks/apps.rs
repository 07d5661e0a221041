//! An app id's desktop entry, as GIO finds it in the data folders: `ID.desktop`, then
//! the same in lower case, then the entry whose `StartupWMClass` is the app id, then
//! the first whose id holds the app id (`firefox` → `firefox-esr.desktop`). Its name and icon are kept per app id, so that each is looked
//! up once (a title changing all day looks up nothing).

use std::collections::HashMap;

use gio_unix::DesktopAppInfo;
use gtk4::gio;
use gtk4::prelude::*;

use super::list::App;

/// Bounds the cache: a compositor can invent app ids without end.
const MAX_KEPT: usize = 512;

#[derive(Default)]
pub struct Apps {
    found: HashMap<String, App>,
}

impl Apps {
    /// The entry of `app_id`, looked up the first time it is asked.
    pub fn of(&mut self, app_id: &str) -> App {
        if let Some(app) = self.found.get(app_id) {
            return app.clone();
        }
        if self.found.len() >= MAX_KEPT {
            self.found.clear();
        }
        let app = look_up(app_id).map_or((None, None), |info| {
            let name = Some(info.name().to_string()).filter(|n| !n.is_empty());
            let icon = info
                .icon()
                .and_then(|icon| IconExt::to_string(&icon))
                .map(|icon| icon.to_string());
            (name, icon)
        });
        self.found.insert(app_id.to_owned(), app.clone());
        app
    }
}

fn look_up(app_id: &str) -> Option<DesktopAppInfo> {
    // A path or a name with odd characters is no desktop file id.
    if app_id.is_empty() || app_id.contains(['/', '\0']) || app_id.len() > 255 {
        return None;
    }
    let by_id = |id: &str| DesktopAppInfo::new(&format!("{id}.desktop"));
    if let Some(info) = by_id(app_id).or_else(|| by_id(&app_id.to_lowercase())) {
        return Some(info);
    }
    let all: Vec<DesktopAppInfo> = gio::AppInfo::all()
        .into_iter()
        .filter_map(|info| info.downcast::<DesktopAppInfo>().ok())
        .collect();
    let wanted = app_id.to_lowercase();
    let id_holds = |info: &DesktopAppInfo| {
        info.id()
            .is_some_and(|id| id.to_lowercase().contains(&wanted))
    };
    let by_class = all
        .iter()
        .find(|info| info.startup_wm_class().as_deref() == Some(app_id));
    by_class
        .or_else(|| all.iter().find(|info| id_holds(info)))
        .cloned()
}
