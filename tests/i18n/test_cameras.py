"""The cameras' words in French and German (issue 19): the Tahiti board camera's and the Sunda layout camera's
readings, driven without vision (the readings are written from the games, as in
tests/live/test_tahiti_camera.py and tests/live/test_sunda_layout_moves.py), and every reason, question, note
and choice's label rendered in fr and de. ``i18n.missing()`` gains nothing, no sentence with words reads as the
English, and every template of the adapters (tablehub/games/tahiti/camera.py, tablehub/games/sunda/camera.py,
tablehub/tracking/layoutmoves.py) must have been rendered, top level or inside another, at least once.
"""
from __future__ import annotations

import json

import random
from typing import Any

import pytest

from tablehub.games import new_game
from tablehub.games.base import Setup
from tablehub.games.sunda.camera import _half
from tablehub.games.sunda.lattice import triangles
from tablehub.games.tahiti.camera import ISLAND, TRACK0, cell_id
from tablehub.i18n import Text, T
from tablehub.tracking.boardmoves import BoardSeen, Sighting, board_reading, perfect_sightings
from tablehub.tracking.layoutmoves import LayoutChange, LayoutSeen, layout_reading
from tablehub.tracking.sundacam import SundaRecognizer

from ..live.test_sunda_layout_moves import _next_of_type, _replay, random_game, seen_of
from .conftest import source_templates
from .test_tahiti import Renderings

SOURCES = ("tablehub/games/tahiti/camera.py", "tablehub/games/sunda/camera.py", "tablehub/tracking/layoutmoves.py")
START = [{"type": "place_sailboat", "space": 0}, {"type": "place_sailboat", "space": 5},
         {"type": "start_pearl", "pearl": "white"}, {"type": "start_pearl", "pearl": "green"},
         {"type": "roll", "face": "blank"}, {"type": "roll", "face": 3}, {"type": "bid", "amount": 1},
         {"type": "pass"}]


class Collected(Renderings):
    """:class:`Renderings` that also records every Text nested in another's parameters."""

    def check(self, text: Any, where: str) -> None:
        super().check(text, where)
        stack = list(text.params.values())
        while stack:
            v = stack.pop()
            if isinstance(v, Text):
                self.seen.add((v.context, v.msgid))
                stack += list(v.params.values())

    def reading(self, r: Any, where: str, *, state: str) -> None:
        """Check a tracker reading's state and render its reason, question and notes."""
        assert r.state == state, f"{where}: {r.describe()}"
        if r.reason:
            self.check(r.reason, f"{where}: reason")
        if r.question:
            self.check(r.question, f"{where}: question")
        for n in r.notes:
            self.check(n, f"{where}: note")


@pytest.fixture(scope="module")
def seen() -> Collected:
    return Collected()


# ---------------------------------------------------------------------------------------------- Tahiti

def tahiti_after(actions):
    g = new_game(Setup("tahiti", ("Ana", "Ben")))
    for a in actions:
        g.apply(g.parse_action(a))
    return g


def tahiti_seen(game, *extra: Sighting, drop: tuple[str, ...] = ()) -> BoardSeen:
    s = perfect_sightings(game)
    looks = game.board_moves.looks(game)
    pieces = game.board_moves.pieces(game)
    found = [f for f in s.found if not any(looks[p] == f.look and pieces[p] == f.space for p in drop)]
    return BoardSeen({}, found=found + list(extra), board=game.board.name)


def holding_a_letter():
    """Ana chooses holding the letter D of space 1 (its letter boat on the track), no pearl in front of her."""
    g = tahiti_after(START)
    g.state[0].pearl = None
    g.state[0].letter_space = 1
    return g


