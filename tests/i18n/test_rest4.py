"""No English left on a French or German console (issue 19): every command's help (its description, each option's
and subcommand's help, argument group titles) and the commands' normal output (progress lines, reports, "wrote
...") are in the table's language; the enrolled piece names inside the camera's unsure lines and the tile
catalog's rotation check too. Each case runs in English, French and German: the English is as before, the French
and German say something else, without the English words (``no_new_missing``: nothing rendered in English for want
of a translation). The ``bench`` command's own tables stay English (a developer tool, docs/web.md)."""
from __future__ import annotations

import argparse
import ast
import json
import re
from pathlib import Path

import pytest

from tablehub import i18n
from tablehub.i18n import Text, translate

from .conftest import ROOT
from .test_rest3 import LANGS, _own_words

#: English words a French or German help or output line must not contain (outside paths, options, quoted values)
#: (not "or", "on": French words too; not "board", "read", "lens", "run": command names the help lists)
ENGLISH = re.compile(r"\b(the|with|from|default|written|wrote|enrolled|found|folder|file|players?|print|write|"
                     r"pieces?|tiles?|shots?|views?|skipped|saved|unsure|next|show|only|every|each|give|and|of|"
                     r"to|at|stopped|moved)\b", re.I)


def _english_in(line: str, *quoted: str) -> str | None:
    """The first English word of ``line`` outside what it quotes, its options (--photo), placeholders of paths and
    metavars (IMG, <data>), and docs file names; else None."""
    own = _own_words(line, *quoted)
    own = re.sub(r"`[^`]*`", " ", own)                       # commands to type
    own = re.sub(r"\w+(-\w+)+|Sunda to Sahul", " ", own)     # enrol-pieces, a game's name
    own = re.sub(r"(?<!\w)-{1,2}[\w-]+", " ", own)           # options
    own = re.sub(r"\S*[/\\]\S*|\S+\.(json|png|md|toml|sqlite|npz)\b", " ", own)  # paths, files
    own = re.sub(r"\b[A-Z][A-Z_]{1,}\b", " ", own)           # metavars (IMG, FRAME, NAME=SPACE)
    own = re.sub(r"<[^>]*>|\[[^\]]*\]|\$\w+", " ", own)      # <data>, [camera] fps, $TABLEHUB_CONFIG
    own = re.sub(r"\b\w+=\S*", " ", own)                     # red=Ana,blue=Ben
    own = re.sub(r"\{[\w,-]*\}", " ", own)                    # choices: {full,corners}
    found = ENGLISH.search(own)
    return found.group(0) if found else None


# ------------------------------------------------------------------------------------ the help texts

def _parsers(lang: str) -> dict[str, argparse.ArgumentParser]:
    """Every parser of the command line (the top one, each command, each subcommand) by its prog, built as
    ``tablehub.cli.main`` builds them for ``lang``."""
    from tablehub.cli import build_parser
    from tablehub.usage_i18n import argparse_language

    with argparse_language(lang):
        top = build_parser()
    out, stack = {}, [top]
    while stack:
        p = stack.pop()
        out[p.prog] = p
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                stack.extend(action.choices.values())
    return out


def _help_words(p: argparse.ArgumentParser) -> list[tuple[str, object]]:
    """(where, words) of a parser's own words: description, group titles, each option's and subcommand's help."""
    out: list[tuple[str, object]] = [("description", p.description)]
    out += [(f"group {i}", g.title) for i, g in enumerate(p._action_groups)]
    for action in p._actions:
        out.append((action.dest if not action.option_strings else action.option_strings[-1], action.help))
        if isinstance(action, argparse._SubParsersAction):
            out += [(f"command {c.dest}", c.help) for c in action._choices_actions]
    return [(w, v) for w, v in out if v and v is not argparse.SUPPRESS]


