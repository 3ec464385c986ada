"""How the boards of the seed-example scenarios were found (run by hand, not by pytest).

    .venv/bin/python tests/neuesland/make_scenarios.py

The rule book's pictures are lost, so each worked example of seed 001 is
rebuilt on real tiles: seeded random games are searched for a position with the
example's shape (e.g. "a complete plain of 5 tiles with one explorer"); the
record up to that point is written to ``scenarios/`` with the rule book's
numbers as the expected sentences. The search only looks at the board's shape
(tiles, completeness, towns); the points asserted come from the rule book, so a
scoring bug makes the scenario fail. Review new files by eye before committing.
"""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Callable

from tablehub.games.base import Setup
from tablehub.games.neuesland.engine import NeuesLand, ScoreFigure
from tablehub.games.tiles.game import PlaceFigure

HERE = Path(__file__).parent / "scenarios"
PLAYERS = ("Ana", "Ben")


def shape(g: NeuesLand, root: int) -> dict:
    b = g.board
    t = b.terrain[root]
    d = {"terrain": t, "tiles": b.tiles_in(root), "complete": b.is_complete(root)}
    if t == "M":
        own = g._towns_on_land(root)
        d["towns"] = len(g._mountain_towns(root))
        d["towns_on_mountain"] = len(own)
    elif t == "S":
        d["towns"] = len(g._shore_towns(root))
    return d


def search(terrain: str, want: Callable[[dict], bool], seeds: range, bias: float = 0.8):
    """Ana puts a figure on ``terrain`` with her first tile, then play goes on (placements
    biased towards her area) until, on one of her turns, the area has the wanted shape."""
    for seed in seeds:
        rng = random.Random(seed)
        g = NeuesLand(Setup("neuesland", PLAYERS))
        pile = [t for t, n in sorted(g.box.items()) for _ in range(n)]
        rng.shuffle(pile)
        actions: list[dict] = []
        fig = None
        while pile:
            tile = pile.pop()
            opts = g.legal_placements(tile)
            if not opts:
                continue
            if fig is not None and rng.random() < bias:
                root = g.board.feature(fig.cell, fig.region)
                near = [a for a in opts if any(
                    (a.x + dx, a.y + dy) in {c for c, _ in g.board.members_of(root)}
                    for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0)))]
                opts = near or opts
            a = rng.choice(opts)
            g.apply(a)
            actions.append(a.to_dict())
            me = g.current == 0
            if fig is None and me:
                regions = [r for r in g.board.cells[(a.x, a.y)].tile.regions if r.terrain == terrain]
                if regions:
                    pf = PlaceFigure(regions[0].id)
                    if g.validate(pf) is None:
                        g.apply(pf)
                        actions.append(pf.to_dict())
                        fig = g.figures[-1]
                continue
            if fig is not None and me:
                s = shape(g, g.board.feature(fig.cell, fig.region))
                if want(s):
                    region = g.board.cells[fig.cell].tile.regions[fig.region].id
                    sf = ScoreFigure(fig.cell[0], fig.cell[1], region)
                    g.apply(sf)
                    actions.append(sf.to_dict())
                    return seed, actions, s
                if s["complete"]:
                    break  # the area can no longer grow into the wanted shape
            if len(actions) > 60:
                break
    return None


