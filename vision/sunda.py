"""Reading a Sunda to Sahul table: land and water on the triangular lattice, pawns and tribes on nodes.

No printed grid: the pieces are laid freely, corner to corner, on a lattice the first piece fixes.
:class:`SundaReader` turns a photo into what ``tablehub score`` needs (docs/sunda.md, "The camera"):

1. **Mat.** The mat's markers give the homography to mat mm (``vision.rectify``; through the lens
   calibration when there is one) and, with the camera matrix, where the camera hangs (its nadir and
   height: what a stack's parallax is measured against).
2. **Colours.** Land, water and the pawns' colours are learnt at enrolment (:func:`enrol`: a photo of an
   all-land piece, an all-water piece and one pawn of each colour at :func:`enrolment_layout`'s places)
   and corrected per frame by the cloth, measured on the mat's margin in every frame against enrolment.
   Every canvas pixel takes the nearest class (Lab, lightness weighted down): land, water, cloth, a
   pawn colour.
3. **Lattice.** Its side is known (the pieces' size); its angle and phase are fitted to the thin dark
   lines between pieces (gaps and cut edges, a morphological black-hat of the lightness) and the layout's
   outline, each line pixel counted only for the line family it runs along (its structure tensor): the line
   pixels projected on the normal of each of the three line families and folded onto one row height
   (side x sqrt(3)/2) peak sharply at the right angle, and the peaks give the phase. Each piece's own
   small offset and turn only widen the peaks. With an earlier reading the lattice is kept (the first
   piece fixes it).
4. **Pieces.** Every unit triangle is covered when most of its inner samples are land or water. Two
   covered triangles sharing a side belong to one piece when no gap line runs between them: pairs are
   taken from the weakest line up (mutual best first); a covered triangle left alone is reported unsure.
   Each piece's four sides are read at the three slots (1/6, 1/2, 5/6 along each side, 2.5 mm inside),
   ``join`` from its middle; a slot hidden by a pawn takes its neighbour's slot across the side, else land
   (pawns stand on land). Sides that do not continue land and water across a shared side are listed
   (``conflicts``), with the pieces and slots, for the tracker to flag.
5. **Pawns.** Blobs of a pawn colour. A stack's top is nearer the lens: seen from above it is displaced
   away from the camera's nadir by d z / (H - z), so the blob is longer along the line from the nadir than
   across it; that excess gives the height z, the blob's near end the node, and the colours along the
   near side the pawns bottom to top. Where the parallax of one pawn is too small to measure (near the
   nadir) or the height falls between two counts, the tribe is marked ``ask`` with the candidates: the
   phone asks, the reading is never silently sure.

Resource markers are read by ``vision.sundamarkers`` (when the reader's ``markers`` is set).
"""
from __future__ import annotations

import math
import time
from functools import lru_cache
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping, NamedTuple, Sequence

import cv2
import numpy as np

from tablehub.i18n import T  # the notes a phone reads (tablehub/locale/*/vision.po)

from . import VisionError
from .calibrate import LensCalibration
from .mat import Mat
from .rectify import Rectifier
from .sampling import median_u8
from . import sundastacks as stacks
from .sundaset import fit_to_pool, fit_to_set, print_counts, prints_array

SQ3 = math.sqrt(3.0)
DIRS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
PAWN_MM = 10.0
PAWN_HEIGHT_MM = 7.0
MAX_TRIBE = 5
LAND_SHARE = 0.5          # a slot is land when this share of its land and water samples is
SPIT_SHARE = 0.12         # ... and a lone slot's share of the other terrain that makes it that terrain
SPIT_BODY = 0.05          # ... a lone slot's trace of it (under LAND_SHARE) taken only where this share shows deeper in
DEEP_SPIT = 0.12          # ... or its share deeper in, towards the middle, when its neighbours show none there
HIDDEN_DEEP = True        # ... and so a lone slot hidden (under 8 votes: a pawn on the node over it)
BLEND_DEEP = 0.6          # ... and a lone water slot whose deep samples are this share of neither terrain: land
SPIT_WEDGE = True         # a lone slot between water read by the spit's expected body (its wedge), clear of the cloth
SPIT_HALF = 0.25          # ... a spit's half-width at the side (of a slot), and how far it reaches towards the middle
SPIT_REACH = 0.6
WEDGE_LAND = 0.22         # ... land where its wedge's mean colour lies this far from the water's towards the land's
WEDGE_SEA = 0.15          # ... water at most this far (a land reading of the slot undone)
WEDGE_CLOTH_MM = 2.0      # ... no wedge sample within this of the cloth (off the pieces, or of the cloth's class)
WEDGE_LEAST = 8           # ... of its 40 samples this many clear of the cloth and of the paint, else the rules above
BLURRED_SPIT = 0.15       # ... or, between two strong water slots, water under this share of its water and cloth-class
#                           samples (a thin land spit blurred into the water reads as neither: _blurred_spits)
SHADE = 0.6              # a pawn's shadow and a cut edge: this much of the light
#: a black pawn's top (L 18-20 at `default`) and the dark grey cloth in shade (``SHADE``: L 19) are one colour, and
#: the noise splits the pawn's pixels between the two classes: a sieve (65 % of its pixels at seed 3 table 3) that the
#: opening of thin lines (a disc 3 mm across) erased whole. The pawn colours' pixels are first the majority over a
#: square this wide (mm): a pawn's disc comes back solid, a line under half its width goes
PAWN_MAJORITY_MM = 2.5
PAWN_SIDE = 0.72         # a pawn's side against its top
#: a height is taken as seen only where one pawn moves a stack's top this far (mm) from the nadir's line, and
#: the measure falls within 0.2 of a whole count; nearer the nadir (most of a table under a straight camera)
#: the phone asks. On the bench's `hard` camera 2.2 mm still let 5 of 25 heights through wrong.
SURE_PARALLAX_MM = 3.5
MARKER_STILL = 6.0        # mean grey difference (0-255) round a marker under which it has not moved
INC_GROW_SIDES = SQ3       # an incremental read reads again this many sides round what changed ...
INC_GROW_MM = 2.0         # ... and this (mm): :meth:`SundaReader._window_grow_mm`
RELIGHT = True            # an incremental read measures the light on the cloth again (the white balance wanders)
RELIGHT_LEAST = 0.003     # ... and puts the window in the colour table's light when a channel's gain moved this much
#: an incremental read classifies its window in its own frame's light, as a read from scratch does (a colour table
#: filled only for the cells the window shows: :meth:`SundaReader._classify`), not in the kept table's light with the
#: window relit: the table's 8-level cells fall otherwise on the relit colours, and on a dark cloth 3-4 % of the
#: pixels took another class (the cloth's by a gap taken for the land's shade: seed 1 `hard` table 4, seed 7 table 5)
OWN_LIGHT = True
#: an incremental read's window also holds the covered triangles the reading before left without a second half (its
#: "triangle ..." notes), each once: they are read again in this frame's light (:meth:`SundaReader._doubts`)
REREAD_DOUBTS = True
#: ... each in a window round it alone where it lies off the change's window (the doubts of a reading lie scattered over
#: the table: read in one window they cost a read from scratch): its corners grown by this many sides and
#: ``INC_GROW_MM``. A doubt's triangle was left without its mate because a neighbour was paired elsewhere (or a
#: triangle by it read covered where nothing lies); the pieces that may change are its neighbours' and their mates', and
#: every corner of a triangle two steps from it lies within one side of its own corners. The window reads the pieces
#: alone: the tribes and markers round it are this frame's already (read in the change's window) or unchanged
LOCAL_DOUBTS = True
DOUBT_GROW_SIDES = 1.0
#: ... and the pieces whose ring the owner's set doubts (a ring none of its prints is, or one of two prints the set
#: and the pool leave about equally likely: the set's "piece at ..." notes) are doubts too: outside the change's window
#: they were kept as read in the frame before, one slot misread by its noise (seeds 1-8 `hard`: 2 of the 8 pieces the
#: incremental reads kept wrong where a read from scratch was right; the pool's notes name a rival, not always the one)
SET_DOUBTS = True
#: ... each read again in a window round its piece alone, grown by this (mm): its pairing is not in doubt, its slots are
#: (a pawn on its corner, half a pawn across, is seen whole, and the gap along its short diagonal)
SET_DOUBT_GROW_MM = 6.0
#: a set's doubt still standing after its window read it again is read once more with the whole table (the next
#: frame, changed or not): the set's notes weigh a piece against its rivals over the table (the pool's: other pieces
#: read as the same print, as likely to be the one misread), whose votes the piece's own window kept from the frame
#: they were read in; read again all together in one frame's light and noise, the fit has fresh evidence on every side
#: of the tie (seed 2 `hard` table 1: two pieces one slot wrong each from the read from scratch on, their tie kept frame
#: after frame). A read from scratch's cost, once a doubt
SETTLE_WHOLE = True
#: an incremental read reads each group of the changed pixels in a window of its own (each grown by
#: :meth:`SundaReader._window_grow_mm`; groups whose windows meet, one), not the one box round them all: a pawn put on
#: a tribe and the pawn taken from its player's supply off the layout changed two places a table apart, and the box
#: round both read 0.3-0.4 of the table again (seed 7 `hard`: 16 of 29 incremental frames, 65-90 ms each) or the whole
#: of it (over :meth:`SundaReader._big`)
CHANGE_GROUPS = True
#: an incremental window that no node of the layout lies near (the supply's change group off the layout, as a rule): its
#: tribes are not looked for, for every tribe a read finds there would be dropped (:meth:`SundaReader._no_node_near`)
NODE_FREE_SKIP = True
KEPT_INNER_MM = 12.0      # an incremental read keeps an earlier tribe or marker this far inside its window's edges
FOLD_BINS = 96            # bins of the row height (26 mm) the line pixels are folded into
ORIENT_TOL_DEG = 20.0    # a line pixel counts for a line family when it runs within this of the family
FIT_POINTS = 30000        # line pixels the lattice is fitted to (a random sample of them)
GAP_LIMIT = 0.5           # two triangles are one piece up to this far from the lines inside pieces to those between
GAP_OFFSETS = np.arange(-3.0, 3.01, 0.5)   # mm across a side where its lightness profile is sampled (_line_along)
LINE_WEIGHT = 0.5         # ... and the weight of the line image's mean along it, added to the profile's dip
NODE_REACH = 0.2          # a stack's base lies within this (of a side) of its node: farther, it is no pawn (a marker)
NODE_SLACK_MM = 3.0       # ... and a blob is measured as a stack only when its base, guessed from its near end, is this near
SPLIT_MM = 9.0            # a blob too wide for a stack is split into the parts a disc this wide fits (a marker: 6 mm)
#: ... and where no part is left, into those a disc this wide fits: a black pawn's top at `hard` shrinks to some 9 mm
#: (its rim reads as the cloth's shade) and a cut line's dark shade joined to it made the blob too wide; a 9 mm disc
#: fit in no part of it and the tribe was lost (photo bench seed 17 `hard` table 0). At the reader's 2 px/mm the disc
#: is 15 px across (7.5 mm; SPLIT_MM's 19 px): the pawn's part held it on both stacks (OpenCV 5: a 17 px disc too;
#: OpenCV 4.11 with numpy 1.24: 15 px, not 17). A marker's blurred blob there was 4.6 x 5.8 mm
SPLIT_SMALL_MM = 7.0
#: a whole blob with a pawn's top of paint (``stacks.FULL_BLOB``) whose base lies on a node, too wide for one stack
#: and with no outline measured, none of its parts placed either: a tribe there the phone asks (any height), never
#: lost (photo bench seed 29 `hard` table 2: a red stack of 5 with a red marker in the band across its top, lost
#: with its markers, 55 points silent). The photo scorer's reader only (``SundaReader.beyond``)
UNPLACED_ASK = True
#: a stack's blob of pawn colours may be wider than 1.4 pawns by its blurred rim: a dark paint blurred into the land
#: in the stack's shadow reads as a darker pawn's class right round it (a purple stack of 3 at `hard`, its outline
#: 10.4 mm across, was a blob 14.1-14.5 mm wide: photo bench seed 4 table 8, seed 6 table 6). Up to this much wider
#: (mm, both sides together; a resource marker touching a stack's side adds 6 mm and more) it is measured, and kept
#: where its outline (``stacks.measure``: where the colour is halfway from the ground's, which the rim does not
#: move) is a stack's width
RIM_MM = 2.0
#: the share of a pawn's top (a disc PAWN_MM across) that one paint must cover solidly (what an opening with a 3.5 mm
#: disc leaves) to be taken as the top's colour: a blurred rim (red into the green land reads yellow) shows none, a
#: black top split between black, purple and shades 45-357 px at 2 px/mm (the disc is 314); where no paint does, every
#: paint seen may be. Resource markers (160-274 px) are not told from a top by this: a marker of a pawn's paint, alone
#: and blurred to 8-9 mm, still passes the blob's shape test (not fixed: a gate on the area lost black tops)
TOP_PAINT = 0.3
#: ... and where a paint's solid part holds a disc this wide (a top is 10 mm across, a resource marker 6), only such a
#: paint: a yellow marker against a red stack's far side (its blob's far end, where the top is looked for) read the
#: top yellow (photo bench seed 4 `hard` table 3)
TOP_FACE_MM = 7.5
#: a stack's outline is measured along the line from the nadir and 4 mm past its blob (``stacks.measure``): a resource
#: marker of a pawn's paint lying there (a yellow marker 3 mm beyond a black pawn's blob, photo bench seed 7
#: `default` table 8) keeps the profile over half a pawn's membership at its end, and no outline is found. Where that
#: decides (a dark or small blob, kept only when it measures a top), the outline is measured again with the other blobs
#: of pawn paint in the box (those not within this many mm of the blob) laid over by the land round it, and, on a node
#: the pieces surround (its six triangles covered), without the cloth among the ground's colours: the cloth shows there
#: only in the cut gaps, and a black top at `hard` on a dark cloth lay nearer the cloth's colour than its paint's at its
#: blurred edge (measured 7.4 mm across with the cloth, 10.4 without: photo bench seed 7 `hard` table 2)
ALONE_MM = 1.5
ALONE_WITHOUT_CLOTH = True
#: a blob whose measured base lies off every node is split into its parts too: a marker of a stack's paint touching
#: its near side makes one blob 16 mm long, under the length a tall stack's parallax may give (13 mm + 6 % of its
#: distance from the nadir), its near end half a marker past the stack's base: the guess from the near end lies within
#: NODE_SLACK_MM of the node, the measured base 6-7 mm off it, and the stack was lost (rendered, `default` and `hard`).
#: Only a blob longer than a stack without parallax (1.3 pawns) is split: one no longer is all there is to measure
SPLIT_MEASURED_OFF = True
#: a stack's blob of pawn paint reaching past its measured outline (the base disc drawn out to the top by the
#: parallax, as wide as measured) by more than BEYOND_SLACK_MM, in a part of BEYOND_MM2 or more a 3 mm disc fits in,
#: is something of that paint touching it (:func:`_beyond`; a resource marker is 28 mm2): the photo scorer lists it
#: (measured only where ``SundaReader.beyond`` is set: the photo scorer's reader, not the camera's)
BEYOND_SLACK_MM = 1.5
BEYOND_OPEN_MM = 2.5
BEYOND_MM2 = 3.0
#: a blob of pawn paint off every node of a resource marker's size (LONE_MM2: a marker is 28 mm2; a stack's least blob
#: is stacks.MIN_CORE of a top) within LONE_REACH of a side of a tribe's node, split from the stack beside it (the
#: reader's opening parts them) and read by neither pass (the marker finder's blob joined it to the stacks round it): a
#: red marker so by a red stack of 5 was dropped silently (photo bench seed 10 `hard` table 9). Added to that tribe's
#: ``beyond`` at height 0 (at any height): the photo scorer lists it where that paint's marker is read nowhere
LONE_MM2 = 45.0
LONE_REACH = 0.8
UNMIX = False            # slots voted by each sample's share of land and water (a mix with the cloth), not its label
MIX_SUM = 100.0           # the weight of the shares' sum to one against the colours (BGR units)
MIX_OUT = 0.35            # a sample whose share of a colour is below minus this is not the mix of the three: hidden
DARK_DISCS = True         # a dark pawn read as the dark cloth's shade found as a disc (stacks.cloth_dark_discs)
#: a pawn stands on a node the pieces surround (the rules place it only on a formed node): its top lies over the six
#: triangles round it, its paint farther than a side's height less the top's reach (parallax included) from any triangle
#: no piece covers. A blob this share of whose pixels lie within HOLE_REACH_MM of such a triangle showing the cloth (on
#: HOLE_CLOTH_SAMPLES of its 7 inner samples: a triangle a stack hides shows its paint) is the blurred edge of the cloth
#: seen through a hole (or round the layout) against the water: at `hard` blur a brown cloth's edge reads a black pawn's
#: paint, and with the cloth as its dark rim was kept as a dark pawn (issue 18: sunda-vision hard seeds 2, 5, 8: every
#: extra pawn's blob had 1.0 of its pixels there, every true stack's 0.0)
HOLE_SHARE = 0.8
HOLE_REACH_MM = 3.0
HOLE_CLOTH_SAMPLES = 4
PAWN_RIM_MM = 2.0         # a pawn colour's blurred rim this wide (mm) hides the print under it as the pawn does
PIECE_GAP_MM = 1.0        # the gap between pieces laid by hand: each piece is its lattice rhombus inset by half of it
STEP_WEIGHT = 0.35        # the weight of a step in the print's tone across a side (two prints: two pieces) in its line
HIDDEN_ROWS = True        # a side's line measured only on its profiles clear of a pawn's or marker's paint and rim
HIDDEN_LEAST = 4          # ... unless fewer than this of the 13 are clear (then on all)
HIDDEN_SLOTS = True       # a slot's samples on a pawn's or marker's paint and its blurred rim do not vote (_read_sides)
MARKER_HIDES_MM = 3.0 + PAWN_RIM_MM   # ... nor those within this of a resource marker's centre (a disc 6 mm across)
SEEN_LEAST = 4.0          # ... unless the votes clear of them weigh less than this (of 25): then all samples vote
WEAK_ACROSS_POOLED = True  # two weak readings of a slot across a side that differ: both pieces' samples vote together
JOINT_PAIRING = True     # the pairs as one fit over the layout (_cancel_cycles), not only weakest line first
PRINT_BEFORE_PAINT = True  # a lone half whose print shows takes a neighbour from one covered only under paint
ENCLOSED_TO_OPEN = True   # an enclosed lone triangle with no enclosed one to pair with takes the cheapest lone one
#: a triangle left alone whose one uncovered neighbour shows a pawn's paint on this many of its 7 samples is paired
#: with it: a tall stack leaning over a piece hides most of its half (UNDER_STACK)
UNDER_STACK_SAMPLES = 4
UNDER_STACK = True
#: a pair of triangles whose group of covered triangles (reached side by side) holds no other piece, where other
#: pieces lie, with a pawn's paint on this many of the group's samples or more, is no piece (HEAP_NOT_PIECE,
#: _heaps_not_pieces): the rules lay every piece but the first side to side with the layout and pawns go only on
#: formed land, so a lone rhombus under paint is a heap of the supply whose shaded sides took the land's class (issue
#: 18: every false piece under the supply heaps "touching the layout" on the tracked line, seeds 2, 5, 6 `default` and
#: 6 `hard`: 4-10 paint samples, no side shared with the layout); a lone piece without paint (laid off the layout: the
#: engine flags it) stays read
HEAP_PAINT_SAMPLES = 2
HEAP_NOT_PIECE = True
JOIN_BY_LAND = True       # a piece's join: whether its land runs are one region inside it (_land_joined), not its middle
JOIN_INSET_MM = 1.0       # ... looked at this far inside the piece as cut (its cut edge, the cloth, the next piece out)
JOIN_OPEN_PX = 2          # ... the land's threads this thin (px) opened away
JOIN_REACH_MM = 1.5       # ... each run's land taken round its slots' points, this far (mm)
L_WEIGHT = 0.35          # lightness against chroma in the colour distance (light varies more than hue)


# --------------------------------------------------------------------------- lattice geometry


def tri_points(q: np.ndarray, r: np.ndarray, up: np.ndarray) -> np.ndarray:
    """(n, 3, 2) lattice points of unit triangles (docs/sunda.md: ``(q, r, 0)`` down, ``(q, r, 1)`` up)."""
    q, r, up = (np.asarray(a, np.int64) for a in (q, r, up))
    down = np.stack([np.stack([q, r], -1), np.stack([q + 1, r], -1), np.stack([q, r + 1], -1)], 1)
    upp = np.stack([np.stack([q + 1, r], -1), np.stack([q + 1, r + 1], -1), np.stack([q, r + 1], -1)], 1)
    return np.where(up.astype(bool)[:, None, None], upp, down)


def triangle_of(a: tuple[int, int], b: tuple[int, int], c: tuple[int, int]) -> tuple[int, int, int]:
    sq, sr = a[0] + b[0] + c[0], a[1] + b[1] + c[1]
    return sq // 3, sr // 3, sq % 3 - 1


def _tri_pts(t: tuple[int, int, int]) -> list[tuple[int, int]]:
    """The three lattice points of one unit triangle (as :func:`tri_points`, without numpy)."""
    q, r, up = t
    return [(q + 1, r), (q + 1, r + 1), (q, r + 1)] if up else [(q, r), (q + 1, r), (q, r + 1)]


def placement_of(t: tuple[int, int, int], o: tuple[int, int, int]) -> tuple[int, int, int]:
    """The placement ``(q, r, turn)`` (anchored at the acute corner of ``t``) of the rhombus of two triangles."""
    pt, po = _tri_pts(t), _tri_pts(o)
    x = next(p for p in pt if p not in po)
    a, b = [p for p in pt if p in po]
    i = DIRS.index((a[0] - x[0], a[1] - x[1]))
    j = DIRS.index((b[0] - x[0], b[1] - x[1]))
    return int(x[0]), int(x[1]), i if j == (i + 1) % 6 else j


