"""Photo files checked from their header before anything decodes them.

A PNG's header can claim 60,000 x 60,000 pixels in a few hundred bytes; decoding it would ask
for 10 GB. :func:`check_image` reads only the header (PNG, JPEG, BMP: what a camera or a phone
writes) and refuses a picture larger than :data:`MAX_PIXELS` with one line.

>>> image_size(b"\\x89PNG\\r\\n\\x1a\\n\\x00\\x00\\x00\\rIHDR\\x00\\x00\\x07\\x80\\x00\\x00\\x048")
(1920, 1080)
"""
from __future__ import annotations

import struct
from pathlib import Path

from .games.base import TablehubError
from .i18n import T

#: the largest photo read: 50 megapixels (the Pi's cameras give 12; decoded, 50 MP is 150 MB of BGR)
MAX_PIXELS = 50_000_000
_HEAD = 1 << 16  # JPEG markers before the frame header (EXIF, thumbnails) fit in this


class ImageFileError(TablehubError):
    pass


def image_size(head: bytes) -> tuple[int, int] | None:
    """(width, height) read from the first bytes of a PNG, JPEG or BMP file; ``None`` if not found."""
    if head.startswith(b"\x89PNG\r\n\x1a\n") and head[12:16] == b"IHDR" and len(head) >= 24:
        return struct.unpack(">II", head[16:24])
    if head.startswith(b"BM") and len(head) >= 26:
        w, h = struct.unpack("<ii", head[18:26])
        return abs(w), abs(h)
    if head.startswith(b"\xff\xd8"):
        i = 2
        while i + 9 <= len(head):
            if head[i] != 0xFF:
                return None
            marker = head[i + 1]
            if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7 or marker == 0xFF:
                i += 1 if marker == 0xFF else 2
                continue
            length = struct.unpack(">H", head[i + 2:i + 4])[0]
            if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
                h, w = struct.unpack(">HH", head[i + 5:i + 9])
                return w, h
            i += 2 + length
    return None


def check_image(path: str | Path, max_pixels: int = MAX_PIXELS) -> tuple[int, int]:
    """The (width, height) of a PNG, JPEG or BMP photo, checked from its header: one-line
    :class:`ImageFileError` when it cannot be read, is another format, or is too large to decode."""
    p = Path(path)
    try:
        with p.open("rb") as f:
            head = f.read(_HEAD)
    except OSError as exc:
        raise ImageFileError(T("{path}: cannot read the image ({why})", path=str(p), why=exc.strerror)) from None
    return check_head(head, str(p), max_pixels)


def check_head(head: bytes, name: str, max_pixels: int = MAX_PIXELS) -> tuple[int, int]:
    """:func:`check_image` on the first bytes of a photo (a file, or an upload named ``name``)."""
    size = image_size(head[:_HEAD])
    if size is None:
        raise ImageFileError(T("{name}: not a readable image (not a PNG, JPEG or BMP file, or its header is damaged)",
                               name=name))
    w, h = size
    if w == 0 or h == 0:
        raise ImageFileError(T("{name}: the image header says {width} x {height} pixels", name=name, width=w, height=h))
    if w * h > max_pixels:
        raise ImageFileError(T("{name}: the image header says {width} x {height} pixels; the largest photo read is "
                               "{most} megapixels (the Pi's cameras give 12)", name=name, width=format(w, ","),
                               height=format(h, ","), most=format(max_pixels / 1e6, "g")))
    return w, h
