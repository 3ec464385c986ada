"""A finished table scored from one rendered photo (`tablehub score --photo`): the scores equal the engine's on
the true game. The tables are the final tables of whole seeded games (benchmarks/photoscore.py), laid by hand,
figures anywhere in their regions, the start tile found afresh."""
from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from tablehub.cli import main
from tests.cli import one_line_error

ROOT = Path(__file__).resolve().parents[2]


def _bench():
    name = "tablehub_bench_photoscore_for_tests"
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / "photoscore.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


PS = _bench()


class Table:
    """A game enrolled from the simulated camera (other light and pose than the photos)."""

    def __init__(self, game: str, scans: Path | None):
        self.game = game
        self.setup = PS.VB.game_setup(game, scans)
        # enrolled as the benches enrol (benchmarks/vision.enrolled_recognizer): the sim camera's default level
        self.rec, self.refs, self.colours, self.mat = PS.VB.enrolled_recognizer(self.setup, "default", "sim",
                                                                                np.random.default_rng(4242))
        self.lens = self.rec.rectifier.lens
        self.rec.fit_found_grid = True     # as tablehub.photo.load_recognizer reads a photo

    def final(self, seed: int):
        """A whole game's final table and its photo."""
        from vision.sim import render

        g = PS.final_game(self.game, seed, self.mat)
        rng = np.random.default_rng(seed)
        scene = PS.final_scene(g, self.setup, rng, 1.5, self.mat)
        frame, _ = render(scene, self.setup.art, "default", rng, PS.VB.SIZE, geometry=self.setup.geometry,
                          shapes=self.setup.true_regions)
        return g, frame

    def save(self, folder: Path) -> Path:
        from vision.calibrate import LensCalibration

        self.refs.save(folder)
        self.colours.save(folder / "colours.json")
        LensCalibration(self.lens.camera_matrix, self.lens.dist_coeffs, self.lens.image_size).save(folder / "lens.json")
        return folder


@pytest.fixture(scope="module")
def drawn() -> Table:
    return Table("neuesland", None)


@pytest.fixture(scope="module")
def scanned(neuesland_scans) -> Table:
    return Table("neuesland", neuesland_scans)


def _names(g):
    return {PS.CALIBRATION_COLOURS[i]: p for i, p in enumerate(g.players)}


@pytest.mark.parametrize("seed", [34, 47])
def test_a_rendered_final_table_on_drawn_art_scores_what_the_engine_scores(drawn, seed):
    """Two tables the reading gets exactly right (a regression check; the share over many tables and cameras,
    with the tables it gets wrong, is `tablehub bench photoscore`'s: docs/benchmarks.md)."""
    from tablehub.photo import score_photo

    g, frame = drawn.final(seed)
    assert len(g.board.cells) > 60 and g.figures
    result = score_photo(drawn.rec, frame, "neuesland", "photo", _names(g), PS.what_a_photo_cannot_show(g))
    g.finish()
    assert result.scores == g.scores()
    assert not result.choice.dropped


@pytest.mark.shared
def test_a_rendered_final_table_on_the_scans_scores_what_the_engine_scores(scanned):
    from tablehub.photo import score_photo

    g, frame = scanned.final(5)
    result = score_photo(scanned.rec, frame, "neuesland", "photo", _names(g), PS.what_a_photo_cannot_show(g))
    g.finish()
    assert result.scores == g.scores()
    assert {c: (t.tile, t.rotation) for c, t in result.choice.tiles.items()} == \
        {c: (p.tile.id, 90 * p.rot) for c, p in g.board}