def corners_of(q: int, r: int, turn: int) -> list[tuple[int, int]]:
    d, e = DIRS[turn % 6], DIRS[(turn + 1) % 6]
    return [(q, r), (q + d[0], r + d[1]), (q + d[0] + e[0], r + d[1] + e[1]), (q + e[0], r + e[1])]


@dataclass(frozen=True)
class LatticePose:
    """Where the lattice lies on the mat: point ``0, 0`` at ``origin_mm``, ``D0`` turned ``angle_deg``."""

    origin_mm: tuple[float, float]
    angle_deg: float
    side_mm: float

    @property
    def basis(self) -> np.ndarray:
        """2x2: mm per lattice step along D0 (row 0) and D1 (row 1)."""
        a = math.radians(self.angle_deg)
        e0 = np.array([math.cos(a), math.sin(a)])
        e1 = np.array([math.cos(a + math.pi / 3), math.sin(a + math.pi / 3)])
        return np.stack([e0, e1]) * self.side_mm

    def to_mm(self, qr: np.ndarray) -> np.ndarray:
        return np.asarray(qr, np.float64).reshape(-1, 2) @ self.basis + np.asarray(self.origin_mm)

    def to_lattice(self, mm: np.ndarray) -> np.ndarray:
        """Fractional ``(q, r)`` of mat points."""
        return (np.asarray(mm, np.float64).reshape(-1, 2) - np.asarray(self.origin_mm)) @ np.linalg.inv(self.basis)


# --------------------------------------------------------------------------- colours and enrolment


def _lab(bgr: np.ndarray) -> np.ndarray:
    """Lab (L 0..100, a, b) of float or uint8 BGR (0..255), any shape (..., 3)."""
    arr = np.asarray(bgr, np.float32)
    flat = np.ascontiguousarray(arr.reshape(-1, 1, 3) / 255.0)
    return cv2.cvtColor(np.clip(flat, 0, 1), cv2.COLOR_BGR2Lab).reshape(arr.shape)


@dataclass
class SundaColours:
    """Colour classes learnt at enrolment (Lab) and the cloth there (BGR), for the per-frame correction."""

    land: np.ndarray
    water: np.ndarray
    cloth_bgr: np.ndarray
    pawns: dict[str, np.ndarray]

    def to_dict(self) -> dict[str, Any]:
        return {"land": self.land.tolist(), "water": self.water.tolist(), "cloth_bgr": self.cloth_bgr.tolist(),
                "pawns": {k: v.tolist() for k, v in self.pawns.items()}}


def enrolment_layout(mat: Mat, colours: Sequence[str]) -> tuple[dict[str, Any], list[str], tuple[float, float], float]:
    """Where the enrolment photo's things lie: an all-land piece at ``-3, 0`` turn 0, an all-water piece at
    ``1, 0`` turn 0 and a pawn of each colour on the points ``-3 + 2k, 3``, the lattice's point 0,0 at the
    play area's middle, unturned. Returns (position, pawn names, origin mm, angle)."""
    frame = [[0.0, 0.0], [1.0, 0.0], [1.5, SQ3 / 2], [0.5, SQ3 / 2]]
    pos = {"pieces": [{"q": -3, "r": 0, "turn": 0, "sides": "LLL LLL LLL LLL", "outline": [frame]},
                      {"q": 1, "r": 0, "turn": 0, "sides": "WWW WWW WWW WWW", "outline": []}],
           "tribes": [{"q": -4 + 2 * k, "r": 3, "pawns": [c]} for k, c in enumerate(colours)]}
    return pos, list(colours), mat.play_centre_mm, 0.0


