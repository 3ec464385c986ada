"""Printed text for the simulated boards, the same on every OpenCV: ``put_text`` and ``text_size``.

``cv2.putText(FONT_HERSHEY_SIMPLEX)`` draws another font on OpenCV 5 than on the Pi's OpenCV 4.11 (thinner
strokes, other sizes: getTextSize of "4000 12" at 2.0 is 237x54 on 5, 274x43 on 4.11): the same simulated board
read apart on the two stacks (h-pichests, h-pilabels). So every text the simulation prints (the chests' values,
the board art's space labels, the "$" disc) is drawn from stored glyphs: OpenCV 5's own masks of each character
(``glyphs.npz``, beside this module), laid as OpenCV 5 lays them. Where OpenCV 5 runs, ``put_text`` is
byte-identical to ``cv2.putText(img, text, org, FONT_HERSHEY_SIMPLEX, scale, colour, thickness, LINE_AA)``:
each character's mask ``a`` (0-255, drawn at its origin) is laid in turn, ``(img * (255 - a) + colour * a + 127)
// 255``, the next character ``width - 1`` pixels further right (``width`` its getTextSize width); the string's
size is the characters' (``text_size``; tests/boards/test_stacks_alike.py checks all this on OpenCV 5).

Stored sizes (``SIZES``): the board art's labels (scale 0.25 per px/mm, stroke 1, at 2 and 3 px/mm: printable
ASCII and Latin-1 letters), the disc's "$" (0.35 per px/mm, stroke 2, at 3 and 8 px/mm), the chests' digits
(drawn 4 times larger: 0.28 * 4 per px/mm, stroke 0.8 * 4 per px/mm, at 3 and 8 px/mm) and the digits at scale 12,
stroke 34 (the chests' stroke ratio), shrunk for a chest at another px/mm. A text at a size that is neither stored
nor shrinkable from a size of its stroke ratio (within 15%), or with a character not stored, is drawn by
cv2.putText's own font (which differs between stacks), as is every text when glyphs.npz is missing (it is not
package data of a wheel).

To add sizes or characters: edit ``SIZES``, then on OpenCV 5 (the dev stack)
``PYTHONPATH=. .venv/bin/python -m vision.sim.glyphs`` rewrites glyphs.npz (the sizes already stored come out
byte-identical, so the frames rendered before stay as they were).
"""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

import cv2
import numpy as np

FONT = cv2.FONT_HERSHEY_SIMPLEX
PATH = Path(__file__).with_name("glyphs.npz")
LABELS = "".join(chr(c) for c in range(32, 127)) + "".join(chr(c) for c in range(0xC0, 0x100))
DIGITS = "0123456789"
# (scale, stroke, characters): see the module's docstring
SIZES: tuple[tuple[float, int, str], ...] = (
    (0.25 * 2.0, 1, LABELS), (0.25 * 3.0, 1, LABELS),  # vision.boards.render_board's labels
    (0.35 * 3.0, 2, "$"), (0.35 * 8.0, 2, "$"),  # the Tahiti disc (boardtable._draw_piece)
    (0.28 * 3.0 * 4, int(round(0.8 * 3.0 * 4)), DIGITS), (0.28 * 8.0 * 4, int(round(0.8 * 8.0 * 4)), DIGITS),
    (12.0, int(round(12.0 * 0.8 / 0.28)), DIGITS),  # the chests' prints (boardtable._print_turned)
)

# group key "scale/stroke" -> (characters -> row, masks (n, H, W) uint8, metrics (n, 6): tw, th, base, pad, scale,
# stroke); each mask is the character drawn at (pad, pad + th)
_STORE: dict[str, tuple[dict[str, int], np.ndarray, np.ndarray]] | None = None


def _key(scale: float, thickness: int) -> str:
    return f"{scale:.4f}/{int(thickness)}"


