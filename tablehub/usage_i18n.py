"""The console's words in the table's language, from the same catalogs as everything else (area ``cli.po``):
argparse's own (a usage error, "the following arguments are required", the help's headings), the commands' help
texts (:func:`localise_help`) and their normal output (:func:`say`, in the language :func:`console_in` sets).

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
import sys
import threading
from contextvars import ContextVar
from typing import IO, Any, Iterator

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


def localise_help(parser: argparse.ArgumentParser, language: str) -> argparse.ArgumentParser:
    """Renders ``parser``'s own words in ``language``, its subcommands' too: the description and epilog, each
    option's and subcommand's ``help`` and each argument group's title and description, where they are
    :class:`~tablehub.i18n.Text` (``help=T("paper size (default A4)")``; a plain string, argparse's own, stays).
    A help's ``%(default)s`` is kept for argparse. English changes nothing."""
    if language == DEFAULT_LANGUAGE:
        return parser

    def say(value: Any) -> Any:
        return translate(value, language) if isinstance(value, Text) else value

    seen: set[int] = set()
    stack = [parser]
    while stack:
        p = stack.pop()
        if id(p) in seen:
            continue
        seen.add(id(p))
        p.description, p.epilog = say(p.description), say(p.epilog)
        for group in p._action_groups + p._mutually_exclusive_groups:
            group.title = say(getattr(group, "title", None))
            group.description = say(getattr(group, "description", None))
        for action in p._actions:
            action.help = say(action.help)
            if isinstance(action, argparse._SubParsersAction):
                for choice in action._choices_actions:
                    choice.help = say(choice.help)
                stack.extend(action.choices.values())
    return parser


_console: ContextVar[str] = ContextVar("tablehub_console_language", default=DEFAULT_LANGUAGE)


@contextlib.contextmanager
def console_in(language: str) -> Iterator[None]:
    """A command's output inside the block (:func:`say`) is in ``language`` (``tablehub.cli.main`` sets the
    table's, as for its errors)."""
    token = _console.set(language)
    try:
        yield
    finally:
        _console.reset(token)


def console_language() -> str:
    """The language :func:`console_in` set, else English."""
    return _console.get()


def said(text: Any) -> str:
    """``text`` (a Text, or a plain string kept as it is) in the console's language."""
    return translate(text, console_language())


def say(text: Any = "", file: IO[str] | None = None, flush: bool = False) -> None:
    """Prints ``text`` in the console's language: a command's progress line or report line."""
    print(said(text), file=sys.stdout if file is None else file, flush=flush)
