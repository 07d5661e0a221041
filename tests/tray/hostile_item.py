#!/usr/bin/python3
"""A StatusNotifierItem that sends hostile values, for the tray tests.

usage: hostile_item.py TITLE CALLS_FILE [--menu] [--freeze]

Exports org.kde.StatusNotifierItem at /StatusNotifierItem with IconPixmap sizes that lie
about their length, a negative and a huge size, an IconName that is a path, a
ToolTip of the wrong type, then one valid 4x4 green pixmap last; registers with the
watcher and runs until SIGTERM. Its Activate, SecondaryActivate, ContextMenu and Scroll
calls are appended to CALLS_FILE ("Activate 0 0", "Scroll 1 vertical").

--menu: it also has a com.canonical.dbusmenu menu at /Menu of 3000 entries, "Deep 1" to
"Deep 10" nested ten levels deep, then "Flat 0" to "Flat 2999".
--freeze: it stops itself (SIGSTOP) once registered: it never answers the bar.
"""

import signal
import sys

from gi.repository import Gio, GLib

title, calls = sys.argv[1:3]
with_menu = "--menu" in sys.argv[3:]
freeze = "--freeze" in sys.argv[3:]

XML = """<node><interface name="org.kde.StatusNotifierItem">
 <property name="Id" type="s" access="read"/>
 <property name="Title" type="s" access="read"/>
 <property name="Status" type="s" access="read"/>
 <property name="IconName" type="s" access="read"/>
 <property name="IconPixmap" type="a(iiay)" access="read"/>
 <property name="ToolTip" type="s" access="read"/>
 <property name="Menu" type="o" access="read"/>
 <method name="Activate"><arg type="i" direction="in"/><arg type="i" direction="in"/></method>
 <method name="SecondaryActivate"><arg type="i" direction="in"/><arg type="i" direction="in"/></method>
 <method name="ContextMenu"><arg type="i" direction="in"/><arg type="i" direction="in"/></method>
 <method name="Scroll"><arg type="i" direction="in"/><arg type="s" direction="in"/></method>
</interface></node>"""

green = bytes([255, 0, 255, 0]) * 16
pixmaps = [
    (16, 16, b"\xff" * 7),  # far too short
    (-4, 4, b"\xff" * 64),  # negative width
    (100000, 100000, b"\xff" * 64),  # huge and short
    (2, 2, b"\xff" * 17),  # one byte too long
    (4, 4, green),
]
values = {
    "Id": GLib.Variant("s", "hostile"),
    "Title": GLib.Variant("s", title),
    "Status": GLib.Variant("s", "Active"),
    "IconName": GLib.Variant("s", "../../../etc/passwd"),
    "IconPixmap": GLib.Variant("a(iiay)", pixmaps),
    "ToolTip": GLib.Variant("s", "not the spec's type"),
    "Menu": GLib.Variant("o", "/Menu" if with_menu else "/"),
}

MENU_XML = """<node><interface name="com.canonical.dbusmenu">
 <method name="GetLayout">
  <arg type="i" direction="in"/><arg type="i" direction="in"/><arg type="as" direction="in"/>
  <arg type="u" direction="out"/><arg type="(ia{sv}av)" direction="out"/>
 </method>
 <method name="AboutToShow"><arg type="i" direction="in"/><arg type="b" direction="out"/></method>
 <method name="Event">
  <arg type="i" direction="in"/><arg type="s" direction="in"/>
  <arg type="v" direction="in"/><arg type="u" direction="in"/>
 </method>
</interface></node>"""


def entry(ident, label, children=()):
    props = {"label": GLib.Variant("s", label)}
    return GLib.Variant("(ia{sv}av)", (ident, props, list(children)))


def layout():
    deep = None
    for level in range(10, 0, -1):
        deep = entry(level, f"Deep {level}", [deep] if deep else [])
    flat = [entry(100 + n, f"Flat {n}") for n in range(3000)]
    return entry(0, "", [deep] + flat)


def menu_call(_conn, _sender, _path, _iface, method, args, invocation):
    with open(calls, "a") as out:
        out.write(f"menu {method}\n")
    if method == "GetLayout":
        invocation.return_value(GLib.Variant.new_tuple(GLib.Variant("u", 1), layout()))
    elif method == "AboutToShow":
        invocation.return_value(GLib.Variant("(b)", (False,)))
    else:
        invocation.return_value(None)


def get_property(_conn, _sender, _path, _iface, name):
    return values[name]


def method_call(_conn, _sender, _path, _iface, method, args, invocation):
    with open(calls, "a") as out:
        out.write(" ".join([method] + [str(a) for a in args.unpack()]) + "\n")
    invocation.return_value(None)


bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
info = Gio.DBusNodeInfo.new_for_xml(XML).interfaces[0]
bus.register_object("/StatusNotifierItem", info, method_call, get_property, None)
if with_menu:
    menu_info = Gio.DBusNodeInfo.new_for_xml(MENU_XML).interfaces[0]
    bus.register_object("/Menu", menu_info, menu_call, None, None)
bus.call_sync(
    "org.kde.StatusNotifierWatcher",
    "/StatusNotifierWatcher",
    "org.kde.StatusNotifierWatcher",
    "RegisterStatusNotifierItem",
    GLib.Variant("(s)", ("/StatusNotifierItem",)),
    None,
    Gio.DBusCallFlags.NONE,
    5000,
    None,
)
if freeze:
    signal.raise_signal(signal.SIGSTOP)
loop = GLib.MainLoop()
GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, loop.quit)
loop.run()
