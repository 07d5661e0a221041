"""COUNT games registered with gamemoded (tests/gamemode.rs) by one process, each as
soon as gamemoded has answered the last: a burst of ClientCount changes. Each game is a
child `sleep`; they end when stdin closes.

    games.py COUNT
"""

import subprocess
import sys

from gi.repository import Gio, GLib

bus = Gio.bus_get_sync(Gio.BusType.SESSION)
games = [subprocess.Popen(["sleep", "120"]) for _ in range(int(sys.argv[1]))]
for game in games:
    bus.call_sync(
        "com.feralinteractive.GameMode",
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
