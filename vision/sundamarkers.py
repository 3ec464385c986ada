"""Resource markers on a Sunda to Sahul table: flat tokens of six colours, found on the islands.

The look is provisional (the real set's markers are not public; ``vision.sim.sundatable`` draws discs
``MARKER_MM`` across in the colours of the engine's ``marker_word``, their numbers 1-6 are the provisional
set's). What is read:

1. **Colours** are learnt from one photo of the six markers at :func:`enrolment_points` (:func:`enrol_markers`),
   corrected by the cloth as the reader's other colours are (that photo's cloth against the main enrolment's).
2. **Per frame** every pixel of the read window takes the nearest class of ground (land, water, cloth, each also
   in shadow), pawn colours (top and darker sides) and marker colours (the marker's paint and its darker edge).
   A marker colour that is also a pawn's paint (red, yellow, purple) takes that pawn's pixels too: they are told
   apart by **shape and size**: a marker is a small round-ish blob (9-60 mm2 where one is 28, no axis over 6 mm
   from its middle, the short one at least 0.45 of the long: blur and JPEG draw it out), a pawn or a stack is a
   disc 10 mm across or longer; it lies on land (at least 35 % of a ring 2-4 mm round it), its median colour
   nearer the marker's than 0.7 of its distance to any ground class; a blob touching a pawn's or another
   marker's colour (5 mm thick or more) or more of its own is part of a pawn (its side), not a marker: a
   marker laid against a stack is left to the disc pass (:meth:`MarkerFinder._discs`), else the phone enters it.
3. **Where**: the marker's node is that of the nearest tribe within 0.8 of a side (a marker follows a pawn or a
   water right onto its island; a position holds markers only by a tribe or water right): a blob by no tribe is
   not taken. The adapter (``tablehub.games.sunda.camera``) finds its island through the engine.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Mapping, Sequence

import cv2
import numpy as np

from tablehub.i18n import T  # what a phone and the console read (tablehub/locale/*/visionfiles.po)

from . import VisionError
from .calibrate import LensCalibration
from .mat import Mat
from .rectify import Rectifier
from .sundastacks import ColourTable

MARKER_NAMES = ("red", "orange", "yellow", "green", "blue", "purple")
MARKER_MM = 6.0
SAME_PAINT = 14.0        # Lab distance under which a marker's colour is a pawn's paint (one class)
L_WEIGHT = 0.35
#: a blob whose colour lies this near (Lab, lightness weighted) a ground class may be a shade of the print (at `hard`
#: green patches of the land's print came 13-17 from the land and were read as the green marker where none lies) ...
GROUND_CONTRAST = 18.0
#: ... unless it shows a token's whole disc: this share of a disc WHOLE_DISC_MM across round its middle is the blob,
#: and its axes (2 sqrt(variance): a disc's radius, 3 mm, blurred) lie within DISC_SHORT_MM and DISC_LONG_MM
WHOLE_DISC_MM = 5.0
#: the most a marker's blob covers: a 6 mm disc grows by the lens blur and its blend with the land (at `hard` 60-69
#: mm2, over the 59 allowed before), but stays under a pawn's top, a disc 10 mm across (78.5 mm2) before any blur
MAX_AREA_MM2 = math.pi * (9.6 / 2) ** 2
DISC_FILL = 0.85
DISC_SHORT_MM = 2.1
DISC_LONG_MM = 3.8
#: the markers the colour classes miss, found as discs (``MarkerFinder._discs``): the core (mm across) and the ring
#: round it (mm across, inner and outer) of the disc filter ...
DISC_CORE_MM = 5.0
#: the local ground: the median over a square this wide (mm): a marker is 5 % of it, a stack seen from the side a quarter
DISC_GROUND_MM = 25.0
#: a marker lies against a pawn at the nearest (its middle 8 mm from the pawn's): nearer a tribe's node is the tribe
DISC_OFF_TRIBE_MM = 7.0
DISC_RING_MM = (8.0, 11.0)
#: ... the least the core differs from the local ground more than the ring does (Lab, lightness weighted) ...
DISC_CONTRAST = 5.5
#: ... a ring pixel differing this much or more is something (a pawn, a stack's side, the sea, another marker), and
#: at most 1 - DISC_RING_CALM of the ring may be something ...
DISC_HOT = 15.0
DISC_RING_CALM = 0.7
#: ... a disc calm on less of its ring, but on this share or more, whose core is a whole disc of a marker's paint, is
#: not read but listed as a marker that may lie there (``MarkerFinder.crowded``): cut lines crossing the ring of a
#: marker by a piece's corner left it calm on 0.62 of it (photo bench seed 11 `hard` table 7), dropped silently
DISC_RING_CALM_LEAST = 0.5
#: ... or, round a disc that differs much, half its core's difference: a disc's edge is where its blurred difference
#: falls to half (a red marker on the green land at `hard`, 52 in its core, is still 15-24 at 4 mm from its middle)
DISC_HOT_SHARE = 0.5
#: ... and at most this share of it the sea or the cloth (a marker lies on an island) ...
DISC_RING_SEA = 0.25
#: ... a disc with more of its ring the sea or the cloth, up to this share, whose core is a whole disc of a marker's
#: paint, is not read but listed as a marker that may lie there (``MarkerFinder.crowded``): a blue marker laid on a
#: coast, its ring 0.37 the sea, was dropped silently (photo bench seed 20 `hard` table 9). A marker lies on land: on
#: a straight coast at most half its ring is the sea
DISC_RING_SEA_MOST = 0.5
#: ... and the ring differs from the ground at most this share of what the core does: a disc has an edge (the soft
#: edge of a stack's shadow does not: its ring 0.51 of its core, a marker's 0.18-0.40 at `hard`) ...
DISC_RING_SHARE = 0.45
#: ... or at most this many times the ground's grain (``ground_grain``: the median difference over the ground; a ring
#: of some 40 px of plain ground averages 1.06 times it, a faint marker's own blur tail adds a little: the `hard` green
#: markers' rings 1.17-1.28 times it; a stack and a cut line beside a dark spot twice it)
DISC_RING_GRAIN = 1.5
#: ... and the core is a whole disc: this share of it differs at least half as much as its middle (a streak of the
#: print's shade 3 mm wide fills some 0.6)
DISC_CORE_FILL = 0.8
#: ... and the core's colour a marker's paint as it shows on the land (``paint_line``), blurred into the land (paint
#: share at least DISC_BLEND_MIN: the core lies 1.4 mm or more inside the disc's edge, the lens blurs half a millimetre)
#: within DISC_FIT, the next paint DISC_MARGIN farther
DISC_BLEND_MIN = 0.8
#: (12 with the blend alone, which missed the `hard` green markers by 15-17; on the paint's line the bench's markers fit
#: within 0.3-4.6, a light patch of the print 10, a grey-brown token no marker has 11.8)
DISC_FIT = 8.0
#: ... within DISC_FIT_FAINT where the disc's ring is calm only as the ground's grain (over DISC_RING_SHARE of its
#: core, under DISC_RING_GRAIN of the grain): the bench's markers fit within 0.3-4.6, a patch of the print's grain at
#: `hard` as round as a marker and as green 6.7 (photo bench seed 1 table 7)
DISC_FIT_FAINT = 5.0
DISC_MARGIN = 2.0
#: a token's chroma is mixed with what lies round it (the JPEG keeps colour at half the resolution of lightness and
#: quantises it hardest), its lightness much less: enrolled on the cloth, a marker's colour is pulled towards the
#: cloth's chroma; on an island, towards the land's. A paint is therefore expected anywhere from its enrolled colour
#: to that colour moved by this share of the difference in chroma between the ground round it and the cloth
#: (``paint_line``; fitted on the bench's photos: 0.0-0.67 at `hard`, JPEG quality 65; 0.0-0.13 at `default`)
CHROMA_SHIFT = 0.75
CHROMA_STEPS = 7
#: ... and each photo has its own blur and JPEG (the enrolment is another evening's): where the enrolment photo mixed
#: the marker's chroma with the cloth's more than the table's photo mixes it with the ground, the paint shows more
#: saturated than enrolled, away from the cloth's chroma, by up to this share of what separates it from the cloth (a
#: blue marker at `hard`, enrolled on a warm cloth, showed b -34 where it was enrolled -23: a share of some 0.3)
ENROL_UNDO = 0.5
ENROL_STEPS = 3
#: a marker touching a marker by a tribe follows that one's tribe (``MarkerFinder._place``): their middles this near
#: (two 6 mm discs laid against each other by hand, a gap of up to 3 mm)
TOUCH_MM = MARKER_MM + 3.0
#: the sea or the cloth in a disc's ring counts where it is this wide (mm) or more: a marker's own blur rim reads as
#: the sea's colour (a blue marker on the green land at `hard`), the sea round an island is wider
SEA_AREA_MM = 3.0
#: the paint pass (``MarkerFinder._paint_discs``): a paint whose part square to the land's shade line is under this
#: (Lab, lightness weighted) is not looked for there (no direction a shade cannot take) ...
PAINT_LEAST = 8.0
#: ... a disc shows at least this share of that part in its core (5 mm across; the `hard` green markers of the photo
#: bench 0.45-0.9, the print's lighter patches as round and as green 0.2-0.4) ...
PAINT_CORE = 0.42
#: ... and is read where it shows at least PAINT_SURE of it; under that it is listed as unsure (the faintest `hard`
#: green marker of the photo bench showed 0.45; the colour the JPEG smears round a red pawn, in the pawn's shadow, 0.44)
PAINT_SURE = 0.5
#: ... and its ring (8-11 mm across) at most this share of its core: an edge (the blur leaves a marker's ring 0.2-0.4
#: of its core; a whole piece's print a shade off, or a coast, fills the ring as much as the core)
PAINT_RING = 0.7
#: its core is explained as the land in some shade plus a share (PAINT_SHARE_MIN to 1.2) of the paint, within
#: PAINT_FIT (Lab, lightness weighted), by no other paint within PAINT_MARGIN more
PAINT_SHARE_MIN = 0.5
#: ... and it is lighter or darker than the land as the paint is: at least PAINT_LIGHTNESS of the paint's own
#: lightness difference, where that is PAINT_L_LEAST or more (``lightness_agrees``)
PAINT_LIGHTNESS = 0.3
PAINT_L_LEAST = 4.0
PAINT_FIT = 6.0
#: the disc pass asks the same of a core, at least this share of its paint's lightness difference (a little on the
#: other side: noise): the bench's true markers at `hard` seeds 1-3, 7, 8 showed 0.06-1.46 of it (a green marker as
#: light as the land), the colour the JPEG smears round a red pawn -0.5 to -1 (4.7-8.8 lighter where the green paint
#: is 9 darker; 6.7 lighter, -0.74, read as the green marker at seed 5 `hard` table 4). The paint pass keeps
#: PAINT_LIGHTNESS: its peaks are the land's own patches too (green ones 0.0-0.6 of it at those seeds)
DISC_LIGHTNESS = -0.2
#: ... and a disc the disc pass would read is read only where its core is on the paint's side of the land's lightness
#: (at least this share of the paint's own difference); a core within noise of it on the other side (DISC_LIGHTNESS
#: to this) is not read but listed as a disc of a marker's shape whose colour is unclear (``doubtful``): the JPEG
#: rings and smears chroma, not lightness, by a coast or the cloth (the land pushed further from the cloth's chroma,
#: 11 greener, 1.7 lighter where the green paint is 9.4 darker: -0.18 of it, read as the green marker where none lies
#: at photo bench seed 36 `hard` table 1); the bench's true markers showed 0.06 or more
DISC_LIGHTNESS_SURE = 0.0
#: a paint disc of the paint pass's shape and colour whose lightness agrees only as the disc pass asks (DISC_LIGHTNESS,
#: under PAINT_LIGHTNESS) is not read but listed as unsure: a faint green marker at `hard` (photo bench seed 11 table 9)
#: was rejected there and the score silently wrong
PAINT_DIM_UNSURE = True
#: a blob of a pawn's paint apart from every stack (vision.sunda.LONE_MM2) whose core is clearly a marker of that paint
#: is read as that marker (``MarkerFinder._apart``), listed by the photo scorer
APART_READ = True
PAINT_MARGIN = 2.0
#: the ground a disc's core is judged against also holds what lies where pieces meet: the gaps show the cloth, the cut
#: edges are darker land (a junction of cut lines by the layout's edge at `hard`, a disc as round as a marker, read as
#: the purple marker at 1.1, its chroma that of the cloth mixed into the land: photo bench seed 25 table 7). The
#: cloth's share of the mix and the land's shades
GAP_SHADES = True
GAP_MIX = (0.2, 0.35, 0.5, 0.65, 0.8)
GAP_LAND_SHADES = (1.0, 0.8, 0.65, 0.5)
#: BGR (0-255) -> Y, Cb, Cr as the JPEG codes them
_YCC = np.array([[0.114, 0.587, 0.299], [0.5, -0.3313, -0.1687], [-0.0813, -0.4187, 0.5]])
_CHROMA = np.linalg.inv(_YCC) @ np.diag([0.0, 1.0, 1.0]) @ _YCC


@dataclass
class MarkerReading:
    marker: str
    q: int
    r: int
    mat_mm: tuple[float, float]
    by_tribe: bool           # its node is a tribe's (else the nearest lattice node)

    def to_dict(self) -> dict[str, Any]:
        return {"marker": self.marker, "q": self.q, "r": self.r}


def enrolment_points(mat: Mat) -> dict[str, tuple[float, float]]:
    """Where the markers lie in their enrolment photo: a row 60 mm above the play area's middle, 30 mm apart."""
    cx, cy = mat.play_centre_mm
    return {n: (cx - 75.0 + 30.0 * k, cy - 60.0) for k, n in enumerate(MARKER_NAMES)}


