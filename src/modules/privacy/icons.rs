//! `privacy` as Waybar draws it, with `icon-size` set: a row of icons, one per kind in
//! use, each a `#privacy-item` with Waybar's class for it (`audio-in`, `screenshare`,
//! `audio-out`) and ringbar's (`microphone`, `camera`, `screen`, `speaker`), and the
//! tooltip of its kind alone. A click runs the module's `on-click*`.

use serde::Deserialize;

use super::{capturing, describe, Kind, Privacy};
use crate::modules::{Action, Button, ButtonRow, IconStyle, Input, RowButton, Target};
use crate::text::Plain;

/// The theme's icon for each kind (`icon-names = { camera = "camera-video-symbolic" }`).
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct IconNames {
    microphone: Option<String>,
    camera: Option<String>,
    screen: Option<String>,
    speaker: Option<String>,
}

impl IconNames {
    /// The icon for `kind`: the user's, else one every desktop theme has (Adwaita's).
    fn of(&self, kind: Kind) -> &str {
        let (own, standard) = match kind {
            Kind::Microphone => (&self.microphone, "audio-input-microphone-symbolic"),
            Kind::Camera => (&self.camera, "camera-web-symbolic"),
            Kind::Screen => (&self.screen, "video-display-symbolic"),
            Kind::Speaker => (&self.speaker, "audio-speakers-symbolic"),
        };
        own.as_deref()
            .filter(|name| !name.is_empty())
            .unwrap_or(standard)
    }
}

impl Kind {
    /// Waybar's class (and `type`) for it.
    fn waybar_class(self) -> &'static str {
        match self {
            Kind::Microphone => "audio-in",
            Kind::Camera | Kind::Screen => "screenshare",
            Kind::Speaker => "audio-out",
        }
    }
}

impl ButtonRow for Privacy {
    fn buttons(&self, input: &Input<'_>, out: &mut Vec<RowButton>) {
        out.clear();
        for kind in self.kinds() {
            let capturing = capturing(input, kind);
            if capturing.is_empty() {
                continue;
            }
            let mut tooltip = String::new();
            describe(&mut Plain(&mut tooltip), kind, &capturing);
            tooltip.truncate(tooltip.trim_end().len());
            out.push(RowButton {
                label: String::new(),
                classes: vec![kind.waybar_class(), kind.class()],
                class: None,
                icon: Some(self.settings.icon_names.of(kind).to_owned()),
                icon_last: false,
                tooltip: Some(tooltip),
                target: Target::Item(None),
            });
        }
    }

    fn press(&self, _target: &Target, which: Button, configured: Option<&str>) -> Option<Action> {
        configured.map(|_| Action::Run(which))
    }

    fn icons(&self) -> IconStyle {
        let size = self
            .settings
            .icon_size
            .filter(|&size| size > 0)
            .unwrap_or(16);
        IconStyle {
            size: i32::from(size.min(256)),
            spacing: i32::from(self.settings.icon_spacing.min(256)),
            button_name: Some("privacy-item"),
            ..IconStyle::default()
        }
    }
}
