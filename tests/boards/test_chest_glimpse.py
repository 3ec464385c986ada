"""The coarse look at a deck before its full read (``vision.chests._lid_glimpsed``): a deck it calls empty is one
the full read calls empty too (never a laden deck lost), and most empty decks end there (the CPU it saves)."""
from __future__ import annotations

import numpy as np
import pytest

import vision.chests as chests
from vision.sim.boardtable import BoardPiece, deck_spot

from .test_chests import enrolled, shoot  # noqa: F401 - the module's fixture: the values enrolled once

VALUES = [4000, 5000, 6000, 7000, 8000]


def _decks(table, seed: int, n: int):
    """``n`` ships on spaces apart, each carrying a chest anywhere on its deck (turned any way) two times in three."""
    rng = np.random.default_rng(seed)
    c = table.board.centres
    spaces = [int(s) for s in rng.choice(list(table.board.spaces), n, replace=False)]
    out = []
    for k, s in enumerate(spaces):
        laden = rng.random() < 2 / 3
        out.append(BoardPiece("ship", k % 6, *c[s], float(rng.uniform(0, 360)),
                              carries=VALUES[k % 5] if laden else 0, deck=deck_spot(rng) if laden else None))
    return out


@pytest.mark.parametrize("camera", ["clean", "default"])
def test_the_glimpse_loses_no_laden_deck_and_spares_most_empty_ones(table, enrolled, camera, monkeypatch):  # noqa: F811
    ref, reg, book = enrolled
    pieces = _decks(table, 41 if camera == "clean" else 42, 12)
    frame, _ = shoot(table, pieces, camera, 7, origin=(42.0, 38.0), angle=0.5)
    r = reg.register(frame)
    glimpsed = {}
    real = chests._lid_glimpsed

    def spy(frame, to_image, empty, ppm, book, ship_mm, *rest):
        glimpsed[ship_mm] = real(frame, to_image, empty, ppm, book, ship_mm, *rest)
        return glimpsed[ship_mm]

    monkeypatch.setattr(chests, "_lid_glimpsed", spy)
    fast = [chests.read_aboard(frame, r.to_image, ref.canvas, 2.0, book, (p.x_mm, p.y_mm)) for p in pieces]
    monkeypatch.setattr(chests, "_lid_glimpsed", lambda *a: True)  # the full read of every deck
    full = [chests.read_aboard(frame, r.to_image, ref.canvas, 2.0, book, (p.x_mm, p.y_mm)) for p in pieces]
    for p, a, b in zip(pieces, fast, full):
        assert (a is None) == (b is None), f"{camera}: ship at ({p.x_mm:.0f}, {p.y_mm:.0f}) carrying {p.carries}"
        if a is not None:
            assert (a.value, a.unsure) == (b.value, b.unsure)
    laden = [p for p in pieces if p.carries]
    assert all(glimpsed[(p.x_mm, p.y_mm)] for p in laden)  # every laden deck read in full
    empty = [p for p in pieces if not p.carries and p.look != 3]  # Diabolo's yellow sail is lid-coloured: read
    spared = sum(not glimpsed[(p.x_mm, p.y_mm)] for p in empty)
    assert empty and spared >= len(empty) - 1, f"{camera}: {spared} of {len(empty)} empty decks spared the full read"
