"""What vision caches per object (a reference set's rotated stack, an empty board's Lab picture, a piece book's
matrices) belongs to that object alone: a new object that happens to get a freed one's ``id()`` (CPython reuses the
address at once) gets its own values, not the old one's (vision/identity_cache.py)."""

import gc

import cv2
import numpy as np

from vision import boardpieces, undercover
from vision.identity_cache import IdentityCache


def _fresh_each_time(make, read, rounds: int = 20):
    """``read`` of each of ``rounds`` objects made one after the other, each freed before the next is made."""
    out = []
    for k in range(rounds):
        obj = make(k)
        out.append((k, read(obj)))
        del obj
        gc.collect()
    return out


def test_a_new_reference_set_gets_its_own_rotated_stack():
    got = _fresh_each_time(lambda k: np.full((2, 8, 8, 3), 10 * k, np.uint8),
                           lambda refs: float(undercover._stack(refs, 1).max()))
    assert [v for _, v in got] == [10.0 * k for k, _ in got]


def test_a_new_empty_board_gets_its_own_lab_picture():
    def board(k):
        im = np.zeros((200, 200, 3), np.uint8)
        im[5:195, 5:195] = (10 * k, 90, 140)
        im[::97, ::89] = 0                     # the pixels the cache samples are alike on every board
        return im

    def cached_and_fresh(im):
        lab = cv2.GaussianBlur(cv2.cvtColor(im, cv2.COLOR_BGR2Lab), (0, 0), 1.0)
        return boardpieces._empty_cached(im)[0][100, 50].tolist(), lab[100, 50].tolist()

    got = _fresh_each_time(board, cached_and_fresh)
    assert all(cached == fresh for _, (cached, fresh) in got)
    assert len({tuple(fresh) for _, (_, fresh) in got}) > 10


def test_the_cache_keeps_what_it_holds_alive_and_checks_identity():
    cache = IdentityCache(2)
    a, b = np.zeros(2), np.zeros(2)
    assert cache.get((a,), 1, lambda: "a") == "a"
    assert cache.get((b,), 1, lambda: "b") == "b"
    assert cache.get((a,), 1, lambda: "again") == "a"       # found by identity, and now the newest
    assert cache.get((a,), 2, lambda: "a2") == "a2"         # the extra key counts; b's entry, the oldest, goes
    assert cache.get((a,), 1, lambda: "rebuilt") == "a"
    assert cache.get((b,), 1, lambda: "b again") == "b again"
    assert cache.get((np.zeros(2),), 1, lambda: "new") == "new"   # equal content is no hit
