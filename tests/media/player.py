#!/usr/bin/python3
"""Players that misbehave, on the session bus, beside the real mpv of tests/media.rs.

Usage: player.py hang NAME [COUNT] — owns org.mpris.MediaPlayer2.NAME (or COUNT names,
NAME1 … NAMECOUNT, on one connection) and never answers a call (no main loop runs), as a
player that hangs. Prints `owned` once they are all owned.

player.py flood NAME COUNT — a player whose GetAll says it is paused on "before"; each
line on stdin makes it send COUNT PropertiesChanged signals in one burst (playing, the
titles "flood 1" … and last `<i>flood</i>\\x07 last`). Prints `owned`, and `sent` after
each burst."""

import os
import sys
import time

from gi.repository import Gio, GLib

PATH = "/org/mpris/MediaPlayer2"
PLAYER = "org.mpris.MediaPlayer2.Player"
ROOT = "org.mpris.MediaPlayer2"

XML = """
<node>
  <interface name="org.mpris.MediaPlayer2">
    <method name="Raise"/>
    <property name="Identity" type="s" access="read"/>
  </interface>
  <interface name="org.mpris.MediaPlayer2.Player">
    <method name="PlayPause"/>
    <method name="Next"/>
    <method name="Previous"/>
    <property name="PlaybackStatus" type="s" access="read"/>
    <property name="Metadata" type="a{sv}" access="read"/>
  </interface>
</node>
"""


def own(conn, *names):
    for name in names:
        conn.call_sync(
            "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
            "RequestName", GLib.Variant("(su)", ("org.mpris.MediaPlayer2." + name, 4)),
            None, Gio.DBusCallFlags.NONE, -1, None)
    print("owned", flush=True)


def hang(name, count):
    conn = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    own(conn, *([name] if count is None else ["%s%d" % (name, i) for i in range(1, count + 1)]))
    # Calls to it queue on a main context that never runs: none is answered.
    while True:
        time.sleep(3600)


def flood(name, count):
    conn = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    props = {
        ROOT: {"Identity": GLib.Variant("s", "Flood player")},
        PLAYER: {
            "PlaybackStatus": GLib.Variant("s", "Paused"),
            "Metadata": GLib.Variant("a{sv}", {"xesam:title": GLib.Variant("s", "before")}),
        },
    }
    node = Gio.DBusNodeInfo.new_for_xml(XML)

    def get_property(_c, _s, _p, iface, prop):
        return props[iface][prop]

    def on_call(_c, _s, _p, _i, _m, _params, invocation):
        invocation.return_value(None)

    for iface in node.interfaces:
        conn.register_object(PATH, iface, on_call, get_property, None)
    own(conn, name)

    def burst(_source, _condition):
        if not sys.stdin.readline():
            # The test is gone: so is this player, at once.
            os._exit(0)
        for i in range(1, count + 1):
            title = "<i>flood</i>\x07 last" if i == count else "flood %d" % i
            changed = {
                "PlaybackStatus": GLib.Variant("s", "Playing"),
                "Metadata": GLib.Variant("a{sv}", {"xesam:title": GLib.Variant("s", title)}),
            }
            # As a real player: what GetAll answers is what the signals said.
            props[PLAYER].update(changed)
            conn.emit_signal(None, PATH, "org.freedesktop.DBus.Properties",
                             "PropertiesChanged",
                             GLib.Variant("(sa{sv}as)", (PLAYER, changed, [])))
        conn.flush_sync(None)
        print("sent", flush=True)
        return True

    GLib.io_add_watch(sys.stdin, GLib.IO_IN | GLib.IO_HUP, burst)
    GLib.MainLoop().run()


if __name__ == "__main__":
    if sys.argv[1] == "hang":
        hang(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else None)
    else:
        flood(sys.argv[2], int(sys.argv[3]))
