"""The board pictures in the reader's language (issue 19): every drawer, the hints layer, the
board set-up screens' pictures and the ``/api/board.svg`` route.

Real views come from the engines' seeded playouts, replayed step by step, so the pictures hold
many kinds of pieces (towns, goods, boats, figures; ships, chests, hideouts; tribes, water
rights, markers; boats, sailboats, letter boats). Each is drawn in English, French and German:
no template may be missing (:func:`tablehub.i18n.missing` does not grow), the words must differ
from English, and the drawing itself (elements, classes, ``data-*``) must not change.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any, Iterator

import pytest

from tablehub import i18n
from tablehub.games import new_game
from tablehub.games.base import Game
from web.board_hints import render_hints
from web.board_svg import render_board, terrain_legend
from web.board_trace_svg import karibik_trace_svg, tahiti_track_svg

NS = "{http://www.w3.org/2000/svg}"
PLAYERS = {f"P{i}": {"css": css, "colour": colour}
           for i, (css, colour) in enumerate((("#d55e00", "red"), ("#0072b2", "blue"), ("#009e73", "green"),
                                               ("#f0e442", "yellow")), start=1)}
#: what each game's pictures must show at least once over its snapshots (the test covers real pieces)
MUST_SHOW = {
    "neuesland": {"tile", "figure", "mark town", "free", "last"},
    "suedsee": {"tile", "figure", "mark symbol", "mark boat", "free", "last"},
    "karibik": {"space", "town", "ship", "chest face-up", "pile"},
    "sunda": {"piece", "node", "challenge", "odds", "coast coast-complete"},
    "tahiti": {"cell", "boat", "space", "sail", "letter"},
}

#: words the last English picture must hold (kinds of pieces that have no class of their own)
MUST_SAY = {"sunda": ("tribe of", "marker ("), "karibik": ("hideout",),
            "tahiti": ("sailboat", "letter boat", "pearl in")}


def _playout(game: str) -> Game:
    if game in ("neuesland", "suedsee"):
        from tablehub.games.tiles.playout import random_game
        return random_game(game, 3, seed=4)
    if game == "karibik":
        from tablehub.games.karibik.playout import random_game
        return random_game(3, 5)
    if game == "sunda":
        from tablehub.games.sunda.playout import all_levels, random_game
        return random_game(3, 2, options=all_levels())
    from tablehub.games.tahiti.playout import seeded_game
    return seeded_game(3, 2)


def snapshots(game: str, count: int = 7) -> Iterator[tuple[Game, dict[str, Any]]]:
    """The game replayed from its seeded playout, its view at ``count`` points and at the end."""
    played = _playout(game)
    replay = new_game(played.setup)
    history = list(played.history)
    every = max(1, len(history) // count)
    challenged = False
    for i, action in enumerate(history, start=1):
        replay.apply(action)
        # Sunda's declared challenge lasts one step: its picture (arrow, odds) is taken when it first shows
        challenge = game == "sunda" and not challenged and getattr(replay, "pending", None) is not None
        challenged |= challenge
        if i % every == 0 or i == len(history) or challenge:
            yield replay, replay.view()


def _shape(svg: str) -> list[tuple[str, tuple[tuple[str, str], ...]]]:
    """The drawing without its words: every element with its attributes but aria-label."""
    root = ET.fromstring(svg)
    return [(el.tag, tuple(sorted((k, v) for k, v in el.attrib.items() if k != "aria-label"))) for el in root.iter()
            if el.tag not in (f"{NS}title", f"{NS}text")]


def _titles(svg: str) -> list[str]:
    return [t.text or "" for t in ET.fromstring(svg).iter(f"{NS}title")]


def _classes(svg: str) -> set[str]:
    return {el.get("class") for el in ET.fromstring(svg).iter() if el.get("class")}


def _wordy(text: str) -> bool:
    """Whether a title says something in words (not only ids, numbers, player names and "Tahiti", a name)."""
    return bool(re.search(r"[a-z]{3,}", re.sub(r"\bP\d\b|\b[a-z]\d{3}\b|\bds\d+\b|^Tahiti$", "", text)))


@pytest.mark.parametrize("game", sorted(MUST_SHOW))
def test_every_drawer_reads_in_french_and_german(game):
    before = i18n.missing()
    shown: set[str] = set()
    pictures = 0
    for engine, view in snapshots(game):
        english = render_board(view, PLAYERS, lang="en", game=engine.name)
        assert render_board(view, PLAYERS, game=engine.name) == english, "no language is English"
        shown |= _classes(english)
        pictures += 1
        for lang in ("fr", "de"):
            svg = render_board(view, PLAYERS, lang=lang, game=engine.name)
            assert _shape(svg) == _shape(english), f"{game} in {lang}: the drawing changed, not only its words"
            assert svg != english
            same = [en for en, other in zip(_titles(english), _titles(svg)) if en == other and _wordy(en)]
            assert not same, f"{game} in {lang}: titles left in English: {same[:5]}"
            label = ET.fromstring(svg).get("aria-label")
            assert label != ET.fromstring(english).get("aria-label"), label
    assert pictures >= 5
    said = " ".join(_titles(english))
    for words in MUST_SAY.get(game, ()):
        assert words in said, f"{game}: no title says {words!r}: the pictures lack that kind of piece"
    assert MUST_SHOW[game] <= shown, f"{game}: the playout's pictures never showed {MUST_SHOW[game] - shown}"
    assert i18n.missing() == before, sorted(i18n.missing() - before)[:10]


def test_the_visible_words_read_in_each_language():
    """What is written on the picture, not only in its titles: Karibik's and Sunda's provisional
    labels, an empty Sunda layout."""
    before = i18n.missing()
    karibik = next(view for _, view in snapshots("karibik", 2))
    sunda = {"kind": "sunda", "pieces": [], "nodes": [], "islands": [], "challenge": None, "provisional": "yes"}
    for view, english in ((karibik, "PROVISIONAL BOARD"), (sunda, "No piece laid yet")):
        assert english in render_board(view, {}, lang="en")
        for lang in ("fr", "de"):
            assert english not in render_board(view, {}, lang=lang), (view["kind"], lang)
    assert "PLATEAU PROVISOIRE" in render_board(karibik, {}, lang="fr")
    assert "Noch kein Teil gelegt" in render_board(sunda, {}, lang="de")
    assert i18n.missing() == before


def test_the_docs_sunda_layout_reads_in_french_and_german():
    """The docs' layout (scripts/sunda_board_svg.py): a water right and an islet, which the seeded
    playouts do not make."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "scripts" / "sunda_board_svg.py"
    spec = importlib.util.spec_from_file_location("sunda_board_svg", path)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    view = script.build().view()
    before = i18n.missing()
    english = render_board(view, script.PLAYERS, lang="en")
    assert "water right of Ana" in english or "water right of Ben" in english
    for lang, words in (("fr", "droit sur l'eau de"), ("de", "Wasserrecht von")):
        svg = render_board(view, script.PLAYERS, lang=lang)
        assert words in svg.replace("&#x27;", "'") and "water right" not in svg
        assert _shape(svg) == _shape(english)
    assert i18n.missing() == before