TARGETS = {
    "plain_incomplete_4": ("G", lambda s: s["tiles"] == 4 and not s["complete"], 4,
                           "Seed 001, plains: an incomplete plain of 4 tiles scores 1 per tile: 4.",
                           "incomplete plain of 4 tiles"),
    "plain_complete_5": ("G", lambda s: s["tiles"] == 5 and s["complete"], 10,
                         "Seed 001, plains: a complete plain of 5 tiles scores 2 per tile: 10.",
                         "complete plain of 5 tiles"),
    "plain_complete_2": ("G", lambda s: s["tiles"] == 2 and s["complete"], 2,
                         "Seed 001, plains: a complete plain of only 2 tiles scores just 2.",
                         "complete plain of 2 tiles"),
    "mountain_incomplete_4_towns": (
        "M", lambda s: not s["complete"] and s["towns"] == 4 and s["towns_on_mountain"] == 1, 4,
        "Seed 001, mountains: an incomplete mountain with 1 town on it and 3 in the neighbouring plains "
        "scores 1 per town: 4.", "incomplete mountain"),
    "mountain_complete_4_towns": (
        "M", lambda s: s["complete"] and s["tiles"] > 2 and s["towns"] == 4 and s["towns_on_mountain"] == 1, 8,
        "Seed 001, mountains: a complete mountain with 1 town on it and 3 in the neighbouring plains "
        "scores 2 per town: 8.", "complete mountain"),
    "mountain_complete_2_tiles": (
        "M", lambda s: s["complete"] and s["tiles"] == 2 and s["towns"] == 2, 2,
        "Seed 001, mountains: a complete mountain of only 2 tiles scores 1 per town (here 2 towns: 2).",
        "complete mountain of 2 tiles"),
    "sea_incomplete_2_towns": ("S", lambda s: not s["complete"] and s["towns"] == 2, 2,
                               "Seed 001, seas: an incomplete sea with 2 towns on its shores scores 2.",
                               "incomplete sea"),
    "sea_complete_4_tiles_3_towns": (
        "S", lambda s: s["complete"] and s["tiles"] == 4 and s["towns"] == 3, 7,
        "Seed 001, seas: a complete sea of 4 tiles with 3 towns on its shores scores 3 + 4 = 7.",
        "complete sea of 4 tiles"),
    "sea_complete_2_tiles": ("S", lambda s: s["complete"] and s["tiles"] == 2 and s["towns"] == 1, 1,
                             "Seed 001, seas: a complete sea of only 2 tiles scores 1 per town: 1.",
                             "complete sea of 2 tiles"),
}


# ---------------------------------------------------------------- multi-step examples


