"""Figures: player colour calibration and figure detection on recognised tiles.

Colours are compared in CIE Lab (OpenCV's 8-bit scaling), where red is one compact
cluster instead of two hue ends (no hue wrap-around), with lightness weighted down
because light and shading change it most.

Player colours are calibrated from a few figures laid in a row on the empty mat
(left to right in the order of the names given) and stored as a small JSON file::

    {"format": "tablehub-colours/1",
     "colours": [{"name": "red", "lab": [120.5, 178.2, 160.1], "spread": 6.3}, ...]}

Figures on tiles are found as the parts of a tile that differ from the tile's own
reference appearance (after a per-channel gain/offset fit, so light and colour cast
do not count), that are not mere shadow (darker in all channels alike), and whose
colour is near a calibrated player colour. A blob whose colour matches nobody is
reported with colour ``"unknown"`` (or dropped, as the caller chooses).
"""
from __future__ import annotations

import json
import logging
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

import cv2
import numpy as np

from tablehub.i18n import T, Tc  # what a phone and the console read (tablehub/locale/*/visionfiles.po)

from . import VisionError
from .colourcast import lab_to_bgr, toward_paint

log = logging.getLogger(__name__)

FORMAT = "tablehub-colours/1"
LIGHTNESS_WEIGHT = 0.5
"""Lightness differences count half as much as chroma differences."""

#: typical painted wooden figures under white light (BGR): a starting point before calibration
DEFAULT_COLOURS_BGR: dict[str, tuple[int, int, int]] = {
    "red": (38, 36, 196),
    "blue": (170, 80, 22),
    "green": (52, 140, 42),
    "yellow": (28, 196, 232),
    "black": (38, 36, 34),
    "purple": (120, 44, 110),
    "orange": (20, 118, 236),
}


class ColourError(VisionError):
    """A colour file or a calibration that cannot be used; one line naming what to fix."""


def bgr_to_lab(bgr: np.ndarray) -> np.ndarray:
    """Lab (float32, OpenCV 8-bit scaling) of an (..., 3) uint8 or float BGR array."""
    arr = np.asarray(bgr)
    if arr.dtype == np.uint8:
        flat = np.ascontiguousarray(arr).reshape(-1, 1, 3)     # already in range: no clip, no copy
    else:
        flat = np.clip(arr.reshape(-1, 1, 3), 0, 255).astype(np.uint8)
    return cv2.cvtColor(flat, cv2.COLOR_BGR2Lab).astype(np.float32).reshape(arr.shape)


def _weighted(lab: np.ndarray) -> np.ndarray:
    out = np.array(lab, np.float32, copy=True)
    out[..., 0] *= LIGHTNESS_WEIGHT
    return out


@dataclass(frozen=True)
class PlayerColour:
    name: str
    lab: tuple[float, float, float]
    spread: float = 8.0
    """Typical distance of this colour's figure pixels from ``lab`` (weighted Lab units)."""


