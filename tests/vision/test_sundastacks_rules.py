"""What the game's log allows (tablehub/tracking/sundaheights.py, ``PawnRules``; sundacam.py, ``pawn_rules``): a stack
that changed with the same colour on top is only touched where no pawn of that colour exists to add (no pawn left in
its player's supply, a tribe of five); where only the log's phase forbids it (not that player's phase, or the
phase's one pawn seen put on elsewhere), only with the camera's evidence that its top did not move
(``step_unmoved``): a pawn put on out of turn looks the same as a touch. Asked wherever one could have been added."""
from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np

from tablehub.games.sunda.camera import SundaCameraMoves
from tablehub.tracking.sundaheights import PawnRules, Patch, StackHistory, step_unmoved, step_decision
from vision.sundastacks import expected

A, B, C = (200.0, 300.0), (260.0, 300.0), (320.0, 300.0)
RED, YELLOW = (40, 40, 200), (40, 200, 230)


def _patch(shift_px: float = 0.0, top=RED) -> Patch:
    img = np.zeros((60, 60, 3), np.float32)
    img[:] = (78, 158, 118)
    cv2.circle(img, (int(round((30 + shift_px) * 16)), 30 * 16), 10 * 16, top, -1, cv2.LINE_AA, 4)
    yy, xx = np.mgrid[0:60, 0:60]
    return Patch(img, (xx - 30) ** 2 + (yy - 30) ** 2 <= 16 ** 2)


def _tribe(top: str, q: int) -> dict:
    return {"q": q, "r": 0, "top": top, "colours": [top], "height": None, "ask": True, "candidates": [1, 2, 3, 4, 5]}


#: far from the nadir (300 mm at H = 1041): one pawn more moves the top 2.1 mm, measurable (3 sigma: 1.9 mm)
FAR_MM, CAM_H = 300.0, 1041.0


def _measure(n: int, moved: float = 0.0) -> SimpleNamespace:
    """A stack's outline measured far from the nadir (a ``StackMeasure``'s fields the history reads): the parallax of
    ``n`` pawns, its top ``moved`` mm further out."""
    return SimpleNamespace(near_mm=FAR_MM - 5.0, cam_h=CAM_H, spread_mm=0.3,
                           parallax_mm=expected(FAR_MM, n, CAM_H)[0] + moved)


def _known(tops=("red", "yellow"), heights=(1, 1), far=False) -> StackHistory:
    """A history that knows a red stack at A and a yellow one at B (of ``heights`` pawns); ``far``: each outline
    measured far from the nadir (:func:`_measure`)."""
    h = StackHistory()
    h.update([], [], [])
    h.update([_tribe(t, k) for k, t in enumerate(tops)], [A, B][:len(tops)],
             [_patch(top=RED if t == "red" else YELLOW) for t in tops],
             [_measure(n) for n in heights] if far else None)
    for s, n in zip(h.stacks, heights):
        s.colours = [s.top] * n
    return h


def _touched(h: StackHistory, which=(0, 1), extra=None, grew=()) -> list[dict]:
    """Both stacks (``which``) seen changed with the same colour on top; ``extra``: a new stack at C. Each stack is
    measured as it was (far from the nadir, where the history measured it so), or one pawn higher (``grew``)."""
    tops = [s.top for s in h.stacks]
    tribes = [_tribe(t, k) for k, t in enumerate(tops)]
    patches = [_patch(shift_px=1.5 if k in which else 0.0, top=RED if t == "red" else YELLOW)
               for k, t in enumerate(tops)]
    measures = [None if s.measure is None else _measure(len(s.colours) + (k in grew)) for k, s in enumerate(h.stacks)]
    at = [A, B]
    if extra:
        tribes.append(_tribe(extra, 7))
        patches.append(_patch(top=RED if extra == "red" else YELLOW))
        measures.append(None)
        at.append(C)
    return h.update(tribes, at, patches, measures)


def test_without_the_games_rules_a_changed_stack_with_the_same_top_is_asked():
    a, b = _touched(_known())
    assert a["ask"] and b["ask"]


