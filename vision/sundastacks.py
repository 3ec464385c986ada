"""A tribe's height from above: two cues measured on the stack's outline, decided with a margin.

A stack of ``n`` pawns (radius ``R``, each ``h`` high) seen by a camera ``H`` above the mat, whose nadir is ``N``:
every slice at height ``z`` projects onto the mat (the canvas the reader works on) as a disc of radius
``R H / (H - z)`` centred ``d H / (H - z)`` from the nadir (``d``: the base's distance from it). So, measured along
the line from the nadir (``u``) and across it:

- the outline's **near end** is the base's near edge, ``d - R`` from the nadir (for ``d > R``), whatever the height;
- its **far end** is the top's far edge, ``(d + R) H / (H - z)``;
- its **width** at the top is the top's apparent diameter ``W = 2 R H / (H - z)`` (cue 1: apparent size);
- length less width, ``D = (d - R) z / (H - z)``, is the top's **parallax** against the base (cue 2). Where the
  base stands on the node does not enter: the near end is measured, not assumed at the node.

Both ends and both sides are found to a fraction of a pixel where a soft pawn membership (Lab distance to the
pawn colours, top and darker sides, against land, water and cloth, each also in shadow) crosses one half, on
profiles averaged over a strip; blur moves both edges of a length alike, so ``D`` does not depend on the
threshold. For each candidate height 1..5 the expected ``D`` and ``W`` are compared with the measures, each with its
uncertainty: the measurement's (:data:`MEASURE_MM`), and a stack's lean (pawns stacked by hand sit up to a
millimetre off the one below: :data:`LEAN_MM` a pawn, growing with the height). The apparent size changes by about
0.07 mm a pawn at a metre: it rules out nothing on its own but vetoes a parallax it contradicts. The height is taken
only when the best candidate fits (within :data:`FIT_SIGMA`) and the next best is at least :data:`MARGIN_SIGMA`
further off; otherwise the phone asks, offering the candidates nearest first.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping, Sequence

import cv2
import numpy as np

PAWN_MM = 10.0
PAWN_HEIGHT_MM = 7.0
MAX_TRIBE = 5
#: one length or width measured on the outline: its uncertainty (mm, 1 sigma), at the reader's 2 px/mm
MEASURE_MM = 0.3
#: ... at least this share of the edges' width (a quarter to three quarters of the way): blurred edges are placed worse
SPREAD_SIGMA = 0.5
#: a stack's lean: each pawn's offset from the one below (mm, 1 sigma, along the line from the nadir)
LEAN_MM = 0.45
#: the apparent size's uncertainty (mm, 1 sigma): blur and the threshold move a width, not a length less a width
SIZE_MM = 0.6
FIT_SIGMA = 2.5           # the best candidate must fit within this many sigmas
MARGIN_SIGMA = 3.0        # ... and the next best be at least this many sigmas further off
STEP_MM = 0.1             # the profiles' sampling step
#: how much lighter than its sides a pawn's top may be, and the shades its sides and a shadow take
SIDE_SHADES = (1.0, 0.85, 0.72, 0.6)
GROUND_SHADES = (1.0, 0.75, 0.55)
L_WEIGHT = 0.35
#: a dark pawn's blurred rim and its shadow take the darkest ground's class (the land's shade, a dark cloth), not
#: the pawn's colour: its blob of pawn colours shrinks (at `hard` a black pawn's 69-227 px at 2 px/mm, where a top 10
#: mm across is 314). A blob under :data:`FULL_BLOB` of a pawn's top but at least :data:`MIN_CORE` is a stack only
#: when, with the dark rim round it, it covers :data:`MIN_BLOB` of a top and its outline, measured where the colour
#: is halfway from the ground's to the pawn's (:func:`measure`, which the rim does not move), is :data:`MIN_TOP_MM`
#: wide or more: a resource marker is 6 mm across
FULL_BLOB = 0.7
MIN_CORE = 0.2
MIN_BLOB = 0.45
MIN_TOP_MM = 8.5
#: a blob of a stack's shape whose near end lies off every node (a resource marker touches the stack's near side, its
#: blurred rim of the stack's paint joining them) is split into the parts a disc wider than a marker fits in
SPLIT_OFF_NODE = True


#: a dark pawn on a dark cloth: the cloth's shade (class 0 of the reader) and the pawn's paint lie a few Lab units apart,
#: and the pawn's top splits between them (at `default` on the dark grey cloth a black top read as the cloth's shade
#: with only a ring of black round it, which the opening took away: three black tribes lost, photo bench seed 4
#: table 2). Inside the layout the cloth shows only in the gaps and cut edges (thin: the opening takes them), so a
#: solid disc of the cloth's class and a pawn's paint together, :data:`MIN_BLOB` to :data:`DARK_MOST` of a pawn's top
#: and holding at least :data:`DARK_PAINT` of a top of paint (and :data:`DARK_SHARE` of itself), is a pawn; kept only
#: when its outline measures a top (:data:`MIN_TOP_MM`), as a shrunk dark blob is (:func:`small_blob_kept`)
DARK_PAINT = 0.1
DARK_MOST = 3.0
#: ... and paint on this share of it at least: a black pawn's paint shows on 58-69 % of its disc at `default`, 17-45 %
#: at `hard` (photo bench seed 4 tables 2 and 7), where the cloth seen through a hole in the layout at `hard` shows
#: paint only on its cut edges' shade, 5-14 % (seed 5 table 7: ten such holes)
DARK_SHARE = 0.15
#: ... or with no paint at all: at `hard` a black pawn on the land, lit as the dark cloth, read all of the cloth's class
#: but a few pixels (photo bench seed 10 table 4: three black pawns, 2-30 px of black paint each, their discs 0.6-0.9
#: of a top). Such a disc is looked at only where no hole in the layout lies within reach (``vision.sunda``: the
#: cloth seen through a hole is of the same class) and its outline measures a top (:data:`MIN_TOP_MM`); a disc of the
#: cloth's class this many tops at most (a pawn, its shadow and the cut lines opened into it)
CLOTH_ONLY = True
CLOTH_MOST = 2.0


#: a stack's own shadow may fall on its near side: the ground just outside its near end is then darker than in full
#: light, and the near end placed halfway from that shade to the pawn's lies inside the true one (a blurred dark
#: shadow joins the pawn's dark side). Where the ground there is :data:`SHADOW_L` darker than its class and the near end
#: placed against the class's full light moves :data:`SHADOW_MM` or more and tells another height, the phone asks
SHADOW_NEAR = True
SHADOW_L = 6.0
SHADOW_MM = 0.8
# a stack's outline measured past another thing's paint at the profile's end (:func:`_crossing`): a resource marker
# of a pawn's paint beside a tall stack's top lies in the band across it (s29 hard table 2: a red marker by a red stack
# of 5, the stack lost and its markers with it)
PAST_OTHER = True       # ... where the outline left is a pawn's top, ``MIN_TOP_MM`` along and across the nadir's line


def cloth_dark_discs(label: np.ndarray, paint: np.ndarray, px_per_mm: float, k: int) -> np.ndarray:
    """The discs of the cloth's class and a pawn's paint together (uint8 0/1, ``label``'s frame) that hold paint
    the opened paint blobs (``paint``, uint8 0/1) lack: each component of both classes opened by a disc ``k`` px
    across (the gaps between pieces, thinner, go), :data:`MIN_BLOB` to :data:`DARK_MOST` of a pawn's top, with
    :data:`DARK_PAINT` of a top of paint and paint on :data:`DARK_SHARE` of it, of which the paint blobs keep under
    :data:`FULL_BLOB` of a top."""
    top_px = math.pi * (PAWN_MM / 2) ** 2 * px_per_mm ** 2
    both = cv2.morphologyEx(((label == 0) | (label >= 3)).astype(np.uint8), cv2.MORPH_OPEN,
                            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    n, comp, stats, _ = cv2.connectedComponentsWithStats(both, connectivity=8, ltype=cv2.CV_32S)
    area = stats[:, cv2.CC_STAT_AREA]
    raw = np.bincount(comp[label >= 3], minlength=n)
    own = np.bincount(comp[paint > 0], minlength=n)
    ok = (area >= MIN_BLOB * top_px) & (area <= DARK_MOST * top_px) & (raw >= DARK_PAINT * top_px) \
        & (raw >= DARK_SHARE * area) & (own < FULL_BLOB * top_px)
    if CLOTH_ONLY:      # a dark pawn all of the cloth's shade (kept only on covered land: _tribes, hole_share)
        ok |= (area >= MIN_BLOB * top_px) & (area <= CLOTH_MOST * top_px) & (own < MIN_CORE * top_px)
    ok[0] = False
    return ok[comp].astype(np.uint8)


def min_width_mm(area_mm2: float) -> float:
    """The narrowest a blob of pawn colours covering ``area_mm2`` may be (across the line from the nadir) to be looked
    at as a stack: 0.7 of a pawn's top; a blob under :data:`FULL_BLOB` of a top (a dark pawn's, shrunk by its rim:
    :func:`small_blob_kept` decides on its measured outline), 0.7 of the disc of its area (at `default` a black pawn's
    blob was 7.0 mm wide, 49 % of a top, and was refused before it was measured)."""
    if area_mm2 >= FULL_BLOB * math.pi * (PAWN_MM / 2) ** 2:
        return 0.7 * PAWN_MM
    return 0.7 * 2 * math.sqrt(area_mm2 / math.pi)


def with_dark_rim(label: np.ndarray, box: tuple[int, int, int, int], blob: np.ndarray, k: int) -> int:
    """Pixels of a blob of pawn colours (``blob``: its mask in the box ``x, y, w, h`` of the reader's ``label``) with
    the pixels of class 0 (cloth, other: a dark rim) joined to it, both opened by a disc ``k`` px across (the gaps
    between pieces, thinner, are not joined)."""
    bx, by, bw, bh = box
    x0, y0 = max(bx - k, 0), max(by - k, 0)
    x1, y1 = min(bx + bw + k, label.shape[1]), min(by + bh + k, label.shape[0])
    sub = label[y0:y1, x0:x1]
    dark = cv2.morphologyEx(((sub == 0) | (sub >= 3)).astype(np.uint8), cv2.MORPH_OPEN,
                            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    _, comp = cv2.connectedComponents(dark, connectivity=8)
    inner = np.zeros(sub.shape, bool)
    inner[by - y0:by - y0 + bh, bx - x0:bx - x0 + bw] = blob
    ids = np.unique(comp[inner & (comp > 0)])
    return int(np.isin(comp, ids).sum()) if len(ids) else int(blob.sum())


def small_blob_kept(area_share: float, rim_share: float, m: "StackMeasure | None") -> bool:
    """Whether a blob of pawn colours covering ``area_share`` of a pawn's top (a disc ``PAWN_MM`` across), and
    ``rim_share`` with its dark rim (:func:`with_dark_rim`), is a stack, given its outline's measure ``m`` (None: none
    could be made)."""
    if area_share >= FULL_BLOB:
        return True
    return (area_share >= MIN_CORE and rim_share >= MIN_BLOB and m is not None and m.width_mm >= MIN_TOP_MM)


@dataclass
class StackMeasure:
    """What was measured on one stack's outline (mat mm) and the height decided from it."""

    near_mm: float           # the outline's near end, from the nadir along u
    far_mm: float
    width_mm: float
    parallax_mm: float       # D = length - width
    base_mm: tuple[float, float]
    est: float               # the height (pawns, fractional) the parallax gives
    size_est: float          # ... and the apparent size
    height: int | None       # decided (None: ask)
    candidates: list[int]    # likeliest first
    why: str                 # what decided it ("" when sure)
    spread_mm: float = 0.0   # how wide the outline's edges are (a quarter to three quarters): the blur
    cam_h: float = 1000.0

    def cam_scale(self, z: float) -> float:
        """How much a slice at height ``z`` is magnified on the mat (and pushed from the nadir)."""
        return self.cam_h / (self.cam_h - z)


