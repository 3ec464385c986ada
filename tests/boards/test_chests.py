"""Chests on the board: a face-up chest's printed value read against the enrolled values (a margin, else
unsure), a chest aboard a ship read and given to that ship, an empty hold told; the enrolment and its file."""
from __future__ import annotations

import json
import re

import cv2
import numpy as np
import pytest

from tablehub.cli import main
from vision import VisionError
from vision.boardreg import BoardReference, BoardRegistrar
from vision.chests import ValueBook, enrol_values, read_aboard, read_value
from vision.sim.boardtable import BoardPiece, render_board_scene, spot_in
from vision.sim.camera import NUISANCE

VALUES = [4000, 5000, 6000, 7000, 8000]
SIZE = (1920, 1080)


def shoot(table, pieces, camera, seed, origin=(40.0, 40.0), angle=0.0):
    return render_board_scene(table.scene(pieces, origin=origin, angle=angle), camera, np.random.default_rng(seed),
                              size=SIZE)


def values_photo(table, level: str):
    """The empty board and a photo of the five values (one chest each) on another evening, at ``level``'s camera:
    (the photo, its registration, the board's reference, the registrar, where each value lies in board mm)."""
    from vision.calibrate import LensCalibration

    cam = NUISANCE[level].other_session()
    photo, truth = shoot(table, [], cam, 5)
    lens = LensCalibration(truth.pose.K, truth.pose.dist, SIZE)
    w, h = table.size
    corners = truth.board_to_image(np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64))
    ref = BoardReference.from_photo(photo, table.size, 2.0, corners_px=corners, lens=lens)
    reg = BoardRegistrar(ref, lens)
    c = table.board.centres
    spots = list(table.board.spaces)[10:15]
    photo, _ = shoot(table, [BoardPiece("chest_up", v, *c[s], 35.0 * k) for k, (v, s) in enumerate(zip(VALUES, spots))],
                     cam, 6)
    return photo, reg.register(photo), ref, reg, [(v, *c[s]) for v, s in zip(VALUES, spots)]


@pytest.fixture(scope="module")
def enrolled(table):
    """The board and the five values enrolled on another evening (1080p, as the table's camera)."""
    photo, r, ref, reg, at = values_photo(table, "default")
    return ref, reg, enrol_values(photo, r.to_image, ref.canvas, 2.0, at)


def test_face_up_chests_are_read_by_their_printed_value_turned_any_way(table, enrolled):
    ref, reg, book = enrolled
    rng = np.random.default_rng(11)
    polys = table.board.polygons
    where = [int(s) for s in rng.choice(list(table.board.spaces)[20:], 10, replace=False)]
    values = [VALUES[k % 5] for k in range(10)]
    pieces = [BoardPiece("chest_up", v, *spot_in(polys[s], rng, 6.0), float(rng.uniform(0, 360)))
              for v, s in zip(values, where)]
    frame, _ = shoot(table, pieces, "default", 12, origin=(43.0, 37.0), angle=1.0)
    r = reg.register(frame)
    reads = [read_value(frame, r.to_image, ref.canvas, 2.0, book, (p.x_mm, p.y_mm)) for p in pieces]
    wrong = [(v, x) for v, x in zip(values, reads) if x.value is not None and x.value != v]
    assert not wrong
    assert sum(x.value == v for v, x in zip(values, reads)) >= 9, reads
    assert all(x.candidates for x in reads if x.value is None)  # unsure says between which values


def test_a_chest_aboard_a_ship_is_that_ships_and_an_empty_hold_is_told(table, enrolled):
    ref, reg, book = enrolled
    c = table.board.centres
    spaces = list(table.board.spaces)[30:36]
    carried = [6000, 0, 4000, 0, 8000, 5000]
    pieces = [BoardPiece("ship", i, *c[s], 40.0 * i + 10, carries=v) for i, (v, s) in enumerate(zip(carried, spaces))]
    frame, _ = shoot(table, pieces, "clean", 13, origin=(42.0, 39.0), angle=-1.0)
    r = reg.register(frame)
    got = [read_aboard(frame, r.to_image, ref.canvas, 2.0, book, (p.x_mm, p.y_mm)) for p in pieces]
    for i, (v, x) in enumerate(zip(carried, got)):
        if v == 0 and i == 3:  # Diabolo's yellow sail, nearly the lids' colour: told by its shape, an empty hold
            assert x is not None and x.value == 0 and not x.unsure, x
        elif v == 0:
            assert x is None, (i, x)  # an empty hold
        else:
            assert x is not None and x.value in (v, None)  # read right, or unsure: never another value
    # most prints in view are read (how many: the boards bench); one near the sail's edge may be unsure
    assert sum(x is not None and x.value == v for v, x in zip(carried, got)) >= 2, got


