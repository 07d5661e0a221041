"""The guest's keyboards through their evdev nodes, for the keyboard-state test.

    evdev.py find               the first node with the Num, Caps and Scroll Lock LEDs
    evdev.py leds NODE          its LEDs, as the kernel's bitmap (EVIOCGLED)
    evdev.py press NODE CODE    a key pressed and released, as the keyboard sends it
    evdev.py led NODE CODE ON   a LED set, as a compositor sets it
"""

import fcntl
import glob
import struct
import sys

EV_SYN, EV_KEY, EV_LED = 0x00, 0x01, 0x11
THREE_LOCKS = 0b111


def ioctl_read(number, size):
    """_IOC(_IOC_READ, 'E', number, size)."""
    return (2 << 30) | (size << 16) | (ord("E") << 8) | number


def bits(node, number):
    with open(node, "rb") as device:
        buffer = bytearray(8)
        fcntl.ioctl(device, ioctl_read(number, len(buffer)), buffer)
        return int.from_bytes(buffer, sys.byteorder)


def write(node, events):
    """struct input_event: a zero timeval, then type, code and value."""
    with open(node, "wb", buffering=0) as device:
        for kind, code, value in events:
            device.write(struct.pack("llHHi", 0, 0, kind, code, value))


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
    elif command == "led":
        write(args[0], [(EV_LED, int(args[1]), int(args[2])), (EV_SYN, 0, 0)])


main(*sys.argv[1:])
