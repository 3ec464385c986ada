"""Tribe heights from the live loop's history: what a still frame cannot tell, the frames before it can.

One still frame rarely tells a tribe's height (docs/sunda.md, "Heights and markers": at 1.4 px/mm one pawn moves
a stack's top less than the measure's noise and a stack's lean, except far from the camera's nadir). But in the
live loop the tracker sees the table between every two actions, and a tribe grows one pawn at a time. So
:class:`StackHistory` follows every stack by where its base stands on the mat (not by lattice coordinates: the
reader refits its lattice while the layout is small) and knows a height when:

1. **a stack appears where the previous still frame showed none** (and none was ever seen there): one pawn, the
   colour on top;
2. **a known stack shows the same look** as in the previous still frame (its patch of the table, rectified to the
   mat, compared after the light's change is taken out): it is what it was;
3. **a known stack changed and its top is now another colour**: one pawn of that colour was put on it. Pawns
   leave the table only by a challenge (its dice entered on the phone) or an undo: the tracker says so
   (:meth:`StackHistory.pawns_may_leave`), and every stack known then is asked once it changes.

Everything else is asked (``ask``, with the candidates the history leaves first): a known stack that changed with
the same colour on top (a pawn of that colour put on it, or the stack only touched), a stack seen for the first
time on a table already laid, one that vanished and came back, one more than five high. Where the frame's own
measure is sure (far from the nadir) and the history knows another height, the two disagree: the phone asks and the
history is forgotten. Never a guess.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

#: a stack is the one followed when its base is within this of where it stood (mm; the base is measured to well
#: under a millimetre, a pawn put on a stack moves its base by the lean only)
MATCH_MM = 4.0
MAX_TRIBE = 5
#: a stack's look changed when at least CHANGED_PIXELS of its patch (2 px/mm) differ by more than CHANGED_LEVEL
#: (0-255, after a 3x3 blur and with the light's change divided out): a pawn put on a stack moves its top and
#: darkens the old top's near edge with a new side; the camera's noise alone (sigma <= 6 levels a pixel at the
#: bench's `hard`, about a third of that once blurred) stays far under it
CHANGED_LEVEL = 22.0
CHANGED_PIXELS = 3


PATCH_PPM = 2.0
PAWN_MM = 10.0


@dataclass
class Patch:
    """A stack's look in one still frame: the frame sampled on a mat window round it (``PATCH_PPM``), and the
    mask of where the stack can show (its base to its top at five pawns, with a margin)."""

    img: np.ndarray
    mask: np.ndarray


def stack_patch(frame: np.ndarray, to_image: Callable[[np.ndarray], np.ndarray], base_mm: Sequence[float],
                nadir_mm: Sequence[float] | None, per_pawn_mm: float) -> Patch:
    """The patch of ``frame`` round a stack whose base is ``base_mm`` (``to_image``: mat mm to frame pixels, the
    reader's mat location and lens). The window reaches past the top of the highest tribe (five pawns, each moving
    the top ``per_pawn_mm`` away from the nadir) and a few millimetres of ground round it, for the light."""
    import cv2

    base = np.asarray(base_mm, np.float64)
    u = np.zeros(2)
    if nadir_mm is not None and float(np.linalg.norm(base - np.asarray(nadir_mm))) > 1e-6:
        u = (base - np.asarray(nadir_mm, np.float64)) / float(np.linalg.norm(base - np.asarray(nadir_mm)))
    reach = MAX_TRIBE * max(float(per_pawn_mm), 0.0)
    half = min(PAWN_MM / 2 + reach + 5.0, 40.0)
    n = int(round(2 * half * PATCH_PPM))
    ax = (np.arange(n) + 0.5) / PATCH_PPM - half
    X, Y = np.meshgrid(ax, ax)
    pts = np.column_stack([X.ravel() + base[0], Y.ravel() + base[1]])
    px = np.asarray(to_image(pts), np.float32).reshape(n, n, 2)
    img = cv2.remap(np.ascontiguousarray(frame), np.ascontiguousarray(px[..., 0]), np.ascontiguousarray(px[..., 1]),
                    cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    # the capsule from the base to the highest top, a pawn's radius and 2.5 mm round it
    rel = np.stack([X, Y], -1)
    along = np.clip(rel @ u, 0.0, reach) if reach > 0 else np.zeros(X.shape)
    dist = np.linalg.norm(rel - along[..., None] * u, axis=-1)
    return Patch(img, dist <= PAWN_MM / 2 * 1.06 + 2.5)


def changed(before: Patch | None, now: Patch | None) -> bool:
    """Whether a stack's look (the same mat window in two still frames) changed beyond the camera's noise and the
    light's drift, where the stack can show. Unknown (either missing, or another window) counts as changed."""
    import cv2

    if before is None or now is None or before.img.shape != now.img.shape:
        return True
    a, b = before.img, now.img
    # the light and the white balance drift between frames: each channel's gain from the ground round the stack
    ground = ~(before.mask | now.mask)
    if ground.sum() < 20:
        return True
    ga = np.median(a[ground], axis=0)
    gb = np.median(b[ground], axis=0)
    b = b * (ga / np.maximum(gb, 1.0))
    d = np.abs(cv2.blur(a, (3, 3)) - cv2.blur(b, (3, 3))).max(axis=2)
    return int((d[before.mask | now.mask] > CHANGED_LEVEL).sum()) >= CHANGED_PIXELS


