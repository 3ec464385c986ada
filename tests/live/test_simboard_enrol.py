"""The simulated board table enrols as the owner does from the phone (issue 17): one way only, the game adapter's
``enrol_rounds()`` photo by photo on the spaces the set-up screen names, so the demo and the e2e tests read with
the templates a real enrolment gives (Karibik's laden ships included)."""
from __future__ import annotations

import pytest

from tablehub.board_enrolment import piece_rounds
from tablehub.tracking.simtable import demo_record, table_for

pytest.importorskip("vision.boardreg")


@pytest.mark.parametrize("game", ["karibik", "tahiti"])
def test_the_simulated_table_enrols_every_round_the_adapter_lists(tmp_path, game):
    from vision.boardpieces import PieceBook

    sim = table_for(demo_record(game, 2, 5), size=(1280, 720)).limit(1)
    book = PieceBook.load(sim.enrol(tmp_path / "refs") / "pieces.json")
    want = [(name, kind) for photo in sim.adapter.enrol_rounds() for name, kind, _, _ in photo]
    assert sorted((t.name, t.kind) for t in book.templates) == sorted(want)
    if game == "karibik":
        assert {t.kind for t in book.templates} >= {"ship", "ship laden", "chest"}


def test_the_enrolment_photos_lay_the_pieces_where_the_set_up_screen_says():
    from tablehub.tracking.simboard import spot_piece

    sim = table_for(demo_record("karibik", 2, 5), size=(1280, 720)).limit(1)
    rounds = piece_rounds(sim.adapter, sim.board)
    ships = sim.piece_names()
    for photo in rounds:
        for i, spot in enumerate(photo):
            piece = spot_piece(spot, sim.board.centres[spot.space], i, ships)
            assert (piece.x_mm, piece.y_mm) == tuple(sim.board.centres[spot.space])
            if spot.kind == "ship laden":
                assert piece.kind == "ship" and piece.carries, spot
            elif spot.kind == "ship":
                assert piece.kind == "ship" and not piece.carries and piece.look == ships.index(spot.name)
