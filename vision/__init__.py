"""Vision for the table hub: OpenCV + NumPy only, no game rules.

``vision`` knows geometry and appearance. It receives catalogs and region
geometry as data (the ``tablehub-tiles/1`` JSON files) and never imports
``tablehub.games``.

- :mod:`vision.mat`: the play mat (four ArUco markers at known positions), JSON.
- :mod:`vision.markers`: drawing and detecting the markers, printable sheets.
- :mod:`vision.rectify`: image -> top-down millimetre canvas, bumped-camera check.
- :mod:`vision.calibrate`: optional ChArUco lens calibration.
- :mod:`vision.geometry`: region label maps and figure anchors from the slot model.
- :mod:`vision.boards`: fixed boards from a photo: spaces and adjacency proposed (``tablehub board trace``).
- :mod:`vision.board_edit`: the owner's corrections to traced spaces: merge, split, contact (the board screen).
- :mod:`vision.boardreg`: a printed board found in a frame by its art (and the mat's markers), bumps noticed.
- :mod:`vision.boardpieces`: pieces on a printed board's spaces against the empty board.
- :mod:`vision.sim`: a synthetic table renderer for tests, demos and benchmarks.
"""
from __future__ import annotations


class VisionError(Exception):
    """A problem a person can fix (missing markers, a dark frame, a bad mat file): one clear line."""


__all__ = ["VisionError"]
