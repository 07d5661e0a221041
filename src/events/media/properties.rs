//! A player's properties as MPRIS sends them (`GetAll`, `PropertiesChanged`): what the
//! module shows is taken, cleaned; everything else is skipped.

use gtk4::glib::{self, Variant, VariantTy};

use super::{clean, Playback, Player};

/// More metadata entries than this are not read.
const MAX_ENTRIES: usize = 64;

/// The properties the module shows, from an `a{sv}`; others are skipped.
pub(super) fn apply(player: &mut Player, dict: &Variant, next_order: &mut u64) {
    for (name, value) in crate::events::bus_watch::properties(dict, MAX_ENTRIES) {
        match name.as_str() {
            "Identity" => player.identity = value.str().map(clean).unwrap_or_default(),
            "PlaybackStatus" => {
                let Some(playback) = value.str().and_then(Playback::parse) else {
                    continue;
                };
                if playback == Playback::Playing && player.playback != Playback::Playing {
                    player.played_at = *next_order;
                    *next_order += 1;
                }
                player.playback = playback;
            }
            "Metadata" => metadata(player, &value),
            _ => {}
        }
    }
}

/// `Metadata`: the title, artists, album and length; a missing one is cleared.
fn metadata(player: &mut Player, value: &Variant) {
    if !VariantTy::new("a{sv}").is_ok_and(|ty| value.is_type(ty)) {
        return;
    }
    let dict = glib::VariantDict::new(Some(value));
    let text = |key: &str| {
        let value = dict.lookup_value(key, None)?;
        // `xesam:artist` is a list; some players send one string.
        match value.str() {
            Some(text) => Some(clean(text)),
            None => value.get::<Vec<String>>().map(|list| {
                let shown: Vec<String> = list.iter().take(8).map(|a| clean(a)).collect();
                shown.join(", ")
            }),
        }
    };
    player.title = text("xesam:title").unwrap_or_default();
    player.artist = text("xesam:artist").unwrap_or_default();
    player.album = text("xesam:album").unwrap_or_default();
    player.length_us = dict.lookup_value("mpris:length", None).and_then(|length| {
        length
            .get::<i64>()
            .and_then(|l| u64::try_from(l).ok())
            .or_else(|| length.get::<u64>())
    });
}
