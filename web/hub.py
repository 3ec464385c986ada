"""The hub: what the web page, the tracker and the buttons share in one process.

A :class:`Hub` holds the current :class:`~tablehub.session.Session` (start,
resume, end), the turn the camera read and NEXT will log (:meth:`Hub.pending`), the
tracker's choices when it is unsure (:meth:`Hub.offer`, checked against the game as
it will be after the pending turn), the illegal-placement flag (:meth:`Hub.flag`),
status lines and commands for the scoreboard and the camera screens, and an :class:`~web.events.EventBus` that
pushes a fresh snapshot of everything to every phone after each change.
Every method is thread-safe. See docs/web.md for the whole API.

>>> from tablehub.store import Store
>>> hub = Hub(Store(), pin="1234")
>>> hub.snapshot()["game"] is None
True
>>> hub.check_pin("1234"), hub.check_pin("0000")
(True, False)
"""
from __future__ import annotations

import inspect
import json
import logging
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping

from tablehub.access import PinError, PinKeeper
from tablehub.games import GAMES, game_class, new_game
from tablehub.games.base import Action, IllegalAction, ScoreEvent, Setup, TablehubError, no_hints
from tablehub.i18n import N_, T, Text, chain
from tablehub.lan import mdns_name
from tablehub.session import Session, Stale
from tablehub.store import NotSaved, Store

from .board_hints import render_hints
from .events import EventBus
from .present import action_code, describe_action, game_snapshot

log = logging.getLogger(__name__)

#: What the page's camera screens ask the preview for; the callable draws the matching overlay.
PREVIEW_OVERLAYS = ("live", "calibration", "enrolment")

#: Screens a command button can be put on (the scoreboard's commands act on the game, e.g. "Commit now").
COMMAND_SCREENS = ("scoreboard", "calibration", "enrolment")

#: The command the pending card's "Commit now" button runs (the tracker registers it: NEXT's commit).
COMMIT_COMMAND = "commit"

CameraPreview = Callable[[str], "bytes | None"]



def _same_text(a: Any, b: Any) -> bool:
    """The same words in every language: the same English and, for Texts, the same template and parameters."""
    if str(a) != str(b):
        return False
    if isinstance(a, Text) or isinstance(b, Text):
        return isinstance(a, Text) and isinstance(b, Text) and a.as_data() == b.as_data()
    return True

class HubError(TablehubError):
    """A request the hub cannot honour now (no game running, stale suggestion...)."""


class UnknownPiece(HubError):
    """:meth:`Hub.hints` was asked about a tile or piece the game's set does not have."""


#: the version token of a table with no game on it
NO_GAME = "none"

#: what the owner can answer to a notice on the page
NOTICE_CHOICES = ("continue", "new", "dismiss")


@dataclass(frozen=True)
class Candidate:
    """One action the tracker suggests, with its confidence and whether the rules allow it."""

    action: dict[str, Any]
    confidence: float
    label: str
    refused: str | None = None  # the rules' reason when the action is not legal now

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "confidence": self.confidence, "label": self.label,
                "code": action_code(self.action), "refused": self.refused}


@dataclass(frozen=True)
class Command:
    """A button on the calibration or enrolment screen; ``run()`` returns a line to show."""

    name: str
    label: str
    screen: str
    run: Callable[[], "str | None"]
    help: str = ""
    games: "tuple[str, ...] | None" = None  # the games it is shown for (None: every game)


@dataclass
class _History:
    """Per logged action: who played it and the score events it caused (rebuilt by replay)."""

    entries: list[dict[str, Any]] = field(default_factory=list)
    next_actor: str | None = None
    finals: list[dict[str, Any]] = field(default_factory=list)


