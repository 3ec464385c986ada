"""Two figures of one colour either side of a seam (issue 14's open cause): their pictures, a few millimetres apart,
join into one blob larger than any one figure's; it was judged as one figure, and the other was lost (the photo
score's Neues Land field/hard table 9: two blue figures beside an empty cell). A blob of one colour larger than one
figure's picture is split in two where each half is a figure's size and the halves lie two figures apart."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.pieces import _two_figures

MM_PER_PX = 0.5


def _stadium(mask: np.ndarray, centre_mm: tuple[float, float], length_mm: float, width_mm: float, turn: float) -> None:
    """A figure's picture seen from above: a slab with rounded ends (as vision.sim draws its body)."""
    c, s = np.cos(np.radians(turn)), np.sin(np.radians(turn))
    reach = (length_mm - width_mm) / 2 / MM_PER_PX
    cx, cy = centre_mm[0] / MM_PER_PX, centre_mm[1] / MM_PER_PX
    a = (int(round(cx - c * reach)), int(round(cy - s * reach)))
    b = (int(round(cx + c * reach)), int(round(cy + s * reach)))
    img = mask.astype(np.uint8)
    cv2.line(img, a, b, 1, int(round(width_mm / MM_PER_PX)))
    mask |= img.astype(bool)


@pytest.mark.parametrize("apart_mm,turns", [(17.0, (0, 0)), (18.0, (0, 30)), (20.0, (0, 0)), (19.0, (20, 160))])
def test_two_figures_a_few_millimetres_apart_are_two_halves(apart_mm, turns):
    blob = np.zeros((120, 120), bool)
    _stadium(blob, (30 - apart_mm / 2, 30), 16, 8, turns[0])
    _stadium(blob, (30 + apart_mm / 2, 30), 16, 8, turns[1])
    blob = cv2.morphologyEx(blob.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8)).astype(bool)  # joined
    assert cv2.connectedComponents(blob.astype(np.uint8))[0] == 2, "the two pictures make one blob"
    halves = _two_figures(blob, MM_PER_PX, 110.0, 14.0)
    assert halves is not None
    left, right = halves
    assert (left & right).sum() == 0 and ((left | right) == blob).all()
    xs = sorted(float(np.nonzero(h)[1].mean()) * MM_PER_PX for h in halves)
    assert xs[0] == pytest.approx(30 - apart_mm / 2, abs=2.0) and xs[1] == pytest.approx(30 + apart_mm / 2, abs=2.0)


@pytest.mark.parametrize("length_mm,width_mm", [(25.0, 8.0), (20.0, 14.0), (22.0, 18.0)])
def test_one_figures_picture_is_not_split(length_mm, width_mm):
    blob = np.zeros((120, 120), bool)
    _stadium(blob, (30, 30), length_mm, width_mm, 35)
    assert _two_figures(blob, MM_PER_PX, 110.0, 14.0) is None


@pytest.mark.shared
def test_figures_of_one_colour_either_side_of_a_seam_are_both_found(neuesland):
    from vision.sim import SceneFigure

    rec = neuesland.recognizer()

    def read(split: bool) -> tuple[int, list, list]:
        rec.figures.two_figures_mm2 = 340.0 if split else float("inf")
        rec.figures.one_figure_long_mm = 27.0 if split else float("inf")     # a long blob looked at as two too
        rec.figures.paint_apart = split         # and one whose paint lies in two parts (session nlfig10)
        total, lost, extra = 0, [], []
        for seed in range(4):
            scene = neuesland.board(seed=700 + seed, tiles=30, figures=0)
            cells = {(t.x, t.y) for t in scene.tiles}
            pairs, used = [], set()
            for t in scene.tiles:
                a, b = (t.x, t.y), (t.x + 1, t.y)
                near = {(c[0] + dx, c[1] + dy) for c in (a, b) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
                if b in cells and (0, 0) not in (a, b) and not near & used:
                    pairs.append((a, b))
                    used |= {a, b}
            colours = ["red", "blue", "yellow", "black", "green"]
            figures = []
            # 13 mm from each tile's middle toward the seam between them: 19 mm apart, bodies 3 mm apart at the arms
            for i, (a, b) in enumerate(pairs[:4]):
                c, dy = colours[(seed + i) % len(colours)], (-10.0, 0.0, 10.0)[i % 3]
                figures += [SceneFigure(a[0], a[1], c, None, (13.0, dy)), SceneFigure(b[0], b[1], c, None, (-13.0, dy))]
            scene.figures = figures
            frame, _ = neuesland.render(scene, seed=800 + seed)
            obs = rec.observe(frame)
            want = [(f.x, f.y, f.color) for f in figures]
            got = [(f.x, f.y, f.colour) for f in obs.figures]
            total += len(want)
            lost += [(seed, w) for w in want if w not in got]
            extra += [(seed, g) for g in got if g not in want]
        return total, lost, extra

    try:
        total, lost, extra = read(True)
        assert total == 32
        # all 32 on OpenCV 5; one green figure lost on the Pi's OpenCV 4.11
        assert len(lost) <= 1 and not extra, f"lost {lost}, seen where none stands {extra}"
        # the cause: without the split, one of a joined pair is lost (4 on OpenCV 5)
        _, lost_unsplit, _ = read(False)
        assert len(lost_unsplit) > len(lost), "no pair joined into one blob: the boards no longer meet the cause"
    finally:
        rec.figures.two_figures_mm2 = 340.0
        rec.figures.paint_apart = True
        rec.figures.one_figure_long_mm = 27.0
