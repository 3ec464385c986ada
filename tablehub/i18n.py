"""Text in the reader's language: English, French and German.

Whatever people read or hear (a refusal's reason, a score's explanation, a page label, a spoken
announcement) is written once, in English, as a template marked for translation, and rendered in
each reader's language at the last moment: each phone at a table may read another language, and
the voice speaks the table's.

A :class:`Text` is the English sentence (a ``str``: logs, records, tests and JSON read it as they
always did) that also remembers its template and parameters, so :func:`translate` renders it again
from a catalog. Parameters that are themselves :class:`Text` (a region's name inside a refusal)
are translated too; other parameters (player names, numbers, tile ids) are kept as they are.

>>> refusal = T("{player} has no figure left", player="Ana")
>>> refusal, translate(refusal, "en")
('Ana has no figure left', 'Ana has no figure left')
>>> Tn("one tile", "{n} tiles", 3)
'3 tiles'
>>> data = refusal.as_data()
>>> data
{'t': '{player} has no figure left', 'p': {'player': 'Ana'}}
>>> Text.from_data(data) == refusal
True

Catalogs are gettext ``.po`` files, the standard format every translation tool reads:
``tablehub/locale/<lang>/<area>.po`` (one file per area: the page, the shared core, each game),
all files of a language merged. ``pybabel extract`` with ``babel.cfg`` finds the templates: the
keywords are ``T``, ``Tn`` (singular, plural), ``Tc`` (context, template), ``N_`` (marked, not
translated where it stands) and, in the page's templates and scripts, ``_``/``t``.

A template missing from a catalog, or a translation whose placeholders do not match the
template's, renders the English template and is remembered in :func:`missing` (the tests fail on
any).
"""
from __future__ import annotations

import contextlib
import gettext
import string
import threading
import unicodedata
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

#: the languages the page and the voice speak, the first is the source language
LANGUAGES = ("en", "fr", "de")
DEFAULT_LANGUAGE = "en"
#: each language's own name, for the page's switch
LANGUAGE_NAMES = {"en": "English", "fr": "Français", "de": "Deutsch"}
LOCALE_DIR = Path(__file__).resolve().parent / "locale"

#: the context of :func:`capital`'s Texts: the inner text, its first letter made a capital in every language
CAPITAL = "\x00capital"

_missing: set[tuple[str, str | None, str]] = set()
_lock = threading.Lock()


def N_(template: str) -> str:
    """Marks ``template`` for the catalogs without translating it where it stands."""
    return template


class Text(str):
    """An English sentence that can be rendered again in another language (see the module)."""

    msgid: str
    params: dict[str, Any]
    context: str | None
    plural: str | None
    n: int | None

    def __new__(cls, msgid: str, /, *, context: str | None = None, plural: str | None = None,
                n: int | None = None, **params: Any) -> "Text":
        template = msgid if plural is None or n == 1 else plural
        if plural is not None or n is not None:  # T("{n} boats", n=3) is a plain parameter named n
            params.setdefault("n", n)
        english = _fill(template, params)
        if context == CAPITAL:
            english = english[:1].upper() + english[1:]
        obj = super().__new__(cls, english)
        obj.msgid, obj.params, obj.context, obj.plural, obj.n = msgid, params, context, plural, n
        return obj

    def __reduce__(self):  # deepcopy and pickle (a game's copy holds its refusals and score events)
        return (_rebuild, (self.msgid, self.context, self.plural, self.n, self.params))

    def as_data(self) -> dict[str, Any]:
        """The JSON form (what an event stream carries): ``{"t": template, "p": params, ...}``."""
        out: dict[str, Any] = {"t": self.msgid}
        if self.params:
            out["p"] = {k: (v.as_data() if isinstance(v, Text) else v) for k, v in self.params.items()}
        if self.context is not None:
            out["c"] = self.context
        if self.plural is not None:
            out["pl"], out["n"] = self.plural, self.n
        return out

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> "Text":
        params = {k: (cls.from_data(v) if _is_text_data(v) else v) for k, v in (data.get("p") or {}).items()}
        n = params.pop("n", None)
        return cls(data["t"], context=data.get("c"), plural=data.get("pl"), n=data.get("n", n), **params)


