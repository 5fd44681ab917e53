"""Geheime Mission, many games at once: a vectorised fast path for random bots.

A second implementation of ``geheime_mission.py``'s rules, which stay the readable truth, for two
``random`` bots: it plays ``G`` games on NumPy arrays and counts them as the reference engine's
simulation does (``rules/core/simulate.py``: ``play_game`` and ``Tally.add``).  It gives the same
*distribution* of every reported figure, not the same games for a seed (the random numbers are
NumPy's, seeded by the run's seed and the chunk's first game);
``tests/rules/test_geheime_mission_batched.py`` checks the distributions against each other.

Why a permutation of the deck is enough.  With random bots, which agent is played never depends
on the cards' values, only on who is due, and who is due depends only on the cards already played:

* The deal (``_draw`` in the deal phase) gives each hand a uniformly random set of agents, and
  every draw (``sample_chance``) is a uniformly random agent of the pile.  So, given the agents
  played so far, the unplayed ones are split between the two hands and the pile uniformly at
  random (with the sizes those have): true after the deal, and kept by every play and draw.
* A random bot plays a uniformly random agent of its hand (``play_game``: ``legal[int(u *
  len(legal))]`` over the sorted hand).  As the hand is a uniformly random subset of the unplayed
  agents, the agent played is a uniformly random unplayed agent, whichever seat plays it, and the
  split of the rest stays uniform.  This holds as well once the pile is empty (``game_end:
  finish-round``): the hands are then of different sizes, but each is still a uniformly random
  subset of the agents left.
* Hence the agents played, in order, are the first ones of a uniformly random ordering of the
  deck: ``perm[g]``.  Which agents were drawn (as opposed to played) is reported nowhere.

Every card played is answered at once by the other seat (``_play``: a first card sets ``lead``,
the next card decides the pair), and nothing else plays in between, so plays ``2j`` and ``2j + 1``
of a game are always the ``j``-th pair fought: a city-centre duel (blue against blue, the round's
starter first) or an embassy fight (the carrier's green against the other seat's red).  The
engine walks the pairs, every game at once, with a game's state reduced to two flags: ``embassy``
(the phase) and ``due`` (the seat playing a pair's first card: the starter in the centre, the
carrier at an embassy).  Rules, cited from the reference (rulebook, "Sequence of Play"):

* ``_decide_duel``: the higher blue wins and the winner carries the suitcase to its embassy,
  defending first; equal values replay, the starter first.
* ``_decide_embassy``: equal values replay, the carrier first; the attack higher snatches the
  suitcase (``after_snatch``: ``snatcher-runs``, the snatcher defends at its own embassy;
  ``centre-duel``, a new duel, the snatcher first); the defence higher goes to the back door.
* ``_resolve_simultaneous``: the carrier's door and the officer's door are each uniform among the
  ``D`` doors and independent, so the officer catches the suitcase with probability ``1/D``;
  the next round's starter is ``next_round``'s (the guess's winner, the carrier, or the rounds so
  far modulo 2, as ``_start_round(self.rounds % 2)`` reads it).
* Game end (rulebook, "Game End"; ``_draw``, ``_play``): ``P = N - 2H`` agents are drawn after the
  deal (``N`` agents, hand size ``H``), one after each of the first ``P`` plays.  ``last-draw``
  ends every game at the draw after play ``P - 1``: exactly ``P`` plays, and a back door due after
  that draw is never played.  ``finish-round`` plays on from the hands: a back door reached with
  the pile empty ends the game once resolved, and a seat due with no agent left ends it, the
  suitcase to nobody (a first card then left unanswered is no fight).

Counts as ``play_game`` makes them: a play is one action and one move, and a decision when the
hand holds more than one agent (always ``H`` before the pile is empty; in a ``finish-round``
game's last round, ``H`` less the seat's plays since); the back door is two actions, two moves
and, with ``D > 1`` doors, two decisions; chance events are the ``2H`` dealt agents and ``P``
draws.  So every game has ``actions = moves + N`` and, in a ``last-draw`` game, ``moves = P + 2 *
back doors``.  No game can pass the move bound (``max_length``: ``2N + 2 * (N // 4)``; a round
reaching the back door plays at least 4 agents); the engine still counts one that would as cut off.

Refused: bots other than ``random`` (a bot that looks at the cards breaks the permutation
argument).  Every parameter value (``hand_size``, ``after_snatch``, ``next_round``, ``game_end``)
and any deck the reference engine accepts are played.
"""
from __future__ import annotations

from collections import Counter
from typing import Sequence

import numpy as np

from deckpress.rules.core.batched import require_random, tally_of
from deckpress.rules.geheime_mission import ATTACK, CENTRE, DEFENCE

#: Games a chunk plays at once: large enough that NumPy's per-call cost is spread thin (a game
#: is a few dozen pairs), small enough that a chunk's arrays stay a few tens of MB.
CHUNK_GAMES = 50_000
#: A pair's outcome (``outcome_tables``): the second card wins, a tie (replayed), the first wins.
SECOND, TIE, FIRST = 1, 0, -1


