"""The board picture drawn from a game's view."""
from __future__ import annotations

import xml.etree.ElementTree as ET

from tablehub.games.tiles.game import PlaceTile
from web.board_svg import _runs, render_board, terrain_fill, terrain_legend

SVG = "{http://www.w3.org/2000/svg}"
NS = "{http://www.w3.org/2000/svg}"
TERRAINS = {"G": "plain", "M": "mountain", "S": "sea"}
PLAYERS = {"Ana": {"css": "#d55e00", "colour": "red"}}


def view(**extra):
    v = {"kind": "tiles", "terrains": TERRAINS, "tiles": [
        {"x": 0, "y": 0, "tile": "ds001", "rotation": 0, "slots": "GGGMMMSSSMMM", "interior": []},
        {"x": 1, "y": 0, "tile": "ds044", "rotation": 90, "slots": "GGGGGGGGGGGG", "interior": ["S"]},
    ], "figures": [], "last": None, "flag": None}
    v.update(extra)
    return v


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def test_each_tile_is_drawn_from_its_slots_as_one_shape_per_run_of_terrain():
    root = parse(render_board(view(), PLAYERS))
    tiles = root.findall(f".//{SVG}g[@class='tile']")
    assert [(t.get("data-x"), t.get("data-tile")) for t in tiles] == [("0", "ds001"), ("1", "ds044")]
    fills = [p.get("fill") for p in tiles[0].findall(f"{SVG}polygon") if not p.get("fill").startswith("url")]
    assert fills == [terrain_fill(c, TERRAINS)[0] for c in "GMSM"]
    title = tiles[0].find(f"{SVG}title").text
    assert "north plain" in title and "east mountain" in title and "south sea" in title


def test_a_region_touching_no_side_is_drawn_in_the_middle():
    root = parse(render_board(view(), PLAYERS))
    lake = root.findall(f".//{SVG}g[@class='tile']")[1].find(f"{SVG}circle")
    assert lake is not None and lake.get("fill") == terrain_fill("S", TERRAINS)[0]


def test_runs_of_terrain_wrap_round_the_corner():
    assert _runs("GGGMMMSSSMMG") == [("M", [3, 4, 5]), ("S", [6, 7, 8]), ("M", [9, 10]), ("G", [11, 0, 1, 2])]
    assert _runs("GGGGGGGGGGGG") == [("G", list(range(12)))]


def test_figures_carry_their_owner_colour_and_initial():
    figure = {"x": 0, "y": 0, "region": "M:EW", "owner": "Ana", "terrain": "M", "anchor": [0.8, 0.5]}
    root = parse(render_board(view(figures=[figure]), PLAYERS))
    g = root.find(f".//{SVG}g[@class='figure']")
    assert g.find(f"{SVG}circle").get("fill") == "#d55e00"
    assert g.find(f"{SVG}text").text == "A"
    assert g.find(f"{SVG}title").text == "Ana (red) on mountain", "the terrain by its name, not its letter"
    assert float(g.find(f"{SVG}circle").get("cx")) == 80.0


def test_the_last_tile_is_outlined():
    root = parse(render_board(view(last={"x": 1, "y": 0}), PLAYERS))
    last = root.find(f".//{SVG}rect[@class='last']")
    assert last is not None and last.get("x") == "103"


def test_an_illegal_placement_is_outlined_with_its_reason_even_off_the_board():
    svg = render_board(view(), PLAYERS, flag={"reason": "sea meets <plain>", "x": 5, "y": -3})
    root = parse(svg)
    flag = root.find(f".//{SVG}g[@class='flag']")
    assert flag.find(f"{SVG}title").text == "sea meets <plain>", "the reason is escaped, not markup"
    x, y, w, h = map(float, root.get("viewBox").split())
    assert x <= 500 < x + w and y <= -300 < y + h, "the view grows to show the flagged cell"


def test_free_cells_around_the_tiles_can_be_tapped():
    root = parse(render_board(view(), PLAYERS))
    free = {(r.get("data-x"), r.get("data-y")) for r in root.findall(f".//{SVG}rect[@class='free']")}
    assert ("2", "0") in free and ("-1", "0") in free and ("0", "0") not in free


def test_other_views_get_a_clean_placeholder():
    for kind in ("none", "a-game-without-a-picture"):
        root = parse(render_board({"kind": kind}, {}))
        assert "board-fallback" in root.get("class")