def test_a_colour_whose_player_has_no_pawn_left_cannot_have_grown():
    h = _known()
    h.rules = PawnRules(pawns_left={"red": 0, "yellow": 3})
    a, b = _touched(h)
    assert (a["height"], a["ask"], a["height_from"]) == (1, False, "rules")
    assert b["ask"]                                           # yellow has pawns left: a pawn more, or touched


def test_a_tribe_of_five_cannot_grow():
    h = _known(heights=(5, 2))
    h.rules = PawnRules(pawns_left={"red": 9, "yellow": 9})
    a, b = _touched(h)
    assert (a["height"], a["colours"], a["height_from"]) == (5, ["red"] * 5, "rules")
    assert b["ask"]


def test_a_pawn_put_on_out_of_turn_is_asked_not_kept():
    # red's phase; a yellow pawn put on the yellow stack out of turn (its top near the nadir: no step to see). The
    # log's phase says yellow cannot have added one, but the camera cannot tell it from a touch: asked, touched first
    h = _known()
    h.rules = PawnRules(pawns_left={"red": 9, "yellow": 9}, may_add=frozenset({"red"}), one_phase=True)
    a, b = _touched(h)
    assert a["ask"]                                           # red's phase: a red pawn more, or touched
    assert b["ask"] and b["height_from"] is None and b["candidates"][:2] == [1, 2]
    # far from the nadir, where the step is measurable: the out-of-turn pawn is seen by its step (two, for the engine
    # to refuse out of turn), and a stack only touched, its top unmoved, is kept by the rules with that evidence
    h = _known(far=True)
    h.rules = PawnRules(pawns_left={"red": 9, "yellow": 9}, may_add=frozenset({"red"}), one_phase=True)
    a, b = _touched(h, grew=(1,))
    assert (b["height"], b["colours"], b["ask"], b["height_from"]) == (2, ["yellow", "yellow"], False, "step")
    h = _known(far=True)
    h.rules = PawnRules(pawns_left={"red": 9, "yellow": 9}, may_add=frozenset({"red"}), one_phase=True)
    a, b = _touched(h)
    assert (b["height"], b["ask"], b["height_from"]) == (1, False, "rules")
    assert a["ask"]                                           # red's own: unmoved is no proof without the rules
    # a piece laid since the log (one_phase off): yellow's phase may have come, so it is asked, unmoved or not
    h = _known(far=True)
    h.rules = PawnRules(pawns_left={"red": 9, "yellow": 9}, may_add=frozenset({"red"}), one_phase=False)
    a, b = _touched(h)
    assert a["ask"] and b["ask"]


def test_step_unmoved_needs_a_measurable_step_and_a_top_that_did_not_move():
    assert step_unmoved(_measure(2), _measure(2), 2)
    assert not step_unmoved(_measure(2), _measure(3), 2)
    assert step_decision(_measure(2), _measure(3), 2) == 3
    assert not step_unmoved(_measure(2), _measure(2, moved=1.0), 2)       # half a step: neither
    assert step_decision(_measure(2), _measure(2, moved=1.0), 2) is None
    near = SimpleNamespace(near_mm=95.0, cam_h=CAM_H, spread_mm=0.3, parallax_mm=expected(100.0, 2, CAM_H)[0])
    assert not step_unmoved(near, near, 2)                                 # 0.7 mm a pawn near the nadir: no proof
    assert not step_unmoved(None, _measure(2), 2)


def test_the_phases_one_pawn_seen_put_on_elsewhere_leaves_the_other_changes_touched_only_where_seen_unmoved():
    rules = PawnRules(pawns_left={"red": 9, "yellow": 9}, may_add=frozenset({"red"}), one_phase=True)
    h = _known(tops=("red", "red"), far=True)
    h.rules = rules
    a, b, c = _touched(h, extra="red")                        # a new red stack: the phase's pawn
    assert (c["height"], c["height_from"]) == (1, "history")
    assert (a["height"], a["height_from"]) == (1, "rules") and (b["height"], b["height_from"]) == (1, "rules")
    # ... near the nadir (no step to see) a second red pawn, out of turn or not, looks the same as a touch: asked
    h = _known(tops=("red", "red"))
    h.rules = rules
    a, b, c = _touched(h, extra="red")
    assert (c["height"], c["height_from"]) == (1, "history")
    assert a["ask"] and b["ask"]
    # ... nor when the new stack is of a colour that may not be added (the count does not add up): asked
    h = _known(tops=("red", "red"), far=True)
    h.rules = rules
    a, b, c = _touched(h, extra="yellow")
    assert a["ask"] and b["ask"]
    # ... nor without the phase (a piece laid since the log: two phases may lie between the frames)
    h = _known(tops=("red", "red"), far=True)
    h.rules = PawnRules(pawns_left={"red": 9, "yellow": 9}, may_add=frozenset({"red"}), one_phase=False)
    a, b, c = _touched(h, extra="red")
    assert a["ask"] and b["ask"]