@dataclass
class _Stack:
    at: np.ndarray                      # the base (mat mm)
    colours: list[str] | None           # bottom to top; None: not known
    patch: Patch | None
    top: str
    suspect: bool = False               # pawns may have left the table since it was known: a change is not growth


@dataclass
class StackHistory:
    """Every stack followed from still frame to still frame (module doc). ``update`` takes one reading's tribes and
    returns them with the heights the history knows filled in."""

    stacks: list[_Stack] = field(default_factory=list)
    ghosts: list[np.ndarray] = field(default_factory=list)    # where a stack once stood and vanished
    seen_before: bool = False       # a still frame was read before this one (the table's spots seen bare or not)

    def reset(self) -> None:
        self.stacks, self.ghosts, self.seen_before = [], [], False

    def lost_frame(self) -> None:
        """A still frame could not be read: what happened meanwhile is unknown."""
        for s in self.stacks:
            s.colours, s.patch = None, None
        self.seen_before = False

    def pawns_may_leave(self) -> None:
        """Pawns may leave the table from now on (a challenge's dice entered, an undo): every stack known so far
        is taken as it is only while it looks the same; once it changes, it is asked (whenever the players change
        the stacks, in the next frame or later)."""
        for s in self.stacks:
            s.suspect = True

    def update(self, tribes: Sequence[dict[str, Any]], at_mm: Sequence[Sequence[float]],
               patches: Sequence[Patch | None]) -> list[dict[str, Any]]:
        """``tribes``: the reading's tribes (``TribeReading.to_dict``), ``at_mm`` their bases on the mat, ``patches``
        their looks. Returns the tribes with ``height``, ``colours``, ``ask``, ``candidates`` from the history where
        it knows them, and ``height_from``: ``"camera"`` (the frame's own measure), ``"history"``, or ``None``
        (asked)."""
        old = list(self.stacks)
        used: set[int] = set()
        new_stacks: list[_Stack] = []
        out = []
        for t, at, patch in zip(tribes, at_mm, patches):
            at = np.asarray(at, np.float64)
            best, bi = MATCH_MM, -1
            for i, s in enumerate(old):
                d = float(np.linalg.norm(s.at - at))
                if i not in used and d <= best:
                    best, bi = d, i
            known, ask_first = self._known(t, old[bi] if bi >= 0 else None, at, patch)
            if bi >= 0:
                used.add(bi)
            res = dict(t)
            res["at_mm"] = [round(float(at[0]), 1), round(float(at[1]), 1)]
            sure_cam = not t.get("ask") and t.get("height") is not None and None not in (t.get("colours") or [None])
            if sure_cam:
                cam = list(t["colours"])
                if known is not None and known != cam:
                    # the frame's own measure and the history disagree: neither is taken
                    res.update(ask=True, height=None, height_from=None,
                               candidates=_order(t.get("candidates") or [], [len(known), len(cam)]))
                    known = None
                else:
                    res["height_from"] = "camera"
                    known = cam
            elif known is not None:
                res.update(height=len(known), colours=list(known), ask=False, candidates=[len(known)],
                           height_from="history")
            else:
                res.update(height_from=None, candidates=_order(t.get("candidates") or [], ask_first))
            suspect = bi >= 0 and old[bi].suspect and known is not None
            new_stacks.append(_Stack(at, known, patch, str(t.get("top")), suspect))
            out.append(res)
        self.ghosts += [s.at for i, s in enumerate(old) if i not in used]
        self.stacks = new_stacks
        self.seen_before = True
        return out

    def _known(self, t: dict[str, Any], s: _Stack | None, at: np.ndarray, patch: Patch | None
               ) -> tuple[list[str] | None, list[int]]:
        """What the history knows of this stack's pawns (bottom to top), and the heights to offer first when not."""
        top = str(t.get("top"))
        if s is None:
            ghost = any(float(np.linalg.norm(g - at)) <= MATCH_MM for g in self.ghosts)
            if self.seen_before and not ghost:
                return [top], []                # a new stack where the previous frame showed none: one pawn
            return None, []
        if s.colours is None:
            return None, []
        h = len(s.colours)
        if not changed(s.patch, patch) and top == s.colours[-1]:
            return list(s.colours), []          # the same look: what it was
        if s.suspect:
            return None, [h + 1, h, h - 1]
        if top != s.colours[-1]:
            return (s.colours + [top], []) if h < MAX_TRIBE else (None, [])   # one pawn of that colour put on it
        return None, [h + 1, h]                 # changed, the same colour on top: a pawn more, or only touched


def _order(cands: Sequence[int], first: Sequence[int]) -> list[int]:
    """The candidate heights with ``first`` (those the history leaves) ahead, each once, 1..5 only."""
    out = [n for n in first if 1 <= n <= MAX_TRIBE]
    out += [n for n in cands if n not in out]
    out += [n for n in range(1, MAX_TRIBE + 1) if n not in out]
    return list(dict.fromkeys(out))