def nearest(lab: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """Index of the nearest of ``centres`` (K, 3) for each colour of ``lab`` (N, 3), lightness weighted
    (``L_WEIGHT``): one product of matrices (|a - c|^2 = |a|^2 - 2 a.c + |c|^2, |a|^2 the same for every c) where
    a loop over the classes took 60-90 ms for a colour table of 32^3 colours, each time the light changed."""
    w = np.array([L_WEIGHT, 1.0, 1.0], np.float32)
    a = np.asarray(lab, np.float32).reshape(-1, 3) * w
    c = np.asarray(centres, np.float32).reshape(-1, 3) * w
    return np.argmin((c * c).sum(axis=1)[None, :] - 2.0 * (a @ c.T), axis=1)


def relit(img: np.ndarray, relight: np.ndarray | None) -> np.ndarray:
    """``img`` (BGR uint8) in the light of the colour table kept from an earlier frame: each channel times ``relight``
    (this frame's gain over that frame's, ``SundaReading._relight``); ``img`` itself where none moved by
    :data:`RELIGHT_LEAST`."""
    if relight is None or float(np.max(np.abs(np.asarray(relight) - 1.0))) < RELIGHT_LEAST:
        return img
    b, g, r = (float(v) for v in relight)
    return cv2.multiply(img, (b, g, r, 0.0))


def colour_index(bgr: np.ndarray) -> np.ndarray:
    """Each pixel's cell in a colour table of 32 x 32 x 32 (``(b >> 3) << 10 | (g >> 3) << 5 | r >> 3``) of a uint8
    BGR image: in 16 bits (the index fits 15), where int32 took twice as long (some 10 ms a frame at 1200 x 1200)."""
    q = (bgr >> 3).astype(np.uint16)
    return (q[..., 0] << 10) | (q[..., 1] << 5) | q[..., 2]


def _shade(lab: np.ndarray, factor: float) -> np.ndarray:
    """Lab of a colour with its light scaled by ``factor`` (a shadow on it)."""
    bgr = cv2.cvtColor(np.asarray(lab, np.float32).reshape(1, 1, 3), cv2.COLOR_Lab2BGR) * 255.0
    return _lab(bgr * factor).reshape(3)


def _mat_margin_mask(rect: Rectifier) -> np.ndarray:
    """Canvas pixels of the mat's cloth outside the play area, clear of the markers."""
    w, h = rect.canvas_size
    s = rect.px_per_mm
    mask = np.zeros((h, w), np.uint8)
    mat = rect.mat
    x, y, pw, ph = mat.play_rect_mm
    cv2.rectangle(mask, (int(4 * s), int(4 * s)), (int((mat.width_mm - 4) * s), int((mat.height_mm - 4) * s)), 255, -1)
    cv2.rectangle(mask, (int((x - 4) * s), int((y - 4) * s)), (int((x + pw + 4) * s), int((y + ph + 4) * s)), 0, -1)
    for mid in mat.marker_ids:
        c = np.array(mat.marker_corners_mm(mid))
        lo, hi = c.min(axis=0) - mat.marker_mm * 0.3, c.max(axis=0) + mat.marker_mm * 0.3
        cv2.rectangle(mask, (int(lo[0] * s), int(lo[1] * s)), (int(hi[0] * s), int(hi[1] * s)), 0, -1)
    return mask > 0


#: two groups of the pixels round a pawn (:func:`_unlike`) closer than this (Lab) are one: the pawn and its shadow on a
#: light cloth lie 30 and more apart, a black pawn and the dark grey cloth's shade under 15
UNLIKE_APART = 15.0


def _unlike(pixels: np.ndarray, cloth_lab: np.ndarray, rounds: int = 8) -> np.ndarray:
    """Of the pixels round a pawn least like the cloth (Lab), those of the pawn: two groups (k-means), the one farther
    from the cloth. The quarter least like the cloth within 14 mm holds the pawn's top (a disc 10 mm across: an
    eighth) and its shadow on the cloth; a dark pawn's shadow is lighter than its top, so the brightest half of both
    was the shadow (a black and a purple pawn enrolled as the same grey at `clean`)."""
    d = np.linalg.norm(pixels - cloth_lab, axis=1)
    centres = np.stack([pixels[int(np.argmax(d))], pixels[int(np.argmin(d))]]).astype(np.float64)
    for _ in range(rounds):
        near0 = np.linalg.norm(pixels - centres[0], axis=1) <= np.linalg.norm(pixels - centres[1], axis=1)
        if near0.all() or not near0.any():
            return pixels
        centres = np.stack([pixels[near0].mean(axis=0), pixels[~near0].mean(axis=0)])
    if np.linalg.norm(centres[0] - centres[1]) < UNLIKE_APART:
        return pixels         # one group (a dark pawn on a dark cloth: its shadow hardly shows)
    pawn = near0 if np.linalg.norm(centres[0] - cloth_lab) >= np.linalg.norm(centres[1] - cloth_lab) else ~near0
    return pixels[pawn] if pawn.sum() >= 10 else pixels


def enrol(frame: np.ndarray, mat: Mat, colours: Sequence[str], side_mm: float = 30.0,
          lens: LensCalibration | None = None) -> SundaColours:
    """Learn land, water and the pawn colours from a photo of :func:`enrolment_layout`."""
    rect = Rectifier(mat, px_per_mm=2.0, lens=lens)
    canvas = rect.warp(frame)
    s = rect.px_per_mm
    pos, names, origin, angle = enrolment_layout(mat, colours)
    lat = LatticePose(origin, angle, side_mm)
    lab = _lab(canvas.astype(np.float32))

    def inside(pd: Mapping[str, Any], shrink: float) -> np.ndarray:
        c = lat.to_mm(np.array(corners_of(pd["q"], pd["r"], pd["turn"])))
        m = c.mean(axis=0)
        poly = ((c - m) * shrink + m) * s
        mask = np.zeros(canvas.shape[:2], np.uint8)
        cv2.fillConvexPoly(mask, np.round(poly).astype(np.int32), 1)
        return mask > 0

    land = np.median(lab[inside(pos["pieces"][0], 0.6)], axis=0)
    water = np.median(lab[inside(pos["pieces"][1], 0.6)], axis=0)
    cloth = np.median(canvas[_mat_margin_mask(rect)].astype(np.float32), axis=0)
    pawns = {}
    yy, xx = np.mgrid[0:canvas.shape[0], 0:canvas.shape[1]]
    for td, name in zip(pos["tribes"], names):
        p = lat.to_mm(np.array([[td["q"], td["r"]]]))[0] * s
        near = (xx - p[0]) ** 2 + (yy - p[1]) ** 2 < (14 * s) ** 2
        # the pawn: the pixels there least like the cloth and the pieces; its top face is the brightest half
        d = np.linalg.norm(lab[near] - _lab(cloth[None])[0], axis=1)
        far = lab[near][d > np.percentile(d, 75)]
        if len(far) < 10:
            raise VisionError(T("enrolment: no {colour} pawn seen at its place ({q},{r})", colour=name, q=td["q"], r=td["r"]))
        far = _unlike(far, _lab(cloth[None])[0])
        top = far[far[:, 0] >= np.median(far[:, 0])]
        pawns[name] = np.median(top, axis=0)
    return SundaColours(land.astype(np.float32), water.astype(np.float32), cloth.astype(np.float32), pawns)


# --------------------------------------------------------------------------- the reading


class EmptyTable(VisionError):
    """No pieces on the table (yet): nothing fixes the lattice."""



@dataclass
class TribeReading:
    """A stack on a node: ``colours`` bottom to top (``None`` where a side could not be seen), ``height``
    (``None``: unknown), ``ask`` (the phone must ask: ``candidates`` are the heights it offers)."""

    q: int
    r: int
    top: str
    colours: list[str | None]
    height: int | None
    ask: bool
    candidates: list[int]
    mat_mm: tuple[float, float]
    parallax_per_pawn_mm: float
    #: the outline measured (vision.sundastacks.StackMeasure; None: none): the live loop's history compares it with
    #: the frame before's (tablehub/tracking/sundaheights.step_decision)
    measure: Any = field(default=None, repr=False, compare=False)
    #: what of its blob's pawn paint lies beyond its outline (:func:`_beyond`): (paint, mat mm, area mm2) each, a
    #: marker of that paint touching the stack, perhaps (the marker finder reads none there: listed as unsure); and the
    #: height at which its outline leaves it out (0: a blob apart by it, at any height: ``LONE_MM2``)
    beyond: list[tuple[str, tuple[float, float], float, int]] = field(default_factory=list, repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {"q": self.q, "r": self.r, "top": self.top, "colours": self.colours, "height": self.height,
                "ask": self.ask, "candidates": self.candidates}


@dataclass
class SundaReading:
    lattice: LatticePose | None                  # None: an empty table (nothing fixes the lattice yet)
    pieces: list[dict[str, Any]]                 # q, r, turn, sides, join, tris
    tribes: list[TribeReading]
    unsure: list[str] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)
    ms: dict[str, float] = field(default_factory=dict)
    covered: dict[tuple[int, int, int], int] = field(default_factory=dict)   # triangle -> piece index
    markers: list[Any] = field(default_factory=list)     # vision.sundamarkers.MarkerReading (when the reader has them)
    _canvas_small: np.ndarray | None = None
    _gain: np.ndarray | None = None
    _cloth: np.ndarray | None = None
    _lut: np.ndarray | None = None
    _loc: Any = None
    _marker_patches: list[np.ndarray] = field(default_factory=list)
    #: an incremental read: each channel's gain of this frame's light over the light ``_lut`` was built for (None: the
    #: same); what is classified with ``_lut`` is the frame times this (:func:`relit`)
    _relight: np.ndarray | None = None
    #: the triangles whose doubt an incremental read read again and that are still in doubt (REREAD_DOUBTS: not again)
    _doubts_read: frozenset = frozenset()
    #: ... and those of the set's doubts among them read again with the whole table (SETTLE_WHOLE: not again)
    _settled: frozenset = frozenset()
    #: the cloth's colour (BGR) measured in this reading's own frame (a doubt's window, :meth:`SundaReader.read`,
    #: reads the same frame in the same light)
    _cloth_seen: np.ndarray | None = None

    def position(self, players: Mapping[str, str], options: Mapping[str, Any] | None = None,
                 answers: Mapping[tuple[int, int], Sequence[str]] | None = None) -> dict[str, Any]:
        """The position ``tablehub score`` reads (``players``: pawn colour -> player name, in turn order).

        Every tribe the camera asked about (``ask``) needs its owners bottom to top in ``answers`` (from the
        phone), keyed by its node: a reading is never scored on a guessed height."""
        names = list(dict.fromkeys(players.values()))
        pieces = [{k: p[k] for k in ("q", "r", "turn", "sides")} | ({"join": p["join"]} if p["join"] != "water"
                                                                    else {}) for p in self.pieces]
        tribes = []
        answers = answers or {}
        for t in self.tribes:
            if t.ask:
                if (t.q, t.r) not in answers:
                    raise VisionError(T("sunda reading: the tribe at {q},{r} (top {top}) needs its height from the phone "
                                        "(candidates {candidates})", q=t.q, r=t.r, top=t.top, candidates=t.candidates))
                owners = list(answers[(t.q, t.r)])
            else:
                owners = [players.get(c or t.top, names[0]) for c in t.colours]
            tribes.append({"q": t.q, "r": t.r, "pawns": owners})
        extra = {"markers": [m.to_dict() for m in self.markers]} if (options or {}).get("resources") else {}
        return {"game": "sunda", "players": names, "options": dict(options or {}),
                "position": {"pieces": pieces, "tribes": tribes, **extra}}


class _Light(NamedTuple):
    """The light a read classifies a window in (:meth:`SundaReader._light_for`)."""
    gain: np.ndarray                  # each channel's gain to the enrolled cloth
    cloth: np.ndarray                 # the cloth's colour (BGR) the colour table is looked up for
    relight: np.ndarray | None        # an incremental read: this frame's gain over the kept table's (:func:`relit`)
    own: bool                         # the window read in this frame's own light (OWN_LIGHT), not the kept table's
    table: tuple | None               # the kept (gain, cloth, colour table) the reading hands on (None: from scratch)
    seen: np.ndarray                  # the cloth's colour measured in this frame (``SundaReading._cloth_seen``)


class SundaReader:
    """Reads Sunda tables from frames of one camera over one mat (see the module's doc)."""

    def __init__(self, mat: Mat, colours: SundaColours, side_mm: float = 30.0, lens: LensCalibration | None = None,
                 camera_matrix: np.ndarray | None = None, px_per_mm: float = 2.0):
        self.mat = mat
        self.colours = colours
        self.side_mm = float(side_mm)
        self.lens = lens
        self.camera_matrix = camera_matrix
        self.rect = Rectifier(mat, px_per_mm=px_per_mm, lens=lens)
        self.s = float(px_per_mm)
        margin = _mat_margin_mask(self.rect)
        ys, xs = np.nonzero(margin)
        self._margin_pts = np.column_stack([xs, ys])[::5].astype(np.float64)
        self._margin_key = None
        self._maps_key = None
        self._lut_key = None
        self._lazy: tuple[Any, Any] | None = None   # (light, stacks.ColourTable): the incremental reads' classes
        x, y, w, h = mat.play_rect_mm
        self._play = (int(x * self.s), int(y * self.s), int((x + w) * self.s), int((y + h) * self.s))
        self._win = self._play   # the canvas window being read (canvas px)
        self._pending: list | None = None   # the doubts' windows still to read in this frame (read)
        self._more: list | None = None      # ... and the change's other groups' windows (CHANGE_GROUPS)
        self.pawn_names = list(colours.pawns)
        self.prints: np.ndarray | None = None   # the owner's set (use_set): a constraint on the rings read
        self.print_counts: dict[int, int] = {}   # ... and how many pieces of each print it holds (a pool)
        self._set_notes: list[str] = []
        self.markers: Any = None    # a vision.sundamarkers.MarkerFinder: the resource markers are read when set
        #: each tribe's paint past its stack's outline is measured (:func:`_beyond`, ``TribeReading.beyond``): only the
        #: photo scorer lists it (tablehub.photo_sunda.load_reader sets it); 5-7 ms of a read the camera's path skips
        self.beyond = False
        self._still_patches: tuple | None = None   # (location, marker patches) _markers_still saw last

    def use_set(self, rings: Sequence[str]) -> None:
        """Read every piece as one of these prints (the owner's recorded set; ``vision.sundaset``): a ring none
        of them is gets its least sure slots corrected, or a note in ``unsure``. Raises ``ValueError`` on a
        ring that is not 12 slots of L and W."""
        self.prints = prints_array(rings)
        self.print_counts = print_counts(rings)   # the set as a pool: no more pieces of a print than it holds

    # ---------------------------------------------------------------- camera
    def _camera(self, frame_size: tuple[int, int], homography: np.ndarray) -> tuple[np.ndarray, float]:
        """Nadir (mat mm) and height (mm) of the camera, from the homography and the camera matrix."""
        if self.lens is not None:
            K = self.lens.for_size(frame_size).camera_matrix
        elif self.camera_matrix is not None:
            K = self.camera_matrix
        else:  # a Raspberry Pi Camera Module 3's field of view
            w, h = frame_size
            f = (w / 2) / math.tan(math.radians(66.0) / 2)
            K = np.array([[f, 0, (w - 1) / 2], [0, f, (h - 1) / 2], [0, 0, 1]])
        M = np.linalg.inv(K) @ np.linalg.inv(homography)
        lam = 1.0 / np.linalg.norm(M[:, 0])
        if M[2, 2] * lam < 0:
            lam = -lam
        r1, r2, t = M[:, 0] * lam, M[:, 1] * lam, M[:, 2] * lam
        R = np.column_stack([r1, r2, np.cross(r1, r2)])
        C = -R.T @ t
        return C[:2], float(abs(C[2]))

    def _window_grow_mm(self) -> float:
        """How far round the changed part of the table an incremental read reads again (mm): every piece with a corner
        in it lies wholly inside (a rhombus's long diagonal, ``sqrt(3)`` sides, and the cut outline :meth:`_land_joined`
        looks at), so a piece that was at the layout's edge beside the place a new piece now fills is read in this
        frame, not kept as read against the cloth there."""
        return INC_GROW_SIDES * self.side_mm + INC_GROW_MM

    # ---------------------------------------------------------------- per pixel
    def _gain(self, cloth_now: np.ndarray) -> np.ndarray:
        """The light correction of a frame whose cloth shows ``cloth_now`` (BGR): each channel's gain to the enrolled
        cloth, the cast kept and the light bounded."""
        gain = self.colours.cloth_bgr / np.maximum(cloth_now, 1.0)
        return np.clip(gain / gain.mean() * min(gain.mean(), 1.6), 0.4, 2.5)

    def _cloth_now(self, frame: np.ndarray, loc) -> np.ndarray:
        """The cloth's colour in this frame: the median of samples on the mat's margin."""
        pts = self._margin_pts
        key = (loc.homography.tobytes(), frame.shape)
        if self._margin_key != key:
            Hc = self.rect.canvas_homography(loc)
            und = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), np.linalg.inv(Hc)).reshape(-1, 2)
            if self.lens is not None:
                und = self.lens.for_size((frame.shape[1], frame.shape[0])).distort_points(und)
            ok = (und[:, 0] >= 0) & (und[:, 1] >= 0) & (und[:, 0] < frame.shape[1] - 1) & (und[:, 1] < frame.shape[0] - 1)
            self._margin_src = np.round(und[ok]).astype(np.int64)
            self._margin_flat = self._margin_src[:, 1] * frame.shape[1] + self._margin_src[:, 0]
            self._margin_key = key
        src = self._margin_src
        if len(src) and frame.ndim == 3 and frame.dtype == np.uint8 and frame.flags.c_contiguous:
            # np.median's value, counted (sorting the margin's ~79 000 samples was 3-5 ms of every incremental read)
            return median_u8(np.take(frame.reshape(-1, frame.shape[2]), self._margin_flat, axis=0))
        return np.median(frame[src[:, 1], src[:, 0]].astype(np.float32), axis=0)

    def _maps(self, frame: np.ndarray, loc) -> tuple[np.ndarray, np.ndarray]:
        """remap tables from the play area's canvas pixels to frame pixels (cached while the mat holds still)."""
        key = (loc.homography.tobytes(), frame.shape)
        if self._maps_key != key:
            x0, y0, x1, y1 = self._play
            ys, xs = np.mgrid[y0:y1, x0:x1].astype(np.float64)
            pts = np.column_stack([xs.ravel(), ys.ravel()])
            Hc = self.rect.canvas_homography(loc)
            und = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), np.linalg.inv(Hc)).reshape(-1, 2)
            if self.lens is not None:
                und = self.lens.for_size((frame.shape[1], frame.shape[0])).distort_points(und)
            mx = und[:, 0].reshape(ys.shape).astype(np.float32)
            my = und[:, 1].reshape(ys.shape).astype(np.float32)
            self._map = (mx, my)
            self._map_small = (np.ascontiguousarray(mx[2::4, 2::4]), np.ascontiguousarray(my[2::4, 2::4]))
            self._maps_key = key
        return self._map

    def _classify(self, win_img: np.ndarray, gain: np.ndarray, cloth_now: np.ndarray, lazy: bool = False
                  ) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        """Per pixel class: 0 cloth/other, 1 land, 2 water, 3+k pawn colour k; the lightness; the class centres.
        ``lazy``: the colour table of this light is filled only for the cells the window shows (an incremental read's
        window shows some thousands of the 32768; the classes are the whole table's), and kept while the light holds."""
        centres = {"cloth": _lab((cloth_now * gain)[None])[0], "land": self.colours.land, "water": self.colours.water}
        # in a pawn's shadow (and on a cut edge) land, water and cloth are darker, not another colour
        shade = {f"{k} shade": _shade(v, SHADE) for k, v in centres.items()}
        centres.update(self.colours.pawns)
        centres.update(shade)
        # a stack's sides face away from the light above: the pawn's colour, darker
        centres.update({f"{k} side shade": _shade(v, PAWN_SIDE) for k, v in self.colours.pawns.items()})
        pawns = [3 + k for k in range(len(self.colours.pawns))]
        remap = np.array([0, 1, 2] + pawns + [0, 1, 2] + pawns, np.uint8)
        # every colour of the frame (32 levels a channel, the gain applied) -> its class: one table while the
        # light holds
        key = (gain.tobytes(), cloth_now.tobytes())
        crop = cv2.GaussianBlur(win_img, (0, 0), 0.5 * self.s)
        if lazy and self._lut_key != key:
            if self._lazy is None or self._lazy[0] != key:
                cents = np.stack(list(centres.values()))
                self._lazy = (key, stacks.ColourTable(gain, lambda bgr: remap[nearest(_lab(bgr), cents)], np.uint8))
            label = self._lazy[1].lookup(crop)
        else:
            if self._lut_key != key:
                lv = np.arange(32, dtype=np.float32) * 8 + 4
                bgr = np.stack(np.meshgrid(lv, lv, lv, indexing="ij"), -1).reshape(-1, 3) * gain.astype(np.float32)
                lab = _lab(bgr)
                self._lut = remap[nearest(lab, np.stack(list(centres.values())))]
                self._lut_key = key
            label = self._lut[colour_index(crop)]
        grey8 = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
        grey = grey8.astype(np.float32) * (100.0 / 255.0)
        self._grey8 = (grey8, grey)   # the lightness in grey levels: _lines' morphology runs on them (4x less to move)
        names = [n for n in centres if not n.endswith(" shade")]
        return label, grey, {n: centres[n] for n in names}

    # ---------------------------------------------------------------- lattice fit
    def _lines(self, L: np.ndarray, piece: np.ndarray) -> np.ndarray:
        """Thin lines (gaps, cut edges) among the pieces: the black-hat and top-hat of the lightness."""
        k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (int(2 * round(1.6 * self.s) + 1),) * 2)
        # dark lines (cut edges; gaps over a dark cloth) and light ones (gaps over a light cloth)
        grey8, of = getattr(self, "_grey8", (None, None))
        if of is L:
            # the closing and opening on the grey levels L was scaled from (a min and a max commute with the
            # scaling: the same values, at a quarter of the bytes): the black-hat close - L, the top-hat L - open
            scale = 100.0 / 255.0
            close = cv2.morphologyEx(grey8, cv2.MORPH_CLOSE, k).astype(np.float32) * scale
            opened = cv2.morphologyEx(grey8, cv2.MORPH_OPEN, k).astype(np.float32) * scale
            bh = (close - L) + (L - opened)
        else:
            bh = cv2.morphologyEx(L, cv2.MORPH_BLACKHAT, k) + cv2.morphologyEx(L, cv2.MORPH_TOPHAT, k)
        k2 = int(2 * round(3 * self.s) + 1)
        near = cv2.morphologyEx(piece.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((k2, k2), np.uint8))
        near = cv2.dilate(near, np.ones((5, 5), np.uint8)) > 0
        return np.where(near, bh, 0).astype(np.float32)

    def _fold(self, pts: np.ndarray, wts: np.ndarray, angles: np.ndarray, phi: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray]:
        """For each angle, the sharpness of the three line families folded onto a row height, and the families'
        phases (mm): ``(score[A], phase[A, 3])``.

        The lines along direction ``theta`` are projected on its normal and folded (mod the row height) into a
        histogram whose peak is sharp at the lattice's directions; every direction the angles need is folded in
        one weighted ``bincount``. ``phi``: each line pixel's direction across the line (radians, mod pi); a
        pixel counts only for the directions within ``ORIENT_TOL_DEG`` of its own (on a small layout the other
        families' pixels would make false peaks). Angles on whole degrees (the coarse search) fold each pixel
        only into the directions near its own."""
        angles = np.asarray(angles, np.float64)
        thetas_deg = (angles[:, None] + 60.0 * np.arange(3)[None, :]).ravel()
        n_t = len(thetas_deg)
        tol = ORIENT_TOL_DEG
        if np.allclose(angles, np.round(angles)) and n_t >= 90:
            # whole degrees: each pixel is folded into the 2 x tol - 1 whole-degree directions round its own
            lut = np.full(180, -1, np.int64)
            ids = np.round(thetas_deg).astype(np.int64) % 180
            lut[ids] = np.arange(n_t)
            own = np.round(np.degrees(phi) - 90.0).astype(np.int64)
            cand = (own[:, None] + np.arange(-int(tol) + 1, int(tol))[None, :]) % 180      # (P, 2 tol - 1)
            col = lut[cand]
            keep = col >= 0
            p_idx = np.nonzero(keep)[0]
            col = col[keep]
            deg = np.radians(np.arange(180.0))
            c = cand[keep]
            proj = pts[p_idx, 0] * -np.sin(deg)[c] + pts[p_idx, 1] * np.cos(deg)[c]
            w = wts[p_idx]
        elif np.ptp(angles) < 20.0:
            # angles close together (the fine searches): each pixel runs along one family at most
            own = (np.degrees(phi) - 90.0 - angles.mean()) % 180.0
            fam = np.round(own / 60.0).astype(np.int64) % 3
            off = np.abs((own - 60.0 * fam + 90.0) % 180.0 - 90.0)
            sel = np.nonzero(off < tol + np.ptp(angles))[0]
            fam = fam[sel]
            tab = np.radians(60.0 * np.arange(3)[:, None] + angles[None, :])                  # (3, A)
            th = tab[fam]                                                                     # (P', A)
            dd = np.abs(((phi[sel, None] - (th + math.pi / 2)) + math.pi / 2) % math.pi - math.pi / 2)
            keep = dd < math.radians(tol)
            proj_all = pts[sel, 0:1] * -np.sin(tab)[fam] + pts[sel, 1:2] * np.cos(tab)[fam]
            rows, a_idx = np.nonzero(keep)
            proj = proj_all[keep]
            col = a_idx * 3 + fam[rows]
            w = wts[sel][rows]
        else:
            th_all = np.radians(thetas_deg)
            normals = np.stack([-np.sin(th_all), np.cos(th_all)])
            proj_all = pts @ normals                                                          # (P, T)
            d = np.abs(((phi[:, None] - (th_all[None, :] + math.pi / 2)) + math.pi / 2) % math.pi - math.pi / 2)
            keep = d < math.radians(tol)
            p_idx, col = np.nonzero(keep)
            proj = proj_all[keep]
            w = wts[p_idx]
        hist = self._fold_hist(proj, w, col, n_t)
        return self._fold_peaks(hist, wts.sum())

    def _fold_hist(self, proj: np.ndarray, w: np.ndarray, col: np.ndarray, n_t: int) -> np.ndarray:
        h = self.side_mm * SQ3 / 2
        nb = FOLD_BINS
        bins = ((proj % h) * (nb / h)).astype(np.int64) % nb
        hist = np.bincount(bins + nb * col, weights=w, minlength=n_t * nb).reshape(n_t, nb)
        return (3 * hist + 2 * (np.roll(hist, 1, 1) + np.roll(hist, -1, 1))
                + np.roll(hist, 2, 1) + np.roll(hist, -2, 1))

    def _fold_peaks(self, hist: np.ndarray, total: float) -> tuple[np.ndarray, np.ndarray]:
        h = self.side_mm * SQ3 / 2
        nb = FOLD_BINS
        n_t = hist.shape[0]
        i = np.argmax(hist, axis=1)
        rows = np.arange(n_t)
        y0, y1, y2 = hist[rows, (i - 1) % nb], hist[rows, i], hist[rows, (i + 1) % nb]
        den = y0 - 2 * y1 + y2
        frac = np.where(den < 0, 0.5 * (y0 - y2) / np.where(den < 0, den, -1.0), 0.0)
        phases = ((i + frac + 0.5) / nb) * h
        score = (y1 / (total + 1e-6)).reshape(-1, 3).sum(axis=1)
        return score, phases.reshape(-1, 3)

    def _fit_lattice(self, lines: np.ndarray, piece: np.ndarray) -> LatticePose:
        x0, y0 = self._win[:2]
        some = lines[::3, ::3]           # the levels, from every ninth pixel
        some = some[some > 0]
        if some.size:
            # the layout's outline lies on lattice lines too (half a gap inside): it carries a small layout, whose
            # few gaps and cut edges are faint against the print
            edge = cv2.morphologyEx(piece.astype(np.uint8), cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
            lines = cv2.scaleAdd(edge.astype(np.float32), float(np.percentile(some, 95)), lines)
            some = lines[::3, ::3]
            some = some[some > 0]
        thr = np.percentile(some, 80) if some.size else 0
        # the line pixels in raster order, as np.nonzero gives them (cv2.findNonZero: half the time on the window)
        found = cv2.findNonZero((lines > thr).view(np.uint8))
        found = found.reshape(-1, 2) if found is not None else np.zeros((0, 2), np.int32)   # (N, 1, 2) or (N, 2)
        xs, ys = found[:, 0], found[:, 1]
        if len(xs) < 50:
            raise EmptyTable(T("sunda: no pieces to fit the lattice to"))
        if len(xs) > FIT_POINTS:  # a random sample, in random order (the coarse searches use its first part)
            order = np.random.default_rng(0).integers(0, len(xs), FIT_POINTS)
        else:
            order = np.random.default_rng(0).permutation(len(xs))
        ys, xs = ys[order], xs[order]
        pts = np.column_stack([(xs + x0) / self.s, (ys + y0) / self.s])
        wts = lines[ys, xs].astype(np.float64)
        # each line pixel's direction across its line (the structure tensor of the line image)
        # (at half the resolution: a family is told within 20 degrees)
        half = cv2.resize(lines, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
        gx = cv2.Sobel(half, cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(half, cv2.CV_32F, 0, 1, ksize=3)
        sig = 0.5 * self.s
        hy, hx = np.minimum(ys // 2, half.shape[0] - 1), np.minimum(xs // 2, half.shape[1] - 1)
        jxx = cv2.GaussianBlur(gx * gx, (0, 0), sig)[hy, hx]
        jyy = cv2.GaussianBlur(gy * gy, (0, 0), sig)[hy, hx]
        jxy = cv2.GaussianBlur(gx * gy, (0, 0), sig)[hy, hx]
        phi = (0.5 * np.arctan2(2 * jxy, jxx - jyy)).astype(np.float64) % math.pi
        # coarse: every degree of the 60 that matter on a fifth of the line pixels; then finer around the best
        few = slice(0, 5000)
        coarse = np.arange(0.0, 60.0, 1.0)
        best = float(coarse[np.argmax(self._fold(pts[few], wts[few], coarse, phi[few])[0])])
        medium = np.arange(best - 0.8, best + 0.85, 0.2)
        best = float(medium[np.argmax(self._fold(pts[:8000], wts[:8000], medium, phi[:8000])[0])])
        fine = np.arange(best - 0.15, best + 0.16, 0.05)
        score, phases = self._fold(pts, wts, fine, phi)
        j = int(np.argmax(score))
        angle = float(fine[j]) % 60.0
        p0, p1 = float(phases[j, 0]), float(phases[j, 1])
        # the phases are of the angle searched (it may lie just below 0 or above 60): the lines' normals turn
        # with it; the lattice is the same turned by 60 degrees about a point, so the pose takes it mod 60
        a0, a1 = math.radians(float(fine[j])), math.radians(float(fine[j]) + 60)
        N = np.array([[-math.sin(a0), math.cos(a0)], [-math.sin(a1), math.cos(a1)]])
        origin = np.linalg.solve(N, np.array([p0, p1]))
        lat = LatticePose((float(origin[0]), float(origin[1])), angle, self.side_mm)
        # point 0,0: the lattice point nearest the middle of what is covered
        m = cv2.moments(piece.astype(np.uint8), binaryImage=True)
        cx, cy = m["m10"] / max(m["m00"], 1.0), m["m01"] / max(m["m00"], 1.0)
        mid = np.array([(cx + x0) / self.s, (cy + y0) / self.s])
        q, r = np.round(lat.to_lattice(mid)[0])
        o = lat.to_mm(np.array([[q, r]]))[0]
        return LatticePose((float(o[0]), float(o[1])), angle, self.side_mm)

    # ---------------------------------------------------------------- sampling helpers
    def _px(self, mm: np.ndarray) -> np.ndarray:
        x0, y0 = self._win[:2]
        return np.asarray(mm, np.float64) * self.s - [x0, y0]

    def _at(self, img: np.ndarray, mm: np.ndarray) -> np.ndarray:
        p = np.round(self._px(mm)).astype(np.int64)
        h, w = img.shape[:2]
        ok = (p[..., 0] >= 0) & (p[..., 0] < w) & (p[..., 1] >= 0) & (p[..., 1] < h)
        out = np.zeros(p.shape[:-1], img.dtype)
        out[ok] = img[p[..., 1][ok], p[..., 0][ok]]
        return out

    # ---------------------------------------------------------------- read
    def read(self, frame: np.ndarray, previous: SundaReading | None = None) -> SundaReading:
        """Read a frame from scratch, or (``previous``) keep its lattice and light and read again only the
        part of the table that changed (grown by a piece), keeping the rest; and, once, the part round the covered
        triangles ``previous`` left without a second half (``REREAD_DOUBTS``: in the change's window where they lie in
        or by it, else in a small window round each group of them, ``LOCAL_DOUBTS``, the pieces alone)."""
        self._pending = None
        self._more = None
        out = self._read(frame, previous)
        more, self._more = self._more, None
        for w in more or ():     # the other groups of the change, each in its window (CHANGE_GROUPS)
            again = self._read(frame, out, window=w)
            for k, v in out.ms.items():
                again.ms[k] = again.ms.get(k, 0.0) + v
            out = again
        pending, self._pending = self._pending, None
        if not pending:
            return out
        again = self._read(frame, out, pending)      # (the doubts' windows in one pass: the slots filled once)
        for k, v in out.ms.items():
            again.ms[k] = again.ms.get(k, 0.0) + v
        return again

    def _read(self, frame: np.ndarray, previous: SundaReading | None,
              force: list[tuple[tuple[int, int, int, int], frozenset]] | None = None,
              window: tuple[int, int, int, int] | None = None) -> SundaReading:
        """:meth:`read`'s one pass; ``force``: the windows (canvas px) and the doubts each reads again, ``frame`` being
        ``previous``'s own (the pieces alone are read there, one window after the other); ``window``: another group of
        the change (``CHANGE_GROUPS``), read as the first was, ``frame`` being ``previous``'s own.

        Three modes: from scratch (no ``previous``: the whole play area, the lattice fitted); incremental
        (``previous``: the window round what changed, :meth:`_window_for`, read in the kept lattice and light, the
        rest kept as ``previous`` read it, :meth:`_kept_outside`); and the doubts' windows (``force``:
        :meth:`_forced_window`, :meth:`_reread_doubts`)."""
        t0 = time.perf_counter()
        ms: dict[str, float] = {}
        if previous is not None and previous.lattice is None:  # an empty table read before: no lattice yet
            previous = None
        same = force is not None or window is not None
        settle: frozenset = frozenset()     # (the set's standing doubts this pass reads with the whole table)
        if same:        # ``previous`` is this frame's own reading: its location and canvas hold
            loc = previous._loc
            self._still_patches = (loc, previous._marker_patches)
        else:
            loc = previous._loc if previous is not None and self._markers_still(frame, previous) else None
        if loc is None:
            loc = self.rect.locate(frame)
        mx, my = self._maps(frame, loc)
        nadir, cam_h = self._camera((frame.shape[1], frame.shape[0]), loc.homography)
        if same and previous._canvas_small is not None:
            small = previous._canvas_small
        else:
            small = cv2.remap(frame, self._map_small[0], self._map_small[1], cv2.INTER_LINEAR)
        changed = None      # (incremental: the small canvas's pixels that changed)
        if force is not None:
            win, doubts, force = self._forced_window(force)
        elif window is not None:
            win, doubts, changed = window, frozenset(), self._changed_now
        elif previous is not None and previous._canvas_small is not None and previous._gain is not None:
            changed = self._changed_now = self._changed(small, previous)
            settle = self._standing(previous)
            if settle:      # (SETTLE_WHOLE: the whole table, every doubt with it; a quiet frame too)
                win, doubts = self._play, self._doubts(previous) | settle
            elif not changed.any():
                return self._unchanged(frame, previous, small, loc, t0)
            else:
                win, doubts = self._window_for(changed, previous)
        else:
            win, doubts = self._play, frozenset()
        incremental = previous is not None and win != self._play
        light = self._light_for(frame, loc, previous, same)
        self._win = win
        img = self._window_image(frame, mx, my, win, light)
        t1 = time.perf_counter()
        ms["mat"] = (t1 - t0) * 1000
        lazy = light.own and incremental
        label, L, centres = self._classify(img, light.gain, light.cloth, lazy=lazy)
        self._for_stacks = (img, light.gain, centres)   # a stack's height is measured on the colours (sundastacks)
        names = list(centres)
        piece = (label == 1) | (label == 2)
        t2 = time.perf_counter()
        ms["classify"] = (t2 - t1) * 1000
        lines = self._lines(L, piece)
        if previous is not None:
            lat = previous.lattice
        else:
            try:
                lat = self._fit_lattice(lines, piece)
            except EmptyTable:
                if piece.sum() > (self.side_mm * self.s) ** 2:  # pieces seen, but no lines among them
                    raise
                self._win = self._play
                out = SundaReading(None, [], [], ms=ms)  # type: ignore[arg-type]
                out._loc, out._marker_patches = loc, self._marker_patches(frame, loc)
                return out
        t3 = time.perf_counter()
        ms["lattice"] = (t3 - t2) * 1000
        keep = previous.pieces if previous is not None else []
        pieces, covered, unsure = self._pieces(lat, label, L, keep, lines)
        self._join_at = None
        if force is not None:
            pieces, covered, unsure = self._reread_doubts(frame, mx, my, force, win, label, lat, light, lazy, centres,
                                                          (pieces, covered, unsure), previous.markers)
        t4 = time.perf_counter()
        ms["pieces"] = (t4 - t3) * 1000
        # a pawn stands on a node of the layout (a tribe or a water right): one on the cloth is not in play, and a dark
        # patch of a dark cloth is not a black pawn
        nodes = {c for p in pieces for c in corners_of(p["q"], p["r"], p["turn"])}
        if force is not None:
            # a doubt's window, in the frame ``previous`` read: its tribes are read (or unchanged) already
            tribes = [t for t in previous.tribes if (t.q, t.r) in nodes]
        else:
            if incremental and NODE_FREE_SKIP and self._no_node_near(lat, nodes, win):
                tribes = []     # (what _tribes would find here: none on a node, or none inside, _kept_outside)
            else:
                reuse = self._unchanged_stacks(previous, changed, win) if incremental else None
                tribes = [t for t in self._tribes(lat, label, names, nadir, cam_h, reuse, covered)
                          if (t.q, t.r) in nodes]
            if incremental:
                tribes = self._kept_outside(previous.tribes, tribes, win)
        if incremental:
            # a triangle the window did not read again keeps its note (the set's notes are made again below): the
            # pieces kept round it are kept as read, so the doubt stands
            unsure = [u for u in previous.unsure if not u.startswith("piece at")
                      and not (u.startswith("triangle") and _triangle_of(u) in self._examined)] + unsure
        self._set_notes = []
        if force is not None:
            markers = previous.markers
        else:
            markers = (self.markers.find(img, light.gain, light.cloth, win[:2], self.s, lat, tribes) if self.markers
                       else [])
            if incremental:
                markers = self._kept_outside(previous.markers, markers, win)
            if HIDDEN_SLOTS:
                self._hide_markers(pieces, lat, label, markers)
        self._fill_hidden(pieces, covered, lat, tribes)
        self._join_at = None
        unsure = unsure + self._set_notes
        conflicts = _conflicts(pieces, covered)
        t5 = time.perf_counter()
        ms["pawns"] = (t5 - t4) * 1000
        ms["total"] = (t5 - t0) * 1000
        self._win = self._play
        out = SundaReading(lat, pieces, tribes, unsure, conflicts, ms, covered, markers)
        return self._handed_on(out, frame, loc, previous, small, light, doubts, settle)

    def _big(self) -> float:
        """A window over this much of the play area (canvas px²): the whole is read instead."""
        px0, py0, px1, py1 = self._play
        return 0.4 * (px1 - px0) * (py1 - py0)

    def _forced_window(self, force: list[tuple[tuple[int, int, int, int], frozenset]]
                       ) -> tuple[tuple[int, int, int, int], frozenset,
                                  list[tuple[tuple[int, int, int, int], frozenset]]]:
        """The doubts' windows (:meth:`read`'s second pass): the first window, every doubt, and the windows to read;
        windows over :meth:`_big` together: the whole play area in one."""
        win, doubts = force[0][0], frozenset().union(*(d for _, d in force))
        if sum((w[2] - w[0]) * (w[3] - w[1]) for w, _ in force) > self._big():
            win, force = self._play, [(self._play, doubts)]
        return win, doubts, force

    def _changed(self, small: np.ndarray, previous: SundaReading) -> np.ndarray:
        """The small canvas's pixels that changed since ``previous`` (any channel by over 45, both blurred)."""
        diff = cv2.absdiff(cv2.GaussianBlur(small, (3, 3), 0), cv2.GaussianBlur(previous._canvas_small, (3, 3), 0))
        # (numpy's max over the colour axis took 3-4 ms of an incremental read)
        return cv2.max(cv2.max(diff[..., 0], diff[..., 1]), diff[..., 2]) > 45

    def _unchanged(self, frame: np.ndarray, previous: SundaReading, small: np.ndarray, loc: Any, t0: float
                   ) -> SundaReading:
        """``previous`` handed on as this frame's reading: nothing changed (its light measured again)."""
        out = SundaReading(previous.lattice, previous.pieces, [self._carried(t) for t in previous.tribes],
                           previous.unsure,
                           previous.conflicts, covered=previous.covered)
        out._canvas_small, out._gain, out._cloth, out._lut = small, previous._gain, previous._cloth, previous._lut
        out._loc, out._marker_patches = loc, previous._marker_patches
        out.markers = previous.markers
        out._doubts_read = previous._doubts_read
        out._settled = previous._settled
        out._relight = self._gain(self._cloth_now(frame, loc)) / previous._gain if RELIGHT else None
        out.ms = {"total": (time.perf_counter() - t0) * 1000}
        return out

    def _window_for(self, changed: np.ndarray, previous: SundaReading
                    ) -> tuple[tuple[int, int, int, int], frozenset]:
        """An incremental read's window (canvas px) and the doubts it reads again: the ``changed`` pixels' box grown
        (:meth:`_grown`), with the doubts ``previous`` left (:meth:`_doubts`) in or by it (``LOCAL_DOUBTS``:
        :meth:`_doubt_windows`; else in it when the two fit in :meth:`_big`, or in a window of their own,
        ``self._pending``); a window over :meth:`_big`: the whole play area, every doubt with it. ``CHANGE_GROUPS``:
        the first group's window (:meth:`_change_groups`), the others' left in ``self._more`` for :meth:`read`, while
        the windows together fit in :meth:`_big`."""
        big = self._big()
        groups = self._change_groups(changed)
        box, win = groups[0]
        if len(groups) > 1 and sum(_area(w) for _, w in groups) <= big:
            self._more = [w for _, w in groups[1:]]
        else:
            for b, w in groups[1:]:
                box, win = _union(box, b), _union(win, w)
        doubts = self._doubts(previous)
        if doubts and LOCAL_DOUBTS:
            win, doubts = self._doubt_windows(previous, doubts, win, big)
        elif doubts:
            c = previous.lattice.to_mm(tri_points(*(np.array(v) for v in zip(*sorted(doubts)))).reshape(-1, 2))
            c = c * self.s
            at = (int(np.floor(c[:, 0].min())), int(np.floor(c[:, 1].min())), int(np.ceil(c[:, 0].max())),
                  int(np.ceil(c[:, 1].max())))
            both = self._grown(_union(box, at))
            if _area(both) <= big:
                win = both
            elif _area(win) <= big:
                # far from the change: read in a window of their own (:meth:`read`), not the table between
                self._pending, doubts = [(self._grown(at), doubts)], frozenset()
        if _area(win) + sum(_area(w) for w in self._more or ()) > big:
            win = self._play
            self._more = None
            if self._pending:       # (the whole table read: every doubt with it)
                doubts = doubts.union(*(d for _, d in self._pending))
                self._pending = None
        return win, doubts

    def _change_groups(self, changed: np.ndarray) -> list[tuple[tuple[int, int, int, int], tuple[int, int, int, int]]]:
        """The groups of the ``changed`` pixels (small canvas): each one's box (canvas px) and window (the box
        :meth:`_grown`), groups whose windows meet joined (the window of the joined boxes is the two windows' union);
        with ``CHANGE_GROUPS`` off, one group round them all."""
        px0, py0 = self._play[:2]
        if CHANGE_GROUPS:
            stats = cv2.connectedComponentsWithStats(changed.astype(np.uint8), connectivity=8)[2]
            boxes = [(px0 + 4 * int(x), py0 + 4 * int(y), px0 + 4 * int(x + w), py0 + 4 * int(y + h))
                     for x, y, w, h, _ in stats[1:]]
        else:
            ys, xs = np.nonzero(changed)
            boxes = [(px0 + 4 * int(xs.min()), py0 + 4 * int(ys.min()), px0 + 4 * int(xs.max()) + 4,
                      py0 + 4 * int(ys.max()) + 4)]
        return _joined([(b, self._grown(b)) for b in boxes])

    def _light_for(self, frame: np.ndarray, loc: Any, previous: SundaReading | None, forced: bool) -> _Light:
        """The light a window is classified in (:class:`_Light`). From scratch: this frame's, measured on the cloth.
        After ``previous``: the colour table of its light is kept for the reading (building one is 10-20 ms), and this
        frame's light measured on the cloth again (``forced``: ``previous`` measured it in this very frame): a
        camera's white balance wanders from frame to frame (5 % a channel at `hard`; ``relight``, each channel's gain
        now over then, puts a frame in the table's light); ``OWN_LIGHT``: the window itself read in its own light, as
        from scratch (the table's cells filled as looked up)."""
        if previous is None or previous._gain is None:
            cloth_now = self._cloth_now(frame, loc)
            return _Light(self._gain(cloth_now), cloth_now, None, False, None, cloth_now)
        table = (previous._gain, previous._cloth, previous._lut)
        if forced and previous._cloth_seen is not None:
            cloth_f = previous._cloth_seen
        else:
            cloth_f = self._cloth_now(frame, loc) if RELIGHT or OWN_LIGHT else previous._cloth
        relight = self._gain(cloth_f) / previous._gain if RELIGHT else None
        own = OWN_LIGHT and previous._lut is not None
        if own:
            return _Light(self._gain(cloth_f), cloth_f, relight, own, table, cloth_f)
        gain, cloth_now = previous._gain, previous._cloth
        if previous._lut is not None:
            self._lut, self._lut_key = previous._lut, (gain.tobytes(), cloth_now.tobytes())
        return _Light(gain, cloth_now, relight, own, table, cloth_f)

    def _window_image(self, frame: np.ndarray, mx: np.ndarray, my: np.ndarray, win: tuple[int, int, int, int],
                      light: _Light) -> np.ndarray:
        """The canvas window ``win`` of ``frame`` (the play area's maps ``mx``, ``my``), in the colour table's light
        (:func:`relit`) unless it is read in its own."""
        px0, py0 = self._play[:2]
        x0, y0, x1, y1 = win
        img = cv2.remap(frame, np.ascontiguousarray(mx[y0 - py0:y1 - py0, x0 - px0:x1 - px0]),
                        np.ascontiguousarray(my[y0 - py0:y1 - py0, x0 - px0:x1 - px0]), cv2.INTER_LINEAR)
        return img if light.own else relit(img, light.relight)

    def _reread_doubts(self, frame: np.ndarray, mx: np.ndarray, my: np.ndarray,
                       force: list[tuple[tuple[int, int, int, int], frozenset]], win: tuple[int, int, int, int],
                       label: np.ndarray, lat: LatticePose, light: _Light, lazy: bool, centres: Any,
                       read: tuple[list, dict, list], markers: list) -> tuple[list, dict, list]:
        """The doubts' windows, one after the other: ``read`` (pieces, covered, unsure) is the first window's
        (``win``, classified as ``label``); each further window's pieces are read on top, and in each the sides under
        a ``markers`` hidden (``HIDDEN_SLOTS``). The slots are filled once, after the last (:meth:`_fill_hidden`: where
        a piece's join is seen, ``self._join_at``, left set for it). Returns pieces, covered, unsure."""
        pieces, covered, unsure = read
        self._join_at = [(win, label)]
        examined = set(self._examined)
        for k, (w, _) in enumerate(force):
            if k:
                self._win = w
                img = self._window_image(frame, mx, my, w, light)
                label, L, _ = self._classify(img, light.gain, light.cloth, lazy=lazy)
                self._for_stacks = (img, light.gain, centres)     # (the slots' unmixing looks at the window's colours)
                pieces, covered, more = self._pieces(lat, label, L, pieces,
                                                     self._lines(L, (label == 1) | (label == 2)))
                unsure += more
                examined |= self._examined
                self._join_at.append((w, label))
            if HIDDEN_SLOTS:
                self._hide_markers([p for p in pieces if p["tris"][0] in self._examined
                                    and p["tris"][1] in self._examined], lat, label, markers)
        self._examined = examined
        self._win = win
        return pieces, covered, unsure

    def _kept_outside(self, before: list, now: list, win: tuple[int, int, int, int]) -> list:
        """An incremental read's tribes or markers: ``before``'s outside the window ``win`` (12 mm inside its
        edges), ``now``'s inside it."""
        inner = KEPT_INNER_MM
        wx0, wy0, wx1, wy1 = win

        def within(mm) -> bool:
            return (wx0 / self.s + inner <= mm[0] < wx1 / self.s - inner
                    and wy0 / self.s + inner <= mm[1] < wy1 / self.s - inner)
        return [t for t in before if not within(t.mat_mm)] + [t for t in now if within(t.mat_mm)]

    def _no_node_near(self, lat: LatticePose, nodes: set, win: tuple[int, int, int, int]) -> bool:
        """Whether no node of ``nodes`` lies within a tribe's reach of the part of the window ``win`` (canvas px) whose
        tribes an incremental read takes (:meth:`_kept_outside`: ``KEPT_INNER_MM`` inside its edges). :meth:`_tribes`
        places a tribe only at the node within ``NODE_REACH`` sides (``NODE_SLACK_MM`` more for a blob asked unplaced)
        of its base, and a tribe carried from an earlier reading was placed so: in such a window every tribe it finds
        is dropped, as off every node or as outside the window's inner part, and the read need not look for them."""
        if not nodes:
            return True
        reach = NODE_REACH * lat.side_mm + NODE_SLACK_MM + 1.0      # (1 mm for the rounding)
        wx0, wy0, wx1, wy1 = (v / self.s for v in win)
        lo = np.array([wx0 + KEPT_INNER_MM, wy0 + KEPT_INNER_MM])
        hi = np.array([wx1 - KEPT_INNER_MM, wy1 - KEPT_INNER_MM])
        if (hi < lo).any():
            return True     # (no inner part: nothing inside is taken)
        mm = lat.to_mm(np.array(sorted(nodes), float))
        gap = np.maximum(np.maximum(lo - mm, mm - hi), 0.0)     # each node's distance from the inner part, per axis
        return bool((np.hypot(gap[:, 0], gap[:, 1]) > reach).all())

    def _handed_on(self, out: SundaReading, frame: np.ndarray, loc: Any, previous: SundaReading | None,
                   small: np.ndarray, light: _Light, doubts: frozenset, settled: frozenset = frozenset()
                   ) -> SundaReading:
        """``out`` with what the next read takes from it: the small canvas, the light and colour table, the doubts
        read again (``settled``: the set's doubts read with the whole table), the location and the markers' patches."""
        if light.own:
            out._canvas_small, (out._gain, out._cloth, out._lut) = small, light.table
        else:
            out._canvas_small, out._gain, out._cloth, out._lut = small, light.gain, light.cloth, self._lut
        out._relight = light.relight
        out._cloth_seen = light.seen
        if previous is not None:    # (a doubt read again and still standing is not read again; one gone may come back)
            out._doubts_read = (previous._doubts_read | doubts) & _doubted(out)
            out._settled = (previous._settled | settled) & _doubted(out)
        kept = getattr(self, "_still_patches", None)
        out._loc = loc
        out._marker_patches = kept[1] if kept is not None and kept[0] is loc else self._marker_patches(frame, loc)
        self._still_patches = None
        return out

    def _grown(self, box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
        """A box of canvas px grown by :meth:`_window_grow_mm`, within the play area."""
        grow = int(math.ceil(self._window_grow_mm() * self.s))
        px0, py0, px1, py1 = self._play
        return (max(px0, box[0] - grow), max(py0, box[1] - grow), min(px1, box[2] + grow), min(py1, box[3] + grow))

    def _doubt_box(self, lat: LatticePose, tris, grow_mm: float | None = None) -> tuple[int, int, int, int]:
        """The window (canvas px, within the play area) that reads the doubts ``tris`` again alone: their corners
        grown by ``grow_mm``, by default ``DOUBT_GROW_SIDES`` sides and ``INC_GROW_MM`` (every triangle two steps from
        one lies in it whole)."""
        c = lat.to_mm(tri_points(*(np.array(v) for v in zip(*sorted(tris)))).reshape(-1, 2)) * self.s
        if grow_mm is None:
            grow_mm = DOUBT_GROW_SIDES * self.side_mm + INC_GROW_MM
        grow = int(math.ceil(grow_mm * self.s))
        px0, py0, px1, py1 = self._play
        return (max(px0, int(np.floor(c[:, 0].min())) - grow), max(py0, int(np.floor(c[:, 1].min())) - grow),
                min(px1, int(np.ceil(c[:, 0].max())) + grow), min(py1, int(np.ceil(c[:, 1].max())) + grow))

    def _doubt_windows(self, previous: SundaReading, doubts: frozenset, win: tuple[int, int, int, int], big: float
                       ) -> tuple[tuple[int, int, int, int], frozenset]:
        """Where an incremental read reads ``doubts`` again (``LOCAL_DOUBTS``): those whose window (:meth:`_doubt_box`)
        meets the change's window ``win`` in it (grown to hold theirs, while under ``big`` px), the others in windows of
        their own, doubts whose windows meet read in one (``self._pending``, :meth:`read`). Returns the change's window
        and the doubts it reads."""
        alone = {_triangle_of(u) for u in previous.unsure if str(u).startswith("triangle")}    # (else a piece's slots)
        groups = _joined([({t}, self._doubt_box(previous.lattice, [t], None if t in alone else SET_DOUBT_GROW_MM))
                          for t in sorted(doubts)])    # doubts whose windows meet: one window
        inside: set = set()
        pending = []
        for tris, box in groups:
            both = _union(win, box)
            if _meet(win, box) and _area(both) <= big:
                win, inside = both, inside | tris
            else:
                pending.append((box, frozenset(tris)))
        self._pending = pending or None
        return win, frozenset(inside)

    def _doubts(self, previous: SundaReading) -> frozenset:
        """The covered triangles ``previous`` left without a second half (its "triangle ..." notes) and, with
        ``SET_DOUBTS``, the triangles of the pieces whose ring the owner's set doubts (its "piece at ..." notes), that
        no incremental read since has read again (``REREAD_DOUBTS``): the pieces round them were paired, or their
        slots read, in another frame's light and noise, and perhaps wrong."""
        if not REREAD_DOUBTS:
            return frozenset()
        return _doubted(previous) - previous._doubts_read

    def _standing(self, previous: SundaReading) -> frozenset:
        """``SETTLE_WHOLE``: the triangles of the pieces whose ring the owner's set doubts in ``previous`` that an
        incremental read read again in their window and that still stand, not yet read with the whole table."""
        if not (SETTLE_WHOLE and SET_DOUBTS and REREAD_DOUBTS):
            return frozenset()
        return (_doubted(previous, covered=False) & previous._doubts_read) - previous._settled

    def _marker_patches(self, frame: np.ndarray, loc) -> list[np.ndarray]:
        """Small grey crops of the frame round each marker (where the location puts it)."""
        out = []
        for mid in self.mat.marker_ids:
            quad = self.rect.mat_to_image(np.array(self.mat.marker_corners_mm(mid)), loc,
                                          (frame.shape[1], frame.shape[0]))
            x0, y0 = np.floor(quad.min(axis=0)).astype(int)
            x1, y1 = np.ceil(quad.max(axis=0)).astype(int)
            x0, y0 = max(x0, 0), max(y0, 0)
            x1, y1 = min(x1, frame.shape[1]), min(y1, frame.shape[0])
            if x1 - x0 < 4 or y1 - y0 < 4:
                out.append(np.zeros((0, 0), np.float32))
                continue
            out.append(cv2.resize(cv2.cvtColor(frame[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY), None, fx=0.5, fy=0.5,
                                  interpolation=cv2.INTER_AREA).astype(np.float32))
        return out

    def _markers_still(self, frame: np.ndarray, previous: SundaReading) -> bool:
        """Whether every marker looks as it did in the previous frame (the camera and the mat did not move, no hand
        over a marker): then its location holds and the marker search is skipped."""
        if previous._loc is None or not previous._marker_patches:
            return False
        now = self._marker_patches(frame, previous._loc)
        self._still_patches = (previous._loc, now)     # the location is kept: these are the reading's patches too
        return all(a.size and a.shape == b.shape and _patch_change(b, a) <= MARKER_STILL
                   for a, b in zip(now, previous._marker_patches))

    # ---------------------------------------------------------------- pieces
    def _pieces(self, lat: LatticePose, label: np.ndarray, L: np.ndarray, keep: list[dict[str, Any]],
                lines: np.ndarray | None = None):
        """The pieces in the window (``L``: its lightness, and ``lines``, its line image: where the gaps between
        pieces are measured, :meth:`_line_along`); with ``keep`` (an earlier reading's pieces) those not wholly
        inside the window are kept as they were, and their triangles are not read again."""
        x0, y0, x1, y1 = self._win
        corners_mm = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]) / self.s
        fr = lat.to_lattice(corners_mm)
        qs = np.arange(int(np.floor(fr[:, 0].min())) - 1, int(np.ceil(fr[:, 0].max())) + 1)
        rs = np.arange(int(np.floor(fr[:, 1].min())) - 1, int(np.ceil(fr[:, 1].max())) + 1)
        Q, R, U = np.meshgrid(qs, rs, [0, 1], indexing="ij")
        Q, R, U = Q.ravel(), R.ravel(), U.ravel()
        P = lat.to_mm(tri_points(Q, R, U).reshape(-1, 2)).reshape(-1, 3, 2)
        bary = np.array([[1 / 3, 1 / 3, 1 / 3], [0.5, 0.25, 0.25], [0.25, 0.5, 0.25], [0.25, 0.25, 0.5],
                         [0.2, 0.4, 0.4], [0.4, 0.2, 0.4], [0.4, 0.4, 0.2]])
        samples = np.einsum("kj,njd->nkd", bary, P)
        lab = self._at(label, samples)
        piece_votes = ((lab == 1) | (lab == 2)).sum(axis=1)
        inside = ((samples[..., 0] * self.s >= x0) & (samples[..., 0] * self.s < x1)
                  & (samples[..., 1] * self.s >= y0) & (samples[..., 1] * self.s < y1)).all(axis=1)
        inside &= self._whole_in_window(P)
        examined = {(int(q), int(r), int(u)) for q, r, u in zip(Q[inside], R[inside], U[inside])}
        self._examined = examined       # (read: a kept note on a triangle not read again stands)
        kept = [dict(p) for p in keep if not (p["tris"][0] in examined and p["tris"][1] in examined)]
        held = {t for p in kept for t in p["tris"]}
        # a pawn hides the piece under it (a tall stack's top, seen off its node, a marker, a stack's shadow): its
        # samples count as covered when the samples seen are the piece's (pawns stand on nodes, round which every
        # triangle is covered) - a triangle by two stacks was read uncovered and its piece lost
        paint = (lab >= 3).sum(axis=1)
        hidden = paint
        if PAWN_RIM_MM > 0:
            # and a pawn's or marker's rim: its paint blurred into the print takes no class of its own (red into the
            # green land reads as the cloth's grey at `hard`), so a triangle holding a marker and a stack's foot
            # showed 1-3 print samples and lost its piece (seed 1 table 3)
            # (the pawn colours' blobs, thin lines opened away as in _tribes: a dark gap on a dark cloth may take the
            # black pawn's class, and it must still count as a gap)
            rim = self._paint_rim(label)
            hidden = hidden + ((lab == 0) & (self._at(rim, samples) > 0)).sum(axis=1)
        else:
            rim = None
        cov = inside & ((piece_votes >= 4) | ((piece_votes >= 2) & (piece_votes + hidden >= 5)))
        tris = [(int(q), int(r), int(u)) for q, r, u in zip(Q[cov], R[cov], U[cov])
                if (int(q), int(r), int(u)) not in held]
        index = {t: i for i, t in enumerate(tris)}
        # the shared sides between covered triangles, and how strong a gap line runs along each
        pairs = []
        for t in tris:
            if t[2] != 1:
                continue
            q, r, _ = t
            # an up triangle's three sides: with the down triangles east, south and its own cell
            for o, shared in (((q + 1, r, 0), ((q + 1, r), (q + 1, r + 1))), ((q, r + 1, 0), ((q, r + 1), (q + 1, r + 1))),
                              ((q, r, 0), ((q, r + 1), (q + 1, r)))):
                if o in index:
                    pairs.append((t, o, tuple(sorted(shared))))
        if pairs:
            gap = self._line_along(L, lat.to_mm(np.array([p[2][0] for p in pairs])),
                                   lat.to_mm(np.array([p[2][1] for p in pairs])), lines, label,
                                   rim if HIDDEN_ROWS else None)
        else:
            gap = np.zeros(0)
        # mutual weakest line first, then the rest by strength
        by_tri: dict[tuple, list[tuple[float, tuple]]] = {t: [] for t in tris}
        for (t, o, _), g in zip(pairs, gap):
            by_tri[t].append((float(g), o))
            by_tri[o].append((float(g), t))
        # an earlier reading's pieces still lying there stay paired as they were: a piece is laid whole, so in
        # play (incremental reads) a new piece's two triangles are the two that appeared, gaps seen or not
        mate: dict[tuple, tuple] = {}
        for p in keep:
            t, o = p["tris"]
            if t in by_tri and o in by_tri:
                mate[t], mate[o] = o, t
        order = sorted(((float(g), t, o) for (t, o, _), g in zip(pairs, gap)), key=lambda x: x[0])

        def best_free(t):
            c = [(g, o) for g, o in by_tri[t] if o not in mate]
            return min(c)[1] if c else None

        changed = True
        while changed:
            changed = False
            for g, t, o in order:
                if t in mate or o in mate:
                    continue
                if best_free(t) == o and best_free(o) == t:
                    mate[t], mate[o] = o, t
                    changed = True
        limit = _gap_limit(mate, pairs, gap)
        _augment(mate, by_tri, limit)
        if JOINT_PAIRING:
            fixed = {t for p in keep for t in p["tris"]}
            _augment_enclosed(mate, by_tri, fixed)
            _cancel_cycles(mate, by_tri, fixed)
        if PRINT_BEFORE_PAINT:
            # covered only because paint hides it (fewer than 4 print samples): it yields to a half whose print shows
            seen = {(int(q), int(r), int(u)) for q, r, u, n in zip(Q[cov], R[cov], U[cov], piece_votes[cov]) if n >= 4}
            given_up = _print_before_paint(mate, by_tri, seen, limit, {t for p in keep for t in p["tris"]})
            tris = [t for t in tris if t not in given_up]
        if UNDER_STACK:
            # (the paint alone: the cloth round a stack on the layout's outline is in its rim, and is no piece)
            hid_at = {(int(q), int(r), int(u)): int(h) for q, r, u, h, ok in zip(Q, R, U, paint, inside & ~cov) if ok}
            for t, o in _halves_under_stacks(mate, tris, hid_at, held).items():
                mate[t], mate[o] = o, t
                tris.append(o)
        if HEAP_NOT_PIECE:
            paint_at = {(int(q), int(r), int(u)): int(n) for q, r, u, n in zip(Q[inside], R[inside], U[inside],
                                                                                paint[inside])}
            heap = set(_heaps_not_pieces(mate, set(tris) | held, paint_at, held, len(kept)))
            for t in heap:
                mate.pop(t, None)
            tris = [t for t in tris if t not in heap]   # (no notes on them either: no piece lies there to ask)
        pieces, covered, unsure = [], {}, []
        for t in tris:
            if t in mate or t in covered:
                continue
            unsure.append(T("triangle {q},{r},{corner} is covered but no second half of its piece was found",
                            q=t[0], r=t[1], corner=t[2]))
        done = set()
        for t in tris:
            o = mate.get(t)
            if o is None or t in done:
                continue
            done.update((t, o))
            q, r, turn = placement_of(t, o)
            covered[t] = covered[o] = len(pieces)
            pieces.append({"q": q, "r": r, "turn": turn, "tris": (t, o)})
        self._clear_of_cloth = self._off_cloth(P[cov], label) if SPIT_WEDGE else None
        self._read_sides(pieces, lat, label, rim)
        for p in kept:
            covered[p["tris"][0]] = covered[p["tris"][1]] = len(pieces)
            pieces.append(p)
        return pieces, covered, unsure

    def _whole_in_window(self, tris_mm: np.ndarray) -> np.ndarray:
        """Which triangles (``tris_mm``: (n, 3, 2) mat mm) an incremental read's window holds whole, corners and all
        (a pixel inside): a triangle whose inner samples lie inside but a corner outside had the slots by that corner
        read on nothing (outside the window every sample is the cloth's class) and was read wrong. The window's sides
        that are the play area's keep what a read from scratch reads there (every triangle whose samples lie in it)."""
        x0, y0, x1, y1 = self._win
        px0, py0, px1, py1 = self._play
        lo = np.array([-np.inf if x0 <= px0 else x0 + 1, -np.inf if y0 <= py0 else y0 + 1])
        hi = np.array([np.inf if x1 >= px1 else x1 - 1, np.inf if y1 >= py1 else y1 - 1])
        c = np.asarray(tris_mm, np.float64) * self.s
        return ((c >= lo) & (c <= hi)).all(axis=(1, 2))

    def _off_cloth(self, tris_mm: np.ndarray, label: np.ndarray) -> np.ndarray:
        """Where a spit's wedge may be looked at (uint8 0/1, ``label``'s frame): on the covered triangles
        (``tris_mm``, (n, 3, 2) mat mm) and farther than ``WEDGE_CLOTH_MM`` from the cloth, off them or of its class.
        The cloth is known from the frame: on the layout's outline, beige linen blurred with the teal water takes the
        land's class and colour (false spits by an acute corner at `hard`), and a gap of cloth lies between pieces
        laid off their places; neither may vote for a spit."""
        cover = np.zeros(label.shape, np.uint8)
        if len(tris_mm):
            polys = np.round(self._px(tris_mm) * 16).astype(np.int32)
            cv2.fillPoly(cover, list(polys.reshape(-1, 3, 1, 2)), 1, cv2.LINE_8, 4)
        cloth = ((cover == 0) | (label == 0)).astype(np.uint8)
        k = int(2 * round(WEDGE_CLOTH_MM * self.s) + 1)
        return 1 - cv2.dilate(cloth, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))

    def _paint_rim(self, label: np.ndarray) -> np.ndarray:
        """The pawn colours' blobs (:meth:`_pawn_blobs`) grown by their blurred rim, ``PAWN_RIM_MM`` (uint8 0/1)."""
        k = int(2 * round(PAWN_RIM_MM * self.s) + 1)
        return cv2.dilate(self._pawn_blobs(label), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))

    def _hide_markers(self, pieces: list[dict[str, Any]], lat: LatticePose, label: np.ndarray, markers: list) -> None:
        """Read again the sides of the pieces read now that a resource marker lies over, its disc and rim hidden as a
        pawn's paint is (``HIDDEN_SLOTS``): the colour classes do not tell a token from the print (a blue marker on
        land reads as water, seed 6 table 4 at `hard`: a slot 22 of 25 votes water on an all-land piece), and only
        the marker finder, after the pieces, knows it for one."""
        fresh = [p for p in pieces if "sides" not in p]
        if not markers or not fresh:
            return
        at = np.array([m.mat_mm for m in markers], np.float64)
        mids = lat.to_mm(np.array([corners_of(p["q"], p["r"], p["turn"]) for p in fresh], np.float64).reshape(-1, 2))
        mids = mids.reshape(-1, 4, 2).mean(axis=1)
        reach = lat.side_mm * SQ3 / 2 + MARKER_HIDES_MM
        near = (np.linalg.norm(mids[:, None, :] - at[None], axis=-1) <= reach).any(axis=1)
        if not near.any():
            return
        discs = np.zeros(label.shape, np.uint8)
        for c in np.round(self._px(at) * 16).astype(np.int64):
            cv2.circle(discs, (int(c[0]), int(c[1])), int(round(MARKER_HIDES_MM * self.s * 16)), 1, -1, cv2.LINE_8, 4)
        self._read_sides([p for p, n in zip(fresh, near) if n], lat, label, self._paint_rim(label) | discs, discs)

    def _line_along(self, L: np.ndarray, a: np.ndarray, b: np.ndarray, lines: np.ndarray | None = None,
                    label: np.ndarray | None = None, hidden: np.ndarray | None = None) -> np.ndarray:
        """How clearly a gap runs along each side from ``a`` to ``b`` (mat mm, (n, 2)), on the lightness ``L``.

        A gap is a straight line along the whole side (cloth between two cut edges; a piece is off its place by a
        hand's error, so it may run up to 1.5 mm off the lattice's). The lightness is averaged along the side first
        (13 samples at each offset across it, -3 to 3 mm): the profile across the side, its noise down by the
        square root of 13. The gap is how far the profile dips within 1.5 mm of the side below the darker of its
        two ends (a dark gap, or a light cloth between dark cut edges that the blur averages to about the print),
        or rises above the lighter (a light gap): a step between two prints of other tones is neither.
        Measured on a line image (black-hat and top-hat: each pixel's contrast taken before the averaging), the
        noise was rectified and kept its mean: under a beige cloth at `hard` a gap (a dip of 3-4 in lightness)
        showed no more than a piece's own middle, and 38 pieces were paired across their gaps.

        With ``lines`` (that line image) its mean along the side at the strongest offset within 1.5 mm is added,
        weighted ``LINE_WEIGHT``: a thin light gap between two dark cut edges is a ripple whose mean the blur
        nearly cancels (a dip measured against its sides under a step of the light, seed 1 table 2 at `default`:
        3 pieces lost), while each pixel's black-hat and top-hat still see it.

        With ``label`` (the classes) the step of the print's tone across the side, where both its ends show one
        terrain, is added, weighted ``STEP_WEIGHT`` (:func:`_tone_step`): on beige linen at `hard` three pieces about a
        node showed no dip on their true cuts, only one print a little lighter than the next (seed 3 table 2).

        With ``hidden`` (the pawns' and markers' paint and its blurred rim, :meth:`_pieces`) the samples along the
        side whose profile crosses it are left out (``HIDDEN_ROWS``): a pawn stands on a node, where sides start, and
        its bright or dark paint across a profile's middle reads as a light or dark line (seed 4 table 0 at `hard`: a
        yellow pawn at a node made a piece's own diagonal a "gap" of 2.7 against 0.7 on the true cut beside it, and
        three pieces were paired wrong about it)."""
        along = np.linspace(0.15, 0.85, 13)
        d = b - a
        n = np.stack([-d[:, 1], d[:, 0]], 1) / np.linalg.norm(d, axis=1, keepdims=True)
        pts = (a[:, None, None, :] + along[None, :, None, None] * d[:, None, None, :]
               + GAP_OFFSETS[None, None, :, None] * n[:, None, None, :])
        vals = self._at(L, pts).astype(np.float32)
        keep = _unhidden_rows(self._at(hidden, pts) if hidden is not None else None, vals.shape[:2])   # (n, along)
        kept = keep.sum(axis=1)[:, None]
        prof = (vals * keep[..., None]).sum(axis=1) / kept                       # (n, offsets)
        ends = 2                                                                 # 2.5 to 3 mm out, each side
        left, right = prof[:, :ends].mean(axis=1), prof[:, -ends:].mean(axis=1)
        centre = prof[:, 3:-3]                                                   # within 1.5 mm of the side
        dip = np.minimum(left, right) - centre.min(axis=1)
        rise = centre.max(axis=1) - np.maximum(left, right)
        gap = np.maximum(np.maximum(dip, rise), 0.0)
        if STEP_WEIGHT > 0 and label is not None:
            gap = gap + STEP_WEIGHT * _tone_step(vals, self._at(label, pts[:, :, [0, -1]]))
        if lines is not None:
            near = pts[:, :, 3:-3]                                               # within 1.5 mm of the side
            gap = gap + LINE_WEIGHT * ((self._at(lines, near) * keep[..., None]).sum(axis=1) / kept).max(axis=1)
        return gap

    def _read_sides(self, pieces: list[dict[str, Any]], lat: LatticePose, label: np.ndarray,
                    rim: np.ndarray | None = None, tokens: np.ndarray | None = None) -> None:
        """Each slot's land and water votes: label samples round the slot's point, 0.4 to 1.9 mm inside the
        side (0.9 to 3 mm where those show too little), the nearest counting most (the pieces file reads a
        slot at its point on the side; deeper in, the land of the next slot may curl round). The sides are the
        piece's as cut (``PIECE_GAP_MM``): on the lattice's rhombus an acute corner's slot was read up to a gap too
        near the corner, where the cut edge, the cloth and the piece across the corner blur in (false and missed
        one-slot spits at `hard`). With ``HIDDEN_SLOTS`` no sample on ``rim`` (the pawn colours' paint and its blurred
        rim, and the resource markers' discs, :meth:`_hide_markers`) votes, and none on ``tokens`` (the markers' discs)
        counts deeper in."""
        if not pieces:
            return
        C = lat.to_mm(np.array([c for p in pieces for c in corners_of(p["q"], p["r"], p["turn"])])).reshape(-1, 4, 2)
        mid = C.mean(axis=1)
        if PIECE_GAP_MM > 0:     # the piece as cut: its lattice rhombus inset by half a gap on every side (it has an
            C = mid[:, None, :] + (C - mid[:, None, :]) * (1.0 - PIECE_GAP_MM / (lat.side_mm * math.sqrt(3) / 2))
        mix = self._mixing(label) if UNMIX else None
        a = C
        b = np.roll(C, -1, axis=1)
        d = b - a
        t = d / np.linalg.norm(d, axis=-1, keepdims=True)
        nrm = np.stack([-t[..., 1], t[..., 0]], -1)
        sgn = np.sign(((mid[:, None, :] - (a + b) / 2) * nrm).sum(-1, keepdims=True))
        nrm = nrm * sgn                                                  # pointing into the piece
        along = (np.arange(3)[:, None] + np.array([0.3, 0.4, 0.5, 0.6, 0.7])[None]) / 3    # (3, 5)
        votes = []
        # near the side first; where that shows too little (a wide gap, a piece laid off its place), deeper in
        for insets, decay in ((np.array([0.4, 0.7, 1.0, 1.4, 1.9]), 0.6), (np.array([0.9, 1.3, 1.8, 2.4, 3.0]), 0.8)):
            pts = (a[:, :, None, None, None, :] + along[None, None, :, :, None, None] * d[:, :, None, None, None, :]
                   + insets[None, None, None, None, :, None] * nrm[:, :, None, None, None, :])
            pts = pts.reshape(len(pieces), 4, 3, 25, 2)
            lab = self._at(label, pts)                                        # (n, 4, 3, 25)
            if mix is not None:
                fl, fw = self._unmix(mix, pts, lab)
            # only samples nearer their own side than any other (at an acute corner the next side is close)
            dist = (np.matmul(pts.reshape(len(pieces), -1, 2), nrm.transpose(0, 2, 1)).reshape(len(pieces), 4, 3, 25, 4)
                    - (a * nrm).sum(-1)[:, None, None, None, :])
            own = dist[:, np.arange(4), :, :, np.arange(4)].transpose(1, 0, 2, 3)          # each sample's own side
            valid = own <= np.minimum(np.minimum(dist[..., 0], dist[..., 1]),
                                      np.minimum(dist[..., 2], dist[..., 3])) + 1e-6   # (a reduce over 4 was slow)
            # nearest the slot's point on the side counts most (the pieces file reads the slot there)
            w = (np.exp(-((along[0] - along[0].mean()) * 3 / 0.15) ** 2 / 2)[:, None]
                 * np.exp(-(insets - insets[0]) / decay)[None, :]).ravel()
            w = (w * 25 / w.sum()).astype(np.float32)
            # every sample but those on a marker's disc, and those clear of a pawn's or marker's paint and rim too
            # (HIDDEN_SLOTS)
            if HIDDEN_SLOTS and tokens is not None:
                valid = valid & (self._at(tokens, pts) == 0)
            for m in (valid, valid & (self._at(rim, pts) == 0) if HIDDEN_SLOTS and rim is not None else valid):
                if mix is not None:
                    votes.append(np.stack([(fl * m * w).sum(-1), (fw * m * w).sum(-1),
                                           (((lab == 0) & m) * w).sum(-1)], -1))
                else:
                    votes.append(np.stack([(((lab == 1) & m) * w).sum(-1), (((lab == 2) & m) * w).sum(-1),
                                           (((lab == 0) & m) * w).sum(-1)], -1))
        near, near_seen, deep, deep_seen = votes
        vv = np.where((near[..., :2].sum(-1, keepdims=True) >= 8), near, deep)     # (n, 4, 3, 3)
        shown = np.where((near_seen[..., :2].sum(-1, keepdims=True) >= 8), near_seen, deep_seen)
        # a slot mostly under the paint and its rim (at most a few far samples clear of it, which may be the next
        # slot's terrain) is read on all its samples but a marker's, as before (the pawn colours' class also takes a
        # dark cut edge: the rim found is not always paint)
        vv = np.where(shown[..., :2].sum(-1, keepdims=True) >= SEEN_LEAST, shown, vv)
        lv, wv, bv = vv[..., 0], vv[..., 1], vv[..., 2]
        # deeper in, from each slot's point towards the piece's middle (a spit's or notch's body: at the side
        # the camera's blur and the JPEG's chroma may have thinned it away; only for the lone-slot test)
        spot = a[:, :, None, :] + ((np.arange(3) + 0.5) / 3)[None, None, :, None] * d[:, :, None, :]   # (n, 4, 3, 2)
        toward = mid[:, None, None, :] - spot
        side = np.stack([-toward[..., 1], toward[..., 0]], -1) / np.maximum(
            np.linalg.norm(toward, axis=-1, keepdims=True), 1e-6)
        f = np.array([0.12, 0.18, 0.24, 0.30, 0.36])
        lat_mm = np.array([-1.0, 0.0, 1.0])
        dp = (spot[..., None, None, :] + f[None, None, None, :, None, None] * toward[..., None, None, :]
              + lat_mm[None, None, None, None, :, None] * side[..., None, None, :])              # (n, 4, 3, 5, 3, 2)
        dl = self._at(label, dp).reshape(len(pieces), 12, -1)
        # (``rim``: the pawns' and markers' paint and its blurred rim, as :meth:`_pieces` finds it, in ``label``'s
        # frame)
        hid = self._at(rim, dp).reshape(dl.shape) > 0 if rim is not None else np.zeros(dl.shape, bool)
        # the print there, not a marker over it (the pawn colours' rim is not left out: a dark cut edge may take the
        # black pawn's class, and a spit's body deeper in shows there, seed 5 table 5 at `hard`)
        seen = self._at(tokens, dp).reshape(dl.shape) == 0 if tokens is not None else np.ones(dl.shape, bool)
        deep_n = (((dl == 1) | (dl == 2)) & seen).sum(-1)
        deep_land = (((dl == 1) & seen).sum(-1) / np.maximum(deep_n, 1)).tolist()
        deep_water = (((dl == 2) & seen).sum(-1) / np.maximum(deep_n, 1)).tolist()
        deep_n = deep_n.tolist()
        # the deep samples of neither land nor water (nor a pawn's paint or its rim): the blend of a coast, as the
        # cloth cannot show this far inside a piece (``_blended_spit``)
        deep_blend = ((dl == 0) & ~hid).mean(-1).tolist()
        wedge = self._wedges(C, mid, rim) if SPIT_WEDGE else None
        mids = mid[:, None, :] + np.array([[0, 0], [1, 0], [-1, 0], [0, 1], [0, -1]])[None] * 1.0
        ml = self._at(label, mids)
        self._join_label = label          # where _land_joined looks (this window's classes)
        for i, p in enumerate(pieces):
            p["votes"] = np.stack([lv[i].ravel(), wv[i].ravel()], 1)    # (12, 2)
            p["blank"] = bv[i].ravel()
            p["deep"] = list(zip(deep_land[i], deep_water[i], deep_n[i]))  # each slot's land, water share, samples
            p["blend"] = deep_blend[i]                                             # each slot's blend share there
            if wedge is not None:
                p["wedge"] = wedge[i]                 # each slot's spit body's landness, nan where too little is seen
            p["mid"] = "?" if ((ml[i] == 1) | (ml[i] == 2)).sum() < 2 else (
                "L" if (ml[i] == 1).sum() >= (ml[i] == 2).sum() else "W")

    def _wedges(self, C: np.ndarray, mid: np.ndarray, rim: np.ndarray | None) -> np.ndarray | None:
        """Each slot's landness where a one-slot spit's body would lie: a spit is printed as a wedge of land whose
        base is the slot's middle half on the side (``SPIT_HALF`` of a slot each way of its point) and whose tip
        reaches ``SPIT_REACH`` of the way towards the piece's middle (the provisional set's spits, s030, s087; a spit
        by an acute corner leans away from it). Sampled at 8 depths from 15 to 60 % of the way to the tip, 5 across
        at each, within 0.8 of the wedge's width there; only samples clear of the cloth (``_clear_of_cloth``) and
        of the pawns' and markers' paint and rim (``rim``) count. The landness is a sample's colour (Lab, the
        frame's gain applied, lightness weighted as the classes are) projected on the line from the water's colour
        (0) to the land's (1): blur and the JPEG's halved chroma spread a thin spit's green over the water about it,
        so its samples are blends that the nearest class calls water (seeds 4, 5, 8 at `hard`: 0-3 land votes on
        the spits lost), while their mean still shows the land's share. ``C``: the pieces' corners as cut, (n, 4,
        2) mm; ``mid``: their middles. Returns (n, 12), the mean landness, nan where under ``WEDGE_LEAST`` samples
        count."""
        clear = getattr(self, "_clear_of_cloth", None)
        stacks = getattr(self, "_for_stacks", None)
        if clear is None or stacks is None or stacks[0].shape[:2] != clear.shape:
            return None
        img, gain, centres = stacks
        a, b = C, np.roll(C, -1, axis=1)                                              # (n, 4, 2)
        j = (np.arange(3) + 0.5) / 3
        base = a[:, :, None, :] + j[None, None, :, None] * (b - a)[:, :, None, :]      # (n, 4, 3, 2) slot points
        half = ((b - a) / 3 * SPIT_HALF)[:, :, None, :]                               # (n, 4, 1, 2)
        tip = base + SPIT_REACH * (mid[:, None, None, :] - base)
        tt = np.linspace(0.15, 0.6, 8)
        across = np.linspace(-0.8, 0.8, 5)
        pts = (base[..., None, None, :] + tt[:, None, None] * (tip - base)[..., None, None, :]
               + ((1 - tt)[:, None] * across[None, :])[..., None] * half[..., None, None, :])   # (n, 4, 3, 8, 5, 2)
        pts = pts.reshape(len(C), 12, 40, 2)
        ok = self._at(clear, pts) > 0
        if rim is not None:
            ok &= self._at(rim, pts) == 0
        bgr = np.stack([self._at(np.ascontiguousarray(img[..., c]), pts) for c in range(3)], -1)
        lab = _lab(bgr.astype(np.float32) * gain.astype(np.float32))
        w = np.array([L_WEIGHT, 1.0, 1.0], np.float32)
        axis = (np.asarray(centres["land"], np.float32) - np.asarray(centres["water"], np.float32)) * w
        z = (((lab - np.asarray(centres["water"], np.float32)) * w) @ axis) / max(float(axis @ axis), 1e-6)
        n = ok.sum(-1)
        return np.where(n >= WEDGE_LEAST, (z * ok).sum(-1) / np.maximum(n, 1), np.nan)

    def _mixing(self, label: np.ndarray) -> np.ndarray | None:
        """The unmixing matrix of this frame: land, water and the cloth as the frame shows them (raw BGR, the
        median of the pixels of each class in the window), so that a pixel blurred across a cut edge (the print
        and the cloth, or land and water across a thin spit) gives the share of each: blur and JPEG mix colours
        linearly, and a nearest-class label throws that mix away (a thin spit blurred into a dark cloth read as
        cloth, a cloth blended with water read as a pawn's colour)."""
        img = getattr(self, "_for_stacks", (None,))[0]
        if img is None or img.shape[:2] != label.shape:
            return None
        sub_l, sub_i = label[::6, ::6], img[::6, ::6].reshape(-1, 3).astype(np.float32)
        ends = []
        for k in (1, 2, 0):
            sel = sub_i[(sub_l == k).ravel()]
            if len(sel) < 30:
                return None
            ends.append(np.median(sel, axis=0))
        E = np.vstack([np.stack(ends, 1), np.full((1, 3), MIX_SUM, np.float32)])     # (4, 3): colours, sum to one
        return np.linalg.pinv(E).astype(np.float32)                                  # (3, 4)

    def _unmix(self, mix: np.ndarray, pts: np.ndarray, lab: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each sample's share of land and of water (the rest cloth): ``mix`` from :meth:`_mixing`. A sample no mix
        of the three explains (a pawn, a marker: a share clearly below 0) and one labelled a pawn's colour is hidden."""
        img = self._for_stacks[0]
        p = np.round(self._px(pts)).astype(np.int64)
        h, w = img.shape[:2]
        px = img[np.clip(p[..., 1], 0, h - 1), np.clip(p[..., 0], 0, w - 1)].astype(np.float32)
        x = px @ mix[:, :3].T + MIX_SUM * mix[:, 3]
        bad = (x.min(axis=-1) < -MIX_OUT) | (lab >= 3)
        x = np.clip(x, 0.0, None)
        x = x / np.maximum(x.sum(-1, keepdims=True), 1e-6)
        x[bad] = 0.0
        return x[..., 0], x[..., 1]

    @staticmethod
    def _deep_spit(deep: list[tuple[float, float, int]], k: int, around: str) -> bool:
        """A lone slot whose other terrain shows only deeper in, towards the middle (its body), clearly and
        there alone: at least DEEP_SPIT of its deep samples, and under a third of that at both neighbours.
        ``deep``: each slot's (land share, water share, samples) there."""
        j = 0 if around == "W" else 1                     # the other terrain: land in water, or water in land
        return (deep[k][2] >= 8 and deep[k][j] >= DEEP_SPIT
                and max(deep[k - 1][j], deep[(k + 1) % 12][j]) < DEEP_SPIT / 3)

    @staticmethod
    def _spit_body(deep: list[tuple[float, float, int]], k: int, around: str) -> bool:
        """Whether a lone slot's trace of the other terrain runs on deeper in, towards the piece's middle: a spit (or
        notch) is a body of its terrain reaching in from the side, while the print blended with the cut edge and the
        cloth at the side alone (open sea on the layout's outline on beige linen at `hard`: 15-48 % of a slot's
        votes land) shows none of it there. At least ``SPIT_BODY`` of the deep samples (``deep``: each slot's land
        share, water share, samples 12-36 % of the way to the middle)."""
        j = 0 if around == "W" else 1
        return deep[k][2] >= 8 and deep[k][j] >= SPIT_BODY

    @staticmethod
    def _blended_spit(blend: list[float], k: int) -> bool:
        """Whether a lone water slot between two water slots is a spit of land blended away: at least ``BLEND_DEEP`` of
        its deep samples (12-36 % of the way to the piece's middle, ``blend``: each slot's share there) are of neither
        land nor water nor a pawn's paint or rim, and at most half that share at both neighbours. That far inside a
        piece the cloth cannot show: what takes the cloth's class there is land and water blurred together, a coast.
        A spit a slot wide by an acute corner is a thin wedge of land (s030, s087: 5 mm at the side), blurred at `hard`
        with the water about it into the cloth's class at the side and deeper in (seeds 1, 2, 5: 6-15 of the 15 deep
        samples on the spits missed); on 5,348 water slots between water (`hard`, seeds 1-5, 8 tables) at most 5 were. (0.4
        would take two more of those spits, 8 of 15, but also the drawn case of tests/vision/test_sunda_spits.py's
        water by a corner, whose cloth's class reaches 5 mm in: 0.53.)"""
        return blend[k] >= BLEND_DEEP and max(blend[k - 1], blend[(k + 1) % 12]) <= BLEND_DEEP / 2

    @staticmethod
    def _wedge_spits(base: list[str], wedge: np.ndarray) -> list[tuple[int, str]]:
        """The lone slots between two read as water that a spit's body decides (:meth:`_wedges`, ``wedge``: each
        slot's mean landness there): land where it shows at least ``WEDGE_LAND`` of the land's colour, water where
        at most ``WEDGE_SEA`` (a slot read land by its votes undone: the cloth blurred into it), the rules above in
        between or where too little is seen. On `hard` seeds 3, 4, 5, 8 (24 tables): 150 true one-slot spits seen
        showed at least 0.15 (median 0.42, 1 % under 0.18), 16,000 water slots between water at most 0.21, the six
        false spits on the beige linen at most 0.14. ``base``: the ring read by the votes alone."""
        out = []
        for k in range(12):
            if base[k - 1] != "W" or base[(k + 1) % 12] != "W" or not np.isfinite(wedge[k]):
                continue
            if wedge[k] >= WEDGE_LAND:
                out.append((k, "L"))
            elif wedge[k] <= WEDGE_SEA:
                out.append((k, "W"))
        return out

    @staticmethod
    def _blurred_spits(votes: np.ndarray, blank: np.ndarray, water: np.ndarray) -> list[int]:
        """The slots that are a one-slot spit of land blurred away: between two slots read strongly as water
        (``water``), the slot's samples are mostly of the cloth's class (neither land nor water nor a pawn), with
        under BLURRED_SPIT of water among them. The piece as cut keeps the cloth out of a slot's samples, and open
        water's print reads as water to its cut edge, but a spit a slot wide by an acute corner, blurred with the
        water about it and the dark cut edge, is a mix that reads as neither (at `hard`, seeds 1-3: 1-7 % water on
        the spits missed; a quarter or more on every water slot between water, seeds 1-5 `hard` and 1-3 `default`).
        Land's print reads as the cloth's class in places (a land slot between land showed 4 % land): no water
        notch is read so.
        ``votes``: each slot's (land, water) votes; ``blank``: its cloth-class votes."""
        w = votes[:, 1]
        seen = w + blank
        lone = water[np.arange(-1, 11)] & water[(np.arange(12) + 1) % 12] & ~water
        return np.flatnonzero(lone & (seen >= 12) & (w < BLURRED_SPIT * seen)).tolist()

    def _fill_hidden(self, pieces, covered, lat: LatticePose, tribes: list[TribeReading]) -> None:
        """Slots hidden (a pawn over them): the neighbour's slot across the side, else land (pawns stand on
        land); then the sides and join as the position format writes them."""
        sides_at = _directed_sides(pieces)
        # an incremental read: the pieces kept from the earlier reading (they have their sides) stay as read,
        # but for those across a side from a piece read now (a slot hidden or weak takes the new neighbour's)
        fresh = [i for i, p in enumerate(pieces) if "sides" not in p]
        if len(fresh) < len(pieces):
            work = set(fresh)
            for i in fresh:
                cs = corners_of(pieces[i]["q"], pieces[i]["r"], pieces[i]["turn"])
                work.update(o[0] for s in range(4) if (o := sides_at.get((cs[(s + 1) % 4], cs[s]))) is not None)
            todo = [pieces[i] for i in sorted(work)]
        else:
            todo = pieces
        for p in todo:
            v = p["votes"]
            tot = v.sum(1)
            share = v[:, 0] / np.maximum(tot, 1)
            clear = (tot >= 8) & ((share <= 0.12) | (share >= 0.5))
            ring = ["?" if tot[k] == 0 else ("L" if share[k] >= LAND_SHARE else "W") for k in range(12)]
            # a lone slot of the other terrain between two is a thin spit (or notch) that the camera's blur and
            # chroma subsampling thin further: a clear trace of it is enough
            base = list(ring)
            deep = p["deep"]
            for k in range(12):
                a, b = base[k - 1], base[(k + 1) % 12]
                if a == b and a == base[k] and tot[k] >= 8:
                    def other(i: int) -> float:
                        return share[i % 12] if a == "W" else 1 - share[i % 12]
                    if (other(k) >= SPIT_SHARE and other(k) > other(k - 1) and other(k) > other(k + 1)
                            and (other(k) >= LAND_SHARE or self._spit_body(deep, k, a))):
                        ring[k] = "L" if a == "W" else "W"
                        clear[k] = True
                    elif self._deep_spit(deep, k, a):
                        ring[k] = "L" if a == "W" else "W"
                elif HIDDEN_DEEP and a == b and a in "LW" and tot[k] < 8 and self._deep_spit(deep, k, a):
                    ring[k] = "L" if a == "W" else "W"
                    clear[k] = True
                if (BLEND_DEEP > 0 and a == b == base[k] == ring[k] == "W" and "blend" in p
                        and self._blended_spit(p["blend"], k)):
                    ring[k] = "L"
                    clear[k] = True
            strong = (tot >= 12) & ((share <= 0.03) | (share >= 0.8))
            for k in self._blurred_spits(v, p["blank"], strong & (share <= 0.03)):
                ring[k] = "L"
                clear[k] = True
            if SPIT_WEDGE and p.get("wedge") is not None:
                for k, terrain in self._wedge_spits(base, p["wedge"]):
                    ring[k] = terrain
                    clear[k] = True
            p["ring"] = ring
            p["strong"] = strong
            p["clear"] = clear
            p["voted"] = [ring[k] == _by_votes(v[k]) for k in range(12)]   # not a spit's rule
        for p in todo:
            ring = p["ring"]
            cs = corners_of(p["q"], p["r"], p["turn"])
            for s in range(4):
                other = sides_at.get((cs[(s + 1) % 4], cs[s]))
                for j in range(3):
                    k = 3 * s + j
                    if p["clear"][k]:
                        if other is not None and not p["strong"][k]:
                            # read clearly on both pieces but not alike: the one read strongly wins (a spit
                            # thinned by the blur); two strong readings that differ stay a conflict
                            o, os_ = other
                            ko = 3 * os_ + 2 - j
                            if pieces[o]["strong"][ko] and pieces[o]["ring"][ko] != ring[k]:
                                ring[k] = pieces[o]["ring"][ko]
                            elif (WEAK_ACROSS_POOLED and not pieces[o]["strong"][ko]
                                  and pieces[o]["ring"][ko] != ring[k] and p["voted"][k] and pieces[o]["voted"][ko]):
                                # two weak readings that differ, each its own samples' majority: both pieces'
                                # samples together (land and water continue across the side; a coast through the
                                # slot)
                                ring[k] = _by_votes(p["votes"][k] + pieces[o]["votes"][ko])
                        continue
                    # unclear (a coast through the slot, a pawn over it): the piece across the side, read
                    # clearly, or both pieces' votes together; hidden on both: land (pawns stand on land)
                    if other is not None:
                        o, os_ = other
                        ko = 3 * os_ + 2 - j
                        if pieces[o]["clear"][ko] and (pieces[o]["strong"][ko] or not pieces[o]["voted"][ko]
                                                       or not WEAK_ACROSS_POOLED):
                            ring[k] = pieces[o]["ring"][ko]
                            continue
                        v = p["votes"][k] + pieces[o]["votes"][ko]
                    else:
                        v = p["votes"][k]
                    ring[k] = _by_votes(v)
        if self.prints is not None:  # the owner's set: a ring none of its prints is holds a misread slot
            nb = _across(pieces, sides_at)
            self._set_notes = fit_to_set(pieces, self.prints, {}, nb=nb)
            counts = getattr(self, "print_counts", None)
            if counts:
                self._set_notes += fit_to_pool(pieces, counts, {}, nb=nb)
        for p in pieces:
            ring = "".join(p["ring"])
            if p.get("_ring") == ring and "sides" in p:
                continue          # a piece kept from the earlier reading, its ring as it was: its sides stand
            p["_ring"] = ring
            p["sides"] = " ".join(ring[3 * k:3 * k + 3] for k in range(4))
            land_runs = sum(1 for i in range(12) if ring[i] == "L" and ring[i - 1] == "W")
            joined = self._land_joined(p, lat) if land_runs >= 2 and JOIN_BY_LAND else None
            if joined is None:     # not seen (runs hidden, the piece beyond the window): its middle
                joined = p["mid"] == "L"
            p["join"] = "land" if land_runs >= 2 and joined else "water"

    def _land_joined(self, p: dict[str, Any], lat: LatticePose) -> bool | None:
        """Whether a piece's runs of land (its ring, two or more) are one region inside it: what is not water connected
        within the piece as cut, inset by ``JOIN_INSET_MM``, from the land round each run's slots (water is what
        parts two runs). ``None`` where fewer than two runs show land there, or the piece is not all in the
        window classified.

        A join is the print's land running through the piece, wherever: the provisional set's outlines close each run
        through the inside, so a piece whose runs stay apart may still hold land at its middle (s075: 1 mm inside one
        run's land) and one whose runs join may hold water near it; the middle alone read 'land' there (the photo
        bench's `default` tables 0, 5 and 7)."""
        label = getattr(self, "_join_label", None)
        C = lat.to_mm(np.array(corners_of(p["q"], p["r"], p["turn"]), np.float64))
        win = self._win
        at = getattr(self, "_join_at", None) or []
        if at:              # the doubts' windows (:meth:`_read`): the one that holds the piece, else the first
            win, label = at[0]
            c = C * self.s
            win, label = next(((w, lab) for w, lab in at if (c >= w[:2]).all() and (c <= w[2:]).all()), (win, label))
        if label is None:
            return None

        def px_of(mm: np.ndarray) -> np.ndarray:
            return np.asarray(mm, np.float64) * self.s - [win[0], win[1]]
        ring = p["ring"]
        mid = C.mean(axis=0)
        height = lat.side_mm * math.sqrt(3) / 2
        cut = mid + (C - mid) * (1.0 - PIECE_GAP_MM / height)
        inner = mid + (C - mid) * (1.0 - (PIECE_GAP_MM + 2 * JOIN_INSET_MM) / height)
        px = px_of(cut)
        x0, y0 = np.floor(px.min(axis=0)).astype(int) - 1
        x1, y1 = np.ceil(px.max(axis=0)).astype(int) + 2
        h, w = label.shape[:2]
        if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
            return None
        crop = label[y0:y1, x0:x1]
        inside = np.zeros(crop.shape, np.uint8)
        cv2.fillPoly(inside, [np.round((px_of(inner) - [x0, y0]) * 16).astype(np.int32)], 1, cv2.LINE_8, 4)
        # all but water: land, a pawn's or marker's paint over it, and the cloth's class (a coast blurred between land
        # and water reads as neither, and at `hard` a neck of land 4 mm wide (s048) showed a thread of land between
        # two such bands); single-pixel threads (the JPEG's speckle in the water) opened away
        land = cv2.morphologyEx(((crop != 2) & (inside > 0)).astype(np.uint8), cv2.MORPH_OPEN,
                                np.ones((JOIN_OPEN_PX, JOIN_OPEN_PX), np.uint8))
        n, comp = cv2.connectedComponents(land, connectivity=8)
        if n < 2:
            return None
        # each slot's point, JOIN_REACH_MM inside the inner outline (the land of its run reaches at least there)
        k = np.arange(12)
        a, b = inner[k // 3], inner[(k // 3 + 1) % 4]
        spot = a + ((k % 3) + 0.5)[:, None] / 3 * (b - a)
        spot = spot + (mid - spot) / np.linalg.norm(mid - spot, axis=1, keepdims=True) * JOIN_REACH_MM
        r = JOIN_REACH_MM * self.s
        yy, xx = np.mgrid[-int(r):int(r) + 1, -int(r):int(r) + 1]
        disc = np.column_stack([xx[xx ** 2 + yy ** 2 <= r * r], yy[xx ** 2 + yy ** 2 <= r * r]])
        pts = np.round(px_of(spot) - [x0, y0]).astype(int)[:, None, :] + disc[None]     # (12, m, 2)
        pts[..., 0] = np.clip(pts[..., 0], 0, comp.shape[1] - 1)
        pts[..., 1] = np.clip(pts[..., 1], 0, comp.shape[0] - 1)
        ids = comp[pts[..., 1], pts[..., 0]]                                                  # (12, m)
        seen = []
        for start in range(12):
            if ring[start] != "L" or ring[start - 1] == "L":
                continue
            run, j = set(), start
            while ring[j % 12] == "L" and j < start + 12:
                run.update(ids[j % 12][ids[j % 12] > 0].tolist())
                j += 1
            if run:
                seen.append(run)
        if len(seen) < 2:
            return None
        return bool(set.intersection(*seen))

    # ---------------------------------------------------------------- pawns
    def _carried(self, t: TribeReading) -> TribeReading:
        """A tribe of an earlier reading handed on where its pixels did not change: asked on a dark top
        (``stacks.carried_height``: a pawn of a dark paint put on it does not change them enough)."""
        centres = self._for_stacks[2] if getattr(self, "_for_stacks", None) is not None else {}
        dark = t.top in centres and stacks.dark_paint(centres[t.top])
        height, ask, cands = stacks.carried_height(t.height, t.ask, t.candidates, dark)
        return t if ask == t.ask else replace(t, height=height, ask=ask, candidates=cands)

    def _unchanged_stacks(self, previous: SundaReading, changed: np.ndarray, win: tuple[int, int, int, int]):
        """For an incremental read: a function from a pawn blob's box (window px) to the earlier reading's tribe
        standing there when none of the blob's pixels changed (the 1/4-scale difference, grown by a pixel for the
        blur): the same stack seen the same way, kept as it was read instead of measured again (a stack's measure
        is 4-5 ms; five stacks by a new piece made an incremental read 40 ms)."""
        grown = cv2.dilate(changed.astype(np.uint8), np.ones((3, 3), np.uint8))
        px0, py0 = self._play[:2]
        x0, y0 = win[:2]
        reach = PAWN_MM / 2 * self.s
        used: set[int] = set()

        def find(box: tuple[int, int, int, int]) -> TribeReading | None:
            bx, by, bw, bh = box
            gx0, gy0 = (x0 + bx - px0) // 4, (y0 + by - py0) // 4
            gx1, gy1 = (x0 + bx + bw - px0) // 4 + 1, (y0 + by + bh - py0) // 4 + 1
            if grown[max(gy0, 0):gy1, max(gx0, 0):gx1].any():
                return None
            for t in previous.tribes:
                px, py = t.mat_mm[0] * self.s - x0, t.mat_mm[1] * self.s - y0
                if id(t) not in used and bx - reach <= px <= bx + bw + reach and by - reach <= py <= by + bh + reach:
                    used.add(id(t))
                    return t
            return None
        return find

    def _pawn_blobs(self, label: np.ndarray) -> np.ndarray:
        """The pawn colours' pixels (uint8 0/1) with thin lines opened away (a disc 3 mm across: gaps and cut edges
        are dark and thin): computed once a read, for the pieces' rims and the tribes."""
        done = getattr(self, "_pawn_open", None)
        if done is not None and done[0] is label:
            return done[1]
        k = int(2 * round(1.5 * self.s) + 1)
        pawn = (label >= 3).astype(np.uint8)
        if PAWN_MAJORITY_MM > 0:
            pawn = cv2.medianBlur(pawn, int(2 * round(PAWN_MAJORITY_MM / 2 * self.s) + 1))
        pawn = cv2.morphologyEx(pawn, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
        self._pawn_open = (label, pawn)
        return pawn

    def _paint_by_cloth(self) -> int:
        """The class (3+) of the pawn paint nearest the cloth's (Lab, lightness weighted): the colour of a pawn's top
        read all of the cloth's shade (:data:`stacks.CLOTH_ONLY`)."""
        centres = self._for_stacks[2]
        w = np.array([stacks.L_WEIGHT, 1.0, 1.0])
        cloth = np.asarray(centres["cloth"], float) * w
        dist = [float(np.linalg.norm(np.asarray(centres[n], float) * w - cloth)) for n in self.pawn_names]
        return 3 + int(np.argmin(dist))

    def _tribes(self, lat: LatticePose, label: np.ndarray, names: list[str], nadir: np.ndarray,
                cam_h: float, reuse=None, covered: Mapping[tuple, int] | None = None) -> list[TribeReading]:
        k = int(2 * round(1.5 * self.s) + 1)   # gaps and cut edges (dark, thin) are opened away
        paint = self._pawn_blobs(label)
        # a dark pawn's top read as the dark cloth's shade: a disc of both (stacks.cloth_dark_discs), measured below
        pawn = paint | stacks.cloth_dark_discs(label, paint, self.s, k) if DARK_DISCS else paint
        # labels in 16 bits where they fit (each blob left by the opening holds its disc: some 40 px at 2 px/mm), the
        # same labels at a third of the time (a 32-bit label image of the whole window was 4 ms)
        disc = int(cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)).sum())
        n, lab_img, stats, _ = cv2.connectedComponentsWithStats(
            pawn, connectivity=8, ltype=cv2.CV_16U if pawn.size // max(disc, 1) < 65535 else cv2.CV_32S)
        x0, y0 = self._win[:2]
        out: list[TribeReading] = []
        top_px = math.pi * (PAWN_MM / 2) ** 2 * self.s ** 2
        min_area = stacks.MIN_CORE * top_px   # a resource marker (6 mm, blurred) is smaller; a dark pawn's blob
        #                                      under stacks.FULL_BLOB is kept only when measured a pawn's width
        todo = [(tuple(int(v) for v in stats[i, :4]), lab_img[stats[i, 1]:stats[i, 1] + stats[i, 3],
                                                               stats[i, 0]:stats[i, 0] + stats[i, 2]] == i, True, i)
                for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= min_area]
        blob_of: dict[int, list[TribeReading]] = {}      # each whole blob's tribes (:func:`_beyond`)
        lone: list[tuple[str, tuple[float, float], float]] = []    # marker-sized blobs off every node (LONE_MM2)
        unplaced: list[tuple] = []     # a top's worth of paint on a node, its outline not measured (UNPLACED_ASK)
        split = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (int(2 * round(SPLIT_MM / 2 * self.s) + 1),) * 2)
        split_small = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (int(2 * round(SPLIT_SMALL_MM / 2 * self.s) + 1),) * 2)

        def cloth_at(p: np.ndarray) -> np.ndarray:   # mat points of the cloth's class (off the window: not seen)
            px = np.round(self._px(p)).astype(np.int64)
            ok = (px[:, 0] >= 0) & (px[:, 0] < label.shape[1]) & (px[:, 1] >= 0) & (px[:, 1] < label.shape[0])
            return ok & (label[np.clip(px[:, 1], 0, label.shape[0] - 1), np.clip(px[:, 0], 0, label.shape[1] - 1)] == 0)

        def parts(bx: int, by: int, sub: np.ndarray) -> list:
            # a stack and a resource marker of its paint touching it (or two stacks' bases): the parts a disc wider
            # than a marker fits in, each looked at again; where none is left, the parts a disc a little narrower
            # fits in (a dark pawn's top shrunk by its rim, a cut line's dark shade joined to it: SPLIT_SMALL_MM)
            m, lab_s, st, _ = cv2.connectedComponentsWithStats(
                cv2.morphologyEx(sub.astype(np.uint8), cv2.MORPH_OPEN, split), connectivity=8)
            if SPLIT_SMALL_MM > 0 and not (st[1:, cv2.CC_STAT_AREA] >= min_area).any():
                m, lab_s, st, _ = cv2.connectedComponentsWithStats(
                    cv2.morphologyEx(sub.astype(np.uint8), cv2.MORPH_OPEN, split_small), connectivity=8)
            return [((bx + int(st[j, 0]), by + int(st[j, 1]), int(st[j, 2]), int(st[j, 3])),
                     lab_s[st[j, 1]:st[j, 1] + st[j, 3], st[j, 0]:st[j, 0] + st[j, 2]] == j, False, blob)
                    for j in range(1, m) if st[j, cv2.CC_STAT_AREA] >= min_area]
        while todo:
            (bx, by, bw, bh), sub, whole, blob = todo.pop(0)
            ys, xs = np.nonzero(sub)
            mm = np.column_stack([(xs + bx + x0) / self.s, (ys + by + y0) / self.s])
            c, u, v, dist = stacks.nadir_axes(mm, nadir)
            along, across = mm @ u, mm @ v
            lo, hi = np.percentile(along, [0.5, 99.5])
            alo, ahi = np.percentile(across, [0.5, 99.5])
            width = ahi - alo + 1 / self.s
            length = hi - lo + 1 / self.s
            rimmed = 1.4 * PAWN_MM < width <= 1.4 * PAWN_MM + RIM_MM     # measured below before it is taken
            if not (stacks.min_width_mm(len(xs) / self.s ** 2) <= width <= 1.4 * PAWN_MM + RIM_MM * rimmed
                    and length <= PAWN_MM * 1.3 + 0.06 * dist
                    and len(xs) >= 0.6 * width * length * self.s ** 2 * math.pi / 4):
                if whole and (width > 1.4 * PAWN_MM or length > PAWN_MM * 1.3 + 0.06 * dist):
                    todo += parts(bx, by, sub)
                continue  # not a pawn's shape: a stack is a disc drawn out along the line from the nadir
            # each colour's solid part (a disc 3.5 mm across fits it): a stack's top face is one paint, 10 mm across
            # or more; a blurred rim is not (red blurred into the green land reads yellow, the yellow pawn's paint),
            # nor a resource marker of a pawn's paint touching a stack, nor two markers side by side
            if reuse is not None and (same := reuse((bx, by, bw, bh))) is not None:
                out.append(self._carried(same))     # an incremental read: this stack's pixels did not change
                continue
            solid = _solid_colours(label, (bx, by, bw, bh), sub, len(names) - 3, k)
            face = solid[:-1] >= TOP_PAINT * math.pi * (PAWN_MM / 2) ** 2 * self.s ** 2
            if TOP_FACE_MM > 0:     # a paint a disc wider than a marker fits in is the top's (a marker touches it)
                wide = _solid_colours(label, (bx, by, bw, bh), sub, len(names) - 3,
                                      int(2 * round(TOP_FACE_MM / 2 * self.s) + 1))[:-1] > 0
                face = face & wide if (face & wide).any() else face
            if not face.any():
                face[:] = True    # a dark top split between classes: every paint seen may be its colour
            labels_here = label[by:by + bh, bx:bx + bw][sub]
            top = labels_here[(along >= hi - 0.8 * PAWN_MM) & (labels_here >= 3)]   # the top face, farthest out
            if len(top) < 5:
                top = labels_here[labels_here >= 3]
            top_votes = np.bincount(top - 3, minlength=len(names) - 3)
            top_k = 3 + int(np.argmax(np.where(face, top_votes, -1)))   # a paint that covers a top
            if len(top) < 5 and DARK_DISCS:     # a dark top all of the cloth's shade: the paint nearest the cloth
                top_k = self._paint_by_cloth()
            # a blob whose base (its near end, half a pawn in) lies clearly off every node is a resource marker of a
            # pawn's paint (8-22 mm from its tribe's node): NODE_REACH below would refuse it after the measure, which
            # costs 4-5 ms a blob (five such blobs by a new piece made an incremental read 40 ms)
            guess = c + u * (lo - c @ u + PAWN_MM / 2)
            gq, gr = np.round(lat.to_lattice(guess)[0]).astype(int)
            if float(np.linalg.norm(lat.to_mm(np.array([[gq, gr]]))[0] - guess)) > NODE_REACH * lat.side_mm + NODE_SLACK_MM:
                if whole and stacks.SPLIT_OFF_NODE:     # a marker touching the stack's near side: its near end
                    todo += parts(bx, by, sub)
                if whole and len(xs) <= LONE_MM2 * self.s ** 2:      # a marker of a pawn's paint, perhaps (LONE_MM2)
                    lone.append((names[top_k], (float(mm[:, 0].mean()), float(mm[:, 1].mean())),
                                 len(xs) / self.s ** 2))
                continue
            holes = hole_share(lat, covered, mm, cloth_at) if covered is not None else 0.0
            if holes >= HOLE_SHARE:
                continue    # the cloth seen through a hole in the layout, no pawn's top
            held = int((labels_here >= 3).sum())       # the paint a dark disc of both classes holds (DARK_PAINT)
            no_paint = stacks.CLOTH_ONLY and not (held >= stacks.DARK_PAINT * top_px
                                                  and held >= stacks.DARK_SHARE * len(xs))
            if no_paint and (covered is None or holes > 0):
                continue    # a disc of the cloth's shade alone is a dark pawn only on covered land, no hole by it
            img, gain, centres = self._for_stacks
            m = stacks.measure(img, (x0, y0), self.s, gain, centres, self.pawn_names, mm, nadir, cam_h)
            dark = DARK_DISCS and bool(paint[by:by + bh, bx:bx + bw][sub].sum() < len(xs))
            if ALONE_MM > 0 and (m is None or m.width_mm < stacks.MIN_TOP_MM) and (
                    len(xs) < stacks.FULL_BLOB * top_px or dark):     # where the measure decides
                inside = ALONE_WITHOUT_CLOTH and covered is not None and all(
                    triangle_of((gq, gr), (gq + d[0], gr + d[1]), (gq + e[0], gr + e[1])) in covered
                    for d, e in zip(DIRS, DIRS[1:] + DIRS[:1]))
                ground = {k: v for k, v in centres.items() if k != "cloth" or not inside}
                m = stacks.measure(*_alone(img, label, (bx, by, bw, bh), sub, (x0, y0), self.s), self.s, gain,
                                   ground, self.pawn_names, mm, nadir, cam_h) or m
            if rimmed and (m is None or m.width_mm > 1.4 * PAWN_MM):
                if whole:       # no stack's outline: a stack and what touches it, split as any blob too wide
                    todo += parts(bx, by, sub)
                    if UNPLACED_ASK and self.beyond and len(xs) >= stacks.FULL_BLOB * top_px:
                        unplaced.append((blob, int(gq), int(gr), names[top_k], guess, dist))
                continue
            if len(xs) < stacks.FULL_BLOB * top_px and not stacks.small_blob_kept(
                    len(xs) / top_px, stacks.with_dark_rim(label, (bx, by, bw, bh), sub, k) / top_px, m):
                continue
            if dark and (m is None or m.width_mm < stacks.MIN_TOP_MM):
                continue    # a dark disc (stacks.cloth_dark_discs) is a pawn only where its outline measures a top
            if m is None:   # no outline to measure: the node from the blob, the phone asks
                base = c + u * (lo - c @ u + PAWN_MM / 2)
                n_est, cands, colours = None, list(range(1, MAX_TRIBE + 1)), [names[top_k]]
            else:
                base = np.asarray(m.base_mm)
                n_est, cands = m.height, m.candidates
                ks = stacks.side_colours(label, (x0, y0), self.s, m, n_est or 1, nadir, u, v, top_k)
                colours = [names[k] if k is not None else None for k in ks]
                if any(k is None for k in ks):
                    n_est = None
            q, r = np.round(lat.to_lattice(base)[0]).astype(int)
            node = lat.to_mm(np.array([[q, r]]))[0]
            if float(np.linalg.norm(node - base)) > NODE_REACH * lat.side_mm:
                # a marker of its paint touching a stack's near side (SPLIT_MEASURED_OFF): a blob longer than a stack
                if whole and SPLIT_MEASURED_OFF and length > 1.3 * PAWN_MM:
                    todo += parts(bx, by, sub)
                continue   # a pawn stands on its node; a resource marker of a pawn's paint lies beside it (8-22 mm)
            if m is not None and not stacks.node_agrees(m, node, nadir):
                n_est = None     # the near end and the node disagree on the height: the phone asks
            sure = n_est is not None
            out.append(TribeReading(int(q), int(r), names[top_k], colours, n_est, not sure,
                                    [n_est] if sure else cands, (float(base[0]), float(base[1])),
                                    dist * PAWN_HEIGHT_MM / cam_h))
            out[-1].measure = m
            blob_of.setdefault(blob, []).append(out[-1])
        held = {(t.q, t.r) for t in out}
        for blob, q, r, top, base, dist in unplaced:
            if blob not in blob_of and (q, r) not in held:    # nothing of it placed: asked, never lost
                held.add((q, r))
                out.append(TribeReading(q, r, top, [top], None, True, list(range(1, MAX_TRIBE + 1)),
                                        (float(base[0]), float(base[1])), dist * PAWN_HEIGHT_MM / cam_h))
                blob_of[blob] = [out[-1]]
        if BEYOND_MM2 > 0 and reuse is None and self.beyond:
            for i, here in blob_of.items():
                bx, by, bw, bh = (int(v) for v in stats[i, :4])
                _beyond(label, (bx, by, bw, bh), lab_img[by:by + bh, bx:bx + bw] == i, here, names,
                        (x0, y0), self.s, nadir, cam_h, lat)
            for paint_name, mid, area in lone:
                near = [(float(np.linalg.norm(np.asarray(t.mat_mm) - mid)), j) for j, t in enumerate(out)]
                if near and min(near)[0] <= LONE_REACH * lat.side_mm:
                    out[min(near)[1]].beyond.append((paint_name, mid, area, 0))
        return out


def _to_segments(p: np.ndarray, tri: np.ndarray) -> np.ndarray:
    """Distances (mm) of points ``p`` (n, 2) from a triangle ``tri`` (3, 2): 0 inside."""
    d = np.full(len(p), np.inf)
    sides = []
    for i in range(3):
        a, b = tri[i], tri[(i + 1) % 3]
        ab = b - a
        t = np.clip(((p - a) @ ab) / float(ab @ ab), 0.0, 1.0)
        d = np.minimum(d, np.hypot(*(p - a - t[:, None] * ab).T))
        sides.append(np.sign(ab[0] * (p[:, 1] - a[1]) - ab[1] * (p[:, 0] - a[0])))
    inside = (sides[0] == sides[1]) & (sides[1] == sides[2])
    return np.where(inside, 0.0, d)


#: where a triangle's cloth is looked for: its centroid and the points halfway from it to each corner and each side's
#: middle (barycentric), all 4 mm or more inside its sides (the cut edges' blur)
_HOLE_SAMPLES = np.array([[1, 1, 1], [4, 1, 1], [1, 4, 1], [1, 1, 4], [1, 2.5, 2.5], [2.5, 1, 2.5], [2.5, 2.5, 1]]) / 6


def hole_share(lat: LatticePose, covered: Mapping[tuple, int], mm: np.ndarray,
               cloth_at: Callable[[np.ndarray], np.ndarray]) -> float:
    """The share of a blob's pixels (``mm``: their mat points, (n, 2)) within ``HOLE_REACH_MM`` of a hole: a lattice
    triangle no piece covers (``covered``: the reading's) that shows the cloth (``cloth_at``: mat points -> whether
    each is of the cloth's class) on ``HOLE_CLOTH_SAMPLES`` of its 7 inner samples - flat cloth bounded by the pieces'
    straight edges, whose blurred edge against the water can read a dark pawn's paint. A pawn's top lies over the
    pieces round its node; a triangle a stack hides (read uncovered) shows its paint, not the cloth."""
    if len(mm) == 0 or not covered:
        return 0.0
    f = np.floor(lat.to_lattice(mm)).astype(int)
    (q0, r0), (q1, r1) = f.min(0) - 1, f.max(0) + 1
    bare = [(q, r, up) for q in range(q0, q1 + 1) for r in range(r0, r1 + 1) for up in (0, 1)
            if (q, r, up) not in covered]
    if not bare:
        return 0.0
    tris = lat.to_mm(tri_points(*np.array(bare).T).reshape(-1, 2)).reshape(-1, 3, 2)
    seen = cloth_at((_HOLE_SAMPLES @ tris).reshape(-1, 2)).reshape(len(bare), -1).sum(1)
    near = np.zeros(len(mm), bool)
    for tri in tris[seen >= HOLE_CLOTH_SAMPLES]:
        near |= _to_segments(mm, tri) <= HOLE_REACH_MM
    return float(near.mean())


def _beyond(label: np.ndarray, box: tuple[int, int, int, int], blob: np.ndarray, tribes: list[TribeReading],
            names: list[str], origin_px: tuple[int, int], s: float, nadir: np.ndarray, cam_h: float,
            lat: LatticePose) -> None:
    """What of a blob of pawn paint (``blob``: its mask in ``box`` of ``label``, the window's classes) lies beyond the
    outline a stack read in it would have at each height (``tribes``; a stack of ``n`` on its node: the base disc
    drawn out to its top by the parallax ``n`` pawns give, as wide as its top shows, ``stacks.expected``; the other
    stacks of the blob as tall as any), :data:`BEYOND_SLACK_MM` more: each part a disc :data:`BEYOND_OPEN_MM` across
    fits in and of :data:`BEYOND_MM2` or more is added to that stack's ``beyond`` as (its paint, its middle, its area,
    the height). A resource marker of a stack's paint touching it is one blob with it: split off, or measured into
    the outline (the measured width or parallax grows by it), it is read neither as a pawn nor as a marker (the
    marker finder takes no blob touching a pawn's paint), and the score is silently wrong unless it is listed."""
    bx, by, bw, bh = box
    ys, xs = np.nonzero(blob)
    mm = np.column_stack([(xs + bx + origin_px[0]) / s, (ys + by + origin_px[1]) / s])
    sub = label[by:by + bh, bx:bx + bw]
    ker = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (int(2 * round(BEYOND_OPEN_MM / 2 * s) + 1),) * 2)

    def outside(t: TribeReading, n: int) -> np.ndarray:     # mm from the outline of ``t`` as a stack of ``n``
        best = np.full(len(mm), np.inf)
        node = lat.to_mm(np.array([[t.q, t.r]], np.float64))[0]
        bases = [node] + ([np.asarray(t.measure.base_mm, np.float64)] if t.measure is not None else [])
        for base in bases:       # where the hand put it: the node or the base measured, whichever explains more
            u = base - nadir
            d = max(float(np.linalg.norm(u)), 1e-6)
            par, width = stacks.expected(d, n, cam_h)
            ab = u / d * par
            f = np.clip(((mm - base) @ ab) / max(float(ab @ ab), 1e-9), 0.0, 1.0)
            best = np.minimum(best, np.hypot(*(mm - base - f[:, None] * ab).T) - width / 2)
        return best

    tallest = [outside(t, MAX_TRIBE) for t in tribes]
    for j, t in enumerate(tribes):
        others = np.min([o for i, o in enumerate(tallest) if i != j], axis=0) if len(tribes) > 1 else None
        for n in range(1, MAX_TRIBE + 1):
            far = outside(t, n) > BEYOND_SLACK_MM
            if others is not None:
                far &= others > BEYOND_SLACK_MM
            if not far.any():
                break       # a taller stack's outline holds the shorter one's
            out = np.zeros(blob.shape, np.uint8)
            out[ys[far], xs[far]] = 1
            out = cv2.morphologyEx(out, cv2.MORPH_OPEN, ker)
            k, lab_o, st, cen = cv2.connectedComponentsWithStats(out, connectivity=8)
            for c in range(1, k):
                area = float(st[c, cv2.CC_STAT_AREA]) / s ** 2
                paint = sub[lab_o == c]
                paint = paint[paint >= 3]
                if area < BEYOND_MM2 or len(paint) == 0:
                    continue
                mid = ((cen[c, 0] + bx + origin_px[0]) / s, (cen[c, 1] + by + origin_px[1]) / s)
                t.beyond.append((names[int(np.bincount(paint).argmax())], (float(mid[0]), float(mid[1])), area, n))


def _alone(img: np.ndarray, label: np.ndarray, box: tuple[int, int, int, int], blob: np.ndarray,
           origin_px: tuple[int, int], s: float) -> tuple[np.ndarray, tuple[int, int]]:
    """A copy of the reader's window round a blob of pawn colours (``blob``: its mask in ``box`` of ``label``) where
    every other blob of pawn paint (class 3 and up, no pixel within :data:`ALONE_MM` of this one) is the land's colour
    round it, and its canvas origin: the blob's stack alone, as ``stacks.measure`` takes a window (:data:`ALONE_MM`)."""
    bx, by, bw, bh = box
    pad = int(math.ceil(8.0 * s))
    x0, y0 = max(bx - pad, 0), max(by - pad, 0)
    x1, y1 = min(bx + bw + pad, label.shape[1]), min(by + bh + pad, label.shape[0])
    sub, out = label[y0:y1, x0:x1], img[y0:y1, x0:x1].copy()
    own = np.zeros(sub.shape, np.uint8)
    own[by - y0:by - y0 + bh, bx - x0:bx - x0 + bw] = blob
    near = cv2.dilate(own, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (int(2 * round(ALONE_MM * s) + 1),) * 2))
    n, comp = cv2.connectedComponents((sub >= 3).astype(np.uint8), connectivity=8)
    mine = np.unique(comp[(near > 0) & (comp > 0)])
    other = (comp > 0) & ~np.isin(comp, mine)
    land = sub == 1
    if other.any() and land.sum() >= 10:
        out[other] = np.median(out[land], axis=0)
    return out, (origin_px[0] + x0, origin_px[1] + y0)


