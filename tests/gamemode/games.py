"""COUNT games registered with gamemoded (tests/common/gamemode.rs) by one process, each
as soon as gamemoded has answered the last: a burst of ClientCount changes. It first
waits (up to 20 s) for gamemoded's name on the bus, which a just-started gamemoded takes
a moment later. Each game is a child `sleep`; they end when stdin closes.

    games.py COUNT
"""

import subprocess
import sys

from gi.repository import Gio, GLib

NAME = "com.feralinteractive.GameMode"

bus = Gio.bus_get_sync(Gio.BusType.SESSION)
loop = GLib.MainLoop()
Gio.bus_watch_name_on_connection(bus, NAME, Gio.BusNameWatcherFlags.NONE, lambda *_: loop.quit(), None)
GLib.timeout_add_seconds(20, loop.quit)
loop.run()
games = [subprocess.Popen(["sleep", "120"]) for _ in range(int(sys.argv[1]))]
for game in games:
    bus.call_sync(
        NAME,
        "/com/feralinteractive/GameMode",
        "com.feralinteractive.GameMode",
        "RegisterGame",
        GLib.Variant("(i)", (game.pid,)),
        GLib.VariantType("(i)"),
        Gio.DBusCallFlags.NONE,
        -1,
    )
print("registered", flush=True)
sys.stdin.read()
for game in games:
    game.kill()
    game.wait()
