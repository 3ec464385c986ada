"""argparse's own words (a usage error, "the following arguments are required", the help's headings) in the
table's language, from the same catalogs as everything else (area ``cli.po``).

Python's argparse writes its messages through ``gettext`` (``_("usage: ")``, ``ngettext(...)``, looked up in the
``messages`` domain's compiled ``.mo`` files). The hub has no compile step and reads its ``.po`` files itself, so
:func:`argparse_language` binds argparse's two gettext functions to :func:`tablehub.i18n.translate` for one parse.
The templates are argparse's (Python 3.11, the Pi's), ``%``-style placeholders and all; one argparse does not
know renders as Python wrote it. A command's own option checks (``type=`` functions) raise
:func:`bad_value`, which reads the language the parse is in.

>>> import argparse
>>> p = argparse.ArgumentParser(prog="tablehub x")
>>> _ = p.add_argument("photo")
>>> with argparse_language("de"):
...     p.format_usage()
'Aufruf: tablehub x [-h] photo\\n'
"""
from __future__ import annotations

import argparse
import contextlib
import threading
from typing import Any, Iterator

from .i18n import DEFAULT_LANGUAGE, N_, Text, Tn, translate

#: argparse's (3.11) messages a person at the console can read; the others are a programmer's mistakes
MESSAGES = (
    N_("usage: "),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
    N_("can't open '%(filename)s': %(error)s"),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("unrecognized arguments: %s"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("unexpected option string: %s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("%(prog)s: error: %(message)s\n"),
)
#: argparse's counted message: (singular, plural)
PLURALS = (Tn("expected %s argument", "expected %s arguments", 2),)

_local = threading.local()


def parse_language() -> str:
    """The language of the parse under way (:func:`argparse_language`), else English."""
    return getattr(_local, "language", DEFAULT_LANGUAGE)


def bad_value(text: Any) -> argparse.ArgumentTypeError:
    """An option value a ``type=`` function refuses, with ``text`` (a Text) in the parse's language."""
    return argparse.ArgumentTypeError(translate(text, parse_language()))


def _gettext(language: str):
    known = set(MESSAGES)

    def gettext(message: str) -> str:
        if language == DEFAULT_LANGUAGE or message not in known:
            return message
        return translate(Text(message), language)

    def ngettext(singular: str, plural: str, n: int) -> str:
        for p in PLURALS:
            if p.msgid == singular and p.plural == plural and language != DEFAULT_LANGUAGE:
                return translate(Text(singular, plural=plural, n=n), language)
        return singular if n == 1 else plural

    return gettext, ngettext


@contextlib.contextmanager
def argparse_language(language: str) -> Iterator[None]:
    """argparse speaks ``language`` inside the block (its messages are looked up at the moment they are written)."""
    saved = (argparse._, argparse.ngettext, getattr(_local, "language", None))
    argparse._, argparse.ngettext = _gettext(language)
    _local.language = language
    try:
        yield
    finally:
        argparse._, argparse.ngettext, previous = saved
        if previous is None:
            del _local.language
        else:
            _local.language = previous