def _rebuild(msgid: str, context: str | None, plural: str | None, n: int | None, params: dict[str, Any]) -> Text:
    params = dict(params)
    n = params.pop("n", n)
    return Text(msgid, context=context, plural=plural, n=n, **params)


def _is_text_data(value: Any) -> bool:
    return isinstance(value, Mapping) and isinstance(value.get("t"), str) and set(value) <= {"t", "p", "c", "pl", "n"}


def T(template: str, /, **params: Any) -> Text:
    """A translatable sentence: ``T("{player} scores {points}", player="Ana", points=3)``."""
    return Text(template, **params)


def Tn(singular: str, plural: str, n: int, /, **params: Any) -> Text:
    """A sentence with a count (``{n}`` in either form): each language picks its plural form."""
    return Text(singular, plural=plural, n=n, **params)


def Tc(context: str, template: str, /, **params: Any) -> Text:
    """A word whose translation depends on where it stands (``Tc("karibik", "town")``)."""
    return Text(template, context=context, **params)


def join(items: "list[Any] | tuple[Any, ...]") -> Text:
    """``["a", "b", "c"]`` -> ``"a, b and c"`` in the reader's language (the items may be Texts).

    >>> join(["Ana", "Ben", "Cleo"]), join(["Ana"]), translate(join(["Ana", "Ben"]), "de")
    ('Ana, Ben and Cleo', 'Ana', 'Ana und Ben')
    """
    items = list(items)
    if not items:
        return T("nothing")
    if len(items) == 1:
        return T("{item}", item=items[0])
    head: Any = items[0]
    for item in items[1:-1]:
        head = T("{first}, {next}", first=head, next=item)
    return T("{first} and {last}", first=head, last=items[-1])


def chain(items: "list[Any] | tuple[Any, ...]", template: str) -> Any:
    """``items`` joined pairwise by ``template`` (``"{first}, {next}"``, ``"{first}; {next}"``), a Text in
    the reader's language (the items may be Texts); ``""`` for none."""
    items = list(items)
    if not items:
        return ""
    head: Any = items[0]
    for item in items[1:]:
        head = T(template, first=head, next=item)
    return head


def comma(items: "list[Any] | tuple[Any, ...]") -> Any:
    """``"a, b, c"``: a list that stays a list in every language (the items may be Texts); ``""``
    for none.

    >>> comma(["red", "blue", T("nothing")])
    'red, blue, nothing'
    """
    return chain(items, N_("{first}, {next}"))


def capital(text: Any) -> Any:
    """``text`` with its first letter a capital in the reader's language (a sentence that begins with a
    reason written to stand inside another sentence).

    >>> capital(T("the game is over")), translate(capital(T("the game is over")), "de"), capital("ok")
    ('The game is over', 'Das Spiel ist vorbei', 'Ok')
    """
    if isinstance(text, Text) or _is_text_data(text):
        return Text("{text}", context=CAPITAL, text=text)
    text = str(text)
    return text[:1].upper() + text[1:]


def renamed(text: Any, names: Mapping[str, Any], keys: "tuple[str, ...]" = ("piece", "other", "ship")) -> Any:
    """``text`` with each parameter among ``keys`` that is a plain name found in ``names`` replaced by its words
    (a camera reader's line names a piece by its enrolment name, ``"red boat"``: ``names`` says it in every
    language); inner Texts too. Anything else is returned as it is.

    >>> line = T("touching another piece: {piece} ({score})?", piece="red boat", score="0.31")
    >>> translate(renamed(line, {"red boat": T("{colour} boat", colour="rouge")}), "en")
    'touching another piece: rouge boat (0.31)?'
    """
    if not isinstance(text, Text):
        return text
    params: dict[str, Any] = {}
    for key, value in text.params.items():
        if isinstance(value, Text):
            value = renamed(value, names, keys)
        elif key in keys and isinstance(value, str) and value in names:
            value = names[value]
        params[key] = value
    n = params.pop("n", None)
    return Text(text.msgid, context=text.context, plural=text.plural, n=n, **params)