@dataclass
class PlayerColours:
    """The colours in play, each a Lab centre and a spread; classifies pixels by nearest colour."""

    colours: list[PlayerColour]
    max_distance: float = 38.0
    """Pixels farther than this (weighted Lab) from every colour belong to nobody."""

    def __post_init__(self) -> None:
        if not self.colours:
            raise ColourError(T("colours: no player colours given"))
        names = [c.name for c in self.colours]
        if len(set(names)) != len(names):
            raise ColourError(T("colours: names must be distinct, got {names}", names=str(names)))
        self._centres = _weighted(np.array([c.lab for c in self.colours], np.float32))

    @property
    def names(self) -> list[str]:
        return [c.name for c in self.colours]

    @property
    def darkest(self) -> int:
        """Index of the darkest colour (least L): a figure's shaded side, a seam and a shadow read as it."""
        return int(np.argmin([c.lab[0] for c in self.colours]))

    @property
    def centres(self) -> np.ndarray:
        """The colours' Lab centres, weighted as :meth:`nearest` measures."""
        return self._centres

    @classmethod
    def defaults(cls, names: Iterable[str] | None = None) -> "PlayerColours":
        """Uncalibrated typical colours (``names``: a subset of :data:`DEFAULT_COLOURS_BGR`)."""
        chosen = list(names) if names is not None else ["red", "blue", "green", "yellow", "black"]
        unknown = [n for n in chosen if n not in DEFAULT_COLOURS_BGR]
        if unknown:
            raise ColourError(T("colours: no default for {names} (known: {known}); calibrate them from figures",
                                names=", ".join(unknown), known=", ".join(DEFAULT_COLOURS_BGR)))
        return cls([PlayerColour(n, tuple(float(v) for v in bgr_to_lab(np.array(DEFAULT_COLOURS_BGR[n]))))
                    for n in chosen])

    def nearest(self, lab: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Index of the nearest colour and the distance to it, for an (..., 3) Lab array."""
        w = np.asarray(_weighted(lab), np.float32)
        centres = np.asarray(self._centres, np.float32)
        # |w - c|^2 = |w|^2 - 2 w.c + |c|^2 for every colour at once (one small matrix product)
        shape = w.shape[:-1]
        wc = (w @ centres.T).reshape(-1, len(centres))
        w = w.reshape(-1, 3)
        cc = (centres * centres).sum(axis=-1)
        # the same float32 arithmetic as ``((w * w).sum(-1, keepdims=True) - 2 * wc + cc).argmin(-1)`` and its least
        # value, made colour by colour on whole planes (numpy reduces and broadcasts over a last axis of 3 or 5 values
        # several times slower; issue 14, CPU): |w|^2 added channel by channel in numpy's order, each colour's
        # distance, and the first least one kept (``argmin``'s first of equals: a later colour only when strictly
        # closer, and then its index is the largest so far)
        ww = w[..., 0] * w[..., 0]
        ww += w[..., 1] * w[..., 1]
        ww += w[..., 2] * w[..., 2]
        best = np.maximum(ww - 2.0 * wc[..., 0] + cc[0], 0.0)
        idx = np.zeros(ww.shape, np.min_scalar_type(len(centres)))
        for k in range(1, len(centres)):
            d2 = ww - 2.0 * wc[..., k]
            d2 += cc[k]
            np.maximum(d2, 0.0, out=d2)
            np.maximum(idx, (d2 < best).view(np.uint8) * idx.dtype.type(k), out=idx)
            np.minimum(best, d2, out=best)
        return idx.astype(np.intp).reshape(shape), np.sqrt(best).reshape(shape)

    # ------------------------------------------------------------------ storage
    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "max_distance": self.max_distance,
                "colours": [{"name": c.name, "lab": [round(v, 2) for v in c.lab], "spread": round(c.spread, 2)}
                            for c in self.colours]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], source: str = "colours") -> "PlayerColours":
        if not isinstance(data, Mapping) or data.get("format") != FORMAT:
            raise ColourError(T("{where}: expected a {format} colour file (made by 'tablehub enroll --colours')", where=str(source), format=repr(FORMAT)))
        items = data.get("colours")
        if not isinstance(items, list) or not items:
            raise ColourError(T("{where}: colours: missing or empty", where=str(source)))
        out = []
        for i, item in enumerate(items):
            try:
                lab = tuple(float(v) for v in item["lab"])
                if len(lab) != 3:
                    raise ValueError
                out.append(PlayerColour(str(item["name"]), lab, float(item.get("spread", 8.0))))  # type: ignore
            except (KeyError, TypeError, ValueError):
                raise ColourError(T("{where}: colours[{i}]: expected {fields}", where=str(source), i=i, fields="{name, lab: [L, a, b], spread}")) from None
        return cls(out, float(data.get("max_distance", 38.0)))

    def save(self, path: str | Path) -> Path:
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(json.dumps(self.to_dict(), indent=1) + "\n", encoding="utf-8")
        return p

    @classmethod
    def load(cls, path: str | Path) -> "PlayerColours":
        p = Path(path)
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except OSError as exc:
            raise ColourError(T("{path}: cannot read the {what} ({why})", path=str(p), what=Tc("file", "colour file"), why=exc.strerror or str(exc))) from None
        except json.JSONDecodeError as exc:
            raise ColourError(T("{source}: not valid JSON (line {line}, column {column}: {why})", source=str(p), line=exc.lineno, column=exc.colno, why=exc.msg)) from None
        return cls.from_dict(data, str(p))


# --------------------------------------------------------------------------- calibration


def background_lab(canvas_bgr: np.ndarray, rect_px: tuple[int, int, int, int] | None = None) -> np.ndarray:
    """Median Lab colour of the (mostly empty) mat in ``rect_px`` = (x, y, w, h) of the canvas."""
    img = canvas_bgr if rect_px is None else canvas_bgr[rect_px[1]:rect_px[1] + rect_px[3],
                                                        rect_px[0]:rect_px[0] + rect_px[2]]
    small = img[::2, ::2].reshape(-1, 3)
    return np.median(bgr_to_lab(small), axis=0)


def local_background_lab(canvas_bgr: np.ndarray, px_per_mm: float, reach_mm: float = 60.0) -> np.ndarray:
    """The mat's Lab colour around every pixel: the median over ``reach_mm`` (figures, 20 mm across, stand out of
    it; a dim corner or a lamp's gradient across the mat does not)."""
    h, w = canvas_bgr.shape[:2]
    f = max(1, int(px_per_mm * 2))                       # about 2 mm a pixel is fine enough for a background
    small = cv2.resize(canvas_bgr, (max(w // f, 1), max(h // f, 1)), interpolation=cv2.INTER_AREA)
    k = max(3, int(reach_mm * px_per_mm / f) | 1)
    med = cv2.medianBlur(small, min(k, 255))
    return bgr_to_lab(cv2.resize(med, (w, h), interpolation=cv2.INTER_LINEAR))


def find_blobs_on_mat(canvas_bgr: np.ndarray, background: np.ndarray, px_per_mm: float,
                      threshold: float = 22.0, min_mm2: float = 40.0, max_mm2: float = 900.0
                      ) -> list[tuple[float, float, np.ndarray]]:
    """Things on the bare mat: ``(x_px, y_px, pixel mask)`` per blob, left to right."""
    lab = bgr_to_lab(canvas_bgr)
    if background.ndim == 1:
        background = background.reshape(1, 1, 3)
    diff = np.linalg.norm(_weighted(lab) - _weighted(background), axis=2)
    mask = (cv2.GaussianBlur(diff, (0, 0), 1.0) > threshold).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, labels, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
    area_px = px_per_mm * px_per_mm
    out = []
    for i in range(1, n):
        area = stats[i, cv2.CC_STAT_AREA] / area_px
        if min_mm2 <= area <= max_mm2:
            out.append((float(cents[i][0]), float(cents[i][1]), labels == i))
    out.sort(key=lambda b: (b[0], b[1]))
    return out


def _merge_near(blobs: list[tuple[float, float, np.ndarray]], apart_px: float) -> list[tuple[float, float, np.ndarray]]:
    """Blobs whose centres lie within ``apart_px`` as one: a figure close to the mat's colour (yellow on an olive
    cloth) falls apart in two where its lit and shaded sides meet the mat's colour."""
    out: list[tuple[float, float, np.ndarray]] = []
    for x, y, m in blobs:
        for i, (ox, oy, om) in enumerate(out):
            if math.hypot(x - ox, y - oy) < apart_px:
                merged = om | m
                ys, xs = np.nonzero(merged)
                out[i] = (float(xs.mean()), float(ys.mean()), merged)
                break
        else:
            out.append((x, y, m))
    return out


CALIBRATION_THRESHOLDS = (22.0, 17.0, 13.0)
"""The bars (weighted Lab distance from the mat around it) a figure on the bare mat is looked for with at
colour calibration, the first that finds one blob per colour taken; the lower ones only when a higher one found
too few (a black figure on a dark cloth at dim light, 15-20 units from it: the bench's Neues Land ``hard``
enrolment at seed 2 found 4 of 5 and the whole run ended)."""


def calibrate_colours(canvas_bgr: np.ndarray, names: Sequence[str], px_per_mm: float,
                      background: np.ndarray | None = None,
                      rect_px: tuple[int, int, int, int] | None = None) -> PlayerColours:
    """Player colours from figures laid in a row on the empty mat, left to right in ``names`` order.

    ``rect_px`` limits the search to part of the canvas (x, y, w, h). The colour of a
    figure is the median of its core pixels (the blob eroded, which drops the shadow rim).
    """
    img = canvas_bgr if rect_px is None else canvas_bgr[rect_px[1]:rect_px[1] + rect_px[3],
                                                        rect_px[0]:rect_px[0] + rect_px[2]]
    # the mat's colour around each figure, not one colour for the whole mat: under a lamp to one side or with a
    # dim corner the far side of a bare mat differed from its median by more than a figure does
    bg = background if background is not None else local_background_lab(img, px_per_mm)
    # a figure whose colour lies near the mat's (black on a dark cloth under dim light: 15-20 weighted Lab units,
    # under the usual 22) is looked for again with lower bars, taking the first that finds one blob per colour
    for threshold in CALIBRATION_THRESHOLDS:
        blobs = _merge_near(find_blobs_on_mat(img, bg, px_per_mm, threshold=threshold), 12.0 * px_per_mm)
        if len(blobs) >= len(names):
            break
    if len(blobs) != len(names):
        raise ColourError(T("colour calibration: found {found} figures on the mat, expected {n} ({names}); lay one figure "
                            "of each colour in a row, apart, on the bare mat", found=len(blobs), n=len(names), names=", ".join(names)))
    lab = bgr_to_lab(img)
    colours = []
    for name, (_, _, mask) in zip(names, blobs):
        core = cv2.erode(mask.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
        pix = lab[core if core.sum() >= 10 else mask]
        centre = np.median(pix, axis=0)
        spread = float(np.median(np.linalg.norm(_weighted(pix) - _weighted(centre), axis=1)))
        colours.append(PlayerColour(str(name), tuple(float(v) for v in centre), max(spread, 3.0)))  # type: ignore
    return PlayerColours(colours)


# --------------------------------------------------------------------------- detection on tiles


@dataclass(frozen=True)
class FigureSeen:
    """A figure on the tile at cell (x, y): its colour, the region under it, where in the tile."""

    x: int
    y: int
    colour: str
    region: str | None
    u: float
    v: float
    """Position in the tile (fractions, x east / y south, the tile as it lies)."""
    confidence: float = 1.0
    area_mm2: float = 0.0
    on_twins: tuple[tuple[str, int, str | None], ...] = ()
    """Where the tile under it has hidden twins on which it stands on another region: (tile, rotation, region) on
    each. The photo cannot tell which: the region is a guess, for the phone to ask (``FigureReading._on_twins``)."""

    def to_dict(self) -> dict[str, Any]:
        out = {"x": self.x, "y": self.y, "colour": self.colour, "region": self.region,
               "u": round(self.u, 3), "v": round(self.v, 3), "confidence": round(self.confidence, 3)}
        if self.on_twins:
            out["on_twins"] = [{"tile": t, "rotation": r, "region": g} for t, r, g in self.on_twins]
        return out


def blurred_misfit(obs: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """The B+G+R misfit of ``obs`` against ``ref`` (float BGR, one size), blurred as the figure finder judges it."""
    return cv2.GaussianBlur(np.abs(obs - ref).sum(axis=2), (0, 0), 0.8)


def _known_median(resid: np.ndarray, known: np.ndarray | None) -> float:
    """The median of ``resid`` where a tile's reference is known (everywhere when none or all of it is unknown)."""
    return float(np.median(resid if known is None or not known.any() else resid[known]))


#: a shadow dims the art to no less than this share of it (alike in every channel): darker is a figure's paint
SHADOW_DARKEST = 0.33


@dataclass
class FigureFinder:
    """Finds figures on one recognised tile by comparing it with the tile's reference."""

    colours: PlayerColours
    residual_threshold: float = 40.0
    """Pixels differing from the (colour-corrected) reference by more than this (B+G+R) ..."""
    residual_factor: float = 4.0
    """... and by more than this many times the tile's median misfit may be a figure."""
    coloured_factor: float = 2.0
    """Pixels of a player colour that differ from the reference by more than this many times the median
    misfit (and :attr:`residual_threshold`) belong to a figure of that colour they touch: where the tile
    under a figure is much of the figure's colour (a yellow figure over orange roofs, after the gain fit)
    the figure's residual stays below the strict bound in places, and what was left of it was in pieces or
    a stub too small to count."""
    chroma_threshold: float = 15.0
    """Pixels whose colour (the a and b of Lab, lightness left out) differs from the (colour-corrected) reference's by
    more than this ..."""
    chroma_factor: float = 4.0
    """... and by more than this many times the tile's median colour misfit are as strong as those over the strict
    bound: a painted figure differs from the art under it in colour more than in brightness, while noise, blur and
    JPEG at ``hard`` change brightness most (a yellow figure on a Suedsee sand island: 23-36 units of colour against a
    median of 5, but a B+G+R misfit of 70-99 against a bound of 80, and never seen)."""
    min_strong_px: int = 9
    """A blob needs this many pixels over the strict bound (:attr:`residual_factor`, and not shadow unless
    of a player colour): a patch of a tile merely near a player colour is no figure."""
    grow_share: float = 0.5
    """Only a blob with this share of its strong pixels of one player colour takes in the weak pixels (see
    :attr:`coloured_factor`) of that colour."""
    colour_distance: float = 26.0
    """... and must lie this near (weighted Lab) to a player colour."""
    min_area_mm2: float = 70.0
    max_area_mm2: float = 900.0
    min_coloured_mm2: float = 25.0
    min_coloured_share: float = 0.2
    """A blob needs this much area (and share of itself) in a player colour to be a figure ..."""
    min_colour_share: float = 0.6
    """... and this share of the coloured pixels of its core (the blob less its rim, where the figure blends
    with the tile under it) agreeing on one colour ..."""
    shade_lead: float = 1.4
    """... not counting those of the darkest colour when the winner has this many times as many (a red
    figure's shaded side reads black; a black figure with a yellow sheen stays unsure)."""
    min_core_px: int = 6
    """The whole blob votes when its core has fewer coloured pixels than this."""
    split_share: float = 0.15
    """A blob in which two colours each have this share of the votes (and twice :attr:`min_core_px`), their voters
    :attr:`split_apart_mm` apart or the blob larger than one figure, is two figures (a green figure beside a red
    one under a warm light: 15 of 73 votes)."""
    split_apart_mm: float = 7.0
    """Two figures' feet (8-10 mm deep) stand at least this far apart."""
    one_figure_mm2: float = 320.0
    """One standing figure's picture is smaller than this (its 16 x 8 mm foot and its lean, blurred: 130-290 mm^2 on
    the benchmark): in a larger blob the darkest colour splits off too (else it is a figure's shaded side)."""
    two_figures_mm2: float = 340.0
    """A blob of one colour larger than this is looked at as two figures' pictures joined (two figures of one colour
    either side of a seam, a few millimetres apart: one was lost). One figure's picture is 130-290 mm^2 on the
    benchmark (:attr:`one_figure_mm2`), two joined 345-590 mm^2 (issue 14) ..."""
    one_figure_min_mm2: float = 110.0
    """... and split in two (:func:`_two_figures`) when each half is at least this large (the smallest figure's
    picture, less its blurred rim) ..."""
    two_apart_mm: float = 14.0
    """... and the halves' middles lie this far apart: two figures' pictures joined, 16-22 mm (their bodies are 16 mm
    wide at the arms); the halves of one figure's picture (16 mm by 8, leaning up to about 9 mm: 25 mm long at most)
    about 12 mm."""
    one_figure_long_mm: float = 27.0
    """One standing figure's picture is no longer than this (its extent along its long axis): its arms 16 mm across and
    the lean of its 17 mm height, 9 mm at the bench's widest (350 mm from the nadir of a camera 680 mm up), and a
    pixel of blur; the bench's figures 15-25 mm. A blob of one colour longer than this that holds two of the smallest
    figures' pictures (twice :attr:`one_figure_min_mm2`) is looked at as two figures' (:func:`_two_figures`) even
    under :attr:`two_figures_mm2`: two black figures side by side over a seam, 19 mm apart, made one blob of 306 mm^2
    and 31 mm, and one was lost (Neues Land bench sim/default seed 5 board 5). Either rule's halves are kept only where
    each reads the blob's colour, or the darkest, by itself (session nlfig8: a strip of tile a pixel off its reference
    joined to a blue figure, 338 mm^2 and 30.8 mm, was split and its half read yellow)."""

    paint_apart: bool = True
    """A blob of one colour that holds two of the smallest figures' pictures, whose pixels of that colour lie in two
    parts each at least :attr:`one_paint_min_mm2` with none of it between, is two figures, however near their middles
    lie (:func:`_two_painted`); False: the halves alone (issue 14's session nlfig10)."""
    one_paint_min_mm2: float = 90.0
    """One figure's paint (the pixels of its colour in its picture) is at least this large: the smallest figure's
    picture less its blurred rim (:attr:`one_figure_min_mm2`, 110 mm^2), less what a second figure standing against it
    hides of it (the two yellows of s3 sim/default board 11: 105 and 119 mm^2 of paint; a fifth below the smaller)."""

    dark_paint_votes: bool = True
    """A blob read as one figure of a colour other than the darkest is of the darkest colour where that colour,
    counting its pixels in the blob's core (the blob less its rim) that :func:`shading` took for shadow, outnumbers the
    winner by :attr:`shade_lead` (:meth:`_dark_paint`). Black paint on lighter art dims it by much the same factor in
    every channel, as a shadow does, so only a black figure's few pixels of another hue voted: its lit top, tinted by
    the highlight and the cast toward the blue next to black. Under a magenta cast 5 blue votes against 3 black named a
    black figure blue whose picture read black in 31 of 44 pixels (Neues Land bench s4 field/default board 10). The
    same lead as a shaded side needs the other way; a coloured figure's shadow beside it is no figure of its own
    (the figure hides most of it, and what joins its blob lies mostly on the rim). False: as before (issue 14's
    session nlfig11)."""
    dark_paint_leading: bool = True
    """... and a blob the darkest colour leads already, by too little a share (7 black votes to 6 blue): its core's
    pixels taken for shadow count for it as well, against the colour next to it (:meth:`_dark_paint`). A black figure
    on Südsee's pale sea under the field camera's cast dims the sea alike in every channel: 35 of its 56 pixels were
    taken for shadow, and the rest, its lit top and rim, voted 7 black to 6 blue (the dimmed sea's hue): a share of
    0.54, under :attr:`min_colour_share`, and the figure was lost (bench ``field/hard`` seed 4 board 0). Only where
    another colour led were those pixels counted. False: as before (issue 14's session suedfig8)."""

    figure_width_mm: float = 16.0
    """A standing figure's width at its arms, its widest: across its lean (the line from the camera's nadir) its
    picture is no wider, plus its blurred rim, however far from the nadir it stands (:meth:`_two_apart`)."""

    hug_mm: float = 4.5
    """A blob that reaches over the bare mat (no tile read there) and lies wholly within this distance (mm) of the
    tiles' outline (the border between the tiles read and the bare mat) hugs it: a tile's edge against the dark mat,
    not a figure. A figure stands on a tile, its foot 8 mm deep: its picture reaches further from the outline, into
    the tile where it stands or over the mat where it leans. `tests/vision/test_photoscore.py`'s table 47, once the
    grid was fitted to the tiles (``Recognizer.fit_found_grid``): strips 7-9 x 2-3 pixels at the figures' 1.8 mm a
    pixel, read as black figures of 74-105 mm^2, lay 2 pixels (3.6 mm) from the outline at most; a black figure at a
    tile's edge on `bench vision`'s Neues Land hard boards (105 mm^2, 9 x 4 pixels, 10-20 % over the mat) reached 4-5
    pixels (7.2-9 mm) into its tile. 0: no such check."""
    report_unknown: bool = False
    """Report figure-sized blobs of no player's colour as colour "unknown" (else they are ignored)."""
    toward_factor: float = 4.0
    """Pixels of a player colour (not the darkest) that moved from the art toward that colour's paint by more than this
    many times the noise along that line are as strong as those over the bars above
    (:func:`vision.colourcast.toward_paint`: a yellow figure on a Südsee sand island); 0: not looked for."""

    dimmed_rule: bool = True
    """A blob that is mostly a dimming of the art under it (fewer of its pixels of a player colour than a figure needs
    are not shadow-like: darker than the art by one factor in every channel) and smaller than
    :attr:`one_figure_min_mm2` is no figure: only something dark dims the art alike in every channel, a black figure or
    a shadow, and a figure's picture is never that small (its foot alone is 16 x 8 mm), while a figure's shadow beside
    it is (70-100 mm^2 where the figure does not hide it). The dimmed art reads as whatever paint lies near it: on
    Südsee's sea under the field camera's light, the dark blue (a red figure's shadow over the sea was a blue figure of
    88 mm^2 with 92 % of its pixels shadow-like, a yellow figure's 74 mm^2 with 94 %). False: as before."""

    dark_body: bool = True
    """A blob of another colour touched by pixels of the darkest colour darker than any shadow (a figure is darker than
    :func:`shading`'s 0.33 of the art) is two figures where those pixels and the shadow-like ones joined to them outside
    the blob (dimmed alike in every channel, over the bars) make a figure's picture (:attr:`one_figure_min_mm2`) and
    the two together two figures' area (:attr:`one_figure_mm2`) (:meth:`_dark_body`). Black paint on pale art of no hue
    dims it alike in every channel, as a shadow does: a black figure touching a red one on a pale tile under the field
    camera's magenta cast had its upper body (the art at 0.33-0.55, blurred thin) left out as shadow, 9 of its pixels
    joined the red figure's blob (232 mm^2) and it was lost (Neues Land bench field/hard seed 4 board 1). A figure's
    shadow beside it is the art dimmed, 70-105 mm^2 where the figure does not hide it, and joins no body of the
    darkest colour darker than a shadow but the figure's own shaded side. Only where the blob holds less of that
    black than a figure's colour (:attr:`min_coloured_mm2`; more, and the colours part it: a black figure of 168 mm^2
    darker than a shadow in a blob of 597 mm^2 was lost when parted this way, s6 field/hard board 7). False: as before
    (issue 14, session nlboards5)."""

    def _dark_body(self, blob: np.ndarray, loose: np.ndarray, black: np.ndarray, px_area: float
                   ) -> np.ndarray | None:
        """The pixels of a black figure touching the figure of ``blob`` (:attr:`dark_body`): ``black`` (its pixels of
        the darkest colour darker than a shadow) that touch the blob, and the ``loose`` ones (shadow-like, over the
        bars, in no blob) joined to them. None where the blob holds none of ``black``, or a figure's colour of it
        (:attr:`min_coloured_mm2`: the colours part it, :meth:`find`); and None unless those pixels hold a figure's
        colour, a figure's picture (:attr:`one_figure_min_mm2`), and, with the blob's rest (a figure's picture too),
        two figures' area."""
        core = blob & black
        if not self.dark_body or not core.any() or np.count_nonzero(core) * px_area >= self.min_coloured_mm2:
            return None         # none, or enough for the colours to part the blob themselves
        n, labels = cv2.connectedComponents((black | loose).astype(np.uint8), connectivity=8)
        body = np.isin(labels, np.unique(labels[core])) & (labels > 0)
        rest = blob & ~body
        if (np.count_nonzero(body & black) * px_area < self.min_coloured_mm2
                or np.count_nonzero(body) * px_area < self.one_figure_min_mm2
                or np.count_nonzero(rest) * px_area < self.one_figure_min_mm2
                or np.count_nonzero(blob | body) * px_area <= self.one_figure_mm2):
            return None
        return body

    def find(self, observed: np.ndarray, reference: np.ndarray, mm_per_px: float,
             footprints: list[np.ndarray] | None = None, fit: bool = True,
             nearest: tuple[np.ndarray, np.ndarray] | None = None,
             seams: np.ndarray | None = None,
             known: np.ndarray | None = None,
             pictures: list[np.ndarray] | None = None,
             nadir: tuple[float, ...] | None = None) -> list[tuple[str, float, float, float, float]]:
        """Figures in ``observed`` (BGR tile, or a tile and its surroundings, aligned with ``reference``, same
        size).

        Returns ``(colour, u, v, confidence, area_mm2)`` per figure, u/v in fractions of the image's width and
        height (the middle of the figure's picture). With ``footprints`` a list, each figure's pixels (a boolean
        mask like ``observed``) are appended to it. ``fit=False``: ``reference`` is already in the light of
        ``observed`` (no gain is fitted). ``nearest``: the nearest player colour and its distance per pixel of
        ``observed`` (:meth:`PlayerColours.nearest` of its Lab), when already known. ``nadir``: the camera's nadir in
        ``observed``'s pixels (x, y; pixel centres at integers), when known: a figure's picture leans away from it,
        so two parts of a blob lying far apart across that direction are two figures (:meth:`_two_apart`).
        """
        obs = observed.astype(np.float32)
        fitted = _fit_gain(obs, reference.astype(np.float32)) if fit else reference.astype(np.float32)
        resid = blurred_misfit(obs, fitted)
        median = _known_median(resid, known)
        cand = resid > max(self.residual_threshold, self.residual_factor * median)
        cand |= self._colour_change(obs, fitted, known)
        idx, dist = nearest if nearest is not None else self.colours.nearest(bgr_to_lab(observed))
        cand |= self._toward_paint(obs, fitted, idx, dist, known)
        if np.count_nonzero(cand) < self.min_strong_px:
            return []           # no blob can hold min_strong_px strong pixels (they are among these): none found
        mean_ratio, grey = shading(obs, fitted)
        shadow = grey & (mean_ratio > SHADOW_DARKEST) & (mean_ratio < 0.9)   # a figure is darker still, or not grey
        coloured = dist < self.colour_distance
        px_area = mm_per_px * mm_per_px
        rows, cols = observed.shape[:2]
        weak = coloured & (resid > max(self.residual_threshold, self.coloured_factor * median))
        if seams is not None:
            weak &= ~seams
        # over the bare mat (not ``known``) a shadow is no figure even where it reads as a player's colour: a tile's
        # or a figure's shadow on a dark cloth reads black, and with the mat as its reference was a phantom there
        shadow_ok = coloured if known is None or known.all() else coloured & known
        strong = cand & (~shadow | shadow_ok)
        if np.count_nonzero(strong) < self.min_strong_px:
            return []
        m = _blobs(strong, weak, idx, coloured, len(self.colours.colours), self.min_strong_px,
                   self.grow_share)
        loose = cand & shadow & (m == 0)          # shadow-like pixels over the bars in no blob (:meth:`_dark_body`)
        black = coloured & (idx == self.colours.darkest) & (mean_ratio <= SHADOW_DARKEST)     # darker than a shadow
        n, labels, stats, _ = cv2.connectedComponentsWithStats(m, connectivity=8)
        darkest = self.colours.darkest
        out = []
        square = np.ones((3, 3), np.uint8)
        bare = None if known is None or known.all() else ~known
        outline: list[np.ndarray] = []      # each pixel's distance from the tiles' outline, made when first needed

        def enough(blob: np.ndarray, col: np.ndarray) -> bool:
            # whether a blob's pixels of a player colour (``col``) are enough to read its colour from
            return col.sum() * px_area >= self.min_coloured_mm2 and col.sum() >= self.min_coloured_share * blob.sum()

        def painted(blob: np.ndarray) -> tuple[np.ndarray, bool]:
            # the blob's pixels of a player colour, and whether they are mostly dimmed alike in every channel (a
            # black figure on a light tile is darker than the tile by much the same factor in every channel, as a
            # shadow is: most of it reads as shadow, and only its few other pixels were left)
            col = blob & coloured & ~shadow
            if not enough(blob, col):
                return blob & coloured, True
            return col, False

        def votes(blob: np.ndarray, col: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            # the voters for the blob's colour and their count per colour: its core (at its rim the figure's edge
            # blends with the tile under it, blue on a yellow-green plain reads green, and its dark side reads black)
            core = cv2.erode(blob.astype(np.uint8), square).astype(bool) & col
            vote = core if core.sum() >= self.min_core_px else col
            vote = self._paint_votes(vote, idx, obs, fitted, known)
            return vote, np.bincount(idx[vote], minlength=len(self.colours.colours))

        def reads(blob: np.ndarray) -> int | None:
            # the colour a blob reads as by itself (its core's vote), None where too little of it has one
            col = painted(blob)[0]
            return int(votes(blob, col)[1].argmax()) if enough(blob, col) else None

        def judge(blob: np.ndarray, split: bool, halves: bool = True) -> None:
            # split: the colours may part the blob (two figures of two colours); halves: it may be two
            # figures of one colour (:meth:`_maybe_two`), also each part the colours left
            area = blob.sum() * px_area
            if not self.min_area_mm2 <= area <= self.max_area_mm2:
                return
            if self.hug_mm and bare is not None and (blob & bare).any():
                if not outline:
                    outline.append(_from_outline(known))
                if float(outline[0][blob].max()) * mm_per_px < self.hug_mm:
                    return      # it hugs the tiles' outline (a tile's edge against the dark mat): no figure's body
            if split:
                body = self._dark_body(blob, loose, black, px_area)
                if body is not None and reads(blob & ~body) not in (None, darkest):
                    judge(blob & ~body, False)
                    judge(body, False)
                    return
            col, dimmed = painted(blob)
            if dimmed and self.dimmed_rule and area < self.one_figure_min_mm2:
                return      # a dimming of the art smaller than any figure's picture: a figure's shadow beside it
            ys, xs = np.nonzero(col if col.sum() >= 10 else blob)
            u, v = (xs.mean() + 0.5) / cols, (ys.mean() + 0.5) / rows
            if enough(blob, col):
                vote, counts = votes(blob, col)
                best = int(counts.argmax())
                if split:
                    # two figures side by side make one blob (more so around a tile, where no seam parts them): each
                    # colour with a good part of the votes is a figure of its own, its pixels those nearest its
                    # voters, when the voters of two colours lie as far apart as two figures' feet (a figure's rim
                    # on the tile or its shaded side lies within it); the darkest colour (a figure's shaded side)
                    # only where it cannot be one (:meth:`_own_figure`)
                    many = [k for k in range(len(counts)) if counts[k] >= self.min_core_px
                            and counts[k] * px_area >= self.min_coloured_mm2
                            and counts[k] >= self.split_share * vote.sum()]
                    where = [np.argwhere(vote & (idx == k)).mean(axis=0)[::-1] for k in many]     # x, y
                    if darkest in many and not self._own_figure(darkest, counts, area, many, where, mm_per_px,
                                                                nadir):
                        where.pop(many.index(darkest))
                        many.remove(darkest)
                    apart = max((float(np.linalg.norm(a - b)) for j, a in enumerate(where) for b in where[j + 1:]),
                                default=0.0) * mm_per_px
                    if len(many) >= 2 and (apart >= self.split_apart_mm or area > self.one_figure_mm2):
                        far = np.stack([cv2.distanceTransform((~(vote & (idx == k))).astype(np.uint8), cv2.DIST_L2, 3)
                                        for k in many])
                        near = far.argmin(axis=0)
                        for j in range(len(many)):
                            part = cv2.morphologyEx((blob & (near == j)).astype(np.uint8), cv2.MORPH_OPEN, square)
                            judge(part.astype(bool), False)
                        return
                if halves and area >= 2 * self.one_figure_min_mm2:
                    parts = None
                    if self._maybe_two(blob, area, mm_per_px):
                        parts = _two_figures(blob, mm_per_px, self.one_figure_min_mm2, self.two_apart_mm,
                                             lambda a, b: self._two_apart(a, b, nadir, mm_per_px))
                    if parts is None and self.paint_apart:
                        parts = _two_painted(blob, blob & coloured & (idx == best), mm_per_px, self.one_paint_min_mm2)
                    # two figures of the blob's colour: each half reads it by itself, or the darkest colour (a
                    # figure beside one of it, which the colours above hold back: it may be a shaded side). A half
                    # of another colour is no figure: the colours found none of their own there (a strip of tile
                    # a pixel off its reference, joined to a figure, read as its art's colour)
                    if parts is not None and all(reads(p) in (best, darkest) for p in parts):
                        for part in parts:
                            judge(part, False, False)
                        return
                if self.dark_paint_votes and (best != darkest or self.dark_paint_leading):
                    vote, counts, best = self._dark_paint(blob, vote, counts, best, coloured & shadow & (idx == darkest))
                # a figure's shaded side reads as the darkest colour: no vote against a colour that clearly
                # outnumbers it
                shade = best != darkest and counts[best] >= self.shade_lead * counts[darkest]
                share = counts[best] / max(vote.sum() - (counts[darkest] if shade else 0), 1)
                if share >= self.min_colour_share:
                    conf = float(share * min(1.0, col.sum() * px_area / (2 * self.min_coloured_mm2)))
                    out.append((self.colours.colours[best].name, float(u), float(v), conf, float(area)))
                    if footprints is not None:
                        foot = self._footprint(col if col.sum() >= 10 else blob, best, obs, fitted, known)
                        footprints.append(foot | self._shaded_side(blob, foot, best, obs, fitted, strong, known))
                    if pictures is not None:
                        pictures.append(blob)
                    return
            if self.report_unknown and area >= 1.5 * self.min_area_mm2:
                out.append(("unknown", float(u), float(v), 0.0, float(area)))
                if footprints is not None:
                    footprints.append(blob)
                if pictures is not None:
                    pictures.append(blob)

        for i in range(1, n):
            if self.min_area_mm2 <= stats[i, cv2.CC_STAT_AREA] * px_area <= self.max_area_mm2:
                judge(labels == i, True)
        return out


    paint_margin: float = 2.0
    """A pixel of a figure of the darkest colour is its shadow on the art, not its paint, where the art dimmed (one
    factor in every channel) explains it better than the paint dimmed by this many times the frame's noise (sd per
    channel, :func:`dimmed_art`); 0: not looked at (:meth:`_footprint`)."""

    shadow_every_colour: bool = True
    """Leave the shadow on the art out of every colour's footprint (:meth:`_footprint`), not only the darkest's: the
    footprint is the blob's coloured pixels of every colour, and a red figure's shadow over Südsee's sea toward the
    camera's nadir (the sea dimmed, reading black, not alike in every channel under the noise) stretched its near end
    and put its base 3.4 mm toward the nadir, on the next region (bench field/hard seed 2 board 4). False: the darkest
    colour's only (before issue 14's session suedfig3)."""

    def _footprint(self, foot: np.ndarray, colour: int, obs: np.ndarray, fitted: np.ndarray,
                   known: np.ndarray | None) -> np.ndarray:
        """A figure's pixels where it stands is read from (:func:`vision.standing.standing_point`, its end nearest the
        camera's nadir): ``foot`` (its blob's coloured pixels, ``colour`` its colour, less those dimmed alike in every
        channel, :func:`shading`), less its shadow on the art told apart by hue (:func:`dimmed_art` against its own
        colour's paint, :attr:`paint_margin`; :attr:`shadow_every_colour`), unless fewer than 10 pixels would be left.

        Every shadow reads toward the darkest colour. On dark art with a hue (the sea, a forest) under strong noise a
        figure's shadow fails the same-factor test (the ratio of dark pixels is mostly noise) and reads black: joined
        to a black figure's picture on the side toward the nadir it stretched the picture's near end, and put the
        base toward the nadir (issue 14, Südsee ``hard``: black figures' bases 2-3 mm nearer the nadir than other
        colours' on average, 0.4-1.6 mm from their tile's edge put on the next tile). A shadow is the art dimmed: it
        keeps the art's hue; black paint has none wherever it stands. Where the art has no hue either, the two cannot
        be told apart this way and the pixel stays."""
        if (not self.paint_margin or not foot.any()
                or (colour != self.colours.darkest and not self.shadow_every_colour)):
            return foot
        paint = lab_to_bgr([self.colours.colours[colour].lab])[0]
        art = dimmed_art(obs[foot], fitted[foot], paint, self.paint_margin * _noise_sd(obs, fitted, known))
        if not art.any():
            return foot
        out = foot.copy()
        out[foot] = ~art
        return out if out.sum() >= 10 else foot

    shaded_side: bool = True
    """A figure's footprint (where it stands is read from) takes in its paint's shaded side (:meth:`_shaded_side`);
    False: as before (issue 14's session nlfig10)."""

    def _shaded_side(self, blob: np.ndarray, foot: np.ndarray, colour: int, obs: np.ndarray, fitted: np.ndarray,
                     strong: np.ndarray, known: np.ndarray | None) -> np.ndarray:
        """The pixels of a figure's picture that its ``foot`` (:meth:`_footprint`) left out, or that its ``blob`` lost
        at its rim (one pixel around it, of the ``strong`` ones), which its paint (``colour``, not the darkest) dimmed
        explains better than the art under it dimmed does, by :attr:`paint_margin` times the frame's noise
        (:func:`paint_or_art`): its own shaded side, the paint in its own shade.

        The shaded side of a painted figure is darker than the art around it by much the same factor in every channel
        where the paint's channels stand as the art's do (a green figure on a beige plain: ratios 0.28, 0.54, 0.28 are
        "grey" by :func:`shading`'s test, within 0.12 of their mean), and where it reads more than
        :attr:`colour_distance` from its colour it is no weak pixel either, so the blob's opening cuts it off. That
        side faces away from the light, and where it faces the camera's nadir it is the picture's near end, the foot's
        side: left out, the base came too far from the nadir, across a seam onto the next tile (Neues Land bench s5
        sim/hard full board: a green figure, found right with it; s6 sim/hard board 6: a green figure 3.3 mm inside its
        tile, its base 2.8 mm out along the lean, 2.0 with it, still across). A shadow keeps the art's hue, the shaded
        paint keeps the paint's. Black paint has no hue to tell it by: not for the darkest colour."""
        if not self.shaded_side or colour == self.colours.darkest or not self.paint_margin:
            return np.zeros_like(foot)
        square = np.ones((3, 3), np.uint8)
        rim = cv2.dilate(blob.astype(np.uint8), square).astype(bool) & ~blob & strong
        ask = (blob & ~foot) | rim
        if not ask.any():
            return ask
        paint = lab_to_bgr([self.colours.colours[colour].lab])[0]
        out = np.zeros_like(foot)
        out[ask] = paint_or_art(obs[ask], fitted[ask], paint, self.paint_margin * _noise_sd(obs, fitted, known))[0]
        return out

    dimmed_votes: bool = True
    """A pixel of a blob's core votes for the colour it reads as only where that colour's paint explains it at least
    as well as the art under it dimmed does (:meth:`_paint_votes`); False: every core pixel votes (before issue 14's
    session suedfig3)."""

    dark_votes_alike: bool = True
    """In a blob with votes of the darkest colour, the votes of a colour *none* of which its paint explains better
    than the art under it dimmed, by :attr:`paint_margin` times the frame's noise, are dropped (:meth:`_paint_votes`):
    that colour is the art in a black figure's shadow and rim. On Südsee's sea under the field camera's light the dark
    blue paint is the sea dimmed: a black figure there was read as blue (29 blue votes to 19 black), lost (10 to 12: a
    share of 0.55) or split into a black figure and a blue phantom (20 to 24), and none of those blue votes was clear of
    the dimmed sea, while a blue figure on that sea, with 3 black votes of its shaded side, had 4 of its 15 clear
    (bench ``--legal`` field/hard seed 4 boards 0, 6, 5; random field/hard seed 1 board 9; issue 14, session
    suedfig10). False: as before."""

    def _paint_votes(self, vote: np.ndarray, idx: np.ndarray, obs: np.ndarray, fitted: np.ndarray,
                     known: np.ndarray | None = None) -> np.ndarray:
        """``vote`` (a blob's voting pixels) less those that the art under them dimmed by one factor explains better
        than the paint of the colour they read as (:func:`dimmed_art`): the art in a figure's shadow, or a figure's rim
        blended with the art, which read as whatever paint lies near the dimmed art. On Südsee's sea under the field
        camera's light the dark blue paint is that sea dimmed to 0.55 (its hue to a few units): a black figure's shadow
        and rim there read blue, its votes split between black and blue (17 to 19: under :attr:`min_colour_share`; 45 to
        24: the blue part split off as a figure of its own), and it was lost (bench field/hard seed 4). Its black paint
        has a hue of its own that the dimmed sea does not fit. The darkest colour's votes are not asked (on grey art a
        black figure is the art dimmed). A blue figure on that sea keeps about half its votes (its paint and the dimmed
        sea fit it alike); beside black votes, see :attr:`dark_votes_alike`. When fewer than :attr:`min_core_px` pixels
        would be left, all vote."""
        if not self.dimmed_votes:
            return vote
        ask = vote & (idx != self.colours.darkest)
        if not ask.any():
            return vote
        paints = lab_to_bgr([c.lab for c in self.colours.colours])
        art = dimmed_art(obs[ask], fitted[ask], paints[idx[ask]], 0.0)
        if self.dark_votes_alike and (vote & (idx == self.colours.darkest)).any():
            # beside the darkest colour's votes (a black figure), a colour none of whose votes its paint explains
            # better than the art dimmed, by the noise, is that art in the figure's shadow and rim
            alike = dimmed_art(obs[ask], fitted[ask], paints[idx[ask]],
                               -self.paint_margin * _noise_sd(obs, fitted, known))
            for k in np.unique(idx[ask]):
                mine = idx[ask] == k
                if alike[mine].all():
                    art[mine] = True
        out = vote.copy()
        out[ask] = ~art
        return out if np.count_nonzero(out) >= self.min_core_px else vote

    def _dark_paint(self, blob: np.ndarray, vote: np.ndarray, counts: np.ndarray, best: int, dark: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray, int]:
        """A blob's votes (``vote``, ``counts``, the winner ``best``, not the darkest colour), with the pixels of its
        core (the blob less its rim) of the darkest colour that :func:`shading` took for shadow (``dark``) added where
        with them the darkest colour outnumbers ``best`` by :attr:`shade_lead`: the blob is a figure of the darkest
        colour, ``best`` its lit top (:attr:`dark_paint_votes`). ``best`` the darkest colour itself: against the colour
        with the most votes after it (:attr:`dark_paint_leading`). Else as they were."""
        square = np.ones((3, 3), np.uint8)
        more = cv2.erode(blob.astype(np.uint8), square).astype(bool) & dark & ~vote
        darkest = self.colours.darkest
        rival = best
        if best == darkest:
            rest = counts.copy()
            rest[darkest] = -1
            rival = int(rest.argmax())
        if counts[darkest] + np.count_nonzero(more) < self.shade_lead * counts[rival]:
            return vote, counts, best
        counts = counts.copy()
        counts[darkest] += np.count_nonzero(more)
        return vote | more, counts, darkest

    def _maybe_two(self, blob: np.ndarray, area: float, mm_per_px: float) -> bool:
        """Whether a blob of one colour (``area`` mm^2) may be two figures' pictures joined: larger than
        :attr:`two_figures_mm2`, or holding two of the smallest pictures and longer than one figure's picture can be
        (:attr:`one_figure_long_mm`)."""
        if area > self.two_figures_mm2:
            return True
        if area < 2 * self.one_figure_min_mm2:
            return False
        return _length_px(blob) * mm_per_px > self.one_figure_long_mm

    def _own_figure(self, darkest: int, counts: np.ndarray, area: float, many: list[int], where: list[np.ndarray],
                    mm_per_px: float, nadir: tuple[float, ...] | None = None) -> bool:
        """Whether the darkest colour's votes in a blob of ``area`` mm2 (``counts``: the core's pixels per colour;
        ``many``: the colours with enough of them, ``where`` their voters' middles, pixels) are a figure of its own
        beside another, not a figure's shaded side (which reads as the darkest colour): in a blob larger than one
        figure's picture (:attr:`one_figure_mm2`); where it outnumbers every other colour (a shaded side, the lower body
        the lean shows, is never more of its figure than the lit colour: a figure whose shaded side outnumbered it was
        lost anyway, its colour short of :attr:`min_colour_share`); or where its voters lie as far from every other
        colour's as two figures' pictures' middles (:meth:`_two_apart`; a shaded side, its lower body, lies within its
        figure's picture toward the nadir, whose halves lie about 12 mm apart along its lean and 9 mm across it). A
        black figure touching a green one, their bases 6 mm apart, was one blob of 225 mm2 with 14 black and 11 green
        votes, and both were lost (Neues Land bench sim/default seed 2 board 2); a black one touching a
        yellow one, 278 mm2, 9 black votes 14.6 mm from 15 yellow ones, was read as one yellow figure (field/default
        seed 4 board 7). (Any colour's voters also need what any figure needs of its colour, :attr:`min_coloured_mm2`:
        twice :attr:`min_core_px` pixels was 42 mm2 at the figures' 1.9 mm a pixel, a third of a figure's top, and a
        green figure beside a yellow one, half its picture at the blob's rim, with 28 mm2 of core was lost: field/default
        seed 3 board 11.)"""
        if area > self.one_figure_mm2 or counts[darkest] >= counts.max():
            return True
        mine = where[many.index(darkest)]
        others = [w for k, w in zip(many, where) if k != darkest]
        return bool(others) and all(self._two_apart(mine, w, nadir, mm_per_px) for w in others)

    def _two_apart(self, a: np.ndarray, b: np.ndarray, nadir: tuple[float, ...] | None, mm_per_px: float) -> bool:
        """Whether two parts of a blob whose middles lie at ``a`` and ``b`` (x, y pixels: its 2-means halves, a
        colour's voters and another's) are two figures' pictures, not one's: their middles lie :attr:`two_apart_mm`
        apart or more (one figure's halves lie 12 mm apart along its lean at the bench's widest), or, with the
        camera's ``nadir`` (see :meth:`find`), farther apart *across* the lean than one figure's can: a figure's
        picture is its foot swept away from the nadir, never wider across that line than its arms
        (:attr:`figure_width_mm`), so the middles of two parts of it lie at most half that and a pixel (its blurred
        rim) apart across it. Along the lean the nadir tells nothing more: the lean, the lower body and the shadow
        make a single picture's length uncertain (on the Neues Land bench single figures' halves lay 10-10.5 mm apart
        along a lean of 3-6 mm, where two figures' halves lay 10.4 and 11 mm apart), while across it single figures'
        halves lay 7.7-9.2 mm apart and two figures' 10.1-12.7 mm (s3 field/default b8: two yellows; s8 sim/default
        b0: a black beside a yellow, held back as its shaded side)."""
        delta = np.asarray(b, np.float64) - np.asarray(a, np.float64)
        apart = float(np.linalg.norm(delta)) * mm_per_px
        if apart >= self.two_apart_mm:
            return True
        if nadir is None:
            return False
        lean = np.asarray(a, np.float64) + delta / 2 - np.asarray(nadir[:2], np.float64)
        r = float(np.linalg.norm(lean))
        if r < 1e-9:
            return False       # under the lens a figure does not lean: no direction is across it
        across = abs(float(delta[0] * lean[1] - delta[1] * lean[0])) / r * mm_per_px
        return across >= self.figure_width_mm / 2 + mm_per_px

    def strict_bar(self, resid: np.ndarray, known: np.ndarray | None = None) -> float:
        """The strict bar on a window's blurred B+G+R misfit (:func:`blurred_misfit`): :attr:`residual_threshold`, or
        :attr:`residual_factor` times the median misfit where a tile's reference is known, whichever is higher."""
        return max(self.residual_threshold, self.residual_factor * _known_median(resid, known))

    def blob_mask(self, observed: np.ndarray, reference: np.ndarray, mm_per_px: float,
                  nearest: tuple[np.ndarray, np.ndarray], known: np.ndarray | None = None,
                  lab: np.ndarray | None = None) -> np.ndarray:
        """Where :meth:`find` (``fit=False``) would look at a blob: its blobs of a figure's size or more (boolean mask
        like ``observed``), before each is judged (colour, shares, the tiles' outline). Made the same way from the
        same bars (the figure pass's gate runs it with looser ones over a whole canvas, issue 14's CPU). ``lab``:
        :func:`bgr_to_lab` of ``observed``, when known."""
        obs = observed.astype(np.float32)
        fitted = reference.astype(np.float32)
        d = np.abs(obs - fitted)
        resid = cv2.GaussianBlur(d[..., 0] + d[..., 1] + d[..., 2], (0, 0), 0.8)
        median = float(np.median(resid if known is None or not known.any() else resid[known]))
        cand = resid > max(self.residual_threshold, self.residual_factor * median)
        if lab is None:
            cand |= self._colour_change(obs, fitted, known)
        else:
            ref_lab = bgr_to_lab(fitted)
            da, db = lab[..., 1] - ref_lab[..., 1], lab[..., 2] - ref_lab[..., 2]
            change = cv2.GaussianBlur(np.sqrt(da * da + db * db), (0, 0), 0.8)
            median = float(np.median(change if known is None or not known.any() else change[known]))
            cand |= change > max(self.chroma_threshold, self.chroma_factor * median)
        idx, dist = nearest
        cand |= self._toward_paint(obs, fitted, idx, dist, known)
        out = np.zeros(observed.shape[:2], bool)
        if np.count_nonzero(cand) < self.min_strong_px:
            return out
        mean_ratio, grey = shading(obs, fitted)
        shadow = grey & (mean_ratio > SHADOW_DARKEST) & (mean_ratio < 0.9)
        coloured = dist < self.colour_distance
        weak = coloured & (resid > max(self.residual_threshold, self.coloured_factor * median))
        shadow_ok = coloured if known is None or known.all() else coloured & known
        strong = cand & (~shadow | shadow_ok)
        if np.count_nonzero(strong) < self.min_strong_px:
            return out
        m = _blobs(strong, weak, idx, coloured, len(self.colours.colours), self.min_strong_px, self.grow_share)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(m, connectivity=8)
        big = stats[:, cv2.CC_STAT_AREA] * (mm_per_px * mm_per_px) >= self.min_area_mm2
        big[0] = False
        return np.take(big, labels)     # big[labels], twice as fast

    def _toward_paint(self, obs: np.ndarray, fitted: np.ndarray, idx: np.ndarray, dist: np.ndarray,
                      known: np.ndarray | None) -> np.ndarray:
        """Where ``obs`` moved from ``fitted`` toward the paint of its nearest player colour (``idx``, ``dist``), not
        the darkest (:attr:`toward_factor`, :func:`vision.colourcast.toward_paint`)."""
        if not self.toward_factor:
            return np.zeros(obs.shape[:2], bool)
        darkest = self.colours.darkest
        where = (dist < self.colour_distance) & (idx != darkest)
        if not where.any():
            return where
        # only where the art itself lies within the colour distance of that paint (sand under a yellow figure): where
        # it does not, the bars above see the figure whole, and its blurred rim taken in besides grew its picture
        # into a neighbour's and moved its base
        where[where] = (norm3(_weighted(bgr_to_lab(fitted[where])) - self.colours.centres[idx[where]])
                        < self.colour_distance)
        paint = lab_to_bgr([c.lab for c in self.colours.colours])
        return toward_paint(obs, fitted, paint, idx, self.toward_factor, known, where)

    def _colour_change(self, obs: np.ndarray, fitted: np.ndarray, known: np.ndarray | None) -> np.ndarray:
        """Where ``obs`` differs from ``fitted`` (float BGR, one size) in colour (Lab a and b) by more than
        :attr:`chroma_threshold` and :attr:`chroma_factor` times the median difference (over ``known``)."""
        change = colour_misfit(obs, fitted)
        return change > self.colour_bar(change, known)

    def colour_bar(self, change: np.ndarray, known: np.ndarray | None = None) -> float:
        """The bar on a window's blurred colour misfit (:func:`colour_misfit`): :attr:`chroma_threshold`, or
        :attr:`chroma_factor` times its median where a tile's reference is known, whichever is higher."""
        median = float(np.median(change if known is None or not known.any() else change[known]))
        return max(self.chroma_threshold, self.chroma_factor * median)


def colour_misfit(obs: np.ndarray, fitted: np.ndarray) -> np.ndarray:
    """How far ``obs`` lies from ``fitted`` (float BGR, one size) in colour (Lab a and b, lightness left out), blurred
    as :func:`blurred_misfit` is."""
    diff = bgr_to_lab(obs)[..., 1:] - bgr_to_lab(fitted)[..., 1:]
    return cv2.GaussianBlur(np.sqrt((diff * diff).sum(axis=2)), (0, 0), 0.8)


def shading(observed: np.ndarray, expected: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """How much lighter ``observed`` is than ``expected`` (float BGR images of one size): the mean of the
    per-channel ratios, and where it is the same in every channel (``grey``), as under a shadow, which dims
    all colours alike; a painted figure or a drawn boat changes them unlike."""
    ratio = (observed + 4.0) / (expected + 4.0)
    if ratio.ndim != 3 or ratio.shape[2] != 3:
        mean = ratio.mean(axis=2)
        return mean, ratio.std(axis=2) < 0.06 + 0.1 * (1 - mean)
    # numpy's mean and std over the three channels, written out per channel (the same sums in the same order, the
    # same bits on numpy 1.24 and 2; reducing a three-wide last axis is several times slower)
    c0, c1, c2 = ratio[..., 0], ratio[..., 1], ratio[..., 2]
    three = ratio.dtype.type(3)
    mean = (c0 + c1 + c2) / three
    d0, d1, d2 = c0 - mean, c1 - mean, c2 - mean
    std = np.sqrt((d0 * d0 + d1 * d1 + d2 * d2) / three)
    return mean, std < 0.06 + 0.1 * (1 - mean)


DIMMED = (0.2, 0.95)
"""A shadow dims the art by a factor in this range (the renderer's figure shadows: 0.5 at their core; a figure's own
dark side is its paint)."""


def dimmed_art(obs: np.ndarray, art: np.ndarray, paint: np.ndarray, margin: float) -> np.ndarray:
    """Which pixels ``obs`` ((n, 3) float BGR) are the ``art`` under them ((n, 3), in the frame's light) dimmed, as a
    shadow dims it, and not ``paint`` ((3,) BGR) dimmed or lit: each pixel's misfit to the art scaled by its best
    factor (within :data:`DIMMED`) is ``margin`` (BGR units) smaller than its misfit to the paint scaled by its best.
    A shadow keeps the hue of the art it falls on; a painted figure has its paint's hue (black: none) wherever it
    stands. On art of the paint's hue the two misfits are alike and the pixel is not called art.

    >>> sea = np.array([[120.0, 70.0, 25.0]] * 2)                  # dark blue sea (BGR)
    >>> black = np.array([38.0, 36.0, 34.0])
    >>> obs = np.array([0.45 * sea[0], 0.8 * black])                # the sea in a shadow; black paint, shaded
    >>> dimmed_art(obs, sea, black, 6.0).tolist()
    [True, False]
    """
    return paint_or_art(obs, art, paint, margin)[1]


def _scaled_misfit(obs: np.ndarray, target: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each pixel's misfit (BGR distance) to ``target`` scaled by its best factor, and that factor."""
    k = (obs * target).sum(axis=-1) / np.maximum((target * target).sum(axis=-1), 1.0)
    r = obs - k[..., None] * target
    return np.sqrt((r * r).sum(axis=-1)), k


def paint_or_art(obs: np.ndarray, art: np.ndarray, paint: np.ndarray, margin: float) -> tuple[np.ndarray, np.ndarray]:
    """Which pixels ``obs`` ((n, 3) float BGR) ``paint`` ((3,) BGR) scaled explains better than the ``art`` under
    them ((n, 3)) scaled does, by ``margin`` (the paint in light or shade), and which the art dimmed (within
    :data:`DIMMED`) explains better by ``margin`` than the paint (the art in a shadow: :func:`dimmed_art`); neither
    where the two fit alike. (The art at any scale, lighter too, for the first: a pixel lighter than the art is no
    shadow, but it may be the art a pixel off, a strip of plain over its reference's dark gap, which the paint does
    not explain either.)"""
    to_art, k = _scaled_misfit(obs, art)
    to_paint, _ = _scaled_misfit(obs, np.broadcast_to(np.asarray(paint, np.float32), obs.shape))
    return to_paint + margin < to_art, (k >= DIMMED[0]) & (k <= DIMMED[1]) & (to_art + margin < to_paint)


def _noise_sd(obs: np.ndarray, fitted: np.ndarray, known: np.ndarray | None) -> float:
    """The frame's noise per channel (sd, BGR units) in a window: from the median absolute difference between the
    picture and its reference over ``known`` (as :func:`vision.colourcast.toward_paint` measures it)."""
    d = np.abs(obs - fitted)
    use = d if known is None or not known.any() else d[known]
    return max(1.4826 * float(np.median(use)), 1.0)


def norm3(x: np.ndarray) -> np.ndarray:
    """``np.linalg.norm(x, axis=-1)`` of an (..., 3) float array, to the bit (the squares summed in numpy's order),
    without reducing a three-wide axis."""
    return np.sqrt(x[..., 0] * x[..., 0] + x[..., 1] * x[..., 1] + x[..., 2] * x[..., 2])


def _blobs(strong: np.ndarray, weak: np.ndarray, idx: np.ndarray, coloured: np.ndarray, n_colours: int,
           min_strong: int, share: float) -> np.ndarray:
    """Figure-like blobs (uint8 mask): the ``strong`` and ``weak`` pixels opened (no lines, no specks), each
    blob kept when it has ``min_strong`` strong pixels, with its weak pixels only where they are of the
    colour at least ``share`` of its strong ones have (``idx``: nearest colour per pixel, counted where
    ``coloured``): a black figure does not take in a plain beside it that reads yellow-green, nor a strip
    at a tile's edge the plain next to it. Closed at the end."""
    square = np.ones((3, 3), np.uint8)
    # the weak pixels open with nothing beyond the tile's edge: a strip of them two pixels wide along the
    # edge (the tile a little off its reference there) is not a body
    both = (cv2.morphologyEx(strong.astype(np.uint8), cv2.MORPH_OPEN, square)
            | cv2.morphologyEx((strong | weak).astype(np.uint8), cv2.MORPH_OPEN, square,
                               borderType=cv2.BORDER_CONSTANT, borderValue=0))
    n, labels = cv2.connectedComponents(both, connectivity=8)
    firm = strong & (both > 0)
    votes = np.bincount(labels[firm & coloured] * n_colours + idx[firm & coloured],
                        minlength=n * n_colours).reshape(n, n_colours)
    firm_px = np.bincount(labels[firm], minlength=n)
    colour = np.where(votes.max(axis=1) >= np.maximum(share * firm_px, 1), votes.argmax(axis=1), -1)
    enough = firm_px >= min_strong
    enough[0] = False
    keep = np.take(enough, labels) & (firm | (idx == np.take(colour, labels)))   # x[labels], twice as fast
    return cv2.morphologyEx(keep.astype(np.uint8), cv2.MORPH_CLOSE, square)


def _from_outline(known: np.ndarray) -> np.ndarray:
    """Each pixel's distance (pixels) from the border between ``known`` (tiles read) and the rest (the bare mat): on
    either side, 1 next to it."""
    k = known.astype(np.uint8)
    return np.maximum(cv2.distanceTransform(k, cv2.DIST_L2, 3), cv2.distanceTransform(1 - k, cv2.DIST_L2, 3))


def _length_px(blob: np.ndarray) -> float:
    """A blob's extent along its long axis (pixels, outer edge to outer edge: its pixel centres' spread plus one)."""
    ys, xs = np.nonzero(blob)
    if len(xs) < 2:
        return float(len(xs))
    pts = np.stack([xs, ys], axis=1).astype(np.float64)
    pts -= pts.mean(axis=0)
    _, _, vt = np.linalg.svd(pts, full_matrices=False)
    along = pts @ vt[0]
    return float(along.max() - along.min()) + 1.0


def _two_figures(blob: np.ndarray, mm_per_px: float, min_mm2: float, apart_mm: float,
                 two_apart: Callable[[np.ndarray, np.ndarray], bool] | None = None
                 ) -> tuple[np.ndarray, np.ndarray] | None:
    """The two halves of a blob of one colour (boolean mask), split where two figures' pictures would part: the
    pixels parted into two groups around two centres (2-means, started at the blob's ends along its long axis); None
    unless each half is as large as one figure's picture and their centres lie as far apart as two figures'
    (``apart_mm``, or where ``two_apart(c0, c1)`` says so for centres at ``c0``, ``c1``: x, y pixels)."""
    ys, xs = np.nonzero(blob)
    pts = np.stack([xs, ys], axis=1).astype(np.float64)
    mid = pts.mean(axis=0)
    _, _, vt = np.linalg.svd(pts - mid, full_matrices=False)
    along = (pts - mid) @ vt[0]
    lo, hi = np.percentile(along, (15, 85))
    centres = np.stack([mid + lo * vt[0], mid + hi * vt[0]])
    side = along > 0
    for _ in range(8):
        d = ((pts[:, None, :] - centres[None]) ** 2).sum(axis=2)
        side = d[:, 1] < d[:, 0]
        if side.all() or not side.any():
            return None
        new = np.stack([pts[~side].mean(axis=0), pts[side].mean(axis=0)])
        if np.allclose(new, centres):
            break
        centres = new
    px_area = mm_per_px * mm_per_px
    n1 = int(side.sum())
    n0 = len(side) - n1
    apart = float(np.linalg.norm(centres[1] - centres[0])) * mm_per_px
    far = apart >= apart_mm if two_apart is None else two_apart(centres[0], centres[1])
    if min(n0, n1) * px_area < min_mm2 or not far:
        return None
    out = []
    for part in (~side, side):
        m = np.zeros(blob.shape, bool)
        m[ys[part], xs[part]] = True
        out.append(m)
    return out[0], out[1]


def _two_painted(blob: np.ndarray, paint: np.ndarray, mm_per_px: float, min_mm2: float
                 ) -> tuple[np.ndarray, np.ndarray] | None:
    """Two figures' pictures in a blob (boolean mask) whose ``paint`` pixels (those of its colour) lie in two parts (8-
    connected) each at least ``min_mm2``, with no paint between them: each of the blob's pixels goes to the part
    nearest it. None where there are not two such parts.

    One figure's picture is its paint whole: its foot, body and head are one piece of one colour, its shaded side and
    blurred rim join them (a shadow falls beside it, not across it). Two figures of one colour side by side make one
    blob where their rims and shadows touch, but between their paints lies a band of neither: the art dimmed and
    blurred. Two yellow figures one behind the other along the lean, 11 mm apart, made one blob of 292 mm^2 and 24 mm
    (under :attr:`FigureFinder.two_figures_mm2` and :attr:`FigureFinder.one_figure_long_mm`; their halves under
    :attr:`FigureFinder.two_apart_mm` and along the lean), a row of unpainted pixels across it between 5 rows of paint
    on either side, and one was lost (Neues Land bench s3 sim/default board 11)."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(paint.astype(np.uint8), connectivity=8)
    big = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] * mm_per_px * mm_per_px >= min_mm2]
    if len(big) != 2:
        return None
    far = np.stack([cv2.distanceTransform((labels != i).astype(np.uint8), cv2.DIST_L2, 3) for i in big])
    first = far[0] <= far[1]
    return blob & first, blob & ~first


def _fit_gain(obs: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """Per-channel ``gain * ref + offset`` fitted to ``obs`` robustly (two passes, outliers dropped)."""
    gain, offset = _gain_of(obs, ref)
    return (ref.reshape(-1, 3) * gain + offset).reshape(obs.shape)


def _gain_of(obs: np.ndarray, ref: np.ndarray, art_var: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Per-channel ``(gain, offset)`` with ``gain * ref + offset`` fitted to ``obs`` robustly (two passes, the
    worst fifth and outliers dropped: a figure on the tile does not count); ``art_var``: see :func:`gains_of_many`."""
    gain, offset = gains_of_many(np.asarray(obs)[None], np.asarray(ref)[None], art_var)
    return gain[0], offset[0]


LIGHT_ART_VAR = 400.0
"""How much a tile's art must vary in a channel (variance, BGR levels squared: a spread of 20 levels) before its own
spread sets the gain of the light it is seen in there (:func:`gains_of_many`'s ``art_var``, the figure finder's light
per tile, issue 14). Light multiplies: a gain per channel alone (through zero) is fixed by the tile's mean level,
whatever its colours; a gain and an offset need the art's spread, and a reference is itself a camera's picture, its
noise, blur, JPEG and the pixel it lies off adding spread that the picture does not share. On a tile mostly of one
colour (Südsee's sea, 13 levels sd in G with a market on it) the free fit came out flattened (G 0.39, offset +63,
where the gain alone is 0.94 and its neighbours' 0.9-1.0), and its saturated art (a market, a sand island) was
predicted 20-40 levels too dull: a phantom red or yellow figure there."""


def gains_of_many(obs: np.ndarray, ref: np.ndarray, art_var: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_gain_of` of many pairs at once: ``obs`` and ``ref`` (T, ..., 3) of one shape, T fits of the same
    size; returns gains and offsets (T, 3), each the same to the bit as one fit alone (every sum runs over the
    pixels in the same order).

    ``art_var`` > 0: each gain is the free fit's where the reference varies much more than ``art_var`` in that
    channel and the gain through zero (the light alone, no offset) where it varies much less, weighed by the two
    (``(cov + art_var * g0) / (var + art_var)``, a ridge toward ``g0``), the offset then what puts the means
    together (:data:`LIGHT_ART_VAR`). 0: the free fit alone."""
    t = obs.shape[0]
    o = obs.reshape(t, -1, 3).astype(np.float32)
    r = ref.reshape(t, -1, 3).astype(np.float32)
    w = np.ones((t, o.shape[1], 1), np.float32)
    gain, offset = np.ones((t, 3), np.float32), np.zeros((t, 3), np.float32)
    for _ in range(2):
        n = w.sum(axis=1)                                                    # (T, 1), whole numbers
        mr = (r * w).sum(axis=1) / n
        mo = (o * w).sum(axis=1) / n
        rc = r - mr[:, None]
        var = (rc * rc * w).sum(axis=1) / n
        cov = (rc * (o - mo[:, None]) * w).sum(axis=1) / n
        if art_var > 0:
            through_zero = (o * r * w).sum(axis=1) / np.maximum((r * r * w).sum(axis=1), 1.0)
            gain = np.clip((cov + art_var * through_zero) / (var + art_var), 0.3, 3.0).astype(np.float32)
        else:
            gain = np.clip(np.where(var > 1.0, cov / np.maximum(var, 1.0), np.float32(1.0)), 0.3, 3.0
                           ).astype(np.float32)
        offset = mo - gain * mr
        err = np.abs(o - (gain[:, None] * r + offset[:, None])).sum(axis=2)   # (T, N)
        k = int(err.shape[1] * 0.8)
        # the bar in single precision, as a Python float compared with a float32 array is
        cut = np.maximum(np.partition(err, k, axis=1)[:, k].astype(np.float64) * 1.5, 6.0).astype(np.float32)
        w = (err < cut[:, None]).astype(np.float32)[..., None]
    return gain, offset
