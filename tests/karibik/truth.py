"""Boards whose truth is known, for the tracing tests: the packaged boards printed and
photographed (``vision.boards``), and the owner's corrections a person would make on the board
screen to turn a traced draft into the truth (found by comparing, never hard-coded)."""
from __future__ import annotations

from typing import Any

import numpy as np

from tablehub.games.karibik.board import Board, load_board
from vision.board_edit import inside
from vision.boards import photograph, render_board


def printed_photo(name: str, seed: int = 0, split: int | None = None, **shot: Any) -> tuple[Board, np.ndarray]:
    """The packaged board ``name`` and a photo of it; with ``split``, that space is printed cut in
    two by a line across it (a decoration the tracer cannot tell from a space outline)."""
    board = load_board(name)
    printed = board.printed()
    if split is not None:
        from vision.board_edit import longer_axis_cut, split_outline

        poly = board.polygons[split]
        k = list(board.centres).index(split)
        printed["spaces"][k:k + 1] = list(split_outline(poly, *longer_axis_cut(poly)))
    size = printed.pop("size_mm")
    return board, photograph(render_board(size, **printed), seed=seed, **shot)


def match(truth: Board, draft: dict[str, Any]) -> dict[int, int]:
    """Truth space -> the draft space whose outline holds its centre (when exactly one does)."""
    out = {}
    for sid, c in truth.centres.items():
        hits = [sp["id"] for sp in draft["spaces"] if sp.get("polygon") and inside(sp["polygon"], c)]
        if len(hits) == 1:
            out[sid] = hits[0]
    return out


def pairs_of(truth: Board, ids: dict[int, int]) -> set[tuple[int, int]]:
    return {(min(ids[a], ids[b]), max(ids[a], ids[b])) for a, ns in truth.neighbours.items() for b in ns}


def owner_corrections(truth: Board, draft: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """What the owner does on the screen to make ``draft`` the truth, as the page sends it:
    (corrections of the adjacency, the marks: towns, hideouts, skulls, piles)."""
    ids = match(truth, draft)
    assert len(set(ids.values())) == len(ids) == len(truth.centres), "every true space is one draft space"
    want = pairs_of(truth, ids)
    have = {tuple(p) for p in draft["adjacency"]}
    fixes = [{"op": "link", "spaces": list(p)} for p in sorted(want - have)]
    fixes += [{"op": "unlink", "spaces": list(p)} for p in sorted(have - want)]
    marks = [{"op": "port", "space": ids[t.port], "name": t.name, "chest": t.chest, "at": list(t.at)}
             for t in truth.towns]
    marks += [{"op": "hideout", "space": ids[s], "colour": c} for s, c in truth.hideouts.items()]
    marks += [{"op": "skull", "space": ids[s]} for s in truth.skulls]
    marks += [{"op": "pile", "at": list(p)} for p in truth.piles]
    return fixes, marks


def same_board(saved: Board, truth: Board) -> None:
    """``saved`` (a traced board, its own numbers) is ``truth``: the same spaces (centres within
    3 mm), the same adjacency, ports, hideouts and skulls, through the match of the spaces."""
    draft = saved.to_dict()
    ids = match(truth, draft)
    assert len(saved.centres) == len(truth.centres) and len(set(ids.values())) == len(truth.centres)
    for sid, c in truth.centres.items():
        got = saved.centres[ids[sid]]
        assert abs(got[0] - c[0]) <= 3 and abs(got[1] - c[1]) <= 3, (sid, got, c)
    mine = {(min(a, b), max(a, b)) for a, ns in saved.neighbours.items() for b in ns}
    assert mine == pairs_of(truth, ids)
    assert {(t.name, t.chest, ids[t.port]) for t in truth.towns} == {(t.name, t.chest, t.port) for t in saved.towns}
    assert {ids[s]: c for s, c in truth.hideouts.items()} == dict(saved.hideouts)
    assert sorted(ids[s] for s in truth.skulls) == sorted(saved.skulls)
    assert len(saved.piles) == 5 and not saved.provisional