def _store() -> dict[str, tuple[dict[str, int], np.ndarray, np.ndarray]]:
    global _STORE
    if _STORE is None:
        _STORE = {}
        if PATH.exists():
            with np.load(PATH) as z:
                for name in z.files:
                    if name.endswith(":chars"):
                        key = name[:-len(":chars")]
                        chars = {chr(int(c)): i for i, c in enumerate(z[name])}
                        _STORE[key] = (chars, z[key + ":masks"], z[key + ":metrics"])
    return _STORE


def _layout(text: str, scale: float, thickness: int) -> tuple[str, float] | None:
    """Where ``text`` at this size comes from: (group key, shrink factor 1.0) when stored at this very size, (the
    largest stored size of the same stroke ratio within 15%, its shrink factor) otherwise; None for a character
    or a size not stored."""
    store = _store()
    key = _key(scale, thickness)
    if key in store:
        return (key, 1.0) if all(c in store[key][0] for c in text) else None
    best = None
    for k, (chars, _, metrics) in store.items():
        s, t = float(metrics[0, 4]), float(metrics[0, 5])
        if abs((thickness / scale) / (t / s) - 1) < 0.15 and all(c in chars for c in text) \
                and (best is None or s > best[1]):
            best = (k, s)
    return None if best is None else (best[0], scale / best[1])


def _stored_size(text: str, key: str) -> tuple[int, int, int, int]:
    """(width, height, baseline, pad) of ``text`` at a stored size, as getTextSize gives them there."""
    chars, _, metrics = _store()[key]
    m = metrics[[chars[c] for c in text]]
    return (int(sum(m[:, 0] - 1) + 1), int(m[:, 1].max()), int(m[:, 2].max()), int(m[:, 3].max()))


