"""The table of ``deckpress studio``: a game played one step at a time, seats being people (hot
seat) or bots.

A :class:`Table` holds one game of a rules engine (``deckpress.rules``).  After every step it
advances by itself: chance events (deals, draws, reshuffles) are sampled and bots move until a
person must act or the game is over.  A web page then shows the observation of the person seat
due (:meth:`Table.seat_to_show`, :meth:`Table.observation`: only what that seat sees), lists its
legal moves (:meth:`Table.moves`) and posts one back (:meth:`Table.play` by action number, or
:meth:`Table.attempt` with the move typed as the log writes it).  With several person seats the page
shows a hand-over screen between them (:meth:`Table.handover`).

There is one log format: the game is written down with :func:`deckpress.rules.core.log.record`,
chance outcomes included, so the log the table gives (:meth:`Table.log_yaml`) replays with
``deckpress replay`` to the same scores, and a log (recorded at a real table, simulated, or
downloaded from here) can be continued (``Table(..., log=log)``) or stepped through
(:meth:`Table.trace`).

Seeded and deterministic: each chance draw and each bot move takes its generator from the seed and
the number of actions played so far (:func:`deckpress.rules.core.simulate.game_rng` ``(seed, n)``),
so the same seats, seed and moves give the same game and an identical log, and a game continued
from its log goes on exactly as it would have without the pause.

Who acts where several seats may (choices made here):

* a simultaneous step (:data:`~deckpress.rules.core.game.SIMULTANEOUS`): the bots due submit at
  :meth:`Table.advance` (in seat order); each person seat due then submits in turn (hot seat), the
  lowest seat shown first; the state keeps submissions hidden until the last one arrives;
* a step where any of several seats may act (:data:`~deckpress.rules.core.game.ANY`, 50 Missions'
  crazy mode): a person seat among them may act, and the bots act only when no person seat can
  (the seat that acts is then drawn with the table's generator, as ``play_game`` does).  A person
  who can act is never overtaken by a bot: the page has no clock.

Nothing here is web code; nothing imports the command line (:mod:`deckpress.generator.cli`).
"""
from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping

from deckpress.generator.content.errors import ContentErrors
from deckpress.generator.content.safetext import quoted
from deckpress.rules.core.bots import Bot, bot_names, make_bot
from deckpress.rules.core.errors import IllegalAction, LogError, ParameterError, Reason
from deckpress.rules.core.game import ANY, CHANCE, SIMULTANEOUS, Game, State
from deckpress.rules.core.log import GameLog, format_event, record, to_yaml
from deckpress.rules.core.recorder import Recorder
from deckpress.rules.core.registry import game_class, load
from deckpress.rules.core.replay import UNSEEN, replay
from deckpress.rules.core.simulate import game_rng

if TYPE_CHECKING:
    from deckpress.generator.content import GameContent

#: A seat played by a person at the table (any other seat entry is a bot's name).
PERSON = "person"
#: A typed move that names its seat first (``seat 2 play: Goa``), as the recorder reads it.
_SEAT_FIRST = re.compile(r"^\s*seat\s+\d+", re.IGNORECASE)


class TableError(Exception):
    """A table that cannot be set up or go on: unknown game, bot or parameter, seats that do not fit
    the game, invalid content, a log that does not replay, a game past its length bound.  The
    message is one or a few lines in plain words (no traceback text)."""


@dataclass(frozen=True)
class Move:
    """One legal move of a seat, for a button on the page.

    ``action`` is the engine's action number (post it to :meth:`Table.play`); ``label`` the event as
    the log writes it without the seat (``mission: Forest``, ``play: Goa``; :meth:`Table.attempt`
    accepts it back); ``cards`` the names the move involves (the event's text values: card, mission
    or door names, ``done``/``none`` included; numbers such as Maybe Missions' vote numbers and slots
    are not), for showing images."""

    action: int
    label: str
    cards: list[str]