def _fill(template: str, params: Mapping[str, Any]) -> str:
    try:
        return template.format(**{k: str(v) for k, v in params.items()})
    except (KeyError, IndexError, ValueError):
        return template


def _fields(template: str) -> set[str]:
    try:
        return {name for _, name, _, _ in string.Formatter().parse(template) if name}
    except ValueError:
        return {"<unbalanced braces>"}


class Catalog:
    """One language's translations: every ``.po`` file of ``tablehub/locale/<lang>/`` merged."""

    def __init__(self, language: str, folder: Path = LOCALE_DIR):
        from babel.messages.pofile import read_po  # only where a translation is asked for

        self.language = language
        self.messages: dict[tuple[str | None, str], str | tuple[str, ...]] = {}
        self.plural = gettext.c2py("n != 1")
        self.files = sorted((folder / language).glob("*.po")) if (folder / language).is_dir() else []
        for path in self.files:
            with path.open("rb") as fh:
                cat = read_po(fh, locale=language, domain=path.stem)
            self.plural = gettext.c2py(cat.plural_expr)
            for msg in cat:
                if not msg.id or msg.fuzzy:
                    continue
                key = msg.id[0] if isinstance(msg.id, (tuple, list)) else msg.id
                value = tuple(msg.string) if isinstance(msg.string, (tuple, list)) else msg.string
                if value and (all(value) if isinstance(value, tuple) else True):
                    self.messages[(msg.context, key)] = value

    def lookup(self, text: Text) -> str | None:
        found = self.messages.get((text.context, text.msgid))
        if found is None:
            return None
        if isinstance(found, tuple):
            return found[min(self.plural(text.n or 0), len(found) - 1)]
        return found


@lru_cache(maxsize=None)
def catalog(language: str) -> Catalog:
    return Catalog(language)


def translate(text: Any, language: str | None) -> str:
    """``text`` (a :class:`Text`, its JSON form, or a plain string, kept as it is) in ``language``."""
    if _is_text_data(text):
        text = Text.from_data(text)
    if not isinstance(text, Text):
        return "" if text is None else str(text)
    language = language if language in LANGUAGES else DEFAULT_LANGUAGE
    params = {k: (translate(v, language) if isinstance(v, Text) or _is_text_data(v) else v)
              for k, v in text.params.items()}
    if text.context == CAPITAL:
        inner = params.get("text", "")
        return inner[:1].upper() + inner[1:]
    if language == DEFAULT_LANGUAGE:
        template = text.msgid if text.plural is None or text.n == 1 else text.plural
        return _fill(template, params)
    template = catalog(language).lookup(text)
    english = text.msgid if text.plural is None else text.plural
    if template is None or not _fields(template) <= _fields(english) | _fields(text.msgid):
        with _lock:
            _missing.add((language, text.context, text.msgid))
        template = text.msgid if text.plural is None or text.n == 1 else text.plural
    return _fill(template, params)


def reason(exc: BaseException) -> Any:
    """What ``exc`` says, as the :class:`Text` it was raised with where it was (``raise VisionError(T(...))``), so
    it renders in the reader's language inside another sentence; else its English ``str``.

    >>> translate(reason(ValueError(T("the game is over"))), "de"), reason(ValueError("plain"))
    ('das Spiel ist vorbei', 'plain')
    """
    text = getattr(exc, "text", None)
    if isinstance(text, Text):
        return text
    if exc.args and isinstance(exc.args[0], Text):
        return exc.args[0]
    return str(exc)