def test_tahiti_camera_readings_in_french_and_german(seen):
    g = tahiti_after([])
    seen.reading(board_reading(g, tahiti_seen(g, Sighting("red sailboat", cell_id("BE")))), "sailboat on the map",
                 state="illegal")
    seen.reading(board_reading(g, tahiti_seen(g, Sighting("yellow sailboat", TRACK0 + 7))), "Ben's sailboat",
                 state="illegal")
    g = new_game(Setup("tahiti", ("Ana", "Ben", "Cy", "Di")))  # every colour: violet and green too
    for space in (0, 5):
        g.apply(g.parse_action({"type": "place_sailboat", "space": space}))
    seen.reading(board_reading(g, tahiti_seen(g, Sighting("violet sailboat", cell_id("BE")))), "Cy's sailboat",
                 state="illegal")
    r = board_reading(g, tahiti_seen(g, Sighting("green sailboat", TRACK0 + 7)))
    seen.reading(r, "Di's sailboat", state="illegal")
    r = board_reading(g, tahiti_seen(g, Sighting("disc treasure", ISLAND), Sighting("violet sailboat", TRACK0 + 3),
                                     drop=("disc",)))
    seen.reading(r, "the disc turned and a sailboat", state="illegal")
    assert "disc treasure off the board -> MM" in r.reason
    r = board_reading(g, tahiti_seen(g, Sighting("green sailboat", TRACK0 + 7)))
    assert str(r.reason) == "the camera saw green sailboat off the board -> space 7 (" + \
        f"{g.board.track[7].letter}, {g.board.track[7].pearl}), but Cy to place their sailboat on a track space"
    g = tahiti_after(START[:6])  # the auction: nobody chooses
    seen.reading(board_reading(g, tahiti_seen(g, Sighting("red boat", cell_id("BE")), Sighting("disc $", ISLAND),
                                              drop=("disc",))), "a boat in the auction", state="illegal")
    g = tahiti_after(START + [{"type": "place_boat", "cell": "BE"}])
    seen.reading(board_reading(g, tahiti_seen(g, Sighting("red boat", cell_id("CE")), drop=("red boat BE",))),
                 "a boat moved on the map", state="illegal")
    assert g.disc == "treasure"  # the blank face turned it: the face is a word to translate
    r = board_reading(g, tahiti_seen(g, Sighting("disc $", ISLAND), drop=("disc",)))
    seen.reading(r, "the disc turned", state="illegal")
    assert "the game has treasure up" in r.reason
    r = board_reading(g, tahiti_seen(g, Sighting("red sailboat", TRACK0 + 9), drop=("red sailboat",)))
    seen.reading(r, "a sailboat moved", state="illegal")
    assert "the camera saw red sailboat space 3 (" in r.reason  # the English wording is as before
    g = tahiti_after(START)  # Ana won the 3 and chooses
    seen.reading(board_reading(g, tahiti_seen(g, Sighting("yellow boat", cell_id("BE")))), "Ben's boat",
                 state="illegal")
    seen.reading(board_reading(g, tahiti_seen(g, Sighting("red boat", cell_id("AA")))), "outside the sector",
                 state="illegal")
    seen.reading(board_reading(g, tahiti_seen(g, Sighting("red boat", TRACK0 + 4))), "empty boat elsewhere",
                 state="illegal")
    seen.reading(board_reading(g, tahiti_seen(g, Sighting("red boat", TRACK0 + 3))), "a letter while holding a pearl",
                 state="illegal")  # the engine's refusal
    g = holding_a_letter()
    seen.reading(board_reading(g, tahiti_seen(g, drop=("red letter boat",))), "the letter boat gone",
                 state="illegal")
    two = tahiti_seen(g, Sighting("red boat", cell_id("BE")), Sighting("red boat", cell_id("CE")),
                      drop=("red letter boat",))
    seen.reading(board_reading(g, two), "two boats", state="illegal")
    # a colour run out: the phone asks which pearl (each choice labelled by the adapter's explain)
    g.supply[g.board.track[g.state[0].space].pearl] = 0
    r = board_reading(g, tahiti_seen(g, Sighting("red boat", cell_id("DA")), drop=("red letter boat",)))
    seen.reading(r, "a colour run out", state="unsure")
    for a in ({"type": "place_boat", "cell": "DA", "pearl": "black"}, {"type": "place_boat", "cell": "DA"},
              {"type": "place_boat", "cell": "DA", "pearl": "pink"},  # a colour the words do not know
              *({"type": "place_boat", "cell": "DA", "pearl": p} for p in ("green", "white", "blue")),
              {"type": "take_letter"}, {"type": "place_sailboat", "space": 4}):
        label = g.board_moves.explain(g, [a])
        seen.check(label, f"explain {a}")
    assert str(g.board_moves.explain(g, [{"type": "place_boat", "cell": "DA", "pearl": "black"}])) \
        == "Ana places a boat on DA with a black pearl"
    board = g.board_moves.board(g)
    seen.check(board.space_name(60), "a space neither cell nor track")


