#!/usr/bin/python3
"""A battery provider on the system bus, as a headset's companion program registers one
with bluetoothd (org.bluez.BatteryProviderManager1 of the adapter): bluetoothd then
shows the level as org.bluez.Battery1 of the device, as it does for a headset that
reports its battery itself. Usage: battery_provider.py ADAPTER DEVICE PERCENTAGE (object
paths); prints `registered` once bluetoothd took it, and runs until killed."""

import sys

from gi.repository import Gio, GLib

ROOT = "/org/ringbar/battery"
BATTERY = ROOT + "/battery0"

XML = """
<node>
  <interface name="org.freedesktop.DBus.ObjectManager">
    <method name="GetManagedObjects">
      <arg type="a{oa{sa{sv}}}" direction="out"/>
    </method>
    <signal name="InterfacesAdded"><arg type="o"/><arg type="a{sa{sv}}"/></signal>
    <signal name="InterfacesRemoved"><arg type="o"/><arg type="as"/></signal>
  </interface>
</node>
"""


def main():
    adapter, device, percentage = sys.argv[1], sys.argv[2], int(sys.argv[3])
    battery = {
        "Percentage": GLib.Variant("y", percentage),
        "Device": GLib.Variant("o", device),
        "Source": GLib.Variant("s", "ringbar test"),
    }
    objects = {BATTERY: {"org.bluez.BatteryProvider1": battery}}

    def on_call(_conn, _sender, _path, _iface, method, _params, invocation):
        if method == "GetManagedObjects":
            invocation.return_value(GLib.Variant("(a{oa{sa{sv}}})", (objects,)))
        else:
            invocation.return_dbus_error("org.freedesktop.DBus.Error.UnknownMethod", method)

    bus = Gio.bus_get_sync(Gio.BusType.SYSTEM, None)
    node = Gio.DBusNodeInfo.new_for_xml(XML)
    bus.register_object(ROOT, node.interfaces[0], on_call, None, None)
    bus.call_sync(
        "org.bluez",
        adapter,
        "org.bluez.BatteryProviderManager1",
        "RegisterBatteryProvider",
        GLib.Variant("(o)", (ROOT,)),
        None,
        Gio.DBusCallFlags.NONE,
        10000,
        None,
    )
    print("registered", flush=True)
    GLib.MainLoop().run()


main()
