"""Mission Emission's base game, many games at once (see the package's docstring).

A round of every unfinished game at once.  The same probabilities as ``base.py``, whose rules
the code below cites: each random bot picks a uniformly random legal action (an open mission, a
card of its hand), every draw is a uniformly random card of the deck, and the play pile becomes
the deck when a seat must draw from an empty one (``reshuffle: when-needed``) or as soon as the
draws leave the deck empty (``when-empty``).

Supported: any number of players, hand size, point values, ``piles_to_end``, ``tie`` and
``reshuffle``; not the set collection variant (keeping and giving cards), whose choices the
reference engine plays.
"""
from __future__ import annotations

from collections import Counter

import numpy as np


class BaseRun:
    """The arrays of ``games`` base games and the loop that plays them a round at a time.

    Shapes (``G`` games still playing, ``n`` seats, ``H`` cards a hand, ``S`` state cards,
    ``M`` missions): ``hands[G, n, H]``, ``deck[G, S]`` with ``deck_len[G]`` (the unknown order
    of the reference engine's deck: any card may come next), ``pile[G, S]`` with ``pile_len[G]``
    (the play pile), ``left[G, M]`` point cards left in each mission's pile, ``active[G]``.
    ``ids[G]`` maps the rows still playing to game numbers 0..games-1 for the per-game results.
    """

    def __init__(self, game, games: int, rng: np.random.Generator):
        self.game, self.rng = game, rng
        n, hand, states = game.players, game.hand_size, game.n_states
        self.values = np.asarray(game.values, dtype=np.int64)  # values[card, mission]
        self.piles = np.asarray(game.piles, dtype=np.int64)  # piles[mission, k]: k-th point card from the top
        self.point_value = np.asarray(game.point_value, dtype=np.int64)
        self.limit = game.max_length()
        # per-game results, by game number
        self.scores = np.zeros((games, n), dtype=np.int64)
        self.rounds = np.zeros(games, dtype=np.int64)
        self.ties = np.zeros(games, dtype=np.int64)
        self.moves = np.zeros(games, dtype=np.int64)
        self.decisions = np.zeros(games, dtype=np.int64)
        self.actions = np.full(games, n * hand, dtype=np.int64)  # the deal: one chance event per card
        self.finished = np.zeros(games, dtype=bool)
        self.award_cards: list[np.ndarray] = []
        self.award_games: list[np.ndarray] = []
        # the deal (common.py: every seat's hand from the shuffled deck)
        order = rng.random((games, states)).argsort(axis=1)
        self.hands = order[:, :n * hand].reshape(games, n, hand)
        self.deck = np.zeros((games, states), dtype=np.int64)
        self.deck_len = np.full(games, states - n * hand, dtype=np.int64)
        self.deck[:, :states - n * hand] = order[:, n * hand:]
        self.pile = np.zeros((games, states), dtype=np.int64)
        self.pile_len = np.zeros(games, dtype=np.int64)
        self.left = np.full((games, game.n_missions), game.pile_size, dtype=np.int64)
        self.active = np.zeros(games, dtype=np.int64)
        self.ids = np.arange(games)

    def play(self) -> "BaseRun":
        """Play every game to its end or past the move bound; the per-game arrays are then final."""
        while len(self.ids):
            self._round()
        self.awards = np.concatenate(self.award_cards) if self.award_cards else np.zeros(0, dtype=np.int64)
        self.award_game = np.concatenate(self.award_games) if self.award_games else np.zeros(0, dtype=np.int64)
        return self

    def events(self, done: np.ndarray) -> Counter:
        """The game's own counts over the finished games ``done`` (a mask by game number), as
        ``base.py``'s tally and the simulation's ``won: <point card>`` counts name them."""
        game = self.game
        won = np.bincount(self.awards[done[self.award_game]], minlength=game.n_cards)
        events = Counter({f"won: {game.card_names[c]}": int(k) for c, k in enumerate(won) if k})
        events.update({"rounds": int(self.rounds[done].sum()), "tied rounds": int(self.ties[done].sum())})
        return events

    def _round(self) -> None:
        """One round of every game still playing (base.py ``_act`` and ``_end_round``)."""
        game, rng, ids = self.game, self.rng, self.ids
        n, hand = game.players, game.hand_size
        rows = np.arange(len(ids))
        # the active seat chooses a uniformly random open mission (legal: open piles, in order)
        open_ = self.left > 0
        choices = open_.sum(axis=1)
        pick = (rng.random(len(ids)) * choices).astype(np.int64)
        mission = (open_.cumsum(axis=1) > pick[:, None]).argmax(axis=1)
        # every seat plays a uniformly random card of its hand
        slot = (rng.random((len(ids), n)) * hand).astype(np.int64)
        cards = self.hands[rows[:, None], np.arange(n)[None, :], slot]
        played = self.values[cards, mission[:, None]]
        best = played.max(axis=1)
        at_best = played == best[:, None]
        tied = at_best.sum(axis=1) > 1
        if game.tie_first_played:  # the tied card played first: the nearest seat clockwise from the active one
            order = (np.arange(n)[None, :] - self.active[:, None]) % n
            winner = np.where(at_best, order, n).argmin(axis=1)
            award = np.ones(len(ids), dtype=bool)
        else:  # a tie gives nothing
            winner = played.argmax(axis=1)
            award = ~tied
        # the winner takes the top point card of the chosen pile
        won = award.nonzero()[0]
        point = self.piles[mission[won], game.pile_size - self.left[won, mission[won]]]
        self.left[won, mission[won]] -= 1
        self.scores[ids[won], winner[won]] += self.point_value[point]  # one award a game: no repeated index
        self.award_cards.append(point)
        self.award_games.append(ids[won])
        # the played cards go to the play pile
        self.pile[rows[:, None], self.pile_len[:, None] + np.arange(n)[None, :]] = cards
        self.pile_len += n
        self.rounds[ids] += 1
        self.ties[ids] += tied
        self.moves[ids] += 1 + n
        self.decisions[ids] += (choices > 1) + (n if hand > 1 else 0)
        self.actions[ids] += 1 + n
        over = (self.left == 0).sum(axis=1) >= game.piles_to_end
        # the others draw back to a full hand, clockwise from the active seat
        going = ~over
        self._draw(going, slot)
        self.actions[ids[going]] += n
        self.active = np.where(going, (self.active + 1) % n, self.active)
        cut = self.actions[ids] > self.limit
        self.finished[ids[over & ~cut]] = True
        self._keep(going & ~cut)

    def _draw(self, going: np.ndarray, slot: np.ndarray) -> None:
        """Each seat of the games in ``going``, clockwise from the active one, draws a card into
        the slot it played from; an empty deck is first replaced by the shuffled play pile
        (common.py ``_apply``, base.py ``_reshuffle``)."""
        game, rng = self.game, self.rng
        n = game.players
        rows = going.nonzero()[0]
        for k in range(n):
            empty = rows[self.deck_len[rows] == 0]
            self._reshuffle(empty)
            seat = (self.active[rows] + k) % n
            at = (rng.random(len(rows)) * self.deck_len[rows]).astype(np.int64)
            self.hands[rows, seat, slot[rows, seat]] = self.deck[rows, at]
            last = self.deck_len[rows] - 1
            self.deck[rows, at] = self.deck[rows, last]  # the deck has no order: the last card fills the gap
            self.deck_len[rows] = last
        if game.reshuffle_when_empty:
            self._reshuffle(rows[(self.deck_len[rows] == 0) & (self.pile_len[rows] > 0)])

    def _reshuffle(self, rows: np.ndarray) -> None:
        """The play pile becomes the draw deck of the games at ``rows`` (a chance event each)."""
        if len(rows):
            self.deck[rows] = self.pile[rows]
            self.deck_len[rows] = self.pile_len[rows]
            self.pile_len[rows] = 0
            self.actions[self.ids[rows]] += 1

    def _keep(self, going: np.ndarray) -> None:
        """Drop the rows of finished (or cut-off) games from the playing arrays."""
        if going.all():
            return
        for name in ("hands", "deck", "deck_len", "pile", "pile_len", "left", "active", "ids"):
            setattr(self, name, getattr(self, name)[going])
