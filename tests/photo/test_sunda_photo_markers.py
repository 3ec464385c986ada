"""A resource marker a Sunda photo reads by no tribe the position keeps (its tribe left out or not found) is listed
as unsure with what each tribe near it would change; the photo is still scored (tablehub/photo_sunda.py)."""
from __future__ import annotations

import copy
from types import SimpleNamespace

import pytest

from tablehub.games.sunda.playout import random_game
from tablehub.games.sunda.position import PositionError, position_of, score_position
from tablehub.photo_sunda import consistent, markers_unsure

OPTIONS = {"tribes": True, "resources": True}


@pytest.fixture(scope="module")
def game():
    return next(g for g in (random_game(2, s, options=OPTIONS) for s in range(5, 60)) if len(g.markers) >= 2)


def _score(pos):
    return score_position(pos, "t")


def test_a_marker_by_no_tribe_is_taken_out_and_the_rest_scored(game):
    pos = position_of(game)
    tribes = {(t["q"], t["r"]) for t in pos["position"]["tribes"]}
    marker = pos["position"]["markers"][0]
    truth = dict(_score(copy.deepcopy(pos)).scores)
    # its tribe not read: the marker lies by no tribe of the position
    wrong = copy.deepcopy(pos)
    wrong["position"]["tribes"] = [t for t in wrong["position"]["tribes"] if (t["q"], t["r"]) != (marker["q"], marker["r"])]
    with pytest.raises(PositionError):            # the scorer alone refuses it (the photo was refused)
        _score(copy.deepcopy(wrong))
    left: list = []
    result, notes = consistent(wrong, _score, markers_left=left)
    assert [m["marker"] for m in left] == [marker["marker"]]
    assert all(m["marker"] != marker["marker"] for m in wrong["position"]["markers"])
    assert result.scores is not None and set(result.scores) == set(truth)
    # the marker's own tribe found again (the person checks it): offered with what it changes
    kept = copy.deepcopy(pos)
    kept["position"]["markers"] = [m for m in kept["position"]["markers"] if m["marker"] != marker["marker"]]
    base = dict(_score(copy.deepcopy(kept)).scores)
    at = {(t["q"], t["r"]): (10.0 * i, 0.0) for i, t in enumerate(pos["position"]["tribes"])}
    reading = SimpleNamespace(lattice=SimpleNamespace(side_mm=30.0),
                              tribes=[SimpleNamespace(q=q, r=r, mat_mm=mm) for (q, r), mm in at.items()],
                              markers=[SimpleNamespace(marker=marker["marker"], mat_mm=at[(marker["q"], marker["r"])])])
    places = markers_unsure(reading, kept, [marker], _score, base)
    assert len(places) == 1
    offered = {str(p.label): p.scores for p in places[0].possibilities}
    own = f"by the tribe at {marker['q']},{marker['r']}"
    assert own in offered and offered[own] == truth, offered      # its own tribe gives the true scores
    assert places[0].matters == (truth != base)
    assert (marker["q"], marker["r"]) in tribes


def test_a_marker_the_scorer_refuses_for_another_reason_is_not_hidden(game):
    pos = position_of(game)
    pos["position"]["markers"].append(dict(pos["position"]["markers"][0]))      # listed twice: a reader's bug
    with pytest.raises(PositionError):
        consistent(pos, _score)           # without a list to take it, the scorer's own line, as before


def test_a_disc_whose_colour_is_unclear_is_offered_with_what_each_paint_would_change(game):
    from tablehub.photo_sunda import discs_unsure
    from vision.sundamarkers import MarkerReading

    pos = position_of(game)
    marker = pos["position"]["markers"][0]
    truth = dict(_score(copy.deepcopy(pos)).scores)
    missed = copy.deepcopy(pos)
    missed["position"]["markers"] = [m for m in missed["position"]["markers"] if m["marker"] != marker["marker"]]
    base = dict(_score(copy.deepcopy(missed)).scores)
    other = next(c for c in ("red", "orange", "yellow", "green", "blue", "purple") if c != marker["marker"])
    seen = MarkerReading(other, marker["q"], marker["r"], (0.0, 0.0), True)
    places = discs_unsure([(seen, [other, marker["marker"]])], missed, _score, base)
    assert len(places) == 1 and str(places[0].taken) == "no marker"
    offered = {str(p.label): p.scores for p in places[0].possibilities}
    assert offered[f"the {marker['marker']} marker"] == truth
    # a paint the table already shows elsewhere is not offered again; a disc by no tribe of the position is dropped
    assert discs_unsure([(seen, [m["marker"] for m in missed["position"]["markers"]])], missed, _score, base) == []
    far = MarkerReading(marker["marker"], 99, 99, (0.0, 0.0), True)
    assert discs_unsure([(far, [marker["marker"]])], missed, _score, base) == []
