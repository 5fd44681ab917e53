"""Mission Emission's strategy game, many games at once (see the package's docstring).

A turn of every unfinished game at once, rows of finished games dropped.  The rules are
``strategy.py``'s (with ``common.py``'s deal and draws), which the code below cites:

* The deck is every card but the centre's point cards (``_initial_deck``: the 36 state cards and
  the 12 other point cards by default).  The deal and every draw take a uniformly random card of
  what is left (``common.py`` ``chance_outcomes``), so the cards that come off the deck, in order,
  are a uniformly random ordering of it: one permutation a game, the deal its first ``n * H``
  cards, draw ``t`` its card ``n * H + t``.  Every seat draws after each of its turns while the
  deck lasts, so every hand is full until then and the game's ``t``-th turn draws card ``t`` of
  what was left after the deal.
* A random bot takes a uniformly random action of ``_legal_actions``: one per (card of its hand,
  pile it may go on), a state card on every open pile, a point card on its own mission's pile only
  (``_placements``).  That pile is always open: a pile is removed after its ``pile_size - 1``
  closings, that is once every point card of its mission in the deck has been played.  So each
  card of the hand weighs the number of open piles (a state card) or 1 (a point card), and a
  state card's pile is a uniformly random open one.
* A state card claims an unclaimed pile and steals a claimed one when its number times the
  mission's sign is larger than the best on the pile (``_act``; a steal is counted when the pile
  was another seat's).  A point card closes its pile (``_close``): the claimer pockets the pile's
  state cards (a "closing with cards"), the pile is unclaimed again, and the last closing removes
  it.  The game ends as soon as no pile is left: that turn counts no ``turns`` and draws nothing.
* Otherwise the turn counts, the seat draws while the deck lasts, and the next seat clockwise
  that still holds cards plays (``_next_turn``).  That is always the next seat clockwise, so the
  engine skips nobody: every hand is full until the deck is finished, and from then on the seats
  play in turn, a card each, so the seat whose turn it is holds as many cards as any other; its
  hand is empty only when every hand is, when every card, the last point card too, has been
  played and the game is over.  (``tests/rules/test_mission_emission_batched_strategy.py``
  checks this on the reference engine.)
* Counts: ``n * H`` deal events, then per turn one seat move and, while the deck lasts and the
  game goes on, one draw; a move is a real decision when its legal list has two actions or more.
  Every card is dealt or drawn once and played at most once, so no game passes ``max_length``.

Supported: every parameter of the strategy game (players, ``hand_size``, ``centre``; ``points``
does not change its results: a pocket counts state cards).
"""
from __future__ import annotations

from collections import Counter

import numpy as np