class Table:
    """A game at a table: seats that are people or bots, played one step at a time.

    Args:
        game_id: a game with a rules engine (``deckpress.rules.core.registry.known_games()``).
        seats: one entry per seat, :data:`PERSON` or a bot name of ``bot_names(game_id)``; their
            number is the game's ``players`` (parameters that say otherwise must agree).
        content: the game's content (a variant's merged content, a user's game folder's), or None
            for the shipped game.
        ruleset, params: a named bundle of parameter values and explicit ones
            (:func:`deckpress.rules.core.params.resolve`), as ``deckpress simulate`` takes them.
        seed: the seed of the table's chance draws and bot moves (``game_rng(seed, actions so far)``).
        log: a :class:`~deckpress.rules.core.log.GameLog` to continue: its events are replayed
            first, its ruleset and parameters make the game (``params`` given beside it must agree)
            and its seed, when it has one, is the table's.

    After construction the table has advanced: chance events and bot moves are applied until a
    person must act or the game is over (a table of bots only is played to the end).

    Attributes:
        game: the :class:`~deckpress.rules.core.game.Game` (content and effective parameters).
        state: the live :class:`~deckpress.rules.core.game.State` (read it; change it only through
            the table).
        seats: the seat entries, as given.
        seed: the table's seed.

    Raises:
        TableError: unknown game, bot or parameter; seats that do not fit the game; invalid
            content; a log of another game or one that does not replay (replay's reason); a game
            that passes its length bound while the bots play.
    """

    def __init__(self, game_id: str, seats: list[str], content: "GameContent | None" = None, ruleset: str | None = None,
                 params: Mapping[str, Any] | None = None, seed: int = 1, log: GameLog | None = None):
        seats = [str(s) for s in seats]
        if not seats:
            raise TableError("a table needs at least one seat: a person or a bot for each")
        if log is not None and log.game != game_id:
            raise TableError(f"the log is a game of '{log.game}', not of '{game_id}'")
        try:
            game_class(game_id)  # an unknown game is said before its bots are looked up
        except ParameterError as exc:
            raise TableError(str(exc)) from None
        known = bot_names(game_id)
        unknown = [s for s in seats if s != PERSON and s not in known]
        if unknown:
            raise TableError(f"unknown bot '{unknown[0]}' for {game_id}: a seat is '{PERSON}' or one of the bots {', '.join(known)}")
        given = dict(params or {})
        if log is None:
            if "players" in given and given["players"] != len(seats):
                raise TableError(f"{len(seats)} seats were given for players={given['players']}: give one seat for each player")
            self.game = _make_game(game_id, content, ruleset, {**given, "players": len(seats)})
            state = self.game.new_state()
        else:
            self.game, state = _replayed(log, content)
            differ = [k for k, v in given.items() if self.game.params.get(k) != v]
            if differ:
                raise TableError(f"the log was played with {differ[0]}={quoted(self.game.params.get(differ[0]))}, not {quoted(given[differ[0]])}")
            if len(seats) != self.game.players:
                raise TableError(f"the log's game has {self.game.players} seats, but {len(seats)} were given")
            if log.seed is not None:
                seed = log.seed
        self.state: State = state
        self.seats: list[str] = seats
        self.seed: int = seed
        self._bots: dict[int, Bot] = {s: make_bot(game_id, name) for s, name in enumerate(seats) if name != PERSON}
        self._reader = _LineReader(state)
        self._lock = threading.RLock()
        self.advance()

    # -- who is due ------------------------------------------------------------------------------
    def persons_due(self) -> list[int]:
        """The person seats that may act now, sorted; ``[]`` while nobody is (the game is over)."""
        return sorted(s for s in self.state.acting_seats() if self.seats[s] == PERSON)

    def seat_to_show(self) -> int | None:
        """The person seat the hot-seat screen shows: the first person seat due, or None when no
        person is due (the game is over)."""
        due = self.persons_due()
        return due[0] if due else None

    def handover(self, last_person: int | None) -> bool:
        """True when the page must first show a hand-over screen (hiding the previous hand): more
        than one seat is a person's, and the seat to show is a person other than ``last_person``,
        the person seat that acted last on this page.  ``last_person`` None (nobody has acted yet:
        no hand was shown before) gives False: the first person due simply sits down."""
        shown = self.seat_to_show()
        return (last_person is not None and shown is not None and shown != last_person
                and self.seats.count(PERSON) > 1)

    def finished(self) -> bool:
        """True when the game is over."""
        return self.state.is_terminal()

    # -- what a seat sees and may do ---------------------------------------------------------------
    def observation(self, seat: int) -> dict:
        """What ``seat`` sees now, as plain data with names (``state.view(seat).to_dict()``): its own
        hand, what lies face up; never another seat's hidden cards.

        Raises:
            IllegalAction: ``turn.no-such-seat`` for a seat outside ``0..players-1``.
        """
        self._check_seat(seat)
        with self._lock:
            return self.state.view(seat).to_dict()

    def moves(self, seat: int) -> list[Move]:
        """The legal moves of person seat ``seat`` now, in the engine's order; ``[]`` when it is not
        due, when it is a bot's seat, or once the game is over.

        Raises:
            IllegalAction: ``turn.no-such-seat`` for a seat outside ``0..players-1``.
        """
        self._check_seat(seat)
        if self.seats[seat] != PERSON:
            return []
        out = []
        with self._lock:
            state = self.state
            for action in state.legal_actions(seat):
                event = state.action_to_event(action, seat)
                out.append(Move(action, _label(event), [v for k, v in event.items() if k not in ("seat", "chance") and isinstance(v, str)]))
        return out

    # -- acting --------------------------------------------------------------------------------------
    def play(self, seat: int, action: int) -> None:
        """Person seat ``seat`` makes move ``action`` (a :attr:`Move.action`), checked by the rules
        (:meth:`State.apply`); then the table advances (:meth:`advance`).

        Raises:
            IllegalAction: the engine's reason and message (not this seat's turn, card not in hand,
                game over, ...), or ``turn.not-yours`` for a bot's seat; the game is unchanged.
            TableError: the bots passed the game's length bound afterwards.
        """
        with self._lock:
            self._check_seat(seat)
            if self.seats[seat] != PERSON:
                raise IllegalAction(Reason.NOT_YOUR_TURN, f"seat {seat} is played by the {self.seats[seat]} bot")
            self.state.apply(action, seat)
            self.advance()

    def attempt(self, seat: int, text: str) -> None:
        """Person seat ``seat`` makes the move ``text``, typed (or sent by clicking a card) as the log
        writes it: ``play: Goa``, ``mission: Forest``, ``play: green compass 3, slot: 2``, or a name
        alone when the seat has one kind of move (``Goa``); a leading ``seat N`` and the log's braces
        are accepted.  The line is read as ``deckpress record`` reads one
        (:meth:`deckpress.rules.core.recorder.Recorder.parse`, for the seat ``seat``), turned into an
        action with ``state.event_to_action`` and applied with ``state.apply``; then the table
        advances.

        Raises:
            IllegalAction: a line that is not a move (``log.malformed-event``, in plain words), a
                name the game does not know (``log.unknown-name``), a move for another seat or a
                chance event (``turn.not-yours``, ``turn.seat-due``), or the engine's own reason for a
                move the rules refuse now; the game is unchanged.
            TableError: the bots passed the game's length bound afterwards.
        """
        with self._lock:
            self._check_seat(seat)
            state = self.state
            if state.is_terminal():
                raise IllegalAction(Reason.GAME_OVER, "the game is over: no more moves")
            line = str(text).strip()
            if len(line) >= 2 and line[0] == "{" and line[-1] == "}":
                line = line[1:-1].strip()
            if line and not _SEAT_FIRST.match(line):
                line = f"seat {seat} {line}"
            event = self._reader.parse(line)
            if event.get("seat") != seat:
                raise IllegalAction(Reason.NOT_YOUR_TURN, f"the move {format_event(event)} is seat {event.get('seat')}'s, "
                                                          f"and this is seat {seat}: {state.due()}")
            if state.said_aloud(event):
                raise IllegalAction(Reason.WRONG_PHASE, f"{format_event(event)} is said aloud at the table and changes nothing: "
                                                        f"make a move ({state.due()})")
            who, action = state.event_to_action(event)
            if who == CHANCE:
                raise IllegalAction(Reason.SEAT_DUE, f"the table deals and draws by itself: {state.due()}")
            self.play(who, action)

    def advance(self) -> int:
        """Apply chance events (sampled with the table's generator) and bot moves until a person
        seat must act or the game is over; returns the number of actions applied (each
        simultaneous submission counted).

        Raises:
            TableError: the game went past its bound (``game.max_length()`` steps, a simultaneous
                step counted once, as the simulation driver counts them): rules that never end.
        """
        with self._lock:
            state, seats = self.state, self.seats
            limit = self.game.max_length()
            applied = steps = 0
            while True:
                cur = state.current
                if cur == CHANCE:
                    state.apply_trusted(state.sample_chance(self._step_rng().random()), CHANCE)
                    applied += 1
                elif cur >= 0:
                    if seats[cur] == PERSON:
                        return applied
                    self._bot_move(cur)
                    applied += 1
                elif cur == SIMULTANEOUS:
                    due = state.acting_seats()
                    for seat in due:
                        if seats[seat] != PERSON:
                            self._bot_move(seat)
                            applied += 1
                    if any(seats[s] == PERSON for s in due):
                        return applied
                elif cur == ANY:
                    due = state.acting_seats()
                    if any(seats[s] == PERSON for s in due):
                        return applied
                    rng = self._step_rng()  # who acts first, then that bot's move, from one generator
                    self._bot_move(due[int(rng.random() * len(due))], rng)
                    applied += 1
                else:
                    return applied
                steps += 1
                if steps > limit:
                    raise TableError(f"the game passed its bound of {limit} actions while the bots played "
                                     f"({self.game.info.name}, {dict(self.game.params)}): its rules may never end")

    # -- the record ----------------------------------------------------------------------------------
    def events(self) -> list[dict]:
        """The log's events so far, as :func:`~deckpress.rules.core.log.record` writes them (chance
        outcomes included, single-card events of one kind merged into ``cards`` lists)."""
        with self._lock:
            return record(self.game, self.state.history, self.seed).events

    def log_yaml(self) -> str:
        """The whole game so far as a YAML log (``docs/game-logs.md``): header with the effective
        parameters, seed, content hash and engine, the events, and the result once the game is
        over.  ``deckpress replay`` checks it to the same scores; ``Table(..., log=...)`` continues it."""
        with self._lock:
            return to_yaml(record(self.game, self.state.history, self.seed))

    def result(self) -> dict | None:
        """None until the game is over; then ``{"returns": [...], "winners": [...], <the game's
        outcome() items, such as "level">, "text": "..."}``: what ``deckpress replay --format json``
        reports as ``scores``/``winners``/``outcome``, and its text summary on one line (``seat 0: 12
        (winner), seat 1: 7``; ``team (every seat): 5 missions completed (the team won); level:
        Silver``).  The shaping lives in the command line (``generator/cli/simulate.py``), which nothing
        imports: it is built here the same way from ``returns()``, ``winners()`` and ``outcome()``."""
        state = self.state
        if not state.is_terminal():
            return None
        scores, winners, outcome = state.returns(), state.winners(), state.outcome()
        said = ", ".join(f"{name}: {value}" for name, value in outcome.items())
        info = self.game.info
        if info.cooperative:
            text = (f"team (every seat): {scores[0]:g} {info.result_name} "
                    f"({'the team won' if winners else 'the team did not win'})" + (f"; {said}" if said else ""))
        else:
            marks = [" (winner)" if s in winners and len(winners) == 1 else " (shared best)" if s in winners else ""
                     for s in range(len(scores))]
            text = (f"{said}; " if said else "") + ", ".join(f"seat {s}: {x:g}{marks[s]}" for s, x in enumerate(scores))
        return {"returns": scores, "winners": winners, **outcome, "text": text}

    def recent(self, n: int = 12, viewer: int | None = None) -> list[str]:
        """The last ``n`` events, oldest first, each in its log form (``{seat: 0, play: Goa}``), as
        seat ``viewer`` may know them: the card of a chance event addressed to another seat (a deal
        or draw to another hand) is written ``"?"`` (the log's mark for a card not seen), and so is
        what another seat submitted in the simultaneous step still going on (a vote or door not yet
        revealed).  ``viewer`` None hides both for every seat.  Conservative: a chance card dealt
        face up to a seat (Maybe Missions' public identities) is hidden from the others here too.
        Consecutive single-card events of one kind are merged as in the log (``cards: [...]``)."""
        with self._lock:
            trail = _trail(self.game, self.state.history)
            simultaneous = self.state.current == SIMULTANEOUS
        pending = 0
        if simultaneous:
            while pending < len(trail) and trail[-1 - pending][1]:
                pending += 1
        shown: list[dict[str, Any]] = []
        for i, (event, _) in enumerate(trail):
            if event.get("seat") != viewer:
                if i >= len(trail) - pending:  # submitted, not revealed yet
                    event = {k: (v if k == "seat" else UNSEEN) for k, v in event.items()}
                elif "chance" in event and "seat" in event:  # dealt or drawn to another seat
                    event = {k: (UNSEEN if k == "card" else v) for k, v in event.items()}
            _merge(shown, event)
        return [format_event(e) for e in shown[-n:]] if n > 0 else []

    # -- stepping through a recorded game ---------------------------------------------------------------
    @staticmethod
    def trace(log: GameLog, content: "GameContent | None" = None) -> list[dict]:
        """Step through a recorded game: one entry per event of ``log`` (in order), after it was
        applied: ``{"index": N (1-based, as replay numbers events), "event": its log form, "seat":
        the acting seat (None for a chance event), "chance": bool, "scores": every seat's returns()
        so far, "tally": the game's counts so far, "gained": what the event won, in the words of
        ``deckpress replay --trace`` (``won: Forest +5``, ``reached: bronze``)}``.

        Raises:
            TableError: the log names no known game, has parameters the game refuses, invalid
                content, or an event that does not replay (its number, reason and message).
        """
        steps: list[dict] = []
        last: dict[str, int] = {}

        def on_event(index: int, event: Any, state: State) -> None:
            nonlocal last
            tally = state.tally()
            gained = [name + (f" x{k - last.get(name, 0)}" if k - last.get(name, 0) > 1 else "")
                      for name, k in tally.items() if k > last.get(name, 0) and ":" in name
                      and not name.startswith(("displayed:", "level:"))]
            chance = isinstance(event, dict) and "chance" in event
            steps.append({"index": index, "event": format_event(event), "seat": None if chance else event.get("seat"),
                          "chance": chance, "scores": state.returns(), "tally": dict(tally), "gained": gained})
            last = tally

        _replay_checked(log, content, on_event)
        return steps

    # -- helpers -----------------------------------------------------------------------------------------
    def _bot_move(self, seat: int, rng=None) -> None:
        """The bot of ``seat`` chooses from its legal actions, seeing its view only (as ``play_game``),
        with ``rng`` (default: the next step's generator)."""
        state, bot = self.state, self._bots[seat]
        legal = state.legal_actions(seat)
        view = state.view(seat) if getattr(bot, "uses_view", True) else None
        state.apply_trusted(bot.act(view, legal, rng or self._step_rng()), seat)

    def _step_rng(self):
        """The generator of the next chance draw or bot move: from the seed and the actions so far,
        so that it is the same whether the game was played in one sitting or continued from its log."""
        return game_rng(self.seed, len(self.state.history))

    def _check_seat(self, seat: int) -> None:
        if not isinstance(seat, int) or not 0 <= seat < len(self.seats):
            raise IllegalAction(Reason.NO_SUCH_SEAT, f"there is no seat {seat}: seats are 0 to {len(self.seats) - 1}")


