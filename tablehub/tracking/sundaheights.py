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

4. **the game told it** (:meth:`StackHistory.tell`, from ``SundaRecognizer.tell_heights``): a tribe the log grew
   since the last read (a pawn logged with NEXT, or the phone's answer to an asked height), where the frame saw
   the same colour on top: known from then on while it looks the same;
5. **a known stack changed with the same colour on top and its top moved out by one pawn's step**, where that step
   is measurable with the margin (:func:`step_decision`, far from the nadir).

6. **the game's rules say it cannot have grown** (:class:`PawnRules`, told by ``SundaRecognizer.use_game``): a known
   stack changed with the same colour on top where no pawn of that colour exists to add (none left in its player's
   supply by the log, a tribe of five): only touched. Where only the log's phase forbids it (when the frame shows
   exactly the pieces the log holds: not the colour of the player whose phase it is, or that phase's one pawn already
   logged or seen put on elsewhere), a pawn put on out of turn, or in a phase the log missed, looks the same as a
   touch: kept only with the camera's evidence that its top did not move by a pawn's step (:func:`step_unmoved`, far
   from the nadir), else asked;
7. **the table's count** (:attr:`PawnRules.taken`, where the supply is counted and the count trusted:
   ``SundaRecognizer.count_supply``, vision/sundasupply.py):
   pawns of each colour that left the supply against those seen put on;
8. **the phone's "play on"** (:meth:`StackHistory.play_on`, from ``SundaRecognizer.played_on``): a stack the phone
   asked about ("did P1 add a pawn to it?") in a phase the log then left without growing it is its logged height,
   while it looks as when asked.

A look is "the same" within the noise measured on the ground round the stack in the same two frames (:func:`changed`),
and its shadow did not grow (the ground round its base no darker: a pawn whose lean cancels its step).
Everything else is asked (``ask``, with the candidates the history leaves first): a known stack that changed with
the same colour on top (a pawn of that colour put on it, or the stack only touched), a stack seen for the first
time on a table already laid, one that vanished and came back, one more than five high. Where the frame's own
measure is sure (far from the nadir) and the history knows another height, the two disagree: the phone asks and the
history is forgotten. Never a guess.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import numpy as np

#: a stack is the one followed when its base is within this of where it stood (mm; the base is measured to well
#: under a millimetre, a pawn put on a stack moves its base by the lean only)
MATCH_MM = 4.0
MAX_TRIBE = 5
#: a stack's look changed when at least CHANGED_PIXELS of its patch (2 px/mm, after a 3x3 blur and with the light's
#: change divided out) differ by more than CHANGED_NOISE times the noise measured on the ground round it in the same
#: two frames (the median of the same differences there), and at least CHANGED_LEVEL (0-255). A fixed 22 of 255 was
#: crossed by `hard`'s noise alone (shot noise, blur 1.3 px, JPEG 65: a median difference of 5-7 levels on the
#: ground, the largest of a thousand pixels 4.6 times it): 6 of 34 frames saw untouched stacks changed
CHANGED_NOISE = 6.5
CHANGED_LEVEL = 10.0
CHANGED_PIXELS = 3
#: ... or, a change spread over an area (a taller stack's longer shadow: a pawn of the top's colour whose lean cancels
#: its step leaves the stack's own outline as it was), the same differences averaged over CHANGED_WIDE_PX pixels
#: (4.5 mm) past CHANGED_WIDE_NOISE times their median on the ground, on CHANGED_WIDE_PIXELS of the window where
#: the stack shows or within SHADOW_RING_MM's outer radius of its base (counted on the whole window, a neighbour
#: one side off grown a pawn made an untouched stack "changed": 50 pixels at `default`, tests' table 3).
#: Measured (tests/vision/test_sundastacks_change.py's tables): untouched stacks' tenth largest 2.3-3.8 times the
#: median at `hard`, up to 4.6 at `default` (the light's drift is not one gain on every colour); a cancelled step's
#: 6.0-7.4 at `hard`, 11 at `default`. Thin margins both sides: see docs/sunda.md
CHANGED_WIDE_PX = 9
CHANGED_WIDE_NOISE = 5.3
CHANGED_WIDE_PIXELS = 10
#: ... or its shadow grew: a taller stack casts a longer shadow (any directed light), which darkens the ground round
#: it where nothing else changes it. The signed differences (now darker: positive) averaged over SHADOW_BLUR_PX
#: pixels, on the ground SHADOW_RING_MM from the stack's base, darker by more than SHADOW_NOISE times their own
#: median on the ground (SHADOW_LEVEL of 255 at least) on SHADOW_PIXELS pixels (15 mm^2). Measured on the cancelled
#: steps of tests/vision/test_sundastacks_change.py (a pawn of the top's colour whose lean puts its top where the old
#: one lay): 248-491 such pixels, the largest darkening 22-29 levels; untouched stacks 0-12 pixels, at most 10.5
SHADOW_RING_MM = (5.5, 14.0)
SHADOW_BLUR_PX = 5
SHADOW_NOISE = 5.0
SHADOW_LEVEL = 3.0
SHADOW_PIXELS = 60
#: the table's count (:meth:`StackHistory._count`): where one pawn of a colour left the supply and several stacks
#: topped by it changed, the one whose shadow grew (:data:`SHADOW_PIXELS`) is the one that grew, where every other
#: changed only in the wide averages (no pixel of its outline, its shadow no longer). Measured (docs/history/
#: sunda-measured.md, session 24, h-heights10): the stacks grown 188-465 pixels darker, the untouched ones seen
#: changed 0 (their widest change 10.7-12.2 levels, 45-54 pixels, no pixel past the noise). False: as before (asked)
SHADOW_GREW = True
#: a stack's own ground may claim at most this many times the frame's noise (the lower quartile over its stacks): a
#: stack grown a pawn casts a longer shadow over most of its own window (seen at `clean`: the median difference on
#: the ground went from 0 to 7.4 levels and hid a third red pawn)
NOISE_CAP = 2.0


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


