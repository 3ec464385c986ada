"""What the twin contest may count as evidence (issue 14, Südsee's twins at ``hard``).

1. The covered mask is made from colours alone: under the field camera's casts a red bridge, a strip of sand or two
   dark fish on the sea fall into it with no figure anywhere. The glyph that tells the twins apart was then left out
   of the contest and the rest decided (K2 read as K1, V3 as V4, unmarked). A covered part that one of the twins'
   references explains is the tile's art and is seen again; a figure, which no reference shows, stays covered.
2. A contest decided on a few pixels (what shows of a glyph beside a figure) moves by noise alone by more than the
   bar of 0.2: it decides nothing unless it clears its own standard error (:meth:`TileClassifier._contest`).

The synthetic glyph twins of ``tests/vision/test_glyphs.py``: a coast, and a dark fish, a light shell, or both.
"""
from __future__ import annotations

import numpy as np

from tests.vision.test_glyphs import MARGIN, _glyph_twins, _photo, _picture


def _verified(clf, fc, first: str, then: list[str]):
    """The verification of a cell whose whole-tile ranking put ``first`` ahead of ``then``: the tile taken and
    the twins left beside it (hidden or too close to call)."""
    top, left = fc.top_left(0, 0)
    scored = [(0.95 - 0.001 * i, clf.ids.index(t), top, left, 0.0) for i, t in enumerate([first, *then])]
    out, hidden, close = clf._verify(fc, scored)
    return clf.ids[out[0][1]], {clf.ids[j] for j in hidden + close}


def _mask(fc, rows: slice, cols: slice) -> None:
    covered = np.zeros(fc.image.shape[:2], bool)
    covered[MARGIN + rows.start:MARGIN + rows.stop, MARGIN + cols.start:MARGIN + cols.stop] = True
    fc.set_occlusion(covered)


def test_the_glyph_itself_in_the_covered_mask_still_decides():
    """The fish (drawn at x 34, y 14) is dark enough to pass for a figure's colour: the mask holds it and the sea
    around, no figure stands there. "both" and "shell" differ in the fish alone."""
    clf = _glyph_twins()
    for seed in (40, 41, 42):
        fc = _photo(_picture("both", seed), 1.05, -5.0, shift=(0, 1), seed=seed)
        _mask(fc, slice(9, 20), slice(29, 40))
        taken, beside = _verified(clf, fc, "shell", ["both"])
        assert taken == "both" and not beside, (seed, beside)


def test_a_figure_on_the_glyph_stays_covered():
    """A red figure stands on the fish: no reference shows it, so the twins that differ only there stay a marked
    guess (the hidden twin), as before."""
    import cv2

    clf = _glyph_twins()
    for seed in (43, 44):
        pic = _picture("both", seed).copy()
        cv2.circle(pic, (34, 14), 6, (40, 40, 200), -1, cv2.LINE_AA)
        fc = _photo(pic, 1.0, 0.0, shift=(0, 0), seed=seed)
        _mask(fc, slice(7, 22), slice(27, 42))
        taken, beside = _verified(clf, fc, "shell", ["both"])
        assert {taken} | beside >= {"both", "shell"}, "the figure hides where they differ"