def _lab(bgr: np.ndarray) -> np.ndarray:
    arr = np.asarray(bgr, np.float32)
    flat = np.ascontiguousarray(np.clip(arr.reshape(-1, 1, 3) / 255.0, 0, 1))
    return cv2.cvtColor(flat, cv2.COLOR_BGR2Lab).reshape(arr.shape)


def _bgr(lab: np.ndarray) -> np.ndarray:
    """BGR (0-255) of a Lab colour."""
    return cv2.cvtColor(np.asarray(lab, np.float32).reshape(1, 1, 3), cv2.COLOR_Lab2BGR).reshape(3) * 255.0


def _shade(lab: np.ndarray, f: float) -> np.ndarray:
    bgr = cv2.cvtColor(np.asarray(lab, np.float32).reshape(1, 1, 3), cv2.COLOR_Lab2BGR).reshape(3) * 255.0
    return _lab(bgr * f)


def paint_line(paint_bgr: np.ndarray, ground_bgr: np.ndarray, enrolled_on: np.ndarray) -> np.ndarray:
    """The colours (BGR, ``ENROL_STEPS`` x ``CHROMA_STEPS`` of them) a paint enrolled lying on ``enrolled_on`` (the
    cloth, for a marker; itself, for a colour learnt on a wide patch) may show as a small patch lying on ``ground_bgr``:
    its chroma moved up to :data:`CHROMA_SHIFT` of the way the ground's chroma differs from what it was enrolled on,
    and up to :data:`ENROL_UNDO` of its own away from what it was enrolled on, its lightness kept (the JPEG's chroma
    blur, in each photo its own)."""
    paint, on = np.asarray(paint_bgr, np.float64), np.asarray(enrolled_on, np.float64)
    shift = _CHROMA @ (np.asarray(ground_bgr, np.float64) - on)
    undo = _CHROMA @ (paint - on)      # 0 for a colour learnt on a wide patch of itself
    steps = np.linspace(0.0, CHROMA_SHIFT, CHROMA_STEPS)
    back = np.linspace(0.0, ENROL_UNDO, ENROL_STEPS)
    return (paint[None, None] + steps[None, :, None] * shift[None, None]
            + back[:, None, None] * undo[None, None]).reshape(-1, 3)


def paint_distances(seen_lab: np.ndarray, paints_bgr: Sequence[np.ndarray], ground_bgr: np.ndarray,
                    enrolled_on: np.ndarray | None, blend: Sequence[float] = (1.0,)) -> np.ndarray:
    """How far (Lab, lightness weighted) a small patch's colour seen on ``ground_bgr`` lies from each paint as it may
    show there (:func:`paint_line`; ``enrolled_on`` None: each paint learnt on a wide patch of itself), each of those
    also blended into the ground (``blend``: the paint's share, the lens's blur)."""
    w = np.array([L_WEIGHT, 1.0, 1.0], np.float32)
    g = np.asarray(ground_bgr, np.float64)
    a = np.asarray(blend, np.float64)[:, None, None]
    out = []
    for paint in paints_bgr:
        line = paint_line(paint, g, paint if enrolled_on is None else enrolled_on)
        mix = _lab((a * line[None] + (1 - a) * g[None, None]).reshape(-1, 3))
        out.append(float(np.min(np.linalg.norm((mix - np.asarray(seen_lab, np.float32)) * w, axis=1))))
    return np.asarray(out)


def enrol_markers(frame: np.ndarray, mat: Mat, cloth_bgr: np.ndarray, lens: LensCalibration | None = None,
                  names: Sequence[str] = MARKER_NAMES) -> dict[str, np.ndarray]:
    """The markers' colours (Lab) from a photo of them at :func:`enrolment_points`, under the light of the main
    enrolment (``cloth_bgr``: its cloth; this photo's cloth is measured on the mat's margin and the difference
    taken out)."""
    from .sunda import _mat_margin_mask

    rect = Rectifier(mat, px_per_mm=2.0, lens=lens)
    canvas = rect.warp(frame).astype(np.float32)
    s = rect.px_per_mm
    cloth_here = np.median(canvas[_mat_margin_mask(rect)], axis=0)
    gain = np.asarray(cloth_bgr, np.float32) / np.maximum(cloth_here, 1.0)
    lab = _lab(canvas * gain)
    cloth_lab = _lab((cloth_here * gain)[None])[0]
    yy, xx = np.mgrid[0:canvas.shape[0], 0:canvas.shape[1]]
    out = {}
    pts = enrolment_points(mat)
    for name in names:
        p = np.asarray(pts[name]) * s
        inner = (xx - p[0]) ** 2 + (yy - p[1]) ** 2 < (MARKER_MM / 2 * 0.6 * s) ** 2
        c = np.median(lab[inner], axis=0)
        if np.linalg.norm((c - cloth_lab) * [L_WEIGHT, 1, 1]) < 8.0:
            raise VisionError(T("marker enrolment: {why}", why=T("no {colour} marker seen at its place ({x}, {y} mm on the mat)",
                                colour=name, x=format(pts[name][0], ".0f"), y=format(pts[name][1], ".0f"))))
        out[name] = c.astype(np.float32)
    return out


