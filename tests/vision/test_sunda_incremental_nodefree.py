"""An incremental window that no node of the layout lies near (the supply's change group off the layout) is not searched
for tribes (``NODE_FREE_SKIP``, ``SundaReader._no_node_near``): a tribe stands at a node within ``NODE_REACH`` sides of
its base, and the read keeps only tribes on the layout's nodes and inside the window's inner part, so every tribe found
there would be dropped. The reading is the same as with the search."""
from __future__ import annotations

import numpy as np

import vision.sunda as sunda
from vision.sunda import KEPT_INNER_MM, NODE_REACH, NODE_SLACK_MM, LatticePose, SundaReader
from tests.vision.test_sunda_incremental_groups import pawn_put_on, spy_windows


def _reader() -> SundaReader:
    reader = SundaReader.__new__(SundaReader)
    reader.s, reader.side_mm = 2.0, 30.0
    reader._play = (0, 0, 2400, 2400)
    return reader


def test_a_window_is_node_free_only_when_every_node_is_beyond_a_tribes_reach_of_its_inner_part():
    reader = _reader()
    lat = LatticePose((600.0, 600.0), 17.0, 30.0)
    node = lat.to_mm(np.array([[0.0, 0.0]]))[0]
    reach = NODE_REACH * lat.side_mm + NODE_SLACK_MM
    inner = KEPT_INNER_MM

    def window_left_of(gap_mm: float) -> tuple[int, int, int, int]:
        # a window whose inner part ends ``gap_mm`` left of the node, level with it
        x1 = node[0] - gap_mm + inner
        return (int(np.floor((x1 - 100.0) * reader.s)), int(np.floor((node[1] - 50.0) * reader.s)),
                int(np.floor(x1 * reader.s)), int(np.ceil((node[1] + 50.0) * reader.s)))

    assert reader._no_node_near(lat, {(0, 0)}, window_left_of(reach + 3.0))
    assert not reader._no_node_near(lat, {(0, 0)}, window_left_of(reach - 1.0))
    assert not reader._no_node_near(lat, {(5, 5), (0, 0)}, window_left_of(1.0))
    assert reader._no_node_near(lat, set(), window_left_of(1.0))
    # a node inside the inner part: not free
    assert not reader._no_node_near(lat, {(0, 0)}, window_left_of(-inner / 2))


def test_the_supplys_window_off_the_layout_reads_no_tribes_and_the_reading_is_the_same(monkeypatch):
    """A rendered table (``clean``, seed 3) with both players' supplies off the layout: a pawn put on a node (one fewer
    in its player's supply) is read in two windows; only the tribe's is searched for tribes, and the reading (pieces,
    tribes, markers, notes) is the one the search of both gives."""
    reader, before, after = pawn_put_on()
    searched: list = []
    tribes = SundaReader._tribes

    def spy(self, *a, **k):
        searched.append(self._win)
        return tribes(self, *a, **k)
    monkeypatch.setattr(SundaReader, "_tribes", spy)
    windows = spy_windows(monkeypatch)
    skipped = reader.read(after, previous=before)
    assert len(windows) == 2 and len(searched) == 1

    def content(r):
        return (sorted((p["q"], p["r"], p["turn"], p["sides"], p.get("join")) for p in r.pieces),
                sorted((t.q, t.r, t.height, t.top, t.ask, t.mat_mm) for t in r.tribes),
                sorted(str(m.to_dict()) for m in r.markers), list(r.unsure), list(r.conflicts))
    monkeypatch.setattr(sunda, "NODE_FREE_SKIP", False)
    del searched[:], windows[:]
    reader._lazy = None
    full = reader.read(after, previous=before)
    assert len(windows) == 2 and len(searched) == 2
    assert content(skipped) == content(full)
    assert len(skipped.tribes) == 1 and content(skipped)[0] == content(before)[0]
