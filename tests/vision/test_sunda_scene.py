"""Where the simulated Sunda table lays its resource markers (vision/sim/sundatable.py ``_draw_markers``): by hand,
on land near the tribe they followed, clear of the stacks and of each other; a tribe whose land near its node is
taken still gets its markers (the bench's `--tables 6 --seed 2` stopped at `hard` table 5: three markers by a
five-pawn stack on a spit, "no room on land near 0,1")."""
from __future__ import annotations

import math

import numpy as np
import pytest

pytest.importorskip("cv2")

from vision.sim.camera import NUISANCE  # noqa: E402
from vision.sim.sundatable import MARKER_MM, MARKER_ROOM, SundaScene, render_sunda  # noqa: E402

FRAME = [[0.0, 0.0], [1.0, 0.0], [1.5, math.sqrt(3) / 2], [0.5, math.sqrt(3) / 2]]


def _crowded_scene() -> SundaScene:
    """One all-land piece, a five-pawn tribe on its obtuse corner 1,0 and three markers that followed it: 11-17 mm
    from the node there is room for two at most."""
    pos = {"pieces": [{"q": 0, "r": 0, "turn": 0, "sides": "LLL LLL LLL LLL", "outline": [FRAME]}],
           "tribes": [{"q": 1, "r": 0, "pawns": ["P1"] * 5}],
           "markers": [{"marker": m, "q": 1, "r": 0} for m in ("red", "green", "blue")]}
    return SundaScene(pos, {"P1": "red"}, angle_deg=0.0)


def test_a_crowded_tribe_gets_every_marker_on_its_land():
    scene = _crowded_scene()
    _, truth = render_sunda(scene, NUISANCE["clean"], np.random.default_rng(0))
    assert sorted(m["marker"] for m in truth.markers) == ["blue", "green", "red"]
    node = scene.lattice_to_mat(np.array([[1.0, 0.0]]))[0]
    piece = scene.lattice_to_mat(np.array(FRAME))
    far = MARKER_ROOM[-1][0][1]
    at = [np.asarray(m["centre_mm"]) for m in truth.markers]
    for p in at:
        assert np.linalg.norm(p - node) <= far + 1e-6
        # on the piece, the whole disc
        import cv2
        assert cv2.pointPolygonTest(piece.astype(np.float32), (float(p[0]), float(p[1])), True) >= MARKER_MM / 2
    for i in range(len(at)):
        for j in range(i):
            assert np.linalg.norm(at[i] - at[j]) >= MARKER_MM    # laid side by side, never on each other


def test_the_first_reach_alone_has_no_room_there(monkeypatch):
    """The scene above is one the old reach (11-17 mm, 2 mm clear) could not lay: the test above can fail."""
    import vision.sim.sundatable as st
    from vision import VisionError

    monkeypatch.setattr(st, "MARKER_ROOM", st.MARKER_ROOM[:1])
    with pytest.raises(VisionError, match="no room on land within 17 mm of 1,0"):
        render_sunda(_crowded_scene(), NUISANCE["clean"], np.random.default_rng(0))
