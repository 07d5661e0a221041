//! The tray in a real session: headless sway, a real session bus (dbus-daemon at
//! `$XDG_RUNTIME_DIR/bus`, which the installed bar finds in secure-execution mode),
//! real AppIndicators (libayatana-appindicator driven from Python) and a hostile item.

mod common;
#[path = "tray/support.rs"]
mod support;

use std::fs;

use common::session::{Compositor, Session};
use common::{require_root, serial, wait_for};
use support::{
    click_until, events, gdbus_call, helper_script, icon_centre, indicator, is_red, python, start,
    start_session_bus, tray_of, wait_for_tray, watcher_owner_pid, BAR_HEIGHT, WAIT,
};

#[test]
fn appindicators_show_open_their_menus_and_vanish_when_they_quit() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    let _bus = start_session_bus(&session);
    let early_events = session.write_home_file("early.events", "");
    // Registered before the bar starts: it waits for a watcher and registers with the
    // bar's as soon as it appears.
    let _early = indicator(&session, "early", &early_events);
    wait_for("the early indicator", WAIT, || {
        events(&early_events).contains("started")
    });

    let bar = start(&session);
    bar.wait_for_log("tray: serving org.kde.StatusNotifierWatcher");
    wait_for_tray(&bar, "the early indicator's icon", |tray| {
        tray.contains("Test indicator early:name=ringbar-test-red:item")
    });

    // The watcher is the bar's, and lists the item.
    assert_eq!(watcher_owner_pid(&session), bar.pid());
    let items = gdbus_call(
        &session,
        &[
            "--dest",
            "org.kde.StatusNotifierWatcher",
            "--object-path",
            "/StatusNotifierWatcher",
            "--method",
            "org.freedesktop.DBus.Properties.Get",
            "org.kde.StatusNotifierWatcher",
            "RegisteredStatusNotifierItems",
        ],
    );
    assert!(
        items.contains("/org/ayatana/NotificationItem/early"),
        "the watcher lists the item: {items}"
    );

    // Its icon is drawn, red, in the bar.
    let mut centre = None;
    wait_for("the red icon on screen", WAIT, || {
        centre = icon_centre(&session, is_red);
        centre.is_some()
    });
    let (x, y) = centre.expect("found");

    let mut pointer = session.pointer();
    // A middle click is SecondaryActivate, which this item maps to its inner entry.
    click_until(
        &mut pointer,
        (x, y),
        "middle",
        "the secondary activation",
        || events(&early_events).contains("activated inner"),
    );

    // A right click opens its menu: the item is asked for its layout, which is shown.
    let menu_file = session.hook_dir().join("tray-menu");
    click_until(&mut pointer, (x, y), "right", "the menu", || {
        fs::read_to_string(&menu_file).unwrap_or_default()
            == "Normal item|[ ]Check item|More>(Inner item)"
    });
    // The popover opens below the icon: its first row is "Normal item", its second
    // "Check item" (rows of about 30 px from 15 px below the bar).
    let menu_x = x + 60;
    let row = |n: u32| BAR_HEIGHT + 20 + 30 * n;
    let menu_on_screen = || {
        let shot = session.screenshot(0, BAR_HEIGHT, 200, 100);
        shot.count(0, 100, |[r, g, b]| r > 230 && g > 230 && b > 230) > 2000
    };
    wait_for("the menu on screen", WAIT, menu_on_screen);
    // Choosing an entry closes the menu: a repeated click lands on the empty desktop.
    click_until(
        &mut pointer,
        (menu_x, row(0)),
        "left",
        "the entry chosen",
        || events(&early_events).contains("activated normal"),
    );
    // It then asks for attention (NewStatus): the bar follows.
    wait_for_tray(&bar, "the attention class", |tray| {
        tray.contains("Test indicator early:name=ringbar-test-red:item,attention")
    });
    click_until(
        &mut pointer,
        (x, y),
        "right",
        "the menu again",
        menu_on_screen,
    );
    click_until(
        &mut pointer,
        (menu_x, row(1)),
        "left",
        "the check entry",
        || events(&early_events).contains("toggled check on"),
    );
    // The item's menu changed (the check is on): the next layout says so.
    click_until(&mut pointer, (x, y), "right", "the updated menu", || {
        fs::read_to_string(&menu_file).unwrap_or_default()
            == "Normal item|[x]Check item|More>(Inner item)"
    });
    // The reload below comes while this menu is open.

    // A reload rebuilds the bars: the new tray shows the items the host already has.
    let before = bar.log_text().matches("bar on output HEADLESS-1").count();
    fs::remove_file(session.hook_dir().join("bars")).expect("the hook wrote the bars");
    let status = std::process::Command::new("kill")
        .args(["-USR1", &bar.pid().to_string()])
        .status()
        .expect("run kill");
    assert!(status.success());
    wait_for("the rebuilt bar", WAIT, || {
        bar.log_text().matches("bar on output HEADLESS-1").count() > before
    });
    wait_for_tray(&bar, "the item on the rebuilt bar", |tray| {
        tray.contains("Test indicator early:name=ringbar-test-red:item")
    });

    // An item that never answers (stopped once registered) is not shown and holds
    // nothing up: an indicator after it still appears.
    let raw_item = helper_script(&session, "hostile_item.py");
    let frozen_calls = session.write_home_file("frozen.calls", "");
    let _frozen = python(
        &session,
        &raw_item,
        &["Frozen", &frozen_calls.display().to_string(), "--freeze"],
    );
    bar.wait_for_log("/StatusNotifierItem appeared");

    // A second indicator comes after the bar; when it dies, its icon goes, the first stays.
    let late_events = session.write_home_file("late.events", "");
    let mut late = indicator(&session, "late", &late_events);
    wait_for_tray(&bar, "the late indicator", |tray| {
        tray.contains("Test indicator late:") && tray.contains("Test indicator early:")
    });
    late.kill();
    wait_for_tray(&bar, "the dead indicator to go", |tray| {
        !tray.contains("Test indicator late:") && tray.contains("Test indicator early:")
    });
    assert!(bar
        .log_text()
        .contains("/org/ayatana/NotificationItem/late is gone"));
    assert!(!tray_of(&bar).contains("Frozen"));

    // A menu of 3000 entries, ten levels deep, is cut to 512 entries and 6 levels.
    let menu_calls = session.write_home_file("menu.calls", "");
    let _menu_item = python(
        &session,
        &raw_item,
        &["Big menu", &menu_calls.display().to_string(), "--menu"],
    );
    wait_for_tray(&bar, "the item with the big menu", |tray| {
        tray.contains("Big menu:pixmap:item")
    });
    let green = |[r, g, b]: [u8; 3]| g > 200 && r < 60 && b < 60;
    let mut centre = None;
    wait_for("its green icon", WAIT, || {
        centre = icon_centre(&session, green);
        centre.is_some()
    });
    let (x, y) = centre.expect("found");
    click_until(
        &mut pointer,
        (x, y),
        "right",
        "the big menu's layout asked for",
        || events(&menu_calls).contains("menu GetLayout"),
    );
    wait_for("the big menu", WAIT, || {
        fs::read_to_string(&menu_file).is_ok_and(|menu| menu.starts_with("Deep 1>"))
    });
    let menu = fs::read_to_string(&menu_file).expect("the menu");
    assert!(
        menu.starts_with("Deep 1>(Deep 2>(Deep 3>(Deep 4>(Deep 5>(Deep 6)))))|Flat 0|"),
        "cut after six levels: {}",
        &menu[..menu.len().min(200)]
    );
    assert!(
        menu.ends_with("|Flat 505"),
        "512 entries: 6 deep ones and 506 flat ones"
    );
    let calls = events(&menu_calls);
    assert!(calls.contains("menu AboutToShow") && calls.contains("menu GetLayout"));
    let log = bar.log_text();
    assert!(
        !log.contains("Gtk-CRITICAL") && !log.contains("Gtk-WARNING"),
        "GTK complained:\n{log}"
    );
}