class Table:
    """A seeded random game on which a script acts: ``place(filter)`` lays the next
    drawable tile where ``filter`` allows, ``do(action)`` applies and records."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.g = NeuesLand(Setup("neuesland", PLAYERS))
        self.pile = [t for t, n in sorted(self.g.box.items()) for _ in range(n)]
        self.rng.shuffle(self.pile)
        self.actions: list[dict] = []

    def do(self, action, refused: str | None = None) -> None:
        d = action.to_dict()
        if refused:
            assert self.g.validate(action) is not None
            d["refused"] = refused
        else:
            self.g.apply(action)
        self.actions.append(d)

    def place(self, keep=lambda a: True, tries: int = 12):
        for _ in range(tries):
            if not self.pile:
                return None
            tile = self.pile[-1]
            opts = [a for a in self.g.legal_placements(tile) if keep(a)]
            if opts:
                self.pile.pop()
                a = self.rng.choice(opts)
                self.do(a)
                return a
            self.rng.shuffle(self.pile)
        return None

    def cells_of(self, fig) -> set:
        return {c for c, _ in self.g.board.members_of(self.g.board.feature(fig.cell, fig.region))}

    def touches(self, a, cells) -> bool:
        return any((a.x + dx, a.y + dy) in cells for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0)))

    def region_in(self, a, root):
        """A region of the tile just laid at ``a`` that belongs to feature ``root``."""
        tile = self.g.board.cells[(a.x, a.y)].tile
        for r in tile.regions:
            if self.g.board.feature((a.x, a.y), r.index) == root:
                return r
        return None

    def figure_on(self, a, terrain: str):
        tile = self.g.board.cells[(a.x, a.y)].tile
        for r in tile.regions:
            if r.terrain == terrain and self.g.validate(PlaceFigure(r.id)) is None:
                self.do(PlaceFigure(r.id))
                return self.g.figures[-1]
        return None

    def root(self, fig) -> int:
        return self.g.board.feature(fig.cell, fig.region)

    def region_id(self, fig) -> str:
        return self.g.board.cells[fig.cell].tile.regions[fig.region].id


def two_sailors(seed: int):
    """Ana and Ben each put a sailor on a separate sea; a tile joins the seas; both score the towns."""
    t = Table(seed)
    a = t.place()
    ana = t.figure_on(a, "S") if a else None
    if ana is None:
        return None
    a = t.place(lambda x: not t.touches(x, t.cells_of(ana)))
    ben = t.figure_on(a, "S") if a else None
    if ben is None or t.root(ben) == t.root(ana):
        return None
    for _ in range(12):  # Ana's turns, then Ben's, alternating
        a = t.place(lambda x: t.touches(x, t.cells_of(ana)) and t.touches(x, t.cells_of(ben)))
        if a is None:
            return None
        if t.root(ana) == t.root(ben):
            break
        if t.place() is None:
            return None
    else:
        return None
    s = shape(t.g, t.root(ana))
    if t.g.current != 0:
        # the join was Ben's tile: Ben has the figure step; Ana scores on her next turn
        if t.place(lambda x: not t.touches(x, t.cells_of(ana))) is None:
            return None
    s = shape(t.g, t.root(ana))
    if s["complete"] or s["towns"] != 4 or t.root(ana) != t.root(ben):
        return None
    t.do(ScoreFigure(ana.cell[0], ana.cell[1], t.region_id(ana)))
    if t.place(lambda x: not t.touches(x, t.cells_of(ben))) is None:
        return None
    if shape(t.g, t.root(ben)) != s:
        return None
    t.do(ScoreFigure(ben.cell[0], ben.cell[1], t.region_id(ben)))
    return t, ["Ana scored 4 for incomplete sea", "Ben scored 4 for incomplete sea",
               "Ana has 4 figures in supply", "Ben has 4 figures in supply"], \
        "Seed 001, several figures in one area: Ana's and Ben's sailors stood on two seas that one tile " \
        "joined; each scores on its own, no majority: 4 points each for the 4 towns of the still " \
        "incomplete sea."


def occupied_mountain(seed: int):
    """Ben's thief holds a mountain; Ana extends it: her thief is refused there, a sailor is fine."""
    t = Table(seed)
    if t.place() is None:
        return None
    a = t.place()
    ben = t.figure_on(a, "M") if a else None
    if ben is None:
        return None
    for _ in range(10):
        root = t.root(ben)

        def good(x):
            if not t.touches(x, t.cells_of(ben)):
                return False
            tile = t.g.catalog.tile(x.tile)
            return any(r.terrain == "S" for r in tile.regions)
        a = t.place(good)
        if a is None:
            return None
        mine = t.region_in(a, t.root(ben))
        seas = [r for r in t.g.board.cells[(a.x, a.y)].tile.regions
                if r.terrain == "S" and t.g.validate(PlaceFigure(r.id)) is None]
        if mine is not None and seas:
            t.do(PlaceFigure(mine.id), refused="occupied_feature")
            t.do(PlaceFigure(seas[0].id))
            return t, ["Ana has 3 figures in supply", "Ben has 3 figures in supply"], \
                "Seed 001, placing a figure: the mountain Ana extends already holds Ben's thief, " \
                "so she may not put a thief there, but she may put a sailor on the free sea."
        if t.place() is None:
            return None
    return None


def final_scoring(seed: int):
    """Ana's explorer stays on an incomplete plain of 3 tiles: at the end it scores as complete (6);
    Ben's sailor on a sea of 2 tiles scores as an incomplete one (1 per town)."""
    t = Table(seed)
    a = t.place()
    ana = t.figure_on(a, "G") if a else None
    if ana is None:
        return None
    a = t.place(lambda x: not t.touches(x, t.cells_of(ana)))
    ben = t.figure_on(a, "S") if a else None
    if ben is None:
        return None
    sb = shape(t.g, t.root(ben))
    if sb["tiles"] != 2 or sb["complete"] or sb["towns"] < 1:
        return None
    for _ in range(6):
        s = shape(t.g, t.root(ana))
        if s["tiles"] == 3 and not s["complete"]:
            break
        if t.place(lambda x: t.touches(x, t.cells_of(ana)) and not t.touches(x, t.cells_of(ben))) is None:
            return None
        if t.place(lambda x: not t.touches(x, t.cells_of(ana)) and not t.touches(x, t.cells_of(ben))) is None:
            return None
    s = shape(t.g, t.root(ana))
    if s["tiles"] != 3 or s["complete"] or shape(t.g, t.root(ben)) != sb:
        return None
    t.actions.append({"type": "finish"})
    n = sb["towns"]
    return t, ["Ana scored 6 for final scoring", "Ana has 6 points", f"Ben scored {n} for final scoring",
               f"Ben has {n} points", "Ana wins"], \
        "Seed 001, final scoring: every area counts as complete: Ana's explorer on a plain of 3 tiles " \
        f"scores 2 per tile (6); Ben's sailor on a sea of only 2 tiles scores 1 per town ({n})."