def test_every_help_text_is_a_text():
    """Every help, description and group title a command gives is a Text (so it can be rendered in French and
    German), bar argparse's own (its -h line and headings, translated through its gettext)."""
    argparse_own = {"show this help message and exit", "positional arguments", "options"}
    plain = [f"{prog}: {where}: {words!r}" for prog, p in _parsers("en").items() for where, words in _help_words(p)
             if not isinstance(words, Text) and words not in argparse_own]
    assert not plain, "help texts in plain English:\n" + "\n".join(plain)


@pytest.mark.parametrize("lang", LANGS)
def test_every_help_text_reads_in_the_consoles_language(lang, no_new_missing):
    from tablehub.usage_i18n import argparse_language

    english = {prog: dict(_help_words(p)) for prog, p in _parsers("en").items()}
    problems = []
    for prog, p in _parsers(lang).items():
        with argparse_language(lang):
            p.format_help()  # argparse fills each help's %(...)s: a stray % in a translation would fail here
        for where, words in _help_words(p):
            said = str(words)
            before = english[prog].get(where, "")
            if not isinstance(before, Text):
                continue  # argparse's own words (its headings): tests/i18n/test_rest3.py
            if said == before and re.search(r"[a-z]{3}", re.sub(r"\{\w+\}|%\(\w+\)s", "", said)):
                problems.append(f"{prog} {where}: still English: {said!r}")
            elif _english_in(said):
                problems.append(f"{prog} {where}: English word {_english_in(said)!r} in {said!r}")
    assert not problems, f"{len(problems)} help texts not in {lang}:\n" + "\n".join(problems[:40])


def test_the_help_check_can_fail():
    assert _english_in("le dossier written by enrol-board") == "written"
    assert _english_in("the folder") == "the"
    assert _english_in("dossier écrit par enrol-board (par défaut : board.json)") is None


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("argv", [["pin", "--help"], ["lens", "calibrate", "--help"], ["score", "--help"],
                                  ["boardcam", "enrol-pieces", "--help"], ["--help"]])
def test_a_commands_help_page_is_in_the_owners_language(argv, lang, monkeypatch, capsys):
    from tablehub.cli import main

    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "TABLEHUB_CONFIG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", {"fr": "fr_FR.UTF-8", "de": "de_DE.UTF-8"}[lang])
    with pytest.raises(SystemExit):
        main(argv)
    out = capsys.readouterr().out
    # argparse wraps lines: a whole paragraph is one text again
    body = out.split("\n\n", 1)[1]  # after the usage lines (the options' names and metavars)
    body = re.sub(r"(?m)^ {2,}[\w-]+ {2,}", " ", body)  # a subcommand's name before its help
    body = re.sub(r"\s+", " ", body)
    assert not _english_in(body), (lang, _english_in(body), out)
    monkeypatch.setenv("LANG", "C.UTF-8")
    with pytest.raises(SystemExit):
        main(argv)
    assert capsys.readouterr().out != out


# ------------------------------------------------------------------------------------ normal output

def _run(argv: list[str], lang: str, monkeypatch, capsys) -> tuple[int, list[str]]:
    from tablehub.cli import main

    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "TABLEHUB_CONFIG", "TABLEHUB_CAMERA", "TABLEHUB_DATA"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", {"en": "C.UTF-8", "fr": "fr_FR.UTF-8", "de": "de_DE.UTF-8"}[lang])
    code = main(argv)
    captured = capsys.readouterr()
    return code, [line for line in (captured.out + captured.err).splitlines() if line.strip()]


RECORD = {"game": "neuesland", "players": ["Ana", "Ben"], "seed": 3, "actions": []}