def _solid_colours(label: np.ndarray, box: tuple[int, int, int, int], blob: np.ndarray, n: int, k: int) -> np.ndarray:
    """Pixels of each pawn colour (label 3 + i, i < n) in a blob (``blob``: its mask in the box ``x, y, w, h`` of
    ``label``) that are solid: left by an opening with a disc ``k`` px across (a thin rim or band is not); and, last,
    those of all the pawn colours together (a dark top splits between black and purple)."""
    bx, by, bw, bh = box
    sub = label[by:by + bh, bx:bx + bw]
    ker = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    out = np.zeros(n + 1, np.int64)
    for i in np.unique(sub[blob]):
        if 3 <= i < 3 + n:
            m = cv2.morphologyEx(((sub == i) & blob).astype(np.uint8), cv2.MORPH_OPEN, ker)
            out[i - 3] = int(m.sum())
    out[n] = int(cv2.morphologyEx(((sub >= 3) & (sub < 3 + n) & blob).astype(np.uint8), cv2.MORPH_OPEN, ker).sum())
    return out


def _by_votes(v: np.ndarray) -> str:
    """A slot's terrain by its (land, water) votes alone; none: land (pawns stand on land)."""
    return "L" if v.sum() == 0 or v[0] >= LAND_SHARE * v.sum() else "W"


