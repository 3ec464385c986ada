"""``vision.sunda._augment_enclosed`` follows the labels of its cheapest alternating path back to where it started.
Lines taken off make the labels' costs negative, so two mated triangles can each improve the other's label and their
back pointers turn in a ring that never leads back to the start: followed for ever, the chain filled the memory
(22 GB, killed; the photo bench's Sunda table 5 at `hard`, seed 1). Such a path is no path: nothing is paired.

The ring is built here by hand: t (alone, enclosed) sees b1, mated to m1; m1 sees b2, mated to m2; m2 sees b1 again
more cheaply than t did, and e, alone and enclosed (the path's end). Run in a child with its memory capped, so that
the old endless chain fails the test instead of the machine."""
from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("cv2")

CHILD = textwrap.dedent("""
    import resource, sys
    resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, 1_500_000_000))
    from vision.sunda import _augment_enclosed

    t, b1, m1, b2, m2, e, f1, f2 = [(i, 0, i % 2) for i in range(8)]
    by_tri = {t: [(0.5, b1), (0.0, f1), (0.0, f2)],
              b1: [(0.5, t), (1.0, m1), (0.1, m2)],
              m1: [(1.0, b1), (0.1, b2), (0.0, f1)],
              b2: [(0.1, m1), (1.0, m2), (0.0, f1)],
              m2: [(1.0, b2), (0.1, b1), (0.2, e)],
              e: [(0.2, m2), (0.0, f1), (0.0, f2)]}
    mate = {b1: m1, m1: b1, b2: m2, m2: b2}
    before = dict(mate)
    made = _augment_enclosed(mate, by_tri, fixed={f1, f2})
    print(made, mate == before)
""")


def test_labels_that_turn_in_a_ring_pair_nothing_and_end():
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["0", "True"], done.stdout
