"""The twins a found figure hides, looked for at the cost of one contest a twin (issue 14, CPU: a full board from
scratch <= 250 ms on one core).

``TileClassifier.hidden_under`` (session suedfig5) met the tile read under a figure's picture with each of its twins
where it asked (once to see which shows better clear of the pictures, again for the twins whose difference lies mostly
under them: the same contest on the same view), each contest smoothed the same window again, and each call compared
one blurred half-size template with all 176 (``differing_share``) only to have the blurred templates made: on the
bench's Südsee ``field/hard`` full board 97 of some 800 ms a reading (profiled), a quarter of it that comparison. Now
each pair's contest is made once a call on one view (``_contest_view``, ``_contest_in``), a tile with no twins returns
at once, and the blurred templates are fetched (``_blurred_halves``): the same answers as the code before on every
call of a rendered board.
"""
from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from tests.vision.test_sued_fig_hidden import _bench_board
from vision.tiles import TileClassifier


def _hidden_under_before(clf: TileClassifier, canvas, guess, hides):
    """``hidden_under`` as it was (every contest made where it was asked, ``differing_share`` for the blurred
    templates): the oracle."""
    px, mm = clf.px, clf.mm_per_px
    j = clf._index(guess.tile, guess.rotation)
    top, left = canvas.top_left(guess.x, guess.y)
    top, left = top + int(round(guess.offset_mm[1] / mm)), left + int(round(guess.offset_mm[0] / mm))
    covered = hides[top:top + px, left:left + px]
    if covered.shape != (px, px) or not covered.any() or covered.mean() > clf.hidden_most:
        return (guess.tile, guess.rotation), ()
    holder, close = j, []
    for k in clf.twins(j):
        if clf.look[k] == clf.look[holder] or clf._difference(holder, k, guess.angle_deg) is None:
            continue
        t = clf._difference_contest(canvas, replace(guess, tile=clf.ids[holder], rotation=clf.rots[holder]),
                                    holder, k, hides)
        if t is not None and t > clf.verify_switch_covered:
            close.append(k)
    close = ([j] if holder != j else []) + [k for k in close if k != holder]
    guess = replace(guess, tile=clf.ids[holder], rotation=clf.rots[holder])
    clf.differing_share(holder)
    allb = clf._all_blurred[0]
    h = px // 2
    clear = cv2.resize(clf._clear_of(covered).astype(np.uint8), (h, h), interpolation=cv2.INTER_AREA) > 0
    out = []
    for k in dict.fromkeys(clf.twins(holder) + ([j] if holder != j else [])):
        differ = ((allb[k] - allb[holder]) ** 2).sum(axis=2) > clf.twin_detail ** 2
        total = int(differ.sum())
        if (total == 0 or (differ & clear).sum() > clf.hidden_prefilter * total or clf.look[k] == clf.look[holder]
                or clf._difference(holder, k, guess.angle_deg) is None):
            continue
        if clf._difference_contest(canvas, guess, holder, k, hides) is None:
            out.append((clf.ids[k], clf.rots[k]))
    out += [(clf.ids[k], clf.rots[k]) for k in close if (clf.ids[k], clf.rots[k]) not in out]
    return (clf.ids[holder], clf.rots[holder]), tuple(out)


def test_the_twins_under_the_figures_are_the_same_with_each_contest_made_once(monkeypatch):
    cv2.setNumThreads(1)
    # the reference below keeps the tile pass's reach from the figures; session twins9's wider one (hidden_clear)
    # changes what the contests see (tests/vision/test_twins_clear_of_figures.py): compared at the same reach
    monkeypatch.setattr(TileClassifier, "hidden_clear", TileClassifier.verify_clear)
    # nor does it drop a twin on the colours at the pictures' rim (session nlboards, tests/vision/test_nl_twin_hue.py)
    monkeypatch.setattr(TileClassifier, "hidden_hue", False)
    calls: list = []
    count = {"alignments": 0, "views": 0, "shares": 0}
    hidden_under = TileClassifier.hidden_under

    def spied(self, canvas, guess, hides):
        before = dict(count)
        out = hidden_under(self, canvas, guess, hides)
        calls.append((self, canvas, guess, hides.copy(), canvas.occlusion(0), out,
                      {k: count[k] - before[k] for k in count}))
        return out

    def counting(name, key):
        real = getattr(TileClassifier, name)

        def counted(self, *a, **kw):
            count[key] += 1
            return real(self, *a, **kw)
        monkeypatch.setattr(TileClassifier, name, counted)

    monkeypatch.setattr(TileClassifier, "hidden_under", spied)
    counting("_alignments", "alignments")
    counting("_contest_view", "views")
    counting("differing_share", "shares")
    # the bench's Südsee field/hard board where a yellow figure stood on N1's banana (its hidden twin I)
    _bench_board(1, "field", 4)
    assert calls, "no tile lay under a found figure's picture"
    fast = {"alignments": 0, "views": 0, "shares": 0}
    slow = {"alignments": 0, "contests": 0, "shares": 0}
    named = 0
    for clf, canvas, guess, hides, occlusion, out, made in calls:
        if occlusion is not None:
            canvas.set_occlusion(occlusion)      # the covered mask the call saw
        for k in count:
            count[k] = 0
            fast[k] += made[k]
        assert made["views"] <= 2, made          # one smoothed view a call and reach
        assert _hidden_under_before(clf, canvas, guess, hides) == out, (guess.x, guess.y)
        slow["alignments"] += count["alignments"]
        slow["contests"] += count["views"]       # each of the old contests smoothed its own view
        slow["shares"] += count["shares"]
        named += bool(out[1])
    assert named, "no call named a hidden twin: the board no longer tests what it should"
    # no contest made twice, one view a call, and no comparison of a template with every other made to be thrown away
    assert fast["alignments"] <= slow["alignments"] and fast["views"] < slow["contests"], (fast, slow)
    # (a call may still find a tile's twins the first time: ``twins`` compares its unturned template with every other)
    assert fast["shares"] < slow["shares"], (fast, slow)
