"""Bots: players the simulation driver asks for an action.  They see only a seat's view.

A bot is any object with ``name`` and ``act(view, legal, rng) -> action``: ``view`` is what its
seat may see (:class:`~deckpress.rules.core.game.View`), ``legal`` the sorted legal actions, ``rng`` the
game's seeded ``random.Random`` (for tie-breaks; a bot keeps no other randomness, so a game is
reproduced from its seed).  ``random`` and the search bot ``ismcts``
(:mod:`deckpress.rules.core.ismcts`) work for every game; each game registers its own
heuristics with :func:`register_bot`.
"""
from __future__ import annotations

from typing import Any, Callable, Protocol, Sequence

from deckpress.rules.core.errors import ParameterError
from deckpress.rules.core.game import View

#: The type of ``rng``: a seeded ``random.Random`` owned by the simulation driver (only
#: rules/core/simulate.py imports :mod:`random`).
Rng = Any


class Bot(Protocol):
    """What the simulation driver needs of a bot."""

    name: str

    def act(self, view: View, legal: Sequence[int], rng: Rng) -> int:
        """One of ``legal``, chosen from ``view`` only."""


class RandomBot:
    """Plays a uniformly random legal action: the baseline of every balance table."""

    name = "random"
    uses_view = False  # the driver may pass None instead of building a view

    def act(self, view: View | None, legal: Sequence[int], rng: Rng) -> int:
        """A uniformly random element of ``legal``."""
        return legal[int(rng.random() * len(legal))]


_BOTS: dict[str, dict[str, Callable[[], Bot]]] = {}
#: The game's own heuristic bot, when it registers one: the search bot's prior knowledge (rules/core/ismcts.py).
HEURISTIC = "greedy"


def register_bot(game_id: str, name: str, factory: Callable[[], Bot]) -> None:
    """Make bot ``name`` available for ``game_id`` (``factory()`` returns a fresh bot)."""
    _BOTS.setdefault(game_id, {})[name] = factory


def bot_names(game_id: str) -> list[str]:
    """The bots that can play ``game_id``: ``random``, ``ismcts`` (every game; ``ismcts:N`` for N
    iterations a decision) and the game's own, sorted."""
    return sorted({"random", "ismcts", *_BOTS.get(game_id, {})})


def make_bot(game_id: str, name: str) -> Bot:
    """A fresh bot ``name`` for ``game_id``; a search bot (``ismcts``, ``ismcts:N``) gets the
    game's :data:`HEURISTIC` bot, when it has one, as its prior knowledge.

    Raises:
        ParameterError: no such bot (the message lists the known ones).
    """
    if name == "random":
        return RandomBot()
    from deckpress.rules.core.ismcts import ismcts_bot

    heuristic = _BOTS.get(game_id, {}).get(HEURISTIC)
    search = ismcts_bot(name, heuristic() if heuristic and name.startswith("ismcts") else None)
    if search is not None:
        return search
    factory = _BOTS.get(game_id, {}).get(name)
    if factory is None:
        raise ParameterError(f"unknown bot '{name}' for {game_id} (known bots: {', '.join(bot_names(game_id))})")
    return factory()