def test_a_blank_lid_is_unsure_not_a_value(table, enrolled):
    ref, reg, book = enrolled
    c = table.board.centres
    s = list(table.board.spaces)[40]
    frame, _ = shoot(table, [BoardPiece("chest_down", 0, *c[s], 20.0)], "default", 14)
    r = reg.register(frame)
    x = read_value(frame, r.to_image, ref.canvas, 2.0, book, c[s])
    assert x.value is None and x.unsure


def test_the_value_book_round_trips_and_a_bad_file_is_one_line(tmp_path, enrolled):
    _, _, book = enrolled
    path = book.save(tmp_path / "chests.json")
    again = ValueBook.load(path)
    assert sorted(again.patches) == VALUES and np.allclose(again.lid_lab, book.lid_lab, atol=0.01)
    data = json.loads(path.read_text())
    data["values"] = {"4000": data["values"]["4000"]}
    path.write_text(json.dumps(data))
    with pytest.raises(VisionError, match="at least 2 enrolled values"):
        ValueBook.load(path)
    path.write_text("{")
    with pytest.raises(VisionError, match="not a readable chest value book"):
        ValueBook.load(path)


def test_enrolment_refuses_a_spot_with_no_chest(table, enrolled):
    ref, reg, _ = enrolled
    c = table.board.centres
    frame, _ = shoot(table, [], "default", 15)
    r = reg.register(frame)
    with pytest.raises(VisionError, match="no chest found"):
        enrol_values(frame, r.to_image, ref.canvas, 2.0, [(4000, *c[11]), (5000, *c[12])])


def test_cli_enrols_the_values_and_reads_the_chests(table, tmp_path, capsys):
    cam = NUISANCE["clean"].with_(tilt_deg=5.0, tilt_azimuth_deg=40.0)
    photo, truth = shoot(table, [], cam, 1)
    cv2.imwrite(str(tmp_path / "empty.png"), photo)
    w, h = table.size
    corners = truth.board_to_image(np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64))
    refs = tmp_path / "refs"
    assert main(["boardcam", "enrol-board", str(tmp_path / "empty.png"), "--out", str(refs),
                 "--corners", ",".join(f"{v:.2f}" for v in corners.ravel())]) == 0
    c = table.board.centres
    pieces = [BoardPiece("ship", 0, *c[11]), BoardPiece("ship", 1, *c[12]), BoardPiece("chest_up", 5000, *c[13]),
              BoardPiece("chest_down", 0, *c[14])]
    photo, _ = shoot(table, pieces, cam, 2)
    cv2.imwrite(str(tmp_path / "pieces.png"), photo)
    assert main(["boardcam", "enrol-pieces", str(tmp_path / "pieces.png"), "--refs", str(refs),
                 "--at", "Arriba=11,Bravo=12,chest up=13,chest down=14"]) == 0
    laden = [BoardPiece("ship", 0, *c[11], carries=7000), BoardPiece("ship", 1, *c[12], carries=4000)]
    photo, _ = shoot(table, laden, cam, 3)
    cv2.imwrite(str(tmp_path / "laden.png"), photo)
    assert main(["boardcam", "enrol-pieces", str(tmp_path / "laden.png"), "--refs", str(refs), "--add",
                 "--at", "Arriba=11,Bravo=12"]) == 0
    photo, _ = shoot(table, [BoardPiece("chest_up", v, *c[s], 30.0) for v, s in zip(VALUES, (20, 21, 22, 23, 24))],
                     cam, 4)
    cv2.imwrite(str(tmp_path / "values.png"), photo)
    capsys.readouterr()
    assert main(["boardcam", "enrol-chests", str(tmp_path / "values.png"), "--refs", str(refs),
                 "--at", ",".join(f"{v}={s}" for v, s in zip(VALUES, (20, 21, 22, 23, 24)))]) == 0
    assert "5 chest values enrolled: 4000, 5000, 6000, 7000, 8000" in capsys.readouterr().out
    frame, _ = shoot(table, [BoardPiece("ship", 0, *c[40], 30.0, carries=8000), BoardPiece("ship", 1, *c[50]),
                             BoardPiece("chest_up", 6000, *c[60], 70.0)], cam, 5, origin=(45.0, 36.0))
    cv2.imwrite(str(tmp_path / "frame.png"), frame)
    assert main(["boardcam", "read", str(tmp_path / "frame.png"), "--refs", str(refs)]) == 0
    out = capsys.readouterr().out
    assert "chests on space 60: 6000 face up" in out, out
    assert "Bravo carries nothing" in out, out
    assert re.search(r"Arriba carries (8000|a chest \(value \?\))\n", out), out  # read, or unsure: never another
    # the live tracker's recognizer loads chests.json with the references and reads the chests too
    from tablehub.tracking.boardcam import load_recognizer

    seen = load_recognizer("karibik", refs)(frame)
    chests = seen.extras["chests"]
    assert chests.spaces == {60: [("up", 6000)]} and chests.aboard["Bravo"] == 0
    assert chests.aboard["Arriba"] in (8000, None)
    assert main(["boardcam", "enrol-chests", str(tmp_path / "values.png"), "--refs", str(refs),
                 "--at", "four=20"]) != 0
    err = capsys.readouterr().err
    assert "must be VALUE=SPACE" in err and "Traceback" not in err