def _lay(img: np.ndarray, mask: np.ndarray, x: int, y: int, colour: Sequence[float] | float) -> None:
    """``mask`` (0-255) laid on ``img`` with its top-left at (x, y), as OpenCV 5's putText lays a character."""
    h, w = img.shape[:2]
    gh, gw = mask.shape
    xa, ya, xb, yb = max(0, x), max(0, y), min(w, x + gw), min(h, y + gh)
    if xa >= xb or ya >= yb:
        return
    a = mask[ya - y:yb - y, xa - x:xb - x].astype(np.int32)
    region = img[ya:yb, xa:xb].astype(np.int32)
    if img.ndim == 3:
        a = a[..., None]
        c = np.asarray(np.broadcast_to(np.asarray(colour, np.float64).ravel()[:img.shape[2]]
                                       if np.ndim(colour) else colour, (img.shape[2],)), np.int32)
    else:
        c = np.int32(colour if not np.ndim(colour) else np.asarray(colour).ravel()[0])
    img[ya:yb, xa:xb] = ((region * (255 - a) + c * a + 127) // 255).astype(img.dtype)


def text_size(text: str, scale: float, thickness: int) -> tuple[tuple[int, int], int]:
    """``cv2.getTextSize(text, FONT_HERSHEY_SIMPLEX, scale, thickness)`` as OpenCV 5 gives it, on every stack
    (for text ``put_text`` draws from stored glyphs; cv2's own otherwise)."""
    where = _layout(text, scale, thickness) if text else None
    if where is None:
        return cv2.getTextSize(text, FONT, scale, thickness)
    key, f = where
    tw, th, base, _ = _stored_size(text, key)
    if f == 1.0:
        return (tw, th), base
    return (int(round(tw * f)), int(round(th * f))), int(round(base * f))


def put_text(img: np.ndarray, text: str, org: tuple[int, int], scale: float, colour: Sequence[float] | float,
             thickness: int) -> None:
    """``cv2.putText(img, text, org, FONT_HERSHEY_SIMPLEX, scale, colour, thickness, LINE_AA)`` as OpenCV 5 draws
    it, on every stack: byte-identical to it at the stored sizes; at a size shrunk from a stored one, the text
    drawn there and shrunk (INTER_AREA), its origin where the shrunk text's own is."""
    where = _layout(text, scale, thickness) if text else None
    if where is None:
        cv2.putText(img, text, (int(org[0]), int(org[1])), FONT, scale, colour, thickness, cv2.LINE_AA)
        return
    key, f = where
    chars, masks, metrics = _store()[key]
    x, y = int(org[0]), int(org[1])
    if f == 1.0:  # each character in turn, as OpenCV 5 does (overlapping ink laid twice)
        for c in text:
            i = chars[c]
            tw, th, _, pad = (int(v) for v in metrics[i, :4])
            _lay(img, masks[i], x - pad, y - th - pad, colour)
            x += tw - 1
        return
    tw, th, base, pad = _stored_size(text, key)  # drawn at the stored size (one character: its stored mask)
    big = np.zeros((th + base + 2 * pad + int(metrics[0, 5]), tw + 2 * pad), np.uint8)
    at = pad
    for c in text:
        i = chars[c]
        cw, ch, _, cpad = (int(v) for v in metrics[i, :4])
        _lay(big, masks[i], at - cpad, pad + th - ch - cpad, 255)
        at += cw - 1
    size = (max(1, int(round(big.shape[1] * f))), max(1, int(round(big.shape[0] * f))))
    small = cv2.resize(big, size, interpolation=cv2.INTER_AREA)
    _lay(img, small, x - int(round(pad * f)), y - int(round(th * f)) - int(round(pad * f)), colour)


def glyph(text: str, scale: float, thickness: int) -> tuple[np.ndarray, tuple[int, int, int, int]] | None:
    """``text``'s mask (drawn at (pad, pad + height)) as ``put_text`` lays it, and its (width, height, baseline,
    pad); None where cv2.putText would draw it."""
    where = _layout(text, scale, thickness) if text else None
    if where is None:
        return None
    (tw, th), base = text_size(text, scale, thickness)
    key, f = where
    pad = int(round(_stored_size(text, key)[3] * f))
    h = max(int(round(_store()[key][1].shape[1] * f)), th + base + 2 * pad)
    mask = np.zeros((h, tw + 2 * pad + 2), np.uint8)
    put_text(mask, text, (pad, pad + th), scale, 255, thickness)
    return mask, (tw, th, base, pad)


def build(sizes: Sequence[tuple[float, int, str]] = SIZES, path: Path = PATH) -> None:
    """glyphs.npz from this OpenCV's putText (OpenCV 5: the font the simulation prints in)."""
    if int(cv2.__version__.split(".")[0]) < 5:
        raise SystemExit(f"glyphs: OpenCV {cv2.__version__} draws another font; build glyphs.npz on OpenCV 5")
    out: dict[str, np.ndarray] = {}
    for scale, thick, chars in sizes:
        cells, metrics = [], []
        for c in chars:
            (tw, th), base = cv2.getTextSize(c, FONT, scale, thick)
            pad = thick
            while True:  # a margin the character's ink does not reach
                cell = np.zeros((th + base + 2 * pad + thick, tw + 2 * pad), np.uint8)
                cv2.putText(cell, c, (pad, pad + th), FONT, scale, 255, thick, cv2.LINE_AA)
                if not (cell[0].any() or cell[-1].any() or cell[:, 0].any() or cell[:, -1].any()):
                    break
                pad += 2
            cells.append(cell)
            metrics.append([tw, th, base, pad, scale, thick])
        H, W = max(c.shape[0] for c in cells), max(c.shape[1] for c in cells)
        key = _key(scale, thick)
        out[key + ":chars"] = np.int32([ord(c) for c in chars])
        out[key + ":masks"] = np.stack([np.pad(c, ((0, H - c.shape[0]), (0, W - c.shape[1]))) for c in cells])
        out[key + ":metrics"] = np.float64(metrics)
    np.savez_compressed(path, **out)


if __name__ == "__main__":
    build()
    print(f"glyphs: {PATH} written ({len(SIZES)} sizes) with OpenCV {cv2.__version__}")
