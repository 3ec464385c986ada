"""An incremental read reads each group of the changed pixels in a window of its own (``CHANGE_GROUPS``; docs/sunda.md
"Incremental reads"): a pawn put on a tribe and the pawn taken from its player's supply off the layout change two
places a table apart, and the one box round both read 0.3-0.4 of the table again, or the whole of it (seed 7 `hard`
of the bench's tracked tables: 16 of 29 incremental frames read 65-90 ms, 26 ms now)."""
from __future__ import annotations

import numpy as np

import vision.sunda as sunda
from vision.sunda import LatticePose, SundaReader, SundaReading


def _reader() -> SundaReader:
    reader = SundaReader.__new__(SundaReader)
    reader.s, reader.side_mm = 2.0, 30.0
    reader._play = (0, 0, 2400, 2400)         # the small canvas (a quarter of the scale): 600 x 600
    reader._pending = reader._more = None
    return reader


def _changed(*boxes: tuple[int, int, int, int]) -> np.ndarray:
    out = np.zeros((600, 600), bool)
    for x0, y0, x1, y1 in boxes:
        out[y0:y1, x0:x1] = True
    return out


def _holds(win, x: int, y: int) -> bool:        # a small canvas pixel inside a window (canvas px)
    return win[0] <= 4 * x < win[2] and win[1] <= 4 * y < win[3]


def test_two_changes_a_table_apart_are_read_in_two_windows_each_round_its_own():
    reader = _reader()
    previous = SundaReading(LatticePose((600.0, 600.0), 17.0, 30.0), [], [])
    win, doubts = reader._window_for(_changed((10, 10, 16, 16), (300, 400, 306, 406)), previous)
    assert doubts == frozenset() and reader._more is not None and len(reader._more) == 1
    other = reader._more[0]
    assert _holds(win, 12, 12) and not _holds(win, 302, 402)
    assert _holds(other, 302, 402) and not _holds(other, 12, 12)
    grow = int(np.ceil(reader._window_grow_mm() * reader.s))
    assert win == (0, 0, 64 + grow, 64 + grow)                 # the group's box grown, as one change's window
    assert other == (1200 - grow, 1600 - grow, 1224 + grow, 1624 + grow)
    # changes whose windows meet: one window, the box round them grown (as before)
    reader._more = None
    win, _ = reader._window_for(_changed((100, 100, 106, 106), (150, 100, 156, 106)), previous)
    assert reader._more is None
    assert win == (400 - grow, 400 - grow, 624 + grow, 424 + grow)


def test_groups_whose_windows_together_are_over_the_big_share_read_the_whole_table(monkeypatch):
    reader = _reader()
    previous = SundaReading(LatticePose((600.0, 600.0), 17.0, 30.0), [], [])
    monkeypatch.setattr(SundaReader, "_big", lambda self: 2 * 300 ** 2)    # two windows of ~280 px a side fit
    win, _ = reader._window_for(_changed((100, 100, 106, 106), (400, 400, 406, 406)), previous)
    assert reader._more is not None
    many = [(x, y, x + 6, y + 6) for x in (50, 250, 450) for y in (50, 250, 450)]
    win, _ = reader._window_for(_changed(*many), previous)
    assert win == reader._play and reader._more is None


def pawn_put_on() -> tuple[SundaReader, SundaReading, np.ndarray]:
    """A rendered table (``clean``, seed 3) with both players' supplies drawn off the layout, read from scratch, and
    the frame after a pawn is put on a node (one fewer in its player's supply): the reader, its first reading, the
    frame after."""
    from tablehub.games.sunda.engine import PAWNS
    from tests.vision.test_sundasupply import _table
    from vision.sim.sundatable import render_sunda

    game, pos, scene, cam, reader, rng = _table("clean", 3, loose=(), supply_total=PAWNS[2])
    frame, _ = render_sunda(scene, cam, rng)
    before = reader.read(frame)
    tribe = pos["tribes"][0]
    scene.position = {**scene.position, "tribes": [{**tribe, "pawns": tribe["pawns"][:1]}]}
    after, _ = render_sunda(scene, cam, rng)
    return reader, before, after


def spy_windows(monkeypatch) -> list[tuple[int, int, int, int]]:
    """The windows (canvas px) every read reads from now on, in order (``SundaReader._window_image`` watched)."""
    windows: list[tuple[int, int, int, int]] = []
    image = SundaReader._window_image

    def spy(self, frame, mx, my, win, light):
        windows.append(win)
        return image(self, frame, mx, my, win, light)
    monkeypatch.setattr(SundaReader, "_window_image", spy)
    return windows


def test_a_pawn_put_on_and_the_one_gone_from_the_supply_read_as_one_window_read_them(monkeypatch):
    """A rendered table (``clean``, seed 3) with both players' supplies drawn off the layout: a frame read from
    scratch, then a pawn put on a node (one fewer in its player's supply). The incremental read reads two windows, the
    supply's and the tribe's, neither holding the other change, and reads what one window round both reads: the
    pieces as before, the new tribe."""
    reader, before, after = pawn_put_on()
    windows = spy_windows(monkeypatch)
    grouped = reader.read(after, previous=before)
    assert len(windows) == 2 and not sunda._meet(*windows)
    read = windows[:]
    monkeypatch.setattr(sunda, "CHANGE_GROUPS", False)
    del windows[:]
    reader._lazy = None
    boxed = reader.read(after, previous=before)
    assert len(windows) == 1 and all(w[0] >= windows[0][0] and w[2] <= windows[0][2] for w in read)

    def content(r):
        return (sorted((p["q"], p["r"], p["turn"], p["sides"], p.get("join")) for p in r.pieces),
                sorted((t.q, t.r, t.height, t.top, t.ask) for t in r.tribes))
    assert content(grouped) == content(boxed)
    assert content(grouped)[0] == content(before)[0] and len(grouped.tribes) == 1