def test_a_chest_anywhere_on_the_deck_is_read_by_its_own_print_or_unsure_never_another_value(table, enrolled):
    """The chest lies where the player put it (bow or stern, turned any way): a print in view is read turned by
    its own ink; a print partly under the sail is unsure (a 4 half hidden reads as a 7), never another value, and
    a lid seen with no print read is a chest of unknown value, never an empty hold."""
    from vision.sim.boardtable import deck_fits, deck_spot, print_hidden

    ref, reg, book = enrolled
    rng = np.random.default_rng(17)
    c = table.board.centres
    spaces = list(table.board.spaces)[40:52]
    in_view = [(-10.5, 0.0, 0.0), (10.4, 0.3, 180.0), (-10.4, -0.3, 185.0), (10.5, 0.0, 0.0)]  # bow and stern
    assert all(deck_fits(*d) and print_hidden(d) == 0 for d in in_view)
    decks = in_view + [deck_spot(rng) for _ in range(8)]
    carried = [VALUES[k % 5] for k in range(12)]
    looks = [0, 1, 2, 4, 5, 3, 0, 1, 2, 3, 4, 5]  # the prints in view on ships whose sail is not lid-coloured
    pieces = [BoardPiece("ship", looks[k], *c[s], float(rng.uniform(0, 180)), carries=v, deck=d)
              for k, (v, s, d) in enumerate(zip(carried, spaces, decks))]
    got = []
    for k in range(0, 12, 6):
        frame, _ = shoot(table, pieces[k:k + 6], "clean", 30 + k, origin=(41.0, 39.0), angle=0.5)
        r = reg.register(frame)
        got += [read_aboard(frame, r.to_image, ref.canvas, 2.0, book, (p.x_mm, p.y_mm)) for p in pieces[k:k + 6]]
    for v, d, x in zip(carried, decks, got):
        assert x is not None, (v, d)  # a chest aboard is never an empty hold (Diabolo: its lid-coloured sail)
        assert x.value in (v, None), (v, d, print_hidden(d), x)  # never another value
        if x.value is None:
            assert x.unsure
    # prints in view are read (the strokes nearest the sail's edge, within about a millimetre of it, may count as
    # hidden: unsure, as the Pi's OpenCV draws them)
    assert sum(x.value == v for v, x in zip(carried[:4], got[:4])) >= 2, [(x.value, x.unsure) for x in got[:4]]