class _LineReader(Recorder):
    """:meth:`Recorder.parse` (and the :meth:`Recorder.choices` it matches against) reading a line
    against the table's live state: nothing is replayed and no log is kept, the table applies."""

    def __init__(self, state: State):  # Recorder's own replays a log: not wanted here
        self._live = state

    @property
    def state(self) -> State:
        """The table's live state."""
        return self._live


def _make_game(game_id: str, content: "GameContent | None", ruleset: str | None, overrides: Mapping[str, Any]) -> Game:
    """The game for a new table; every setup problem as a :class:`TableError`."""
    try:
        if content is None:
            return load(game_id, ruleset, overrides)
        return game_class(game_id).create(content, ruleset, overrides)
    except ParameterError as exc:
        raise TableError(str(exc)) from None
    except ContentErrors as exc:
        raise TableError("\n".join(str(e) for e in exc.errors)) from None


def _replayed(log: GameLog, content: "GameContent | None") -> tuple[Game, State]:
    """The game of ``log`` and the state its events reach, through replay's checks."""
    result = _replay_checked(log, content, prefix="the log does not replay: ")
    return result.game, result.state


def _replay_checked(log: GameLog, content: "GameContent | None", on_event=None, prefix: str = ""):
    """``replay(log)`` whose every failure is a :class:`TableError` in words (an unreadable log,
    invalid content, the first refused event with its line and reason)."""
    try:
        result = replay(log, content=content, on_event=on_event)
    except LogError as exc:
        raise TableError(str(exc)) from None
    except ContentErrors as exc:
        raise TableError("\n".join(str(e) for e in exc.errors)) from None
    if result.error is not None:
        e = result.error
        raise TableError(f"{prefix}{e.where(log.source)}: {e.reason}: {e.message}")
    return result


def _label(event: dict[str, Any]) -> str:
    """An event as a seat's move is typed: its log form without the seat and the braces."""
    return format_event({k: v for k, v in event.items() if k != "seat"})[1:-1]


def _trail(game: Game, history: list[tuple[int, int]]) -> list[tuple[dict[str, Any], bool]]:
    """Each action of ``history`` as its single log event, and whether it was a submission in a
    simultaneous step (played again from a new state, as :func:`record` does)."""
    state = game.new_state()
    out = []
    for seat, action in history:
        out.append((state.action_to_event(action, seat), state.current == SIMULTANEOUS))
        state.apply_trusted(action, seat)
    return out


def _merge(events: list[dict[str, Any]], event: dict[str, Any]) -> None:
    """Append ``event``, merged into the last one as the log merges single-card events of one kind."""
    previous = events[-1] if events else None
    if previous is not None and "card" in event:
        keys = set(event) - {"card"}
        if set(previous) - {"card", "cards"} == keys and all(previous[k] == event[k] for k in keys):
            if "card" in previous:
                previous["cards"] = [previous.pop("card")]
            previous["cards"].append(event["card"])
            return
    events.append(dict(event))