def _core_pixels(img: np.ndarray, cx: float, cy: float, px_per_mm: float) -> np.ndarray | None:
    """A marker's core in ``img`` (full scale): the pixels 1.6 mm or less from its middle (``cx``, ``cy``, px), where
    the blur has not mixed its rim with the land round it (red with green reads orange, orange yellow at `hard`);
    None where fewer than 5 lie in the image."""
    rc = 1.6 * px_per_mm
    fx0, fy0 = max(int(cx - rc), 0), max(int(cy - rc), 0)
    fx1, fy1 = min(int(cx + rc) + 1, img.shape[1]), min(int(cy + rc) + 1, img.shape[0])
    if fx1 <= fx0 or fy1 <= fy0:
        return None
    gy, gx = np.mgrid[fy0:fy1, fx0:fx1]
    near = (gx + 0.5 - cx) ** 2 + (gy + 0.5 - cy) ** 2 <= rc ** 2
    return img[fy0:fy1, fx0:fx1][near] if near.sum() >= 5 else None


def _paint_and_ground(pix: np.ndarray, local: np.ndarray, mark_bgr: list[np.ndarray], land_bgr: np.ndarray,
                      cloth_bgr: np.ndarray, ground_bgr: list[np.ndarray]) -> tuple[np.ndarray, float]:
    """The median of ``pix`` in the local light (``local``: each channel's gain) against each marker's paint, and its
    distance to the nearest ground colour."""
    seen = _lab(np.median(pix.astype(np.float32), axis=0) * local)
    return (paint_distances(seen, mark_bgr, land_bgr, cloth_bgr),
            float(np.min(paint_distances(seen, ground_bgr, land_bgr, None))))