def test_values_too_blurred_to_read_are_refused_at_enrolment_in_one_line(table):
    """At the `hard` camera the prints' strokes come out only 45-72 grey levels darker than the lid and blurred
    (1.3 px at about 2.3 px/mm: the digits' inner gaps filled): their grey levels in the lid's box match each other
    at 0.95 (h-chests2; before, the strokes' 80-grey-level bar refused them), so the values' enrolment says so
    instead of enrolling prints that later read as the wrong value."""
    photo, r, ref, _, at = values_photo(table, "hard")
    with pytest.raises(VisionError, match=r"too blurred to tell apart .*focus the camera or light the table") as e:
        enrol_values(photo, r.to_image, ref.canvas, 2.0, at)
    assert "\n" not in str(e.value)


def test_diabolos_yellow_sail_is_told_from_a_lid_empty_hold_told_laden_never_empty(table, enrolled):
    """Diabolo's yellow sail lies 18 apart from the lids' colour (Lab, L weighted a half), inside the lid's
    tolerance: the sail's own colour (the large lid-coloured part's median) is told apart pixel by pixel, so an
    empty hold is told empty; a chest on its deck anywhere, partly under the sail, is never an empty hold nor
    another value."""
    from vision.sim.boardtable import deck_spot

    ref, reg, book = enrolled
    rng = np.random.default_rng(23)
    c = table.board.centres
    spaces = list(table.board.spaces)[70:82]
    carried = [0, 0, 0, 0, 0, 0, 4000, 5000, 6000, 7000, 8000, 6000]
    pieces = [BoardPiece("ship", 3, *c[s], float(rng.uniform(0, 360)), carries=v, deck=deck_spot(rng) if v else None)
              for v, s in zip(carried, spaces)]
    got = []
    for k in range(0, 12, 6):
        frame, _ = shoot(table, pieces[k:k + 6], "clean", 40 + k, origin=(41.0, 39.0), angle=0.5)
        r = reg.register(frame)
        got += [read_aboard(frame, r.to_image, ref.canvas, 2.0, book, (p.x_mm, p.y_mm)) for p in pieces[k:k + 6]]
    empty = [x for v, x in zip(carried, got) if v == 0]
    # the sail the same either side of its mast: an empty hold, on either stack (h-chests4; before, on the Pi's
    # OpenCV 4.11, whose sail is drawn 10-11 apart from the lids' colour, every one "the sail has the lids' colour")
    assert all(x is None or x.value == 0 for x in empty), empty
    for v, x in zip(carried[6:], got[6:]):
        assert x is not None and x.value in (v, None), (v, x)  # laden: never empty, never another value


def test_a_chests_print_is_drawn_alike_on_every_opencv():
    """The renderer's value prints come from stored glyphs (vision/sim/glyphs.npz, OpenCV 5's FONT_HERSHEY_SIMPLEX):
    OpenCV 4.11 (the Pi's stack) draws putText's font apart (thinner strokes, 17% smaller ink; h-pichests), so the
    same scene read apart on the two stacks. Where OpenCV 5 runs, the stored glyphs are exactly what it draws."""
    from vision.sim.boardtable import _print_turned
    from vision.sim.glyphs import glyph

    sums = []
    for v in "45678":
        plane = np.full((60, 60, 3), 200, np.uint8)
        _print_turned(plane, v, np.float64([30.3, 29.6]), 35.0, 0.28 * 3.0, (20, 30, 60), 0.8 * 3.0)
        sums.append(int((200 - plane[..., 0].astype(int)).sum()))
        g, (tw, th, base, pad) = glyph(v, 0.28 * 3.0 * 4, int(round(0.8 * 3.0 * 4)))
        if int(cv2.__version__.split(".")[0]) >= 5:
            thick = int(round(0.8 * 3.0 * 4))
            assert cv2.getTextSize(v, cv2.FONT_HERSHEY_SIMPLEX, 0.28 * 3.0 * 4, thick) == ((tw, th), base)
            own = np.zeros_like(g)
            cv2.putText(own, v, (pad, pad + th), cv2.FONT_HERSHEY_SIMPLEX, 0.28 * 3.0 * 4, 255, thick, cv2.LINE_AA)
            assert np.array_equal(own, g)
        # the print lays down the stored glyph's ink (shrunk 4 times, dark 180 of 255): on OpenCV 4.11 putText's own
        # font laid 12-25% less (h-pichests), its prints read apart from the dev stack's (issues 14, 17)
        assert sums[-1] == pytest.approx(g.astype(float).sum() / 16 * 180 / 255, rel=0.02), (v, sums)