def _lab(bgr: np.ndarray) -> np.ndarray:
    arr = np.asarray(bgr, np.float32)
    flat = np.ascontiguousarray(np.clip(arr.reshape(-1, 1, 3) / 255.0, 0, 1))
    return cv2.cvtColor(flat, cv2.COLOR_BGR2Lab).reshape(arr.shape)


def _shades(lab: np.ndarray, factors: Sequence[float]) -> list[np.ndarray]:
    bgr = cv2.cvtColor(np.asarray(lab, np.float32).reshape(1, 1, 3), cv2.COLOR_Lab2BGR).reshape(3) * 255.0
    return [_lab(bgr * f) for f in factors]


_TABLE: dict[bytes, "ColourTable"] = {}


class ColourTable:
    """A table over the 32 x 32 x 32 colour cells (cell ``(b >> 3) << 10 | (g >> 3) << 5 | r >> 3`` of a uint8 BGR
    pixel) filled only as cells are looked up: ``rows(bgr)`` gives the entries of the cells' colours (float32 BGR, (n,
    3), each row on its own). The light changes with every frame read from scratch, and a frame's stacks (or the boxes
    round its tribes) show some hundreds of cells: computing those alone saves the rest of the 32768 (some 10 ms a
    light for the stacks' membership), with the same entries."""

    LEVELS = np.arange(32, dtype=np.float32) * 8 + 4
    #: the fewest rows computed at once (more are padded): a product of matrices of one row takes another path in BLAS
    #: whose sums may round otherwise than the rows of a whole table
    MIN_ROWS = 16

    def __init__(self, gain: np.ndarray, rows, dtype=np.float32):
        self.gain = np.asarray(gain, np.float32)
        self._rows = rows
        self.table = np.zeros(32 * 32 * 32, dtype)
        self.done = np.zeros(32 * 32 * 32, bool)

    def colours(self, cells: np.ndarray) -> np.ndarray:
        """The cells' colours (BGR, the gain applied), as the whole table's grid holds them."""
        lv = self.LEVELS
        return np.stack([lv[cells >> 10], lv[(cells >> 5) & 31], lv[cells & 31]], -1) * self.gain

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        """The whole table (every cell filled): what the table was before it was filled as looked up."""
        need = np.nonzero(~self.done)[0]
        if len(need):
            self.table[need] = self._rows(self.colours(need))
            self.done[need] = True
        return self.table if dtype is None else self.table.astype(dtype)

    @staticmethod
    def cells(img_bgr: np.ndarray) -> np.ndarray:
        """Each pixel's cell."""
        q = (img_bgr >> 3).astype(np.int32)
        return (q[..., 0] << 10) | (q[..., 1] << 5) | q[..., 2]

    def lookup(self, img_bgr: np.ndarray) -> np.ndarray:
        idx = self.cells(img_bgr)
        need = idx[~self.done[idx]]
        if need.size:
            cells = np.unique(need)
            pad = np.concatenate([cells, np.full(max(self.MIN_ROWS - len(cells), 0), cells[0])])
            self.table[cells] = self._rows(self.colours(pad))[:len(cells)]
            self.done[cells] = True
        return self.table[idx]


