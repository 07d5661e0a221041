#!/usr/bin/python3
"""A real AppIndicator (libayatana-appindicator) for the tray tests.

usage: indicator.py ID ICON_DIR EVENTS_FILE

Draws a solid red icon named ringbar-test-red into ICON_DIR, shows it with a menu of a
normal item, a check item and a submenu, and appends what the menu does to EVENTS_FILE
("activated normal", "toggled check on", "activated inner"). The normal item also sets
the status to NeedsAttention. A middle click (SecondaryActivate) activates the inner item.
Exits on SIGTERM.
"""

import signal
import sys

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("GdkPixbuf", "2.0")
gi.require_version("AyatanaAppIndicator3", "0.1")
from gi.repository import AyatanaAppIndicator3 as AppIndicator  # noqa: E402
from gi.repository import GdkPixbuf, GLib, Gtk  # noqa: E402

ident, icon_dir, events = sys.argv[1:4]


def record(line):
    with open(events, "a") as out:
        out.write(line + "\n")


red = GdkPixbuf.Pixbuf.new(GdkPixbuf.Colorspace.RGB, True, 8, 32, 32)
red.fill(0xFF0000FF)
red.savev(f"{icon_dir}/ringbar-test-red.png", "png", [], [])

menu = Gtk.Menu()
normal = Gtk.MenuItem(label="Normal item")


def on_normal(_item):
    record("activated normal")
    indicator.set_status(AppIndicator.IndicatorStatus.ATTENTION)


normal.connect("activate", on_normal)
check = Gtk.CheckMenuItem(label="Check item")
check.connect(
    "toggled", lambda item: record("toggled check " + ("on" if item.get_active() else "off"))
)
more = Gtk.MenuItem(label="More")
submenu = Gtk.Menu()
inner = Gtk.MenuItem(label="Inner item")
inner.connect("activate", lambda _: record("activated inner"))
submenu.append(inner)
more.set_submenu(submenu)
for item in (normal, check, more):
    menu.append(item)
menu.show_all()

indicator = AppIndicator.Indicator.new(
    ident, "ringbar-test-red", AppIndicator.IndicatorCategory.APPLICATION_STATUS
)
indicator.set_icon_theme_path(icon_dir)
indicator.set_title(f"Test indicator {ident}")
indicator.set_status(AppIndicator.IndicatorStatus.ACTIVE)
indicator.set_attention_icon_full("ringbar-test-red", "needs attention")
indicator.set_menu(menu)
indicator.set_secondary_activate_target(inner)

GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, Gtk.main_quit)
record("started")
Gtk.main()
