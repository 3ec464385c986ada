"""Every template the source uses is translated in French and German, with the same placeholders,
and every catalog entry is used (issue 19). The templates are extracted with babel's extractors
(tests/i18n/conftest.py), as ``pybabel extract -F babel.cfg`` does."""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

from tablehub import i18n

from .conftest import (PY_KEYWORDS, ROOT, TRANSLATED, Entry, Use, catalog_entries, has_words, placeholders,
                       source_templates)

#: the web/voice engineer's areas: held to "no entry without a use in the source" strictly (the other
#: areas' entries may also be used by the core's own tests, tests/core/test_i18n.py)
MY_AREAS = ("page", "voice")


def _entries(lang: str) -> dict[tuple[str | None, str], list[Entry]]:
    out: dict[tuple[str | None, str], list[Entry]] = defaultdict(list)
    for e in catalog_entries(lang):
        out[(e.context, e.msgid)].append(e)
    return out


def _where(use: Use) -> str:
    return f"{use.path}:{use.line}"


def test_the_extractor_finds_every_kind_of_source(templates):
    kinds = {Path(u.path).suffix for u in templates}
    assert {".py", ".html", ".js"} <= kinds, kinds
    found = {u.msgid for u in templates}
    # one from each: a page template, a script, the web's Python, the voice
    for probe in ("Table PIN", "Nothing to undo yet", "the game has already ended", "{player} to play."):
        assert probe in found, probe
    plurals = {u.msgid: u.plural for u in templates if u.plural}
    assert plurals.get("one action") == "{n} actions"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_template_in_the_source_is_translated_with_the_same_placeholders(templates, lang):
    entries = _entries(lang)
    problems = []
    for use in templates:
        found = entries.get(use.key)
        if not found:
            problems.append(f"{_where(use)}: not in the {lang} catalogs: {use.msgid!r}")
            continue
        entry = found[0]
        if use.plural and entry.plural is None:
            problems.append(f"{_where(use)}: {use.msgid!r} is a plural in the source, not in {entry.area}.po")
        allowed = placeholders(use.msgid) | placeholders(use.plural or "")
        for form in entry.strings:
            if not form.strip():
                problems.append(f"{_where(use)}: empty {lang} translation in {entry.area}.po: {use.msgid!r}")
            elif use.plural is None and placeholders(form) != allowed:
                problems.append(f"{_where(use)}: {entry.area}.po ({lang}) has placeholders "
                                f"{sorted(placeholders(form))} for {use.msgid!r}, the template {sorted(allowed)}")
            elif not placeholders(form) <= allowed | {"n"}:
                problems.append(f"{_where(use)}: {entry.area}.po ({lang}) plural form {form!r} has placeholders "
                                f"the template does not")
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:40])


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_template_in_two_areas_translates_the_same(lang):
    clashes = [f"{key!r}: " + "; ".join(f"{e.area}.po {e.strings}" for e in found)
               for key, found in _entries(lang).items() if len({e.strings for e in found}) > 1]
    assert not clashes, "\n".join(clashes)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_catalog_entry_is_unused(templates, lang):
    used = {u.key for u in templates}
    by_tests = {u.key for u in _test_templates()}  # core.po's examples for tests/core/test_i18n.py
    unused = [f"{e.area}.po:{e.line}: {e.msgid!r}" for e in catalog_entries(lang)
              if (e.context, e.msgid) not in used and (e.area in MY_AREAS or (e.context, e.msgid) not in by_tests)]
    assert not unused, "catalog entries no source uses (remove them, or the source lost a template):\n" + \
        "\n".join(unused)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_page_and_voice_catalogs_say_something_else_than_english(lang):
    """A translation equal to its English template is a forgotten one, unless it has no words of its
    own or the word is the same in that language (PIN, Zoom, Options...)."""
    same_ok = {"phase", "PIN", "Zoom", "Options", "Scores", "Points", "Tables", "Port", "Piles", "Photo", "mm", "orange",
               "live", "online", "offline", "optional", "points", "Volume (0–200)", "{n} point"}
    lazy = [f"{e.area}.po:{e.line}: {e.msgid!r}" for e in catalog_entries(lang)
            if e.area in MY_AREAS and has_words(e.msgid) and e.msgid not in same_ok
            and any(s == e.msgid for s in e.strings)]
    assert not lazy, "\n".join(lazy)


def test_every_catalog_has_the_plural_rule_of_its_language():
    expected = {"fr": "(n > 1)", "de": "(n != 1)"}
    for lang in TRANSLATED:
        for path in sorted((ROOT / "tablehub" / "locale" / lang).glob("*.po")):
            head = path.read_text(encoding="utf-8")[:1200]
            assert f"plural={expected[lang]};" in head.replace(" ;", ";"), f"{path}: Plural-Forms must say {expected[lang]}"