def _unhidden_rows(hid: np.ndarray | None, shape: tuple[int, int]) -> np.ndarray:
    """Which samples along each side (``shape``: (sides, along)) to measure its line on: those whose profile across
    the side crosses no hidden pixel (``hid``: (sides, along, offsets), the hidden image there), all of them where
    fewer than ``HIDDEN_LEAST`` would be left (a side under a marker: no better measure). 1.0 or 0.0."""
    if hid is None:
        return np.ones(shape, np.float32)
    free = ~(hid > 0).any(axis=2)
    free[free.sum(axis=1) < HIDDEN_LEAST] = True
    return free.astype(np.float32)


def _tone_step(vals: np.ndarray, ends: np.ndarray, least: int = 5) -> np.ndarray:
    """How far the print's lightness steps across each side: ``vals`` (n, along, offsets) the lightness across it,
    ``ends`` (n, along, 2) the classes at its two ends there. Only where both ends show one terrain (land beside
    land, water beside water: a coast by the side steps too), averaged along the side; none from fewer than
    ``least`` such samples. Each piece is one print, so its two triangles show one tone across its diagonal, while
    two pieces' prints (and their light: each lies a little tilted) differ."""
    same = (ends == 1).all(axis=2) | (ends == 2).all(axis=2)
    step = vals[:, :, -2:].mean(axis=2) - vals[:, :, :2].mean(axis=2)
    k = same.sum(axis=1)
    mean = (step * same).sum(axis=1) / np.maximum(k, 1)
    return np.where(k >= least, np.abs(mean), 0.0)


