"""``tablehub score RECORD.json``: replay a record (or score a position) and explain every point.

``tablehub score --photo IMG --game G``: a finished tile-game table scored from one photo (docs/vision.md
"Scoring a finished table from a photo")."""
from __future__ import annotations

import json
import sys
from typing import Any

from ..games.base import Game, PositionResult, TablehubError
from ..i18n import T, Text
from ..usage_i18n import console_language, said, say
from ..explain import explain
from ..records import is_position, load_json, parse_record, replay, score_position

NAME = "score"
HELP = T("replay a game record (or score a table position) and print the explained final scores")
DESCRIPTION = T("{help}. The record format is in docs/records.md. An illegal action ends the command with "
               "exit status 2 and one line naming the action's index and the rule it breaks. With --photo: a "
               "finished Neues Land or Südsee table read from one photo (the enrolled set: --refs), scored by the "
               "final evaluation, with every cell the camera was unsure of and what it would change; a finished Sunda "
               "to Sahul, Tahiti or Karibik table read by that game's camera into a position and scored by the "
               "engine's position scorer, with what the photo cannot show given (--tribes, --vaults, --money).",
               help=HELP)


class ScoreError(TablehubError):
    pass


def add_arguments(p) -> None:
    p.add_argument("record", nargs="?", help=T("record JSON file (game, players, options, actions) or a position file; "
                   "- for stdin"))
    photo = p.add_argument_group(T("a finished table from a photo (docs/vision.md)"))
    photo.add_argument("--photo", metavar="IMG", help=T("photo of the finished table (PNG or JPEG), in place of RECORD"))
    photo.add_argument("--game", help=T("with --photo: the game, neuesland, suedsee, sunda, tahiti or karibik"))
    photo.add_argument("--mat", help=T("mat file from 'tablehub markers' (default: mat.json in --refs, else the default "
                       "mat)"))
    photo.add_argument("--refs", help=T("reference folder from 'tablehub enroll' (default: refs/GAME)"))
    photo.add_argument("--colours", help=T("player colour file (default: colours.json in --refs)"))
    photo.add_argument("--lens", metavar="FILE", help=T("lens file (default: the configured camera's, else lens.json "
                       "in --refs; 'none': no lens)"))
    photo.add_argument("--config", default="", help=T("settings file, for the camera's lens file"))
    photo.add_argument("--players", metavar="NAMES", help=T("player names by figure colour, e.g. red=Ana,blue=Ben "
                       "(default: the colours, capitalised: Red, Blue)"))
    photo.add_argument("--before", metavar="POINTS", help=T("Neues Land: the score track before the final "
                       "evaluation, e.g. red=34,blue=20 (the photo does not show it; default: 0)"))
    photo.add_argument("--holdings", metavar="FILE", help=T("Südsee: ships, goods and boat tokens in front of the "
                       "players (JSON; docs/vision.md; default: none)"))
    photo.add_argument("--tribes", metavar="TRIBES", help=T("Sunda: the owners of tribes bottom to top, by node as the "
                       "output names them, e.g. '1,0=Ana,Ben,Ana;3,-1=Ben' (the camera asks most heights)"))
    photo.add_argument("--levels", metavar="LEVELS", help=T("Sunda: the levels played, comma-separated (default "
                       "tribes,resources)"))
    photo.add_argument("--vaults", metavar="DOLLARS", help=T("Tahiti: the dollars in each vault, e.g. red=12,yellow=7 "
                       "(the photo does not show them; default: 0)"))
    photo.add_argument("--money", metavar="DOUBLOONS", help=T("Karibik: each player's doubloons, e.g. red=34000,"
                       "yellow=21000 (coins are not on the board)"))
    p.add_argument("--json", action="store_true", help=T("machine-readable output (JSON: the scores and the events)"))
    p.add_argument("--no-final", action="store_true", help=T("stop after the last action, without the final evaluation"))


