"""The Sunda camera's engine adapter (tablehub/games/sunda/camera.py) through the generic layout reading
(tablehub/tracking/layoutmoves.py): what the camera would see, in its own lattice frame (turned and shifted
against the engine's), against the committed game. No vision here: the readings are written from the games."""
from __future__ import annotations

import random

import pytest

from tablehub.games.sunda.camera import _canonical, _half, _rot
from tablehub.games.sunda.lattice import corners, triangles
from tablehub.games.sunda.playout import random_game
from tablehub.tracking.layoutmoves import LayoutSeen, layout_reading

COLOURS = ("red", "yellow")


def _to_reader(q: int, r: int, k: int, shift: tuple[int, int]) -> tuple[int, int]:
    return _rot((q - shift[0], r - shift[1]), -k % 6)


def seen_of(game, k: int = 2, shift: tuple[int, int] = (3, -4), rng: random.Random | None = None,
            asked: bool = True) -> LayoutSeen:
    """What a perfect camera reads of ``game``'s table, in a frame turned ``k`` x 60 degrees and shifted, each
    piece anchored at either acute corner; every tribe's height asked (as the camera does) or seen."""
    rng = rng or random.Random(0)
    pieces = []
    for p in game.board.placed:
        q, r, t, ring = p.q, p.r, p.turn, p.piece.ring
        if rng.random() < 0.5:
            c2 = corners(q, r, t)[2]
            q, r, t, ring = c2[0], c2[1], (t + 3) % 6, _half(ring)
        a = _to_reader(q, r, k, shift)
        pieces.append({"q": a[0], "r": a[1], "turn": (t - k) % 6,
                       "sides": " ".join(ring[3 * i:3 * i + 3] for i in range(4)), "join": p.piece.join})
    tribes = []
    for (q, r), owners in game.tribes.items():
        a = _to_reader(q, r, k, shift)
        tribes.append({"q": a[0], "r": a[1], "top": COLOURS[owners[-1]],
                       "colours": [None] * len(owners) if asked else [COLOURS[o] for o in owners],
                       "height": None if asked else len(owners), "ask": asked,
                       "candidates": [len(owners) - 1, len(owners), len(owners) + 1] if asked else []})
    rng.shuffle(pieces)
    return LayoutSeen({"pieces": pieces, "tribes": tribes, "unsure": [], "conflicts": []})


def _replay(seed: int, upto: int, options=None):
    """The game of ``seed`` before its action ``upto``, that action, and the whole game."""
    whole = random_game(2, seed, options=options or {"tribes": True}, finish=False)
    game = random_game(2, seed, options=options or {"tribes": True}, finish=False).__class__(whole.setup)
    for a in whole.history[:upto]:
        game.apply(a)
    return game, whole.history[upto].to_dict(), whole


def _next_of_type(whole, kind: str, start: int = 5) -> int:
    return next(i for i, a in enumerate(whole.history) if i >= start and a.to_dict()["type"] == kind)


def _same_table(game, got: list[dict], want: list[dict]) -> bool:
    from tablehub.tracking.script import equivalent

    return equivalent(game, got, want)


@pytest.mark.parametrize("k", range(6))
def test_a_new_piece_is_read_as_its_placement_in_the_engines_frame(k):
    whole = random_game(2, 4, options={"tribes": True}, finish=False)
    i = _next_of_type(whole, "place_piece", 30)
    game, want, _ = _replay(4, i)
    after = game.copy()
    after.apply(after.parse_action(want))
    reading = layout_reading(game, seen_of(after, k, (k - 2, 5 - k), random.Random(k)))
    assert reading.state == "pending", reading.describe()
    assert [a["type"] for a in reading.actions] == ["place_piece"]
    assert _same_table(game, reading.actions, [want])


def test_nothing_new_is_the_same_and_the_first_piece_fixes_the_frame():
    whole = random_game(2, 1, options={"tribes": True}, finish=False)
    game, first, _ = _replay(1, 0)
    assert layout_reading(game, LayoutSeen({"pieces": [], "tribes": []})).state == "same"
    after = game.copy()
    after.apply(after.parse_action(first))
    reading = layout_reading(game, seen_of(after, 3, (7, 7)))
    assert reading.state == "pending" and reading.actions[0]["type"] == "place_piece"
    assert (reading.actions[0]["q"], reading.actions[0]["r"]) == (0, 0)
    game.apply(game.parse_action(reading.actions[0]))
    assert layout_reading(game, seen_of(game, 1, (-2, 2))).state == "same"


