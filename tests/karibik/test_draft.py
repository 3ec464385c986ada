"""The owner's corrections to a traced board (tablehub/games/karibik/draft.py): merge, split,
link, marks, piles, and the loader's own line until the board is complete; on a board whose
truth is known, the corrections a person makes give back the truth."""
from __future__ import annotations

import copy

import pytest

from tablehub.games.karibik import draft as D
from tablehub.games.karibik.board import board_from_dict, draft_board, load_board
from tests.karibik.truth import owner_corrections, same_board


def bare(name: str = "grid") -> dict:
    """The packaged board ``name`` as a draft: its spaces and adjacency, nothing marked."""
    b = load_board(name)
    ids = list(b.centres)
    pairs = [(ids.index(a), ids.index(n)) for a in ids for n in b.neighbours[a] if a < n]
    draft = draft_board(b.size, [list(b.polygons[s]) for s in ids], [b.centres[s] for s in ids], pairs)
    return draft


def neighbours(draft: dict, s: int) -> set[int]:
    return {b if a == s else a for a, b in draft["adjacency"] if s in (a, b)}


def space(draft: dict, s: int) -> dict:
    return next(sp for sp in draft["spaces"] if sp["id"] == s)


def area(poly) -> float:
    return 0.5 * abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1])))


def test_merge_joins_two_touching_spaces_with_all_their_neighbours():
    d = bare()
    a, b = d["adjacency"][0]
    before = neighbours(d, a) | neighbours(d, b)
    new, said = D.apply(d, {"op": "merge", "spaces": [a, b]})
    assert said == f"merged space {b} into space {a}"
    assert b not in {sp["id"] for sp in new["spaces"]} and len(new["spaces"]) == len(d["spaces"]) - 1
    assert neighbours(new, a) == before - {a, b}
    assert area(space(new, a)["polygon"]) == pytest.approx(area(space(d, a)["polygon"]) + area(space(d, b)["polygon"]),
                                                           rel=0.03)
    assert d == bare(), "the draft given is not changed"


def test_split_across_the_longer_axis_undoes_a_merge():
    d = bare()
    merged, _ = D.apply(d, {"op": "merge", "spaces": [1, 2]})
    split, said = D.apply(merged, {"op": "split", "space": 1})
    new = max(sp["id"] for sp in split["spaces"])
    assert said == f"split space 1 across its longer axis: the new part is space {new}"
    assert len(split["spaces"]) == len(d["spaces"])
    rename = {2: new}
    original = {tuple(sorted(rename.get(x, x) for x in p)) for p in d["adjacency"]}
    assert {tuple(p) for p in split["adjacency"]} == original, "each part keeps the neighbours it faces"
    for sid, old in ((1, 1), (new, 2)):
        assert space(split, sid)["center"] == pytest.approx(space(d, old)["center"], abs=1.0)


def test_split_by_a_line_and_a_line_that_misses():
    d = bare()
    (x0, y0), (x1, y1) = space(d, 1)["polygon"][0], space(d, 1)["polygon"][2]
    mid = (x0 + x1) / 2
    new, _ = D.apply(d, {"op": "split", "space": 1, "line": [[mid, y0 - 5], [mid, y1 + 5]]})
    parts = [sp for sp in new["spaces"] if sp["id"] in (1, max(s["id"] for s in new["spaces"]))]
    assert sorted(round(sp["center"][0]) for sp in parts) == sorted([round((x0 + mid) / 2), round((mid + x1) / 2)])
    with pytest.raises(D.DraftError, match="'line': the line does not cut the space in two"):
        D.apply(d, {"op": "split", "space": 1, "line": [[x1 + 30, y0], [x1 + 30, y1]]})
    with pytest.raises(D.DraftError, match=r"'line\[1\]' must be a point \[x, y\] on the board"):
        D.apply(d, {"op": "split", "space": 1, "line": [[1, 1], [1e9, 2]]})


def test_spaces_that_do_not_touch_do_not_merge():
    d = bare()
    far = max(sp["id"] for sp in d["spaces"])
    with pytest.raises(D.DraftError, match=f"'spaces': spaces 1 and {far} do not touch"):
        D.apply(d, {"op": "merge", "spaces": [1, far]})


