"""A resource marker of a stack's paint touching the stack is one blob of pawn paint with it: read as neither a pawn
nor a marker (at `hard` 3 of 12 such markers read), it left the photo's score silently wrong. The paint of a stack's
blob beyond the outline a stack of its height would have (vision/sunda.py ``_beyond``) is now kept on the tribe
(``TribeReading.beyond``) and, where no marker of that paint was read, offered by the marker finder
(``MarkerFinder.touching``) for the photo scorer to list as unsure (tests/photo/test_sunda_photo_touching.py).
Rendered as tests/vision/test_sunda_marker_touching.py lays them (a stack at node 0,0 of an all-land layout)."""
from __future__ import annotations

import pytest

pytest.importorskip("cv2")

from tests.vision.test_sunda_marker_touching import render_read  # noqa: E402
from vision.sim.sundatable import lattice_map  # noqa: E402


def _touching(level, colour, height, toward, marker=True, beyond=True):
    reading, reader, truth = render_read(level, colour, height, toward, marker, beyond)
    node = lattice_map(reading, truth)[0]((0, 0))
    return ([(t.q, t.r, t.top) for t in reading.tribes], node, [m.marker for m in reading.markers],
            [(m.marker, m.q, m.r, may, n) for m, may, n in reader.markers.touching])


@pytest.mark.parametrize("level, colour, height, toward", [("hard", "red", 2, 90.0), ("default", "yellow", 1, -90.0)])
def test_a_marker_of_the_stacks_paint_unread_beside_it_is_offered(level, colour, height, toward):
    tribes, node, markers, touching = _touching(level, colour, height, toward)
    assert tribes == [(node[0], node[1], colour)]
    assert colour not in markers            # the reader does not read it (as before)
    assert (colour, node[0], node[1], [colour], height) in touching      # ... but offers it at the stack's height


def test_a_stack_alone_offers_nothing_at_its_height():
    tribes, node, markers, touching = _touching("hard", "red", 2, 0.0, marker=False)
    assert tribes == [(node[0], node[1], "red")] and markers == []
    assert [t for t in touching if t[4] == 2] == []


def test_the_cameras_read_does_not_measure_it():
    """Only the photo scorer lists paint past a stack's outline (``SundaReader.beyond``, set by
    tablehub.photo_sunda.load_reader): the camera's read does not spend the 5-7 ms on it."""
    reading, reader, truth = render_read("hard", "red", 2, 90.0, True, beyond=False)
    node = lattice_map(reading, truth)[0]((0, 0))
    assert [(t.q, t.r) for t in reading.tribes] == [node]
    assert [t.beyond for t in reading.tribes] == [[]] and reader.markers.touching == []



def test_the_photo_scorers_reader_measures_it(tmp_path):
    """tablehub.photo_sunda.load_reader reads as the photo scorer does (``beyond``); the hub's reader does not."""
    import numpy as np

    from tablehub.photo_sunda import load_reader
    from tablehub.tracking.sundarefs import load_reader as camera_reader, write_refs
    from vision.mat import Mat
    from vision.sim.camera import NUISANCE
    from vision.sim.sundatable import PAWN_COLOURS, enrolment_scene, render_sunda
    from vision.sunda import enrol

    frame, truth = render_sunda(enrolment_scene(), NUISANCE["clean"], np.random.default_rng(3))
    write_refs(tmp_path, enrol(frame, Mat.default(), PAWN_COLOURS, lens=truth.lens()), lens=truth.lens())
    assert load_reader(tmp_path).beyond is True
    assert camera_reader(tmp_path).beyond is False
