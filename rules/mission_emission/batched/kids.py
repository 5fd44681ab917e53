"""Mission Emission's kids game, many games at once (see the package's docstring).

With random bots the kids game has one choice a round, the chooser's mission, and it does not
depend on the cards; so every round of every game is played at once.  The rules are ``kids.py``'s:

* The deal gives each seat one state card and every draw is a uniformly random card of the deck, so
  the cards a seat holds, round after round, are a uniformly random ordering of the state cards:
  seat ``s`` shows card ``s`` of round ``r``'s block of ``n``.
* With ``kids_end: deck`` the game ends once the deck cannot give every seat one more card: after
  ``S // n`` rounds of ``n`` seats and ``S`` state cards.  Tied cards go under the deck and are
  never drawn again, so they change nothing but the count of ties.
* The chooser of round ``r`` is seat ``r % n`` (seat 0 starts, then clockwise, whoever won); it
  picks one of the ``M`` missions uniformly.  The highest number of that mission takes the ``n``
  shown cards (``kids_winner: better``: the better number); a tie gives nothing, or with ``tie:
  first-played`` gives them to the tied seat nearest the chooser clockwise.
* Counts: ``n`` deal events, then per round one seat move and, but after the last round, ``n``
  draws; every choice of a mission is a real decision when there are two missions or more.
"""
from __future__ import annotations

from collections import Counter

import numpy as np


class KidsRun:
    """``games`` kids games, every round at once.  Shapes (``G`` games, ``R`` rounds, ``n``
    seats): ``mission[G, R]``, ``cards[G, R, n]`` (by seat), and the per-game results the
    package's :class:`BatchedGame` counts: ``scores[G, n]`` (cards in each pocket), ``moves``,
    ``actions``, ``decisions``, ``finished`` (every game: none is cut off), ``ties`` (``[G]``)."""

    def __init__(self, game, games: int, rng: np.random.Generator):
        self.game, self.rng, self.games = game, rng, games

    def play(self) -> "KidsRun":
        """Play every game; the per-game arrays are then final."""
        game, rng, games = self.game, self.rng, self.games
        n, states, missions = game.players, game.n_states, game.n_missions
        rounds = states // n
        values = np.asarray(game.values, dtype=np.int64)[:states]  # values[card, mission]
        sign = np.asarray(game.sign if game.kids_better else [1] * missions, dtype=np.int64)
        cards = rng.random((games, states)).argsort(axis=1)[:, :rounds * n].reshape(games, rounds, n)
        mission = (rng.random((games, rounds)) * missions).astype(np.int64)
        shown = values[cards, mission[:, :, None]] * sign[mission][:, :, None]
        at_best = shown == shown.max(axis=2)[:, :, None]
        tied = at_best.sum(axis=2) > 1
        if game.tie_first_played:  # the tied seat nearest the chooser clockwise (kids.py ``_act``)
            chooser = np.arange(rounds) % n
            distance = (np.arange(n)[None, :] - chooser[:, None]) % n  # [R, n]
            winner = np.where(at_best, distance[None, :, :], n).argmin(axis=2)
            award = np.ones_like(tied)
        else:
            winner = shown.argmax(axis=2)
            award = ~tied
        taken = (winner[:, :, None] == np.arange(n)[None, None, :]) & award[:, :, None]
        self.scores = taken.sum(axis=1) * n
        self.ties = tied.sum(axis=1)
        self.rounds = rounds
        self.moves = np.full(games, rounds, dtype=np.int64)
        self.actions = np.full(games, n + rounds + n * (rounds - 1), dtype=np.int64)
        self.decisions = self.moves if missions > 1 else np.zeros(games, dtype=np.int64)
        self.finished = np.ones(games, dtype=bool)
        return self

    def events(self, done: np.ndarray) -> Counter:
        """``rounds`` and ``tied rounds`` over the games ``done``, as ``kids.py``'s tally names them."""
        return Counter({"rounds": int(done.sum()) * self.rounds, "tied rounds": int(self.ties[done].sum())})