class MarkerFinder:
    """Finds markers on the reader's canvas window (one colour table while the light holds)."""

    def __init__(self, colours: Any, markers: Mapping[str, np.ndarray]):
        self.colours = colours                   # vision.sunda.SundaColours
        self.markers = {k: np.asarray(v, np.float32) for k, v in markers.items()}
        self.rejected: list[tuple[tuple[float, float], str]] = []   # the last find's blobs not taken: (mm, why)
        #: the last find's discs (a marker's shape, by a tribe) whose colour was not clear: (MarkerReading at its
        #: tribe with the nearest paint, the paints it may be, nearest first) - the photo scorer lists them as unsure
        self.doubtful: list[tuple[MarkerReading, list[str]]] = []
        #: the last find's paint touching a tribe beyond its stack's outline where no marker of that paint was read:
        #: (MarkerReading at that tribe, the markers it may be, the height the tribe has for it to lie beyond: its
        #: outline at that height leaves it out; :meth:`_touching`) - the photo scorer lists them as unsure
        self.touching: list[tuple[MarkerReading, list[str], int]] = []
        #: the last find's markers read by the paint pass alone (:meth:`_paint_discs`: a faint disc on the land's own
        #: colour): the photo scorer lists them as unsure (a green marker read where none lies, photo bench seeds 15
        #: and 16, was read there: the scores silently wrong)
        self.by_paint: list[MarkerReading] = []
        #: the last find's discs of a marker's paint and size by a tribe whose ring is calm on too little of it to be
        #: read (:data:`DISC_RING_CALM_LEAST` to :data:`DISC_RING_CALM`): (MarkerReading at its tribe, the paints it
        #: may be, nearest first) - the photo scorer lists them as unsure (a marker may lie there)
        self.crowded: list[tuple[MarkerReading, list[str]]] = []
        #: the last find's markers read from a blob of a pawn's paint apart from every stack (:meth:`_apart`)
        self.apart: list[MarkerReading] = []
        self._tables: dict[bytes, tuple[np.ndarray, list[str]]] = {}    # per light (a few kept: in play the
        #                                                                  incremental reads keep an earlier light)

    def _same_paint(self, marker: str, pawn_lab: np.ndarray) -> bool:
        """Whether a pawn's colour (learnt on its top, 10 mm across) is ``marker``'s paint: within :data:`SAME_PAINT` of
        the marker's colour as enrolled, or as it is with the enrolment's pull towards the cloth's chroma undone
        (:func:`paint_line` on the cloth itself: a red pawn enrolled from its whole top lay 15 from the red marker
        enrolled as a 6 mm token, and its paint was taken for a paint no marker has)."""
        cloth = np.asarray(self.colours.cloth_bgr, np.float64)
        return float(paint_distances(np.asarray(pawn_lab, np.float32), [_bgr(self.markers[marker])], cloth,
                                     cloth)[0]) < SAME_PAINT

    def _table(self, gain: np.ndarray, cloth_now: np.ndarray) -> tuple[Any, list[str], np.ndarray]:
        key = gain.tobytes() + cloth_now.tobytes()
        if key in self._tables:
            return self._tables[key]
        ground = [_lab((cloth_now * gain)[None])[0], self.colours.land, self.colours.water]
        centres, cls = [], []
        names = list(self.markers)
        for g, code in zip(ground, (0, len(names) + 2, 0)):     # land has its own class: markers lie on islands
            for f in (1.0, 0.8, 0.6):    # in a stack's shadow, a shade at each step of its soft edge
                centres.append(_shade(g, f))
                cls.append(code)
        pawn_cls = len(names) + 1
        for pn, pl in self.colours.pawns.items():
            same = [i for i, m in enumerate(names) if self._same_paint(m, pl)]
            for f in (1.0, 0.72):
                centres.append(_shade(pl, f))
                cls.append(same[0] + 1 if same else pawn_cls)
        for i, m in enumerate(names):
            for f in (1.0, 0.7):
                centres.append(_shade(self.markers[m], f))
                cls.append(i + 1)
        from .sunda import nearest

        if len(self._tables) > 4:
            self._tables.clear()
        # the cells filled as the boxes round the tribes show them (a few hundred of the 32768: some 5 ms a light)
        cls_a, cent = np.asarray(cls, np.uint8), np.stack(centres)
        self._tables[key] = (ColourTable(gain, lambda bgr: cls_a[nearest(_lab(bgr), cent)], np.uint8), names,
                             np.stack([c for c, k in zip(centres, cls) if k in (0, len(names) + 2)]))
        return self._tables[key]

    def find(self, img: np.ndarray, gain: np.ndarray, cloth_now: np.ndarray, origin_px: tuple[int, int],
             px_per_mm: float, lattice: Any, tribes: Sequence[Any]) -> list[MarkerReading]:
        """The markers read by the tribes (``tribes``: the reader's, on the window ``img``); :attr:`doubtful` and
        :attr:`touching` hold what may be a marker and was not read."""
        self.by_paint = []
        out = self._find(img, gain, cloth_now, origin_px, px_per_mm, lattice, tribes)
        self.touching = self._touching(tribes, out)
        return out

    def paints_of(self, pawn: str) -> list[str]:
        """The markers of the pawn colour ``pawn``'s paint (:meth:`_same_paint`; none for a paint no marker has)."""
        lab = self.colours.pawns.get(pawn)
        return [] if lab is None else [m for m in self.markers if self._same_paint(m, lab)]

    def _touching(self, tribes: Sequence[Any], read: Sequence[MarkerReading]
                  ) -> list[tuple[MarkerReading, list[str], int]]:
        """Each tribe's pawn paint beyond its outline (``TribeReading.beyond``, vision.sunda._beyond: a marker
        touching the stack is one blob with it, taken by no pass here), as (a marker at that tribe, the markers it
        may be, the height at which the outline leaves it out, 0 for a blob apart beside it: at any height): the
        markers of that paint, else of the top's (a purple marker's rim reads as the black pawn's class), none read
        anywhere. At most one a tribe and height; no blob apart where a marker was read."""
        done = {m.marker for m in read}
        paints: dict[str, list[str]] = {}
        out: list[tuple[MarkerReading, list[str], int]] = []
        for t in tribes:
            seen: set[int] = set()
            for paint, mid, _area, n in sorted(getattr(t, "beyond", []) or [], key=lambda b: -b[2]):
                if n in seen or (n == 0 and any(np.linalg.norm(np.asarray(m.mat_mm) - mid) < MARKER_MM for m in read)):
                    continue        # (a blob apart where a marker was read is that marker: an orange one reads yellow)
                for c in (paint, t.top):
                    if c not in paints:
                        paints[c] = self.paints_of(c)
                # (a blob apart, height 0, is of its own paint: no stack's rim)
                may = [m for m in (paints[paint] or (paints[t.top] if n else [])) if m not in done]
                if may:
                    seen.add(n)
                    out.append((MarkerReading(may[0], t.q, t.r, (float(mid[0]), float(mid[1])), True), may, n))
        return out

    def _find(self, img: np.ndarray, gain: np.ndarray, cloth_now: np.ndarray, origin_px: tuple[int, int],
              px_per_mm: float, lattice: Any, tribes: Sequence[Any]) -> list[MarkerReading]:
        lut, names, ground = self._table(gain, cloth_now)
        land = len(names) + 2
        # at half the reader's scale (1 px/mm: a marker is some 28 px; four times less work)
        s = float(px_per_mm) / 2
        crop = cv2.resize(img, (img.shape[1] // 2, img.shape[0] // 2), interpolation=cv2.INTER_AREA)
        # only round the tribes: a marker follows a pawn or a water right and lies within 0.8 of a side of its node
        # (a blob by no tribe is not taken, so the rest of the table need not be classified: a third of the read)
        label = np.zeros(crop.shape[:2], np.uint8)
        looked = np.zeros(crop.shape[:2], bool)
        reach = 0.8 * lattice.side_mm + MARKER_MM + 2.0
        for t in tribes:
            cx, cy = (np.asarray(t.mat_mm) - np.asarray(origin_px) / (2 * s)) * s
            x0, y0 = max(int(cx - reach * s), 0), max(int(cy - reach * s), 0)
            x1, y1 = min(int(cx + reach * s) + 1, crop.shape[1]), min(int(cy + reach * s) + 1, crop.shape[0])
            if x1 > x0 and y1 > y0:
                looked[y0:y1, x0:x1] = True
            if x1 > x0 and y1 > y0 and not label[y0:y1, x0:x1].any():
                label[y0:y1, x0:x1] = lut.lookup(crop[y0:y1, x0:x1])
            elif x1 > x0 and y1 > y0:     # overlapping an earlier box: classify only what is not yet
                sub_l = label[y0:y1, x0:x1]
                np.copyto(sub_l, lut.lookup(crop[y0:y1, x0:x1]), where=sub_l == 0)
        ker = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
        solid = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
        out: list[MarkerReading] = []
        expect = math.pi * (MARKER_MM / 2) ** 2
        mark_bgr = [_bgr(self.markers[m]) for m in names]
        land_bgr = _bgr(self.colours.land)
        cloth_bgr = np.asarray(self.colours.cloth_bgr, np.float64)    # what the markers were enrolled lying on
        ground_bgr = [_bgr(g) for g in ground]
        found: list[tuple[np.ndarray, float, np.ndarray]] = []     # per candidate blob: colour distances, ground's, mm
        self.rejected = []
        self.doubtful = []
        self.crowded = []
        self.apart = []

        def reject(j: int, why: str) -> None:
            bx, by, bw, bh = stats[j, :4]
            self.rejected.append((((bx + bw / 2) / s + origin_px[0] / (2 * s), (by + bh / 2) / s + origin_px[1] / (2 * s)),
                                  why))
        # one pass over every marker colour (markers lie apart): each blob then takes its own colour
        cls = label * ((label >= 1) & (label <= len(names))).astype(label.dtype)
        mask = cv2.morphologyEx((cls > 0).astype(np.uint8), cv2.MORPH_OPEN, ker)
        n, lab_img, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        for j in range(1, n):
            area = stats[j, cv2.CC_STAT_AREA] / s ** 2
            if not 0.3 * expect <= area <= MAX_AREA_MM2:
                if area >= 0.15 * expect:
                    reject(j, f"area {area:.0f} mm2")
                continue
            bx, by, bw, bh = stats[j, :4]
            if not looked[max(by - 1, 0):by + bh + 1, max(bx - 1, 0):bx + bw + 1].all():
                continue          # cut by the edge of what was classified: part of something larger
            sub = lab_img[by:by + bh, bx:bx + bw] == j
            votes = np.bincount(cls[by:by + bh, bx:bx + bw][sub], minlength=len(names) + 1)[1:]
            i = int(votes.argmax())
            ys, xs = np.nonzero(sub)
            cov = np.cov(np.stack([xs, ys]).astype(np.float64)) if len(xs) > 3 else np.eye(2)
            ev = np.sqrt(np.maximum(np.linalg.eigvalsh(cov), 0)) * 2 / s   # a disc of radius r: 2 sqrt(var) = r
            if ev[1] > MARKER_MM / 2 * 2.0 or ev[0] < 0.45 * ev[1]:
                reject(j, f"shape {ev[0]:.1f} x {ev[1]:.1f} mm")
                continue
            # touching a pawn's colour (another class, 5 mm thick or more: not this marker's own darker edge) or more
            # of its own colour right round it: a pawn's side or part of a pawn, not a marker
            x0, y0 = max(bx - 6, 0), max(by - 6, 0)
            x1, y1 = min(bx + bw + 6, label.shape[1]), min(by + bh + 6, label.shape[0])
            blob = (lab_img[y0:y1, x0:x1] == j).astype(np.uint8)
            ring = (cv2.dilate(blob, np.ones((3, 3), np.uint8)) > 0) & (blob == 0)
            here = label[y0:y1, x0:x1]
            outer = (cv2.dilate(blob, np.ones((9, 9), np.uint8)) > 0) & ~(cv2.dilate(blob, np.ones((5, 5), np.uint8)) > 0)
            if (here[outer] == land).sum() < 0.35 * outer.sum():
                reject(j, "not on land")
                continue  # not on an island (a marker lies on land): water, cloth, a pawn round it
            other = cv2.morphologyEx(((here >= 1) & (here != i + 1) & (here != land)).astype(np.uint8),
                                     cv2.MORPH_OPEN, solid)
            if other[ring].sum() > 0.15 * ring.sum() or (here[ring] == i + 1).sum() > 0.25 * ring.sum():
                reject(j, "touches a pawn's colour")
                continue
            # its colour in the light where it lies: the land round it against the enrolled land (a light gradient,
            # the vignette and a cast move orange towards yellow or red at the edge of the table; the global
            # correction by the cloth only takes out the frame's mean light)
            local = gain
            land_round = crop[y0:y1, x0:x1][outer & (here == land)]
            if len(land_round) >= 12:
                local = land_bgr / np.maximum(np.median(land_round.astype(np.float32), axis=0), 1.0)
            # the marker's core, at the reader's full scale: the blur mixes its rim with the land round it (red
            # with green reads orange, orange reads yellow at `hard`), so only pixels 1.6 mm or less from its middle
            pix = _core_pixels(img, (xs.mean() + bx + 0.5) * 2.0, (ys.mean() + by + 0.5) * 2.0, px_per_mm)
            if pix is None:
                pix = crop[by:by + bh, bx:bx + bw][sub]
            d_all, d_g = _paint_and_ground(pix, local, mark_bgr, land_bgr, cloth_bgr, ground_bgr)
            c_px = np.array([xs.mean() + bx, ys.mean() + by]) + 0.5
            mm = c_px / s + np.asarray(origin_px) / (2 * s)
            if any(np.linalg.norm(np.asarray(t.mat_mm) - mm) < DISC_OFF_TRIBE_MM for t in tribes):
                reject(j, "a tribe's pawn")   # a pawn of a marker's paint, its blob shrunk by the blur to a marker's
                continue
            # a token's whole disc: the blob fills a disc 5 mm across round its middle, and its short axis is a
            # disc's (a shade of the print near a marker's colour is a patch: at `hard` 0.46-0.76 filled, its
            # short axis 1.3-1.8 mm; the green markers there 0.92-1.02 filled, their axes 2.2-3.4 mm)
            yy, xx = np.mgrid[0:bh, 0:bw]
            disc = (xx - xs.mean()) ** 2 + (yy - ys.mean()) ** 2 <= (WHOLE_DISC_MM / 2 * s) ** 2
            fill = float(sub[disc].sum()) / max(float(disc.sum()), 1.0)
            whole = fill >= DISC_FILL and DISC_SHORT_MM <= float(ev[0]) and float(ev[1]) <= DISC_LONG_MM
            found.append((d_all, d_g, mm, whole, fill, float(ev[0]), float(ev[1])))
        # each colour is one marker: blobs take colours nearest first (a blob whose nearest colour another blob has
        # taken more surely takes its next, if that one is still clearly its colour, not a shade of the ground)
        pairs = sorted((float(d), b, k) for b, (d_all, *_) in enumerate(found) for k, d in enumerate(d_all))
        used_b, used_k = set(), set()
        later: list[int] = []      # blobs between two paints still free: named once the clear ones are (_later)
        for d, b, k in pairs:
            if b in used_b or k in used_k or d > 0.7 * found[b][1] or (found[b][1] < GROUND_CONTRAST
                                                                          and not found[b][3]):
                if b not in used_b and k == int(np.argmin(found[b][0])):
                    self.rejected.append(((float(found[b][2][0]), float(found[b][2][1])),
                                          f"{names[k]} at {d:.1f}, the ground at {found[b][1]:.1f}"
                                          + ("" if found[b][3] else ", not a token's whole disc")
                                          + f" [fill {found[b][4]:.2f}, axes {found[b][5]:.1f} x {found[b][6]:.1f}]"))
                continue     # its colour clearly the marker's, not a shade of the ground the light pushed over
            used_b.add(b)
            if any(j != k and j not in used_k and found[b][0][j] - d < DISC_MARGIN for j in range(len(names))):
                later.append(b)       # red on the land shows as orange does: which one, the other markers tell
                continue
            used_k.add(k)
            m = self._place(names[k], found[b][2], lattice, tribes)
            if m.by_tribe:       # a marker follows a pawn or water right: one by no tribe is not taken (a position
                out.append(m)    # holds markers only by a tribe) - a shade of the print the light pushed over
        if APART_READ:
            out += self._apart(img, crop, label, land, origin_px, px_per_mm, lattice, tribes, out, names, mark_bgr,
                               land_bgr, cloth_bgr, ground_bgr)
        held = [MarkerReading("?", 0, 0, (float(found[b][2][0]), float(found[b][2][1])), False) for b in later]
        field = _GroundField.of(crop, looked, looked & (label == 0), gain, origin_px, px_per_mm)
        if field is None:
            return out + self._later([found[b] for b in later], out, names, lattice, tribes)
        out += self._discs(img, field, lattice, tribes, out + held, names)
        out += self._later([found[b] for b in later], out, names, lattice, tribes)
        return out + self._paint_discs(img, field, lattice, tribes, out, names)

    def _apart(self, img: np.ndarray, crop: np.ndarray, label: np.ndarray, land: int, origin_px: tuple[int, int],
               px_per_mm: float, lattice: Any, tribes: Sequence[Any], taken: Sequence[MarkerReading],
               names: list[str], mark_bgr: list[np.ndarray], land_bgr: np.ndarray, cloth_bgr: np.ndarray,
               ground_bgr: list[np.ndarray]) -> list[MarkerReading]:
        """The markers read from a blob of a pawn's paint apart from every stack (``TribeReading.beyond`` at height 0:
        ``vision.sunda.LONE_MM2``, a blob of a marker's size whose base lies off every node, split from the stack
        beside it; the colour pass joined it to that stack and took none): no pawn stands off a node and a pawn's top
        is a disc 10 mm across, so such a blob is a marker. Read where two cues agree: its core's colour (1.6 mm round
        its middle, the local light taken out by the land round it, as the colour pass judges a blob) is clearly a
        paint (nearer it than 0.7 of the ground's distance, the next paint not read elsewhere :data:`DISC_MARGIN`
        farther) and that paint is a marker of the blob's pawn paint (:meth:`paints_of`: an orange marker whose blob
        reads yellow is not read yellow). Not where a marker was read within :data:`MARKER_MM`. Each is added to
        :attr:`apart` (the photo scorer lists it). A red marker so by a red stack of 5 (photo bench seed 10 `hard`
        table 9) was only listed, and the score wrong."""
        out: list[MarkerReading] = []
        s = float(px_per_mm) / 2
        for t in tribes:
            for paint, mid, _area, n in getattr(t, "beyond", []) or []:
                mid = np.asarray(mid, np.float64)
                read = [m.marker for m in list(taken) + out]
                if n != 0 or any(np.linalg.norm(np.asarray(m.mat_mm) - mid) < MARKER_MM for m in list(taken) + out):
                    continue
                may = [m for m in self.paints_of(paint) if m not in read]
                if not may:
                    continue
                # the land round it (a ring 5-9 mm from its middle, at half scale): the local light
                hx, hy = mid * s - np.asarray(origin_px) / 2.0
                x0, y0 = max(int(hx - 9 * s), 0), max(int(hy - 9 * s), 0)
                x1, y1 = min(int(hx + 9 * s) + 1, crop.shape[1]), min(int(hy + 9 * s) + 1, crop.shape[0])
                if x1 <= x0 or y1 <= y0:
                    continue
                gy, gx = np.mgrid[y0:y1, x0:x1]
                dd = np.hypot(gx + 0.5 - hx, gy + 0.5 - hy) / s
                ring = (dd >= 5.0) & (dd <= 9.0) & (label[y0:y1, x0:x1] == land)
                if ring.sum() < 12:
                    continue
                local = land_bgr / np.maximum(np.median(crop[y0:y1, x0:x1][ring].astype(np.float32), axis=0), 1.0)
                cx, cy = mid * px_per_mm - np.asarray(origin_px, np.float64)
                pix = _core_pixels(img, cx, cy, px_per_mm)
                if pix is None:
                    continue
                d_all, d_g = _paint_and_ground(pix, local, mark_bgr, land_bgr, cloth_bgr, ground_bgr)
                free = sorted((float(d), names[k]) for k, d in enumerate(d_all) if names[k] not in read)
                ok = (free and free[0][1] in may and free[0][0] <= 0.7 * d_g
                      and (len(free) < 2 or free[1][0] - free[0][0] >= DISC_MARGIN))
                if not ok:
                    self.rejected.append(((float(mid[0]), float(mid[1])), "apart: " + ", ".join(
                        f"{c} {d:.1f}" for d, c in free[:3]) + f", the ground at {d_g:.1f}"))
                    continue
                m = self._place(free[0][1], mid, lattice, tribes, list(taken) + out)
                if m.by_tribe:
                    out.append(m)
                    self.apart.append(m)
        return out

    def _later(self, blobs: list[tuple], taken: Sequence[MarkerReading], names: list[str], lattice: Any,
               tribes: Sequence[Any]) -> list[MarkerReading]:
        """The blobs whose colour lies between two paints (within DISC_MARGIN) neither of which was read elsewhere,
        named once every clear marker is: each takes the nearest paint left when that one is clearly its colour, else
        it is doubtful (listed as unsure)."""
        out: list[MarkerReading] = []
        used = {t.marker for t in taken}
        for d_all, d_g, mm, *_ in sorted(blobs, key=lambda f: float(np.min(f[0]))):
            free = sorted((float(d), k) for k, d in enumerate(d_all) if names[k] not in used)
            m = self._place(names[free[0][1]], mm, lattice, tribes) if free else None
            if m is None or not m.by_tribe:
                continue
            if free[0][0] > 0.7 * d_g or (len(free) > 1 and free[1][0] - free[0][0] < DISC_MARGIN):
                self.doubtful.append((m, [names[k] for _, k in free[:2]]))
                continue
            used.add(m.marker)
            out.append(m)
        return out

    def _discs(self, img: np.ndarray, f: "_GroundField", lattice: Any, tribes: Sequence[Any],
               taken: Sequence[MarkerReading], names: list[str]) -> list[MarkerReading]:
        """The markers the colour classes missed, found as what they are: a disc ``MARKER_MM`` across that differs
        from the ground right round it (docs/sunda.md, "Resource markers as discs"). Against the local ground (a
        median over 25 mm: a marker is a twentieth of it, a stack a quarter) every pixel's difference (Lab, lightness weighted) is
        filtered by a disc 5 mm across less the ring 8-11 mm across round it: a marker's disc stands out whatever
        its colour (a green marker on green land 10-18, blurred), a line of the cut edges or a shade of the print
        does not, a pawn's top (10 mm) fills the ring too. Each peak must have the ground on most of its ring (a
        pawn or a stack beside it covers half the ring or more; another marker touching it a sixth), and its core
        (1.6 mm round its middle, at the reader's scale) must be a marker's paint blurred into the land round it
        (``a * paint + (1 - a) * land``, the local light taken out by the ground there) clearly better than any
        other paint's; a colour already read is not read twice."""
        s = f.s
        core, ring, ring_sea = f.core, f.ring, f.ring_sea
        resp = core - ring
        peak = (resp >= DISC_CONTRAST) & (resp >= cv2.dilate(resp, cv2.getStructuringElement(
            cv2.MORPH_ELLIPSE, (int(2 * 2.5 * s) | 1,) * 2)))
        # a disc on the ground: the ground on most of its ring (not a pawn, a stack or a coast round it) and an edge
        # (its ring calmer than its core). Every peak is judged: a table's prints and shades give a couple of hundred
        # peaks at `default`, and a marker's is not among the strongest (a green one on green land: 10, where the
        # pawns' and the coasts' peaks, rejected here, reach 30 and more)
        # (or no busier than the ground's own grain, ``ground_grain``: a faint disc's ring is the ground's grain and no
        # share of its core: at `hard` some 5, the ring of a green marker on the green land 5.9 where its core is 12.8)
        grain = ground_grain(f.diff[f.on])
        peak &= (ring_sea <= max(DISC_RING_SEA, DISC_RING_SEA_MOST)) & ((ring <= DISC_RING_SHARE * core)
                                                                       | (ring <= DISC_RING_GRAIN * grain))
        diff, ring_calm = f.diff, f.ring_calm
        land_lab = self.colours.land
        land_bgr = _bgr(land_lab)
        other = [_lab((np.asarray(self.colours.cloth_bgr, np.float32))[None])[0], self.colours.water]
        paints = {m: _bgr(self.markers[m]) for m in names}
        for pn, pl in self.colours.pawns.items():   # a pawn's paint that is no marker's: a pawn's part, not a marker
            if not any(self._same_paint(m, pl) for m in names):
                paints["pawn " + pn] = _bgr(pl)
        blend = np.linspace(DISC_BLEND_MIN, 1.0, 5)
        # the ground itself in light and shade (a stack's shadow, the sea, the cloth): a core nearer one of these is
        # a shade of the ground, not a marker
        # (a stack's shadow darkens the land to 0.55 at the most; a marker lies on land, so the sea and the cloth
        # are taken only in full light: a blue marker is as dark as the sea in a deep shadow)
        grounds = [_shade(land_lab, k) for k in (1.0, 0.85, 0.7, 0.55)] + [self.colours.water, other[0]]
        cands = []
        for py, px in sorted(zip(*np.nonzero(peak)), key=lambda v: -resp[v[0], v[1]]):
            mm = f.mm(py, px)
            if any(np.linalg.norm(np.asarray(t.mat_mm) - mm) < MARKER_MM for t in taken):
                continue
            calm = ring_calm(py, px)
            if calm < DISC_RING_CALM_LEAST:
                continue        # a pawn, a stack, another marker or a coast round it: not a disc on the ground
            # calm on less than DISC_RING_CALM: something crosses its ring (cut lines, a piece's corner), or the sea
            # on more than DISC_RING_SEA of it (a coast): judged on as a disc but listed, never read (``crowded``).
            # One doubt at a time: a disc with both round it is dropped as before (a coast's corner with cut lines:
            # calm on 0.54-0.67 where the sea was 0.29-0.44 of the ring, seeds 11, 13, 19, 20; the blue marker on a
            # coast, calm on 1.0)
            coast = bool(ring_sea[py, px] > DISC_RING_SEA)
            if coast and calm < DISC_RING_CALM:
                continue
            crowded = calm < DISC_RING_CALM or coast
            # a disc: the core is the token's whole disc (its difference at least half its middle's all over it), not
            # a streak of a shade of the print crossing it
            if f.core_fill(diff, py, px) < DISC_CORE_FILL:
                self.rejected.append(((float(mm[0]), float(mm[1])), "disc: not a whole disc"))
                continue
            # by a coast or the layout's edge the ring's own classes say it lies on land (the sea or the cloth on at
            # most half of it): the local ground's median (25 mm) is then judged against the water's colour alone
            seen = self._core_colour(img, f, py, px, mm, lattice, tribes, taken, on_land=coast)
            if seen is None:
                continue
            fits = dict(zip(paints, paint_distances(seen, list(paints.values()), land_bgr,
                                                    np.asarray(self.colours.cloth_bgr, np.float64), blend)))
            order = sorted(fits, key=fits.get)
            if not order[0].startswith("pawn ") and not lightness_agrees(seen, self.markers[order[0]], land_lab,
                                                                         DISC_LIGHTNESS):
                # lighter than the land where the paint is darker (or the other way): the colour the JPEG smears
                # round a red stack, no marker (the paint pass's test, its margin DISC_LIGHTNESS)
                self.rejected.append(((float(mm[0]), float(mm[1])), f"disc: {order[0]}, not its lightness"))
                continue
            shade = float(min(paint_distances(seen, [_bgr(gl) for gl in grounds], land_bgr, None)))
            if GAP_SHADES:      # where pieces meet: the cloth in the gaps mixed with the land's darker cut edges
                shade = min(shade, gap_distance(seen, np.asarray(self.colours.cloth_bgr, np.float64), land_bgr))
            # (a disc only listed, never read, need only be nearer a paint than any shade of the ground: a blue
            # marker on a coast at `hard`, 3.3 from its paint, lay 4.8 from the sea's colour)
            if shade < fits[order[0]] + (0.0 if crowded else DISC_MARGIN):
                self.rejected.append(((float(mm[0]), float(mm[1])), f"disc: a shade of the ground ({shade:.1f})"))
                continue
            # a disc whose ring is calm only as the ground's grain is (over DISC_RING_SHARE of its core) must show its
            # paint clearly too: two faint cues are no sure reading
            faint = bool(ring[py, px] > DISC_RING_SHARE * core[py, px])
            cands.append((fits, order, mm, DISC_FIT_FAINT if faint else DISC_FIT, crowded, seen))
        out: list[MarkerReading] = []
        used = {t.marker for t in taken}
        def doubt(order: list[str]) -> None:
            may = [c for c in order if not c.startswith("pawn ")][:2]
            if may and not order[0].startswith("pawn "):
                self.doubtful.append((self._place(may[0], mm, lattice, tribes, taken), may))

        for fits, order, mm, limit, crowded, seen in sorted(cands, key=lambda c: c[0][c[1][0]]):
            best = order[0]
            if crowded:
                # a disc whose ring is too busy to read it: listed where its core is a marker's paint as a read one
                # would be (within its limit, the next paint not as near), never read; offered as the paints within
                # that limit only (a bit of the sea by a coast fits the blue paint at 5-7, the purple at 12.5: where
                # the blue marker was read elsewhere it was offered as the purple one, on right tables)
                may = [c for c in order if not c.startswith("pawn ") and fits[c] <= limit][:2]
                pawn_near = len(order) > 1 and order[1].startswith("pawn ") and fits[order[1]] - fits[best] < DISC_MARGIN
                if not best.startswith("pawn ") and fits[best] <= limit and not pawn_near:
                    self.crowded.append((self._place(best, mm, lattice, tribes, taken), may))
                self.rejected.append(((float(mm[0]), float(mm[1])), f"disc: ring calm too little; {best} at "
                                      f"{fits[best]:.1f}"))
                continue
            if best.startswith("pawn ") or fits[best] > limit:
                self.rejected.append(((float(mm[0]), float(mm[1])), f"disc: {best} at {fits[best]:.1f}"))
                doubt(order)
                continue
            if best in used:
                alt = next((c for c in order[1:] if c not in used), None)
                if alt is None or alt.startswith("pawn ") or fits[alt] > DISC_FIT / 2:
                    self.rejected.append(((float(mm[0]), float(mm[1])), f"disc: {best} taken"))
                    doubt([c for c in order if c not in used])
                    continue
                best = alt
            elif len(order) > 1 and fits[order[1]] - fits[best] < DISC_MARGIN and order[1] not in used:
                self.rejected.append(((float(mm[0]), float(mm[1])),
                                      f"disc: {best} at {fits[best]:.1f} or {order[1]} at {fits[order[1]]:.1f}"))
                doubt(order)
                continue
            if any(np.linalg.norm(np.asarray(o.mat_mm) - mm) < MARKER_MM for o in out):
                continue
            # its lightness on the paint's side of the land's (within noise of the other side: listed, never read)
            if not lightness_agrees(seen, self.markers[best], land_lab, DISC_LIGHTNESS_SURE):
                self.rejected.append(((float(mm[0]), float(mm[1])), f"disc: {best} at {fits[best]:.1f}, "
                                      "its lightness within noise of the wrong side"))
                doubt(order)
                continue
            used.add(best)
            out.append(self._place(best, mm, lattice, tribes, list(taken) + out))
        return out

    def _core_colour(self, img: np.ndarray, f: "_GroundField", py: int, px: int, mm: np.ndarray, lattice: Any,
                     tribes: Sequence[Any], taken: Sequence[MarkerReading], on_land: bool = False
                     ) -> np.ndarray | None:
        """The colour (Lab, the local light taken out by the ground round it) of a disc's core, 1.6 mm round its
        middle at the reader's full scale, for a peak at ``py, px`` of the field; None where no marker can lie: off
        the land (the local ground nearer the cloth's or the water's colour; with ``on_land``, the ring's classes
        saying so, nearer the water's only: a cloth of the land's shade is half the ground round a marker at the
        layout's edge), by no tribe, or on a tribe's node."""
        w = np.array([L_WEIGHT, 1.0, 1.0], np.float32)
        land_lab = self.colours.land
        other = [_lab((np.asarray(self.colours.cloth_bgr, np.float32))[None])[0], self.colours.water]
        g = _lab(f.bg[py, px].astype(np.float32) * f.gain)     # the local ground's colour (Lab) at the peak
        if np.linalg.norm((g - land_lab) * w) > min(np.linalg.norm((g - o) * w) for o in (other[1:] if on_land
                                                                                          else other)):
            return None        # a marker lies on land
        m = self._place("?", mm, lattice, tribes, taken)
        if not m.by_tribe or any(np.linalg.norm(np.asarray(t.mat_mm) - mm) < DISC_OFF_TRIBE_MM for t in tribes):
            return None
        local = _bgr(land_lab) / np.maximum(f.bg[py, px].astype(np.float32), 1.0)
        cx, cy = (px + f.x0 + 0.5) * 2.0, (py + f.y0 + 0.5) * 2.0
        rcf = 1.6 * f.px_per_mm
        fx0, fy0 = max(int(cx - rcf), 0), max(int(cy - rcf), 0)
        fx1, fy1 = min(int(cx + rcf) + 1, img.shape[1]), min(int(cy + rcf) + 1, img.shape[0])
        gy, gx = np.mgrid[fy0:fy1, fx0:fx1]
        near = (gx + 0.5 - cx) ** 2 + (gy + 0.5 - cy) ** 2 <= rcf ** 2
        if near.sum() < 5:
            return None
        return _lab(np.median(img[fy0:fy1, fx0:fx1][near].astype(np.float32), axis=0) * local)

    def _paint_discs(self, img: np.ndarray, f: "_GroundField", lattice: Any, tribes: Sequence[Any],
                     taken: Sequence[MarkerReading], names: list[str]) -> list[MarkerReading]:
        """The markers whose paint lies near the land's (a green marker on the green land at `hard`: its disc 10-19
        from the ground, the print's grain and cut lines 5-11 in the ring round it), found by what tells a paint from
        the land's own shades: the land's print is lighter or darker piece by piece and in a stack's shadow, and every
        such shade moves its colour along one line (the land's colour times a factor), while a paint laid on it moves
        it off that line. Each pixel's difference from the local ground is projected on the part of ``paint - land``
        square to the land's shade line (:func:`paint_direction`; the green paint: darker and greener, 16.7 of it as
        simulated; the print's lighter patches that looked as round and as green showed 3.8-6.5 of it, the markers
        13-19), and filtered with the disc pass's core and ring: a marker is a whole disc showing at least
        :data:`PAINT_CORE` of its paint's square part with an edge (its ring's median at most :data:`PAINT_RING` of
        its core), of the paint's lightness (:func:`lightness_agrees`), read where it shows :data:`PAINT_SURE` of it
        or more. Its colour is then the
        paint that explains its core best as the land shaded plus a share of the paint (:func:`paint_fit`); where two
        paints explain it alike (within :data:`PAINT_MARGIN`) it is doubtful (listed as unsure), not guessed. Only
        the colours no other pass read, away from what they read."""
        used = {t.marker for t in taken}
        free = [m for m in names if m not in used]
        if not free:
            return []
        land = self.colours.land
        cloth = np.asarray(self.colours.cloth_bgr, np.float64)
        dirs = {m: paint_direction(self.markers[m], land, cloth, ENROL_UNDO) for m in names}
        for pn, pl in self.colours.pawns.items():   # a pawn's paint that is no marker's: a pawn's part, not a marker
            if not any(self._same_paint(m, pl) for m in names):
                dirs["pawn " + pn] = paint_direction(pl, land)
        shade = shade_direction(land)
        cands = []
        dil = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (int(2 * 2.5 * f.s) | 1,) * 2)
        for m in free:
            perp, full = dirs[m]
            if full < PAINT_LEAST:
                continue
            proj = np.ascontiguousarray(f.dvec @ (perp / full)).astype(np.float32)
            core = cv2.filter2D(proj, -1, f.core_k / f.core_k.sum(), borderType=cv2.BORDER_CONSTANT)
            peak = (core >= PAINT_CORE * full) & (f.ring_sea <= DISC_RING_SEA) & (core >= cv2.dilate(core, dil))
            pad = np.pad(proj, f.n, constant_values=np.inf)
            for py, px in zip(*np.nonzero(peak)):
                mm = f.mm(py, px)
                if any(np.linalg.norm(np.asarray(t.mat_mm) - mm) < MARKER_MM for t in taken):
                    continue
                # the ring's median: a pawn, a marker or a cut line over a part of it does not hide the edge
                ring = float(np.median(pad[py:py + 2 * f.n + 1, px:px + 2 * f.n + 1][f.ring_k > 0]))
                if ring > PAINT_RING * core[py, px]:
                    continue
                if f.ring_calm(py, px) < DISC_RING_CALM:
                    continue        # a pawn, a stack, another marker or a coast round it
                if f.core_fill(proj, py, px) < DISC_CORE_FILL:
                    continue        # a cut line or a streak of the print crossing it, not a token's whole disc
                seen = self._core_colour(img, f, py, px, mm, lattice, tribes, taken)
                if seen is None:
                    continue
                light = lightness_agrees(seen, self.markers[m], land)
                dim = PAINT_DIM_UNSURE and lightness_agrees(seen, self.markers[m], land, DISC_LIGHTNESS)
                if not light and not dim:
                    self.rejected.append(((float(mm[0]), float(mm[1])), f"paint disc: {m}, not its lightness"))
                    continue
                fits = {k: paint_fit(seen - land, d, shade) for k, d in dirs.items()}
                cands.append((float(core[py, px]) / full, m, mm, fits, light))
        out: list[MarkerReading] = []
        for share, m, mm, fits, light in sorted(cands, key=lambda c: -c[0]):
            if m in used or any(np.linalg.norm(np.asarray(o.mat_mm) - mm) < MARKER_MM for o in out):
                continue
            order = sorted(fits, key=fits.get)
            if (share < PAINT_SURE or order[0] != m or fits[m] > PAINT_FIT or (fits[order[1]] - fits[m] < PAINT_MARGIN)
                    or not light):
                self.rejected.append(((float(mm[0]), float(mm[1])), f"paint disc: {m} {share:.2f} of its paint; "
                                      + ", ".join(f"{k} {fits[k]:.1f}" for k in order[:3])))
                may = [k for k in order[:2] if not k.startswith("pawn ") and k not in used]
                listed = any(np.linalg.norm(np.asarray(d.mat_mm) - mm) < MARKER_MM for d, _ in self.doubtful)
                if m in may and fits[m] <= PAINT_FIT and not listed:
                    self.doubtful.append((self._place(m, mm, lattice, tribes, list(taken) + out), may))
                continue
            used.add(m)
            out.append(self._place(m, mm, lattice, tribes, list(taken) + out))
        self.by_paint = list(out)
        return out

    @staticmethod
    def _place(name: str, mm: np.ndarray, lattice: Any, tribes: Sequence[Any],
               beside: Sequence[MarkerReading] = ()) -> MarkerReading:
        """The marker at its tribe's node: the nearest tribe within 0.8 of a side; else, when it touches a marker
        by a tribe (its middle within :data:`TOUCH_MM` of that one's), that marker's tribe (a hand lays a marker
        against the others where the room by the node is taken: 24 mm from its tribe at the photo bench's seed 4);
        else the nearest lattice node, by no tribe."""
        best = None
        for t in tribes:
            d = float(np.linalg.norm(np.asarray(t.mat_mm) - mm))
            if d <= 0.8 * lattice.side_mm and (best is None or d < best[0]):
                best = (d, t)
        if best is not None:
            return MarkerReading(name, best[1].q, best[1].r, (float(mm[0]), float(mm[1])), True)
        touching = [o for o in beside if o.by_tribe and np.linalg.norm(np.asarray(o.mat_mm) - mm) <= TOUCH_MM]
        if touching:
            o = min(touching, key=lambda o: float(np.linalg.norm(np.asarray(o.mat_mm) - mm)))
            return MarkerReading(name, o.q, o.r, (float(mm[0]), float(mm[1])), True)
        q, r = np.round(lattice.to_lattice(mm)[0]).astype(int)
        return MarkerReading(name, int(q), int(r), (float(mm[0]), float(mm[1])), False)


def gap_distance(seen_lab: np.ndarray, cloth_bgr: np.ndarray, land_bgr: np.ndarray) -> float:
    """How far (Lab, lightness weighted) a small patch's colour lies from the ground where pieces meet: the cloth seen
    in the gaps mixed with the land and its darker cut edges (the cloth's share :data:`GAP_MIX`, the land in the
    shades :data:`GAP_LAND_SHADES`)."""
    w = np.array([L_WEIGHT, 1.0, 1.0], np.float32)
    a = np.asarray(GAP_MIX, np.float64)[:, None, None]
    f = np.asarray(GAP_LAND_SHADES, np.float64)[None, :, None]
    mix = _lab((a * np.asarray(cloth_bgr, np.float64) + (1 - a) * f * np.asarray(land_bgr, np.float64)).reshape(-1, 3))
    return float(np.min(np.linalg.norm((mix - np.asarray(seen_lab, np.float32)) * w, axis=1)))


def shade_direction(land_lab: np.ndarray) -> np.ndarray:
    """The unit direction (Lab, lightness weighted) the land's colour takes when its light changes: a print a little
    lighter or darker, a stack's shadow, the light's gradient (the land's BGR times a factor, round 1)."""
    land = _bgr(land_lab)
    d = (_lab(land * 1.1) - _lab(land * 0.9)) * np.array([L_WEIGHT, 1.0, 1.0], np.float32)
    return (d / max(float(np.linalg.norm(d)), 1e-6)).astype(np.float64)


def paint_direction(paint_lab: np.ndarray, land_lab: np.ndarray, enrolled_on: np.ndarray | None = None,
                    undo: float = 0.0) -> tuple[np.ndarray, float]:
    """The part of ``paint - land`` (Lab, lightness weighted) square to the land's shade line
    (:func:`shade_direction`) and its size: what a paint laid on the land shows that no shade of the land does. A
    marker enrolled as a small token on the cloth (``enrolled_on``, BGR) has its chroma pulled towards the cloth's:
    ``undo`` of that pull is taken back (:func:`paint_line`; the `hard` green marker enrolled 3 greener than the land
    showed 13-21 greener on it)."""
    s = shade_direction(land_lab)
    paint = _bgr(paint_lab)
    if enrolled_on is not None:
        paint = paint + undo * (_CHROMA @ (paint - np.asarray(enrolled_on, np.float64)))
    u = (_lab(np.clip(paint, 0, 255)[None])[0] - np.asarray(land_lab, np.float64)) * np.array([L_WEIGHT, 1.0, 1.0])
    perp = u - (u @ s) * s
    return perp, float(np.linalg.norm(perp))


def paint_fit(diff_lab: np.ndarray, direction: tuple[np.ndarray, float], shade: np.ndarray) -> float:
    """How far (Lab, lightness weighted) a core's difference from the land (``diff_lab``, the local light taken out)
    lies from the land in some shade plus a share of a paint (``direction``: :func:`paint_direction`), the share
    between :data:`PAINT_SHARE_MIN` (the blur) and 1.2 (the JPEG's saturation): the part neither explains."""
    d = np.asarray(diff_lab, np.float64) * np.array([L_WEIGHT, 1.0, 1.0])
    perp, size = direction
    a = float(np.clip((d @ perp) / max(size * size, 1e-6), PAINT_SHARE_MIN, 1.2))
    rest = d - a * perp
    return float(np.linalg.norm(rest - (rest @ shade) * shade))


def lightness_agrees(seen_lab: np.ndarray, paint_lab: np.ndarray, land_lab: np.ndarray,
                     least: float | None = None) -> bool:
    """Whether a core seen on the land (``seen_lab``, the local light taken out) is lighter or darker than the land
    as the paint is, by at least ``least`` (None: :data:`PAINT_LIGHTNESS`) of the paint's own difference (a paint within
    :data:`PAINT_L_LEAST` of the land's lightness: any). The JPEG keeps lightness at full resolution and blurs and
    quantises colour at half: a 6 mm marker shows its paint's lightness (the `hard` green markers 9 darker than the
    land showed 5-9 darker), while the colour the JPEG smears round a red or orange marker shows none (4.7-8.8
    lighter, as green as a green marker blurred: photo bench seed 5 table 6, seed 6 table 4)."""
    dl_paint = float(paint_lab[0]) - float(land_lab[0])
    if abs(dl_paint) < PAINT_L_LEAST:
        return True
    return (float(seen_lab[0]) - float(land_lab[0])) / dl_paint >= (PAINT_LIGHTNESS if least is None else least)


@dataclass
class _GroundField:
    """Each looked-at pixel's difference from the local ground (the median over ``DISC_GROUND_MM``), at half the
    reader's scale, and its means over the disc pass's core and ring: what the disc and paint passes share."""
    s: float                   # px a mm (half the reader's scale)
    px_per_mm: float           # the reader's scale
    x0: int
    y0: int
    origin_px: tuple[int, int]
    gain: np.ndarray
    on: np.ndarray             # looked at (the window)
    bg: np.ndarray             # the local ground (BGR)
    dvec: np.ndarray           # difference from it (Lab, lightness weighted; 0 off ``on``)
    diff: np.ndarray           # its size
    n: int
    rr: np.ndarray
    core_k: np.ndarray
    ring_k: np.ndarray
    core: np.ndarray
    ring: np.ndarray
    ring_sea: np.ndarray       # the share of the ring that is the sea or the cloth

    @classmethod
    def of(cls, crop: np.ndarray, looked: np.ndarray, off_land: np.ndarray, gain: np.ndarray,
           origin_px: tuple[int, int], px_per_mm: float) -> "_GroundField | None":
        s = float(px_per_mm) / 2
        w = np.array([L_WEIGHT, 1.0, 1.0], np.float32)
        ys, xs = np.nonzero(looked)
        if not len(xs):
            return None
        pad = int(6 * s)
        x0, y0 = max(int(xs.min()) - pad, 0), max(int(ys.min()) - pad, 0)
        x1, y1 = min(int(xs.max()) + pad + 1, crop.shape[1]), min(int(ys.max()) + pad + 1, crop.shape[0])
        sub = np.ascontiguousarray(crop[y0:y1, x0:x1])
        k = int(round(DISC_GROUND_MM * s)) | 1
        # the difference only where looked (0 elsewhere): Lab is per pixel, so the looked pixels alone give the same
        # values at a fraction of the work (the tribes' boxes are some half of their bounding box)
        on = looked[y0:y1, x0:x1]
        bg = _median_near(sub, on, k, int(math.ceil(DISC_CORE_MM / 2 * s)) + 1)
        dvec = np.zeros(on.shape + (3,), np.float32)
        dvec[on] = (_lab(sub[on].astype(np.float32) * gain) - _lab(bg[on].astype(np.float32) * gain)) * w
        diff = np.linalg.norm(dvec, axis=2).astype(np.float32)
        rc, r0, r1 = DISC_CORE_MM / 2 * s, DISC_RING_MM[0] / 2 * s, DISC_RING_MM[1] / 2 * s
        n = int(math.ceil(r1)) + 1
        yy, xx = np.mgrid[-n:n + 1, -n:n + 1]
        rr = np.hypot(xx, yy)
        core_k = (rr <= rc).astype(np.float32)
        ring_k = ((rr >= r0) & (rr <= r1)).astype(np.float32)
        core = cv2.filter2D(diff, -1, core_k / core_k.sum(), borderType=cv2.BORDER_CONSTANT)
        ring = cv2.filter2D(diff, -1, ring_k / ring_k.sum(), borderType=cv2.BORDER_CONSTANT)
        # the sea or the cloth as areas: a thin rim the classes give a marker's own blur (a blue marker blurred into
        # the green land reads as the sea's colour 1-2 mm round it: 29 % of its ring at the photo bench's seed 4) is
        # no sea
        sea = off_land[y0:y1, x0:x1].astype(np.uint8)
        if SEA_AREA_MM > 0:
            sea = cv2.morphologyEx(sea, cv2.MORPH_OPEN, cv2.getStructuringElement(
                cv2.MORPH_ELLIPSE, (int(SEA_AREA_MM * s) | 1,) * 2))
        ring_sea = cv2.filter2D(sea.astype(np.float32), -1, ring_k / ring_k.sum(), borderType=cv2.BORDER_CONSTANT)
        return cls(s, float(px_per_mm), x0, y0, origin_px, gain, on, bg, dvec, diff, n, rr, core_k, ring_k, core,
                   ring, ring_sea)

    @cached_property
    def diff_pad(self) -> np.ndarray:
        return np.pad(self.diff, self.n, constant_values=np.inf)     # off the window: not the ground

    def core_fill(self, values: np.ndarray, py: int, px: int) -> float:
        """The share of the core round ``py, px`` where ``values`` (a map of the field's shape) are at least half
        their median 1.6 mm round its middle: 1 for a token's whole disc, some 0.6 for a streak of a shade of the
        print 3 mm wide or a cut line crossing it."""
        n = self.n
        cy0, cx0 = max(py - n, 0), max(px - n, 0)
        patch = values[cy0:py + n + 1, cx0:px + n + 1]
        ky = slice(n - (py - cy0), n - (py - cy0) + patch.shape[0])
        kx = slice(n - (px - cx0), n - (px - cx0) + patch.shape[1])
        mid = float(np.median(patch[self.rr[ky, kx] <= 1.6 * self.s]))
        return float((patch[self.core_k[ky, kx] > 0] >= 0.5 * mid).mean())

    def mm(self, py: int, px: int) -> np.ndarray:
        """A field pixel's place on the mat (mm)."""
        return (np.array([px + self.x0, py + self.y0], np.float64) + 0.5) / self.s + np.asarray(self.origin_px) / (
            2 * self.s)

    def ring_calm(self, py: int, px: int) -> float:
        """The share of the ring that is the ground: differing less than DISC_HOT, or than DISC_HOT_SHARE of the
        core's difference."""
        n = self.n
        hot = max(DISC_HOT, DISC_HOT_SHARE * float(self.core[py, px]))
        d = self.diff_pad[py:py + 2 * n + 1, px:px + 2 * n + 1]
        return float((self.ring_k * (d < hot)).sum() / self.ring_k.sum())


def ground_grain(diff: np.ndarray) -> float:
    """The ground's own difference from its local median (the print's grain, the sensor's noise, the JPEG's), which
    every mean of the differences over the ground carries, a faint disc's ring as much as its core: the median over
    what was looked at (the tribes' boxes: the ground is most of them)."""
    return float(np.median(diff)) if diff.size else 0.0


def _median_near(img: np.ndarray, mask: np.ndarray, k: int, reach: int) -> np.ndarray:
    """``cv2.medianBlur(img, k)`` where it is used: on each box of ``mask`` grown by ``reach`` px (0 elsewhere). Each
    box's median is taken on the box grown by ``reach`` and half the window more (clipped to the image, where the
    whole image's median replicates its border too), so its values there are the whole image's: the boxes round the
    tribes are a small part of their bounding box (the whole table's median was 5 ms of a read)."""
    out = np.zeros_like(img)
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    h, w = mask.shape
    half = k // 2
    for bx, by, bw, bh, _ in stats[1:]:
        x0, y0, x1, y1 = max(bx - reach, 0), max(by - reach, 0), min(bx + bw + reach, w), min(by + bh + reach, h)
        tx0, ty0, tx1, ty1 = max(x0 - half, 0), max(y0 - half, 0), min(x1 + half, w), min(y1 + half, h)
        med = cv2.medianBlur(np.ascontiguousarray(img[ty0:ty1, tx0:tx1]), k)
        out[y0:y1, x0:x1] = med[y0 - ty0:y1 - ty0, x0 - tx0:x1 - tx0]
    return out
