# A fake sysfs for upowerd (tests/upower.rs): umockdev's testbed, driven by lines on
# stdin, so that the real upowerd (run with umockdev's preload library and this
# testbed's UMOCKDEV_DIR) sees power supplies come, change and go, with the uevents the
# kernel would send. Attributes are the kernel's power_supply class attributes
# (Documentation/ABI/testing/sysfs-class-power).
#
#   add NAME ATTR=VALUE...   a power supply, with its "add" uevent
#   set NAME ATTR VALUE...   an attribute (the value may hold spaces), then "change"
#   remove NAME              "remove", and the device goes
#
# The testbed's root is the first line written; "ok" follows each command done.
import sys

import gi

gi.require_version("UMockdev", "1.0")
from gi.repository import UMockdev  # noqa: E402

testbed = UMockdev.Testbed.new()
devices = {}
print(testbed.get_root_dir(), flush=True)

for line in sys.stdin:
    words = line.rstrip("\n").split(" ")
    command, name = words[0], words[1]
    if command == "add":
        attributes = []
        for pair in words[2:]:
            key, _, value = pair.partition("=")
            attributes += [key, value.replace("\\s", " ")]
        devices[name] = testbed.add_device("power_supply", name, None, attributes, [])
    elif command == "set":
        value = " ".join(words[3:]).encode().decode("unicode_escape")
        testbed.set_attribute(devices[name], words[2], value)
        testbed.uevent(devices[name], "change")
    elif command == "remove":
        testbed.uevent(devices[name], "remove")
        testbed.remove_device(devices.pop(name))
    print("ok", flush=True)
