#!/usr/bin/python3
"""Another program's StatusNotifierWatcher, for the tray tests: the bar must use it.

usage: watcher.py LOG_FILE

Owns org.kde.StatusNotifierWatcher, keeps the items registered with it (no signals, no
cleanup: just enough for a host that starts later), and appends "host NAME" to LOG_FILE
for each RegisterStatusNotifierHost. Runs until SIGTERM.
"""

import signal
import sys

from gi.repository import Gio, GLib

log = sys.argv[1]

XML = """<node><interface name="org.kde.StatusNotifierWatcher">
 <method name="RegisterStatusNotifierItem"><arg type="s" direction="in"/></method>
 <method name="RegisterStatusNotifierHost"><arg type="s" direction="in"/></method>
 <property name="RegisteredStatusNotifierItems" type="as" access="read"/>
 <property name="IsStatusNotifierHostRegistered" type="b" access="read"/>
 <property name="ProtocolVersion" type="i" access="read"/>
</interface></node>"""

items = []
hosts = []


def method_call(_conn, sender, _path, _iface, method, args, invocation):
    (service,) = args.unpack()
    if method == "RegisterStatusNotifierItem":
        items.append(sender + service if service.startswith("/") else service)
    else:
        hosts.append(service)
        with open(log, "a") as out:
            out.write(f"host {service}\n")
    invocation.return_value(None)


def get_property(_conn, _sender, _path, _iface, name):
    return {
        "RegisteredStatusNotifierItems": GLib.Variant("as", items),
        "IsStatusNotifierHostRegistered": GLib.Variant("b", bool(hosts)),
        "ProtocolVersion": GLib.Variant("i", 0),
    }[name]


def acquired(_conn, _name):
    with open(log, "a") as out:
        out.write("owned\n")


bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
info = Gio.DBusNodeInfo.new_for_xml(XML).interfaces[0]
bus.register_object("/StatusNotifierWatcher", info, method_call, get_property, None)
Gio.bus_own_name_on_connection(
    bus, "org.kde.StatusNotifierWatcher", Gio.BusNameOwnerFlags.NONE, acquired, None
)
loop = GLib.MainLoop()
GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, loop.quit)
loop.run()
