"""Twins told apart by the rules ask the game's own rule (issue 14, session twins9).

Whether two tiles' sides continue each other was decided twice: by the engine's catalog (side codes and their
mirrors, :meth:`tablehub.games.tiles.catalog.Catalog.continues`, which the photo's scoring asks) and again by vision
on its slot terrains. Now vision's twin rule (:meth:`vision.tiles.CatalogInfo.side_fits`) asks the engine's, so the
two can never disagree.
"""
from __future__ import annotations

import pytest

from tablehub.games.tiles.catalog import load_catalog
from tablehub.photoscore import Choice, _fits
from tests.vision.conftest import NEUESLAND, SUEDSEE
from vision.tiles import CatalogInfo


@pytest.mark.parametrize("path", [SUEDSEE, NEUESLAND], ids=["suedsee", "neuesland"])
def test_vision_twin_rule_is_the_engines_on_every_pair(path):
    if not path.is_file():
        pytest.skip(f"no catalog {path}")
    info, rules = CatalogInfo.load(path), load_catalog(path)
    ids = [t.id for t in rules.tiles]
    fit = misfit = 0
    for a in ids:
        for b in ids[::3]:                                  # every tile against a third of them, every turn and side
            for ra in (0, 90, 180, 270):
                for rb in (0, 90, 180, 270):
                    for d in range(4):
                        want = rules.continues(a, ra, d, b, rb)
                        assert info.side_fits(a, ra, d, b, rb) == want, (a, ra, d, b, rb)
                        assert _fits(rules, Choice(a, ra, 1.0), Choice(b, rb, 1.0), d) == want
                        fit += want
                        misfit += not want
    assert fit > 100 and misfit > 100


def test_a_catalog_the_engine_cannot_build_tells_nothing(caplog):
    """A hand-made catalog with unknown slots: the rule tells nothing (everything fits), no traceback; the log says
    once that its twins are told by art alone."""
    info = CatalogInfo.from_dict({"game": "x", "tiles": [{"id": "a", "regions": [{"id": "r", "terrain": "S",
                                                                                   "slots": "N"}]},
                                                          {"id": "b", "regions": []}]})
    with caplog.at_level("WARNING", logger="vision.tiles"):
        assert info.rules() is None
        assert info.side_fits("a", 0, 0, "b", 90) is True
    said = [r.getMessage() for r in caplog.records if r.name == "vision.tiles"]
    assert len(said) == 1 and "'x'" in said[0] and "art alone" in said[0], said