def test_the_checks_catch_a_missing_and_a_wrong_translation(tmp_path):
    """The test above can fail: a catalog without a template, and one with a foreign placeholder."""
    (tmp_path / "web").mkdir()
    (tmp_path / "web" / "x.py").write_text('from tablehub.i18n import T\nT("{player} wins")\nT("hello")\n')
    uses = [u for u in source_templates(tmp_path) if u.path.startswith("web")]
    assert [u.msgid for u in uses] == ["{player} wins", "hello"]
    (tmp_path / "fr").mkdir()
    (tmp_path / "fr" / "x.po").write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                                          'msgid "{player} wins"\nmsgstr "{joueur} gagne"\n', encoding="utf-8")
    entries = {(e.context, e.msgid): e for e in catalog_entries("fr", tmp_path)}
    assert ("hello" not in {k[1] for k in entries})
    assert placeholders(entries[(None, "{player} wins")].strings[0]) != placeholders("{player} wins")


def _test_templates() -> list[Use]:
    """Templates the core's own tests use (tests/core/test_i18n.py's examples live in core.po)."""
    from babel.messages.extract import extract

    out = []
    for path in sorted((ROOT / "tests" / "core").glob("test_i18n*.py")):
        with path.open("rb") as fh:
            for line, message, _c, context in extract("python", fh, keywords=PY_KEYWORDS):
                singular, plural = (message[0], message[1]) if isinstance(message, tuple) else (message, None)
                out.append(Use(singular, plural, context, str(path.relative_to(ROOT)), line))
    return out


def test_the_page_renders_no_template_in_english(no_new_missing):
    """Every page.po entry renders in each language through tablehub.i18n (nothing falls back)."""
    for lang in TRANSLATED:
        for e in catalog_entries(lang):
            if e.area not in MY_AREAS:
                continue
            params = {name: 2 for name in placeholders(e.msgid) | placeholders(e.plural or "")}
            if e.plural:
                params.pop("n", None)
                text = i18n.Tn(e.msgid, e.plural, 2, **params)
            else:
                text = i18n.Text(e.msgid, context=e.context, **params)
            assert i18n.translate(text, lang), e.msgid


def test_the_scripts_call_t_outside_template_literals():
    """babel 2.10 (bookworm's, the Pi's) does not look inside `${...}`: a t() there would be missed."""
    import re

    inside = re.compile(r"`[^`]*\$\{[^}`]*\btn?\(")
    found = [f"{path.relative_to(ROOT)}:{i}" for path in sorted((ROOT / "web" / "static").glob("*.js"))
             for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if inside.search(line)]
    assert not found, f"t() inside a template literal: {found}"


#: the template arguments of each keyword (T("template", ...), Tn(singular, plural, n), Tc(context, template))
_TEMPLATE_ARGS = {"T": 1, "N_": 1, "Tn": 2, "Tc": 2}


def _strings_outside_calls(node) -> list:
    """The string literals and f-strings of ``node`` not inside a nested call's parentheses: what babel 2.10's
    Python extractor reads as the keyword's own arguments."""
    import ast

    out, stack = [], [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.Call, ast.Lambda, ast.GeneratorExp, ast.ListComp, ast.DictComp, ast.SetComp)):
            continue
        if isinstance(n, ast.JoinedStr) or (isinstance(n, ast.Constant) and isinstance(n.value, str)):
            out.append(n)
            continue
        stack.extend(ast.iter_child_nodes(n))
    return out


def keyword_calls_bookworms_babel_misreads(root: Path = ROOT) -> list[str]:
    """T()/Tn()/Tc()/N_() calls that babel 2.10 (Debian bookworm's, the Pi's) reads wrong: it evaluates every
    string token among a keyword's direct arguments (an f-string there raises NameError and stops the whole
    extraction) and takes a string written inside a non-literal template (``T(TEXTS["key"])``) for a template."""
    import ast

    problems = []
    for folder in ("tablehub", "web", "vision"):
        for path in sorted((root / folder).rglob("*.py")):
            if "__pycache__" in path.parts:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for call in ast.walk(tree):
                if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                        and call.func.id in _TEMPLATE_ARGS):
                    continue
                where = f"{path.relative_to(root)}:{call.lineno}"
                for i, arg in enumerate(list(call.args) + [k.value for k in call.keywords]):
                    found = _strings_outside_calls(arg)
                    if any(isinstance(s, ast.JoinedStr) for s in found):
                        problems.append(f"{where}: an f-string among {call.func.id}()'s arguments "
                                        f"(write format(value, spec) or compute it before the call)")
                    elif i < min(len(call.args), _TEMPLATE_ARGS[call.func.id]) \
                            and not isinstance(arg, ast.Constant) and found:
                        problems.append(f"{where}: a string inside {call.func.id}()'s non-literal template "
                                        f"argument (look the template up outside the call)")
    return problems


def test_no_keyword_call_that_bookworms_babel_misreads():
    """The catalog tests run on the Pi's stack too (babel 2.10): every call extracts the same there."""
    found = keyword_calls_bookworms_babel_misreads()
    assert not found, "\n".join(found)


def test_the_bookworm_check_catches_an_f_string_and_a_looked_up_template(tmp_path):
    (tmp_path / "web").mkdir()
    (tmp_path / "web" / "x.py").write_text(
        'from tablehub.i18n import T\nTEXTS = {"k": "hello"}\nT("{a} ok", a=format(1.5, "g"))\n'
        'T("{a} mm", a=f"{1.5:g}")\nT(TEXTS["k"])\nT(TEXTS.get("k"))\n')
    found = keyword_calls_bookworms_babel_misreads(tmp_path)
    assert [f.split(":")[1] for f in found] == ["4", "5"], found