def _differences(before: Patch, now: Patch) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int,
                                                      tuple[float, float]] | None:
    """Two looks of a stack compared: the differences (3x3 blur, the largest channel), the same averaged over
    CHANGED_WIDE_PX, the ground round the stack, where the stack can show, how many pixels of the ground round it
    got darker (:data:`SHADOW_PIXELS`: its shadow grew), and the noise on the ground (the medians of the first two
    there); ``None`` when not comparable. Computed once per stack a frame (:meth:`StackHistory.update`)."""
    import cv2

    if before.img.shape != now.img.shape:
        return None
    a, b = before.img, now.img
    # the light and the white balance drift between frames: each channel's gain from the ground round the stack
    ground = ~(before.mask | now.mask)
    if ground.sum() < 20:
        return None
    ga = np.median(a[ground], axis=0)
    gb = np.median(b[ground], axis=0)
    b = b * (ga / np.maximum(gb, 1.0))
    diff = cv2.blur(a, (3, 3)) - cv2.blur(b, (3, 3))
    wide = np.abs(cv2.blur(diff, (CHANGED_WIDE_PX, CHANGED_WIDE_PX))).max(axis=2)
    d = np.abs(diff).max(axis=2)
    noise = (float(np.median(d[ground])), float(np.median(wide[ground])))
    return d, wide, ground, before.mask | now.mask, _darkened(diff, ground), noise


_ZONES: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}