def _gap_limit(mate: dict[tuple, tuple], pairs: list[tuple], gap: np.ndarray) -> float:
    """The strongest line two triangles may show between them and still be one piece: halfway between the lines
    inside the pieces paired so far (their shared sides: no cut there) and the lines between them (a gap of cloth
    and two cut edges), on their medians. A piece is its whole outline: two triangles with a gap between them are
    two pieces, whatever colours they show."""
    inner = [float(g) for (t, o, _), g in zip(pairs, gap) if mate.get(t) == o]
    between = [float(g) for (t, o, _), g in zip(pairs, gap) if t in mate and o in mate and mate[t] != o]
    if not inner or not between:
        return float("inf")
    m, n = float(np.median(inner)), float(np.median(between))
    return m + GAP_LIMIT * (n - m) if n > m else float("inf")


def _augment(mate: dict[tuple, tuple], by_tri: dict[tuple, list[tuple[float, tuple]]],
             limit: float = float("inf")) -> None:
    """Pair the triangles left alone where the layout allows: the shortest alternating path from one to another
    (covered neighbours, each step across a gap the weakest line first) swaps the pairs along it. A single wrong
    early pair otherwise leaves two triangles alone and two pieces lost. Every pair the path makes must show no
    more line between its triangles than ``limit`` (``_gap_limit``): a triangle whose other half is hidden or
    lies beyond the play area stays alone (reported unsure) rather than re-pairing a chain of pieces across their
    gaps."""
    for t in [t for t in by_tri if t not in mate]:
        if t in mate:
            continue
        prev = {t: None}
        frontier = [t]
        found = None
        while frontier and found is None:
            nxt = []
            for a in frontier:
                for g, b in sorted(by_tri[a]):
                    if g > limit:
                        break
                    if b in prev or b == t:
                        continue
                    if b not in mate:
                        prev[b] = a
                        found = b
                        break
                    c = mate[b]
                    if c in prev:
                        continue
                    prev[b], prev[c] = a, b
                    nxt.append(c)
                if found is not None:
                    break
            frontier = nxt
        if found is None:
            continue
        b = found
        while b is not None:           # walk back: b pairs with the one before it, and so on
            a = prev[b]
            before = prev[a] if a is not None else None
            mate[a], mate[b] = b, a
            b = before