def test_score_photo_on_the_command_line(drawn, tmp_path, capsys):
    g, frame = drawn.final(47)
    refs = drawn.save(tmp_path / "refs")
    image = tmp_path / "table.png"
    cv2.imwrite(str(image), frame)
    names = _names(g)
    before = {c: sum(e.points for e in g.score_log if e.player == p) for c, p in names.items()}
    argv = ["score", "--photo", str(image), "--game", "neuesland", "--refs", str(refs), "--lens",
            str(refs / "lens.json"), "--players", ",".join(f"{c}={p}" for c, p in names.items()),
            "--before", ",".join(f"{c}={n}" for c, n in before.items())]
    assert main(argv + ["--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    g.finish()
    assert out["scores"] == g.scores()
    assert out["photo"] == str(image) and isinstance(out["unsure"], list)
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "Final scoring:" in text and "Totals:" in text and "Unsure" in text



def test_a_photo_without_the_mats_markers_isone_line_error(drawn, tmp_path, capsys):
    refs = drawn.save(tmp_path / "refs")
    image = tmp_path / "wall.png"
    cv2.imwrite(str(image), np.full((1080, 1920, 3), 128, np.uint8))
    err = one_line_error(capsys, ["score", "--photo", str(image), "--game", "neuesland", "--refs", str(refs)])
    assert err.startswith(f"tablehub score: {image}: ")


@pytest.mark.parametrize("argv,expect", [
    (["score", "--photo", "x.png"], "--photo: name the game with --game neuesland, suedsee, sunda, tahiti or karibik"),
    (["score", "--photo", "x.png", "--game", "neuesland", "--refs", "nowhere"],
     "--refs nowhere: no references there; enrol the set first"),
    (["score", "--photo", "x.png", "--game", "chess"], "--game chess: no tile catalog"),
    (["score", "--photo", "x.png", "--game", "karibik"], "--money: a Karibik score is the doubloons"),
    (["score", "r.json", "--photo", "x.png"], "give a record (or position) file or --photo IMG, not both"),
    (["score"], "give a record or position file"),
    (["score", "r.json", "--players", "red=Ana"], "--players: only with --photo"),
    (["score", "--photo", "x.png", "--game", "neuesland", "--players", "Ana,Ben"], "--players: expected COLOUR=NAME"),
    (["score", "--photo", "x.png", "--game", "neuesland", "--before", "red=lots"], "--before: expected PLAYER=POINTS"),
])
def test_bad_photo_options_areone_line_error(capsys, argv, expect):
    assert expect in one_line_error(capsys, argv)


def test_a_missing_photo_isone_line_error(drawn, tmp_path, capsys):
    refs = drawn.save(tmp_path / "refs")
    err = one_line_error(capsys, ["score", "--photo", str(tmp_path / "gone.jpg"), "--game", "neuesland",
                             "--refs", str(refs)])
    assert "gone.jpg: cannot read the image" in err


# ---------------------------------------------------------------- the page's upload (web/views/photoscore.py)


def test_the_page_scores_an_uploaded_photo_and_leaves_the_game_alone(drawn, tmp_path):
    import base64

    from tablehub.games.base import Setup
    from tablehub.photo import photo_scorer
    from tablehub.store import Store
    from web import Hub, create_app

    g, frame = drawn.final(34)
    refs = drawn.save(tmp_path / "refs")
    ok, png = cv2.imencode(".png", frame)
    assert ok
    hub = Hub(Store(), pin="4821")
    try:
        colours = tuple(PS.CALIBRATION_COLOURS[: len(g.players)])
        hub.start(Setup("neuesland", tuple(g.players), colours))   # another game is on the table, just started
        hub.photo_scorer = photo_scorer(lambda game: refs)
        client = create_app(hub).test_client()
        rows = len(hub.session.rows)
        pin = {"X-Tablehub-Pin": "4821", "Content-Type": "application/json"}
        text = base64.b64encode(png.tobytes()).decode()
        refused = client.post("/api/photoscore/part", data=json.dumps({"index": 0, "data": text[:100]}),
                              headers={"Content-Type": "application/json"})
        assert refused.status_code == 403 and refused.get_json()["error"]      # no PIN, no CSRF token
        too_big = client.post("/api/photoscore", data=json.dumps({"photo": text}), headers=pin)
        assert too_big.status_code == 413                                       # every route's 64 KiB
        parts = [text[i:i + 60_000] for i in range(0, len(text), 60_000)]
        assert len(parts) > 10
        for i, part in enumerate(parts):                                        # as photoscore.js sends it
            body = json.dumps({"index": i, "data": part})
            assert len(body) < 64 * 1024
            assert client.post("/api/photoscore/part", data=body, headers=pin).get_json()["parts"] == i + 1
        resp = client.post("/api/photoscore", data=json.dumps({}), headers=pin)
        assert resp.status_code == 200, resp.get_json()
        out = resp.get_json()
        g.finish()
        finals = {p: sum(e.points for e in g.score_log if e.player == p and e.kind == "final") for p in g.players}
        assert out["scores"] == finals                  # the players' names come from the table's colours
        assert any(line.startswith("Totals") for line in out["lines"]) and isinstance(out["unsure"], list)
        assert len(hub.session.rows) == rows and not hub.session.game.finished
        again = client.post("/api/photoscore", data=json.dumps({}), headers=pin)     # the parts were taken
        assert again.status_code == 400 and "in parts" in again.get_json()["error"]
        skipped = client.post("/api/photoscore/part", data=json.dumps({"index": 3, "data": "AAAA"}), headers=pin)
        assert skipped.status_code == 409 and "from part 0" in skipped.get_json()["error"]
    finally:
        hub.shutdown()


# ---------------------------------------------------------------- tablehub bench photoscore


def test_bench_photoscore_prints_the_share_exactly_right(capsys):
    assert main(["bench", "photoscore", "--quick", "--tables", "1", "--games", "neuesland", "--scans", "none"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.strip().startswith("sim/default"))
    exact, tables = map(int, row.split()[1].split("/"))
    assert tables == 1 and exact in (0, 1) and "CPU ms per photo" in out
    assert re.search(r"scores exactly right: \d/1 tables \([\d.]+ %; target >= 95 %\)", out)


def test_bench_photoscore_refuses_an_unknown_level(capsys):
    assert main(["bench", "photoscore", "--levels", "foggy"]) == 2
    assert "unknown camera or level foggy" in capsys.readouterr().err