def _zones(shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """The pixels of a window of ``shape`` :data:`SHADOW_RING_MM` from its middle (the stack's base), and those within
    the ring's outer radius (kept per shape)."""
    got = _ZONES.get(shape)
    if got is None:
        n_y, n_x = shape
        yy, xx = np.mgrid[0:n_y, 0:n_x]
        r = np.hypot(xx + 0.5 - n_x / 2, yy + 0.5 - n_y / 2) / PATCH_PPM
        got = ((r >= SHADOW_RING_MM[0]) & (r <= SHADOW_RING_MM[1]), r <= SHADOW_RING_MM[1])
        if len(_ZONES) > 64:
            _ZONES.clear()
        _ZONES[shape] = got
    return got


def _darkened(diff: np.ndarray, ground: np.ndarray) -> int:
    """How many pixels of the ground :data:`SHADOW_RING_MM` from the window's middle (the stack's base) got darker
    beyond the noise (``diff``: before less now, per channel, 3x3 blurred)."""
    import cv2

    sd = cv2.blur(np.ascontiguousarray(diff.mean(axis=2)), (SHADOW_BLUR_PX, SHADOW_BLUR_PX))
    ring = _zones(sd.shape)[0] & ground
    noise = float(np.median(np.abs(sd[ground])))
    return int((sd[ring] > max(SHADOW_LEVEL, SHADOW_NOISE * noise)).sum())


def look_noise(before: Patch | None, now: Patch | None) -> tuple[float, float] | None:
    """The noise measured on the ground round a stack in two frames (the median difference there, and of the wide
    averages): what :func:`changed` takes for the camera's noise, capped by the frame's (:meth:`StackHistory.update`:
    a stack grown a pawn casts a longer shadow over much of its own window, which would pass for noise)."""
    if before is None or now is None:
        return None
    return _noise_of(_differences(before, now))


def _noise_of(got: tuple | None) -> tuple[float, float] | None:
    return None if got is None else got[5]


def changed(before: Patch | None, now: Patch | None, cap: tuple[float, float] | None = None) -> bool:
    """Whether a stack's look (the same mat window in two still frames) changed beyond the camera's noise and the
    light's drift, where the stack can show. Unknown (either missing, or another window) counts as changed. The noise
    is measured on the ground round the stack, at most ``cap`` (the frame's: :data:`NOISE_CAP` times the lower
    quartile of every stack's)."""
    if before is None or now is None:
        return True
    return _changed_from(_differences(before, now), cap)


def _outline_moved(got: tuple, cap: tuple[float, float] | None = None) -> bool:
    """Whether enough pixels of a stack's own outline changed past the noise (:func:`changed`'s first criterion after
    the shadow's), on the differences :func:`_differences` computed."""
    d, _, _, where, _, (noise, _) = got
    if cap is not None:
        noise = min(noise, cap[0])
    return int((d[where] > max(CHANGED_LEVEL, CHANGED_NOISE * noise)).sum()) >= CHANGED_PIXELS


def _changed_from(got: tuple | None,
                  cap: tuple[float, float] | None = None) -> bool:
    """:func:`changed` on the differences :func:`_differences` computed once (:meth:`StackHistory.update` measures
    the noise and the change of a stack on the same two patches)."""
    if got is None:
        return True
    d, wide, ground, where, darkened, (noise, noise_wide) = got
    if darkened >= SHADOW_PIXELS:
        return True
    if _outline_moved(got, cap):
        return True
    if cap is not None:
        noise_wide = min(noise_wide, cap[1])
    # the wide change counted where the stack shows and within the shadow's reach of its base: a neighbour 30 mm off
    # (one side of the lattice) grown a pawn changes the far part of this window (its longer shadow), not this stack
    own = where | _zones(wide.shape)[1]
    return int((wide[own] > max(CHANGED_LEVEL / 2, CHANGED_WIDE_NOISE * noise_wide)).sum()) >= CHANGED_WIDE_PIXELS


def frame_noise_cap(noises: Sequence[tuple[float, float] | None]) -> tuple[float, float] | None:
    """The most noise any stack's own ground may claim in one frame: NOISE_CAP times the lower quartile over the
    frame's stacks (one pawn changes one stack a frame; the camera's noise is the same all round)."""
    got = [n for n in noises if n is not None]
    if not got:
        return None
    arr = np.asarray(got, np.float64)
    q = np.percentile(arr, 25, axis=0)
    return float(NOISE_CAP * q[0]), float(NOISE_CAP * q[1])


@dataclass(frozen=True)
class PawnRules:
    """What the game's log allows to be added to the stacks before the next frame read (the rule book: a pawn comes
    only from its player's supply, is put on only in that player's phase after a piece formed a node, one a phase,
    never on a tribe of five; pawns leave the table only by a challenge or an undo, which make the stacks suspect).
    Told by ``SundaRecognizer.use_game`` before each read, and switched to ``one_phase`` by the recognizer only when
    the frame shows exactly the pieces the log holds (no piece laid since: no phase the log does not know).

    - ``pawns_left``: each colour's pawns in its player's supply (the log's): none left, none can be added;
    - ``may_add``: the colours whose player may still put a pawn on in the log's phase (empty: the phase's claim is
      spent, a challenge waits, or no piece was laid yet); used only with ``one_phase``;
    - ``one_phase``: no piece was laid since the log (the frame's pieces are the log's), so only ``may_add`` may
      grow, and by one pawn at most (:attr:`one_pawn`);
    - ``taken``: how many pawns of each colour left the supply since the log, where the supply is counted (the
      table's count: supply and nodes against the frame). With it, a colour whose pawns left are all seen put on
      (new stacks, tops turned to it) leaves its other changed stacks touched; one pawn left and not seen, and
      exactly one stack of that colour changed with it on top: that stack grew, for sure; one left and no such
      change seen (a pawn whose lean cancels its step): every stack it may have gone on is asked. ``None``: the
      supply is not counted; a colour missing from it is not counted (its count not trusted:
      ``SundaRecognizer.supply_taken``) and is left to the phase's rules."""

    pawns_left: Mapping[str, int] = field(default_factory=dict)
    may_add: frozenset = frozenset()
    one_phase: bool = False
    taken: Mapping[str, int] | None = None

    @property
    def one_pawn(self) -> bool:
        """At most one pawn can have been added since the log (one phase, one claim)."""
        return self.one_phase

    def may_grow(self, colour: str, h: int) -> bool:
        """Whether a stack of ``h`` pawns topped by ``colour`` can have been given a pawn of ``colour`` by the rules
        (the log's phase included)."""
        if self.none_to_add(colour, h):
            return False
        return not self.one_phase or colour in self.may_add

    def none_to_add(self, colour: str, h: int) -> bool:
        """Whether no pawn of ``colour`` exists to put on a stack of ``h`` pawns, whoever's phase it is: a tribe of
        five, or the colour's whole supply on the table by the log (every pawn of it logged on a node). Unlike the
        phase (one player's, one pawn), this holds even for a pawn put on out of turn or in a phase the log missed."""
        return h >= MAX_TRIBE or self.pawns_left.get(colour, 1) <= 0


@dataclass
class _Stack:
    at: np.ndarray                      # the base (mat mm)
    colours: list[str] | None           # bottom to top; None: not known
    patch: Patch | None
    top: str
    suspect: bool = False               # pawns may have left the table since it was known: a change is not growth
    qr: tuple[int, int] | None = None   # the node in the reader's lattice of the frame it was last seen in
    measure: Any = None                 # its outline measured in that frame (vision.sundastacks.StackMeasure)
    anchor: np.ndarray | None = None    # where its look is sampled (its base when first seen: :meth:`look_at`)
    since: int = 0                      # the frame (StackHistory.frame) since which its look is unchanged


@dataclass
class StackHistory:
    """Every stack followed from still frame to still frame (module doc). ``update`` takes one reading's tribes and
    returns them with the heights the history knows filled in."""

    stacks: list[_Stack] = field(default_factory=list)
    ghosts: list[np.ndarray] = field(default_factory=list)    # where a stack once stood and vanished
    seen_before: bool = False       # a still frame was read before this one (the table's spots seen bare or not)
    _cap: tuple[float, float] | None = None   # this frame's noise cap (frame_noise_cap)
    frame: int = 0                  # still frames read (update): the stacks' ``since``
    #: what the game's log allows to be added before the next frame read (SundaRecognizer.use_game); None: anything
    rules: "PawnRules | None" = None
    _diffs: dict = field(default_factory=dict)  # this frame's differences, by (before, now) patch (update)

    def reset(self) -> None:
        self.stacks, self.ghosts, self.seen_before, self.frame = [], [], False, 0

    def look_at(self, at_mm: Sequence[float]) -> np.ndarray:
        """Where to sample the look of a stack whose base was measured at ``at_mm`` in this frame: where the stack
        followed there was first seen (its base measured anew moves by a fraction of a millimetre as the stack
        grows; the ground's edges in a window moved so differ from frame to frame, raising the noise measured there
        and hiding the change), else ``at_mm``."""
        at = np.asarray(at_mm, np.float64)
        near = [s for s in self.stacks if float(np.linalg.norm(s.at - at)) <= MATCH_MM]
        if len(near) == 1 and near[0].anchor is not None:
            return near[0].anchor
        return at

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
               patches: Sequence[Patch | None], measures: Sequence[Any] | None = None) -> list[dict[str, Any]]:
        """``tribes``: the reading's tribes (``TribeReading.to_dict``), ``at_mm`` their bases on the mat, ``patches``
        their looks. Returns the tribes with ``height``, ``colours``, ``ask``, ``candidates`` from the history where
        it knows them, and ``height_from``: ``"camera"`` (the frame's own measure), ``"history"``, ``"step"`` (a pawn
        of the top's colour seen put on by how far the top moved since the frame before: :func:`step_decision`),
        ``"rules"`` (a stack that changed but cannot have grown: :class:`PawnRules`), or ``None`` (asked).
        ``measures``: each tribe's outline measured in this frame (``StackMeasure`` or ``None``)."""
        measures = list(measures) if measures is not None else [None] * len(tribes)
        old = list(self.stacks)
        used: set[int] = set()
        new_stacks: list[_Stack] = []
        out = []
        noises = []
        self._diffs = {}
        for at, patch in zip(at_mm, patches):
            near = [s for s in old if float(np.linalg.norm(s.at - np.asarray(at, np.float64))) <= MATCH_MM]
            if len(near) == 1 and near[0].patch is not None and patch is not None:
                # computed once: the noise here and the change in _known compare the same two patches
                got = self._diffs[(id(near[0].patch), id(patch))] = _differences(near[0].patch, patch)
                noises.append(_noise_of(got))
            else:
                noises.append(None)
        self._cap = frame_noise_cap(noises)
        # the game's count (PawnRules.one_pawn): a pawn seen put on for sure (a new stack, or a top turned to the
        # colour that may be added) is the one pawn this frame may hold; the stacks that changed with the same colour
        # on top are then only touched
        pending: list[tuple[int, _Stack, bool]] = []   # (tribe, stack, its top seen unmoved: step_unmoved)
        kinds: dict[int, str] = {}      # how each pending stack's look changed (:meth:`_change_kind`)
        spent: list[str] = []
        for t, at, patch, meas in zip(tribes, at_mm, patches, measures):
            at = np.asarray(at, np.float64)
            best, bi = MATCH_MM, -1
            for i, s in enumerate(old):
                d = float(np.linalg.norm(s.at - at))
                if i not in used and d <= best:
                    best, bi = d, i
            s_old = old[bi] if bi >= 0 else None
            same = s_old is not None and self._same_look(s_old, patch)
            known, ask_first, how = self._known(t, s_old, at, patch, meas, same)
            if bi >= 0:
                used.add(bi)
            if how in ("new", "top", "step"):
                spent.append(str(t.get("top")))     # a pawn of that colour seen put on
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
                    if how == "touched?" and s_old is not None and cam == list(s_old.colours or []) + [cam[-1]]:
                        spent.append(cam[-1])       # the frame saw it one pawn higher: the pawn seen put on
            elif known is not None:
                res.update(height=len(known), colours=list(known), ask=False, candidates=[len(known)],
                           height_from={"step": "step", "rules": "rules"}.get(how, "history"))
            else:
                res.update(height_from=None, candidates=_order(t.get("candidates") or [], ask_first))
                if how == "touched?":
                    pending.append((len(out), old[bi], step_unmoved(old[bi].measure, meas, len(old[bi].colours))))
                    kinds[len(out)] = self._change_kind(old[bi], patch)
            suspect = bi >= 0 and old[bi].suspect and known is not None
            qr = (int(t["q"]), int(t["r"])) if "q" in t and "r" in t else None
            anchor = old[bi].anchor if bi >= 0 and old[bi].anchor is not None else at
            since = s_old.since if same and s_old is not None else self.frame + 1
            new_stacks.append(_Stack(at, known, patch, str(t.get("top")), suspect, qr, meas, anchor, since))
            out.append(res)
        if self.rules is not None and self.rules.taken:
            self._count(out, new_stacks, pending, spent, self.rules.taken, kinds)
            # the colours not counted are left to the phase below
            pending = [(k, s, unmoved) for k, s, unmoved in pending if s.top not in self.rules.taken]
        if self.rules is not None and self.rules.one_pawn and len(spent) == 1 and spent[0] in self.rules.may_add:
            # the phase's one pawn seen put on: the others are only touched, where the camera sees their tops unmoved
            # (two pawns put on, one out of turn, look the same otherwise)
            for k, s, unmoved in pending:
                if not unmoved:
                    continue
                cols = list(s.colours or [])
                out[k].update(height=len(cols), colours=cols, ask=False, candidates=[len(cols)], height_from="rules")
                new_stacks[k].colours = cols
        self.ghosts += [s.at for i, s in enumerate(old) if i not in used]
        self.stacks = new_stacks
        self.seen_before = True
        self.frame += 1
        self._diffs = {}
        return out

    def _same_look(self, s: _Stack, patch: Patch | None) -> bool:
        """Whether a followed stack looks as in the frame before (:func:`changed`, on the differences ``update``
        computed once, with this frame's noise cap)."""
        if s.patch is None or patch is None:
            return False
        got = self._diffs.get((id(s.patch), id(patch)))
        return not (_changed_from(got, self._cap) if got is not None else changed(s.patch, patch, self._cap))

    def _change_kind(self, s: _Stack, patch: Patch | None) -> str:
        """How a followed stack's look changed since the frame before (:func:`changed`'s criteria, on the differences
        ``update`` computed once, with this frame's noise cap): ``"shadow"`` (the ground round its base darker: its
        shadow grew, as a taller stack's does), ``"wide"`` (only the wide averages changed: no pixel of the stack's own
        outline past the noise, its shadow no longer: the light's drift, a neighbour's shadow; not a hand's touch,
        which moves its outline), else ``"outline"``."""
        got = self._diffs.get((id(s.patch), id(patch))) if s.patch is not None and patch is not None else None
        if got is None:
            return "outline"
        if got[4] >= SHADOW_PIXELS:        # (darkened: the shadow's pixels)
            return "shadow"
        return "outline" if _outline_moved(got, self._cap) else "wide"

    def _count(self, out: list[dict[str, Any]], new_stacks: list[_Stack], pending: list[tuple[int, _Stack, bool]],
               spent: list[str], taken: Mapping[str, int], kinds: Mapping[int, str] | None = None) -> None:
        """The table's count (:attr:`PawnRules.taken`): each counted colour's pawns that left the supply against those
        seen put on. Decides the stacks that changed with the same colour on top (``pending``) where the count does,
        and asks the known stacks of a colour whose pawn left the supply and was seen nowhere. A colour not counted
        (not in ``taken``) is not decided here."""
        def unchanged(k: int, s: _Stack) -> None:      # decided by the count: only touched, as it was
            cols = list(s.colours or [])
            out[k].update(height=len(cols), colours=cols, ask=False, candidates=[len(cols)], height_from="count")
            new_stacks[k].colours = cols

        for colour in {str(c) for c in taken}:
            left = int(taken[colour]) - sum(1 for c in spent if c == colour)
            mine = [(k, s) for k, s, _ in pending if s.top == colour]
            moved = [(k, s) for k, s, unmoved in pending if s.top == colour and not unmoved]
            if left == 1 and len(mine) > 1 and len(moved) == 1:
                # the others' tops seen unmoved (far from the nadir, step_unmoved): only touched; the one left grew
                for k, s in mine:
                    if (k, s) != moved[0]:
                        unchanged(k, s)
                mine = moved
            if left == 1 and len(mine) > 1 and SHADOW_GREW and kinds is not None:
                # one pawn left and several stacks of its colour changed: the one whose shadow grew (a taller stack
                # casts a longer one), where every other changed only in the wide averages (its outline and its
                # shadow as they were: not touched, not grown) and the frame does not rule a pawn more out
                grew = [(k, s) for k, s in mine if kinds.get(k) == "shadow"]
                if (len(grew) == 1 and all(kinds.get(k) == "wide" for k, s in mine if (k, s) != grew[0])
                        and new_stacks[grew[0][0]].measure is not None
                        and _frame_allows(new_stacks[grew[0][0]].measure, len(grew[0][1].colours or []) + 1)):
                    for k, s in mine:
                        if (k, s) != grew[0]:
                            unchanged(k, s)
                    mine = grew
            if left < 0:
                continue                                # more seen put on than left the supply: asked as it is
            if left == 0:
                for k, s in mine:                       # every pawn that left is seen elsewhere: only touched
                    unchanged(k, s)
            elif left == 1 and len(mine) == 1:
                k, s = mine[0]                          # the one pawn left, the one stack changed: it grew
                cols = list(s.colours or []) + [colour]
                out[k].update(height=len(cols), colours=cols, ask=False, candidates=[len(cols)], height_from="count")
                new_stacks[k].colours = cols
            elif not mine:
                # a pawn left and no change seen: one whose lean cancels its step, on a stack topped by its colour
                for k, res in enumerate(out):
                    st = new_stacks[k]
                    if (res.get("height_from") in ("history", "rules") and st.top == colour and st.colours
                            and len(st.colours) < MAX_TRIBE):
                        h = len(st.colours)
                        res.update(ask=True, height=None, height_from=None, candidates=[h + 1, h] + [
                            n for n in range(1, MAX_TRIBE + 1) if n not in (h, h + 1)])
                        st.colours = None

    def tell(self, known: Mapping[tuple[int, int], Sequence[str]]) -> int:
        """What the game says now stands on some nodes (``known``: the reader's lattice node of the last frame read
        -> colours bottom to top): the phone's answer to an asked height, or an action logged there (a pawn put on,
        logged with NEXT). A stack seen on such a node is known from then on while it looks as it did in that frame
        (and grows by the rules above). Taken only where it fits what that frame saw: the same colour on top, one to
        five pawns, one stack on the node; where the history knew another height, it is forgotten (asked). Returns
        how many stacks were told."""
        by_node: dict[tuple[int, int], list[_Stack]] = {}
        for s in self.stacks:
            if s.qr is not None:
                by_node.setdefault(s.qr, []).append(s)
        told = 0
        for node, cols in known.items():
            here = by_node.get((int(node[0]), int(node[1])), [])
            cols = [str(c) for c in cols]
            if len(here) != 1:
                continue
            told += self._take(here[0], cols)
        return told

    def play_on(self, answers: Sequence[tuple[Sequence[float], Sequence[str], int]]) -> int:
        """The phone's "play on" (no pawn added) to heights it asked, once the log moved past the phase whose question
        it answered (``SundaRecognizer``: the question the adapter asks, "did P1 add a pawn to it?", on a stack of the
        placer's colour in a frame without a new piece, where the rules let the placer join it). Each answer is
        ``(base_mm, colours, frame)``: the stack whose base was there, asked in ``frame``, is what the log holds
        (``colours``, bottom to top) while its look has not changed since that frame (a touch or a pawn after the
        question is not what was answered). Taken only as :meth:`tell` takes the game's word. Returns how many."""
        told = 0
        for at, cols, frame in answers:
            at = np.asarray(at, np.float64)
            here = [s for s in self.stacks if float(np.linalg.norm(s.at - at)) <= MATCH_MM]
            if len(here) == 1 and here[0].since <= frame:
                told += self._take(here[0], [str(c) for c in cols])
        return told

    @staticmethod
    def _take(s: _Stack, cols: list[str]) -> int:
        """The game's word on one stack (``cols``, bottom to top), taken where it fits what the frame saw: one to five
        pawns, the same colour on top, a look to compare the next frame with; where the history knew another height,
        neither is taken (asked). 1 when taken."""
        if not 1 <= len(cols) <= MAX_TRIBE or cols[-1] != s.top or s.patch is None:
            return 0                            # the table and the log disagree (one not yet as the other): asked
        if s.colours is not None and s.colours != cols:
            s.colours = None                    # the history knew otherwise: neither is taken
            return 0
        s.colours = cols
        return 1

    def _known(self, t: dict[str, Any], s: _Stack | None, at: np.ndarray, patch: Patch | None, meas: Any = None,
               same_look: bool = False) -> tuple[list[str] | None, list[int], str]:
        """What the history knows of this stack's pawns (bottom to top), the heights to offer first when not, and how:
        ``"history"``, ``"new"`` (a new stack: one pawn), ``"top"`` (a pawn of another colour on top), ``"step"``
        (:func:`step_decision`), ``"rules"`` (it changed but cannot have grown: :class:`PawnRules`), ``"touched?"``
        (asked: changed with the same colour on top, a pawn the rules allow or only touched), ``""`` (asked)."""
        top = str(t.get("top"))
        if s is None:
            ghost = any(float(np.linalg.norm(g - at)) <= MATCH_MM for g in self.ghosts)
            if self.seen_before and not ghost:
                return [top], [], "new"         # a new stack where the previous frame showed none: one pawn
            return None, [], ""
        if s.colours is None:
            return None, [], ""
        h = len(s.colours)
        if same_look and top == s.colours[-1]:
            return list(s.colours), [], "history"   # the same look: what it was
        if same_look:
            return None, [h, h + 1], ""         # the same look read with another top: the frame or the look is wrong
        if s.suspect:
            return None, [h + 1, h, h - 1], ""
        if top != s.colours[-1]:
            return (s.colours + [top], [], "top") if h < MAX_TRIBE else (None, [], "")   # one pawn of that colour
        if self.rules is not None and self.rules.none_to_add(top, h):
            return list(s.colours), [], "rules"     # changed, the same colour on top, and no such pawn exists to add
        if h < MAX_TRIBE and step_decision(s.measure, meas, h) == h + 1:
            # the top moved out by one pawn's step: a pawn of that colour (out of turn too: the engine refuses it)
            return s.colours + [top], [], "step"
        if self.rules is not None and not self.rules.may_grow(top, h):
            # the log's phase allows no such pawn, but a pawn put on out of turn (or in a phase the log missed) looks
            # the same: kept only where the camera sees the top did not move (step_unmoved), else asked, touched first
            if step_unmoved(s.measure, meas, h):
                return list(s.colours), [], "rules"
            return None, [h, h + 1], "touched?"
        return None, [h + 1, h], "touched?"     # changed, the same colour on top: a pawn more, or only touched