class Hub:
    """Shared state of one table; the web app is built around one (``web.create_app(hub)``).

    ``store``: the SQLite store of games. ``pin``: the table PIN that unlocks changes
    (kept by ``access``; random 8 digits when both are ``None``). ``camera_preview``: ``callable(overlay) -> JPEG bytes or
    None`` where ``overlay`` is one of :data:`PREVIEW_OVERLAYS`; ``None`` when there is no camera.
    ``hostnames``: names to put in the join QR code besides the IP address (default: this
    machine's mDNS name, ``<hostname>.local``).
    """

    def __init__(self, store: Store, pin: str | None = None, camera_preview: CameraPreview | None = None, *,
                 hostnames: Iterable[str] | None = None, port: int | None = None,
                 secret_key: bytes | None = None, max_streams: int = 110, keep_events: int = 200,
                 access: PinKeeper | None = None):
        try:
            self.access = access if access is not None else PinKeeper(pin=pin)
            if access is not None and pin is not None:
                access.set_pin(pin)
        except PinError as exc:
            raise HubError(exc.text) from None
        self.access.on_change = self._pin_entry_changed
        self.store = store
        self.camera_preview = camera_preview
        self.hostnames = tuple(hostnames) if hostnames is not None else (mdns_name(),)
        self.port = port
        self.secret_key = secret_key or self.access.secret_key
        self.bus = EventBus(keep=keep_events, max_streams=max_streams)
        self._lock = threading.RLock()
        self._session: Session | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._history = _History()
        self._offer: dict[str, Any] | None = None
        self._offer_seq = 0
        self._flag: dict[str, Any] | None = None
        self._pending: dict[str, Any] | None = None
        self._ghost: dict[str, list[dict[str, Any]]] = {"tiles": [], "figures": []}
        self._status: dict[str, str] = {}
        self._commands: dict[str, Command] = {}
        self._hints: dict[tuple[Any, ...], dict[str, Any]] = {}  # per game version and piece (:meth:`hints`)
        self._hints_lock = threading.Lock()  # the cache's own: taken under the session's lock, never the hub's
        #: told of each session the hub shows (``None``: none), e.g. the venue publisher; must return at once
        self.session_watchers: list[Callable[[Session | None], None]] = []
        self._version = 0
        self._snapshot: dict[str, Any] | None = None
        self._notices: list[dict[str, Any]] = self._saved_notices()
        self.publish()
        self.access.status()  # a lockout kept from before a restart shows on the page at once

    # ------------------------------------------------------------------ PIN

    @property
    def pin(self) -> str:
        """The table PIN (kept by :attr:`access`, which the ``tablehub pin`` command may change)."""
        return self.access.pin

    @pin.setter
    def pin(self, value: str) -> None:
        try:
            self.access.set_pin(value)
        except PinError as exc:
            raise HubError(exc.text) from None

    def check_pin(self, pin: Any) -> bool:
        """Whether ``pin`` is the table PIN (no brake: phones go through :meth:`PinKeeper.guess`)."""
        return self.access.matches(pin)

    def lift_pin_lockout(self, by: str = "the owner") -> bool:
        """End a PIN lockout (the NEXT+CHECK hold on the table calls this); True if one was on."""
        return self.access.lift(by)

    def _pin_entry_changed(self) -> None:
        locked = self.access.status()["locked"]
        self.set_status("pin", T("PIN entry is locked after too many wrong PINs: hold NEXT and CHECK together "
                                 "for 5 s on the table (or run `tablehub pin --lift` on the hub) to lift it")
                        if locked else None)

    # ------------------------------------------------------------------ the game

    @property
    def session(self) -> Session | None:
        with self._lock:
            return self._session

    def start(self, setup: Setup, version: str | None = None) -> Session:
        """Start a new game (the running one stays saved and can be resumed)."""
        with self._lock:  # two phones starting at once: the second one sees the first one's game
            self._check_version(version)
            session = self._saving(lambda: Session.create(self.store, setup, current=True))
            self._attach(session, remember=False)
        log.info("started game %d (%s, %s)", session.game_id, setup.game, ", ".join(setup.players))
        return session

    def resume(self, game_id: int | None = None, version: str | None = None) -> Session:
        """Reopen a saved game (the latest unfinished one by default). A game whose log stops
        replaying opens up to its last good action, with a notice asking the owner what to do."""
        with self._lock:
            self._check_version(version)
            if game_id is not None:
                self.store.game(game_id)  # one-line error for an unknown id
            session = Session.resume(self.store, game_id, tolerant=True)
            if session is None:
                raise HubError(T("there is no unfinished game to resume"))
            self._attach(session)
        log.info("resumed game %d", session.game_id)
        return session

    def restore(self) -> Session | None:
        """At start-up: put back the game that was on the table when the hub stopped (the latest
        unfinished one for databases from before the table was remembered); ``None`` when the
        table was empty. A game that cannot be opened at all leaves the table empty, with a notice."""
        game_id = self.store.current_game()
        if game_id is None:
            return None
        try:
            session = Session(self.store, game_id, tolerant=True)
        except TablehubError as exc:
            log.error("%s", exc)
            self.notice(f"game-{game_id}", "error", T("Game {id} cannot be opened", id=game_id),
                        T("{why}. It is kept in the database as it is: 'tablehub games export {id}' writes "
                          "it to a file. Start a new game below.", why=exc.text, id=game_id), choices=("dismiss",))
            return None
        self._attach(session, remember=False)
        return session

    def end(self, version: str | None = None) -> list[ScoreEvent]:
        """Finish the running game: final scoring; it stays on the page until another starts."""
        session, expect = self._require_version(version)
        if session.game.finished:
            raise HubError(T("the game has already ended"))
        return self._saving(lambda: session.finish(expect=expect))

    def reopen(self, version: str | None = None) -> None:
        """Undo :meth:`end`: the game continues where it stopped."""
        session, expect = self._require_version(version)
        if not session.game.finished:
            raise HubError(T("the game has not ended"))
        self._saving(lambda: session.reopen(expect=expect))

    def close(self, version: str | None = None) -> None:
        """Stop showing a game (nothing is lost: it can be resumed)."""
        with self._lock:
            self._check_version(version)
            self._saving(lambda: self.store.set_current_game(None))
            self._detach()
            self._history = _History()
            for watch in self.session_watchers:
                watch(None)
        self.publish()

    # ------------------------------------------------------------------ versions, failed writes, notices

    def game_version(self) -> str:
        """The token a page sends back with a change: the game on the table and its revision."""
        session = self.session
        return NO_GAME if session is None else f"{session.game_id}.{session.revision}"

    def _check_version(self, version: str | None) -> int | None:
        """Refuse a change made on another table state than the one now (``None``: no check).
        Returns the revision the session must still be at."""
        if version is None:
            return None
        session = self.session
        if not isinstance(version, str):
            raise HubError(T("version must be the game_version string of the page's state"))
        game_id, _, revision = version.partition(".")
        now = NO_GAME if session is None else str(session.game_id)
        if game_id != now or (session is not None and not revision.isdigit()):
            raise Stale(T("the game moved on (this page saw {seen}, the table has {now}): look again; nothing changed",
                          seen=_version_words(version), now=_version_words(self.game_version())))
        return int(revision) if session is not None else None

    def _require_version(self, version: str | None) -> tuple[Session, int | None]:
        session = self._require()
        return session, self._check_version(version)

    def _saving(self, change: Callable[[], Any]) -> Any:
        """Run a change; a write the database refused is shown on the page (until one succeeds)."""
        try:
            result = change()
        except NotSaved as exc:
            log.error("%s", exc)
            self.set_status("saving", T("The last change was not saved ({why}); nothing changed. "
                                        "Free the disk or stop the other program, then try again.", why=exc.reason))
            raise
        self.set_status("saving", None)
        return result

    def notice(self, key: str, level: str, title: str, text: str, kept: str | None = None,
               choices: Iterable[str] = ("dismiss",)) -> None:
        """A banner on every phone until the owner answers it (``choices`` from :data:`NOTICE_CHOICES`)."""
        item = {"id": key, "level": level, "title": title, "text": text, "kept": kept,
                "choices": [c for c in choices if c in NOTICE_CHOICES], "at": time.time()}
        with self._lock:
            self._notices = [n for n in self._notices if n["id"] != key] + [item]
            self._keep_notices()
        self.publish()

    def notices(self) -> list[dict[str, Any]]:
        with self._lock:
            return [dict(n) for n in self._notices]

    def answer(self, key: str, choice: str, version: str | None = None) -> str:
        """The owner's answer to notice ``key``: ``"continue"`` (from the last good action: the
        log's bad tail is set aside, never deleted), ``"new"`` (the game is put away as it is; the
        set-up page starts another) or ``"dismiss"``. Returns a line for the page."""
        with self._lock:
            item = next((n for n in self._notices if n["id"] == key), None)
        if item is None:
            raise HubError(T("no notice {key} (it was answered already)", key=repr(key)))
        if choice not in item["choices"]:
            raise HubError(T("notice {key} takes {choices}, not {choice}", key=repr(key),
                                    choices=chain(item["choices"], N_("{first} or {next}")), choice=repr(choice)))
        message: str = T("dismissed")
        if choice == "continue":
            session, _ = self._require_version(version)
            if session.broken is None:
                raise HubError(T("the game on the table replays: nothing to set aside"))
            n = self._saving(session.repair)
            message = T("game {id} continues from action {seq}; {count} action(s) set aside in the log (marked undone, "
                        "with a note)", id=session.game_id, seq=session.rows[-1].seq if session.rows else 0, count=n)
            with self._lock:
                self._rebuild_history()
        elif choice == "new":
            self.close(version)
            message = T("the game is put away as it is; start a new one below")
        with self._lock:
            self._notices = [n for n in self._notices if n["id"] != key]
            self._keep_notices()
        log.info("notice %s: %s", key, message)
        self.publish()
        return message

    def _saved_notices(self) -> list[dict[str, Any]]:
        try:
            text = self.store.get("notices")
            items = json.loads(text) if text else []
        except (TablehubError, ValueError, sqlite3.Error):
            return []
        return [n for n in items if isinstance(n, dict) and "id" in n] if isinstance(items, list) else []

    def _keep_notices(self) -> None:
        """Keep the notices in the database, so a restart before the owner looked shows them again."""
        try:
            self.store.put("notices", json.dumps(self._notices))
        except (TablehubError, sqlite3.Error) as exc:
            log.warning("the notices are not saved: %s", exc)

    def shutdown(self) -> None:
        """End every event stream (call before stopping the web server)."""
        self.bus.close()

    def _attach(self, session: Session, remember: bool = True) -> None:
        if remember:  # the table's game survives a restart (NotSaved: nothing changed)
            self._saving(lambda: self.store.set_current_game(session.game_id))
        with self._lock:
            self._detach()
            self._session = session
            self._unsubscribe = session.subscribe(self._on_session_event)
            self._offer = None
            self._flag = None
            self._drop_pending()
            self._rebuild_history()
            for watch in self.session_watchers:
                watch(session)
            if session.broken is not None:
                b = session.broken
                self.notice(f"broken-{session.game_id}", "error",
                            T("Game {id} stops replaying at action {seq}", id=session.game_id, seq=b.seq),
                            T("{why}. The page shows the game up to action {last} ({good} action(s)); "
                              "nothing is deleted and nothing changes until you choose: continue from there "
                              "({bad} later action(s) are set aside in the log, marked undone with a note), "
                              "or put this game away and start a new one.", why=b.reason, last=b.seq - 1,
                              good=b.good, bad=b.bad), choices=("continue", "new"))
        self.publish()

    def _detach(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        self._unsubscribe = None
        self._session = None
        self._offer = None
        self._flag = None
        self._drop_pending()

    def _require(self) -> Session:
        session = self.session
        if session is None:
            raise HubError(T("no game is running: start or resume one on the set-up page"))
        return session

    # ------------------------------------------------------------------ moves

    def submit(self, action: Mapping[str, Any] | Action, source: str = "phone",
               version: str | None = None) -> list[ScoreEvent]:
        """Validate, apply and log one action (TablehubError with the reason if refused).

        ``version``: the :meth:`game_version` the page saw (a change made on an older state is
        refused as :class:`~tablehub.session.Stale`). A write the database refuses raises
        :class:`~tablehub.store.NotSaved`. A successful move clears the tracker's pending
        suggestions: they described the table before it.
        """
        session, expect = self._require_version(version)
        return self._saving(lambda: session.submit(action, source=source, expect=expect))

    def check(self, action: Mapping[str, Any] | Action) -> str | None:
        """Why ``action`` would be refused now, or ``None``."""
        return self._require().check(action)

    def undo(self, scope: str = "turn", version: str | None = None) -> list[dict[str, Any]]:
        """Undo the last ``"turn"`` (every action of it) or the last ``"action"``."""
        if scope not in ("turn", "action"):
            raise HubError(T("undo scope must be 'turn' or 'action', got {scope}", scope=repr(scope)))
        session, expect = self._require_version(version)
        if scope == "turn":
            return self._saving(lambda: session.undo_turn(expect=expect))
        return [self._saving(lambda: session.undo_action(expect=expect))]

    def legal_actions(self, prefix: Mapping[str, Any], limit: int = 60, budget_s: float = 0.5,
                      ) -> list[dict[str, Any]]:
        """Legal actions now whose fields match ``prefix`` (a partial action dict), for the entry form.

        Bounded by ``limit`` results and ``budget_s`` seconds: engines enumerate lazily.
        """
        session = self._require()
        out: list[dict[str, Any]] = []
        deadline = time.monotonic() + budget_s
        with session.lock:
            game = session.game
            if game.finished:
                return []
            try:
                for act in game.legal_actions(**_accepted_kwargs(game.legal_actions, prefix)):
                    d = act.to_dict()
                    if all(d.get(k) == v for k, v in prefix.items()):
                        out.append(d)
                        if len(out) >= limit:
                            break
                    if time.monotonic() > deadline:
                        break
            except NotImplementedError:
                return []
        return out

    # ------------------------------------------------------------------ where can it go?

    def hints(self, piece: str | None = None, lang: str | None = None) -> dict[str, Any]:
        """Where the piece being placed may go now (``game.hints``), with its picture for the board
        (``svg``: a layer drawn over ``/api/board.svg``, its words in ``lang``, the reader's language).
        ``piece``: the tile or piece asked about; ``None``: the one the camera read (the pending
        ``place_tile``/``place_piece``), if any. Computed once per game version, piece and language
        (``cached`` says whether this answer was), with the time it took (``ms``). An unknown piece
        raises :class:`UnknownPiece`; :class:`HubError` when no game is running."""
        session = self._require()
        source = "asked" if piece is not None else None
        if piece is None:
            piece = _pending_piece(self.pending_actions())
            source = "pending" if piece is not None else None
        with session.lock:
            key = (session.game_id, session.revision, session.game.finished, piece, lang or "en")
            with self._hints_lock:
                cached = self._hints.get(key)
                # the same places read in another language: only the picture's words are drawn again
                other = next((v for k, v in self._hints.items() if k[:4] == key[:4]), None)
            if cached is not None:
                return {**cached, "source": source, "cached": True}
            started = time.perf_counter()
            game = session.game
            if other is not None:
                hints = {k: v for k, v in other.items() if k not in ("game_version", "count", "svg", "ms")}
            else:
                try:
                    hints = no_hints(game.view().get("kind", "none"), "the game is over", piece) if game.finished \
                        else game.hints(piece)
                except IllegalAction as exc:
                    if source != "pending":
                        raise UnknownPiece(f"piece: {exc}") from None
                    hints = no_hints(game.view().get("kind", "none"), f"the camera's read: {exc}", piece)
            svg = render_hints(hints, lang=lang, game=game.name)
            ms = round((time.perf_counter() - started) * 1000, 2)
            version = f"{session.game_id}.{session.revision}"
        out = {**hints, "game_version": version, "count": len(hints["places"]), "svg": svg, "ms": ms}
        with self._hints_lock:
            if any(k[:2] != key[:2] for k in self._hints):
                self._hints.clear()  # the game moved on: older answers are never asked again
            if len(self._hints) < 64:
                self._hints[key] = out
        return {**out, "source": source, "cached": False}

    # ------------------------------------------------------------------ the tracker's side

    def pending(self, actions: Iterable[Mapping[str, Any] | Action], note: str = "") -> None:
        """Show the turn the camera read and NEXT will log (``actions`` in order), with ``note``.

        The page shows it as a "Pending: ..." card with a "Commit now" button and draws its
        tile as a ghost on the board. Offers are checked against the game as it will be after
        these actions, and accepting a choice logs them first. An empty list clears it;
        the same actions and note again publish nothing (the tracker may repeat itself).
        """
        parsed = [_action_dict(a) for a in actions]
        if not parsed:
            self.clear_pending()
            return
        session = self._require()
        with self._lock:
            old = self._pending
            if old is not None and old["note"] == note and [a["action"] for a in old["actions"]] == parsed:
                return
            with session.lock:
                refused, ghost, labels = _after_pending(session.game, parsed)
            self._pending = {"actions": [{"action": a, "label": label, "code": action_code(a, session.game)}
                                         for a, label in zip(parsed, labels)],
                             "note": _words(note), "refused": refused, "at": time.time()}
            self._ghost = ghost
            self._recheck_offer(session)
        self.publish()

    def clear_pending(self) -> None:
        """Nothing is pending any more (logged, or the table changed)."""
        with self._lock:
            had = self._pending is not None
            self._drop_pending()
            if had and self._session is not None:
                self._recheck_offer(self._session)
        if had:
            self.publish()

    def pending_actions(self) -> list[dict[str, Any]]:
        """The pending actions, in order (empty when nothing is pending)."""
        with self._lock:
            return [dict(a["action"]) for a in self._pending["actions"]] if self._pending else []

    def pending_ghost(self) -> dict[str, list[dict[str, Any]]]:
        """The tiles and figures the pending actions would add to ``game.view()`` (for the board)."""
        with self._lock:
            return {k: [dict(x) for x in v] for k, v in self._ghost.items()}

    def commit_pending(self, version: str | None = None) -> str:
        """"Commit now": log the pending turn the way NEXT does (the :data:`COMMIT_COMMAND` the
        tracker registered); with no tracker, the pending actions are logged as one batch."""
        if version is not None:
            self._require_version(version)
        with self._lock:
            pending = self._pending
            command = self._commands.get(COMMIT_COMMAND)
        if pending is None:
            raise HubError(T("nothing is pending: the camera has not read a new move"))
        if command is not None:
            try:
                return self.run_command(COMMIT_COMMAND)
            except HubError:
                raise
            except TablehubError as exc:
                raise HubError(exc.text) from exc
        self._submit_all([(a["action"], "camera") for a in pending["actions"]])
        return "logged: " + "; ".join(a["label"] for a in pending["actions"])

    def _drop_pending(self) -> None:
        self._pending = None
        self._ghost = {"tiles": [], "figures": []}

    def offer(self, candidates: Iterable[Any], note: str = "") -> int:
        """Show the tracker's top choices on the page; returns the offer id.

        Each candidate is an action dict with an optional ``"confidence"`` key, a mapping
        ``{"action": {...}, "confidence": 0.7}``, an ``(action, confidence)`` pair, or an
        :class:`~tablehub.games.base.Action`. The rules check each one against the game as
        it will be after the pending actions (:meth:`pending`); they are shown best first
        (at most 5). An empty list withdraws the offer.
        """
        session = self._require()
        items = [_split_candidate(item) for item in candidates]
        with self._lock:
            with session.lock:
                refusals, labels = self._refusals_after_pending(session, [a for a, _ in items])
            parsed = [Candidate(a, c, label, r) for (a, c), r, label in zip(items, refusals, labels)]
            parsed.sort(key=lambda c: (c.refused is not None, -c.confidence))
            self._offer_seq += 1
            self._offer = {"id": self._offer_seq, "note": note, "at": time.time(),
                           "candidates": [c.to_dict() for c in parsed[:5]]} if parsed else None
            offer_id = self._offer_seq
        self.publish()
        return offer_id

    def _refusals_after_pending(self, session: Session,
                                actions: list[dict[str, Any]]) -> tuple[list[str | None], list[str]]:
        """Why each of ``actions`` would be refused after the pending actions, and its label in
        the game's words there (hub and session locked)."""
        prefix = [a["action"] for a in self._pending["actions"]] if self._pending else []
        if not prefix:
            return [session.check(a) for a in actions], [describe_action(a, session.game) for a in actions]
        work = session.game.copy()
        refused = _apply_all(work, prefix)
        labels = [describe_action(a, work) for a in actions]
        if refused is not None:
            return [f"the pending turn cannot be logged: {refused}"] * len(actions), labels
        return [_refusal_now(work, a) for a in actions], labels

    def _recheck_offer(self, session: Session) -> None:
        """The pending turn changed: check the offered choices again (same order, same id)."""
        offer = self._offer
        if offer is None:
            return
        with session.lock:
            refusals, _ = self._refusals_after_pending(session, [c["action"] for c in offer["candidates"]])
        offer["candidates"] = [dict(c, refused=r) for c, r in zip(offer["candidates"], refusals)]

    def clear_offer(self) -> None:
        with self._lock:
            had = self._offer is not None
            self._offer = None
        if had:
            self.publish()

    def accept(self, offer_id: int, index: int, source: str = "phone", version: str | None = None
               ) -> list[ScoreEvent]:
        """Play candidate ``index`` of offer ``offer_id`` (refused if the offer has changed).

        When a turn is pending, its actions are logged first (source ``camera``), then the
        choice, all or nothing: if the rules refuse any of them, nothing is logged.
        """
        with self._lock:
            offer = self._offer
            if offer is None or offer["id"] != offer_id:
                raise HubError(T("that suggestion is no longer current; look at the page again"))
            if not (0 <= index < len(offer["candidates"])):
                raise HubError(T("suggestion {number} does not exist (there are {count})", number=index + 1, count=len(offer["candidates"])))
            action = offer["candidates"][index]["action"]
            batch = [(a["action"], "camera") for a in self._pending["actions"]] if self._pending else []
            return self._submit_all(batch + [(action, source)], version)

    def _submit_all(self, batch: list[tuple[dict[str, Any], str]], version: str | None = None) -> list[ScoreEvent]:
        """Log every action of ``batch`` or none, as one change: checked in order on a copy of the
        game first (the first refusal named), then committed in one transaction."""
        session, expect = self._require_version(version)
        with self._lock, session.lock:
            if len(batch) > 1:
                work = session.game.copy()
                for action, _ in batch:
                    reason = _refusal_now(work, action)
                    if reason is None:
                        work.apply(work.parse_action(action))
                    else:
                        raise HubError(T("{action} refused, nothing logged: {why}", action=describe_action(action, work), why=reason))
            return self._saving(lambda: session.submit_many(batch, expect=expect))

    def flag(self, reason: str, x: int | None = None, y: int | None = None) -> None:
        """Mark an illegal placement seen on the table; it stays until :meth:`clear_flag`."""
        with self._lock:
            old = self._flag
            reason = _words(reason)
            if old is not None and (old["reason"], old["x"], old["y"]) == (reason, x, y):
                return  # the same illegal placement seen again
            self._flag = {"reason": reason, "x": x, "y": y, "at": time.time(), "where": self._where(x, y)}
        self.publish()

    def _where(self, x: int | None, y: int | None) -> str:
        """The flagged cell in the game's words ("east of the start tile"), "" without a cell."""
        session = self._session
        if session is None or x is None or y is None:
            return ""
        with session.lock:
            try:
                return session.game.cell_words((int(x), int(y)))
            except Exception:  # words are a courtesy; the flag itself must show
                return T("at ({x}, {y})", x=x, y=y)

    def clear_flag(self) -> None:
        with self._lock:
            had = self._flag is not None
            self._flag = None
        if had:
            self.publish()

    def set_status(self, topic: str, text: str | None) -> None:
        """A status line for the page (``"camera"``, ``"calibration"``, ``"enrolment"``...);
        ``None`` removes it."""
        with self._lock:
            old = self._status.get(topic)
            if (old is None and text is None) or (old is not None and text is not None and _same_text(old, text)):
                return  # unchanged: the tracker repeats itself every quiet frame
            if text is None:
                self._status.pop(topic, None)
            else:
                self._status[topic] = text  # a Text stays one: each phone reads it in its own language
        self.publish()

    def register_command(self, name: str, label: str, run: Callable[[], "str | None"],
                         screen: str = "calibration", help: str = "", games: "tuple[str, ...] | None" = None) -> None:
        """Add a button to a screen (``"scoreboard"``, ``"calibration"`` or ``"enrolment"``); PIN needed
        to press it. The :data:`COMMIT_COMMAND` is the pending card's "Commit now" button. ``games``: the
        games on the table it is shown for (the page hides it for others; ``None``: every game)."""
        if screen not in COMMAND_SCREENS:
            raise HubError(T("command screen must be one of {screens}, got {screen}", screens=", ".join(COMMAND_SCREENS),
                                    screen=repr(screen)))
        with self._lock:
            self._commands[name] = Command(name, label, screen, run, help, None if games is None else tuple(games))
        self.publish()

    def run_command(self, name: str) -> str:
        with self._lock:
            command = self._commands.get(name)
        if command is None:
            raise HubError(T("no command {name} (known: {known})", name=repr(name),
                                    known=", ".join(sorted(self._commands)) or T("none")))
        result = command.run()
        if isinstance(result, str) and result:
            return result  # a Text stays one: each phone reads it in its own language
        return str(result) if result else T("{command}: done", command=command.label)

    def preview(self, overlay: str = "live") -> bytes | None:
        """A JPEG from the camera preview, or ``None`` (no camera, or no frame yet)."""
        if overlay not in PREVIEW_OVERLAYS:
            raise HubError(T("overlay must be one of {overlays}, got {overlay}", overlays=", ".join(PREVIEW_OVERLAYS),
                                    overlay=repr(overlay)))
        if self.camera_preview is None:
            return None
        return self.camera_preview(overlay)

    # ------------------------------------------------------------------ state for the page

    def _on_session_event(self, kind: str, payload: dict[str, Any]) -> None:
        with self._lock:
            session = self._session
            if session is None:
                return
            with session.lock:
                hist = self._history
                if kind == "action" and len(hist.entries) + 1 == len(session.rows) and not hist.finals:
                    row = session.rows[-1]
                    game = session.game
                    turn_before = hist.entries[-1]["turn"] if hist.entries else 0
                    actor = _actor(row.action, game, hist.next_actor, turn_before)
                    hist.entries.append(_entry(row.seq, row.action, row.source, row.turn, actor,
                                               payload.get("events", []), game))
                    hist.next_actor = game.current_player
                else:
                    self._rebuild_history()
            if kind == "action":
                self._offer = None
            if self._pending is not None:  # still the table's next move after this change?
                with session.lock:
                    still, ghost, _ = _after_pending(session.game, [a["action"] for a in self._pending["actions"]])
                if still is not None:
                    self._drop_pending()
                else:
                    self._ghost = ghost
        self.publish()

    def _rebuild_history(self) -> None:
        """Replay the log once to learn who played each action and what it scored."""
        session = self._session
        hist = _History()
        if session is not None:
            with session.lock:
                game = new_game(session.setup)
                for row in session.rows:
                    before, turn_before = game.current_player, game.turn
                    events = game.apply(game.parse_action(row.action))
                    actor = _actor(row.action, game, before, turn_before)
                    hist.entries.append(_entry(row.seq, row.action, row.source, row.turn, actor,
                                               [e.to_dict() for e in events], game))
                hist.next_actor = game.current_player
                if session.game.finished:
                    hist.finals = [e.to_dict() for e in session.game.score_log[len(game.score_log):]]
        self._history = hist

    def publish(self) -> None:
        """Compute a fresh snapshot and push it to every event stream."""
        with self._lock:
            self._version += 1
            snap = self._build_snapshot()
            self._snapshot = snap
            self.bus.publish("state", snap)

    def snapshot(self) -> dict[str, Any]:
        """Everything the page shows, as JSON-able data (see docs/web.md)."""
        with self._lock:
            assert self._snapshot is not None
            return self._snapshot

    @property
    def version(self) -> int:
        with self._lock:
            return self._version

    def _build_snapshot(self) -> dict[str, Any]:
        session = self._session
        game = None
        if session is not None:
            with session.lock:
                ended = session.ended_at
                game = game_snapshot(session, self._history.entries, self._history.finals, ended)
        return {
            "version": self._version,
            "game_version": NO_GAME if session is None else f"{session.game_id}.{session.revision}",
            "notices": [dict(n) for n in self._notices],
            "game": game,
            "offer": self._offer,
            "flag": self._flag,
            "pending": self._pending,
            "status": dict(self._status),
            "commands": [{"name": c.name, "label": c.label, "screen": c.screen, "help": c.help,
                          **({} if c.games is None else {"games": list(c.games)})}
                         for c in self._commands.values()],
            "camera": self.camera_preview is not None,
        }

    # ------------------------------------------------------------------ set-up data

    def games_available(self) -> list[dict[str, Any]]:
        """Every registered game with its player range and options (or why it cannot be played)."""
        out = []
        for name in GAMES:
            try:
                cls = game_class(name)
            except TablehubError as exc:
                out.append({"name": name, "title": name, "available": False, "why": str(exc)})
                continue
            out.append({
                "name": cls.name, "title": cls.title or cls.name, "available": True,
                "min_players": cls.min_players, "max_players": cls.max_players,
                "provisional": cls.provisional,
                "options": [_option_dict(o) for o in cls.OPTIONS],
            })
        return out

    def saved_games(self) -> list[dict[str, Any]]:
        current = self.session.game_id if self.session else None
        rows = []
        for row in reversed(self.store.games()):
            rows.append({"id": row.id, "game": row.game, "players": list(row.setup.players),
                         "created": row.created, "ended": row.ended, "current": row.id == current,
                         "actions": len(self.store.actions(row.id))})
        return rows


def _version_words(version: str) -> str:
    if version == NO_GAME:
        return T("no game")
    game_id, _, revision = version.partition(".")
    return T("game {id} at change {change}", id=game_id, change=revision) if revision else T("game {id}", id=game_id)


def _actor(action: Mapping[str, Any], game: Any, before: str | None, turn_before: int) -> str | None:
    """Who played an action: its ``player`` field if it names one; else the player of the
    turn it started (when it started one), else whoever was to play before it."""
    named = action.get("player")
    if isinstance(named, str) and named in game.players:
        return named
    if game.turn != turn_before and not game.finished:
        return game.current_player
    return before


def _entry(seq: int, action: dict[str, Any], source: str, turn: int, actor: str | None,
           events: list[dict[str, Any]], game: Any) -> dict[str, Any]:
    """A history line; ``game`` is the game just after the action (for its label)."""
    return {"seq": seq, "action": action, "label": describe_action(action, game),
            "code": action_code(action, game), "source": source,
            "turn": turn, "player": actor, "events": events}


def _words(text: Any) -> str:
    """A reason or note as the page shows it: a Text stays one (rendered in each reader's language)."""
    return text if isinstance(text, str) else str(text)


def _pending_piece(actions: list[dict[str, Any]]) -> str | None:
    """The tile or piece of the pending turn's laying action (the camera's read), if any."""
    for a in actions:
        if a.get("type") == "place_tile" and isinstance(a.get("tile"), str):
            return a["tile"]
        if a.get("type") == "place_piece" and isinstance(a.get("piece"), str):
            return a["piece"]
    return None


def _accepted_kwargs(fn: Callable[..., Any], prefix: Mapping[str, Any]) -> dict[str, Any]:
    """The prefix fields ``fn`` takes as keyword arguments (``legal_actions(tile=...)`` in tile games)."""
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return {}
    return {k: v for k, v in prefix.items() if k in params and k != "self"}


def _option_dict(o: Any) -> dict[str, Any]:
    kind = getattr(o.kind, "__name__", "object")
    return {"name": o.name, "default": o.default, "help": o.help,
            "choices": list(o.choices) if o.choices is not None else None, "kind": kind}


def _split_candidate(item: Any) -> tuple[dict[str, Any], float]:
    if isinstance(item, Action):
        return item.to_dict(), 1.0
    if isinstance(item, tuple) and len(item) == 2:
        action, confidence = item
        if isinstance(action, Action):
            action = action.to_dict()
        return dict(action), float(confidence)
    if isinstance(item, Mapping):
        if "action" in item:
            action = item["action"]
            if isinstance(action, Action):
                action = action.to_dict()
            return dict(action), float(item.get("confidence", 1.0))
        d = dict(item)
        confidence = float(d.pop("confidence", 1.0))
        return d, confidence
    raise HubError(f"a suggestion must be an action dict, (action, confidence) or an Action, got {item!r}")


def _action_dict(action: Mapping[str, Any] | Action) -> dict[str, Any]:
    if isinstance(action, Action):
        return action.to_dict()
    if isinstance(action, Mapping):
        return dict(action)
    raise HubError(f"a pending action must be an action dict or an Action, got {action!r}")


def _refusal_now(game: Any, action: Mapping[str, Any]) -> str | None:
    """Why ``game`` would refuse ``action`` now (nothing applied), or ``None``."""
    try:
        return game.validate(game.parse_action(action))
    except TablehubError as exc:
        return exc.text  # a Text stays one: the page renders it in the reader's language


def _apply_all(game: Any, actions: list[dict[str, Any]], labels: list[str] | None = None) -> str | None:
    """Apply ``actions`` in order to ``game`` (a copy); the first refusal, named, or ``None``.
    ``labels`` collects each action's label in the game's words as it is applied."""
    for action in actions:
        label = describe_action(action, game)
        if labels is not None:
            labels.append(label)
        try:
            game.apply(game.parse_action(action))
        except TablehubError as exc:
            if labels is not None:
                labels.extend(describe_action(a) for a in actions[len(labels):])
            return f"{label}: {exc}"
    return None


def _after_pending(game: Any, actions: list[dict[str, Any]]
                   ) -> tuple[str | None, dict[str, list[dict[str, Any]]], list[str]]:
    """Try the pending ``actions`` on a copy of ``game``: (the first refusal or ``None``, the tiles
    and figures they add to the view, for the board's ghost, and each action's label)."""
    work = game.copy()
    labels: list[str] = []
    refused = _apply_all(work, actions, labels)
    before, after = game.view(), work.view()
    if not isinstance(after, Mapping) or after.get("kind") != "tiles":
        return refused, {"tiles": [], "figures": []}, labels
    cells = {(t["x"], t["y"]) for t in before.get("tiles") or []}
    figures = [_figure_key(f) for f in before.get("figures") or []]
    tiles = [dict(t) for t in after.get("tiles") or [] if (t["x"], t["y"]) not in cells]
    new_figures = []
    for f in after.get("figures") or []:
        key = _figure_key(f)
        if key in figures:
            figures.remove(key)
        else:
            new_figures.append(dict(f))
    return refused, {"tiles": tiles, "figures": new_figures}, labels


def _figure_key(f: Mapping[str, Any]) -> tuple[Any, ...]:
    return tuple(sorted((k, repr(v)) for k, v in f.items()))