class StrategyRun:
    """The arrays of ``games`` strategy games and the loop that plays them a turn at a time.

    Shapes (``G`` games still playing, ``n`` seats, ``H`` cards a hand, ``M`` missions, ``K``
    cards of the deck): ``hands[G, n, H]`` (cards, -1 for an empty slot once the deck is
    finished); per pile, flat by ``row * M + mission``: ``claim[G * M]`` (the claiming seat, -1:
    unclaimed), ``best[G * M]`` (the best number on it times the mission's sign), ``count[G * M]``
    (state cards on it), ``closes[G * M]``; ``open[G]`` (the piles still in the game, one bit a
    mission), ``seat[G]`` (whose turn it is), and what the rows have counted so far:
    ``pockets[G, n]``, ``steals_[G]``, ``closings_[G]``, ``decisions_[G]``.  ``ids[G]`` maps the
    rows still playing to game numbers 0..games-1; ``order[games, K]`` (by game number) is the
    order in which each game's deck comes off: the deal, then one card a turn.

    Per-game results, by game number (``[games]`` unless said): ``scores[games, n]`` (state cards
    in each pocket, ``returns``), ``moves``, ``actions`` (chance events included), ``decisions``,
    ``finished``, and the game's own counts ``turns``, ``steals``, ``closings`` (closings with
    cards), as ``strategy.py``'s ``tally`` names them.
    """

    def __init__(self, game, games: int, rng: np.random.Generator):
        self.game, self.rng = game, rng
        n, hand, states, missions = game.players, game.hand_size, game.n_states, game.n_missions
        self.states, self.missions = states, missions
        sign = np.asarray(game.sign, dtype=np.int64)
        #: values[card * M + mission]: the state card's number times the mission's sign, larger
        #: is better (strategy.py ``_act``)
        self.values = (np.asarray(game.values, dtype=np.int64) * sign[None, :]).ravel()
        self.point_mission = np.asarray(game.point_mission, dtype=np.int64)  # [cards]: -1 for state cards
        # tables by the open piles' bits: how many are open, the k-th open one (legal actions in
        # pile order, strategy.py ``_placements``), and the weight of a card in the legal list:
        # weight[n_open * (cards + 1) + card + 1] (a state card once per open pile, a point card
        # once, an empty slot not at all)
        bits = np.arange(1 << missions)
        is_open = (bits[:, None] >> np.arange(missions)[None, :]) & 1  # [2^M, M]
        self.n_open = is_open.sum(axis=1)
        self.nth_open = (is_open.cumsum(axis=1)[:, None, :] <= np.arange(missions)[None, :, None]).sum(axis=2).ravel()
        cards = game.n_cards + 1
        kinds = np.array([0] + [1 if c < states else 2 for c in range(game.n_cards)])
        self.weight = np.where(kinds[None, :] == 1, np.arange(missions + 1)[:, None], kinds[None, :] == 2).ravel()
        self.cards = cards
        # per-game results, by game number
        self.scores = np.zeros((games, n), dtype=np.int64)
        self.moves = np.zeros(games, dtype=np.int64)
        self.decisions = np.zeros(games, dtype=np.int64)
        self.steals = np.zeros(games, dtype=np.int64)
        self.closings = np.zeros(games, dtype=np.int64)
        # the deck: every card but the centre's (strategy.py ``_initial_deck``), in a uniformly
        # random order: the deal takes the first n * hand (common.py: seat 0's cards, then seat 1's...)
        centre = set(game.centre_cards)
        deck = np.array([c for c in range(game.n_cards) if c not in centre], dtype=np.int8)
        self.order = deck[rng.random((games, len(deck))).argsort(axis=1)]
        self.dealt, self.drawable = n * hand, len(deck) - n * hand
        self.hands = self.order[:, :n * hand].reshape(games, n, hand).copy()
        self.claim = np.full(games * missions, -1, dtype=np.int8)
        self.best = np.zeros(games * missions, dtype=np.int32)
        self.count = np.zeros(games * missions, dtype=np.int8)
        self.closes = np.zeros(games * missions, dtype=np.int8)
        self.open = np.full(games, (1 << missions) - 1, dtype=np.int32)
        self.seat = np.zeros(games, dtype=np.int64)  # seat 0 starts (common.py ``active``)
        self.pockets = np.zeros((games, n), dtype=np.int64)
        self.steals_ = np.zeros(games, dtype=np.int64)
        self.closings_ = np.zeros(games, dtype=np.int64)
        self.decisions_ = np.zeros(games, dtype=np.int64)
        self.ids = np.arange(games)
        self.turn = 0  # turns every game still playing has played: the next draw is order[:, dealt + turn]

    def play(self) -> "StrategyRun":
        """Play every game to its end; the per-game arrays are then final.  Every game's
        length gives its counts (strategy.py ``_act``): ``turns`` all its moves but the last
        (the move that removes the last pile ends the game at once), a draw after every move but
        the last while the deck lasts, and the deal's ``n * H`` chance events."""
        while len(self.ids):
            self._turn()
        self.turns = self.moves - 1
        self.actions = self.dealt + self.moves + np.minimum(self.moves - 1, self.drawable)
        self.finished = self.actions <= self.game.max_length()  # all: every card is dealt or drawn once, played once
        return self

    def events(self, done: np.ndarray) -> Counter:
        """``turns``, ``steals`` and ``closings with cards`` summed over the games ``done`` (a
        ``[games]`` mask), as ``strategy.py``'s ``tally`` names them."""
        return Counter({"turns": int(self.turns[done].sum()), "steals": int(self.steals[done].sum()),
                        "closings with cards": int(self.closings[done].sum())})

    def _beats(self, value: np.ndarray, best: np.ndarray) -> np.ndarray:
        """``[k]``: whether a state card's signed number ``value`` takes a claimed pile whose best
        is ``best`` (strategy.py ``_act``: strictly better)."""
        return value > best

    def _turn(self) -> None:
        """One turn of every game still playing (strategy.py ``_act``, ``_close``, ``_next_turn``)."""
        game, states, missions = self.game, self.states, self.missions
        n, size = game.players, game.hand_size
        rows = np.arange(len(self.ids))
        seat = self.seat
        at_hand = rows * n + seat  # the seat's hand among the [G * n] hands
        hand = np.take(self.hands.reshape(-1, size), at_hand, axis=0)  # [G, H]
        # the legal list (strategy.py ``_legal_actions``): a state card on every open pile, a point
        # card on its own mission's pile, open as long as the card is in a hand; a uniformly
        # random action of it (simulate.py: ``legal[int(u * len(legal))]``)
        n_open = self.n_open[self.open]
        weight = self.weight[(n_open * self.cards)[:, None] + hand + 1]  # [G, H]
        upto = weight.cumsum(axis=1)
        legal = upto[:, -1]
        pick = (self.rng.random(len(rows)) * legal).astype(np.int64)
        slot = (upto <= pick[:, None]).sum(axis=1)
        card = hand[rows, slot].astype(np.int64)
        within = pick - upto[rows, slot] + weight[rows, slot]  # which of the card's actions: the pile's place among the open ones
        placed = card < states
        mission = np.where(placed, self.nth_open[self.open * missions + within], self.point_mission[card])
        self.decisions_ += legal > 1
        pile = rows * missions + mission
        # a state card claims an unclaimed pile or steals one with a better number (strategy.py ``_act``)
        r = placed.nonzero()[0]
        at = pile[r]
        value = self.values[card[r] * missions + mission[r]]
        claimer = self.claim[at]
        best = self.best[at]
        takes = (claimer < 0) | self._beats(value, best)
        self.steals_[r] += takes & (claimer >= 0) & (claimer != seat[r])
        self.count[at] += 1
        self.claim[at] = np.where(takes, seat[r], claimer)
        self.best[at] = np.where(takes, value, best)
        # a point card closes its pile: the claimer pockets its state cards; the last closing
        # removes it; no pile left ends the game (strategy.py ``_close``)
        r = (~placed).nonzero()[0]
        at = pile[r]
        claimer = self.claim[at]
        won = claimer >= 0
        self.pockets[r[won], claimer[won]] += self.count[at[won]]
        self.closings_[r] += won
        self.count[at] = 0
        self.claim[at] = -1
        self.closes[at] += 1
        removed = self.closes[at] == game.pile_size - 1
        self.open[r[removed]] &= ~(1 << mission[r[removed]])
        # the seat draws into the slot it played from while the deck lasts (common.py
        # ``_draw_for``); the next seat clockwise plays: it holds cards (strategy.py
        # ``_next_turn`` skips none, see the module's docstring)
        at_card = at_hand * size + slot  # the played card's place among the [G * n * H] cards
        self.hands.reshape(-1)[at_card] = self.order[self.ids, self.dealt + self.turn] if self.turn < self.drawable else -1
        self.seat = seat + 1
        self.seat[self.seat == n] = 0
        self.turn += 1
        self._keep(self.open != 0)

    def _keep(self, going: np.ndarray) -> None:
        """Write out the results of the games that ended (``going`` False, ``[G]``) and drop
        their rows from the playing arrays."""
        if going.all():
            return
        ended = ~going
        ids = self.ids[ended]
        self.moves[ids] = self.turn
        self.scores[ids] = self.pockets[ended]
        self.steals[ids] = self.steals_[ended]
        self.closings[ids] = self.closings_[ended]
        self.decisions[ids] = self.decisions_[ended]
        for name in ("hands", "open", "seat", "pockets", "steals_", "closings_", "decisions_", "ids"):
            setattr(self, name, getattr(self, name)[going])
        pile = np.repeat(going, self.missions)
        for name in ("claim", "best", "count", "closes"):
            setattr(self, name, getattr(self, name)[pile])