def _step_fit(before: Any, now: Any, h: int) -> tuple[float, float, float, float] | None:
    """How a known stack of ``h`` pawns' top moved between two frames' measures (``StackMeasure``), against one pawn's
    step: ``(step, delta, sigma, cam_h)`` (mat mm: the step one pawn more makes, the parallax's move away from the
    nadir, its uncertainty: both frames' measures and a pawn's lean), or ``None`` where either is missing or the
    stack stands too near the nadir for a step. Shared by :func:`step_decision` (grew) and :func:`step_unmoved`
    (did not)."""
    from vision import sundastacks as st

    if before is None or now is None or h < 1:
        return None
    d_base = 0.5 * (float(before.near_mm) + float(now.near_mm)) + st.PAWN_MM / 2
    if d_base < 2.5 * st.PAWN_MM:
        return None
    cam_h = float(now.cam_h)
    m0 = max(st.MEASURE_MM, st.SPREAD_SIGMA * float(before.spread_mm))
    m1 = max(st.MEASURE_MM, st.SPREAD_SIGMA * float(now.spread_mm))
    sig = math.sqrt(m0 ** 2 + m1 ** 2 + st.LEAN_MM ** 2)
    step = st.step_mm(d_base, h, cam_h)
    if step < st.MARGIN_SIGMA * sig:
        return None                             # not measurable here
    return step, float(now.parallax_mm) - float(before.parallax_mm), sig, cam_h