def test_a_stack_seen_grown_by_its_top_still_grows_under_the_rules():
    h = _known()
    h.rules = PawnRules(pawns_left={"red": 9, "yellow": 9}, may_add=frozenset({"yellow"}), one_phase=True)
    (a, b) = h.update([_tribe("yellow", 0), _tribe("yellow", 1)], [A, B],
                      [_patch(shift_px=1.5, top=YELLOW), _patch(shift_px=1.5, top=YELLOW)])
    assert (a["height"], a["colours"], a["ask"]) == (2, ["red", "yellow"], False)
    assert b["ask"]                     # the phase's pawn went on A; B touched, or a second pawn: no step to tell


class _Adapter:
    def colours(self, game):
        return ["red", "yellow"]


def _game(**kw) -> SimpleNamespace:
    base = dict(supply=[5, 0], current=0, claim=None, pending=None, in_turn=1, tribes={},
                board=SimpleNamespace(placed=[1, 2, 3]), layout_moves=_Adapter())
    return SimpleNamespace(**{**base, **kw})


def test_the_recognizer_reads_the_rules_from_the_game_and_keeps_the_phase_only_on_the_logs_pieces():
    from tablehub.tracking.sundacam import SundaRecognizer

    rec = SundaRecognizer(reader=None)
    rules, placed = rec.pawn_rules(_game())
    assert rules.pawns_left == {"red": 5, "yellow": 0} and rules.may_add == {"red"} and placed == 3
    assert rec.pawn_rules(_game(claim="pawn"))[0].may_add == frozenset()       # the phase's claim spent
    assert rec.pawn_rules(_game(current=1))[0].may_add == frozenset()          # yellow has no pawn left
    assert rec.pawn_rules(_game(pending=object()))[0].may_add == frozenset()   # a challenge waits for its dice
    assert rec.pawn_rules(SimpleNamespace(tribes={})) is None                  # a game that does not say
    rec._rules = rec.pawn_rules(_game())
    assert rec._rules_for(SimpleNamespace(pieces=[0, 1, 2])).one_phase
    assert not rec._rules_for(SimpleNamespace(pieces=[0, 1, 2, 3])).one_phase    # a piece laid since the log
    assert not rec._rules_for(SimpleNamespace(pieces=[0, 1])).one_phase          # or one the reader missed


def test_the_tables_count_decides_where_the_supply_is_counted():
    # one red pawn left the supply, one red stack changed with red on top: it grew, for sure
    h = _known(tops=("red", "red"))
    h.rules = PawnRules(pawns_left={"red": 9, "yellow": 9}, taken={"red": 1})
    a, b = _touched(h, which=(0,))
    assert (a["height"], a["colours"], a["ask"], a["height_from"]) == (2, ["red", "red"], False, "count")
    assert (b["height"], b["height_from"]) == (1, "history")
    # ... two changed: which one is not counted: both asked
    h = _known(tops=("red", "red"))
    h.rules = PawnRules(pawns_left={"red": 9, "yellow": 9}, taken={"red": 1})
    a, b = _touched(h)
    assert a["ask"] and b["ask"]
    # none left the supply: the changed stacks were only touched
    h = _known(tops=("red", "red"))
    h.rules = PawnRules(pawns_left={"red": 9, "yellow": 9}, taken={"red": 0})
    a, b = _touched(h)
    assert (a["height"], a["height_from"], b["height"], b["height_from"]) == (1, "count", 1, "count")
    # one left, seen put on as a new stack: the others only touched
    h = _known(tops=("red", "red"))
    h.rules = PawnRules(pawns_left={"red": 9, "yellow": 9}, taken={"red": 1})
    a, b, c = _touched(h, extra="red")
    assert (a["height"], b["height"], c["height"]) == (1, 1, 1) and not (a["ask"] or b["ask"] or c["ask"])