@pytest.mark.parametrize("request_, field", [
    ({"op": "merge", "spaces": [1]}, "'spaces' must list two space numbers"),
    ({"op": "merge", "spaces": [1, 1]}, "'spaces' names space 1 twice"),
    ({"op": "link", "spaces": [1, 999]}, "'spaces\\[1\\]' must be the number of a space of the draft, got 999"),
    ({"op": "port", "space": 1, "name": "", "chest": 5000}, "'name' must be the town's name"),
    ({"op": "port", "space": 1, "name": "Tortuga", "chest": 9000}, "'chest' must be the chest's value, 4000 to 8000"),
    ({"op": "port", "space": 1, "name": "Tortuga", "chest": True}, "'chest' must be"),
    ({"op": "hideout", "space": 1, "colour": "pink"}, "'colour' must be one of red, blue, green, yellow"),
    ({"op": "skull", "space": "1"}, "'space' must be the number of a space"),
    ({"op": "unpile", "index": 0}, "'index' must be the number of a placed pile"),
    ({"op": "explode"}, "'op' must be one of merge, split"),
    ([1, 2], "send the correction as an object"),
])
def test_a_wrong_correction_is_one_line_naming_the_field(request_, field):
    with pytest.raises(D.DraftError, match=field):
        D.apply(bare(), request_)


def test_marks_replace_each_other_and_clear():
    d = bare()
    d, said = D.apply(d, {"op": "port", "space": 3, "name": " Port  Royal ", "chest": 6000})
    assert said == "space 3 is the port of Port Royal (chest 6,000)"
    assert d["towns"] == [{"name": "Port Royal", "chest": 6000, "port": 3, "at": space(d, 3)["center"]}]
    with pytest.raises(D.DraftError, match="'name': Port Royal is already the town of space 3"):
        D.apply(d, {"op": "port", "space": 4, "name": "Port Royal", "chest": 5000})
    d, _ = D.apply(d, {"op": "hideout", "space": 3, "colour": "blue"})
    assert d["towns"] == [] and d["hideouts"] == [{"space": 3, "colour": "blue"}], "one mark per space"
    d, _ = D.apply(d, {"op": "skull", "space": 3})
    assert d["hideouts"] == [] and d["skulls"] == [3]
    d, said = D.apply(d, {"op": "clear", "space": 3})
    assert said == "space 3: removed skull" and d["skulls"] == []


def test_piles_are_placed_up_to_five_and_removed():
    d = bare()
    for i in range(5):
        d, _ = D.apply(d, {"op": "pile", "at": [10 + i, 10]})
    with pytest.raises(D.DraftError, match="'at': the board has 5 piles and all are placed"):
        D.apply(d, {"op": "pile", "at": [1, 1]})
    d, said = D.apply(d, {"op": "unpile", "index": 1})
    assert said == "pile 2 removed" and [p[0] for p in d["piles"]] == [10, 12, 13, 14]


def test_a_merge_keeps_the_marks_and_moves_the_other_spaces_marks():
    d = bare()
    d, _ = D.apply(d, {"op": "hideout", "space": 2, "colour": "red"})
    merged, _ = D.apply(d, {"op": "merge", "spaces": [1, 2]})
    assert merged["hideouts"] == [{"space": 1, "colour": "red"}]


def test_the_problem_is_the_loaders_own_line_until_the_board_is_complete():
    truth = load_board("grid")
    d = bare()
    assert D.problem(d) == "the traced board: 'towns' must list 16 items, got 0"
    fixes, marks = owner_corrections(truth, d)
    assert fixes == [], "the packaged adjacency needs no correction"
    for m in marks[:-1]:
        d, _ = D.apply(d, m)
    assert D.problem(d) == "the traced board: 'piles' must list 5 items, got 4"
    d, _ = D.apply(d, marks[-1])
    assert D.problem(d) is None
    board = board_from_dict(D.finished(d, "Mine"), "mine")
    assert board.name == "Mine" and not board.provisional
    same_board(board, truth)
    broken = copy.deepcopy(d)
    broken, _ = D.apply(broken, {"op": "hideout", "space": marks[0]["space"], "colour": "red"})
    assert D.problem(broken) == "the traced board: 'towns' must list 16 items, got 15"


def test_progress_counts_what_is_marked():
    d, _ = D.apply(bare(), {"op": "skull", "space": 5})
    assert D.progress(d) == {"spaces": 48, "pairs": len(d["adjacency"]), "towns": 0, "hideouts": 0, "skulls": 1,
                             "piles": 0}