def _frame_allows(now: Any, n: int) -> bool:
    """Whether the frame's own parallax (``now``, a ``StackMeasure``) does not rule out ``n`` pawns (within
    ``FIT_SIGMA`` plus the margin of the height's expected parallax)."""
    from vision import sundastacks as st

    d_abs, _ = st.expected(float(now.near_mm) + st.PAWN_MM / 2, n, float(now.cam_h))
    return abs(float(now.parallax_mm) - d_abs) / st.sigma_mm(float(now.spread_mm), n) <= st.FIT_SIGMA + st.MARGIN_SIGMA


def step_decision(before: Any, now: Any, h: int) -> int | None:
    """``h + 1`` when a stack of ``h`` pawns whose look changed with the same colour on top was seen to grow by one
    pawn: its top (the parallax ``D``, the top's middle against the base's, each frame's ``StackMeasure``) moved away
    from the nadir by the step one pawn more makes (``vision.sundastacks.step_mm``), within ``FIT_SIGMA`` of it and at
    least ``MARGIN_SIGMA`` nearer to it than to no move at all; ``None`` otherwise (asked). The uncertainty is both
    frames' measures' and the new pawn's lean (:data:`~vision.sundastacks.LEAN_MM`); a step under ``MARGIN_SIGMA`` of
    it is not measurable (near the nadir: docs/sunda.md's table) and is asked. The frame's own parallax must not rule
    ``h + 1`` out either (``FIT_SIGMA`` plus the margin). Never says ``h`` (only touched): :func:`step_unmoved`."""
    from vision import sundastacks as st

    fit = _step_fit(before, now, h)
    if fit is None:
        return None
    step, delta, sig, _ = fit
    e_grew, e_same = abs(delta - step) / sig, abs(delta) / sig
    if e_grew > st.FIT_SIGMA or e_same - e_grew < st.MARGIN_SIGMA:
        return None
    return h + 1 if _frame_allows(now, h + 1) else None


