"""The human explanation of a game's scores (``tablehub score``, ``play``, ``demo``), in English, French
or German (``language``: the score reasons are :class:`~tablehub.i18n.Text`, rendered in it)."""
from __future__ import annotations

from .games.base import Game, verdict
from .i18n import T, translate


def explain(game: Game, language: str = "en") -> str:
    """The human explanation of a game's scores: every event, then the totals."""
    def say(text: object) -> str:
        return translate(text, language)

    lines = [say(T("{game}: {players}", game=game.title, players=", ".join(game.players)))]
    if game.provisional:
        lines.append(say(T("NOTE: provisional component data: {note}", note=game.provisional)))
    if not game.score_log:
        lines.append(say(T("No points were scored.")))
    phase = None
    for ev in game.score_log:
        heading = T("Final scoring:") if ev.kind == "final" else T("During play:")
        if heading != phase:
            lines.append(say(heading))
            phase = heading
        turn = say(T("turn {turn}", turn=format(ev.turn, ">3"))) + "  " if ev.kind != "final" else ""
        sign = "+" if ev.points >= 0 else ""
        lines.append(f"  {turn}{ev.player} {sign}{ev.points}: {say(ev.reason)}")
    lines.append(say(T("Totals:")))
    scores = game.scores()
    width = max(len(p) for p in game.players)
    for p in sorted(game.players, key=lambda p: -scores[p]):
        lines.append(f"  {p:<{width}}  {scores[p]:>4}")
    lines.append(say(T("{verdict}.", verdict=verdict(game.winners()))) if game.finished
                 else say(T("(game not finished)")))
    return "\n".join(lines)