def test_a_pending_tile_an_illegal_flag_and_the_fallback_read_in_french():
    before = i18n.missing()
    engine, view = next(snapshots("neuesland", 3))
    ghost = {"tiles": [dict(view["tiles"][-1], x=40, y=40)], "figures": []}
    flag = {"x": 41, "y": 40, "reason": i18n.T("the sea meets a mountain on the {side} side", side=i18n.T("east"))}
    english = render_board(view, PLAYERS, flag=flag, ghost=ghost, lang="en", game=engine.name)
    french = render_board(view, PLAYERS, flag=flag, ghost=ghost, lang="fr", game=engine.name)
    assert "pending (press NEXT" in english and "en attente" in french and "pending" not in french
    assert _shape(french) == _shape(english)
    assert "Pas encore de plateau" in render_board({"kind": "none"}, {}, lang="fr")
    assert "noch kein Bild" in render_board({"kind": "chess"}, {}, lang="de")
    assert i18n.missing() - before <= {("fr", None, "the sea meets a mountain on the {side} side")}


def test_the_terrain_legend_names_terrains_in_the_readers_language():
    view = {"terrains": {"G": "plain", "S": "sea"}}
    assert [t["name"] for t in terrain_legend(view, lang="de", game="neuesland")] == ["Ebene", "Meer"]
    assert [t["name"] for t in terrain_legend(view, lang="fr", game="suedsee")][1] != "sea"
    assert [t["name"] for t in terrain_legend(view)] == ["plain", "sea"]


def hint_states(game: str, most: int = 6) -> Iterator[tuple[Game, dict[str, Any]]]:
    """States of the replayed playout with places to hint: the piece asked about is the one the
    playout lays next (tile games, Sunda); Karibik and Tahiti hint the ship or boat on the move."""
    played = _playout(game)
    replay = new_game(played.setup)
    history = list(played.history)
    found = 0
    for i, action in enumerate(history):
        step = action.to_dict()
        piece = step.get("tile") if step["type"] == "place_tile" else step.get("piece") \
            if step["type"] == "place_piece" else None
        wanted = piece is not None if game in ("neuesland", "suedsee", "sunda") else i % 5 == 0
        if wanted and not replay.finished:
            hints = replay.hints(piece)
            if hints.get("places"):
                found += 1
                yield replay, hints
                if found >= most:
                    return
        replay.apply(action)


