"""Chest values enrolled from faint prints (issue 17, h-chests2).

A print's strokes must stand 80 grey levels darker than the lid for its marks to be cut whole (`vision.chests.MIN_INK`);
under dim light a sharp print falls under that bar though every digit is plain to see. The enrolment used to refuse
every such print ("too blurred ... under the 80 needed"). Now, under the bar, each value's print is enrolled as its grey
level in the lid's box and a face-up chest is read by normalised correlation of its lid's grey level against them
(`_enrol_faint`, `_read_faint`); the enrolment refuses only prints too alike to be told apart (blurred: `hard`,
test_chests.py)."""
from __future__ import annotations

import numpy as np
import pytest

from vision.chests import ValueBook, enrol_values, read_aboard, read_value
from vision.sim.boardtable import BoardPiece, deck_spot, spot_in
from vision.sim.camera import NUISANCE

from .test_chests import VALUES, shoot, values_photo

#: the `hard` camera's wide lens, tilt, light and noise, but in focus and with a milder JPEG, in dim light
DIM = NUISANCE["hard"].with_(blur_sigma=0.6, jpeg_quality=88, exposure=0.5)


@pytest.fixture(scope="module")
def dim(table):
    NUISANCE["dim (test)"] = DIM
    try:
        photo, r, ref, reg, at = values_photo(table, "dim (test)")
    finally:
        del NUISANCE["dim (test)"]
    return photo, r, ref, reg, at


def test_a_sharp_print_in_dim_light_is_enrolled_by_its_grey_level_and_read_never_as_another_value(table, dim):
    photo, r, ref, reg, at = dim
    book = enrol_values(photo, r.to_image, ref.canvas, 2.0, at)  # refused before: strokes 46-64 levels dark
    assert book.faint and sorted(book.lid_prints) == VALUES
    rng = np.random.default_rng(0)
    polys = table.board.polygons
    got = []
    for k in range(2):
        where = [int(s) for s in rng.choice(list(table.board.spaces), 15, replace=False)]
        vals = [int(rng.choice(VALUES)) for _ in where]
        pieces = [BoardPiece("chest_up", v, *spot_in(polys[s], rng, 6.0), float(rng.uniform(0, 360)))
                  for v, s in zip(vals, where)]
        frame, _ = shoot(table, pieces, DIM, 200 + k, origin=(43.0, 37.0), angle=1.0)
        f = reg.register(frame)
        got += [(v, read_value(frame, f.to_image, ref.canvas, 2.0, book, (p.x_mm, p.y_mm))) for v, p in zip(vals, pieces)]
    wrong = [(v, x.value, x.score) for v, x in got if x.value not in (v, None)]
    assert not wrong, wrong
    read = sum(x.value == v for v, x in got)
    print(f"face-up chests read in dim light: {read} of {len(got)}, none wrong")  # measured 27 of 30 (.venv)
    assert read >= 20, [(v, x.unsure) for v, x in got]
    assert all(x.unsure for _, x in got if x.value is None)


def test_a_faint_book_round_trips_and_a_chest_aboard_stays_unsure(table, dim, tmp_path):
    photo, r, ref, reg, at = dim
    book = enrol_values(photo, r.to_image, ref.canvas, 2.0, at)
    again = ValueBook.load(book.save(tmp_path / "chests.json"))
    assert again.faint and again.lid_box == pytest.approx(book.lid_box, abs=0.01)
    assert sorted(again.lid_prints) == VALUES
    c = table.board.centres
    s = list(table.board.spaces)[40]
    ship = BoardPiece("ship", 0, *c[s], 20.0, carries=6000, deck=deck_spot(np.random.default_rng(3)))
    frame, _ = shoot(table, [ship], DIM, 9, origin=(43.0, 37.0), angle=1.0)
    f = reg.register(frame)
    x = read_aboard(frame, f.to_image, ref.canvas, 2.0, again, (ship.x_mm, ship.y_mm))
    assert x is not None and x.value is None and x.unsure, x  # a print partly under a sail: not read so
