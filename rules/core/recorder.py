"""Recording a game at the table, one event at a time (``deckpress record``).

A :class:`Recorder` holds the log written so far.  It says what is due in words (``seat 2 to
choose a mission``), offers the events the rules allow next (for completion), and takes one line
of input as the next event: checked at once by the same replay that ``deckpress replay`` runs,
so a refused line gets that replay's reason and a log the recorder wrote always replays.  The
recorder has no terminal code; :mod:`deckpress.generator.cli.record` asks and writes the file.

Input, one event per line (the event's log form without braces, as ``docs/game-logs.md`` writes
them): ``mission: Forest``, ``play: Goa``, ``play: green compass 3, slot: 2``; the value alone
when only one kind of event is due (``Forest``); the number of a listed choice (where the choices
are not numbers themselves: a Maybe Missions vote is typed by its printed number); for a chance
event the card, or ``?`` for a card the recorder did not see, and for several draws in a row
their cards in one list, as the log lists them (``cards: [Goa, ?, "Daman & Diu"]``).  When several seats may act (a
simultaneous step, the crazy variant), the line starts with the seat: ``seat 2 play: Goa``.  A line
that starts with the seat is a seat's event even while a chance event is due: what the table says
aloud (``seat 2 takes_master: master-08`` in Maybe Missions) is written down when replay accepts
it; the recorder does not offer such events among its choices.
A chance event with nothing to name (a reshuffle) is written down by itself.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from deckpress.rules.core.errors import IllegalAction, Reason
from deckpress.rules.core.game import CHANCE, Game, State
from deckpress.rules.core.log import GameLog, format_event
from deckpress.rules.core.replay import UNSEEN, ReplayResult, replay

_SEAT = re.compile(r"^\s*seat\s+(\d+)\s*[:,]?\s*", re.IGNORECASE)
#: Longest input line accepted (a card name is far shorter).
MAX_INPUT = 300


@dataclass(frozen=True)
class Choice:
    """One event the rules allow next: its ``event`` (log form) and how it is typed (``text``)."""

    event: dict[str, Any]
    text: str


class Recorder:
    """The game written down so far.

    Args:
        game: the game being played (its content and parameters).
        log: a log to continue (``deckpress record --resume``); it must replay.

    Raises:
        IllegalAction: ``log`` does not replay (its first refused event's reason and message).
    """

    def __init__(self, game: Game, log: GameLog | None = None):
        self.game = game
        self.log = log or GameLog(game=game.info.id, events=[], params=dict(game.params),
                                  content_hash=game.content_hash, engine=game.engine_version(), source="<recording>")
        self.result = self._replay(self.log.events)
        if self.result.error is not None:
            raise IllegalAction(self.result.error.reason, f"event {self.result.error.index}: {self.result.error.message}")
        self._settle()
        #: What the last line did, in a player's words (:meth:`State.news`): who won a round or a fight.
        self.news: list[str] = []

    @property
    def finished(self) -> bool:
        """True when the game is over."""
        return self.result.finished

    @property
    def state(self) -> State:
        """The state the recorded events reached: what :meth:`due`, :meth:`choices` and
        :meth:`parse` read."""
        return self.result.state

    def due(self) -> str:
        """What is due next, in words."""
        return self.state.due()

    def choices(self) -> list[Choice]:
        """The events the rules allow next, as far as the recording shows (a seat whose cards
        were not all seen may hold others: any card can be typed)."""
        state = self.state
        if state.is_terminal():
            return []
        if state.current == CHANCE:
            return [Choice(e, _text(e, state.due_chance_event())) for e in
                    (state.action_to_event(a, CHANCE) for a in state.legal_actions())]
        seats = state.acting_seats()
        many = len(seats) > 1
        out = []
        for seat in seats:
            for action in state.legal_actions(seat):
                event = state.action_to_event(action, seat)
                text = _text(event, {"seat": seat})
                out.append(Choice(event, f"seat {seat} {text}" if many else text))
        return out

    def parse(self, line: str) -> dict[str, Any]:
        """The event a line of input stands for.

        Raises:
            IllegalAction: ``log.malformed-event`` for a line that is empty, too long, or names
                no seat when several may act.
        """
        line = line.strip()
        if not line or len(line) > MAX_INPUT:
            raise IllegalAction(Reason.MALFORMED_EVENT, f"type one event (at most {MAX_INPUT} characters), such as 'play: Goa'")
        choices = self.choices()
        # A bare number is the number of a listed choice, unless the choices are themselves
        # numbers (Maybe Missions' votes): then it is the card's own number, as printed.
        numbered = any(str(v).isdigit() for c in choices for k, v in c.event.items() if k not in ("seat", "chance"))
        if line.isascii() and line.isdigit() and not numbered and 1 <= int(line) <= len(choices):
            return dict(choices[int(line) - 1].event)
        folded = line.casefold()
        for choice in choices:
            if choice.text.casefold() == folded:
                return dict(choice.event)
        state = self.state
        braced = _braced(line)
        if braced is not None:  # the log's own form: {seat: 0, door: Yellow}
            if "seat" not in braced and "chance" not in braced and state.current >= 0:
                braced = {"seat": state.current, **braced}
            return braced
        fields = _fields(line)
        if fields is not None and ("seat" in fields or "chance" in fields):  # seat: 0, door: Yellow
            return fields
        found = _SEAT.match(line)
        if state.current == CHANCE and not found:  # with the seat, a seat's event: said aloud, or refused by replay
            due = state.due_chance_event()
            key = _outcome_key(choices, due)
            fields = _fields(line)
            if fields is not None and set(fields) != {key}:
                raise IllegalAction(Reason.MALFORMED_EVENT, f"{self.due()} is due: type the {key} (or {UNSEEN} for one not seen)")
            value = str(fields[key]) if fields is not None else _unquoted(line)
            return {**due, key: UNSEEN if value == UNSEEN else value}
        seat = state.current
        if found:
            seat, line = int(found.group(1)), line[found.end():]
        elif seat < 0:
            raise IllegalAction(Reason.MALFORMED_EVENT, f"several seats may act ({self.due()}): start with the seat, such as 'seat 2 play: Goa'")
        fields = _fields(line)
        if fields is None and state.current == CHANCE:
            raise IllegalAction(Reason.MALFORMED_EVENT, f"{self.due()} is due: a seat's event now needs its key "
                                                        f"('seat {seat} KEY: VALUE')")
        if fields is None:
            verbs = sorted({k for c in choices for k in c.event if k != "seat"})
            if len(verbs) != 1:
                raise IllegalAction(Reason.MALFORMED_EVENT, f"say what the seat does: {', '.join(v + ': ...' for v in verbs) or 'nothing is due'}")
            fields = {verbs[0]: _unquoted(line.strip())}
        return {"seat": seat, **fields}

    def add(self, line: str) -> dict[str, Any]:
        """Take ``line`` as the next event if the rules allow it; returns the event.

        Raises:
            IllegalAction: the line is not an event, or the rules refuse it (the replay's reason
                code and message); the recording is unchanged.
        """
        if len(line) > MAX_INPUT:
            raise IllegalAction(Reason.MALFORMED_EVENT, f"type one event (at most {MAX_INPUT} characters), such as 'play: Goa'")
        before = self.result.state.clone()
        state = self.result.state
        cards = _listed_cards(line) if state.current == CHANCE else None
        if cards is None and state.current == CHANCE and "," in line and _fields(line) is None and _braced(line) is None \
                and not _SEAT.match(line):
            cards = self._comma_list(line)
            if cards is not None:
                try:
                    event = self._add_each(cards)
                except IllegalAction as exc:
                    raise IllegalAction(exc.reason, f"{exc.message} (read as {len(cards)} cards, as if typed cards: [{', '.join(cards)}]; "
                                                    "type one card, or write cards: [...])") from None
                self.news = self.result.state.news(before)
                return event
        if cards is not None:
            event = self._add_each(cards)
        else:
            event = self._add_one(line)
        self.news = self.result.state.news(before)
        return event

    def _comma_list(self, line: str) -> list[str] | None:
        """The cards of a hand typed as a comma list (``Cinder, Copper, Willow``), or None when the
        whole line names one card (a name with a comma in it).

        Raises:
            IllegalAction: the parts do not name cards either: the message says to write
                ``cards: [...]``."""
        state = self.result.state
        try:
            state.event_to_action({**state.due_chance_event(), _outcome_key(self.choices(), state.due_chance_event()): _unquoted(line.strip())})
            return None
        except IllegalAction:
            pass
        return [_unquoted(part.strip()) for part in line.split(",") if part.strip()] or None

    def _add_one(self, line: str) -> dict[str, Any]:
        event = self.parse(line)
        events = [*self.log.events, event]
        result = self._replay(events)
        if result.error is not None:
            where = "" if result.error.index == len(events) else f" (it makes event {result.error.index} impossible)"
            raise IllegalAction(result.error.reason, result.error.message + where)
        self.log.events.append(event)
        self.result = result
        self._settle()
        if self.result.finished:
            state = self.result.state
            self.log.result = {"scores": [int(x) if float(x).is_integer() else x for x in state.returns()],
                               "winners": state.winners(), **{k: v for k, v in state.outcome().items()}}
        return event

    def _add_each(self, cards: list[str]) -> dict[str, Any]:
        """Several chance events typed as one line (``cards: [Goa, Assam]``, as the log writes the
        draws of one round): each taken in turn, all or none.  Returns the last event."""
        kept = (len(self.log.events), self.log.result, self.result)
        due, what = self.result.state.due_chance_event(), self.due()
        event: dict[str, Any] = {}
        try:
            for n, card in enumerate(cards):
                state = self.result.state
                if state.current != CHANCE or state.due_chance_event() != due:
                    raise IllegalAction(Reason.MALFORMED_EVENT, f"{len(cards)} cards listed, but only {n} {'is' if n == 1 else 'are'} "
                                                                f"due in a row ({what}): list those, then type what follows")
                event = self._add_one(card)
        except IllegalAction:
            del self.log.events[kept[0]:]
            self.log.result, self.result = kept[1], kept[2]
            raise
        return event

    def undo(self) -> dict[str, Any] | None:
        """Take back the last event (None when there is none)."""
        if not self.log.events:
            return None
        event = self.log.events.pop()
        self.log.result = None
        self.result = self._replay(self.log.events)
        return event

    def _settle(self) -> None:
        """Write down the chance events that have one outcome and nothing to name (a reshuffle)."""
        state = self.result.state
        while state.current == CHANCE:
            due = state.due_chance_event()
            outcomes = [state.action_to_event(a, CHANCE) for a in state.legal_actions()]
            if len(outcomes) != 1 or set(outcomes[0]) != set(due):
                return
            self.log.events.append(outcomes[0])
            self.result = self._replay(self.log.events)
            state = self.result.state

    def _replay(self, events: list[Any]) -> ReplayResult:
        log = GameLog(game=self.log.game, events=list(events), params=self.log.params, ruleset=self.log.ruleset,
                      source=self.log.source)
        return replay(log, content=self.game.content)


def _text(event: dict[str, Any], known: dict[str, Any]) -> str:
    """An event as typed: its keys beyond ``known``'s (``play: Goa, slot: 2``)."""
    return format_event({k: v for k, v in event.items() if k not in known})[1:-1]


def _outcome_key(choices: list[Choice], due: dict[str, Any]) -> str:
    keys = {k for c in choices for k in c.event if k not in due}
    return keys.pop() if len(keys) == 1 else "card"


def _listed_cards(line: str) -> list[str] | None:
    """The cards of a line ``cards: [Goa, "Daman & Diu", ?]`` (docs/game-logs.md: an event with
    ``card`` may list ``cards``); None for any other line."""
    found = re.fullmatch(r"\s*cards\s*:\s*\[(.*)\]\s*", line)
    if found is None:
        return None
    return [part.strip() for part in re.findall(r'"[^"]*"|\'[^\']*\'|[^,]+', found.group(1)) if part.strip()] or None


def _fields(text: str) -> dict[str, Any] | None:
    """``play: Goa, slot: 2`` as a mapping (numbers as integers); None when the text has no ``key:``."""
    if not re.match(r"^\s*[A-Za-z_][\w-]*\s*:", text):
        return None
    out: dict[str, Any] = {}
    for part in re.split(r",\s*(?=[A-Za-z_][\w-]*\s*:)", text):
        key, _, value = part.partition(":")
        value = _unquoted(value.strip())
        out[key.strip()] = int(value) if re.fullmatch(r"-?\d+", value) else value
    return out


def _braced(line: str) -> dict[str, Any] | None:
    """An event typed in the log's own form, ``{seat: 0, door: Yellow}`` (or as a list item,
    ``- {seat: 0, door: Yellow}``), read as the log is (safe YAML, bounded); None for a line not in
    braces.

    Raises:
        IllegalAction: ``log.malformed-event``: braces that do not hold one mapping."""
    from pathlib import Path

    from deckpress.generator.content.yamlsafe import load_yaml

    text = line.strip()
    if text.startswith("-"):
        text = text[1:].strip()
    if text.startswith("{") != text.endswith("}"):
        raise IllegalAction(Reason.MALFORMED_EVENT, "open and close the braces: write an event as the log does, such as "
                                                    "{seat: 0, door: Yellow}")
    if not text.startswith("{"):
        return None
    doc, errors = load_yaml(Path("typed line"), "the line", text=text, max_bytes=4 * MAX_INPUT, max_depth=4)
    data = doc.data if doc is not None and not errors else None
    if not isinstance(data, dict) or not data or not all(isinstance(k, str) for k in data):
        why = errors[0].message if errors else "braces hold one event"
        raise IllegalAction(Reason.MALFORMED_EVENT, f"{why}: write an event as the log does, such as {{seat: 0, door: Yellow}}")
    return dict(data)


def _unquoted(text: str) -> str:
    """``"Daman & Diu"`` (as the log writes a name with punctuation) typed with its quotes."""
    return text[1:-1] if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'" else text