def membership(img_bgr: np.ndarray, gain: np.ndarray, pawn_labs: Sequence[np.ndarray],
               ground_labs: Sequence[np.ndarray]) -> np.ndarray:
    """Soft pawn membership (0..1, one half on the outline) of every pixel of a small BGR crop: from one table of
    32 x 32 x 32 colours while the light holds (the edges are then placed on the colours themselves; its cells
    computed as the stacks show them, :class:`ColourTable`)."""
    key = b"".join(np.asarray(a, np.float32).tobytes() for a in (gain, *pawn_labs, *ground_labs))
    table = _TABLE.get(key)
    if table is None:
        pawn_shades = [s for c in pawn_labs for s in _shades(c, SIDE_SHADES)]
        ground_shades = told_apart([s for c in ground_labs for s in _shades(c, GROUND_SHADES)], pawn_shades)
        table = ColourTable(gain, lambda bgr: _membership_rows(bgr, pawn_shades, ground_shades))
        if len(_TABLE) > 8:
            _TABLE.clear()
        _TABLE[key] = table
    return table.lookup(img_bgr)


#: a ground's shade this near (Lab, lightness weighted) a pawn's shade is left out of the membership's ground: the dark
#: cloth's shades are a black pawn's (at `hard` on the dark cloth, at 0.75 and 0.55 of its light they lie 1.4 and 0.8
#: from the black paint's shades, and the black top was nearer them than the paint: the top read as ground and the
#: outline measured 1-3 mm wide, the stack lost). The cloth itself (4.1 off there) is kept: it shows round a stack only
#: in the gaps between pieces, thin against the strips the outline is measured on
CONFUSED = 3.0


