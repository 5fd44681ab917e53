"""The log of an engine table in words, one line per event: the move as
:func:`deckpress.rules.core.words.in_words` says it, followed by what it did as the engine's own
:meth:`~deckpress.rules.core.game.State.news` says it (the words of ``deckpress record`` and
``deckpress replay --trace``): "Seat 2 played Goa — seat 2: won: Forest +5; scores 0, 5, 0, 0".

The narrator follows the table's history by itself, one event at a time (a replica state, cloned
before each event for the news), so a page asks for the log as often as it likes at no cost
beyond the new events.
"""
from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from typing import Any

from deckpress.rules.core.game import SIMULTANEOUS
from deckpress.rules.core.words import in_words

#: The scores at the end of the engines' default news (hidden where only a seat's own score is).
_SCORES = re.compile(r"(;\s*)?scores [-+0-9., ]+$")
#: What is left of such news once its scores are left out: whose scores changed (hidden too).
_WHO_ONLY = re.compile(r"^seat [0-9, ]+:?$")


@dataclass
class _Entry:
    event: dict[str, Any]
    seat: int | None  # the acting seat; None for a chance event
    secret: bool  # a submission in a simultaneous step, not revealed yet
    news: list[str]


class Narrator:
    """The log in words of one :class:`~deckpress.rules.core.table.Table`.

    Args:
        table: the table to follow.
        private_scores: the game shows each seat its own score only (Maybe Missions): the
            scores the engine's news ends with are left out until the game is over.
    """

    def __init__(self, table: Any, private_scores: bool = False):
        self.table = table
        self.private_scores = private_scores
        self._replica = table.game.new_state()
        self._entries: list[_Entry] = []
        self._lock = threading.Lock()

    def lines(self, viewer: int | None, n: int = 40) -> list[str]:
        """The last ``n`` events in words as seat ``viewer`` may know them (None: a spectator),
        oldest first: another seat's cards dealt or drawn are counted, not named, and a secret
        choice still unrevealed (the simultaneous step going on) is said without its value."""
        table = self.table
        with table._lock:
            history = list(table.state.history)
            over = table.state.is_terminal()
        with self._lock:
            self._follow(history)
            entries = list(self._entries)
        out: list[str] = []
        others: list[tuple[int, str]] = []  # a run of cards dealt or drawn to other seats, alike: said once
        for entry in entries[-4 * n:] if n > 0 else []:
            line = in_words(entry.event, viewer, hidden=entry.secret)
            news = [_SCORES.sub("", s).rstrip(": ") if self.private_scores and not over else s for s in entry.news]
            news = [s for s in news if s and not _WHO_ONLY.match(s)]
            seat = entry.event.get("seat")
            if "chance" in entry.event and isinstance(seat, int) and seat != viewer and not news:
                rest = line.split(" ", 2)[2]  # "Seat 2 drew a card" -> "drew a card"
                if others and others[-1][1] != rest:
                    out.append(_together(others))
                    others = []
                others.append((seat, rest))
                continue
            if others:
                out.append(_together(others))
                others = []
            out.append(line + (" — " + "; ".join(news) if news else ""))
        if others:
            out.append(_together(others))
        return out[-n:] if n > 0 else []

    def _follow(self, history: list[tuple[int, int]]) -> None:
        state = self._replica
        for seat, action in history[len(state.history):]:
            before = state.clone()
            event = state.action_to_event(action, seat)
            secret = state.current == SIMULTANEOUS
            state.apply_trusted(action, seat)
            if secret and not state._pending:  # the last submission: the step is revealed
                for entry in reversed(self._entries):
                    if not entry.secret:
                        break
                    entry.secret = False
                secret = False
            news = [] if secret else state.news(before)
            last = self._entries[-1] if self._entries else None
            if last is not None and not last.news and _one_more(last.event, event):
                last.event.setdefault("cards", [last.event.pop("card")] if "card" in last.event else [])
                last.event["cards"].append(event["card"])
                last.news = news
                continue
            self._entries.append(_Entry(event, None if "chance" in event else seat, secret, news))


def _one_more(previous: dict[str, Any], event: dict[str, Any]) -> bool:
    """Whether chance ``event`` deals one more card where ``previous`` did (one line says both,
    as the log merges them: ``{chance: deal, seat: 1, cards: [...]}``)."""
    keys = set(event) - {"card"}
    return ("chance" in event and "card" in event and ("card" in previous or "cards" in previous)
            and set(previous) - {"card", "cards"} == keys and all(previous[k] == event[k] for k in keys))


def _together(run: list[tuple[int, str]]) -> str:
    """Alike cards dealt or drawn to other seats in one line: "Seats 1, 2 and 3 each drew a card"."""
    if len(run) == 1:
        return f"Seat {run[0][0] + 1} {run[0][1]}"
    seats = [str(s + 1) for s, _ in run]
    named = ", ".join(seats[:-1]) + f" and {seats[-1]}"
    rest = run[0][1]
    return f"Seats {named} were each {rest[4:]}" if rest.startswith("was ") else f"Seats {named} each {rest}"
