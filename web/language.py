"""The reader's language on the page: each phone reads English, French or German.

The language of a request is the phone's choice (the ``lang`` cookie the page's switch sets,
``/language/<code>``; no PIN needed) or else the best of its ``Accept-Language`` header
(:func:`tablehub.i18n.best_language`). Two phones at one table may read two languages.

Everything rendered for a request goes through :mod:`tablehub.i18n`:

- the templates call ``_("...")`` / ``ngettext`` (jinja2's i18n extension, with callables that
  read the request's language), catalogs ``tablehub/locale/<lang>/page.po``;
- the page's scripts get the reader's dictionary (:func:`script_dictionary`, JSON in base.html)
  and call ``t("...", {name: value})``;
- every :class:`~tablehub.i18n.Text` in a JSON answer (score reasons, refusals, describe()
  sentences, notes, errors) is rendered in the reader's language by :class:`LocalJSON`; plain
  strings pass through as they are.

>>> localize({"a": [T("the game is over"), "plain"], "n": 3}, "fr")
{'a': ['la partie est terminée', 'plain'], 'n': 3}
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from flask import g, has_request_context, request
from flask.json.provider import DefaultJSONProvider

from tablehub import i18n
from tablehub.i18n import LANGUAGES, Text, T, Tn, translate

#: the cookie that keeps a phone's choice (a year; it says nothing about the player)
COOKIE = "lang"
COOKIE_AGE = 365 * 24 * 3600
#: the page's own catalog area (tablehub/locale/<lang>/page.po)
PAGE_AREA = "page"

__all__ = ["COOKIE", "LocalJSON", "current", "install", "localize", "script_dictionary", "T", "Tn"]


def current() -> str:
    """The language of this request: the phone's choice, else its Accept-Language, else English."""
    if not has_request_context():
        return i18n.DEFAULT_LANGUAGE
    lang = getattr(g, "tablehub_lang", None)
    if lang is None:
        chosen = request.cookies.get(COOKIE, "")
        lang = chosen if chosen in LANGUAGES else i18n.best_language(request.headers.get("Accept-Language"))
        g.tablehub_lang = lang
    return lang


def localize(value: Any, lang: str) -> Any:
    """``value`` with every :class:`Text` in it (dict values, list items) rendered in ``lang``."""
    if isinstance(value, Text):
        return translate(value, lang)
    if isinstance(value, str) or value is None or isinstance(value, (int, float, bool)):
        return value
    if isinstance(value, dict):
        return {k: localize(v, lang) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [localize(v, lang) for v in value]
    return value


def has_text(value: Any) -> bool:
    """Whether ``value`` holds a :class:`Text` anywhere (English needs no second rendering)."""
    if isinstance(value, Text):
        return True
    if isinstance(value, dict):
        return any(has_text(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(has_text(v) for v in value)
    return False


class LocalJSON(DefaultJSONProvider):
    """Flask's JSON with every Text rendered in the request's language (jsonify, ``|tojson``)."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        lang = current()
        if lang != i18n.DEFAULT_LANGUAGE:
            obj = localize(obj, lang)
        return super().dumps(obj, **kwargs)


def gettext(message: str, **params: Any) -> str:
    """The templates' ``_()``: ``message`` in the request's language, ``{placeholders}`` filled."""
    return translate(Text(message, **params), current())


def ngettext(singular: str, plural: str, n: int, **params: Any) -> str:
    return translate(Tn(singular, plural, n, **params), current())


def pgettext(context: str, message: str, **params: Any) -> str:
    return translate(Text(message, context=context, **params), current())


def install(app: Any) -> None:
    """The i18n extension and the JSON provider on ``app``; ``/language/<code>`` is in views.pages."""
    app.json_provider_class = LocalJSON
    app.json = LocalJSON(app)
    app.jinja_env.add_extension("jinja2.ext.i18n")
    # newstyle: _("{player} wins", player=p) fills placeholders the Python way, autoescaped
    app.jinja_env.install_gettext_callables(gettext, ngettext, newstyle=False, pgettext=pgettext)
    app.jinja_env.filters["tr"] = lambda value: translate(value, current())  # a Text in a template
    app.jinja_env.globals.update(
        lang=current, language_names=i18n.LANGUAGE_NAMES, languages=LANGUAGES,
        page_dictionary=lambda: script_dictionary(current()))


@lru_cache(maxsize=None)
def script_dictionary(lang: str) -> dict[str, Any]:
    """page.po for the scripts: ``{template: translation}``, plurals as ``[one, other]`` (English: ``{}``)."""
    if lang not in LANGUAGES or lang == i18n.DEFAULT_LANGUAGE:
        return {}
    from babel.messages.pofile import read_po

    path = i18n.LOCALE_DIR / lang / f"{PAGE_AREA}.po"
    if not path.is_file():
        return {}
    with path.open("rb") as fh:
        cat = read_po(fh, locale=lang, domain=PAGE_AREA)
    out: dict[str, Any] = {}
    for msg in cat:
        if not msg.id or msg.fuzzy or msg.context:
            continue
        if isinstance(msg.id, (tuple, list)):
            if all(msg.string):
                out[msg.id[0]] = list(msg.string)
        elif msg.string:
            out[msg.id] = msg.string
    return out
