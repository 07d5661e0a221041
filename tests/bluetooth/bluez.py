#!/usr/bin/python3
"""A stand-in for bluetoothd on a test bus: BlueZ's documented D-Bus API (an
ObjectManager at /, org.bluez.Adapter1, org.bluez.Device1, org.bluez.Battery1, and
org.freedesktop.DBus.Properties with PropertiesChanged), for a machine without a
Bluetooth controller. The test drives it through org.ringbar.Test at /test:
Connect(b), SetBattery(y), SetAlias(s), RemoveDevice(), AddDevice()."""

import sys

from gi.repository import Gio, GLib

ADAPTER = "/org/bluez/hci0"
DEVICE = ADAPTER + "/dev_AA_BB_CC_DD_EE_FF"

XML = """
<node>
  <interface name="org.freedesktop.DBus.ObjectManager">
    <method name="GetManagedObjects">
      <arg type="a{oa{sa{sv}}}" direction="out"/>
    </method>
    <signal name="InterfacesAdded"><arg type="o"/><arg type="a{sa{sv}}"/></signal>
    <signal name="InterfacesRemoved"><arg type="o"/><arg type="as"/></signal>
  </interface>
  <interface name="org.freedesktop.DBus.Properties">
    <method name="Get">
      <arg type="s" direction="in"/><arg type="s" direction="in"/>
      <arg type="v" direction="out"/>
    </method>
    <method name="GetAll">
      <arg type="s" direction="in"/><arg type="a{sv}" direction="out"/>
    </method>
    <method name="Set">
      <arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="v" direction="in"/>
    </method>
    <signal name="PropertiesChanged">
      <arg type="s"/><arg type="a{sv}"/><arg type="as"/>
    </signal>
  </interface>
  <interface name="org.ringbar.Test">
    <method name="Connect"><arg type="b" direction="in"/></method>
    <method name="SetBattery"><arg type="y" direction="in"/></method>
    <method name="SetAlias"><arg type="s" direction="in"/></method>
    <method name="RemoveDevice"/>
    <method name="AddDevice"/>
  </interface>
</node>
"""

NODE = Gio.DBusNodeInfo.new_for_xml(XML)


class Bluez:
    def __init__(self, connection):
        self.connection = connection
        self.objects = {}
        self.objects[ADAPTER] = {
            "org.bluez.Adapter1": {
                "Alias": GLib.Variant("s", "ringbar-test"),
                "Powered": GLib.Variant("b", True),
            }
        }
        self.add_device()

    def add_device(self):
        self.objects[DEVICE] = {
            "org.bluez.Device1": {
                "Alias": GLib.Variant("s", "Buds"),
                "Connected": GLib.Variant("b", False),
                "Adapter": GLib.Variant("o", ADAPTER),
            },
            "org.bluez.Battery1": {"Percentage": GLib.Variant("y", 80)},
        }

    def emit(self, path, interface, member, args):
        self.connection.emit_signal(None, path, interface, member, args)

    def changed(self, path, interface, name, value):
        self.objects[path][interface][name] = value
        self.emit(
            path,
            "org.freedesktop.DBus.Properties",
            "PropertiesChanged",
            GLib.Variant("(sa{sv}as)", (interface, {name: value}, [])),
        )

    def managed(self):
        return GLib.Variant("(a{oa{sa{sv}}})", (self.objects,))

    def call(self, path, interface, method, args, invocation):
        if method == "GetManagedObjects":
            return invocation.return_value(self.managed())
        if method == "Get":
            iface, name = args
            value = self.objects.get(path, {}).get(iface, {}).get(name)
            if value is None:
                return invocation.return_dbus_error("org.bluez.Error.InvalidArguments", name)
            return invocation.return_value(GLib.Variant("(v)", (value,)))
        if method == "GetAll":
            props = self.objects.get(path, {}).get(args[0], {})
            return invocation.return_value(GLib.Variant("(a{sv})", (props,)))
        if method == "Set":
            iface, name, value = args
            if path != ADAPTER or name != "Powered":
                return invocation.return_dbus_error("org.bluez.Error.NotSupported", name)
            self.changed(ADAPTER, iface, name, GLib.Variant("b", value))
            # Powered off, BlueZ disconnects every device.
            if not value and DEVICE in self.objects:
                self.changed(DEVICE, "org.bluez.Device1", "Connected", GLib.Variant("b", False))
            print(f"powered {str(value).lower()}", flush=True)
            return invocation.return_value(None)
        if method == "Connect":
            self.changed(DEVICE, "org.bluez.Device1", "Connected", GLib.Variant("b", args[0]))
        elif method == "SetBattery":
            self.changed(DEVICE, "org.bluez.Battery1", "Percentage", GLib.Variant("y", args[0]))
        elif method == "SetAlias":
            self.changed(DEVICE, "org.bluez.Device1", "Alias", GLib.Variant("s", args[0]))
        elif method == "RemoveDevice":
            interfaces = list(self.objects.pop(DEVICE))
            self.emit("/", "org.freedesktop.DBus.ObjectManager", "InterfacesRemoved",
                      GLib.Variant("(oas)", (DEVICE, interfaces)))
        elif method == "AddDevice":
            self.add_device()
            self.emit("/", "org.freedesktop.DBus.ObjectManager", "InterfacesAdded",
                      GLib.Variant("(oa{sa{sv}})", (DEVICE, self.objects[DEVICE])))
        invocation.return_value(None)


def main():
    address = sys.argv[1]
    connection = Gio.DBusConnection.new_for_address_sync(
        address,
        Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT
        | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
        None,
        None,
    )
    bluez = Bluez(connection)

    def on_call(_conn, _sender, path, interface, method, args, invocation):
        # As bluetoothd does: a property's value is a variant of its own type, not a
        # variant in a variant.
        if method == "Set" and args.get_child_value(2).get_variant().get_type_string() != "b":
            return invocation.return_dbus_error(
                "org.freedesktop.DBus.Error.InvalidArgs", "Powered takes a boolean")
        bluez.call(path, interface, method, args.unpack(), invocation)

    for path, names in [
        ("/", ["org.freedesktop.DBus.ObjectManager"]),
        (ADAPTER, ["org.freedesktop.DBus.Properties"]),
        (DEVICE, ["org.freedesktop.DBus.Properties"]),
        ("/test", ["org.ringbar.Test"]),
    ]:
        for name in names:
            connection.register_object(path, NODE.lookup_interface(name), on_call, None, None)
    Gio.bus_own_name_on_connection(connection, "org.bluez", Gio.BusNameOwnerFlags.NONE, None, None)
    print("ready", flush=True)
    GLib.MainLoop().run()


main()