def _print_before_paint(mate: dict[tuple, tuple], by_tri: dict[tuple, list[tuple[float, tuple]]], seen: set,
                        limit: float = float("inf"), fixed: set | frozenset = frozenset()) -> set:
    """A lone triangle whose print shows (``seen``: 4 or more of its 7 samples land or water) takes a neighbour
    mated to a triangle covered only because a pawn's paint or rim hides it (2-3 print samples): the print is the
    surer evidence of a piece, and a dark cloth at `hard` takes the black pawn's class in patches (seed 5 table 4: a
    cloth triangle on the dark green felt, 2 samples read land, 2 black, 3 the cloth in that "paint"'s rim, was paired
    with the layout's last piece's half across a weak line - a step to a dark cloth is no dip - and the piece's other
    half was left alone: a piece lost and one read where none lies). The line to the neighbour must stay within
    ``limit`` (``_gap_limit``), and the neighbour must be the lone triangle's only such claim; an earlier reading's
    pieces (``fixed``) stay as they were. Returns the triangles
    given up: no print shows there and no piece claims them, so they are no piece's (nor a half under a stack's:
    the dark cloth's "paint" round them would pair them again, ``_halves_under_stacks``)."""
    given_up = set()
    for t in [t for t in by_tri if t not in mate and t in seen and t not in fixed]:
        cand = [(g, b) for g, b in by_tri[t]
                if g <= limit and b in mate and b not in fixed and mate[b] not in seen and mate[b] not in fixed]
        if len(cand) != 1:
            continue
        b = cand[0][1]
        m = mate.pop(b)
        mate.pop(m, None)
        mate[t], mate[b] = b, t
        given_up.add(m)
    return given_up


