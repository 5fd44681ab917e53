"""Bots: players the simulation driver asks for an action.  They see only a seat's view.

A bot is any object with ``name`` and ``act(view, legal, rng) -> action``: ``view`` is what its
seat may see (:class:`~deckpress.rules.core.game.View`), ``legal`` the sorted legal actions, ``rng`` the
game's seeded ``random.Random`` (for tie-breaks; a bot keeps no other randomness, so a game is
reproduced from its seed).  ``random`` and the search bot ``ismcts``
(:mod:`deckpress.rules.core.ismcts`) work for every game; each game registers its own
heuristics with :func:`register_bot`, and a game with a heuristic ``greedy`` bot also has
``rollout`` (:mod:`deckpress.rules.core.rollout`), greedy improved by roll-outs.
"""
from __future__ import annotations

from typing import Any, Callable, Protocol, Sequence, TypeVar

from deckpress.generator.content.safetext import excerpt
from deckpress.rules.core.errors import ParameterError
from deckpress.rules.core.game import View

#: The type of ``rng``: a seeded ``random.Random`` owned by the simulation driver (only
#: rules/core/simulate.py imports :mod:`random`).
Rng = Any


#: The view a bot reads (contravariant: a bot that reads any view reads a game's).
V_contra = TypeVar("V_contra", contravariant=True)


class Bot(Protocol[V_contra]):
    """What the simulation driver needs of a bot, ``V_contra`` being the view it reads: a game's
    own bots read that game's view (``Bot[FiftyMissionsView]``), the search bots any
    :class:`View`.  A bot whose ``uses_view`` is False is passed None instead of a view (the
    drivers build none for it), so it takes ``View | None`` (:class:`RandomBot`); every other
    bot is passed its seat's view.  Bots are registered and made by game id, so the registry and
    the drivers hold a bare ``Bot`` (``Bot[Any]``): that a game's bots are given that game's views
    is the drivers' contract, which no annotation can carry through a game id."""

    name: str

    def act(self, view: V_contra, legal: Sequence[int], rng: Rng) -> int:
        """One of ``legal``, chosen from ``view`` only."""


class RandomBot:
    """Plays a uniformly random legal action: the baseline of every balance table."""

    name = "random"
    uses_view = False  # the driver may pass None instead of building a view

    def act(self, view: View | None, legal: Sequence[int], rng: Rng) -> int:
        """A uniformly random element of ``legal``."""
        return legal[int(rng.random() * len(legal))]


_BOTS: dict[str, dict[str, Callable[[], Bot]]] = {}
#: The game's own heuristic bot, when it registers one: the search bot's prior knowledge
#: (rules/core/ismcts.py) and the roll-out bot's policy (rules/core/rollout.py).
HEURISTIC = "greedy"


def is_search_bot(name: str) -> bool:
    """True for a bot that looks ahead: ``ismcts``, ``rollout`` and their ``:N`` forms (the skill
    signal's seat, :mod:`deckpress.rules.core.skill`)."""
    return name.split(":", 1)[0] in ("ismcts", "rollout")


def search_budget(name: str, family: str, default: int, counted: str, example: int) -> int | None:
    """The budget a search bot's name asks for: ``default`` for ``family`` alone, N for
    ``family:N``; None for another bot's name.  ``counted`` says what N counts ("the iterations a
    decision"), ``example`` is the N the error message shows.  The range is the bot's to check.

    Raises:
        ParameterError: ``family:`` followed by something that is not a whole number.
    """
    if name == family:
        return default
    if not name.startswith(family + ":"):
        return None
    count = name.split(":", 1)[1]
    if not (count.isascii() and count.isdigit()):
        raise ParameterError(f"bot '{name}': write {family}:N, N {counted} (for example {family}:{example})")
    return int(count)


def check_search_bot(name: str) -> None:
    """Check a search bot's name and budget before any game is loaded (``deckpress check
    --skill-bot``); whether the game has the ``greedy`` bot a ``rollout`` needs is for
    :func:`make_bot` to say.

    Raises:
        ParameterError: not a search bot, or its budget out of range (the message says which).
    """
    from deckpress.rules.core.ismcts import ismcts_bot
    from deckpress.rules.core.rollout import rollout_bot

    if not is_search_bot(name):
        raise ParameterError(f"'{excerpt(name)}' is not a search bot: ismcts, ismcts:N, rollout or rollout:N")
    if ismcts_bot(name) is None:
        rollout_bot(name, RandomBot())  # a stand-in policy: only the budget is checked


def register_bot(game_id: str, name: str, factory: Callable[[], Bot]) -> None:
    """Make bot ``name`` available for ``game_id`` (``factory()`` returns a fresh bot)."""
    _BOTS.setdefault(game_id, {})[name] = factory


def bot_names(game_id: str) -> list[str]:
    """The bots that can play ``game_id``: ``random``, ``ismcts`` (every game; ``ismcts:N`` for N
    iterations a decision), the game's own and, with a :data:`HEURISTIC` bot among them,
    ``rollout`` (``rollout:N`` for N determinisations a decision), sorted."""
    own = _BOTS.get(game_id, {})
    return sorted({"random", "ismcts", *own, *(["rollout"] if HEURISTIC in own else [])})


def make_bot(game_id: str, name: str) -> Bot:
    """A fresh bot ``name`` for ``game_id``; a search bot (``ismcts``, ``ismcts:N``) gets the
    game's :data:`HEURISTIC` bot, when it has one, as its prior knowledge, and a roll-out bot
    (``rollout``, ``rollout:N``) as its policy.

    Raises:
        ParameterError: no such bot (the message lists the known ones), or a search or roll-out
            bot's number out of range.
    """
    if name == "random":
        return RandomBot()
    from deckpress.rules.core.ismcts import ismcts_bot
    from deckpress.rules.core.rollout import rollout_bot

    heuristic = _BOTS.get(game_id, {}).get(HEURISTIC)
    search: Bot | None = ismcts_bot(name, heuristic() if heuristic and name.startswith("ismcts") else None)
    if search is None and heuristic and name.startswith("rollout"):
        search = rollout_bot(name, heuristic())
    if search is not None:
        return search
    factory = _BOTS.get(game_id, {}).get(name)
    if factory is None:
        known = bot_names(game_id)
        budgets = ", ".join(f"{b}:N" for b in ("ismcts", "rollout") if b in known)
        raise ParameterError(f"unknown bot '{excerpt(name)}' for {game_id} (known bots: {', '.join(known)}; {budgets} for a budget)")
    return factory()
