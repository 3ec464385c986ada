"""The table's count and the shadow (tablehub/tracking/sundaheights.py, ``StackHistory._count``, ``_change_kind``;
docs/sunda.md, "The table's count"): one pawn of a colour left the supply and two stacks topped by it were seen changed,
one grown (its shadow longer: the ground round its base darker), the other untouched but seen changed by the wide
averages alone (the light's drift, a neighbour's shadow: no pixel of its outline past the noise). Both were asked
(the bench's tracked line, seeds 4-6 `default`: 4 pawns put on); the one whose shadow grew is the one that grew. A
stack whose outline changed (a hand's touch) or whose shadow grew too leaves both asked."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from tablehub.tracking.sundaheights import Patch, PawnRules, StackHistory
from tests.vision.test_sundastacks_rules import A, B, CAM_H, RED, _patch, _tribe
from vision.sundastacks import expected

NEAR_MM = 80.0      # near the nadir: one pawn's step (0.5 mm) is not measurable


def _measure(n: int) -> SimpleNamespace:
    """A stack's outline measured near the nadir (a ``StackMeasure``'s fields the history reads), ``n`` pawns high."""
    return SimpleNamespace(near_mm=NEAR_MM - 5.0, cam_h=CAM_H, spread_mm=0.3, parallax_mm=expected(NEAR_MM, n, CAM_H)[0])


def _shadowed() -> Patch:
    """A red stack's look with its shadow grown: the ground 6-12 mm from its base darker on one side (2 px/mm)."""
    p = _patch(top=RED)
    img = p.img.copy()
    yy, xx = np.mgrid[0:60, 0:60]
    r = np.hypot(xx - 30, yy - 30) / 2.0
    img[(r >= 6.0) & (r <= 12.0) & (xx > 32)] -= 30.0
    return Patch(img, p.mask)


def _drifted() -> Patch:
    """A red stack's look changed only in the wide averages: a patch of its ground 8 levels lighter (no pixel past
    the change's least level, 10; over the wide averages' 5 on more than 10 pixels), its outline and shadow as they
    were."""
    p = _patch(top=RED)
    img = p.img.copy()
    img[22:40, 4:16] += 8.0
    return Patch(img, p.mask)


def _frame(h, looks, grew=()):
    tribes = [_tribe("red", k) for k in range(2)]
    measures = [_measure(len(s.colours) + (k in grew)) for k, s in enumerate(h.stacks)]
    return h.update(tribes, [A, B], looks, measures)


def _history():
    """Two red stacks of one pawn known, at A and B; one red pawn left the supply since (the table's count)."""
    h = StackHistory()
    h.update([], [], [])
    h.update([_tribe("red", k) for k in range(2)], [A, B], [_patch(top=RED), _patch(top=RED)], [_measure(1)] * 2)
    for s in h.stacks:
        s.colours = ["red"]
    h.rules = PawnRules(pawns_left={"red": 9, "yellow": 9}, taken={"red": 1})
    return h


def test_the_stack_whose_shadow_grew_is_the_one_the_pawn_went_on():
    a, b = _frame(_history(), [_shadowed(), _drifted()], grew=(0,))
    assert (a["height"], a["colours"], a["ask"], a["height_from"]) == (2, ["red", "red"], False, "count")
    assert (b["height"], b["ask"], b["height_from"]) == (1, False, "count")


def test_a_touched_outline_or_a_second_shadow_leaves_both_asked():
    touched = _patch(shift_px=1.5, top=RED)         # the other stack's outline moved: a hand may have put a pawn on
    a, b = _frame(_history(), [_shadowed(), touched], grew=(0,))
    assert a["ask"] and b["ask"]
    a, b = _frame(_history(), [_shadowed(), _shadowed()], grew=(0,))
    assert a["ask"] and b["ask"]
