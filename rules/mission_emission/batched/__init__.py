"""Mission Emission, many games at once: vectorised fast paths for random bots.

The long goal is a million base games with random bots in under a minute
on two cores, and its speed target a fast path three times OpenSpiel's from Python; the reference
engine (``base.py``, ``kids.py``, one game at a time through the core's ``play_game``) plays a few
thousand games a second on one core.  The modules here play the same games on NumPy arrays holding
one row per game.  Each is a second implementation of its mode's rules, which stay the readable
truth: the code cites the reference module, and ``tests/rules/test_mission_emission_batched.py``
checks that the two give the same distribution of every reported figure within the noise.

* ``base.py``: the base game (``mode: base``) without the set collection variant.
* ``kids.py``: the kids game (``mode: kids``) with ``kids_end: deck``.
* ``strategy.py``: the strategy game (``mode: strategy``), every parameter.

What is the same and what is not:

* The same probabilities: every random bot picks a uniformly random legal action and every chance
  event is drawn as the reference engine's ``chance_outcomes`` weigh it.
* Not the same games: the random numbers come from NumPy's generator (PCG64) seeded by the run's
  seed and the chunk's first game, not from the core's per-game generator, so game ``i`` here is
  not game ``i`` of the reference engine.  A run is still deterministic: the same seed and number
  of games give the same tally on any number of workers.
"""
from __future__ import annotations

from typing import Any, Callable, Protocol, Sequence

import numpy as np

from deckpress.rules.core.batched import require_random, tally_of
from deckpress.rules.core.errors import ParameterError

#: Games a chunk plays at once: large enough that NumPy's per-call cost is spread thin, small
#: enough that a worker's arrays stay a few tens of MB.
CHUNK_GAMES = 50_000


class _Run(Protocol):
    """What a mode's run (``BaseRun``, ``KidsRun``, ``StrategyRun``) is to :class:`BatchedGame`:
    made from the game, a number of games and a generator, it plays them all and returns itself
    with the per-game arrays :func:`~deckpress.rules.core.batched.tally_of` counts."""

    def play(self) -> Any: ...


class BatchedGame:
    """The batched engine of one game's parameters (:meth:`MissionEmissionGame.batched`): a
    :class:`~deckpress.rules.core.game.BatchedEngine`.

    Raises (on creation):
        ParameterError: the game or the bots are outside what these engines play (the message
            says which and why): a bot other than ``random``, the base game's set collection
            variant, or the kids game's ``kids_end: all-cards``.  The strategy game is played
            with all its parameters.
    """

    chunk_games = CHUNK_GAMES

    def __init__(self, game, bots: Sequence[str]):
        require_random(bots)
        run: Callable[[Any, int, np.random.Generator], _Run]
        if game.mode == "base":
            if game.set_collection:
                raise ParameterError("the batched engine does not play the set collection variant (its keep and give choices)")
            from deckpress.rules.mission_emission.batched.base import BaseRun
            run = BaseRun
        elif game.mode == "kids":
            if not game.kids_end_on_deck:
                raise ParameterError("the batched engine plays the kids game to the end of the draw deck only (kids_end: deck), "
                                     "not with the tied cards drawn again (all-cards)")
            from deckpress.rules.mission_emission.batched.kids import KidsRun
            run = KidsRun
        elif game.mode == "strategy":
            from deckpress.rules.mission_emission.batched.strategy import StrategyRun
            run = StrategyRun
        else:
            raise ParameterError(f"the batched engine plays Mission Emission's base, kids and strategy games, not the {game.mode} game")
        self.game = game
        self._run = run

    def play_chunk(self, seed: int, start: int, stop: int):
        """Play games ``start..stop-1`` of a run seeded ``seed`` and count them as the reference
        engine's simulation does (:func:`~deckpress.rules.core.batched.tally_of`).  The chunk's
        generator is seeded by ``(seed, start)``."""
        return tally_of(self._run(self.game, stop - start, np.random.default_rng([seed, start])).play(), self.game.players)