def test_a_pawn_that_left_the_supply_and_was_seen_nowhere_asks_every_stack_it_may_be_on():
    # a red pawn whose lean cancels its step: no stack seen changed, but one red pawn left the supply
    h = _known(tops=("red", "yellow"), heights=(2, 1))
    h.rules = PawnRules(pawns_left={"red": 9, "yellow": 9}, taken={"red": 1})
    a, b = _touched(h, which=())
    assert a["ask"] and a["candidates"][:2] == [3, 2]
    assert (b["height"], b["ask"]) == (1, False)              # yellow: nothing left its supply
    # ... and stays asked (forgotten) until the game tells it
    a, b = _touched(h, which=())
    assert a["ask"]


# ----------------------------------------------------------------------------------- "play on" (SundaRecognizer)

class _Moves(_Adapter, SundaCameraMoves):
    """The engine's adapter (its own :meth:`SundaCameraMoves.height_asked`: when the phone asks) on a stand-in game:
    the reader's lattice is the engine's; ``joinable``: the nodes whose tribe the rules let the placer join."""

    def __init__(self, joinable=((0, 0),)):
        self.joinable = set(joinable)

    def register(self, game, pieces):
        return 0, (0, 0), 0

    def point(self, q, r, k, shift):
        return q, r

    def _may_join(self, game, pt):
        return pt in self.joinable


def _asked_red(joinable=((0, 0),), pieces=3, top="red"):
    """A recognizer whose history knows a red stack of one at A (node 0,0) and a yellow one at B (1,0), both logged,
    told red's phase (claim open); then a frame (showing ``pieces`` pieces) where both changed with the same colour
    on top: a red pawn more at A, or only touched (asked: the adapter asks "did P1 add a pawn?")."""
    from tablehub.tracking.sundacam import SundaRecognizer

    rec = SundaRecognizer(reader=None)
    game = _game(supply=[9, 9], tribes={(0, 0): [0], (1, 0): [1]}, claim_at=None, water={},
                 layout_moves=_Moves(joinable))
    rec.use_game(game)
    rec.heights.update([], [], [])
    rec.heights.update([_tribe("red", 0), _tribe("yellow", 1)], [A, B], [_patch(top=RED), _patch(top=YELLOW)])
    for s, cols in zip(rec.heights.stacks, (["red"], ["yellow"])):
        s.colours = cols
    rec.heights.rules = rec._rules_for(SimpleNamespace(pieces=list(range(pieces))))
    rec._pieces_seen = [{"q": 0, "r": 0}]
    out = _touched(rec.heights)
    assert out[0]["ask"]
    return rec, game, out


def _next_frame(rec, shift_a=1.5, shift_b=1.5) -> list[dict]:
    """The next still frame: both stacks as in the frame before (``shift``: where their tops lie)."""
    return rec.heights.update([_tribe("red", 0), _tribe("yellow", 1)], [A, B],
                              [_patch(shift_px=shift_a, top=RED), _patch(shift_px=shift_b, top=YELLOW)])


def test_play_on_a_stack_asked_once_is_known_once_the_log_moves_past_its_phase():
    rec, game, out = _asked_red()
    assert rec.asked_now(out) == 1                      # the red stack: the phone asks P1; yellow: no question
    # the same phase read again (no NEXT yet): nothing answered, still asked
    rec.use_game(game)
    assert _next_frame(rec)[0]["ask"]
    rec.asked_now(_next_frame(rec))
    # P1 played on (nothing logged); the log moves on (the next piece): the red stack is its logged height
    game.board, game.in_turn = SimpleNamespace(placed=[1, 2, 3, 4]), 2
    rec.use_game(game)
    a, b = _next_frame(rec)
    assert (a["height"], a["colours"], a["ask"]) == (1, ["red"], False)
    assert b["ask"]                                     # yellow was never asked on the phone: still asked


