"""Sandbox test bot: before ``ready`` opens the root of the file system behind ``/usr`` by its
inode (2) with ``open_by_handle_at``, the call a root referee's bot could use to read the
whole host through the one capability it keeps, and reports on stderr
(``handle: refused: <why>`` or ``handle: opened: <listing>``); then plays well.
"""

import ctypes
import os
import struct
import sys

from _common import Message, serve

AT_FDCWD = -100
ROOT_INODE = 2  # the root folder of an ext2/3/4 file system


def say(line: str) -> None:
    sys.stderr.write(f"handle: {line}\n")


def probe(message: Message) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    handle = ctypes.create_string_buffer(8 + 128)
    struct.pack_into("Ii", handle, 0, 128, 0)
    mount = ctypes.c_int()
    if libc.name_to_handle_at(AT_FDCWD, b"/usr/bin", handle, ctypes.byref(mount), 0):
        say(f"refused: no handle of /usr/bin: {os.strerror(ctypes.get_errno())}")
        return
    kind = struct.unpack_from("Ii", handle, 0)[1]
    root = ctypes.create_string_buffer(struct.pack("IiII", 8, kind, ROOT_INODE, 0))
    usr = os.open("/usr", os.O_RDONLY | os.O_DIRECTORY)
    opened = libc.open_by_handle_at(usr, root, os.O_RDONLY | os.O_DIRECTORY)
    if opened < 0:
        say(f"refused: {os.strerror(ctypes.get_errno())}")
    else:
        say(f"opened: {sorted(os.listdir(opened))}")


serve(on_hello=probe)
