"""The Sunda to Sahul layout: rhombi on the triangular lattice, side matching, nodes, islands and lakes.

Placed pieces' regions (see :mod:`.pieces`) are nodes of a union-find joined across
shared sides slot by slot, so a root is an island (land) or a stretch of water.
Land joins only across sides; water and the empty table also join through lattice
points (RULINGS.md: land touching land at a point is two islands).

:meth:`Board.analyse` looks at the whole layout when the rules need it (fresh-water
nodes, island completion, scoring, drawing): which water is enclosed (a lake), which
island encloses it, which islands lie inside lakes and which islands are complete
(no land slot faces an empty triangle that a rhombus could still cover).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

from ...i18n import T, Tc, Text
from ..base import IllegalAction
from ..unionfind import root as uf_root
from .lattice import Point, Triangle, corners, placements_covering, side_neighbours, \
    triangle_of, triangle_points, triangles, triangles_at
from .pieces import Piece, PieceSet

Pos = tuple[int, int, int]  # (q, r, turn)
#: triangles covered at each corner: acute corners 1, obtuse 2
AT_CORNER = (1, 2, 1, 2)


class Placed:
    __slots__ = ("piece", "q", "r", "turn", "corners", "tris", "base", "order")

    def __init__(self, piece: Piece, q: int, r: int, turn: int, base: int, order: int):
        self.piece = piece
        self.q, self.r, self.turn = q, r, turn
        self.corners = corners(q, r, turn)
        self.tris = triangles(q, r, turn)
        self.base = base
        self.order = order

    def corner_at(self, p: Point) -> int:
        return self.corners.index(p)


@dataclass
class Node:
    """A lattice point fully surrounded by pieces."""

    point: Point
    kind: str          # "land", "water" or "coast"
    region: int        # a region of a piece at the point (land nodes: the land around it)
    order: int         # the placement that formed it


@dataclass
class Island:
    root: int
    complete: bool = True
    depth: int = 0                   # 1: on the open sea; 3, 5...: inside a lake
    pieces: set[int] = field(default_factory=set)
    label: Point = (0, 0)

    @property
    def in_lake(self) -> bool:
        return self.depth >= 3

    def name(self) -> Text:
        at = f"{self.label[0]},{self.label[1]}"
        if self.in_lake:
            return T("the complete island inside a lake at {point}", point=at) if self.complete else \
                T("the incomplete island inside a lake at {point}", point=at)
        return T("the complete island at {point}", point=at) if self.complete else \
            T("the incomplete island at {point}", point=at)


@dataclass
class Analysis:
    islands: dict[int, Island]
    water_comp: dict[int, int]       # water region root -> component
    enclosed: set[int]               # components that are lakes
    lake_island: dict[int, int]      # lake component -> island root

    def island_of(self, root: int) -> Island:
        return self.islands[root]


class Board:
    def __init__(self, pieces: PieceSet):
        self.pieces = pieces
        self.placed: list[Placed] = []
        self.tri: dict[Triangle, int] = {}
        self.sides: dict[tuple[Point, Point], tuple[int, int]] = {}   # directed edge as its owner runs it
        self.need: dict[tuple[Point, Point], int] = {}   # directed edge -> side code a piece laid there needs
        self.loop_closed = False   # did the last piece join land to land it already reached?
        self.cover: dict[Point, int] = {}
        self.nodes: dict[Point, Node] = {}
        self.parent: list[int] = []
        self.terrain: list[str] = []
        self.region_piece: list[int] = []
        self.rows: dict[int, list[int]] = {}      # row r -> [lowest q, highest q] of placed triangles
        self.cols: dict[int, list[int]] = {}      # column strip q -> [lowest r, highest r]
        self.diags: dict[int, list[int]] = {}     # diagonal strip q+r+up -> [lowest q, highest q]
        self.members: dict[int, list[tuple[int, int]]] = {}   # region root -> (piece, region) in it
        self.cand: dict[Pos, tuple[int, ...]] = {}
        self.groups: dict[tuple[int, ...], dict[Pos, None]] = {}
        self._analysis: Analysis | None = None

    def copy(self) -> "Board":
        new = Board.__new__(Board)
        new.pieces = self.pieces
        new.placed = list(self.placed)
        new.tri = dict(self.tri)
        new.sides = dict(self.sides)
        new.need = dict(self.need)
        new.loop_closed = self.loop_closed
        new.cover = dict(self.cover)
        new.nodes = dict(self.nodes)
        new.parent = list(self.parent)
        new.terrain = list(self.terrain)
        new.region_piece = list(self.region_piece)
        new.rows = {k: list(v) for k, v in self.rows.items()}
        new.cols = {k: list(v) for k, v in self.cols.items()}
        new.diags = {k: list(v) for k, v in self.diags.items()}
        new.members = {k: list(v) for k, v in self.members.items()}
        new.cand = dict(self.cand)
        new.groups = {k: dict(v) for k, v in self.groups.items()}
        new._analysis = self._analysis
        return new

    def __deepcopy__(self, memo: dict) -> "Board":
        return self.copy()

    # ---- union-find over regions

    def find(self, n: int) -> int:
        return uf_root(self.parent, n)

    def _union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            if ra > rb:
                ra, rb = rb, ra
            self.parent[rb] = ra
            self.members[ra].extend(self.members.pop(rb))

    # ---- legality

    def requirement(self, q: int, r: int, turn: int) -> tuple[int, ...]:
        """Per side of a rhombus at (q, r, turn): the side code a piece needs there (0: free)."""
        c0, c1, c2, c3 = corners(q, r, turn)
        need = self.need
        return need.get((c0, c1), 0), need.get((c1, c2), 0), need.get((c2, c3), 0), need.get((c3, c0), 0)

    def candidates(self) -> dict[tuple[int, ...], dict[Pos, None]]:
        """Every free rhombus position sharing a side with the layout, grouped by its side requirement
        (kept up to date by :meth:`place`)."""
        if not self.placed:
            return {(0, 0, 0, 0): dict.fromkeys((0, 0, t) for t in range(6))}
        return self.groups

    def _set_candidate(self, pos: Pos, req: tuple[int, ...] | None) -> None:
        old = self.cand.pop(pos, None)
        if old is not None:
            group = self.groups[old]
            del group[pos]
            if not group:
                del self.groups[old]
        if req is not None:
            self.cand[pos] = req
            self.groups.setdefault(req, {})[pos] = None

    def _update_candidates(self, placed: Placed) -> None:
        tri = self.tri
        for pos in placements_covering(*placed.tris):
            self._set_candidate(pos, None)
        for t in placed.tris:
            for n, _ in side_neighbours(t):
                if n in tri:
                    continue
                for pos in placements_covering(t, n):
                    self._set_candidate(pos, None)
                # the empty triangle across this side: its rhombi now have a new requirement
                for m, _ in side_neighbours(n):
                    if m not in tri:
                        for pos in placements_covering(n, m):
                            self._set_candidate(pos, self.requirement(*pos))

    def fits(self, piece: Piece, req: tuple[int, ...]) -> bool:
        memo = piece.fit_memo
        ok = memo.get(req)
        if ok is None:
            codes = piece.side_codes
            ok = memo[req] = all(x == 0 or x == c for x, c in zip(req, codes))
        return ok

    def legal_placements(self, piece: Piece, sort: bool = True) -> list[Pos]:
        """Every (q, r, turn) where ``piece`` fits now (``sort=False``: in the board's own order,
        which a replay repeats, for playouts that only pick one)."""
        out: list[Pos] = []
        memo = piece.fit_memo
        for req, positions in self.candidates().items():
            ok = memo.get(req)
            if ok is None:
                ok = self.fits(piece, req)
            if ok:
                out.extend(positions)
        return sorted(out) if sort else out

    def can_place(self, piece: Piece) -> bool:
        memo = piece.fit_memo
        for req in self.candidates():
            ok = memo.get(req)
            if ok is None:
                ok = self.fits(piece, req)
            if ok:
                return True
        return False

    def check(self, piece: Piece, q: int, r: int, turn: int) -> None:
        """Raise :class:`IllegalAction` naming the rule when ``piece`` cannot go at (q, r, turn)."""
        if not 0 <= turn <= 5:
            raise IllegalAction(T("turn must be 0 to 5 (steps of 60 degrees clockwise), got {turn}", turn=turn),
                                rule="bad_turn")
        if not self.placed:
            if (q, r) != (0, 0):
                raise IllegalAction(T("the first piece lies with its acute corner c0 at 0,0 (the origin), not at "
                                      "{point}", point=point_name(q, r)), rule="first_piece")
            return
        for t in triangles(q, r, turn):
            if t in self.tri:
                other = self.placed[self.tri[t]]
                raise IllegalAction(T("{piece} at {point} turn {turn} would overlap {other} (at {at} turn "
                                      "{other_turn})", piece=piece.id, point=point_name(q, r), turn=turn,
                                      other=other.piece.id, at=point_name(other.q, other.r), other_turn=other.turn),
                                    rule="occupied")
        req = self.requirement(q, r, turn)
        if not any(req):
            raise IllegalAction(T("{piece} at {point} turn {turn} shares no side with the layout (a piece must "
                                  "touch it along at least one side; corners do not count)", piece=piece.id,
                                  point=point_name(q, r), turn=turn), rule="not_adjacent")
        cs = corners(q, r, turn)
        for k in range(4):
            if req[k] and req[k] != piece.side_codes[k]:
                other = self.placed[self.sides[(cs[(k + 1) % 4], cs[k])][0]]
                need = other.piece.side(self.sides[(cs[(k + 1) % 4], cs[k])][1])[::-1]
                raise IllegalAction(T(
                    "{piece}'s side {side} ({slots}) at {between} does not continue {other}'s coast there "
                    "({needed}): land and water must continue across every shared side", piece=piece.id, side=k,
                    slots=_words(piece.side(k)), between=point_name(*cs[k]) + "-" + point_name(*cs[(k + 1) % 4]),
                    other=other.piece.id, needed=_words(need)), rule="edge_mismatch")

    # ---- changes

    def place(self, piece: Piece, q: int, r: int, turn: int) -> list[Node]:
        """Lay a piece (legality is :meth:`check`'s business); returns the nodes it formed."""
        idx = len(self.placed)
        base = len(self.parent)
        for i, t in enumerate(piece.regions):
            self.parent.append(base + i)
            self.terrain.append(t)
            self.region_piece.append(idx)
            self.members[base + i] = [(idx, i)]
        p = Placed(piece, q, r, turn, base, idx)
        self.placed.append(p)
        for t in p.tris:
            self.tri[t] = idx
            for strips, key, at in ((self.rows, t[1], t[0]), (self.cols, t[0], t[1]),
                                    (self.diags, t[0] + t[1] + t[2], t[0])):
                span = strips.get(key)
                if span is None:
                    strips[key] = [at, at]
                elif at < span[0]:
                    span[0] = at
                elif at > span[1]:
                    span[1] = at
        cs = p.corners
        self.loop_closed = False
        seen: set[tuple[int, int]] = set()
        for k in range(4):
            a, b = cs[k], cs[(k + 1) % 4]
            other = self.sides.get((b, a))
            if other is not None:
                o = self.placed[other[0]]
                ok = other[1]
                for j in range(3):
                    mine = base + piece.region_of[3 * k + j]
                    theirs = o.base + o.piece.region_of[3 * ok + 2 - j]
                    if (mine, theirs) not in seen:
                        seen.add((mine, theirs))
                        if self.terrain[mine] == "L" and self.find(mine) == self.find(theirs):
                            self.loop_closed = True  # land joined land it already reached: a ring closed
                        self._union(mine, theirs)
            self.sides[(a, b)] = (idx, k)
            self.need[(b, a)] = self.pieces.code(piece.side(k)[::-1])
        formed = []
        for k in range(4):
            pt = cs[k]
            n = self.cover.get(pt, 0) + AT_CORNER[k]
            self.cover[pt] = n
            if n == 6:
                formed.append(self._node(pt, idx))
        self._update_candidates(p)
        self._analysis = None
        return formed

    def _node(self, pt: Point, order: int) -> Node:
        letters = set()
        region = -1
        for t in triangles_at(pt):
            p = self.placed[self.tri[t]]
            k = p.corner_at(pt)
            letters.add(p.piece.corners[k])
            region = p.base + p.piece.region_of[3 * k]
        kind = "land" if letters == {"L"} else "water" if letters == {"W"} else "coast"
        node = Node(pt, kind, region, order)
        self.nodes[pt] = node
        return node

    # ---- the open table and lakes

    def beyond(self, t: Triangle) -> bool:
        """An empty triangle outside the placed stretch of its row, its column or its diagonal strip
        of triangles: it reaches the open table straight along that strip."""
        row = self.rows.get(t[1])
        if row is None or t[0] < row[0] or t[0] > row[1]:
            return True
        col = self.cols.get(t[0])
        if col is None or t[1] < col[0] or t[1] > col[1]:
            return True
        diag = self.diags.get(t[0] + t[1] + t[2])
        return diag is None or t[0] < diag[0] or t[0] > diag[1]

    def empties(self) -> Iterator[Triangle]:
        """The empty triangles of every row's placed stretch, one more on each side, and the rows
        above and below (enough to tell enclosed holes from the open table)."""
        tri = self.tri
        if not self.rows:
            return
        r0, r1 = min(self.rows), max(self.rows)
        for r in range(r0 - 1, r1 + 2):
            lo, hi = self.rows.get(r, (None, None))
            if lo is None:
                near = [self.rows[x] for x in (r - 1, r + 1) if x in self.rows]
                lo, hi = min(v[0] for v in near), max(v[1] for v in near)
            for q in range(lo - 1, hi + 2):
                for up in (0, 1):
                    if (q, r, up) not in tri:
                        yield q, r, up

    def _water_at(self, pt: Point) -> Iterator[tuple[str, Any]]:
        tri = self.tri
        for t in triangles_at(pt):
            i = tri.get(t)
            if i is None:
                yield "t", t
                continue
            p = self.placed[i]
            k = p.corner_at(pt)
            for reg in p.piece.regions_at_corner(k):
                if p.piece.regions[reg] == "W":
                    yield "w", self.find(p.base + reg)

    def _water_next(self, node: tuple[str, Any]) -> Iterator[tuple[str, Any]]:
        kind, key = node
        if kind == "p":
            yield from self._water_at(key)
        elif kind == "t":
            if self.beyond(key):
                yield "out", None
                return
            for pt in triangle_points(key):
                yield "p", pt
            for n, (a, b) in side_neighbours(key):
                own = self.sides.get((a, b)) or self.sides.get((b, a))
                if own is not None:
                    p = self.placed[own[0]]
                    for j in range(3):
                        reg = p.piece.region_of[3 * own[1] + j]
                        if p.piece.regions[reg] == "W":
                            yield "w", self.find(p.base + reg)
        else:
            for i, reg in self.members[key]:
                p = self.placed[i]
                pc = p.piece
                for k in range(4):
                    if reg in pc.regions_at_corner(k):
                        yield "p", p.corners[k]
                    a, b = p.corners[k], p.corners[(k + 1) % 4]
                    if (b, a) not in self.sides and any(pc.region_of[3 * k + j] == reg for j in range(3)):
                        yield "t", triangle_of(a, b, _third(p, a, b))

    def enclosed_near(self, placed: int) -> set[int]:
        """Water region roots round piece ``placed`` that cannot reach the open table: water it cut off
        (only water touching the new piece can have been: it is the cut), and water inside a lake it
        was laid in. A search from each side of it stops as soon as it reaches the open table."""
        p = self.placed[placed]
        seeds: list[tuple[str, Any]] = [("p", c) for c in p.corners]
        seeds += [("w", self.find(p.base + i)) for i, t in enumerate(p.piece.regions) if t == "W"]
        status: dict[tuple[str, Any], bool] = {}   # node -> open (True) or enclosed, once searched
        out: set[int] = set()
        for seed in seeds:
            if seed in status:
                continue
            seen = {seed}
            stack = [seed]
            open_ = False
            while stack and not open_:
                for n in self._water_next(stack.pop()):
                    if n[0] == "out" or status.get(n):
                        open_ = True
                        break
                    if n not in seen and n not in status:
                        seen.add(n)
                        stack.append(n)
            for n in seen:
                status[n] = open_
            if not open_:
                out |= {key for kind, key in seen if kind == "w"}
        return out

    # ---- whole-layout analysis

    def analyse(self) -> Analysis:
        if self._analysis is None:
            self._analysis = _analyse(self)
        return self._analysis

    def island_root(self, pt: Point) -> int:
        return self.find(self.nodes[pt].region)

    def region_root(self, placed: int, region: int) -> int:
        return self.find(self.placed[placed].base + region)

    def coverable(self, t: Triangle) -> bool:
        """An empty triangle a rhombus could still cover: one of its side neighbours is empty too."""
        return t not in self.tri and any(n not in self.tri for n, _ in side_neighbours(t))


def point_name(q: int, r: int) -> str:
    """A lattice point as written: ``"2,-1"``."""
    return f"{q},{r}"


def _words(triple: str) -> Text:
    """A side's three slots in words: ``"land"``, ``"water"`` or ``"land-water-water"``."""
    names = {"L": Tc("sunda", "land"), "W": Tc("sunda", "water")}
    if len(set(triple)) == 1:
        return names[triple[0]]
    return T("{a}-{b}-{c}", a=names[triple[0]], b=names[triple[1]], c=names[triple[2]])


def _analyse(board: Board) -> Analysis:
    find = board.find
    placed = board.placed
    # union-find over: region roots (ids < R), empty triangles, lattice points, and OUT
    R = len(board.parent)
    ids: dict[Any, int] = {}
    parent: list[int] = list(range(R))

    def node_id(key: Any) -> int:
        i = ids.get(key)
        if i is None:
            i = ids[key] = len(parent)
            parent.append(i)
        return i

    def u(a: int, b: int) -> None:
        ra, rb = uf_root(parent, a), uf_root(parent, b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)

    for i in range(R):
        parent[i] = find(i)
    OUT = node_id("out")
    for t in board.empties():
        e = node_id(t)
        if board.beyond(t):
            u(e, OUT)
        for pt in triangle_points(t):
            u(e, node_id(pt))
    # water regions: through the points they touch and across sides facing the empty table
    land_touch: list[tuple[int, int]] = []   # (island root, water/empty id) adjacency
    open_land: set[int] = set()
    for p in placed:
        pc = p.piece
        for k in range(4):
            pt = p.corners[k]
            for reg in pc.regions_at_corner(k):
                rid = find(p.base + reg)
                if pc.regions[reg] == "W":
                    u(rid, node_id(pt))
                elif board.cover.get(pt, 0) < 6 or board.nodes[pt].kind == "coast":
                    land_touch.append((rid, node_id(pt)))
            a, b = pt, p.corners[(k + 1) % 4]
            if (b, a) in board.sides:
                continue
            t = triangle_of(a, b, _third(p, a, b))
            e = node_id(t)
            side = pc.side(k)
            for j in range(3):
                rid = find(p.base + pc.region_of[3 * k + j])
                if side[j] == "W":
                    u(rid, e)
                else:
                    land_touch.append((rid, e))
                    if rid not in open_land and board.coverable(t):
                        open_land.add(rid)
        # land next to water inside the piece
        ring = pc.ring
        for s in range(12):
            if ring[s] != ring[s - 1]:
                a_reg, b_reg = pc.region_of[s], pc.region_of[s - 1]
                land, water = (a_reg, b_reg) if ring[s] == "L" else (b_reg, a_reg)
                land_touch.append((find(p.base + land), find(p.base + water)))
    islands: dict[int, Island] = {}
    for p in placed:
        for reg, t in enumerate(p.piece.regions):
            if t == "L":
                root = find(p.base + reg)
                isl = islands.get(root)
                if isl is None:
                    isl = islands[root] = Island(root, root not in open_land, 0, set(), (p.q, p.r))
                isl.pieces.add(p.order)
    # nesting depth: open water 0, islands on it 1, lakes 2, islands in lakes 3, ...
    water_of: dict[int, set[int]] = {}
    isl_of: dict[int, set[int]] = {}
    for land, w in land_touch:
        c = uf_root(parent, w)
        water_of.setdefault(land, set()).add(c)
        isl_of.setdefault(c, set()).add(land)
    out = uf_root(parent, OUT)
    depth_w = {out: 0}
    frontier = [out]
    lake_island: dict[int, int] = {}
    d = 0
    while frontier:
        nxt_islands = []
        for c in frontier:
            for land in isl_of.get(c, ()):
                if islands[land].depth == 0:
                    islands[land].depth = d + 1
                    nxt_islands.append(land)
        nxt = []
        for land in nxt_islands:
            for c in water_of.get(land, ()):
                if c not in depth_w:
                    depth_w[c] = d + 2
                    lake_island[c] = land
                    nxt.append(c)
        frontier = nxt
        d += 2
    for isl in islands.values():
        if isl.depth == 0:
            isl.depth = 1
    # labels: an island is named by its lowest land node, else its first piece's corner
    for pt in sorted(board.nodes, key=lambda pt: (pt[1], pt[0])):
        node = board.nodes[pt]
        if node.kind == "land":
            isl = islands.get(find(node.region))
            if isl is not None and not getattr(isl, "_named", False):
                isl.label = pt
                isl._named = True  # type: ignore[attr-defined]
    water_comp = {}
    enclosed = set()
    for i in range(R):
        if board.terrain[i] == "W" and find(i) == i:
            c = uf_root(parent, i)
            water_comp[i] = c
            if c != out:
                enclosed.add(c)
    return Analysis(islands, water_comp, enclosed, lake_island)


def _third(p: Placed, a: Point, b: Point) -> Point:
    """The point across side a-b from piece ``p``: the third corner of the empty triangle there."""
    for t in p.tris:
        pts = triangle_points(t)
        if a in pts and b in pts:
            (c,) = [x for x in pts if x != a and x != b]
            return a[0] + b[0] - c[0], a[1] + b[1] - c[1]
    raise AssertionError("side not on piece")


__all__ = ["Analysis", "Board", "Island", "Node", "Placed"]
