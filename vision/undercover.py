"""A tile partly covered by a figure, read again by its colours with the figure left out.

The tile pass correlates each cell with the references (normalised, block by block, what a figure covers left
out). On a flat tile (all sea, a plain with one small mountain) the part a figure leaves visible has almost no
texture: its correlation with every reference is near noise, and a tile with some land in the visible part wins
by 0.05-0.15, a *marked guess* (confidence 0.2 or less). The figure is then named on a region of the wrong tile.

What such a tile still shows is its *colour*: all sea is blue where a plain-and-mountain tile is green and brown.
So the visible pixels (the cell less the figures' pictures, grown by their rim, and less the covered mask near them:
their shadows) are compared with every reference, every rotation and a few millimetres of shift, by colour in the
light of the tiles around it: one per-channel gain and offset fitted on the neighbouring tiles read for sure (their
pixels against their own references), so the reference's absolute colours count, not only its texture. The best
candidate replaces the guess only when it explains the visible pixels clearly better (:data:`SWITCH_RATIO`, or so
beyond the frame's noise floor: :func:`clearly_better`) and the guess was marked (:data:`MAX_CONFIDENCE`).

>>> import numpy as np
>>> sea = np.zeros((8, 8, 3), np.float32); sea[:] = (200, 120, 40)
>>> land = sea.copy(); land[:, :4] = (60, 160, 80)
>>> observed = sea.copy(); visible = np.ones((8, 8), bool); visible[:, :5] = False   # the land half hidden
>>> round(colour_misfit(observed, land, visible), 1), round(colour_misfit(observed, sea, visible), 1)
(0.0, 0.0)
>>> visible[:, 2:4] = True                                                            # a little land shows
>>> colour_misfit(observed, land, visible) > colour_misfit(observed, sea, visible)
True
"""
from __future__ import annotations

import functools
from dataclasses import replace
from typing import Callable, Sequence

import cv2
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from .identity_cache import IdentityCache

MAX_CONFIDENCE = 0.3
"""Only tiles read with less confidence than this (a marked guess, see the tile pass) are read again ..."""
MAX_CONFIDENCE_UNDER_FIGURE = 0.55
"""... or, where a figure's picture lies on the tile, less than this: the figure hides part of the art, often the part
that tells the tile from its look-alikes (a town under a yellow figure: ds056 read as ds066 at 0.33; a mountain under
a red one: ds006 as ds061 at 0.50, both Neues Land ``field/hard`` seed 1), and the tile pass's margin over the
runner-up is then no sure sign. The colour re-reading still replaces the reading only when another tile explains
the visible pixels clearly better (:data:`SWITCH_RATIO`)."""
SWITCH_RATIO = 0.7
"""A candidate replaces the guess when its colour misfit is below this share of the guess's."""
MIN_VISIBLE = 0.25
"""... and this share of the cell at least is visible (else the colours tell too little)."""
WHOLE_CELL = 1.3
"""A marked guess whose cell a reference explains whole, nothing left out, within this many times the frame's noise
floor (:func:`noise_floor`: what the right tiles around misfit, 23-27 units at the field camera's ``hard``), and
clearly better than the guess (:func:`clearly_better`), is that tile: what the figure pass and the covered mask left
out of the cell was its art. A figure on the tile misfits every reference (its paint, a tenth of the cell, adds some
9 units); a tile's own art, in a player's colour, misfits only the wrong ones. (The vision bench's Südsee
``field/hard`` seed 2: B1's red island under the warm cast passed as a red figure, 75 % of the cell was left out, the
sea that showed fitted K2 as well as B1, and the island then stood as three phantom figures on K2's reef; the whole
cell fits B1 r180 at 24.8 against a floor of 23.7, K2 at 58.1.)"""
SHIFT_MM = 4.0
"""How far off its cell a tile laid by hand is looked for (the sloppiest hand, 2.4 mm, and the seam)."""
KEEP_COARSE = 24
KEEP_FINE = 5
"""How many candidates each coarser stage passes on (see :func:`reread`)."""
TRUNCATE = 90.0
"""A pixel's misfit (B+G+R) counts at most this much: an edge a pixel off, a speck, a figure's rim."""
BRIGHTNESS = (0.8, 1.25)
"""Each reference is as bright as the light at its place in the enrolment photo: a camera's references differ by a
factor of 0.83-1.07 from their tiles' scans (the median tile 1.0; the field camera's dim corner, at ``hard``, where
the enrolment layout puts ds044: 0.84). The light fitted on the neighbours takes every reference into the frame's
light alike, so each candidate may also be this much brighter or darker (one factor, the same in every channel,
fitted on the visible pixels): a uniform brightness explains a dim reference, never a wedge of another colour."""