def run(args) -> int:
    if args.photo and args.record:
        raise ScoreError(T("give a record (or position) file or --photo IMG, not both"))
    if args.photo:
        return _score_photo(args)
    if not args.record:
        raise ScoreError(T("give a record or position file (docs/records.md), or --photo IMG --game G"))
    photo_only = [f"--{k}" for k in ("game", "mat", "refs", "colours", "lens", "players", "before", "holdings",
                                     "tribes", "levels", "vaults", "money") if getattr(args, k)]
    if photo_only:
        raise ScoreError(T("{options}: only with --photo (a record or position names its own game)", options=", ".join(photo_only)))
    data, source = load_json(args.record)
    if is_position(data):
        result = score_position(data, source)
        _print_position(result, data, args.json)
        return 0
    record = parse_record(data, source)
    game = replay(record, finish=not args.no_final)
    _print_game(game, args.json)
    return 0


def _print_position(result: PositionResult, data: dict[str, Any], as_json: bool) -> None:
    if as_json:
        json.dump({"game": data["game"], "scores": result.scores, "winners": result.winners(),
                   "events": [e.to_dict() for e in result.events], "explanation": result.lines,
                   "provisional": result.provisional}, sys.stdout, indent=2, ensure_ascii=False)
        print()
        return
    if result.provisional:
        say(T("NOTE: provisional component data: {note}", note=result.provisional))
    events = {str(e): e for e in result.events}  # an engine's line that is an event's English: said again
    for line in result.lines:
        event = None if isinstance(line, Text) else events.get(line)
        say(line if event is None else _event_line(event))


def _event_line(event: Any) -> str:
    """A score event as ``str(event)`` writes it (``Ana +3: reason``), its reason in the console's language."""
    sign = "+" if event.points >= 0 else ""
    return f"{event.player} {sign}{event.points}: {said(event.reason)}"


def _print_game(game: Game, as_json: bool) -> None:
    scores = game.scores()
    if as_json:
        json.dump({"game": game.name, "players": list(game.players), "scores": scores,
                   "winners": game.winners(), "finished": game.finished,
                   "events": [e.to_dict() for e in game.score_log],
                   "resources": game.resources(), "provisional": game.provisional},
                  sys.stdout, indent=2, ensure_ascii=False)
        print()
        return
    print(explain(game, console_language()))


def _score_photo(args) -> int:
    from ..config import load_config
    from ..photo import load_frame, load_recognizer, refs_folder, score_photo
    from ..photoscore import load_holdings, parse_names
    from ..setup_files import reading_lens

    from ..photo import POSITION_GAMES, position_module

    if not args.game:
        raise ScoreError(T("--photo: name the game with --game neuesland, suedsee, sunda, tahiti or karibik"))
    if args.no_final:
        raise ScoreError(T("--no-final: a photo is scored by the final evaluation only"))
    if args.game in POSITION_GAMES:
        return _print_photo(position_module(args.game).score_args(args, reading_lens(load_config(args.config),
                                                                                    args.lens)), args)
    other = [f"--{k}" for k in ("tribes", "levels", "vaults", "money") if getattr(args, k)]
    if other:
        raise ScoreError(T("{options}: not for {game} (--tribes and --levels are Sunda's, --vaults Tahiti's, --money "
                           "Karibik's)", options=", ".join(other), game=args.game))
    names = parse_names(args.players)
    holdings = load_holdings(args.holdings, args.before, names)
    lens = reading_lens(load_config(args.config), args.lens)
    refs = refs_folder(args.game, args.refs)
    frame = load_frame(args.photo)
    rec = load_recognizer(args.game, refs, mat=args.mat, colours=args.colours, lens=lens)
    result = score_photo(rec, frame, args.game, str(args.photo), names, holdings)
    return _print_photo(result, args)


def _print_photo(result: Any, args) -> int:
    if args.json:
        json.dump({"photo": str(args.photo), **result.to_dict()}, sys.stdout, indent=2, ensure_ascii=False)
        print()
    else:
        print("\n".join(result.lines(console_language())))
    return 0