def told_apart(ground: Sequence[np.ndarray], pawns: Sequence[np.ndarray]) -> list[np.ndarray]:
    """The ground shades farther than :data:`CONFUSED` from every pawn shade (Lab, lightness weighted); all of them
    where none is (no ground left to measure against)."""
    w = np.array([L_WEIGHT, 1.0, 1.0], np.float32)
    p = np.asarray(pawns, np.float32).reshape(-1, 3) * w
    apart = [g for g in ground if float(np.linalg.norm(p - np.asarray(g, np.float32) * w, axis=1).min()) > CONFUSED]
    return apart or list(ground)


def _membership_rows(bgr: np.ndarray, pawn_shades: Sequence[np.ndarray], ground_shades: Sequence[np.ndarray]
                     ) -> np.ndarray:
    """The membership of colours ``bgr`` (n, 3): how much nearer a pawn's shade than the ground's (Lab, lightness
    weighted)."""
    lab = _lab(bgr)
    w = np.array([L_WEIGHT, 1.0, 1.0], np.float32)

    a = lab * w
    aa = (a * a).sum(axis=1)

    def nearest(centres: Sequence[np.ndarray]) -> np.ndarray:
        # one product of matrices (|a - c|^2 = |a|^2 - 2 a.c + |c|^2): a loop over the shades took 30 ms each
        c = np.asarray(centres, np.float32).reshape(-1, 3) * w
        d2 = aa[:, None] - 2.0 * (a @ c.T) + (c * c).sum(axis=1)[None, :]
        return np.sqrt(np.maximum(d2.min(axis=1), 0.0))

    p = nearest(pawn_shades)
    g = nearest(ground_shades)
    return (g / np.maximum(p + g, 1e-3)).astype(np.float32)


def _crossing(profile: np.ndarray, from_start: bool) -> float | None:
    """Fractional index where ``profile`` first rises through 0.5 (from the start, or from the end). A run above 0.5
    at the profile's end that falls below it again before the middle is another thing's paint, apart from the stack
    by the ground (a resource marker of a pawn's paint in the band across a stack's top, 8-22 mm from its node):
    skipped (:data:`PAST_OTHER`); the stack's own edge is the rise after it."""
    prof = profile if from_start else profile[::-1]
    above = np.nonzero(prof >= 0.5)[0]
    if PAST_OTHER and len(above) and above[0] == 0:
        below = np.nonzero(prof < 0.5)[0]
        if len(below) and below[0] < len(prof) // 2:
            above = above[above > below[0]]
    if len(above) == 0 or above[0] == 0:
        return None
    i = int(above[0])
    a, b = float(prof[i - 1]), float(prof[i])
    x = i - 1 + (0.5 - a) / max(b - a, 1e-6)
    return x if from_start else len(profile) - 1 - x