#: (argv, a piece of the English output); {tmp} is a scratch folder
OUTPUTS = [
    (["pin", "--data", "{tmp}/data"], "table PIN: "),
    (["pin", "--data", "{tmp}/data", "--lift"], "PIN entry was not locked"),
    (["markers", "--out", "{tmp}/mat", "--layout", "corners", "--play", "500x500"], "wrote "),
    (["enroll", "--game", "neuesland", "--out", "{tmp}/refs", "--layout"], "tiles in 1 batch(es)"),
    (["lens", "board", "--out", "{tmp}/charuco.png", "--squares", "7x5"], "check a square is"),
    (["games", "list", "--db", "{tmp}/games.sqlite"], "no saved games"),
    (["play", "--game", "neuesland", "--players", "2", "--seed", "4", "--save", "{tmp}/rec.json"], "Totals:"),
    (["doctor", "--no-camera", "--data", "{tmp}/data"], "tablehub doctor (settings"),
    (["score", "{root}/docs/examples/sunda-position.json"], "pawns in the tribe of 3"),
    (["score", "{root}/docs/examples/neuesland-short.json"], "During play:"),
]


@pytest.fixture()
def scratch(tmp_path):
    from tablehub.store import Store

    (tmp_path / "data").mkdir()
    Store(tmp_path / "games.sqlite").close()
    return tmp_path


@pytest.mark.parametrize("argv, english", OUTPUTS, ids=[" ".join(o[0][:2]) for o in OUTPUTS])
def test_a_commands_output_is_in_the_owners_language(argv, english, scratch, monkeypatch, capsys, no_new_missing):
    argv = [a.replace("{tmp}", str(scratch)).replace("{root}", str(ROOT)) for a in argv]
    said = {}
    for lang in ("en", *LANGS):
        try:
            said[lang] = _run(argv, lang, monkeypatch, capsys)
        except SystemExit as exc:  # an error line (games list without a database): the error is tested in test_rest3
            said[lang] = (exc.code, capsys.readouterr().err.splitlines())
    code, en = said["en"]
    assert any(english in line for line in en), en
    for lang in LANGS:
        c, lines = said[lang]
        assert c == code, (lang, lines)
        assert not any(english in line for line in lines), (lang, lines)
        for line in lines:
            assert not _english_in(line, str(scratch), *argv), (lang, _english_in(line, str(scratch), *argv), line)


def test_score_explains_a_record_in_the_owners_language(tmp_path, monkeypatch, capsys):
    from tablehub.records import record_of
    from tablehub.games.tiles.playout import random_game

    record = tmp_path / "r.json"
    record.write_text(json.dumps(record_of(random_game("neuesland", 2, 5, {})).to_dict()))
    _, en = _run(["score", str(record)], "en", monkeypatch, capsys)
    _, de = _run(["score", str(record)], "de", monkeypatch, capsys)
    assert "Totals:" in en and "Totals:" not in de and len(en) == len(de)


def test_no_command_prints_plain_english():
    """Every line a command prints (print(), sys.stdout.write) of its own is a Text through ``say``/``said``: a
    print() of a string literal or an f-string with words would be English on a French console. JSON, a board
    drawn in text and the lines of an explanation already rendered are not sentences of the command's own.
    ``bench`` is a developer tool: its tables stay English."""
    found = []
    for path in sorted((ROOT / "tablehub" / "commands").glob("*.py")):
        if path.name == "bench.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) in (
                    "print", "write", "say"):
                for arg in node.args[:1]:
                    words = " ".join(v.value for v in ast.walk(arg) if isinstance(v, ast.Constant)
                                     and isinstance(v.value, str) and not _inside_t(arg, v))
                    if re.search(r"[A-Za-z]{3,}", words):
                        found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {words[:60]!r}")
    assert not found, "lines printed in plain English:\n" + "\n".join(found)


def _inside_t(root: ast.AST, node: ast.AST) -> bool:
    """Whether ``node`` lies inside a T()/Tn()/Tc()/N_() call under ``root`` (a template, translated)."""
    for call in ast.walk(root):
        if isinstance(call, ast.Call) and getattr(call.func, "id", "") in ("T", "Tn", "Tc", "N_", "said"):
            if any(n is node for n in ast.walk(call)):
                return True
    return False


# ------------------------------------------------------------------------------------ piece names, tile rotations

