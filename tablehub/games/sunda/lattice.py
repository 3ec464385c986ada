"""The triangular lattice Sunda to Sahul's rhombi lie on (picture: docs/sunda-lattice.svg).

Points are axial coordinates ``(q, r)``; drawn with y downwards a point sits at
``x = q + r/2, y = r * sqrt(3)/2``. The six unit directions, clockwise on the page
from east, are :data:`DIRECTIONS` (``D0 = (1, 0)`` east, ``D1 = (0, 1)`` south-east,
``D2 = (-1, 1)`` south-west, ``D3`` west, ``D4`` north-west, ``D5`` north-east).

A unit triangle is ``(q, r, 0)`` (pointing down: points ``(q,r) (q+1,r) (q,r+1)``)
or ``(q, r, 1)`` (pointing up: ``(q+1,r) (q+1,r+1) (q,r+1)``).

A piece is a 60/120-degree rhombus: two unit triangles sharing a side. Its position
is the lattice point of its *first acute corner* ``c0`` and a ``turn`` 0-5 (60-degree
steps clockwise): its corners, clockwise, are ``c0``, ``c1 = c0 + D(turn)``,
``c2 = c1 + D(turn+1)``, ``c3 = c0 + D(turn+1)``. ``c0`` and ``c2`` are the acute
(60-degree) corners, ``c1`` and ``c3`` the obtuse (120-degree) ones; side ``k`` runs
from corner ``k`` to corner ``k+1``. Every one of the six turns is a different way
to lay the same piece, so a placement is ``(q, r, turn)`` and nothing more.
"""
from __future__ import annotations

import math
from functools import lru_cache

Point = tuple[int, int]
Triangle = tuple[int, int, int]
Edge = tuple[Point, Point]

DIRECTIONS: tuple[Point, ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
DIRECTION_NAMES = ("east", "south-east", "south-west", "west", "north-west", "north-east")
H = math.sqrt(3) / 2


def add(p: Point, d: Point) -> Point:
    return p[0] + d[0], p[1] + d[1]


def xy(p: Point) -> tuple[float, float]:
    """Where a lattice point is drawn (unit side, y downwards)."""
    return p[0] + p[1] / 2, p[1] * H


@lru_cache(maxsize=1 << 16)
def corners(q: int, r: int, turn: int) -> tuple[Point, Point, Point, Point]:
    """The four corners (clockwise from the acute corner ``c0``) of a rhombus at ``(q, r, turn)``."""
    c0 = (q, r)
    d, e = DIRECTIONS[turn % 6], DIRECTIONS[(turn + 1) % 6]
    c1 = add(c0, d)
    return c0, c1, add(c1, e), add(c0, e)


def triangle_of(a: Point, b: Point, c: Point) -> Triangle:
    """The unit triangle with these three points as corners."""
    sq, sr = a[0] + b[0] + c[0], a[1] + b[1] + c[1]
    return sq // 3, sr // 3, sq % 3 - 1


def triangle_points(t: Triangle) -> tuple[Point, Point, Point]:
    q, r, up = t
    if up:
        return (q + 1, r), (q + 1, r + 1), (q, r + 1)
    return (q, r), (q + 1, r), (q, r + 1)


@lru_cache(maxsize=1 << 16)
def triangles(q: int, r: int, turn: int) -> tuple[Triangle, Triangle]:
    """The two unit triangles a rhombus covers: (c0, c1, c3) and (c1, c2, c3)."""
    c0, c1, c2, c3 = corners(q, r, turn)
    return triangle_of(c0, c1, c3), triangle_of(c1, c2, c3)


def edge_key(a: Point, b: Point) -> Edge:
    return (a, b) if a <= b else (b, a)


@lru_cache(maxsize=1 << 16)
def side_neighbours(t: Triangle) -> tuple[tuple[Triangle, Edge], ...]:
    """The three triangles sharing a side with ``t``, with that side."""
    a, b, c = triangle_points(t)
    return tuple((triangle_of(u, v, (u[0] + v[0] - w[0], u[1] + v[1] - w[1])), edge_key(u, v))
                 for u, v, w in ((a, b, c), (b, c, a), (c, a, b)))


@lru_cache(maxsize=1 << 16)
def triangles_at(p: Point) -> tuple[Triangle, ...]:
    """The six unit triangles around lattice point ``p``, clockwise from the east-south-east one."""
    out = []
    for k in range(6):
        out.append(triangle_of(p, add(p, DIRECTIONS[k]), add(p, DIRECTIONS[(k + 1) % 6])))
    return tuple(out)


_DIR_INDEX = {d: i for i, d in enumerate(DIRECTIONS)}


@lru_cache(maxsize=1 << 16)
def placements_covering(t: Triangle, other: Triangle) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """The two placements ``(q, r, turn)`` of a rhombus made of triangles ``t`` and ``other``
    (which share a side): anchored at either acute corner."""
    pt, po = triangle_points(t), triangle_points(other)
    shared = [p for p in pt if p in po]
    x = next(p for p in pt if p not in po)
    y = next(p for p in po if p not in pt)
    a, b = shared
    out = []
    for c0 in (x, y):
        i = _DIR_INDEX[(a[0] - c0[0], a[1] - c0[1])]
        j = _DIR_INDEX[(b[0] - c0[0], b[1] - c0[1])]
        out.append((c0[0], c0[1], i if j == (i + 1) % 6 else j))
    return out[0], out[1]  # type: ignore[return-value]