def expected(d_base: float, n: int, cam_h: float) -> tuple[float, float]:
    """The parallax ``D`` (the top's middle from the base's) and apparent top width ``W`` (mm) of ``n`` pawns whose
    base is ``d_base`` from the nadir."""
    z = n * PAWN_HEIGHT_MM
    return d_base * z / (cam_h - z), PAWN_MM * cam_h / (cam_h - z)


def _refine(col: np.ndarray, pos: np.ndarray, edge: float, inward: int, out_bgr: np.ndarray | None = None
            ) -> tuple[float, float]:
    """An edge found on the membership, placed again where the colour profile ``col`` (BGR along ``pos``, mm) is
    halfway from the ground's (1.5-3 mm outside) to the pawn's just inside (1-2 mm); and how wide the edge is (mm from
    a quarter to three quarters of the way: blur, focus, JPEG), ``nan`` where it could not be placed better."""
    def mean_at(a: float, b: float) -> np.ndarray | None:
        sel = (pos >= min(a, b)) & (pos <= max(a, b))
        return col[sel].mean(axis=0) if sel.any() else None
    out = mean_at(edge - inward * 1.5, edge - inward * 3.0) if out_bgr is None else np.asarray(out_bgr, np.float32)
    inn = mean_at(edge + inward * 1.0, edge + inward * 2.0)
    if out is None or inn is None:
        return edge, math.nan
    dv = inn - out
    if float(dv @ dv) < 400.0:       # too little contrast to place it better
        return edge, math.nan
    alpha = (col - out) @ dv / float(dv @ dv)
    reach = 2.0 if out_bgr is None else 4.0      # against a colour given, the half may lie farther out
    sel = np.nonzero((pos >= edge - reach) & (pos <= edge + reach))[0]
    a = alpha[sel] if inward > 0 else alpha[sel][::-1]
    p = pos[sel] if inward > 0 else pos[sel][::-1]

    def cross(level: float) -> float | None:
        above = np.nonzero(a >= level)[0]
        if len(above) == 0 or above[0] == 0:
            return None
        i = int(above[0])
        f = (level - a[i - 1]) / max(a[i] - a[i - 1], 1e-6)
        return float(p[i - 1] + f * (p[i] - p[i - 1]))
    half, q1, q3 = cross(0.5), cross(0.25), cross(0.75)
    if half is None:
        return edge, math.nan
    return half, (abs(q3 - q1) if q1 is not None and q3 is not None else math.nan)


def step_mm(d_base: float, n: int, cam_h: float) -> float:
    """How far one pawn more (``n`` to ``n + 1``) moves a stack's top (its middle, mat mm) away from the nadir, the
    base ``d_base`` from it: ``d H / (H - z')  - d H / (H - z)``, about ``d h / H``."""
    return expected(d_base, n + 1, cam_h)[0] - expected(d_base, n, cam_h)[0]


def side_band_mm(d_base: float, k: int, cam_h: float) -> float:
    """How wide pawn ``k``'s side (0 the lowest) shows on the stack's near side (mat mm): the near edges of slices
    ``k h`` and ``(k + 1) h``, ``(d - R) H / (H - z)`` apart."""
    near = max(d_base - PAWN_MM / 2, 0.0)
    z0, z1 = k * PAWN_HEIGHT_MM, (k + 1) * PAWN_HEIGHT_MM
    return near * cam_h / (cam_h - z1) - near * cam_h / (cam_h - z0)


def measurable_from_mm(n: int, cam_h: float, spread: float = 0.0, lean_mm: float = LEAN_MM) -> float:
    """The distance from the nadir (mm) from which heights ``n`` and ``n + 1`` are told apart with the margin
    :func:`decide` asks: the step at least ``MARGIN_SIGMA`` of the larger candidate's sigma (measured at the true
    height, the other candidate as far off as it can be). Below it, any stack of ``n`` or ``n + 1`` is asked."""
    sig = sigma_mm(spread, n + 1) if lean_mm == LEAN_MM else math.sqrt(max(MEASURE_MM, SPREAD_SIGMA * spread) ** 2
                                                                        + n * lean_mm ** 2)
    per_mm = step_mm(1000.0, n, cam_h) / 1000.0     # the step grows in proportion to d
    return MARGIN_SIGMA * sig / per_mm


def sigma_mm(spread: float, n: int) -> float:
    """The parallax's uncertainty (mm, 1 sigma) for ``n`` pawns, from how wide the outline's edges are: the
    measurement's (it grows with the blur) and the stack's lean."""
    meas = max(MEASURE_MM, SPREAD_SIGMA * spread)
    return math.sqrt(meas ** 2 + (n - 1) * LEAN_MM ** 2)