def test_the_legend_names_every_terrain_with_its_texture():
    legend = {t["name"]: t["pattern"] for t in terrain_legend(view())}
    assert legend == {"plain": "", "mountain": "hatch", "sea": "waves"}
    assert terrain_fill("Q", {"Q": "volcano"})[0].startswith("#"), "unknown terrains still get a colour"


def test_the_tahiti_map_track_boats_and_pearls_are_drawn():
    from tablehub.games.tahiti.playout import random_game

    game = random_game(3, seed=1, max_actions=150)
    v = game.view()
    players = {p: {"css": c, "colour": n} for p, c, n in zip(game.players, ("#d55e00", "#0072b2", "#f0e442"),
                                                          ("red", "blue", "yellow"))}
    root = parse(render_board(v, players))
    boats = [c for c in v["cells"] if c["boat"]]
    assert len(root.findall(f".//{SVG}g[@class='boat']")) == len(boats) > 0
    assert len(root.findall(f".//{SVG}g[@class='space']")) == len(v["track"]) == 12
    assert len(root.findall(f".//{SVG}rect[@class='cell']")) == 48, "every cell but Tahiti can be tapped"
    first = root.find(f".//{SVG}g[@class='boat']/{SVG}title").text
    assert boats[0]["boat"]["owner"] in first and boats[0]["boat"]["pearl"] in first


def test_the_board_draws_what_scores_towns_goods_and_boats():
    """The score explanations count towns (Neues Land) and goods, fish and boats (Südsee): the
    picture shows them, one mark per town and per symbol."""
    from tablehub.games import new_game
    from tablehub.games.base import Setup

    game = new_game(Setup("neuesland", ("Ana", "Ben")))
    game.apply(next(a for a in game.legal_actions(tile="ds054")))  # two towns
    svg = render_board(game.view(), {})
    towns = sum(len(game.board.cells[c].tile.towns) for c in game.board.cells)
    assert towns >= 1 and svg.count('class="mark town"') == towns
    south = new_game(Setup("suedsee", ("Ana", "Ben")))
    while south.legal_actions() and south.legal_actions()[0].to_dict()["type"] != "place_tile":
        south.apply(south.legal_actions()[0])
    south.apply(next(a for a in south.legal_actions(tile="A2")))
    svg = render_board(south.view(), {})
    root = ET.fromstring(svg)
    symbols = {g.get("data-symbol") for g in root.iter(f"{NS}g") if "symbol" in (g.get("class") or "")}
    assert {"banana", "shell", "fish"} <= symbols, symbols
    assert 'class="mark boat"' in svg, "A2 carries a fishing boat"


def test_mountains_are_the_colour_of_the_tiles_from_one_palette():
    from tablehub.palette import TERRAIN_RGB, terrain_hex
    from vision.sim.art import TERRAIN_LOOK

    assert terrain_fill("M", TERRAINS)[0] == terrain_hex("mountain")
    r, g, b = TERRAIN_RGB["mountain"]
    assert max(r, g, b) - min(r, g, b) < 30, "grey as on the tiles, not brown"
    for name, rgb in TERRAIN_RGB.items():
        assert name in TERRAIN_LOOK and tuple(reversed(TERRAIN_LOOK[name][0])) == rgb, \
            f"the page and the synthetic table disagree on {name}"


def test_tile_titles_speak_table_words_with_the_id_in_brackets():
    from tablehub.games import new_game
    from tablehub.games.base import Setup

    game = new_game(Setup("neuesland", ("Ana", "Ben")))
    game.apply(PlaceTile("ds083", 0, 1, 0))
    root = ET.fromstring(render_board(game.view(), {}))
    titles = [t.text for g in root.iter(f"{NS}g") if g.get("class") == "tile" for t in g.iter(f"{NS}title")]
    assert any(t.startswith("the tile with sea all round south of the start tile") and "[ds083 at 0, 1" in t
               for t in titles), titles


def test_a_game_board_is_one_registration():
    from web.board_svg import DRAWERS, drawer

    assert "tahiti" in DRAWERS

    @drawer("test-board")
    def draw(view, players, **_):
        return "<svg class='test'/>"

    try:
        assert render_board({"kind": "test-board"}, {}) == "<svg class='test'/>"
    finally:
        DRAWERS.pop("test-board")
