"""A stack measured where its pawn colour shows only at the near end of its blob (a blob shorter than a pawn's top:
the rest of it hidden or of another colour): the top's middle, half a pawn before the far edge, falls before the
profile along the stack, so there is no band across the top to measure. Then there is no measure (``None``: the
stack is asked), as before h-sundacpu sampled only the strip and the band; it raised in ``cv2.remap`` with an empty map
and stopped the read (``tablehub bench sunda-vision --seed 1 --levels default``)."""
from __future__ import annotations

import numpy as np

from vision import sundastacks


def test_a_blob_whose_colour_shows_only_at_its_near_end_gives_no_measure_and_no_error(monkeypatch):
    s = 2.0                                                     # px per mm, the reader's
    img = np.full((200, 300, 3), 120, np.uint8)                 # the window: 150 x 100 mm, its pixel 0,0 at 0,0
    nadir = np.array([0.0, 50.0])
    blob = np.array([[x, 50.0 + dy] for x in np.arange(100.0, 104.5, 0.5) for dy in (-1.0, 0.0, 1.0)])

    def near_end_only(crop, gain, pawn_labs, ground_labs):
        # the pawn's colour only 1-3 mm into the profile along the stack (97-99 mm; it starts at 96, the crop at 94)
        out = np.zeros(crop.shape[:2], bool)
        out[:, int(round((97.0 - 94.0) * s)):int(round((99.0 - 94.0) * s))] = True
        return out

    monkeypatch.setattr(sundastacks, "membership", near_end_only)
    centres = {"red": np.array([50.0, 60.0, 40.0]), "land": np.array([60.0, -20.0, 30.0]),
               "water": np.array([50.0, 0.0, -30.0])}
    m = sundastacks.measure(img, (0, 0), s, np.ones(3, np.float32), centres, ["red"], blob, nadir, 600.0)
    assert m is None
