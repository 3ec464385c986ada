"""Two markers the photo bench's `hard` tables showed and the scorer only listed, now read (session 23, issue 19):

- a blob of a pawn's paint apart from every stack (vision.sunda ``LONE_MM2``: a marker's size, its base off every
  node), its core clearly a marker of that paint, is read as that marker (``MarkerFinder._apart``; bench seed 10
  table 9: a red marker by a red stack of 5, listed as "a blob of a marker's paint", the score 2 points off);
- a disc the marker finder could not name (its nearest paint, orange, read elsewhere; yellow next) by a tribe of known
  height, where that tribe's pawn paint lies past its stack's outline at that height at the same spot, is read as the
  marker both name and listed (``tablehub.photo_sunda.agreed_markers``; bench seed 11 table 2: a yellow marker against
  a yellow pawn, the score 6 points off).

The tables are rendered as the bench renders them; each is shown wrong again without its rule."""
from __future__ import annotations

import copy

import pytest

from benchmarks import photoscore_positions as P
from tablehub import photo_sunda
from tablehub.games.sunda.position import score_position
from vision import sundamarkers
from vision.sundamarkers import MarkerReading

from .test_sunda_photo_hard import offers_the_truth, scored
from .test_sunda_photo_touching import missed  # noqa: F401  (the fixture: a position with a marker that matters left out)

HARD = 7 * P.NUISANCE_LEVELS.index("hard")


@pytest.fixture(scope="module")
def table(tmp_path_factory, request):
    seed, i = request.param
    folder = tmp_path_factory.mktemp(f"apart{seed}_{i}")
    return P.sunda_table("hard", seed * 1000 + HARD, i, folder), folder


@pytest.mark.parametrize("table", [(10, 9)], indirect=True)
def test_a_blob_of_a_pawns_paint_apart_from_the_stacks_is_read_as_its_marker(table, monkeypatch):
    got, want, _ = scored(*table)
    assert got == want
    monkeypatch.setattr(sundamarkers, "APART_READ", False)
    got, want, result = scored(*table)
    assert got != want and offers_the_truth(result, want)       # as before: listed, not read


@pytest.mark.parametrize("table", [(11, 2)], indirect=True)
def test_a_disc_and_its_paint_past_the_stacks_outline_agree_on_the_marker(table, monkeypatch):
    got, want, result = scored(*table)
    assert got == want
    agreed = [u for u in result.unsure if "past the stack's outline" in str(u.where) and u.matters]
    assert agreed and all(str(u.possibilities[0].label) == "no marker" for u in agreed)
    monkeypatch.setattr(photo_sunda, "AGREED_READ", False)
    got, want, _ = scored(*table)
    assert got != want


def _score(pos):
    return score_position(pos, "t")


def _cues(marker, height, apart=0.0):
    node = (marker["q"], marker["r"])
    disc = MarkerReading(marker["marker"], *node, (100.0, 100.0), True)
    paint = MarkerReading(marker["marker"], *node, (100.0 + apart, 100.0), True)
    return [(disc, [marker["marker"], "blue"])], [(paint, [marker["marker"]], height)], node


def test_agreed_only_where_both_cues_name_the_marker_at_the_known_height(missed):
    pos, marker, height, truth = missed
    doubtful, touching, node = _cues(marker, height)
    alt = copy.deepcopy(pos)
    agreed = photo_sunda.agreed_markers(doubtful, touching, alt, {node})
    assert len(agreed) == 1 and dict(_score(copy.deepcopy(alt)).scores) == truth
    base = dict(_score(copy.deepcopy(alt)).scores)
    places = photo_sunda.agreed_unsure(agreed, alt, _score, base)
    assert len(places) == 1 and str(places[0].possibilities[0].label) == "no marker" and places[0].matters
    for args in [(*_cues(marker, height + 1)[:2], {node}),          # the paint past a taller stack's outline
                 (doubtful, touching, set()),                        # the height not known (asked, not given)
                 (*_cues(marker, height, apart=sundamarkers.MARKER_MM + 1)[:2], {node})]:   # apart
        alt = copy.deepcopy(pos)
        assert not photo_sunda.agreed_markers(args[0], args[1], alt, args[2])
        assert alt["position"]["markers"] == pos["position"]["markers"]