def freed_area(seed: int):
    """While Ana's explorer is on a plain Ben cannot join it; once she scores it, he can."""
    t = Table(seed)
    a = t.place()
    ana = t.figure_on(a, "G") if a else None
    if ana is None:
        return None
    a = t.place(lambda x: t.touches(x, t.cells_of(ana)))
    if a is None:
        return None
    r = t.region_in(a, t.root(ana))
    if r is None:
        return None
    t.do(PlaceFigure(r.id), refused="occupied_feature")
    if t.place(lambda x: not t.touches(x, t.cells_of(ana))) is None:
        return None
    if t.g.board.is_complete(t.root(ana)):
        return None
    n = shape(t.g, t.root(ana))["tiles"]
    t.do(ScoreFigure(ana.cell[0], ana.cell[1], t.region_id(ana)))
    cells = t.cells_of(ana)
    root_cells = cells
    a = t.place(lambda x: t.touches(x, root_cells))
    if a is None:
        return None
    freed = None
    for reg in t.g.board.cells[(a.x, a.y)].tile.regions:
        if reg.terrain == "G" and (ana.cell, ana.region) in [
                m for m in t.g.board.members_of(t.g.board.feature((a.x, a.y), reg.index))]:
            freed = reg
    if freed is None:
        return None
    t.do(PlaceFigure(freed.id))
    return t, [f"Ana scored {n} for incomplete plain", "Ana has 4 figures in supply",
               "Ben has 3 figures in supply"], \
        "Seed 001, removing figures from incomplete areas: Ben may not join the plain while Ana's " \
        "explorer is on it; after she takes it back to score, the plain is free and Ben's explorer may go there."


SCRIPTS = {"two_sailors_share_a_sea": two_sailors, "occupied_mountain_leaves_the_sea": occupied_mountain,
           "final_scoring": final_scoring, "freed_area_can_be_taken_again": freed_area}


def make_scripted(name: str) -> None:
    for seed in range(20000):
        found = SCRIPTS[name](seed)
        if found:
            t, expect, about = found
            data = {"about": about, "found_by": f"tests/neuesland/make_scenarios.py, seed {seed}",
                    "game": "neuesland", "players": list(PLAYERS), "actions": t.actions, "expect": expect}
            (HERE / f"{name}.json").write_text(json.dumps(data, indent=1) + "\n")
            print(f"{name}: seed {seed}, {len(t.actions)} actions")
            return
    print(f"{name}: not found")


def main(argv: list[str]) -> int:
    HERE.mkdir(exist_ok=True)
    names = argv or list(TARGETS) + list(SCRIPTS)
    for name in names:
        if name in SCRIPTS:
            make_scripted(name)
            continue
        terrain, want, points, about, phrase = TARGETS[name]
        found = search(terrain, want, range(20000))
        if found is None:
            print(f"{name}: not found")
            continue
        seed, actions, s = found
        data = {"about": about, "found_by": f"tests/neuesland/make_scenarios.py, seed {seed}, shape {s}",
                "game": "neuesland", "players": list(PLAYERS), "actions": actions,
                "expect": [f"Ana scored {points} for {phrase}", f"Ana has {points} points",
                           "Ana has 4 figures in supply"]}
        (HERE / f"{name}.json").write_text(json.dumps(data, indent=1) + "\n")
        print(f"{name}: seed {seed}, {len(actions)} actions, {s}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