@pytest.mark.parametrize("game", ["neuesland", "suedsee", "karibik", "sunda", "tahiti"])
def test_the_hints_layer_reads_in_french_and_german(game):
    before = i18n.missing()
    layers = 0
    for engine, hints in hint_states(game):
        english = render_hints(hints, lang="en", game=engine.name)
        assert 'class="hint"' in english
        for lang in ("fr", "de"):
            svg = render_hints(hints, lang=lang, game=engine.name)
            assert svg != english and _shape(svg) == _shape(english)
            same = [t for t in _titles(svg) if t in _titles(english)]
            assert not same, f"{game} hints in {lang}: titles left in English: {same[:3]}"
        layers += 1
    assert layers >= 3, f"{game}: the playout gave only {layers} states with places to hint"
    assert i18n.missing() == before, sorted(i18n.missing() - before)[:10]


def test_the_board_set_up_pictures_read_in_french_and_german():
    from tablehub.games.karibik.board import load_board

    before = i18n.missing()
    board = load_board("provisional").to_dict()
    english = karibik_trace_svg(board, None, saved=True, lang="en")
    track = [{"letter": "A", "pearl": "black"}, None] + [{"letter": "B", "pearl": "green"}] * 10
    for lang in ("fr", "de"):
        svg = karibik_trace_svg(board, None, saved=True, lang=lang)
        assert _shape(svg) == _shape(english) and svg != english
        assert not [t for t in _titles(svg) if t in _titles(english)]
        assert tahiti_track_svg(track, lang=lang) != tahiti_track_svg(track, lang="en")
    assert "case de départ tête de mort" in karibik_trace_svg(board, None, lang="fr")
    assert i18n.missing() == before, sorted(i18n.missing() - before)[:10]


# ---------------------------------------------------------------------- the routes


def test_the_board_route_answers_each_phone_in_its_language(neuesland, app):
    english, french = app.test_client(), app.test_client()
    french.set_cookie("lang", "fr")
    en, fr = english.get("/api/board.svg"), french.get("/api/board.svg")
    assert en.status_code == fr.status_code == 200
    assert "Board with" in en.get_data(as_text=True) and "Plateau de" in fr.get_data(as_text=True)
    assert "Board with" not in fr.get_data(as_text=True)
    assert en.headers["ETag"] != fr.headers["ETag"], "a cache must not hand one phone's picture to another"
    assert "Cookie" in fr.headers["Vary"] and "Accept-Language" in fr.headers["Vary"]
    # a French ETag is no match for the English picture, and the reverse
    assert english.get("/api/board.svg", headers={"If-None-Match": fr.headers["ETag"]}).status_code == 200
    assert french.get("/api/board.svg", headers={"If-None-Match": fr.headers["ETag"]}).status_code == 304
    german = app.test_client().get("/api/board.svg", headers={"Accept-Language": "de-CH,de;q=0.9"})
    assert "Spielfläche mit" in german.get_data(as_text=True) and german.headers["ETag"] not in (
        en.headers["ETag"], fr.headers["ETag"])


def test_the_hints_svg_reads_in_the_askers_language(neuesland, app, nl_actions):
    lay = next(a for a in nl_actions[12:] if a["type"] == "place_tile")
    french = app.test_client()
    french.set_cookie("lang", "fr")
    fr = french.get(f"/api/hints?piece={lay['tile']}").get_json()
    en = app.test_client().get(f"/api/hints?piece={lay['tile']}").get_json()
    assert [p["actions"] for p in fr["places"]] == [p["actions"] for p in en["places"]]
    assert fr["count"] == en["count"] > 0 and fr["places"][0]["where"] != en["places"][0]["where"]
    assert "tap to see each" in en["svg"] and "touchez pour voir" in fr["svg"] and "tap to see" not in fr["svg"]
    again = french.get(f"/api/hints?piece={lay['tile']}").get_json()
    assert again["cached"] and again["svg"] == fr["svg"]



def test_the_trace_route_draws_in_the_readers_language(player, hub, tmp_path):
    from tablehub.board_setup import BoardSetup
    from web.views.boards import attach

    attach(hub, BoardSetup(tmp_path / "data"))
    english = player.client.get("/api/trace/tahiti/board.svg").get_data(as_text=True)
    player.client.set_cookie("lang", "de")
    resp = player.client.get("/api/trace/tahiti/board.svg")
    german = resp.get_data(as_text=True)
    assert resp.status_code == 200 and "Accept-Language" in resp.headers["Vary"]
    assert "Karte von Tahiti" in german and "Tahiti map and track" in english and german != english
    assert _shape(german) == _shape(english)
