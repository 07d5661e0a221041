#!/usr/bin/python3
"""What tests/backlight.rs needs of the kernel and of logind, for a fake backlight class
directory (this machine has no backlight, and no logind session).

logind.py uevent ACTION NAME — sends the kernel's uevent for the backlight NAME on
NETLINK_KOBJECT_UEVENT's kernel group (needs CAP_NET_ADMIN), in the kernel's format, as
the kernel does when a backlight changes (ACTION change), appears (add) or goes
(remove).

logind.py logind CLASS_DIR — a stand-in for systemd-logind on the bus in
DBUS_SYSTEM_BUS_ADDRESS: org.freedesktop.login1.Session.SetBrightness(s subsystem,
s name, u brightness) at /org/freedesktop/login1/session/auto, as logind documents it.
It writes the value to CLASS_DIR/NAME/brightness and actual_brightness, sends the
uevent the kernel would, and prints `SetBrightness SUBSYSTEM NAME VALUE`. Prints
`owned` once it has the name."""

import os
import socket
import sys

from gi.repository import Gio, GLib

NETLINK_KOBJECT_UEVENT = 15
KERNEL_GROUP = 1

XML = """
<node>
  <interface name="org.freedesktop.login1.Session">
    <method name="SetBrightness">
      <arg type="s" direction="in"/>
      <arg type="s" direction="in"/>
      <arg type="u" direction="in"/>
    </method>
  </interface>
</node>
"""


def uevent(action, name):
    devpath = "/devices/platform/ringbar-test/backlight/" + name
    fields = ["ACTION=" + action, "DEVPATH=" + devpath, "SUBSYSTEM=backlight",
              "SOURCE=sysfs", "SEQNUM=1"]
    message = (action + "@" + devpath + "\0" + "\0".join(fields) + "\0").encode()
    sock = socket.socket(socket.AF_NETLINK, socket.SOCK_DGRAM, NETLINK_KOBJECT_UEVENT)
    sock.bind((0, 0))
    sock.sendto(message, (0, KERNEL_GROUP))
    sock.close()


def logind(class_dir):
    conn = Gio.DBusConnection.new_for_address_sync(
        os.environ["DBUS_SYSTEM_BUS_ADDRESS"],
        Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT
        | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
        None, None)
    node = Gio.DBusNodeInfo.new_for_xml(XML)

    def on_call(_c, _sender, _path, _iface, method, params, invocation):
        subsystem, name, value = params.unpack()
        device = os.path.join(class_dir, name)
        if subsystem != "backlight" or "/" in name or not os.path.isdir(device):
            invocation.return_dbus_error("org.freedesktop.DBus.Error.InvalidArgs",
                                         "no such device")
            return
        for file in ("brightness", "actual_brightness"):
            with open(os.path.join(device, file), "w") as f:
                f.write("%d\n" % value)
        uevent("change", name)
        print("SetBrightness %s %s %d" % (subsystem, name, value), flush=True)
        invocation.return_value(None)

    conn.register_object("/org/freedesktop/login1/session/auto", node.interfaces[0],
                         on_call, None, None)
    conn.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                   "RequestName", GLib.Variant("(su)", ("org.freedesktop.login1", 4)),
                   None, Gio.DBusCallFlags.NONE, -1, None)
    print("owned", flush=True)
    GLib.MainLoop().run()


if __name__ == "__main__":
    if sys.argv[1] == "uevent":
        uevent(sys.argv[2], sys.argv[3])
    else:
        logind(sys.argv[2])