def decide(parallax: float, width: float, d_base: float, cam_h: float, spread: float
           ) -> tuple[int | None, list[int], str, float, float]:
    """The height from the two cues, or ``None`` (ask); the candidates (nearest first), why it asks, the parallax's
    and the size's fractional estimates."""
    z = cam_h * parallax / max(d_base + parallax, 1e-6)
    est = z / PAWN_HEIGHT_MM
    zs = cam_h * (1 - PAWN_MM / max(width, 1e-6))
    size_est = zs / PAWN_HEIGHT_MM
    errs = []
    for n in range(1, MAX_TRIBE + 1):
        dn, wn = expected(d_base, n, cam_h)
        errs.append((abs(parallax - dn) / sigma_mm(spread, n), abs(width - wn) / SIZE_MM, n))
    order = sorted(errs)
    cands = [n for _, _, n in order]
    (e1, _, n1), (e2, _, _) = order[0], order[1]
    if d_base < 2.5 * PAWN_MM:
        return None, cands, "the stack stands by the nadir: its top does not move", est, size_est
    if e1 > FIT_SIGMA:
        return None, cands, f"no height fits the parallax ({e1:.1f} sigma off)", est, size_est
    if e2 - e1 < MARGIN_SIGMA:
        return None, cands, f"heights {n1} and {cands[1]} are {e2 - e1:.1f} sigma apart", est, size_est
    return n1, cands, "", est, size_est


def node_agrees(m: StackMeasure, node_mm: np.ndarray, nadir: np.ndarray) -> bool:
    """Whether the node a stack stands on tells the height ``m`` decided too: its top's middle measured from the node
    (along the line from the nadir) is nearer that height's parallax than any other height's. The near end places the
    base; where it is misplaced (a dark side against the stack's own shadow: the edge's contrast low, its colour ramp
    2-3 mm long) the parallax is off by as much, while the top's middle is not. A pawn stands on its node within a
    placing error of about a millimetre, under half a pawn's step where a height is measured at all: the two bases
    must then agree; where they do not, the phone asks."""
    if m.height is None:
        return True
    u = (np.asarray(m.base_mm) - nadir)
    u = u / max(float(np.linalg.norm(u)), 1e-6)
    d_node = float((np.asarray(node_mm) - nadir) @ u)
    top_mid = m.far_mm - m.width_mm / 2
    errs = [abs(top_mid - d_node - expected(d_node, n, m.cam_h)[0]) for n in range(1, MAX_TRIBE + 1)]
    return int(np.argmin(errs)) + 1 == m.height