def outcome_tables(game) -> tuple[np.ndarray, np.ndarray]:
    """``(duel, embassy)``, each ``[N, N]`` int8: the outcome (:data:`SECOND`, :data:`TIE`,
    :data:`FIRST`) of a pair whose first card is agent ``a`` and second agent ``b``, at
    ``[a, b]``.  A duel compares blue with blue (``_decide_duel``), an embassy fight the first
    card's green (defence) with the second's red (attack) (``_decide_embassy``)."""
    attack, centre, defence = (np.asarray(game.columns[k], dtype=np.int64) for k in (ATTACK, CENTRE, DEFENCE))
    duel = np.sign(centre[None, :] - centre[:, None]).astype(np.int8)
    embassy = np.sign(attack[None, :] - defence[:, None]).astype(np.int8)
    return duel, embassy


class GeheimeMissionBatched:
    """The batched engine of one game's parameters (:meth:`GeheimeMissionGame.batched`): a
    :class:`~deckpress.rules.core.game.BatchedEngine` for two random bots.

    Raises (on creation):
        ParameterError: a bot other than ``random``.
    """

    chunk_games = CHUNK_GAMES

    def __init__(self, game, bots: Sequence[str]):
        require_random(bots)
        self.game = game

    def play_chunk(self, seed: int, start: int, stop: int):
        """Play games ``start..stop-1`` of a run seeded ``seed`` and count them as the reference
        engine's simulation does (:func:`~deckpress.rules.core.batched.tally_of`; the scores are
        the suitcases).  The chunk's generator is seeded by ``(seed, start)``."""
        return tally_of(Run(self.game, stop - start, np.random.default_rng([seed, start])).play(), self.game.players)