#[test]
fn without_a_session_bus_the_tray_hides_and_the_log_says_why() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    let bar = start(&session);
    bar.wait_for_log("tray hidden: cannot reach the session bus");
    wait_for("the hook", WAIT, || !bar.bars().is_empty());
    assert_eq!(
        bar.bars()[0].get("tray.visible").map(String::as_str),
        Some("false")
    );
}

#[test]
fn an_existing_watcher_is_used_a_hostile_item_is_safe_and_clicks_reach_it() {
    let _serial = serial();
    require_root();
    let session = Session::start(Compositor::Sway);
    let _bus = start_session_bus(&session);
    let watcher_log = session.write_home_file("watcher.log", "");
    let watcher = helper_script(&session, "watcher.py");
    let mut other_watcher = python(&session, &watcher, &[&watcher_log.display().to_string()]);
    wait_for("the other watcher", WAIT, || {
        events(&watcher_log).contains("owned")
    });
    // Registered with that watcher before the bar starts.
    let hostile = helper_script(&session, "hostile_item.py");
    let calls = session.write_home_file("hostile.calls", "");
    let _hostile = python(
        &session,
        &hostile,
        &["Hostile", &calls.display().to_string()],
    );

    let mut bar = start(&session);
    bar.wait_for_log("tray: using the session's org.kde.StatusNotifierWatcher");
    wait_for("the bar to register as a host", WAIT, || {
        events(&watcher_log).contains("host org.kde.StatusNotifierHost-")
    });
    // Wrong lengths and sizes are skipped for the one valid pixmap; the path given as an
    // icon name and the tooltip of the wrong type are ignored.
    wait_for_tray(&bar, "the hostile item", |tray| {
        tray == "Hostile:pixmap:item"
    });
    let green = |[r, g, b]: [u8; 3]| g > 200 && r < 60 && b < 60;
    let mut centre = None;
    wait_for("the green pixmap on screen", WAIT, || {
        centre = icon_centre(&session, green);
        centre.is_some()
    });
    assert!(bar.try_wait().is_none(), "the bar still runs");

    // Clicks and the wheel reach the item; without a menu a right click is ContextMenu.
    let (x, y) = centre.expect("found");
    let mut pointer = session.pointer();
    for (button, call) in [
        ("left", "Activate 0 0"),
        ("middle", "SecondaryActivate 0 0"),
        ("right", "ContextMenu 0 0"),
    ] {
        click_until(&mut pointer, (x, y), button, call, || {
            events(&calls).contains(call)
        });
    }
    pointer.scroll("down");
    wait_for("a scroll down", WAIT, || {
        events(&calls).contains("Scroll 1 vertical")
    });
    pointer.scroll("up");
    wait_for("a scroll up", WAIT, || {
        events(&calls).contains("Scroll -1 vertical")
    });

    // The other watcher goes: the bar's, queued for the name, takes over. This raw item
    // does not register again, so it leaves the bar.
    other_watcher.kill();
    bar.wait_for_log("tray: serving org.kde.StatusNotifierWatcher");
    wait_for_tray(&bar, "the old watcher's item to go", str::is_empty);
    assert_eq!(watcher_owner_pid(&session), bar.pid());
}
