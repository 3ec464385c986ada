"""Tribe heights from the live loop's history (tablehub/tracking/sundaheights.py): known where the frames before
tell it, asked otherwise, never a guess."""
from __future__ import annotations

import cv2
import numpy as np

from tablehub.tracking.sundaheights import MAX_TRIBE, Patch, StackHistory, changed

AT = (200.0, 300.0)


def _patch(shift_px: float = 0.0, gain=(1.0, 1.0, 1.0), noise: float = 0.0, seed: int = 0, top=(40, 40, 200)) -> Patch:
    """A stack's look: a pawn disc (radius 10 px) on green ground, its middle ``shift_px`` to the right."""
    img = np.zeros((60, 60, 3), np.float32)
    img[:] = (78, 158, 118)
    cv2.circle(img, (int(round((30 + shift_px) * 16)), 30 * 16), 10 * 16, top, -1, cv2.LINE_AA, 4)
    img = img * np.asarray(gain, np.float32)
    if noise:
        img = img + np.random.default_rng(seed).normal(0, noise, img.shape).astype(np.float32)
    yy, xx = np.mgrid[0:60, 0:60]
    return Patch(img, (xx - 30) ** 2 + (yy - 30) ** 2 <= 16 ** 2)


def _tribe(top: str, ask: bool = True, height: int | None = None, colours=None) -> dict:
    return {"q": 0, "r": 0, "top": top, "colours": colours or [top], "height": height, "ask": ask,
            "candidates": [1, 2, 3, 4, 5] if ask else [height]}


def _step(h: StackHistory, tribes: list[dict], patches: list[Patch | None], at=AT) -> list[dict]:
    return h.update(tribes, [at] * len(tribes), patches)


def test_noise_and_a_change_of_light_are_no_change_but_a_moved_top_is():
    a = _patch(noise=3.0, seed=1)
    assert not changed(a, _patch(noise=3.0, seed=2, gain=(1.05, 0.97, 1.04)))
    assert changed(a, _patch(shift_px=0.7, noise=3.0, seed=2))          # one pawn more, 0.35 mm at 2 px/mm
    assert changed(a, None) and changed(None, a)                         # not seen: counts as changed


def test_a_stack_where_the_previous_frame_showed_none_is_one_pawn():
    h = StackHistory()
    _step(h, [], [])                                                    # the bare table
    (t,) = _step(h, [_tribe("red")], [_patch()])
    assert (t["height"], t["colours"], t["ask"], t["height_from"]) == (1, ["red"], False, "history")


def test_stacks_on_the_first_frame_read_are_asked():
    h = StackHistory()
    (t,) = _step(h, [_tribe("red")], [_patch()])
    assert t["ask"] and t["height"] is None and t["height_from"] is None


def test_a_changed_stack_with_another_colour_on_top_grew_by_that_pawn_and_keeps_it_while_it_looks_the_same():
    h = StackHistory()
    _step(h, [], [])
    _step(h, [_tribe("red")], [_patch()])
    (t,) = _step(h, [_tribe("yellow")], [_patch(shift_px=1.0, top=(40, 200, 230))])
    assert (t["height"], t["colours"], t["ask"]) == (2, ["red", "yellow"], False)
    (t,) = _step(h, [_tribe("yellow")], [_patch(shift_px=1.0, top=(40, 200, 230), noise=2.0)])
    assert (t["height"], t["colours"], t["ask"]) == (2, ["red", "yellow"], False)


def test_a_changed_stack_with_the_same_colour_on_top_is_asked_one_more_first():
    h = StackHistory()
    _step(h, [], [])
    _step(h, [_tribe("red")], [_patch()])
    (t,) = _step(h, [_tribe("red")], [_patch(shift_px=1.0)])
    assert t["ask"] and t["height"] is None and t["candidates"][:2] == [2, 1]
    # ... and it stays asked (the history no longer knows it), not guessed later
    (t,) = _step(h, [_tribe("red")], [_patch(shift_px=1.0)])
    assert t["ask"]


