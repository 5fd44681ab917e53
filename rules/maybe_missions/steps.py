"""The round machinery's three registries: tasks, decisions and chance events.

A Maybe Missions state works through an *agenda*: a list of tasks, each a plain tuple
``(name, *arguments)`` (plain data, so that a state clones and prints).  A task is a small function
registered here by name; it does its part of the round and may

* push more tasks to the front of the agenda (:meth:`MaybeMissionsState.push`),
* ask a seat (or several seats at once) for a **decision** (:meth:`~MaybeMissionsState.ask`,
  :meth:`~MaybeMissionsState.ask_all`), or
* call for a **chance event** (:meth:`~MaybeMissionsState.draw`),

after which the state waits for that action.  Every decision kind is a :class:`Decision`: the key
of its log event (``{seat: 2, collect: Tail the courier}``), how the value is written, its legal
actions and what applying one does.  Every chance kind is a :class:`Chance`.  Keeping each step a
small named function is what lets the tests name a rule and check it alone, and lets ``due()`` and
the logs speak in a player's words.

*Model:* boardgame.io's phases and moves as named data (``docs/documentation/phases.md``), with
moves as standalone functions of the state and the acting seat.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

#: task name -> function(state, *args)
TASKS: dict[str, Callable[..., None]] = {}
#: decision name -> Decision
DECISIONS: dict[str, "Decision"] = {}
#: chance kind -> Chance
CHANCES: dict[str, "Chance"] = {}

#: How a decision's value is written in a log event.
VALUE_KINDS = ("vote", "card", "seat", "delta", "buy")


def task(name: str) -> Callable:
    """Register a task function under ``name`` (decorator)."""
    def register(fn: Callable) -> Callable:
        assert name not in TASKS, name
        TASKS[name] = fn
        return fn
    return register


@dataclass(frozen=True)
class Decision:
    """One kind of seat decision.

    ``key`` is the event key (``vote``, ``collect``, ...), ``value`` one of :data:`VALUE_KINDS`,
    ``doc`` completes "seat 2 ..." in messages ("to choose a card to collect").
    ``legal(state, seat, *args)`` gives the sorted legal actions; ``apply(state, seat, action,
    *args)`` does the move (a simultaneous decision has ``resolve(state, submissions, *args)``
    instead, called once every seat has submitted).  ``why(state, seat, action, *args)`` may
    explain a refused action better than the generic message (return None to fall back).
    ``none_word`` is how PASS is written (``none``, or ``done`` for a proposal).
    """

    name: str
    key: str
    value: str
    doc: str
    legal: Callable[..., list[int]]
    apply: Callable[..., None] | None = None
    resolve: Callable[..., None] | None = None
    why: Callable[..., Any] | None = None
    none_word: str = "none"


def decision(name: str, key: str, value: str, doc: str, legal: Callable[..., list[int]],
             why: Callable[..., Any] | None = None, none_word: str = "none", simultaneous: bool = False) -> Callable:
    """Register the decision ``name`` whose apply (or, ``simultaneous``, resolve) function is decorated."""
    assert value in VALUE_KINDS, value

    def register(fn: Callable) -> Callable:
        assert name not in DECISIONS, name
        DECISIONS[name] = Decision(name, key, value, doc, legal, None if simultaneous else fn,
                                   fn if simultaneous else None, why, none_word)
        return fn
    return register


@dataclass(frozen=True)
class Chance:
    """One kind of chance event.

    ``event(state, *args)`` is its log form without the outcome (``{chance: deal, seat: 2}``);
    ``outcomes(state, *args)`` the ``(action, probability)`` pairs; ``apply(state, action, *args)``
    moves the card; ``sample(state, u, *args)`` (optional) picks the outcome at cumulative
    probability ``u`` quickly; ``value`` says how the outcome is written (``vote``, ``card``,
    ``public``, ``secret``); ``event_keys`` names the seats in its event besides ``chance`` and
    ``card`` (``seat``, ``from``).  ``possible(state, action, *args)`` (optional) tells whether
    ``action`` is one of the outcomes without listing them (the validated path asks it for every
    chance event).
    """

    name: str
    value: str
    event_keys: tuple[str, ...]
    event: Callable[..., dict]
    outcomes: Callable[..., list[tuple[int, float]]]
    apply: Callable[..., None]
    sample: Callable[..., int] | None = None
    possible: Callable[..., bool] | None = None


def chance(name: str, value: str, keys: tuple[str, ...], outcomes: Callable[..., list[tuple[int, float]]],
           sample: Callable[..., int] | None = None, possible: Callable[..., bool] | None = None) -> Callable:
    """Register the chance kind ``name`` whose apply function is decorated.  Its event is
    ``{chance: name}`` plus ``seat`` (the task's first argument) and ``from`` (its second) as
    ``keys`` says; ``sample`` and ``possible`` are the optional fast forms of ``outcomes`` (see
    :class:`Chance`)."""
    def event(state, *args) -> dict:
        out: dict = {"chance": name}
        for key, value in zip(keys, args):
            out[key] = value
        return out

    def register(fn: Callable) -> Callable:
        assert name not in CHANCES, name
        CHANCES[name] = Chance(name, value, keys, event, outcomes, fn, sample, possible)
        return fn
    return register


def uniform(cards: list[int]) -> list[tuple[int, float]]:
    """Each of ``cards`` with equal probability (sorted): an unknown deck or a shuffled hand."""
    p = 1.0 / len(cards)
    return [(c, p) for c in sorted(cards)]


def uniform_sample(cards: list[int], u: float) -> int:
    """The card of :func:`uniform` ``(cards)`` at cumulative probability ``u``, found as the core's
    generic ``State.sample_chance`` finds it (the same running sum, so always the same card),
    without listing the outcomes."""
    p = 1.0 / len(cards)
    ordered = sorted(cards)
    total = 0.0
    for card in ordered:
        total += p
        if u < total:
            return card
    return ordered[-1]


def key_values() -> dict[str, str]:
    """Every decision key and how its value is written (one kind per key)."""
    out: dict[str, str] = {}
    for d in DECISIONS.values():
        assert out.setdefault(d.key, d.value) == d.value, f"key {d.key} is used with two value kinds"
    return out