_drawing: ContextVar[str] = ContextVar("tablehub_drawing_language", default=DEFAULT_LANGUAGE)


@contextlib.contextmanager
def drawn_in(language: str):
    """Lines drawn onto a picture inside the block (the camera preview's) are in ``language``: the page's
    camera views set it from the request, as the preview is drawn deep below them (:func:`drawable`)."""
    token = _drawing.set(language if language in LANGUAGES else DEFAULT_LANGUAGE)
    try:
        yield
    finally:
        _drawing.reset(token)


def drawing_language() -> str:
    """The language set by the innermost :func:`drawn_in`, else English."""
    return _drawing.get()


#: letters OpenCV's Hershey fonts cannot draw, as a reader of the language writes them without the accent
_FOLD = {"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ß": "ss", "œ": "oe", "Œ": "OE", "æ": "ae",
         "«": '"', "»": '"', "„": '"', "“": '"', "”": '"', "‘": "'", "’": "'", "–": "-", "—": "-", "…": "...",
         "\u00a0": " ", "\u202f": " ", "×": "x", "·": "-"}


def drawable(text: Any, language: str | None = None) -> str:
    """``text`` in ``language`` (default :func:`drawing_language`) written with the letters ``cv2.putText`` draws
    (ASCII: its fonts have no accents; German umlauts as ae/oe/ue, French accents dropped), for a line drawn onto
    a camera picture.

    >>> drawable(T("board not found (covered, out of view, or too few matches)"), "de")[:30]
    'Brett nicht gefunden (verdeckt'
    >>> drawable("Größe « été »")
    'Groesse " ete "'
    """
    said = translate(text, language or drawing_language())
    out = []
    for ch in said:
        if ch in _FOLD:
            out.append(_FOLD[ch])
        elif ord(ch) < 128:
            out.append(ch)
        else:
            out.append("".join(c for c in unicodedata.normalize("NFKD", ch) if ord(c) < 128) or "?")
    return "".join(out)


def missing() -> set[tuple[str, str | None, str]]:
    """Every (language, context, template) rendered in English for want of a translation so far."""
    with _lock:
        return set(_missing)


def environment_language(environ: Mapping[str, str]) -> str | None:
    """The first of :data:`LANGUAGES` the environment's locale names (gettext's order: ``LANGUAGE``, a
    colon-separated list, then ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else ``None`` (``C``, ``POSIX``, unset,
    or a language the hub does not speak).

    >>> environment_language({"LANG": "de_DE.UTF-8"}), environment_language({"LANG": "C.UTF-8"})
    ('de', None)
    >>> environment_language({"LANGUAGE": "es:fr", "LANG": "de_AT.UTF-8"})
    'fr'
    """
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(var) or ""
        for part in value.split(":") if var == "LANGUAGE" else [value]:
            lang = part.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
            if lang in LANGUAGES:
                return lang
        if value and var != "LANGUAGE":
            return None  # the first locale variable set decides (LANGUAGE only adds a preference list)
    return None


def best_language(accept_language: str | None, default: str = DEFAULT_LANGUAGE) -> str:
    """The first of :data:`LANGUAGES` an ``Accept-Language`` header asks for (``"de-CH,de;q=0.9"``
    -> ``"de"``), else ``default``.

    >>> best_language("fr-CH, fr;q=0.9, en;q=0.8"), best_language("es"), best_language(None)
    ('fr', 'en', 'en')
    """
    if not accept_language:
        return default
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(accept_language.split(",")[:32]):
        tag, _, rest = part.strip().partition(";")
        q = 1.0
        if rest.strip().startswith("q="):
            try:
                q = float(rest.strip()[2:])
            except ValueError:
                q = 0.0
        lang = tag.strip().lower().split("-")[0]
        if lang in LANGUAGES and q > 0:
            ranked.append((-q, i, lang))
    return min(ranked)[2] if ranked else default
