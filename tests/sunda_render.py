"""A rendered Sunda to Sahul table read as its owner would set the reader up (for the tests): the cloth and the
pawns' colours enrolled from one photo, the resource markers (when asked for) from another, each in another session
of the same camera, then the table's own frame read."""
from __future__ import annotations

from typing import Any, Sequence


def read_rendered(scene: Any, cam: Any, rng: Any, *, markers: bool = False,
                  pieces: Sequence[Any] | None = None) -> tuple[Any, Any, Any]:
    """``(reader, truth, reading)`` of ``scene`` (a ``vision.sim.sundatable.SundaScene``) under ``cam`` (a
    ``vision.sim.camera`` model), drawing from ``rng`` in this order: the enrolment photo, the markers' photo, the
    table. ``pieces``: the owner's set (``reader.use_set``), given before the table is read."""
    from vision.mat import Mat
    from vision.sim.sundatable import PAWN_COLOURS, enrolment_scene, marker_enrolment_scene, render_sunda
    from vision.sunda import SundaReader, enrol
    from vision.sundamarkers import MarkerFinder, enrol_markers

    ef, et = render_sunda(enrolment_scene(cloth_bgr=scene.cloth_bgr, table_bgr=scene.table_bgr), cam.other_session(),
                          rng)
    learnt = enrol(ef, Mat.default(), PAWN_COLOURS, lens=et.lens())
    if markers:
        mf, mt = render_sunda(marker_enrolment_scene(cloth_bgr=scene.cloth_bgr, table_bgr=scene.table_bgr),
                              cam.other_session(), rng)
    frame, truth = render_sunda(scene, cam, rng)
    reader = SundaReader(Mat.default(), learnt, lens=truth.lens())
    if pieces is not None:
        reader.use_set(pieces)
    if markers:
        reader.markers = MarkerFinder(learnt, enrol_markers(mf, Mat.default(), learnt.cloth_bgr, lens=mt.lens()))
    return reader, truth, reader.read(frame)
