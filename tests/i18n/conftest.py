"""Fixtures for the translation tests (issue 19): the templates the source uses and the catalogs.

``source_templates()`` extracts every template from the source tree with babel's own extractors,
each kind of file with its keywords (what ``pybabel extract -F babel.cfg`` finds):

- Python (tablehub/, web/): ``T``, ``Tn:1,2``, ``Tc:1c,2``, ``N_``;
- the page's templates (web/templates/): jinja2's i18n extension, ``_()``, ``ngettext``, ``pgettext``;
- the page's scripts (web/static/*.js): ``t()``, ``tn(singular, plural, n)``.

``no_new_missing`` fails a test that made :func:`tablehub.i18n.missing` grow (a template rendered
in English for want of a translation).
"""
from __future__ import annotations

import re
import string
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import pytest

from tablehub import i18n

ROOT = Path(__file__).resolve().parents[2]
PY_KEYWORDS = {"T": None, "Tn": (1, 2), "Tc": ((1, "c"), 2), "N_": None}
JINJA_KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}
JS_KEYWORDS = {"t": None, "tn": (1, 2)}
#: where each kind of file is looked for, and how it is read
SOURCES = (
    ("python", ("tablehub", "web", "vision"), "*.py", PY_KEYWORDS),
    ("jinja2.ext:babel_extract", ("web/templates",), "*.html", JINJA_KEYWORDS),
    ("javascript", ("web/static",), "*.js", JS_KEYWORDS),
)
TRANSLATED = tuple(lang for lang in i18n.LANGUAGES if lang != i18n.DEFAULT_LANGUAGE)


@dataclass(frozen=True)
class Use:
    """One template where the source uses it."""

    msgid: str
    plural: str | None
    context: str | None
    path: str
    line: int

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.context, self.msgid)


def source_templates(root: Path = ROOT) -> list[Use]:
    """Every template the source marks for translation (see the module)."""
    from babel.messages.extract import extract

    out: list[Use] = []
    for method, folders, pattern, keywords in SOURCES:
        for folder in folders:
            for path in sorted((root / folder).rglob(pattern)):
                if "__pycache__" in path.parts:
                    continue
                # (the scripts call t() outside template literals: bookworm's babel 2.10 does not
                # look inside them)
                options = {"extensions": "jinja2.ext.i18n"} if method.startswith("jinja2") else {}
                with path.open("rb") as fh:
                    for line, message, _comments, context in extract(method, fh, keywords=keywords,
                                                                     options=options):
                        singular, plural = (message[0], message[1]) if isinstance(message, tuple) else (message, None)
                        if singular:
                            out.append(Use(singular, plural, context, str(path.relative_to(root)), line))
    return out + schema_templates(root)


def schema_templates(root: Path = ROOT) -> list[Use]:
    """The files' schemas' own words (``"x-expected"`` in tablehub/schemas/*.schema.json): each is a template
    in the ``schema`` context, rendered inside "expected {what}, got {value}" (tablehub/schemas/__init__.py)."""
    import json

    out: list[Use] = []
    for path in sorted((root / "tablehub" / "schemas").glob("*.schema.json")):
        text = path.read_text(encoding="utf-8")
        stack = [json.loads(text)]
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                if isinstance(node.get("x-expected"), str):
                    quoted = json.dumps(node["x-expected"], ensure_ascii=False)
                    line = text[: max(text.find(quoted), 0)].count("\n") + 1
                    out.append(Use(node["x-expected"], None, "schema", str(path.relative_to(root)), line))
                stack.extend(node.values())
            elif isinstance(node, list):
                stack.extend(node)
    return out


def placeholders(template: str) -> set[str]:
    try:
        return {name for _, name, _, _ in string.Formatter().parse(template) if name}
    except ValueError:
        return {"<unbalanced braces>"}


WORD = re.compile(r"[^\W\d_]{2,}")


def has_words(template: str) -> bool:
    """Whether a template has words to translate (not only placeholders, numbers and signs)."""
    return bool(WORD.search(re.sub(r"\{\w*\}", "", template)))


@dataclass(frozen=True)
class Entry:
    msgid: str
    plural: str | None
    context: str | None
    strings: tuple[str, ...]
    area: str
    language: str
    line: int | None


def catalog_entries(language: str, root: Path = ROOT / "tablehub" / "locale") -> Iterator[Entry]:
    """Every entry of every .po file of ``language`` (header excluded)."""
    from babel.messages.pofile import read_po

    for path in sorted((root / language).glob("*.po")):
        with path.open("rb") as fh:
            cat = read_po(fh, locale=language, domain=path.stem)
        for msg in cat:
            if not msg.id:
                continue
            if isinstance(msg.id, (tuple, list)):
                msgid, plural = msg.id[0], msg.id[1]
                strings = tuple(msg.string)
            else:
                msgid, plural, strings = msg.id, None, (msg.string,)
            yield Entry(msgid, plural, msg.context, strings, path.stem, language, msg.lineno)


@pytest.fixture(scope="session")
def templates() -> list[Use]:
    return source_templates()


@pytest.fixture()
def no_new_missing():
    """Fails the test if it rendered any template in English for want of a translation."""
    before = i18n.missing()
    yield
    new = i18n.missing() - before
    assert not new, f"rendered in English for want of a translation: {sorted(new, key=str)[:20]}"