def test_after_a_challenge_a_stack_that_changes_is_asked_even_when_its_top_changed():
    h = StackHistory()
    _step(h, [], [])
    _step(h, [_tribe("red")], [_patch()])
    h.pawns_may_leave()                                                 # the dice entered on the phone
    (t,) = _step(h, [_tribe("red")], [_patch(noise=1.0)])               # not yet changed: still known
    assert t["height"] == 1 and not t["ask"]
    (t,) = _step(h, [_tribe("yellow")], [_patch(top=(40, 200, 230))])   # red lost, yellow put on: one pawn, not two
    assert t["ask"] and t["height"] is None and t["candidates"][:2] == [2, 1]    # 2 (put on) or 1 (swapped)


def test_the_frames_own_sure_measure_against_the_history_is_asked():
    h = StackHistory()
    _step(h, [], [])
    _step(h, [_tribe("red")], [_patch()])
    (t,) = _step(h, [_tribe("red", ask=False, height=2, colours=["red", "red"])], [_patch(noise=1.0)])
    assert t["ask"] and t["height"] is None
    # where both agree, the frame's own measure is named
    h2 = StackHistory()
    _step(h2, [], [])
    (t,) = _step(h2, [_tribe("red", ask=False, height=1, colours=["red"])], [_patch()])
    assert not t["ask"] and t["height_from"] == "camera"


def test_a_stack_that_vanished_and_came_back_is_asked():
    h = StackHistory()
    _step(h, [], [])
    _step(h, [_tribe("red")], [_patch()])
    _step(h, [], [])                                                    # a hand over it, or the reader missed it
    (t,) = _step(h, [_tribe("red")], [_patch()])
    assert t["ask"]


def test_a_frame_that_could_not_be_read_loses_what_was_known():
    h = StackHistory()
    _step(h, [], [])
    _step(h, [_tribe("red")], [_patch()])
    h.lost_frame()
    (t,) = _step(h, [_tribe("red")], [_patch()])
    assert t["ask"]


def test_no_tribe_grows_past_five():
    h = StackHistory()
    _step(h, [], [])
    tops = ["red", "yellow"] * 3
    cols = {"red": (40, 40, 200), "yellow": (40, 200, 230)}
    for k, c in enumerate(tops):
        (t,) = _step(h, [_tribe(c)], [_patch(shift_px=0.8 * k, top=cols[c])])
    assert k + 1 > MAX_TRIBE and t["ask"]


class _Game:
    def __init__(self, tribes: dict, last_challenge=None):
        self.tribes, self.last_challenge = tribes, last_challenge


def test_the_recognizer_learns_from_the_game_when_pawns_may_have_left():
    from tablehub.tracking.sundacam import SundaRecognizer

    rec = SundaRecognizer(reader=None)
    h = rec.heights
    _step(h, [], [])
    _step(h, [_tribe("red")], [_patch()])
    rec.use_game(_Game({(0, 0): [0]}))
    rec.use_game(_Game({(0, 0): [0, 1]}))                        # a pawn put on: nothing left the table
    assert not any(s.suspect for s in h.stacks)
    rec.use_game(_Game({(0, 0): [1]}, {"tribe": [0, 0], "dice": [3]}))   # a challenge's dice: one pawn lost
    assert all(s.suspect for s in h.stacks)
    (t,) = _step(h, [_tribe("yellow")], [_patch(top=(40, 200, 230))])
    assert t["ask"]
    # an undo (fewer pawns on the table, no challenge) says the same
    rec2 = SundaRecognizer(reader=None)
    _step(rec2.heights, [], [])
    _step(rec2.heights, [_tribe("red")], [_patch()])
    rec2.use_game(_Game({(0, 0): [0, 1]}))
    rec2.use_game(_Game({(0, 0): [0]}))
    assert all(s.suspect for s in rec2.heights.stacks)
    rec2.reset()
    assert rec2.heights.stacks == [] and not rec2.heights.seen_before


def _tribe_at(top: str, q: int, r: int) -> dict:
    return {**_tribe(top), "q": q, "r": r}