def nadir_axes(points_mm: np.ndarray, nadir: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """A blob's frame along the line from the camera's nadir (where a stack's top is displaced): its centre,
    the unit vector away from the nadir, the one across it, and the centre's distance from the nadir (mm)."""
    c = points_mm.mean(axis=0)
    u = c - nadir
    dist = float(np.linalg.norm(u))
    u = u / dist if dist > 1e-6 else np.array([1.0, 0.0])
    return c, u, np.array([-u[1], u[0]]), dist


def measure(img: np.ndarray, origin_px: tuple[int, int], px_per_mm: float, gain: np.ndarray,
            centres: Mapping[str, np.ndarray], pawn_names: Sequence[str], blob_mm: np.ndarray,
            nadir: np.ndarray, cam_h: float) -> StackMeasure | None:
    """Measure the stack whose pawn pixels (mat mm) are ``blob_mm`` on the reader's canvas window ``img`` (BGR,
    ``px_per_mm``, its pixel 0,0 at canvas pixel ``origin_px``). ``centres``: the reader's colour classes (Lab)."""
    s = float(px_per_mm)
    _, u, v, dist = nadir_axes(blob_mm, nadir)
    along, across = blob_mm @ u, blob_mm @ v
    a0, a1 = float(along.min()) - 4.0, float(along.max()) + 4.0
    vc = float(np.median(across))
    # the crop round the blob (canvas px of the window)
    lo = np.floor(blob_mm.min(axis=0) * s - origin_px - 6 * s).astype(int)
    hi = np.ceil(blob_mm.max(axis=0) * s - origin_px + 6 * s).astype(int)
    lo = np.maximum(lo, 0)
    hi = np.minimum(hi, [img.shape[1], img.shape[0]])
    if np.any(hi - lo < 8):
        return None
    crop = img[lo[1]:hi[1], lo[0]:hi[0]]
    pawn_labs = [centres[n] for n in pawn_names]
    ground = [centres[k] for k in ("land", "water", "cloth") if k in centres]
    mem = cv2.GaussianBlur(membership(crop, gain, pawn_labs, ground).astype(np.float32), (0, 0), 0.5)
    # profiles on a grid along u and across it (mm), sampled bilinearly
    ua = np.arange(a0, a1, STEP_MM)
    va = np.arange(vc - PAWN_MM, vc + PAWN_MM, STEP_MM)
    strip = np.abs(va - vc) <= PAWN_MM * 0.2
    # only the strip along u and the band across it are used: their grid points alone (each sample bilinear on its
    # own: the same values as the whole grid's there), not the whole grid (five times as many)
    mx, my = _grid_px(ua, va[strip], u, v, s, origin_px, lo)
    prof_u = _sample(mem, mx, my).mean(axis=0)
    near_i, far_i = _crossing(prof_u, True), _crossing(prof_u, False)
    if near_i is None or far_i is None:
        return None
    near, far = a0 + near_i * STEP_MM, a0 + far_i * STEP_MM
    top_u = far - PAWN_MM / 2
    band = np.abs(ua - top_u) <= 1.0
    if not band.any():      # the top's middle off the profile (a blob shorter than a pawn's top): nothing to measure
        return None
    bx, by = _grid_px(ua[band], va, u, v, s, origin_px, lo)
    prof_v = _sample(mem, bx, by).mean(axis=1)
    left, right = _crossing(prof_v, True), _crossing(prof_v, False)
    if left is None or right is None:
        return None
    # each end and side again, where the colour is halfway between the ground's just outside and the pawn's just
    # inside (blur mixes colours linearly; the membership's own half is biased by which colours meet there)
    crop32 = crop.astype(np.float32)
    col_u = _sample(crop32, mx, my, cv2.BORDER_REPLICATE).mean(axis=0)      # (len(ua), 3)
    near, w1 = _refine(col_u, ua, near, +1)
    far, w2 = _refine(col_u, ua, far, -1)
    col_v = _sample(crop32, bx, by, cv2.BORDER_REPLICATE).mean(axis=1)
    left, w3 = _refine(col_v, va, va[0] + left * STEP_MM, +1)
    right, w4 = _refine(col_v, va, va[0] + right * STEP_MM, -1)
    width = right - left
    spreads = [w for w in (w1, w2, w3, w4) if not math.isnan(w)]
    spread = float(np.median(spreads)) if spreads else 3.0
    n0 = float(nadir @ u)
    d_base = near - n0 + PAWN_MM / 2
    # the top's middle: its far edge less half its width (the same colours meet at both: the bias cancels)
    parallax = (far - width / 2) - (near + PAWN_MM / 2)
    ends = (prof_u[0], prof_u[-1], prof_v[0], prof_v[-1])
    if PAST_OTHER and max(ends) >= 0.5 and min(far - near, width) < MIN_TOP_MM:
        return None     # measured past another thing's paint, the outline left is no pawn's top (:func:`_crossing`)
    height, cands, why, est, size_est = decide(parallax, width, d_base, cam_h, spread)
    if SHADOW_NEAR and height is not None:
        lit = _lit_ground(col_u, ua, near, gain, ground)
        if lit is not None:
            near2, _ = _refine(col_u, ua, near, +1, lit)
            if abs(near2 - near) >= SHADOW_MM:
                d2 = near2 - n0 + PAWN_MM / 2
                h2, c2, _, _, _ = decide((far - width / 2) - (near2 + PAWN_MM / 2), width, d2, cam_h, spread)
                if h2 is not None and h2 != height:
                    why = (f"the near end in a shadow: {near2 - near:+.1f} mm against the ground in full light "
                           f"gives height {h2 or c2[0]}")
                    cands = [height] + [n for n in c2 if n != height]
                    height = None
    base = nadir + u * d_base + v * (vc - float(nadir @ v))
    return StackMeasure(near - n0, far - n0, width, parallax, (float(base[0]), float(base[1])), est, size_est,
                        height, cands, why, spread, cam_h)


def _lit_ground(col: np.ndarray, pos: np.ndarray, near: float, gain: np.ndarray, ground: Sequence[np.ndarray]
                ) -> np.ndarray | None:
    """The ground's colour in full light just outside a stack's near end (BGR as the crop ``col`` holds it, along
    ``pos`` mm): the ground class (Lab, ``ground``) nearest in hue to the colour seen 1.5-3 mm outside, at its own
    lightness; None where what lies there is no darker than that class (no shadow)."""
    sel = (pos >= near - 3.0) & (pos <= near - 1.5)
    if not sel.any() or not len(ground):
        return None
    seen = _lab(col[sel].mean(axis=0) * np.asarray(gain, np.float32))
    g = min(ground, key=lambda c: float(np.hypot(c[1] - seen[1], c[2] - seen[2])))
    if float(g[0]) - float(seen[0]) < SHADOW_L:
        return None
    bgr = cv2.cvtColor(np.asarray(g, np.float32).reshape(1, 1, 3), cv2.COLOR_Lab2BGR).reshape(3) * 255.0
    return bgr / np.asarray(gain, np.float32)


def _grid_px(ua: np.ndarray, va: np.ndarray, u: np.ndarray, v: np.ndarray, s: float, origin_px, lo
             ) -> tuple[np.ndarray, np.ndarray]:
    """The crop's pixel (x, y maps, float32) of every grid point ``ua`` along ``u`` by ``va`` across it (mm): rows
    ``va``, columns ``ua``; the crop's pixel 0,0 is ``lo`` in the window whose pixel 0,0 is canvas pixel ``origin_px``.
    Each point on its own, so the rows or columns of a grid asked alone are the whole grid's."""
    U, V = np.meshgrid(ua, va)
    pts = U[..., None] * u + V[..., None] * v
    return ((pts[..., 0] * s - origin_px[0] - lo[0]).astype(np.float32),
            (pts[..., 1] * s - origin_px[1] - lo[1]).astype(np.float32))


def _sample(img: np.ndarray, mx: np.ndarray, my: np.ndarray, border: int = cv2.BORDER_CONSTANT) -> np.ndarray:
    """``img`` sampled bilinearly at the maps ``mx, my`` (px; outside it: 0, or the border replicated)."""
    return cv2.remap(img, mx, my, cv2.INTER_LINEAR, borderMode=border, borderValue=0.0)


def side_colours(label: np.ndarray, origin_px: tuple[int, int], px_per_mm: float, m: StackMeasure, n: int,
                 nadir: np.ndarray, u: np.ndarray, v: np.ndarray, top: int, min_band_mm: float = 1.0
                 ) -> list[int | None]:
    """The pawn class (label, 3+) of each pawn bottom to top, read on the stack's near side where each pawn's side
    shows: pawn ``k``'s side between the near ends of slices ``k h`` and ``(k + 1) h``; ``None`` where that band is
    under ``min_band_mm`` or shows no clear majority. The top pawn is the top face's class."""
    if n == 1:
        return [top]
    s = float(px_per_mm)
    out: list[int | None] = []
    d_near = m.near_mm
    base_v = float((np.asarray(m.base_mm) - nadir) @ v)
    for k in range(n - 1):
        z0, z1 = k * PAWN_HEIGHT_MM, (k + 1) * PAWN_HEIGHT_MM
        s0, s1 = d_near * m.cam_scale(z0), d_near * m.cam_scale(z1)
        if s1 - s0 < min_band_mm:
            out.append(None)
            continue
        ts = np.linspace(s0 + 0.25 * (s1 - s0), s1 - 0.25 * (s1 - s0), 4)
        cs = np.linspace(-0.25 * PAWN_MM, 0.25 * PAWN_MM, 5)
        pts = nadir + ts[:, None, None] * u + (base_v + cs[None, :, None]) * v
        px = np.round(pts.reshape(-1, 2) * s - origin_px).astype(int)
        ok = (px[:, 0] >= 0) & (px[:, 1] >= 0) & (px[:, 0] < label.shape[1]) & (px[:, 1] < label.shape[0])
        lbl = label[px[ok, 1], px[ok, 0]]
        lbl = lbl[lbl >= 3]
        if len(lbl) < 6:
            out.append(None)
            continue
        counts = np.bincount(lbl)
        best = int(counts.argmax())
        out.append(best if counts[best] >= 0.75 * len(lbl) else None)
    return out + [top]


#: a dark paint (its colour class's Lab lightness under this, 0-100): a pawn of it put on a stack whose top is of it
#: changes the frame by less than the incremental read's change gate (``vision.sunda``, 45 levels at a quarter scale):
#: the top's edge moves out by a pawn's parallax step (1-2 mm, under a pixel there) and the paint, its sides and its
#: shadow are all dark. Measured (bench ``sunda-vision --seed 2 --players 4 --levels hard``, table 1 frames 14-15): a
#: black pawn put on a black pawn changed the gate's difference by 37 and 44 at most (16 where nothing changed), so the
#: frame was read as unchanged and the one-pawn stack handed on sure. Black's class 16-22, purple's 29-35, red's 44-49
#: (`clean`, `default`, `hard`, 4 players)
DARK_L = 25.0


def dark_paint(lab: Sequence[float]) -> bool:
    """Whether a paint (its colour class, Lab) is too dark for a pawn of it put on its own stack to be seen changing
    the frame (:data:`DARK_L`)."""
    return float(lab[0]) < DARK_L


def carried_height(height: int | None, ask: bool, candidates: Sequence[int], dark: bool
                   ) -> tuple[int | None, bool, list[int]]:
    """A stack's height handed on from an earlier frame's reading where this frame's pixels did not change (the
    incremental read keeps what it read): as it was, but on a dark top (``dark``: :func:`dark_paint`) asked, the
    height read then and one pawn more first. Its pixels not changing does not tell that no pawn of that paint was put
    on; what the frames before told (the live loop's history, which compares the stack's own looks) may still."""
    if not dark or ask or height is None:
        return height, ask, list(candidates)
    more = [height + 1] if height < MAX_TRIBE else []
    return None, True, [height] + more + [n for n in candidates if n not in (height, *more)]