def test_enrolled_piece_names_in_an_unsure_line_are_said_in_the_readers_language(no_new_missing):
    from tablehub.commands.boardcam import piece_words
    from tablehub.i18n import T, renamed

    tahiti = piece_words("tahiti")
    line = T("{piece} ({score}) or {other} ({other_score})?", piece="red boat", score="0.31", other="red sailboat",
             other_score="0.33")
    said = renamed(line, tahiti)
    assert str(said) == str(line) == "red boat (0.31) or red sailboat (0.33)?"  # the English is as before
    assert "red" not in translate(said, "fr") and "boat" not in translate(said, "de"), translate(said, "de")
    chest = T("the chest aboard {ship}: {why}", ship="Arriba", why=T("touching another piece: {piece} ({score})?",
                                                                     piece="chest up", score="0.4"))
    de = translate(renamed(chest, piece_words("karibik")), "de")
    assert "Arriba" in de and "chest up" not in de, de  # a ship's name stays, the chest is said
    assert renamed("plain", tahiti) == "plain" and renamed(T("{piece}", piece="Zorro"), tahiti) == "Zorro"


def test_a_tile_rotation_check_reads_in_the_readers_language(no_new_missing):
    from tablehub.games.tiles import rotation_index

    with pytest.raises(ValueError) as exc:
        rotation_index(45)
    why = i18n.reason(exc.value)
    assert isinstance(why, Text) and str(why) == "rotation must be 0, 90, 180 or 270 (degrees clockwise), got 45"
    for lang in LANGS:
        assert not _english_in(translate(why, lang)), translate(why, lang)


def test_say_prints_in_the_console_language(capsys):
    from tablehub.usage_i18n import console_in, say

    with console_in("de"):
        say(i18n.T("wrote {path}", path="x.png"))
    say(i18n.T("wrote {path}", path="x.png"))
    assert capsys.readouterr().out.splitlines() == ["x.png geschrieben", "wrote x.png"]
    assert Path(__file__).name == "test_rest4.py"


@pytest.mark.parametrize("break_it, english", [
    (lambda d: d["tiles"][0]["regions"].append(dict(d["tiles"][0]["regions"][0])), "duplicate region id"),
    (lambda d: d["tiles"].append(dict(d["tiles"][0])), "duplicate tile id"),
    (lambda d: d["tiles"][0]["regions"][0].update(slots="Nq"), "unknown slot"),
], ids=["region", "tile", "slot"])
def test_a_broken_tile_catalog_is_named_in_the_readers_language(break_it, english, no_new_missing):
    import copy

    from tablehub.games.tiles.catalog import CatalogError, build_catalog
    from tablehub.setup_files import catalog_file

    data = json.loads(Path(catalog_file("neuesland")).read_text(encoding="utf-8"))
    broken = copy.deepcopy(data)
    break_it(broken)
    with pytest.raises(CatalogError) as exc:
        build_catalog(broken, "cat.json")
    text = exc.value.text
    assert isinstance(text, Text) and english in str(text) and str(text).startswith("cat.json: tile ")
    for lang in LANGS:
        said = translate(text, lang)
        assert english not in said and not _english_in(said, "cat.json"), said


def test_every_template_written_in_the_source_is_extracted():
    """Every ``T("...")``/``Tn``/``Tc``/``N_`` with a literal template is found by babel's extractor (what the
    catalogs are checked against): babel does not see a keyword call nested inside another call within a keyword
    call's arguments (``T("{a}", a=chain([T("{b}")]))``), and such a template would render in English for want
    of a catalog entry. Compute the inner Text before the call."""
    from .conftest import source_templates

    extracted = {u.msgid for u in source_templates()}
    first = {"T": 0, "Tn": 0, "Tc": 1, "N_": 0}
    missed = []
    for folder in ("tablehub", "web", "vision"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for call in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in first \
                        and len(call.args) > first[call.func.id]:
                    arg = call.args[first[call.func.id]]
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value not in extracted:
                        missed.append(f"{path.relative_to(ROOT)}:{call.lineno}: {arg.value!r}")
    assert not missed, "templates babel does not extract:\n" + "\n".join(missed)
