"""The hand-entry form ("Correct by hand", the move panel) in the reader's language (issue 19: "every
string of the page"): /api/forms names every action, its help line and its fields in French and German
on a phone that reads them, while each field keeps its JSON key as ``name``."""
from __future__ import annotations

import dataclasses
from typing import ClassVar

import pytest

from tablehub import i18n
from tablehub.games import GAMES, game_class
from tablehub.games.base import Action, Setup
from web.present import action_forms

PLAYERS = ("Ana", "Ben", "Chloé")
#: coordinates: the same letter in every language
COORDINATES = {"x", "y", "q", "r"}
#: field labels whose word is the same in that language (the French seeds print "challenger"; a tile's
#: "rotation" is French too)
SAME_WORD = {("fr", "rotation"), ("fr", "challenger")}


def _forms(client, lang: str | None) -> dict[str, dict]:
    """/api/forms as a phone reads it: ``lang`` chosen with the page's switch (the ``lang`` cookie),
    ``None`` an English phone."""
    if lang:
        assert client.get(f"/language/{lang}").status_code == 302
    resp = client.get("/api/forms", headers={"Accept-Language": "en"})
    assert resp.status_code == 200, resp.get_data(as_text=True)
    return {f["type"]: f for f in resp.get_json()["forms"]}


@pytest.fixture(params=sorted(GAMES))
def table(request, hub):
    name = request.param
    players = PLAYERS[: max(2, game_class(name).min_players)]
    hub.start(Setup(name, players))
    return name, hub


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_every_games_form_reads_in_the_phones_language(app, table, lang):
    name, _ = table
    before = {m for m in i18n.missing() if m[0] == lang}
    english, local = _forms(app.test_client(), None), _forms(app.test_client(), lang)
    assert set(local) == set(english), "the same action types in every language"
    left = []
    for kind, form in local.items():
        en = english[kind]
        if form["label"] == en["label"]:
            left.append(f"{kind}: label {en['label']!r}")
        if form["help"] == en["help"]:
            left.append(f"{kind}: help {en['help']!r}")
        assert [f["name"] for f in form["fields"]] == [f["name"] for f in en["fields"]], \
            f"{kind}: the inputs keep their JSON keys"
        for field, en_field in zip(form["fields"], en["fields"]):
            if field["name"] in COORDINATES or (lang, en_field["label"]) in SAME_WORD:
                continue
            if field["label"] == en_field["label"]:
                left.append(f"{kind}.{field['name']}: field label {en_field['label']!r}")
    assert not left, f"{name}: English left in the {lang} form: {left}"
    new = {m for m in i18n.missing() if m[0] == lang} - before
    assert not new, f"{name}: templates with no {lang} translation: {sorted(m[2] for m in new)}"


def test_the_english_form_keeps_its_field_names_and_reads_whole_sentences(app, table):
    name, _ = table
    for kind, form in _forms(app.test_client(), None).items():
        assert form["label"] and form["label"][0].isupper(), f"{name}/{kind}: label {form['label']!r}"
        # a help line is a whole sentence of its own (no docstring line cut off mid-sentence, no ``markup``)
        assert form["help"].endswith(".") and "``" not in form["help"], f"{name}/{kind}: help {form['help']!r}"
        for field in form["fields"]:
            assert field["label"] == field["name"].replace("_", " "), f"{name}/{kind}: {field}"


def test_an_action_without_words_of_its_own_shows_todays_english():
    """The defaults: the type tag in words, the docstring's first line, the field names as they are
    (and ``player``, the core's shared field, still named in every language)."""

    @dataclasses.dataclass(frozen=True)
    class FlyAway(Action):
        """Leave the table by the window.

        More lines that the form does not show."""

        type: ClassVar[str] = "fly_away"
        wing_span: int
        player: str | None = None

    class Game:
        ACTIONS = {"fly_away": FlyAway}
        players = ("Ana", "Ben")

    (form,) = action_forms(Game())
    assert form["label"] == "Fly away" and not isinstance(form["label"], i18n.Text)
    assert form["help"] == "Leave the table by the window."
    wing, player = form["fields"]
    assert wing["label"] == "wing span" and not isinstance(wing["label"], i18n.Text)
    assert isinstance(player["label"], i18n.Text) and i18n.translate(player["label"], "de") == "Spieler"
    assert player["choices"] == ["Ana", "Ben"]


def test_a_class_label_help_and_field_labels_are_texts_for_the_json():
    from tablehub.games.karibik.actions import Transfer

    class Game:
        ACTIONS = {"transfer": Transfer}
        players = ("Ana", "Ben")

    (form,) = action_forms(Game())
    assert isinstance(form["label"], i18n.Text) and form["label"] == "Transfer"
    assert i18n.translate(form["label"], "fr") == "Transborder"
    labels = {f["name"]: f["label"] for f in form["fields"]}
    assert i18n.translate(labels["ship"], "de") == "Schiff" and i18n.translate(labels["safeguard"], "fr") != "safeguard"
