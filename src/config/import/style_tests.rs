//! A Waybar style.css converted for ringbar.

use super::convert_style;
use super::style::WAYBARS_GROUND;

#[test]
fn a_waybar_style_is_renamed_for_ringbar_and_gtk3_properties_are_commented_out() {
    let css = "/* a comment with #mpd { } and -gtk-icon-effect: dim; */\n\
               @define-color bg #333333;\n\
               window#waybar { background: #000; }\n\
               window#waybar.empty #window { background: none; }\n\
               #workspaces button.focused, #clock, #battery.charging { color: #fff; }\n\
               #workspaces button.active { border: 1px solid #ffffff; }\n\
               #mpd, #custom-media, #pulseaudio.muted { padding: 0 4px; }\n\
               #tray menu { -gtk-icon-effect: dim; color: @bg; -GtkWidget-focus-line-width: 0 }\n\
               label:hover { background-image: url(\"a/b.png\"); -gtk-outline-radius: 3px; }\n";
    let modules = [
        "workspaces",
        "window",
        "clock",
        "battery",
        "custom/media",
        "audio",
    ]
    .map(str::to_owned);
    let (converted, notes) = convert_style(css, &modules);
    let expected = "/* a comment with #mpd { } and -gtk-icon-effect: dim; */\n".to_owned()
        + WAYBARS_GROUND
        + "@define-color bg #333333;\n\
               window#ringbar { background: #000; }\n\
               window#ringbar.empty #window { background: none; }\n\
               #workspaces button.focused, #clock, #battery.charging { color: #fff; }\n\
               #workspaces button.focused { border: 1px solid #ffffff; }\n\
               #mpd, #custom-media, #audio.muted { padding: 0 4px; }\n\
               #tray menu { /* -gtk-icon-effect: dim; (GTK 3 only) */ color: @bg; \
               /* -GtkWidget-focus-line-width: 0 (GTK 3 only) */}\n\
               label:hover { background-image: url(\"a/b.png\"); \
               /* -gtk-outline-radius: 3px; (GTK 3 only) */ }\n";
    assert_eq!(converted, expected);
    assert_eq!(
        notes,
        [
            "window#waybar: renamed window#ringbar",
            "#workspaces button.active: renamed .focused, ringbar's class for the active \
             workspace",
            "#pulseaudio: renamed #audio, ringbar's name of the module",
            "`-gtk-icon-effect`: GTK 3's, which GTK 4 refuses; commented out",
            "`-GtkWidget-focus-line-width`: GTK 3's, which GTK 4 refuses; commented out",
            "`-gtk-outline-radius`: GTK 3's, which GTK 4 refuses; commented out",
            "#mpd: no such module in the converted config; matches nothing",
        ]
    );
}

#[test]
fn a_style_without_anything_to_convert_is_kept_byte_for_byte_after_its_imports() {
    let rules = "* { font-family: \"Font Awesome 6 Free\", monospace; font-size: 13px; }\n\
                 #clock { padding: 0 10px; /* spacing */ }\n";
    let (converted, notes) = convert_style(rules, &["clock".to_owned()]);
    assert_eq!(converted, format!("{WAYBARS_GROUND}{rules}"));
    assert!(notes.is_empty(), "{notes:?}");
    // CSS takes `@import` first only: ringbar's ground comes after.
    let imports = "@import url(\"colors.css\");\n/* mine */ @import \"b.css\";\n";
    let (converted, _) = convert_style(&format!("{imports}{rules}"), &["clock".to_owned()]);
    assert_eq!(converted, format!("{imports}{WAYBARS_GROUND}{rules}"));
}

#[test]
fn waybar_ids_of_modules_ringbar_names_otherwise_are_renamed_whole() {
    let css = "#pulseaudio, #pulseaudio-x, #mpris.paused, #power-profiles-daemon, \
               #submap { color: red; }\n";
    let modules = ["audio", "media", "power_profile", "mode"].map(str::to_owned);
    let (converted, notes) = convert_style(css, &modules);
    assert_eq!(
        converted,
        format!(
            "{WAYBARS_GROUND}#audio, #pulseaudio-x, #media.paused, #power_profile, #mode \
             {{ color: red; }}\n"
        )
    );
    assert!(
        notes.contains(&"#mpris: renamed #media, ringbar's name of the module".to_owned()),
        "{notes:?}"
    );
    assert!(
        notes.contains(
            &"#pulseaudio-x: no such module in the converted config; matches nothing".to_owned()
        ),
        "{notes:?}"
    );

    // Listed by Waybar's names, as the converted config lists them: `#audio` matches.
    let listed = ["pulseaudio", "wireplumber", "mpris"].map(str::to_owned);
    let (_, notes) = convert_style("#pulseaudio, #wireplumber, #mpris { color: red; }", &listed);
    assert!(
        !notes.iter().any(|n| n.contains("matches nothing")),
        "{notes:?}"
    );
}