def test_the_games_answer_is_known_from_then_on_while_the_stack_looks_the_same():
    h = StackHistory()
    _step(h, [], [])
    _step(h, [_tribe_at("red", 3, 4)], [_patch()])
    (t,) = _step(h, [_tribe_at("red", 3, 4)], [_patch(shift_px=1.0)])        # a red pawn more, or only touched
    assert t["ask"]
    assert h.tell({(3, 4): ["red", "red"]}) == 1                                # the phone's answer: two
    (t,) = _step(h, [_tribe_at("red", 3, 4)], [_patch(shift_px=1.0, noise=1.0)])
    assert (t["height"], t["colours"], t["ask"], t["height_from"]) == (2, ["red", "red"], False, "history")
    (t,) = _step(h, [_tribe_at("yellow", 3, 4)], [_patch(shift_px=1.8, top=(40, 200, 230))])
    assert (t["height"], t["colours"], t["ask"]) == (3, ["red", "red", "yellow"], False)


def test_the_game_is_not_taken_where_the_frame_saw_another_top_or_the_history_knew_otherwise():
    h = StackHistory()
    _step(h, [], [])
    h.update([_tribe_at("red", 3, 4), _tribe_at("yellow", 5, 1)], [AT, (260.0, 300.0)],
             [_patch(), _patch(top=(40, 200, 230))])
    # a node the game holds but the frame saw another colour on top of: the table is not yet as logged
    assert h.tell({(3, 4): ["red", "yellow"]}) == 0
    # the history knew one yellow pawn; the game says two: neither is taken, the stack is asked
    assert h.tell({(5, 1): ["yellow", "yellow"]}) == 0
    a, b = h.update([_tribe_at("red", 3, 4), _tribe_at("yellow", 5, 1)], [AT, (260.0, 300.0)],
                    [_patch(), _patch(top=(40, 200, 230))])
    assert (a["height"], a["ask"]) == (1, False)
    assert b["ask"] and b["height"] is None
    # a node no stack was seen on, or six pawns: nothing
    assert h.tell({(9, 9): ["red"]}) == 0 and h.tell({(3, 4): ["red"] * (MAX_TRIBE + 1)}) == 0


def test_a_look_unchanged_but_read_with_another_top_is_asked_not_grown():
    h = StackHistory()
    _step(h, [], [])
    _step(h, [_tribe("red")], [_patch()])
    (t,) = _step(h, [_tribe("yellow")], [_patch(noise=1.0)])                   # the top misread, the look the same
    assert t["ask"] and t["height"] is None


class _Adapter:
    """The engine's adapter as the recognizer uses it: the reader's node p is the engine's p + (10, -2)."""

    def register(self, game, pieces):
        return (0, (10, -2), 5) if pieces else None

    def colours(self, game):
        return ["red", "yellow"]

    def point(self, q, r, k, shift):
        return q + shift[0], r + shift[1]


class _LoggedGame(_Game):
    layout_moves = _Adapter()


def test_the_recognizer_tells_the_history_what_the_log_grew_through_the_registration():
    from tablehub.tracking.sundacam import SundaRecognizer

    rec = SundaRecognizer(reader=None)
    rec._pieces_seen = [{"q": 0, "r": 0, "turn": 0, "sides": "L" * 12, "join": "land"}]
    h = rec.heights
    _step(h, [], [])
    h.update([_tribe_at("red", 3, 4), _tribe_at("red", 5, 1)], [AT, (260.0, 300.0)], [_patch(), _patch()])
    rec.use_game(_LoggedGame({(13, 2): [0], (15, -1): [0]}))
    a, b = h.update([_tribe_at("red", 3, 4), _tribe_at("red", 5, 1)], [AT, (260.0, 300.0)],
                    [_patch(shift_px=1.0), _patch(shift_px=1.0)])
    assert a["ask"] and b["ask"]                                             # both a red pawn more, or touched
    # the phone answered: a pawn added on 13,2 (the reader's 3,4); 15,-1 (5,1) left as it was and so not told
    assert rec.tell_heights(_LoggedGame({(13, 2): [0, 0], (15, -1): [0]})) == 1
    a, b = h.update([_tribe_at("red", 3, 4), _tribe_at("red", 5, 1)], [AT, (260.0, 300.0)],
                    [_patch(shift_px=1.0), _patch(shift_px=1.0)])
    assert (a["height"], a["ask"], a["height_from"]) == (2, False, "history")
    assert b["ask"]
    # a tribe that lost pawns (a challenge) tells nothing
    assert rec.tell_heights(_LoggedGame({(13, 2): [0], (15, -1): [0]})) == 0
