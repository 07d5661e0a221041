//! The user module's fields, its steps counted from the boot, its tooltip and its click.

use std::path::Path;

use super::*;
use crate::modules::tests::input;
use crate::modules::{Events, FixedClock};
use crate::sample::Sample;
use crate::text::Plain;

fn module(toml: &str) -> Rc<dyn Module> {
    crate::modules::tests::configured("user", toml)
}

/// Booted at 2026-11-20 08:05:00 UTC (local time as the source found it).
const BOOT_MS: u64 = 1_795_593_900_000;

fn login() -> Events {
    Events::default().with(Some(Login {
        user: "alice".to_owned(),
        home: "/home/alice".to_owned(),
        boot_unix_ms: BOOT_MS,
        boot_local: (2026, 11, 20, 9, 5),
    }))
}

/// The module's text at `up_ms` after the boot.
fn at(user: &dyn Module, up_ms: u64) -> (String, Option<Status>) {
    let sample = Sample::default();
    let events = login();
    let clock = FixedClock {
        unix_ms: BOOT_MS + up_ms,
    };
    let input = Input {
        events: &events,
        clock: &clock,
        ..input(&sample)
    };
    let mut out = String::new();
    let status = user.text(&input, &mut out);
    (out, status)
}

#[test]
fn the_name_and_the_uptime_as_waybar_writes_them() {
    let up = ((3 * 24 + 5) * 3600 + 7 * 60 + 9) * 1000 + 400;
    assert_eq!(at(module("").as_ref(), up).0, "ALICE 05:07");
    let all = module(
        "format = \"{user} {work_d}d {work_H}:{work_M}:{work_S} since {up_Y}-{up_m}-{up_d} {up_H}:{up_M}\"",
    );
    assert_eq!(
        at(all.as_ref(), up).0,
        "ALICE 3d 05:07:09 since 2026-11-20 09:05"
    );
    let sample = Sample::default();
    let mut out = String::new();
    assert_eq!(
        all.text(&input(&sample), &mut out),
        None,
        "hidden until known"
    );
}

#[test]
fn the_label_changes_with_the_uptime_not_the_wall_clocks_minute() {
    let user = module("");
    let _ = at(user.as_ref(), 0);
    // 30.2 s after the boot, the next minute of uptime is 29.8 s away.
    assert_eq!(user.next_update_ms(BOOT_MS + 30_200), Some(29_805));
    let seconds = module("format = \"{work_S}\"");
    let _ = at(seconds.as_ref(), 0);
    assert_eq!(seconds.next_update_ms(BOOT_MS + 30_200), Some(805));
    let days = module("format = \"{work_d}\"");
    let _ = at(days.as_ref(), 0);
    assert_eq!(days.next_update_ms(BOOT_MS + 1000), Some(86_399_005));
    assert_eq!(
        module("").next_update_ms(BOOT_MS),
        Some(1000),
        "boot not yet known"
    );
    assert!(user.follows().contains(&Update::Timer));
}

#[test]
fn the_tooltip_and_the_click() {
    let sample = Sample::default();
    let events = login();
    let clock = FixedClock {
        unix_ms: BOOT_MS + 90_061_000,
    };
    let input = Input {
        events: &events,
        clock: &clock,
        ..input(&sample)
    };
    let mut text = String::new();
    module("").tooltip(&mut Plain(&mut text), &input);
    assert_eq!(text, "ALICE\nup since 2026-11-20 09:05, 1 d 01:01\n");

    assert_eq!(module("").action(Button::Left), None);
    let opens = module("open-on-click = true");
    assert_eq!(opens.command(Button::Left), Some("xdg-open ~"));
    assert_eq!(
        opens.action(Button::Left),
        Some(super::super::Action::Run(Button::Left))
    );
    assert_eq!(opens.command(Button::Right), None);
    let path = module("open-on-click = true\nopen-path = \"~/it's here\"");
    assert_eq!(
        path.command(Button::Left),
        Some(r"xdg-open ~/'it'\''s here'")
    );
}

#[test]
fn the_avatar_is_drawn_only_with_icon() {
    assert!(matches!(module("").widget(), Widget::Label));
    let with_icon = module("icon = true");
    let Widget::PictureAndLabel(picture) = with_icon.widget() else {
        panic!("no picture with `icon`");
    };
    assert_eq!(
        (picture.source, picture.width, picture.height),
        ("~/.face", 20, 20)
    );
    let user = module("icon = true\navatar = \"/srv/me.png\"\nwidth = 30\nheight = 12");
    let Widget::PictureAndLabel(picture) = user.widget() else {
        panic!("no picture with `icon`");
    };
    assert_eq!(
        (picture.source, picture.width, picture.height),
        ("/srv/me.png", 30, 12)
    );
    crate::modules::tests::refused("user", &["width = 0", "height = 5000", "icon = 1"]);
}

#[test]
fn waybars_example_carries_over_whole() {
    let waybar = serde_json::json!({
        "modules-right": ["user"],
        "user": {"format": "{user} up {work_H}:{work_M}:{work_S}", "interval": 60,
                 "icon": true, "avatar": "/home/alice/.face", "height": 24, "width": 24,
                 "open-on-click": true}
    });
    let import = crate::config::import::convert(&waybar);
    let config = crate::config::parse(&import.toml, Path::new("c.toml")).expect(&import.toml);
    let user = config.modules.right[0].clone();
    assert_eq!(at(user.as_ref(), 3_723_000).0, "ALICE up 01:02:03");
    assert_eq!(user.command(Button::Left), Some("xdg-open ~"));
    assert!(matches!(
        user.widget(),
        Widget::PictureAndLabel(Picture {
            source: "/home/alice/.face",
            width: 24,
            height: 24,
            ..
        })
    ));
    // The label moves on by the uptime's own steps, not by Waybar's polling.
    assert!(
        import.notes.iter().any(|n| n.contains("`interval`")),
        "{:?}",
        import.notes
    );
    for key in ["`icon`", "`avatar`", "`height`", "`width`"] {
        assert!(
            !import.notes.iter().any(|n| n.contains(key)),
            "{key} in {:?}",
            import.notes
        );
    }
}