# ---------------------------------------------------------------------------------------------- Sunda

def test_sunda_camera_readings_in_french_and_german(seen):
    whole = random_game(2, 4, options={"tribes": True}, finish=False)
    game, first, _ = _replay(4, 0)
    after = game.copy()
    after.apply(after.parse_action(first))
    one = seen_of(after, 3, (7, 7)).observation["pieces"][0]
    two = dict(one, q=one["q"] + 9)
    seen.reading(layout_reading(game, LayoutSeen({"pieces": [one, two], "tribes": []})), "two first pieces",
                 state="waiting")
    # two legal readings and no question: the phone asks which
    other = next(pid for pid in game.pool if pid != first["piece"]
                 and game.validate(game.parse_action({**first, "piece": pid})) is None)
    both = [[first], [{**first, "piece": other}]]
    stub = type("Stub", (), {"change": lambda self, g, o: LayoutChange(candidates=both)})
    game.layout_moves = stub()
    seen.reading(layout_reading(game, LayoutSeen({})), "several readings", state="unsure")
    # the camera not sure and no reading legal: looked at again
    stub = type("Stub", (), {"change": lambda self, g, o: LayoutChange(
        candidates=[[{"type": "place_pawn", "q": 99, "r": 99}]],
        question=T("The camera is not sure of the piece laid at {q},{r}: no piece left matches every slot it "
                   "read. Which piece is it?", q=99, r=99))})
    game.layout_moves = stub()
    seen.reading(layout_reading(game, LayoutSeen({})), "unsure and illegal", state="waiting")
    del game.layout_moves

    i = _next_of_type(whole, "place_piece", 30)
    game, want, _ = _replay(4, i)
    seen.reading(layout_reading(game, LayoutSeen({"pieces": [], "tribes": []})), "nothing matches", state="waiting")
    after = game.copy()
    after.apply(after.parse_action(want))
    nxt = _next_of_type(whole, "place_piece", i + 1)
    for a in whole.history[i + 1:nxt + 1]:
        after.apply(a)
    seen.reading(layout_reading(game, seen_of(after, 2, (1, 1))), "two new pieces", state="waiting")
    after = game.copy()
    after.apply(after.parse_action(want))
    empty = game.copy()
    empty.pool = {}
    seen.reading(layout_reading(empty, seen_of(after, 2, (1, 1))), "the pool empty", state="illegal")
    odd = seen_of(after, 2, (1, 1))
    odd.observation["tribes"].append({"q": 0, "r": 0, "top": "blue", "height": 1, "candidates": []})
    seen.reading(layout_reading(game, odd), "a pawn of an unknown colour", state="pending")

    # a slot misread: no piece left matches (the question), as in tests/live/test_sunda_layout_moves.py
    whole = random_game(2, 6, options={"tribes": True}, finish=False)
    i = _next_of_type(whole, "place_piece", 40)
    game, want, _ = _replay(6, i)
    after = game.copy()
    after.apply(after.parse_action(want))
    obs = seen_of(after, 0, (0, 0), random.Random(1))
    new = next(p for p in obs.observation["pieces"]
               if not any(t in game.board.tri for t in triangles(p["q"], p["r"], p["turn"])))
    ring = new["sides"].replace(" ", "")
    looks = {game.set.by_id[x].ring for x in game.pool} | {_half(game.set.by_id[x].ring) for x in game.pool}
    flipped = next(f for f in (ring[:s] + ("W" if ring[s] == "L" else "L") + ring[s + 1:] for s in range(12))
                   if f not in looks)
    new["sides"] = " ".join(flipped[3 * j:3 * j + 3] for j in range(4))
    r = layout_reading(game, obs)
    seen.reading(r, "a slot misread", state=r.state if r.state in ("unsure", "waiting") else "unsure")

    # a tribe whose height the camera cannot tell, the placer's colour on top: the phone asks
    asked = False
    for s in range(40):
        whole = random_game(2, s, options={"tribes": True}, finish=False)
        for i, act in enumerate(whole.history):
            a = act.to_dict()
            if a["type"] != "place_pawn":
                continue
            game, want, _ = _replay(s, i)
            if (a["q"], a["r"]) in game.tribes and game.tribes[(a["q"], a["r"])][-1] == game.current:
                after = game.copy()
                after.apply(after.parse_action(want))
                seen.reading(layout_reading(game, seen_of(after)), "a tribe's height", state="unsure")
                asked = True
                break
        if asked:
            break
    assert asked, "no tribe joined by its top's owner in 40 games"

    # resource markers (as in tests/live/test_sunda_markers.py): one of an unknown colour (a note), one on another
    # island than the pawn it follows (flagged)
    from ..live.test_sunda_markers import _games, _seen, _upto
    odd_marker = False
    for s in range(4, 30):
        whole, i = _games(s)
        game = _upto(whole, i)
        home = game.island_at(game.claim_at)
        other = next((pt for pt in game.tribes if game.board.nodes[pt].kind == "land" and game.island_at(pt) != home),
                     None)
        if other is None:
            continue
        marker = whole.history[i].to_dict()["marker"]
        seen.reading(layout_reading(game, _seen(game, list(game.markers.items()) + [(marker, other)])),
                     "a marker on another island", state="illegal")
        seen.reading(layout_reading(game, _seen(game, list(game.markers.items()) + [("teal", game.claim_at)])),
                     "a marker of an unknown colour", state="same")
        odd_marker = True
        break
    assert odd_marker, "no game with tribes on two islands"

    # a game the layout camera does not read
    tahiti = new_game(Setup("tahiti", ("Ana", "Ben")))
    seen.reading(layout_reading(tahiti, LayoutSeen({})), "not a laid-out game", state="waiting")