def step_unmoved(before: Any, now: Any, h: int) -> bool:
    """The camera's evidence that a known stack of ``h`` pawns whose look changed did NOT grow: where one pawn's step
    is measurable (:func:`_step_fit`), its top did not move away from the nadir (within ``FIT_SIGMA`` of no move, and
    ``MARGIN_SIGMA`` nearer to it than to the step), and the frame's own parallax does not rule ``h`` out. What the
    game's rules keep (:class:`PawnRules`, a pawn of that colour not allowed now) is kept only with it: a pawn put on
    out of turn, or in a phase the log missed, moves the top by its step (docs/sunda.md, "The out-of-turn risk,
    closed")."""
    from vision import sundastacks as st

    fit = _step_fit(before, now, h)
    if fit is None:
        return False
    step, delta, sig, _ = fit
    e_grew, e_same = abs(delta - step) / sig, abs(delta) / sig
    return e_same <= st.FIT_SIGMA and e_grew - e_same >= st.MARGIN_SIGMA and _frame_allows(now, h)


def _order(cands: Sequence[int], first: Sequence[int]) -> list[int]:
    """The candidate heights with ``first`` (those the history leaves) ahead, each once, 1..5 only."""
    out = [n for n in first if 1 <= n <= MAX_TRIBE]
    out += [n for n in cands if n not in out]
    out += [n for n in range(1, MAX_TRIBE + 1) if n not in out]
    return list(dict.fromkeys(out))
