"""The human explanation of a game's scores (``tablehub score``, ``play``, ``demo``)."""
from __future__ import annotations

from .games.base import Game, verdict


def explain(game: Game) -> str:
    """The human explanation of a game's scores: every event, then the totals."""
    lines = [f"{game.title}: {', '.join(game.players)}"]
    if game.provisional:
        lines.append(f"NOTE: provisional component data: {game.provisional}")
    if not game.score_log:
        lines.append("No points were scored.")
    phase = None
    for ev in game.score_log:
        heading = "Final scoring" if ev.kind == "final" else "During play"
        if heading != phase:
            lines.append(f"{heading}:")
            phase = heading
        turn = f"turn {ev.turn:>3}  " if ev.kind != "final" else ""
        lines.append(f"  {turn}{ev}")
    lines.append("Totals:")
    scores = game.scores()
    width = max(len(p) for p in game.players)
    for p in sorted(game.players, key=lambda p: -scores[p]):
        lines.append(f"  {p:<{width}}  {scores[p]:>4}")
    lines.append(f"{verdict(game.winners())}." if game.finished else "(game not finished)")
    return "\n".join(lines)