def test_the_sunda_recognizers_notes_in_french_and_german(seen):
    reading = type("R", (), {"pieces": [], "tribes": [], "unsure": ["triangle 1,2,0 is covered"], "conflicts": [],
                             "ms": {}})()
    reader = type("Reader", (), {"read": lambda self, frame, previous=None: reading})()
    out = SundaRecognizer(reader)(None)
    assert [str(n) for n in out.notes] == ["the camera is unsure of triangle 1,2,0 is covered"]
    for n in out.notes:
        seen.check(n, "the recognizer's note")


def test_the_pending_cards_notes_stay_translatable(seen):
    """The notes of a pending reading go to the page's card as one line that still renders in fr and de."""
    from tablehub.tracking.live import _notes

    line = _notes([T("the camera is unsure of {what}", what="1,2,0"), T("nothing seen yet")])
    assert str(line) == "the camera is unsure of 1,2,0; nothing seen yet"
    seen.check(line, "the pending card's note")
    assert _notes([]) == ""


def test_the_enrolment_screens_pieces_in_french_and_german(seen):
    """The pieces the phone's enrolment screen asks for (tablehub/board_enrolment.py), in every language."""
    from tablehub.games.tahiti.camera import TahitiBoardMoves

    for photo in TahitiBoardMoves.enrol_rounds():
        for _, _, _, said in photo:
            seen.check(said, "the enrolment screen's piece")


def test_a_bad_tahiti_geometry_file_in_french_and_german(seen, tmp_path):
    """The board geometry loader's one-line errors (a file the owner edits) are Texts in every language."""
    from tablehub.games.base import SetupError
    from tablehub.games.tahiti.camera import load_geometry

    cells = {f"{r}{c}": [[0, 0], [1, 0], [1, 1]] for r in "ABCDEFM" for c in "ABCDEFM"}
    bad = tmp_path / "geometry.json"
    for content in ("{nope", "[]", '{"size_mm": 3}', '{"size_mm": [600, 600], "cells": {}}',
                    json.dumps({"size_mm": [600, 600], "cells": {**cells, "AA": [[0, 0]]}, "track": [[]] * 12}),
                    json.dumps({"size_mm": [600, 600], "cells": cells, "track": []})):
        bad.write_text(content)
        try:
            load_geometry(bad)
        except SetupError as exc:
            seen.check(exc.text, f"geometry {content[:30]}")


def test_every_camera_template_was_rendered(seen):
    """Runs last in this module: every template of the adapters was rendered, and nothing fell back to English."""
    want = {u.key for u in source_templates() if u.path in SOURCES}
    assert len(want) > 30
    never = sorted(m for c, m in want - seen.seen)
    assert not never, f"camera templates never rendered: {never}"
    seen.finish(())