def colour_misfit(observed: np.ndarray, expected: np.ndarray, visible: np.ndarray) -> float:
    """Mean truncated B+G+R difference between ``observed`` and ``expected`` (float images of one size) over the
    ``visible`` pixels (``inf`` where none is)."""
    if not visible.any():
        return float("inf")
    err = np.abs(observed[visible] - expected[visible]).sum(axis=1)
    return float(np.minimum(err, TRUNCATE).mean())


_STACKS = IdentityCache(8)


def _stack(refs_bgr: np.ndarray, step: int) -> np.ndarray:
    """Every reference in every rotation, downsampled by ``step``: ``(n_refs * 4, side, side, 3)`` float32, order
    reference-major (rotation 0, 90, 180, 270 clockwise); kept for the reference set (the recogniser's stays)."""
    def build() -> np.ndarray:
        ims = []
        for im in refs_bgr:
            for k in range(4):
                r = np.ascontiguousarray(np.rot90(im, -k)).astype(np.float32)
                if step > 1:
                    r = cv2.resize(r, (r.shape[1] // step, r.shape[0] // step), interpolation=cv2.INTER_AREA)
                ims.append(r)
        return np.stack(ims)

    return _STACKS.get((refs_bgr,), step, build)


def _candidates(refs_bgr: np.ndarray, gain: np.ndarray, offset: np.ndarray, step: int,
                which: Sequence[int] | None = None) -> np.ndarray:
    """The candidates of :func:`_stack` (``which``: their indices, default all) in the light of the frame."""
    stack = _stack(refs_bgr, step)
    if which is not None:
        stack = stack[list(which)]
    return np.clip(stack * gain.astype(np.float32) + offset.astype(np.float32), 0, 255)


def best_by_colour(window: np.ndarray, visible: np.ndarray, cands: np.ndarray, pad: int,
                   offset: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Each candidate's least misfit over the shifts ``-pad..pad`` (pixels) and the shift ``(dy, dx)`` that gave it.
    ``window``: the cell with ``pad`` pixels around it (float BGR); ``visible`` over ``window``; ``cands``:
    ``(n, side, side, 3)`` with ``side + 2 * pad`` the window's side. ``offset``: the light's offset per channel in
    the candidates (``reference * gain + offset``): each candidate's part above it is then scaled by its best factor
    within :data:`BRIGHTNESS` first (the light at the reference's place in the enrolment photo). A shift showing less
    than :data:`MIN_VISIBLE` of the cell is not tried; of equal misfits the first shift (``dy``, then ``dx``) wins.

    Every shift at once (issue 14): the candidates' colour planes against every shift's window, the brightness
    factors' sums as matrix products over the visible pixels, the truncated misfits summed over them by one
    contraction (:func:`_misfits`). The same misfits as one shift at a time up to float32 rounding (a few parts in a
    million; ``tests/vision_sim/test_undercover_fast.py``)."""
    return _best_shifts(cands, np.asarray(window, np.float32)[None], np.asarray(visible)[None], pad, offset)


def each_by_colour(windows: np.ndarray, visibles: np.ndarray, cands: np.ndarray, pad: int,
                   offset: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """:func:`best_by_colour` of each candidate in its own window: ``windows`` ``(n, side + 2 * pad, ..., 3)``,
    ``visibles`` over them, ``cands`` ``(n, side, side, 3)``; all at once (the same misfits as one call each)."""
    return _best_shifts(cands, np.asarray(windows, np.float32), np.asarray(visibles), pad, offset)


def _shifted(windows: np.ndarray, visibles: np.ndarray, side: int) -> tuple[np.ndarray, np.ndarray]:
    """Every ``side``-square of ``windows`` ``(m, W, W, 3)``: ``(m, shifts, 3, pixels)`` float32 (shift-major,
    ``dy`` then ``dx``), and of ``visibles`` ``(m, shifts, pixels)``."""
    m, span = windows.shape[0], windows.shape[1] - side + 1
    obs = np.ascontiguousarray(sliding_window_view(windows, (side, side), axis=(1, 2)))
    vis = np.ascontiguousarray(sliding_window_view(visibles, (side, side), axis=(1, 2)))
    return obs.reshape(m, span * span, 3, side * side), vis.reshape(m, span * span, side * side)


def _best_shifts(cands: np.ndarray, windows: np.ndarray, visibles: np.ndarray, pad: int, offset: np.ndarray | None
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Each candidate's least mean misfit over the shifts of ``windows`` (float32 ``(1 or n, W, W, 3)``: one window
    for all candidates, or one each) where ``visibles`` shows, and that shift ``(dy, dx)``, as :func:`best_by_colour`
    gives them. The light's offset comes off each window and the visible masks become 0/1 floats before the windows
    are cut at every shift (:func:`_shifted`; issue 14, CPU: once per pixel, not once per shift; the same values)."""
    n, side = cands.shape[0], cands.shape[1]
    npx = side * side
    planes = np.ascontiguousarray(np.asarray(cands, np.float32).reshape(n, npx, 3).transpose(0, 2, 1))  # (n, 3, px)
    if offset is not None:
        off = np.asarray(offset, np.float32)
        planes, windows = planes - off.reshape(1, 3, 1), windows - off
    obs, vis = _shifted(windows, visibles.astype(np.float32), side)
    return _least(_misfits(planes, obs, vis, offset is not None), vis.sum(axis=2), npx, pad)


def _least(err: np.ndarray, count: np.ndarray, npx: int, pad: int) -> tuple[np.ndarray, np.ndarray]:
    """Each candidate's least mean misfit over its shifts and that shift ``(dy, dx)``: ``err`` the summed misfits
    ``(n, shifts)`` over ``count`` visible pixels of ``npx`` (too few seen: no fit, ``inf`` at shift 0)."""
    n = err.shape[0]
    err /= np.maximum(count, 1).astype(np.float32)
    err[np.broadcast_to(count < MIN_VISIBLE * npx, err.shape)] = np.inf
    first = err.argmin(axis=1)
    best = err[np.arange(n), first]
    where = (np.stack(np.divmod(first, 2 * pad + 1), axis=1) - pad).astype(np.int32)
    where[~np.isfinite(best)] = 0
    return best, where


_CHUNK = 1 << 21
"""At most this many (candidate, shift, pixel) values go into one block of the brightness factors' sums (8 MB; the
matrix products' shapes, and with them the last bits of their sums, follow the block: kept as it was) ..."""
_CACHE_BLOCK = 1 << 16
"""... and at most this many misfits are made at once within it (256 KB, or one candidate where a candidate's shifts
hold more): the two working arrays stay in a core's L2 cache through the three channels' passes (8 MB blocks were
1.5-2.5 times slower on the fine stage's windows; issue 14, CPU). Each candidate's misfits and their sums over its
pixels are made alike in any block (tested), so the size changes no bit."""


def _misfits(planes: np.ndarray, obs: np.ndarray, vis: np.ndarray, scaled: bool) -> np.ndarray:
    """The truncated B+G+R misfit of every candidate at every shift, summed over the shift's visible pixels:
    ``planes`` the candidates' colour planes ``(n, 3, pixels)``, ``obs`` every shift's window ``(1 or n, shifts, 3,
    pixels)`` (one window for all candidates, or each its own), ``vis`` where it shows (0/1, ``(1 or n, shifts,
    pixels)``), both less the light's offset when ``scaled`` (each candidate then scaled by its least-squares factor
    over the visible pixels, within :data:`BRIGHTNESS`)."""
    n, shifts, npx = planes.shape[0], obs.shape[1], obs.shape[3]
    shared = obs.shape[0] == 1
    out = np.empty((n, shifts), np.float32)
    step = max(1, _CHUNK // max(shifts * npx, 1))
    for a in range(0, n, step):
        c = planes[a:a + step]
        m = c.shape[0]
        o, v = (obs, vis) if shared else (obs[a:a + step], vis[a:a + step])
        k = None
        if scaled:
            q = c[:, 0] * c[:, 0] + c[:, 1] * c[:, 1] + c[:, 2] * c[:, 2]
            if shared:
                num = c.reshape(m, -1) @ (o[0] * v[0][:, None, :]).reshape(shifts, -1).T
                den = q @ v[0].T
            else:
                num = np.einsum("icp,iscp->is", c, o * v[:, :, None, :])
                den = np.einsum("ip,isp->is", q, v)
            k = np.clip(num / np.maximum(den, 1e-6), *BRIGHTNESS).astype(np.float32)[:, :, None]
        inner = max(1, _CACHE_BLOCK // max(shifts * npx, 1))
        for b in range(0, m, inner):
            part = slice(b, min(b + inner, m))
            out[a + part.start:a + part.stop] = _summed_misfits(c[part], o if shared else o[part], v if shared else v[part],
                                                                 None if k is None else k[part], shared)
    return out


def _summed_misfits(c: np.ndarray, o: np.ndarray, v: np.ndarray, k: np.ndarray | None, shared: bool) -> np.ndarray:
    """:func:`_misfits` of one block: candidates ``c`` ``(m, 3, pixels)`` against ``o`` (``shared``: one window for
    all, ``(1, shifts, 3, pixels)``; else each its own, ``(m, ...)``) where ``v`` shows, each scaled by ``k`` ``(m,
    shifts, 1)`` when given; ``(m, shifts)``."""
    m, shifts, npx = c.shape[0], o.shape[1], o.shape[3]
    e = np.empty((m, shifts, npx), np.float32)
    t = np.empty_like(e)
    for ch in range(3):
        if k is not None:
            np.multiply(k, c[:, None, ch, :], out=t)
        else:
            t[:] = c[:, None, ch, :]
        np.subtract(t, o[:, :, ch, :], out=t)
        if ch:
            e += np.abs(t, out=t)
        else:
            np.abs(t, out=e)        # the first channel's misfit itself (0 + x is x: the same sums)
    np.minimum(e, TRUNCATE, out=e)
    return np.einsum("isp,sp->is", e, v[0]) if shared else np.einsum("isp,isp->is", e, v)


def light_from(bgr: np.ndarray, placed: Sequence[tuple[np.ndarray, int, int]], usable: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray] | None:
    """Per-channel ``(gain, offset)`` taking the references into the light of ``bgr``, fitted on tiles read for
    sure: ``placed`` = (reference as it lies, top, left) each; ``usable`` the canvas pixels not covered. None when
    they show too few pixels."""
    from .pieces import _gain_of

    obs, ref = [], []
    h, w = bgr.shape[:2]
    for im, top, left in placed:
        side = im.shape[0]
        a, b, c, d = max(top, 0), min(top + side, h), max(left, 0), min(left + side, w)
        if b - a < side // 2 or d - c < side // 2:
            continue
        # the tile's inner part (a hand-laid tile's edge is a pixel or two off its place)
        a2, b2, c2, d2 = a + 3, b - 3, c + 3, d - 3
        keep = usable[a2:b2:2, c2:d2:2]
        obs.append(bgr[a2:b2:2, c2:d2:2][keep])
        ref.append(im[a2 - top:b2 - top:2, c2 - left:d2 - left:2][keep])
    if not obs or sum(len(o) for o in obs) < 200:
        return None
    o = np.concatenate(obs).astype(np.float32)
    r = np.concatenate(ref).astype(np.float32)
    return _gain_of(o[:, None, :], r[:, None, :])


FLOOR_MARGIN = 0.2
"""... or, the frame's noise floor known (:func:`noise_floor`), when its misfit beyond the floor is below
:data:`SWITCH_RATIO` of the guess's and it is better by at least this share of the floor (the floor's own spread
between tiles, 1-3 units at 23-27, and the noise of a comparison of two candidates, stay under it)."""


def clearly_better(best: float, mine: float, floor: "float | None | Callable[[], float | None]") -> bool:
    """Whether a candidate of colour misfit ``best`` explains a tile clearly better than the guess (``mine``):
    below :data:`SWITCH_RATIO` of it; or, ``floor`` (:func:`noise_floor`) given, below that share of it in what
    either misfits beyond the floor, and better by :data:`FLOOR_MARGIN` of the floor (``floor`` may be a function
    that makes it: called only then). What the right reference
    misfits in a noisy frame is no evidence: at the field camera's ``hard`` (noise, JPEG 65, a magenta cast) every
    reference misfits 23-27 units where it is right, and ds048 (32.0) against a wrong guess ds078 (38.8) was not
    clearly better by the plain ratio (0.82), while beyond the floor of 26.5 it is (5.5 against 12.3).

    >>> clearly_better(32.0, 38.8, None), clearly_better(32.0, 38.8, 26.5)
    (False, True)
    >>> clearly_better(26.9, 27.3, 26.7)        # both at the floor: noise, not evidence
    False
    """
    if best < SWITCH_RATIO * mine:
        return True
    if callable(floor):
        floor = floor()     # made only where the plain ratio does not decide (issue 14, CPU: 2 of 11 re-read tiles)
    if floor is None:
        return False
    return best - floor < SWITCH_RATIO * (mine - floor) and mine - best >= FLOOR_MARGIN * floor


def noise_floor(bgr: np.ndarray, placed: Sequence[tuple[np.ndarray, int, int]], usable: np.ndarray,
                light: tuple[np.ndarray, np.ndarray]) -> float | None:
    """The colour misfit (:func:`best_by_colour`'s, a pixel or two of shift allowed) of tiles read for sure against
    their own references in ``light``: ``placed`` = (reference as it lies, top, left) each, ``usable`` the canvas
    pixels not covered. The median over those shown whole, or None. What the right reference still misfits in this
    frame (noise, JPEG, blur, the cast's departure from one gain and offset per channel): no evidence for or against
    any candidate."""
    side = placed[0][0].shape[0] if placed else 0
    h, w = bgr.shape[:2]
    gain, offset = light
    whole = [(im, top, left) for im, top, left in placed
             if top - 2 >= 0 and left - 2 >= 0 and top + side + 2 <= h and left + side + 2 <= w]
    if not whole:
        return None
    windows = np.stack([bgr[top - 2:top + side + 2, left - 2:left + side + 2] for _, top, left in whole])
    seen = np.stack([usable[top - 2:top + side + 2, left - 2:left + side + 2] for _, top, left in whole])
    cands = np.clip(np.stack([im for im, _, _ in whole]).astype(np.float32) * gain.astype(np.float32)
                    + offset.astype(np.float32), 0, 255)
    m, _ = each_by_colour(windows.astype(np.float32), seen, cands, 2, offset)
    out = [float(v) for v in m if np.isfinite(v)]
    return float(np.median(out)) if out else None


def reread(bgr: np.ndarray, refs_bgr: np.ndarray, ids: Sequence[str], guess, top: int, left: int, mm_per_px: float,
           hidden: np.ndarray, light: tuple[np.ndarray, np.ndarray],
           floor: "float | None | Callable[[], float | None]" = None):
    """The tile at canvas ``(top, left)`` (its cell's corner; ``guess`` the tile pass's reading, a
    :class:`vision.tiles.TileGuess`) read again by colour with the ``hidden`` pixels of the canvas left out.
    Returns the new guess, or ``guess`` when no candidate explains the visible pixels clearly better
    (:func:`clearly_better`; ``floor``: the frame's :func:`noise_floor` there, when known, or a function that makes
    it only where it is needed).

    A marked guess (confidence below :data:`MAX_CONFIDENCE`) that this leaves as it is is read once more with
    nothing left out (:data:`WHOLE_CELL`): what is hidden may be the tile's own art, taken for figures."""
    if callable(floor):
        floor = functools.cache(floor)      # made at most once, by whichever read needs it first
    new = _read_again(bgr, refs_bgr, ids, guess, top, left, mm_per_px, hidden, light, floor)
    if new is guess and floor is not None and guess.confidence < MAX_CONFIDENCE:
        if callable(floor):
            floor = floor()
        if floor is not None:
            new = _read_again(bgr, refs_bgr, ids, guess, top, left, mm_per_px, np.zeros_like(hidden), light, floor,
                              within=WHOLE_CELL * floor)
    return new


def _read_again(bgr: np.ndarray, refs_bgr: np.ndarray, ids: Sequence[str], guess, top: int, left: int,
                mm_per_px: float, hidden: np.ndarray, light: tuple[np.ndarray, np.ndarray],
                floor: "float | None | Callable[[], float | None]", within: float | None = None):
    """:func:`reread` once, with ``hidden`` left out; ``within``: the new reading is taken only where it misfits
    by at most this much."""
    side = refs_bgr.shape[1]
    pad = int(round(SHIFT_MM / mm_per_px))
    h, w = bgr.shape[:2]
    if top - pad < 0 or left - pad < 0 or top + side + pad > h or left + side + pad > w:
        return guess
    window = bgr[top - pad:top + side + pad, left - pad:left + side + pad].astype(np.float32)
    visible = ~hidden[top - pad:top + side + pad, left - pad:left + side + pad]
    gain, offset = light
    j_guess = ids.index(guess.tile) * 4 + (guess.rotation // 90) % 4
    # every candidate at a quarter of the resolution (about 4 mm a pixel, a shift a pixel), the best
    # :data:`KEEP_COARSE` again at half (a shift every 2 mm), the best :data:`KEEP_FINE` and the guess itself at full
    # resolution, every shift
    order = list(range(len(ids) * 4))
    centre = np.zeros((len(order), 2), np.int32)
    for step, keep in ((4, KEEP_COARSE), (2, KEEP_FINE)):
        small, small_vis = _down(window, visible, step)
        misfit, where = best_by_colour(small, small_vis, _candidates(refs_bgr, gain, offset, step, order),
                                       max(pad // step, 1), offset)
        if not np.isfinite(misfit).any():
            return guess
        best = np.argsort(misfit)[:keep]
        order, centre = [order[int(i)] for i in best], where[best] * step
    if j_guess not in order:
        order.append(j_guess)
        centre = np.vstack([centre, [(0, 0)]])
    # around the shift the half resolution found (a pixel or so either way)
    at = np.clip(centre, -pad + 2, pad - 2).astype(np.int32)
    subs = np.stack([window[pad + cy - 2:pad + cy + side + 2, pad + cx - 2:pad + cx + side + 2] for cy, cx in at])
    sub_vis = np.stack([visible[pad + cy - 2:pad + cy + side + 2, pad + cx - 2:pad + cx + side + 2] for cy, cx in at])
    fine, shift = each_by_colour(subs, sub_vis, _candidates(refs_bgr, gain, offset, 1, order), 2, offset)
    shift = shift + at
    mine = float(fine[order.index(j_guess)])
    k = int(np.argmin(fine))
    j = order[k]
    if j == j_guess or not np.isfinite(mine) or not clearly_better(float(fine[k]), mine, floor):
        return guess
    if within is not None and float(fine[k]) > within:
        return guess
    tile, rotation = ids[j // 4], 90 * (j % 4)
    dy, dx = (int(v) for v in shift[k])
    # the offset of the tile's centre from its cell's centre, grid-aligned mm
    offset_mm = (dx * mm_per_px, dy * mm_per_px)
    return replace(guess, tile=tile, rotation=rotation, offset_mm=offset_mm, angle_deg=0.0, hidden_twins=(),
                   confidence=float(min(guess.confidence, 0.49)), constrained=False,
                   runners_up=_runners_after(guess, (tile, rotation)))


def _runners_after(guess, pick: tuple[str, int]) -> tuple:
    """The runners-up of ``guess`` once ``pick`` replaces it: the reading it replaces first (with its score), then
    its own runners-up less ``pick`` (before, the new tile stayed listed as its own runner-up and the reading it
    replaced was gone)."""
    from .tiles import Candidate

    was = Candidate(guess.tile, guess.rotation, guess.score)
    return (was,) + tuple(c for c in guess.runners_up if (c.tile, c.rotation) != pick)[:2]


def _down(window: np.ndarray, visible: np.ndarray, step: int) -> tuple[np.ndarray, np.ndarray]:
    """``window`` and its ``visible`` mask at 1/``step`` of the size (a pixel visible where all of it was)."""
    size = (window.shape[1] // step, window.shape[0] // step)
    small = cv2.resize(window, size, interpolation=cv2.INTER_AREA)
    return small, cv2.resize(visible.astype(np.float32), size, interpolation=cv2.INTER_AREA) > 0.99


def visible_mask(shape: tuple[int, int], occlusion: np.ndarray | None, pictures: Sequence[np.ndarray],
                 grow_px: int) -> np.ndarray:
    """What to leave out of a canvas of ``shape``: the covered mask (``occlusion``, >= 0.5) and the figures'
    ``pictures`` (boolean canvas masks), grown by ``grow_px`` (a figure's rim blends with the tile)."""
    hidden = np.zeros(shape, bool) if occlusion is None else occlusion >= 0.5
    for p in pictures:
        hidden |= p
    if grow_px > 0:
        k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * grow_px + 1, 2 * grow_px + 1))
        hidden = cv2.dilate(hidden.astype(np.uint8), k).astype(bool)
    return hidden


__all__ = ["FLOOR_MARGIN", "MAX_CONFIDENCE", "MAX_CONFIDENCE_UNDER_FIGURE", "SWITCH_RATIO", "best_by_colour", "clearly_better", "each_by_colour",
           "colour_misfit", "light_from", "noise_floor", "reread", "visible_mask"]
