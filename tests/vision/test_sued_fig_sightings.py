"""Two figures side by side whose pictures join in one window are not taken for one (issue 14, session suedfig3).

A figure near its tile's edge is searched from several tiles' windows; its sightings are one figure when they stand
within 8 mm of each other or share a third of the smaller picture (``figurereading._one_each_standing``: a picture
cut by its window's edge shows only part of the figure, and may stand elsewhere). In one window the pictures of a
black figure and a blue one beside it joined into one blob of 267 mm^2, read as the blue figure, standing where the
blue one stands, 18 mm from the black one: it shared 27 of the black figure's 36 pixels, and the black figure's own
whole sighting was dropped as a second sighting of the blue one (Neues Land bench ``--camera sim --levels hard --seed
4``, board 7; Südsee ``--camera field --seed 4`` board 4 alike, 24 mm apart). Whole pictures stand where their near
end is, the same from every window: two that stand a foot's length (16 mm) or more apart are two figures.
"""
from vision.figurereading import _one_each_standing
from vision.pieces import FigureSeen

PITCH = 45.0            # mm a tile side
APART = 8.0 / PITCH     # two figures' feet stand at least 8 mm apart (Thresholds.figure_apart_mm)


def _pixels(x0: int, y0: int, w: int, h: int) -> frozenset:
    return frozenset((x, y) for x in range(x0, x0 + w) for y in range(y0, y0 + h))


def _sighting(colour: str, gx: float, gy: float, pixels: frozenset, clipped: bool = False, area: float = 0.0):
    f = FigureSeen(int(round(gx)), int(round(gy)), colour, "S", gx - round(gx) + 0.5, gy - round(gy) + 0.5, 1.0,
                   area or 3.6 * len(pixels))
    return f, clipped, (gx, gy), pixels


def test_a_whole_picture_joined_to_its_neighbours_in_another_window_stays_a_figure():
    black_px = _pixels(10, 10, 6, 6)                            # 36 pixels
    joined_px = _pixels(10, 10, 6, 5) | _pixels(4, 2, 10, 5)    # 30 of the black one's and the blue figure's own
    blue = _sighting("blue", 2.0 - 6.5 / PITCH, 3.0 - 17.3 / PITCH, joined_px)
    black = _sighting("black", 2.0, 3.0, black_px)
    kept = _one_each_standing([], [blue, black], APART)
    assert sorted(f.colour for f in kept) == ["black", "blue"]
    # before: any two sightings sharing a third of the smaller picture were one figure, and the black one was lost
    before = _one_each_standing([], [blue, black], APART, whole_apart=float("inf"))
    assert [f.colour for f in before] == ["blue"]


def test_one_figure_seen_from_two_windows_is_still_one():
    """The same figure seen whole from two windows (a few millimetres apart), or cut by one window's edge and standing
    elsewhere there, is one figure, as before."""
    px = _pixels(10, 10, 6, 6)
    a = _sighting("red", 2.0, 3.0, px)
    b = _sighting("red", 2.0 + 3.0 / PITCH, 3.0, px | _pixels(16, 10, 1, 6))
    assert len(_one_each_standing([], [a, b], APART)) == 1
    cut = _sighting("red", 2.0 + 20.0 / PITCH, 3.0, _pixels(10, 10, 3, 6), clipped=True)
    assert len(_one_each_standing([], [a, cut], APART)) == 1
