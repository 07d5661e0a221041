"""The guest's keyboards through their evdev nodes, for the keyboard-state test.

    evdev.py find               the first node with the Num, Caps and Scroll Lock LEDs
    evdev.py leds NODE          its LEDs, as the kernel's bitmap (EVIOCGLED)
    evdev.py press NODE CODE    a key pressed and released, as the keyboard sends it
    evdev.py led NODE CODE ON   a LED set, as a compositor sets it
    evdev.py type NODE CODE N   a key pressed and released N times, 5 ms apart
    evdev.py blink NODE CODE N  a LED set on and off N times, a millisecond apart
    evdev.py plug NAME FILE     a uinput keyboard with the three LEDs, named NAME: its
                                node is written to FILE.node, and it is unplugged once
                                FILE exists (or after a minute)
"""

import os
import time

import fcntl
import glob
import struct
import sys

EV_SYN, EV_KEY, EV_LED = 0x00, 0x01, 0x11
THREE_LOCKS = 0b111


def ioctl_read(group, number, size):
    """_IOC(_IOC_READ, group, number, size)."""
    return (2 << 30) | (size << 16) | (ord(group) << 8) | number


def bits(node, number):
    with open(node, "rb") as device:
        buffer = bytearray(8)
        fcntl.ioctl(device, ioctl_read("E", number, len(buffer)), buffer)
        return int.from_bytes(buffer, sys.byteorder)


def write(node, events):
    """struct input_event: a zero timeval, then type, code and value."""
    with open(node, "wb", buffering=0) as device:
        for kind, code, value in events:
            device.write(struct.pack("llHHi", 0, 0, kind, code, value))


def ioctl_write(group, number, size):
    """_IOW(group, number, size)."""
    return (1 << 30) | (size << 16) | (ord(group) << 8) | number


def plug(name, until):
    """A keyboard made through uinput, as a USB keyboard plugged in would appear."""
    ui_set_evbit = ioctl_write("U", 100, 4)
    ui_set_keybit = ioctl_write("U", 101, 4)
    ui_set_ledbit = ioctl_write("U", 105, 4)
    ui_dev_setup = ioctl_write("U", 3, 92)
    ui_dev_create, ui_dev_destroy = (ord("U") << 8) | 1, (ord("U") << 8) | 2
    device = os.open("/dev/uinput", os.O_RDWR | os.O_NONBLOCK)
    fcntl.ioctl(device, ui_set_evbit, EV_KEY)
    fcntl.ioctl(device, ui_set_evbit, EV_LED)
    for key in range(1, 128):
        fcntl.ioctl(device, ui_set_keybit, key)
    for led in range(3):
        fcntl.ioctl(device, ui_set_ledbit, led)
    # struct uinput_setup: input_id (bus USB, vendor, product, version), name[80], 0.
    setup = struct.pack("HHHH80sI", 0x03, 0x1234, 0x5678, 1, name.encode()[:79], 0)
    fcntl.ioctl(device, ui_dev_setup, setup)
    fcntl.ioctl(device, ui_dev_create)
    sysname = bytearray(64)
    fcntl.ioctl(device, ioctl_read("U", 44, len(sysname)), sysname)
    folder = "/sys/devices/virtual/input/" + sysname.split(b"\0")[0].decode()
    for _ in range(100):
        nodes = [n for n in os.listdir(folder) if n.startswith("event")]
        if nodes:
            break
        time.sleep(0.05)
    with open(until + ".node", "w") as out:
        out.write("/dev/input/" + nodes[0] + "\n")
    deadline = time.monotonic() + 60
    while not os.path.exists(until) and time.monotonic() < deadline:
        # What a device owes its driver: the LEDs set on it are read here.
        try:
            os.read(device, 4096)
        except BlockingIOError:
            pass
        time.sleep(0.05)
    fcntl.ioctl(device, ui_dev_destroy)
    os.close(device)


def main(command, *args):
    if command == "find":
        for node in sorted(glob.glob("/dev/input/event*"), key=lambda n: int(n[16:])):
            try:
                if bits(node, 0x20 + EV_LED) & THREE_LOCKS == THREE_LOCKS:
                    print(node)
                    return
            except OSError:
                pass
    elif command == "leds":
        print(bits(args[0], 0x19))
    elif command == "press":
        code = int(args[1])
        write(args[0], [(EV_KEY, code, 1), (EV_SYN, 0, 0), (EV_KEY, code, 0), (EV_SYN, 0, 0)])
    elif command == "type":
        code = int(args[1])
        for _ in range(int(args[2])):
            write(args[0], [(EV_KEY, code, 1), (EV_SYN, 0, 0)])
            time.sleep(0.005)
            write(args[0], [(EV_KEY, code, 0), (EV_SYN, 0, 0)])
            time.sleep(0.005)
    elif command == "blink":
        code = int(args[1])
        with open(args[0], "wb", buffering=0) as device:
            for _ in range(int(args[2])):
                for value in (1, 0):
                    for event in ((EV_LED, code, value), (EV_SYN, 0, 0)):
                        device.write(struct.pack("llHHi", 0, 0, *event))
                    time.sleep(0.001)
    elif command == "plug":
        plug(args[0], args[1])
    elif command == "led":
        write(args[0], [(EV_LED, int(args[1]), int(args[2])), (EV_SYN, 0, 0)])


main(*sys.argv[1:])