def _neighbours(t: tuple[int, int, int]) -> list[tuple[int, int, int]]:
    """The three unit triangles sharing a side with ``t`` (an up triangle's are down triangles, and back)."""
    q, r, u = t
    if u:
        return [(q + 1, r, 0), (q, r + 1, 0), (q, r, 0)]
    return [(q - 1, r, 1), (q, r - 1, 1), (q, r, 1)]


def _halves_under_stacks(mate: dict[tuple, tuple], tris: list[tuple], hid_at: Mapping[tuple, int],
                         held: set | frozenset = frozenset()) -> dict[tuple, tuple]:
    """The other halves of covered triangles left alone that a stack hides: a triangle with no mate whose one
    uncovered neighbour (``hid_at``: the uncovered triangles' samples on a pawn's paint, of 7) shows the paint on
    ``UNDER_STACK_SAMPLES`` or more. A tall stack leaning over a piece covers most of one half (seed 5 table 0 at
    `hard`: a red stack of 4 over a triangle, 6-7 of its 7 samples paint, 0-1 the print), too little of the print shows
    for the triangle to read as covered, and its other half was left alone; a piece has two halves and pawns stand on
    the layout, so the half under the stack is the piece's. Only the paint counts, not its blurred rim: a stack on the
    layout's outline has the cloth in its rim (seed 5 table 4 at `hard`: a cloth triangle with 2 samples of paint and 4
    of the cloth beside a triangle of the dark green felt read as a piece's, taken, made a piece where none lies).
    Where two lone triangles could claim one hidden triangle, or one could claim two, none is taken (the phone's
    unsure list keeps them)."""
    claims: dict[tuple, list[tuple]] = {}
    for t in tris:
        if t in mate or t in held:
            continue
        cand = [o for o in _neighbours(t) if hid_at.get(o, 0) >= UNDER_STACK_SAMPLES and o not in held]
        if len(cand) == 1:
            claims.setdefault(cand[0], []).append(t)
    return {ts[0]: o for o, ts in claims.items() if len(ts) == 1}


def _heaps_not_pieces(mate: dict[tuple, tuple], around: set, paint_at: Mapping[tuple, int], held: set | frozenset,
                      others: int = 0) -> list[tuple]:
    """The triangles that are no piece (:data:`HEAP_NOT_PIECE`): each pair of ``mate`` whose group (the covered
    triangles of ``around``, every one read, reached from it side by side) holds no other pair and none of ``held``
    (the pieces kept from an earlier reading), with :data:`HEAP_PAINT_SAMPLES` or more of the group's samples on a
    pawn's paint (``paint_at``), where other pieces lie (the other pairs, and ``others`` pieces kept), and the group's
    lone triangles with it (a heap over three triangles). Two such pairs touching at a corner only are lone twice."""
    pairs = {tuple(sorted((t, o))) for t, o in mate.items()}
    out: list[tuple] = []
    lone = 0
    for p in pairs:
        group, todo, alone = set(p), list(p), True
        while todo and alone:
            for n in _neighbours(todo.pop()):
                if n in group or n not in around:
                    continue
                if n in held or n in mate:
                    alone = False       # joined to another piece: the layout
                    break
                group.add(n)
                todo.append(n)
        if alone and sum(paint_at.get(t, 0) for t in group) >= HEAP_PAINT_SAMPLES:
            out.extend(group)
            lone += 1
    if len(pairs) - lone + others < 1:
        return []       # the only pieces read: the first piece laid lies alone
    return out


def _augment_enclosed(mate: dict[tuple, tuple], by_tri: dict[tuple, list[tuple[float, tuple]]],
                      fixed: set | frozenset = frozenset(), depth: int = 8) -> int:
    """Pair two triangles left alone that are each enclosed (all three neighbours covered and read): a piece has two
    halves, so such a triangle's other half is one of its neighbours whatever lines show - a stack's shadow over a
    piece's own diagonal reads as a gap there (seed 3 table 1 at `hard`: 2.4, over ``_gap_limit``, while the true gap
    beside it on beige linen showed 0.3), and ``_augment`` with its limit left both halves alone. The path taken is the
    cheapest alternating path (the line across each new pair less the line across each pair it breaks), up to
    ``depth`` pairs broken. A triangle by the play area's edge or a hidden one is not enclosed and keeps the limit
    (a chain re-paired across real gaps) - but an enclosed triangle must be paired, so where no enclosed one is
    reachable its path may end at the cheapest lone triangle that is not (``ENCLOSED_TO_OPEN``: seed 4 table 0 at
    `hard`: two pieces side by side, land against land with no gap seen, the first paired across them; the new pair's
    line 2.66 just over the limit 2.64 left an enclosed half alone, and its open partner, by a yellow stack on the
    layout's outline, took the triangle under the stack: two pieces lost and one read where none lies). Returns the
    pairs made."""
    def enclosed(t) -> bool:
        return t not in mate and t not in fixed and len(by_tri.get(t, ())) == 3
    made = 0
    for t in [t for t in by_tri if enclosed(t)]:
        if t in mate:
            continue
        best: dict[tuple, float] = {t: 0.0}
        back: dict[tuple, tuple] = {}
        frontier = [t]
        end, end_cost = None, float("inf")
        open_end, open_cost = None, float("inf")
        for _ in range(depth):
            nxt = []
            for a in frontier:
                for g, b in by_tri[a]:
                    if b == t or b in fixed:
                        continue
                    c = best[a] + g
                    if b not in mate:
                        if enclosed(b) and c < end_cost:
                            end, end_cost = (a, b), c
                        elif ENCLOSED_TO_OPEN and not enclosed(b) and c < open_cost:
                            open_end, open_cost = (a, b), c
                        continue
                    m = mate[b]
                    if m in fixed:
                        continue
                    gm = next(g2 for g2, o in by_tri[b] if o == m)
                    if c - gm < best.get(m, float("inf")) and m != t:
                        best[m] = c - gm
                        back[m] = (a, b)
                        nxt.append(m)
            frontier = nxt
            if not frontier:
                break
        if end is None:
            end = open_end      # no enclosed end: the cheapest lone triangle that is not (ENCLOSED_TO_OPEN)
        if end is None:
            continue
        a, b = end
        chain = [(a, b)]
        while a != t and len(chain) <= depth:
            a, b = back[a]
            chain.append((a, b))
        if a != t or len({x for pr in chain for x in pr}) != 2 * len(chain):
            # the path crossed itself (a cheaper label reached a triangle twice), or its labels turn in a ring that
            # never leads back to ``t`` (lines taken off make costs negative: followed for ever, the chain filled
            # the memory on the photo bench's hard table 5 at seed 1): not a path
            continue
        for a, b in chain:
            mate[a], mate[b] = b, a
        made += 1
    return made


def _cancel_cycles(mate: dict[tuple, tuple], by_tri: dict[tuple, list[tuple[float, tuple]]],
                   fixed: set | frozenset = frozenset(), rounds: int = 60) -> int:
    """The pairing as one fit over the whole layout (a lozenge tiling): the pairs that minimise the sum of the lines
    across the pairs' shared sides (no cut inside a piece), among all pairings of the same triangles. Pairs taken one
    at a time (weakest line first) go wrong where a true gap shows weaker than a piece's own diagonal (beige linen and
    brown cloth at `hard`): one wrong pair forces its neighbours' pairs, and the tiling then runs wrong for several
    pieces. Every other pairing of the same triangles differs from this one by alternating cycles (an up triangle
    takes another down neighbour, whose mate takes another, ... back to the start: three pieces turned about a node
    is the smallest); a cycle whose new pairs show less line in all than the pairs it breaks is a better fit, and
    it is taken, until none is left (Bellman-Ford on the up triangles: an edge from ``u`` to the mate of a down
    neighbour ``d`` costs the line between ``u`` and ``d`` less the line between ``d`` and its mate). ``fixed``:
    triangles whose pairs stay (an earlier reading's pieces). Changes ``mate`` in place; returns the cycles taken."""
    taken = 0
    for _ in range(rounds):
        ups = [t for t in mate if t[2] == 1 and t not in fixed and mate[t] not in fixed]
        if len(ups) < 3:
            return taken
        idx = {u: i for i, u in enumerate(ups)}
        src, dst, cost, via = [], [], [], []
        for u in ups:
            for g, d in by_tri[u]:
                if d == mate[u] or d not in mate or d in fixed:
                    continue
                u2 = mate[d]
                if u2 not in idx:
                    continue
                gd = next(g2 for g2, o in by_tri[d] if o == u2)
                src.append(idx[u])
                dst.append(idx[u2])
                cost.append(g - gd)
                via.append(d)
        if not src:
            return taken
        src_a, dst_a, w = np.array(src), np.array(dst), np.array(cost, np.float64)
        n = len(ups)
        dist = np.zeros(n)
        pred = np.full(n, -1, np.int64)
        hit = -1
        for it in range(n + 1):
            cand = dist[src_a] + w
            better = cand < dist[dst_a] - 1e-9
            if not better.any():
                break
            # the best relaxation into each node this round (np.minimum.at keeps the least; pred from it)
            order = np.argsort(-cand[better], kind="stable")
            e = np.nonzero(better)[0][order]
            dist[dst_a[e]] = cand[e]
            pred[dst_a[e]] = e
            hit = int(dst_a[e[-1]])
        else:
            pass
        if not better.any():
            return taken
        # a node relaxed after n rounds lies on or behind a negative cycle: walk back n steps, then round the cycle
        v = hit
        for _ in range(n):
            v = int(src_a[pred[v]])
        cycle, seen, x = [], set(), v
        while x not in seen:
            seen.add(x)
            e = int(pred[x])
            cycle.append(e)
            x = int(src_a[e])
        if float(w[cycle].sum()) >= -1e-9:
            return taken
        for e in cycle:     # u takes d; d's old mate u2 is freed and takes its own new down neighbour on the cycle
            u, d = ups[src_a[e]], via[e]
            mate[u], mate[d] = d, u
        taken += 1
    return taken


def _across(pieces: list[dict[str, Any]], sides_at: dict[tuple, tuple[int, int]]) -> tuple[np.ndarray, np.ndarray]:
    """For every piece's 12 slots the piece across the side (-1: none) and its slot there (vision.sundaset's ``nb``):
    slot j of side s meets slot 2 - j of the other piece's side (the sides run opposite ways)."""
    n = len(pieces)
    nbp = np.full((n, 12), -1, np.int64)
    nbk = np.zeros((n, 12), np.int64)
    j = np.arange(3)
    for i, p in enumerate(pieces):
        cs = _corners_t(p["q"], p["r"], p["turn"])
        for s in range(4):
            other = sides_at.get((cs[(s + 1) % 4], cs[s]))
            if other is not None:
                nbp[i, 3 * s:3 * s + 3] = other[0]
                nbk[i, 3 * s:3 * s + 3] = 3 * other[1] + 2 - j
    return nbp, nbk


@lru_cache(maxsize=4096)
def _corners_t(q: int, r: int, turn: int) -> tuple[tuple[int, int], ...]:
    """:func:`corners_of` as a tuple, remembered (an incremental read looks up every piece's corners three times)."""
    return tuple(corners_of(q, r, turn))


def _directed_sides(pieces: list[dict[str, Any]]) -> dict[tuple, tuple[int, int]]:
    out = {}
    for i, p in enumerate(pieces):
        cs = _corners_t(p["q"], p["r"], p["turn"])
        for s in range(4):
            out[(cs[s], cs[(s + 1) % 4])] = (i, s)
    return out


def _triangle_of(note: Any) -> tuple[int, int, int] | None:
    """The triangle a "triangle ... covered but no second half" note names (None: a note without one)."""
    p = getattr(note, "params", None) or {}
    return (p["q"], p["r"], p["corner"]) if {"q", "r", "corner"} <= set(p) else None


def _doubted(reading: SundaReading, covered: bool = True) -> frozenset:
    """The triangles ``reading``'s notes doubt: each covered triangle left without a second half ("triangle ...",
    unless not ``covered``) and, with ``SET_DOUBTS``, both triangles of each piece the owner's set doubts ("piece at
    q,r: ...", the pieces anchored there)."""
    out = set()
    at: dict[tuple[int, int], list] = {}
    for u in reading.unsure:
        t = _triangle_of(u)
        if t is not None and str(u).startswith("triangle"):
            if covered:
                out.add(t)
            continue
        p = getattr(u, "params", None) or {}
        if SET_DOUBTS and str(u).startswith("piece at") and {"q", "r"} <= set(p) and "corner" not in p:
            if not at:
                for piece in reading.pieces:
                    at.setdefault((piece["q"], piece["r"]), []).append(piece)
            for piece in at.get((p["q"], p["r"]), []):
                out.update(piece["tris"])
    return frozenset(out)


def _conflicts(pieces: list[dict[str, Any]], covered) -> list[str]:
    """Shared sides whose land and water do not continue: "land against water", naming both pieces."""
    sides_at = _directed_sides(pieces)
    out = []
    for (a, b), (i, s) in sides_at.items():
        other = sides_at.get((b, a))
        if other is None or other[0] < i:
            continue
        j, t = other
        mine = pieces[i]["sides"].split()[s]
        theirs = pieces[j]["sides"].split()[t]
        if mine != theirs[::-1]:
            pi, pj = pieces[i], pieces[j]
            out.append(f"piece at {pi['q']},{pi['r']} turn {pi['turn']}, side {s} ({mine}) against piece at "
                       f"{pj['q']},{pj['r']} turn {pj['turn']}, side {t} ({theirs}) at {a[0]},{a[1]}-{b[0]},{b[1]}: "
                       f"land against water")
    return out


def _meet(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    """Whether two boxes (x0, y0, x1, y1) overlap."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _union(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """The box round two boxes."""
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def _area(b: tuple[int, int, int, int]) -> int:
    return (b[2] - b[0]) * (b[3] - b[1])


def _joined(groups: list[tuple[Any, tuple[int, int, int, int]]]) -> list[tuple[Any, tuple[int, int, int, int]]]:
    """``groups`` (what each holds, a set or a box, and its window) with those whose windows meet joined, first
    into the earlier, until none meet."""
    groups = list(groups)
    merged = True
    while merged:
        merged = False
        for i in range(len(groups)):
            for j in range(i + 1, len(groups)):
                if _meet(groups[i][1], groups[j][1]):
                    a, b = groups[i][0], groups[j][0]
                    groups[i] = (a | b if isinstance(a, (set, frozenset)) else _union(a, b),
                                 _union(groups[i][1], groups[j][1]))
                    del groups[j]
                    merged = True
                    break
            if merged:
                break
    return groups


def _patch_change(before: np.ndarray, now: np.ndarray) -> float:
    """How much a grey patch changed, light aside: the mean absolute difference (grey levels of ``before``'s
    contrast) after ``now`` is brought to ``before``'s mean and spread. The camera's exposure and white balance
    step between frames (a gain and an offset over a marker's few square millimetres); a marker that moved, or a
    hand over it, changes the pattern itself."""
    b = before - float(before.mean())
    n = now - float(now.mean())
    spread = float(n.std())
    if spread > 1e-3:
        n *= float(b.std()) / spread
    return float(np.mean(np.abs(n - b)))