def test_play_on_tells_nothing_where_no_question_was_asked_or_the_stack_changed_since():
    # the rules do not let P1 join the red tribe: the adapter asks nothing, so no "play on" answers it
    rec, game, out = _asked_red(joinable=())
    assert rec.asked_now(out) == 0
    # a frame with a piece the log does not hold: the adapter asks nothing (a pawn may have come with the piece)
    rec, game, out = _asked_red(pieces=4)
    assert rec.asked_now(out) == 0
    # asked, then touched again before the log moved on: the answer was about another look
    rec, game, out = _asked_red()
    assert rec.asked_now(out) == 1
    _next_frame(rec, shift_a=-1.5)
    game.board, game.in_turn = SimpleNamespace(placed=[1, 2, 3, 4]), 2
    rec.use_game(game)
    assert _next_frame(rec, shift_a=-1.5)[0]["ask"]
    # asked, and the log grew that tribe (P1 chose "added a pawn"): the game's word, not "play on"
    rec, game, out = _asked_red()
    rec.asked_now(out)
    game.tribes = {(0, 0): [0, 0], (1, 0): [1]}
    rec.use_game(game)
    a, _ = _next_frame(rec)
    assert (a["height"], a["colours"], a["ask"]) == (2, ["red", "red"], False)


def test_a_pawn_put_on_out_of_turn_on_rendered_frames_is_asked_or_seen_never_kept():
    """The `default` simulated camera (noise, blur, JPEG, the light's drift): a red pawn on a bare node, logged; then,
    in yellow's phase (the log's: red's claim spent, no piece laid since), a second red pawn put on it out of turn.
    The game's phase says red cannot have added one; the camera sees the stack changed with red on top. Session 11
    kept it at one (``rules``), sure and wrong; it must be asked, or seen two by its step, never one."""
    import copy

    from tablehub.games.sunda.playout import random_game
    from tablehub.games.sunda.position import position_of
    from tablehub.tracking.sundacam import SundaRecognizer
    from vision.mat import Mat
    from vision.sim.camera import NUISANCE
    from vision.sim.sundatable import PAWN_COLOURS, enrolment_scene, random_scene, render_sunda
    from vision.sunda import SundaReader, enrol

    rng = np.random.default_rng(5)
    game = random_game(2, 5, options={"tribes": True})
    pos = position_of(game, outlines=True)["position"]
    q, r = pos["tribes"][0]["q"], pos["tribes"][0]["r"]
    scene = random_scene({**pos, "tribes": []}, {"P1": "red", "P2": "yellow"}, rng)
    cam = NUISANCE["default"].with_(tilt_azimuth_deg=40.0, light_angle_deg=120.0, pose_jitter_deg=0.0)
    mat = Mat.default()
    ef, et = render_sunda(enrolment_scene(cloth_bgr=scene.cloth_bgr, table_bgr=scene.table_bgr), cam.other_session(),
                          rng)
    recognizer = SundaRecognizer(SundaReader(mat, enrol(ef, mat, PAWN_COLOURS, lens=et.lens()), lens=et.lens()))
    # (the table's pawns, the log's tribes, whose phase, its claim)
    frames = [([], {}, 0, None), (["P1"], {}, 0, None), (["P1"], {(q, r): [0]}, 1, None),
              (["P1", "P1"], {(q, r): [0]}, 1, None)]
    seen = []
    for pawns, logged, current, claim in frames:
        game.tribes = logged
        game.current, game.claim, game.pending, game.in_turn = current, claim, None, 1
        game.supply = [24 - sum(p == i for v in logged.values() for p in v) for i in (0, 1)]
        recognizer.use_game(game)
        now = copy.copy(scene)
        now.position = {**scene.position, "tribes": [{"q": q, "r": r, "pawns": pawns}] if pawns else []}
        frame, truth = render_sunda(now, cam, rng)
        tribes = recognizer(frame).observation["tribes"]
        seen.append([t for t in tribes if np.linalg.norm(np.asarray(t["at_mm"]) - truth.stacks[0]["base_mm"]) < 5.0]
                    if pawns else tribes)
    assert [(t["height"], t["ask"]) for t in seen[2]] == [(1, False)]     # known as one: logged, unchanged
    (t,) = seen[3]
    assert t["ask"] or (t["height"], t["colours"]) == (2, ["red", "red"]), t
    assert t["height_from"] != "rules"
