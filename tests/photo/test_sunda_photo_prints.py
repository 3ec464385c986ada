"""Sunda to Sahul scored from one photo: a piece the set's prints leave open is listed as unsure with what the other
print would change, not only noted (``tablehub bench photoscore --games sunda --seed 4``, `hard` table 4,
docs/sunda.md "Scoring from a photo"). The reader read a piece's ring as none of the set's prints, two of them as
near it (vision.sundaset: the first taken, a note said); the first was wrong and the table scored 8 points off with
nothing under ``Unsure:`` (tablehub.photo_sunda.prints_unsure)."""
from __future__ import annotations

from benchmarks import photoscore_positions as P
from tablehub import photo_sunda
from tablehub.photo_sunda import load_reader, score_sunda

from tests.photo.test_sunda_photo_seen import _seed


def _scored(t, folder, reading=None):
    reader = load_reader(folder)
    reading = reader.read(t["frame"]) if reading is None else reading
    given = P.true_owners(reading, t["truth"], [(tr.q, tr.r) for tr in reading.tribes if tr.ask])
    names = {c: p for p, c in t["colours"].items()}
    return reading, score_sunda(reader, t["frame"], "table", names, given, reading=reading)


def test_a_piece_between_two_prints_is_unsure_with_what_the_other_changes(tmp_path, monkeypatch):
    """The table of the bench's miss (seed 4 `hard` table 4). Since the side reading hides the slots under a pawn's
    rim (h-sundasides2) the reader reads that piece right and says no choice there, so the reader's note is given here
    for a piece it read: the set's other print is its ring with one slot turned."""
    from tablehub.i18n import T

    t = P.sunda_table("hard", _seed("hard", 4), 4, tmp_path)
    reader = load_reader(tmp_path)
    reading = reader.read(t["frame"])
    piece = max(reading.pieces, key=lambda p: p["sides"].count("L"))
    first = piece["sides"].replace(" ", "")
    k = first.index("L")
    second = first[:k] + "W" + first[k + 1:]
    reading.unsure.append(T(photo_sunda.SET_CHOICE, q=piece["q"], r=piece["r"], ring=first, first=first,
                            second=second))
    _, result = _scored(t, tmp_path, reading)
    at = T("the piece at {q},{r} turn {turn}", q=piece["q"], r=piece["r"], turn=piece["turn"])
    places = [u for u in result.unsure if u.where.msgid == at.msgid and u.where.params == at.params]
    assert len(places) == 1, [u.line() for u in result.unsure]
    line = places[0].line()
    assert f"taken as {piece['sides']}" in line
    assert " ".join(second[3 * j:3 * j + 3] for j in range(4)) in line
    monkeypatch.setattr(photo_sunda, "prints_unsure", lambda *a, **kw: [])
    _, result = _scored(t, tmp_path, reading)
    assert not [u for u in result.unsure if u.where.msgid == at.msgid and u.where.params == at.params]


def test_the_other_print_scored_where_the_rules_allow_it():
    """A position of two pieces apart, one read as an all-water print where the set also has one with a land slot: the
    unsure place scores the other print (a possible one) against the scores printed."""
    from tablehub.games.sunda.position import score_position
    from tablehub.i18n import T

    position = {"game": "sunda", "players": ["Ana", "Ben"], "options": {},
                "position": {"pieces": [{"q": 0, "r": 0, "turn": 0, "sides": "LLL LLL LLL LLL"},
                                        {"q": 5, "r": 0, "turn": 0, "sides": "WWW WWW WWW WWW"}]}}

    def score(pos):
        return score_position(pos, "test")
    base = dict(score(position).scores)
    note = T(photo_sunda.SET_CHOICE, q=5, r=0, ring="WWWWWWWWWWWW", first="WWWWWWWWWWWW", second="WWWWWWWWWWWL")
    places = photo_sunda.prints_unsure([note], position, score, base)
    assert len(places) == 1 and places[0].possibilities[0].scores is not None
    assert places[0].base == base
    assert position["position"]["pieces"][1]["sides"] == "WWW WWW WWW WWW"      # the position scored is kept