def test_a_piece_turned_so_its_land_meets_water_is_flagged_with_the_engines_reason():
    whole = random_game(2, 4, options={"tribes": True}, finish=False)
    for i in range(20, len(whole.history)):
        a = whole.history[i].to_dict()
        piece = whole.set.by_id.get(a.get("piece", ""))
        if a["type"] != "place_piece" or piece is None or piece.ring == _half(piece.ring):
            continue
        game, want, _ = _replay(4, i)
        c2 = corners(a["q"], a["r"], a["turn"])[2]
        wrong = {**a, "q": c2[0], "r": c2[1], "turn": (a["turn"] + 3) % 6}  # the same rhombus, turned half round
        trial = game.copy()
        if trial.validate(trial.parse_action(wrong)) is None:
            continue  # it fits turned too
        trial.board.place(piece, wrong["q"], wrong["r"], wrong["turn"])  # laid anyway, as on the table
        reading = layout_reading(game, seen_of(trial, 4, (1, 1)))
        assert reading.state == "illegal", reading.describe()
        assert "land and water must continue across every shared side" in reading.reason, reading.reason
        return
    pytest.fail("no coast piece to turn")


def test_a_pawn_on_a_new_node_and_a_new_top_are_pawn_actions():
    whole = random_game(2, 4, options={"tribes": True}, finish=False)
    i = _next_of_type(whole, "place_pawn")
    game, want, _ = _replay(4, i)
    after = game.copy()
    after.apply(after.parse_action(want))
    reading = layout_reading(game, seen_of(after, 5, (0, 3)))
    assert reading.state == "pending", reading.describe()
    assert reading.actions == [{"type": "place_pawn", "q": want["q"], "r": want["r"]}]


def test_a_tribe_whose_height_is_asked_with_the_placers_colour_on_top_is_asked_on_the_phone():
    """A pawn added to a tribe whose top is already the placer's colour: the camera sees no new colour and cannot
    tell the height; while the rules let the placer join that tribe, the phone asks."""
    for seed in range(40):
        whole = random_game(2, seed, options={"tribes": True}, finish=False)
        for i, act in enumerate(whole.history):
            a = act.to_dict()
            if a["type"] != "place_pawn":
                continue
            game, want, _ = _replay(seed, i)
            pt = (a["q"], a["r"])
            if pt in game.tribes and game.tribes[pt][-1] == game.current:
                after = game.copy()
                after.apply(after.parse_action(want))
                reading = layout_reading(game, seen_of(after))
                assert reading.state == "unsure", reading.describe()
                assert "cannot tell the height" in reading.question
                assert [dict(c.action) for c in reading.choices] == [{"type": "place_pawn", "q": pt[0], "r": pt[1]}]
                seen = seen_of(after, asked=False)  # a height the camera did read: no question
                assert layout_reading(game, seen).state == "pending"
                return
    pytest.fail("no pawn joining the placer's own tribe in 40 games")


def test_a_piece_read_with_a_wrong_slot_is_matched_to_the_nearest_pieces_left():
    """A slot misread so that no piece left in the pool matches: the nearest pieces are offered on the phone
    (the true one among them), never logged from the guess."""
    whole = random_game(2, 6, options={"tribes": True}, finish=False)
    i = _next_of_type(whole, "place_piece", 40)
    game, want, _ = _replay(6, i)
    after = game.copy()
    after.apply(after.parse_action(want))
    seen = seen_of(after, 0, (0, 0), random.Random(1))
    new = next(p for p in seen.observation["pieces"]
               if not any(t in game.board.tri for t in triangles(p["q"], p["r"], p["turn"])))
    ring = new["sides"].replace(" ", "")
    looks = {game.set.by_id[x].ring for x in game.pool} | {_half(game.set.by_id[x].ring) for x in game.pool}
    for slot in range(12):
        flipped = ring[:slot] + ("W" if ring[slot] == "L" else "L") + ring[slot + 1:]
        if flipped not in looks:
            break
    else:
        pytest.fail("every one-slot misreading matches a piece left")
    new["sides"] = " ".join(flipped[3 * j:3 * j + 3] for j in range(4))
    reading = layout_reading(game, seen)
    assert reading.state in ("unsure", "waiting"), reading.describe()
    assert "not sure of the piece" in (reading.question or reading.reason or "")
    if reading.state == "unsure":
        assert any(_same_table(game, [dict(c.action)], [want]) for c in reading.choices)


def test_canonical_anchors_name_one_rhombus():
    for q, r, t in [(0, 0, 0), (2, -1, 4), (-3, 2, 5)]:
        a = _canonical(q, r, t, "LLLWWWLLLWWW")
        assert set(corners(a[0], a[1], a[2])) == set(corners(q, r, t)) and a[2] < 3