class Run:
    """``G`` games, a pair of plays at a time (see the module's docstring).

    Shapes (``G`` games, ``N`` agents, ``J = ceil(N / 2)`` pairs): ``perm[G, 2J]``, the agents in
    the order played (with an odd deck, the first one again at the end, a place no game reaches); ``first[J, G]`` and ``second[J, G]``, each pair's cards; ``fought[J, G]``
    (the pair was completed), ``embassy_at[J, G]`` (it was an embassy fight), ``door[J, G]`` (a
    back door followed it), ``caught[J, G]`` (the officer's door was the carrier's); per game
    ``suitcases[2][G]`` and ``scores[G, 2]`` (the same, the returns), ``moves[G]``, ``actions[G]``, ``decisions[G]``, ``finished[G]``.
    """

    def __init__(self, game, games: int, rng: np.random.Generator):
        self.game, self.games, self.rng = game, games, rng
        self.duel, self.embassy = outcome_tables(game)
        self.doors = len(game.door_actions)

    def caught_at_door(self, shape: tuple[int, ...]) -> np.ndarray:
        """Whether the officer stands at the carrier's door, for back doors of this ``shape``:
        both seats pick one of the ``D`` doors uniformly and independently (``RandomBot``), so
        the doors match with probability ``1/D`` (``_resolve_simultaneous``)."""
        return self.rng.integers(0, self.doors, size=shape, dtype=np.int8) == 0

    def play(self) -> "Run":
        """Play every game to its end; the per-game arrays are then final."""
        game, G = self.game, self.games
        N, H = game.n_cards, game.hand_size
        P = N - 2 * H  # agents drawn after the deal: one after each of the first P plays
        J = (N + 1) // 2
        perm = self.rng.permuted(np.tile(np.arange(N, dtype=np.int64), (G, 1)), axis=1)
        if N % 2:  # an odd deck: a last card that no pair can complete (its place is never reached)
            perm = np.concatenate([perm, perm[:, :1]], axis=1)
        self.perm = perm
        self.first, self.second = perm[:, 0::2].T.copy(), perm[:, 1::2].T.copy()  # [J, G]
        outcomes = np.stack([self.duel[self.first, self.second], self.embassy[self.first, self.second]])  # [2, J, G]
        caught = self.caught_at_door((J, G))
        self.fought = np.zeros((J, G), dtype=bool)
        self.embassy_at = np.zeros((J, G), dtype=bool)
        self.door = np.zeros((J, G), dtype=bool)
        self.caught = caught
        embassy = np.zeros(G, dtype=bool)  # the phase: False in the city centre
        due = np.zeros(G, dtype=bool)  # seat 1 plays the pair's first card (seat 0 starts the first round)
        rounds = np.ones(G, dtype=np.int64)
        won1 = np.zeros(G, dtype=np.int64)  # suitcases won by seat 1
        won = np.zeros(G, dtype=np.int64)  # suitcases won by either
        plays = np.zeros(G, dtype=np.int64)
        decisions = np.zeros(G, dtype=np.int64)
        live = np.ones(G, dtype=bool)  # still playing
        spent = [np.zeros(G, dtype=np.int64), np.zeros(G, dtype=np.int64)]  # each seat's plays once the pile is empty
        never = np.zeros(G, dtype=bool)
        rule = game.next_round
        for j in range(J):
            k = 2 * j  # the pair's first play; its answer is play k + 1
            if k >= P and not game.finish_round:
                break  # last-draw: the draw after play P - 1 ended every game
            if k < P:  # every hand is full (a play before the pile is empty is replaced at once)
                lead = live
                decisions += lead * (H > 1)
            else:  # finish-round, the pile empty: a seat due with no agent left ends the game (``_play``)
                hand = H - np.where(due, spent[1], spent[0])
                lead = live & (hand > 0)
                decisions += lead & (hand > 1)
                spent[1] += lead & due
                spent[0] += lead & ~due
            if k + 1 < P:
                answer = lead
                decisions += answer * (H > 1)
            elif game.finish_round:  # the other seat answers from what is left of its hand
                hand = H - np.where(due, spent[0], spent[1])
                answer = lead & (hand > 0)
                decisions += answer & (hand > 1)
                spent[0] += answer & due
                spent[1] += answer & ~due
            else:  # last-draw: the draw after the first card (play P - 1) was the last
                answer = never
            plays += lead.astype(np.int64) + answer
            self.fought[j] = answer
            self.embassy_at[j] = embassy
            outcome = np.where(embassy, outcomes[1, j], outcomes[0, j])
            tie = outcome == TIE
            second_wins = (outcome == SECOND) & answer
            hold = embassy & (outcome == FIRST) & answer
            # the back door: after a hold, unless the draw after this pair emptied the pile in a
            # last-draw game (``_draw``: the game ends at once)
            door = hold if (game.finish_round or k + 2 < P) else never
            self.door[j] = door
            entered = door & ~caught[j]
            won += entered
            won1 += entered & due  # the carrier is the seat that defended first
            # who plays the next pair's first card: a decided duel goes to the winner, a snatch to
            # the snatcher (the second card's seat), a tie to the same seat; after the back door
            # the next round's starter
            due ^= second_wins
            if rule == "guess-winner":
                due ^= door & caught[j]
            elif rule == "alternate":
                due = np.where(door, (rounds % 2).astype(bool), due)
            rounds += door
            decided = answer & ~tie
            if game.snatcher_runs:  # a decided duel -> embassy; a hold -> centre; a snatch stays
                embassy = np.where(embassy, embassy & ~hold, decided)
            else:  # a snatch, too, goes back to the centre
                embassy = np.where(embassy, ~decided, decided)
            live = answer
            if game.finish_round and k + 2 >= P:  # a back door with the pile empty ends the game
                rounds -= door
                live = live & ~door
            if not live.any():
                break
        self.rounds = rounds
        self.suitcases = (won - won1, won1)
        self.scores = np.stack(self.suitcases, axis=1)  # [G, 2]: the returns
        doors = self.door.sum(axis=0)
        self.moves = plays + 2 * doors
        self.actions = N + self.moves  # the deal (2H), the P draws, the plays and the doors
        self.decisions = decisions + 2 * doors * (self.doors > 1)
        self.finished = self.actions <= game.max_length()
        self.outcomes = np.where(self.embassy_at, outcomes[1], outcomes[0])
        return self

    def events(self, done: np.ndarray) -> Counter:
        """:meth:`GeheimeMissionState.tally`'s counts, summed over the games ``done`` (a mask by
        game number)."""
        game = self.game
        fought = self.fought & done[None, :]
        embassy = fought & self.embassy_at
        duel = fought & ~self.embassy_at
        outcome = self.outcomes
        door = self.door & done[None, :]
        won = int((door & ~self.caught).sum())
        caught = int((door & self.caught).sum())
        s0, s1 = self.suitcases[0][done], self.suitcases[1][done]
        wins0, wins1 = int((s0 > s1).sum()), int((s1 > s0).sum())
        rounds = int(self.rounds[done].sum())
        events = Counter({
            "suitcases won": won, "suitcases caught by the officer": caught, "back-door attempts": won + caught,
            "suitcases in play at the end": rounds - won - caught, "rounds": rounds,
            "snatches": int((embassy & (outcome == SECOND)).sum()), "replayed ties": int((fought & (outcome == TIE)).sum()),
            "centre duels": int((duel & (outcome != TIE)).sum()),
            "centre duels won by the second card": int((duel & (outcome == SECOND)).sum()),
            "embassy fights": int((embassy & (outcome != TIE)).sum()), "defences that hold": int((embassy & (outcome == FIRST)).sum()),
            "decided games": wins0 + wins1, "seat 0 wins": wins0, "seat 0 lead": 100 * (wins0 - wins1)})
        N = game.n_cards
        fights = np.bincount(self.first[fought], minlength=N) + np.bincount(self.second[fought], minlength=N)
        wins = (np.bincount(self.first[fought & (outcome == FIRST)], minlength=N)
                + np.bincount(self.second[fought & (outcome == SECOND)], minlength=N))
        for n in np.flatnonzero(fights[:N]):
            events[f"fights of {game.labels[n]}"] = int(fights[n])
            events[f"fights won by {game.labels[n]}"] = int(wins[n])
        return events
