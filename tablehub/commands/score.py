"""``tablehub score RECORD.json``: replay a record (or score a position) and explain every point."""
from __future__ import annotations

import json
import sys
from typing import Any

from ..games.base import Game, PositionResult
from ..explain import explain
from ..records import is_position, load_json, parse_record, replay, score_position

NAME = "score"
HELP = "replay a game record (or score a table position) and print the explained final scores"
DESCRIPTION = (HELP + ". The record format is in docs/records.md. An illegal action ends the command with "
               "exit status 2 and one line naming the action's index and the rule it breaks.")


def add_arguments(p) -> None:
    p.add_argument("record", help="record JSON file (game, players, options, actions) or a position file; - for stdin")
    p.add_argument("--json", action="store_true", help="machine-readable output: {\"scores\": {...}, \"events\": [...]}")
    p.add_argument("--no-final", action="store_true", help="stop after the last action, without the final evaluation")


def run(args) -> int:
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
        print(f"NOTE: provisional component data: {result.provisional}")
    for line in result.lines:
        print(line)


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
    print(explain(game))
