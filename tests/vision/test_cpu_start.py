"""The start search's classifications leave out twin contests that cannot change its answer (issue 14, CPU: a full
board from scratch <= 250 ms on one core).

``StartFinding._is_start`` classifies cell (0, 0) of up to ten places and only asks whether it reads as the start tile
or one of its twins. Südsee's twins keep every place unclear, so all ten were classified, each with its twin contest
(``TileClassifier._verify``, the costly part). ``TileClassifier.classify_for`` leaves the contest out where no
candidate it could end on is wanted: what is wanted is read as ``classify`` reads it, what is not stays not wanted.
"""
from __future__ import annotations

import cv2
import numpy as np

from tests.vision.test_scratch_once import _table


def _spy_classify(monkeypatch) -> tuple[list, dict]:
    """Every classification made for ``wanted`` templates (canvas, cells, wanted, guesses), and a count of twin
    contests."""
    from vision.tiles import TileClassifier

    calls: list = []
    count = {"verify": 0}
    classify_for, verify = TileClassifier.classify_for, TileClassifier._verify

    def spied(self, canvas, cells, wanted):
        out = classify_for(self, canvas, cells, wanted)
        calls.append((canvas, list(cells), wanted, out))
        return out

    def counted(self, *a, **kw):
        count["verify"] += 1
        return verify(self, *a, **kw)

    monkeypatch.setattr(TileClassifier, "classify_for", spied)
    monkeypatch.setattr(TileClassifier, "_verify", counted)
    return calls, count


def test_the_start_search_contests_twins_only_where_a_reading_could_be_the_start_tile(suedsee, monkeypatch):
    cv2.setNumThreads(1)
    frame, _ = _table(suedsee, 31, 60, "hard")
    calls, count = _spy_classify(monkeypatch)
    rec = suedsee.recognizer()
    rec.find_start(frame, *_mapping(rec, frame))
    assert calls, "the start search classified no place by classify_for"
    clf = rec.classifier
    fast = count["verify"]
    count["verify"] = 0
    for canvas, cells, wanted, guesses in calls:
        full = clf.classify(canvas, cells)         # the whole classification of the same canvas, contests and all
        for quick, slow in zip(guesses, full):
            j_quick, j_slow = clf._index(quick.tile, quick.rotation), clf._index(slow.tile, slow.rotation)
            assert (j_quick in wanted) == (j_slow in wanted)
            if j_slow in wanted:
                assert quick == slow
    # places that show other tiles were read without their contests (on this board most of the ten)
    assert fast < count["verify"], (fast, count["verify"])


def test_a_classification_wanting_everything_is_the_whole_classification(suedsee):
    cv2.setNumThreads(1)
    frame, _ = _table(suedsee, 57, 60, "hard")
    rec = suedsee.recognizer()
    obs = rec.observe(frame)
    from vision.sampling import GridSampler
    from vision.tiles import FeatureCanvas

    to_frame, key = _mapping(rec, frame)
    cells = sorted(obs.tiles)[:12]
    xs, ys = [c[0] for c in cells], [c[1] for c in cells]
    gc = GridSampler().sample(frame, to_frame, None, obs.grid, min(xs), min(ys), max(xs) - min(xs) + 1,
                              max(ys) - min(ys) + 1)
    fc = FeatureCanvas(rec._balance(gc, rec.mat_colour(frame, to_frame, key)))
    every = frozenset(range(len(rec.classifier.ids)))
    assert rec.classifier.classify_for(fc, cells, every) == rec.classifier.classify(fc, cells)


def _mapping(rec, frame: np.ndarray):
    """The frame's mapping (mat mm -> pixels) and its key, as ``Recognizer.observe`` makes them."""
    location = rec.rectifier.locate(frame)
    size = (frame.shape[1], frame.shape[0])
    return (lambda pts: rec.rectifier.mat_to_image(pts, location, size)), (location.homography.tobytes(), size)
