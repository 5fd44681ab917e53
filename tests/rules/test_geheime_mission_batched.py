"""Geheime Mission's batched engine (``rules/geheime_mission_batched.py``, ``simulate --batched``):
the reference engine's distribution of every reported figure for every parameter value, the
power of that comparison to see a changed rule, a deterministic run on any number of workers,
and the refusal of bots other than random."""
from __future__ import annotations

import numpy as np
import pytest

from deckpress.rules import geheime_mission_batched as batched_engine
from deckpress.rules.core.registry import load
from deckpress.rules.core.simulate import (
    SimulationSpec,
    Tally,
    game_rng,
    play_game,
    simulate,
)
from deckpress.rules.geheime_mission import DOOR, GeheimeMissionGame
from tests.rules.distributions import Differences

#: Counts shown per game whose share of another count is the figure reported (the measures'
#: rates): ``{count: the count it is a share of}``.
SHARES = {"suitcases won": "back-door attempts", "defences that hold": "embassy fights",
          "centre duels won by the second card": "centre duels"}
#: Counts that follow from the seats' results (checked exactly by :func:`consistent`).
FROM_RESULTS = ("decided games", "seat 0 wins", "seat 0 lead")


def tally(params: dict, games: int, engine: str, seed: int = 1, workers: int = 1, bots=("random", "random")) -> Tally:
    game = load("geheime-mission", None, params)
    spec = SimulationSpec("geheime-mission", dict(game.params), tuple(bots), games, seed, workers=workers, engine=engine)
    return simulate(spec).tally


def differences(a: Tally, b: Tally) -> dict[str, float]:
    """Every figure of a simulation report whose two runs differ by more than ``Z_LIMIT``
    standard errors (``tests/rules/distributions.py``): ``{figure: z}``.

    * Rates by a two-proportion z-test (pooled): each seat's wins and the draws of the games; the
      back-door entries of the attempts, the defences that hold of the embassy fights, the duels
      won by the second card of the duels; each agent's fights won of its fights, and its fights
      of the games (an agent is played at most once a game, so it fights 0 or 1 times: a
      proportion of the games).
    * Seat moves per game by Welch's test on the ``lengths`` histograms.
    * Every other count as a mean per game (rounds, snatches, replayed ties, catches, ..., each
      seat's suitcases, and the moves that are no real decision), with the standard error of a
      Poisson count (variance = mean).  Per game, these counts vary less than a Poisson count
      (variance 0.07-0.9 of the mean with random bots, measured on the reference engine for the
      parameter sets below), so this is conservative: it never flags more than it should.

    Figures that follow from others (the seats' results, the totals of the shares) are checked
    exactly, per run, by :func:`consistent`."""
    out = Differences()
    proportion = out.proportion

    def poisson(name: str, total1: float, total2: float) -> None:  # a mean per game, its variance the mean
        m1, m2 = total1 / a.games, total2 / b.games
        out.means(name, m1, m1, a.games, m2, m2, b.games)

    for seat in range(a.players):
        proportion(f"seat {seat} wins", a.wins[seat], a.games, b.wins[seat], b.games)
        poisson(f"seat {seat} suitcases", a.score_sums[seat], b.score_sums[seat])
    proportion("draws", a.draws, a.games, b.draws, b.games)

    out.histograms("moves a game", a.lengths, b.lengths)
    poisson("moves that are no decision", a.moves - a.decisions, b.moves - b.decisions)
    for key in sorted(set(a.events) | set(b.events)):
        if key.startswith("fights of "):
            proportion(key, a.events[key], a.games, b.events[key], b.games)
        elif key.startswith("fights won by "):
            of = "fights of " + key[len("fights won by "):]
            proportion(key, a.events[key], a.events[of], b.events[key], b.events[of])
        elif key in SHARES:
            proportion(key, a.events[key], a.events[SHARES[key]], b.events[key], b.events[SHARES[key]])
        elif key not in FROM_RESULTS:
            poisson(key, a.events[key], b.events[key])
    return out


def consistent(t: Tally, params: dict) -> None:
    """What every run of either engine must satisfy exactly (54 agents, hand size H, P = 54 - 2H
    agents drawn after the deal)."""
    game = load("geheime-mission", None, params)
    n, hand = game.n_cards, game.hand_size
    e = t.events
    assert t.cut_off == 0 and t.games > 0
    # the deal (2H), the P draws: n chance events a game beside the seats' moves
    assert t.actions == t.moves + n * t.games
    assert t.shared == [t.draws, t.draws] and sum(t.wins) + t.draws == t.games
    assert e["decided games"] == t.games - t.draws and e["seat 0 wins"] == t.wins[0]
    assert e["seat 0 lead"] == 100 * (t.wins[0] - t.wins[1])
    assert sum(t.score_sums) == e["suitcases won"]
    assert e["back-door attempts"] == e["suitcases won"] + e["suitcases caught by the officer"]
    assert e["rounds"] == e["back-door attempts"] + e["suitcases in play at the end"]
    decided = e["centre duels"] + e["embassy fights"]
    assert e["embassy fights"] == e["defences that hold"] + e["snatches"]
    assert sum(v for k, v in e.items() if k.startswith("fights of ")) == 2 * (decided + e["replayed ties"])
    assert sum(v for k, v in e.items() if k.startswith("fights won by ")) == decided
    if params.get("game_end", "last-draw") == "last-draw":
        # the draw of the last card ends every game with a round in progress, after exactly P plays
        assert e["suitcases in play at the end"] == t.games
        assert t.moves == (n - 2 * hand) * t.games + 2 * e["back-door attempts"]
        assert all((m - (n - 2 * hand)) % 2 == 0 for m in t.lengths)
        # every play is a decision with more than one agent in hand, every door choice one
        assert t.decisions == (t.moves if hand > 1 else 2 * e["back-door attempts"])
    else:  # finish-round: the last round ends at its back door or with a seat out of agents
        assert e["suitcases in play at the end"] < t.games
        assert all(n - 2 * hand <= m for m in t.lengths)


#: Every value of every parameter, and two smaller hands (a hand of one agent: no play is a decision).
PARAMS = [{},
          {"after_snatch": "centre-duel", "next_round": "alternate", "game_end": "finish-round"},
          {"hand_size": 2, "next_round": "carrier", "game_end": "finish-round"},
          {"hand_size": 1, "after_snatch": "centre-duel", "next_round": "carrier"}]


@pytest.mark.slow
@pytest.mark.parametrize("params", PARAMS, ids=["default", "centre-duel, alternate, finish-round", "2 agents, carrier, finish-round",
                                                "1 agent, centre-duel, carrier"])
def test_the_batched_engine_gives_the_reference_engines_distribution(params):
    reference = tally(params, 6000, "reference")
    batched = tally(params, 60_000, "batched")
    assert reference.games == 6000 and batched.games == 60_000
    consistent(reference, params)
    consistent(batched, params)
    assert set(batched.events) == set(reference.events)  # every agent fights in some game
    assert differences(batched, reference) == {}


class _Trimmed:
    """The shipped content less its last ``drop`` agents (an odd deck: a pile of odd size)."""

    def __init__(self, content, drop: int):
        self.game_id, self._content, self._drop = content.game_id, content, drop

    def __getitem__(self, stem: str):
        data = self._content[stem]
        if stem == "agents" and self._drop:
            data = {**data, "agents": data["agents"][:-self._drop]}
        return data


class _Scripted:
    """A bot that plays the agents in a given order, and at the back door picks door 0 as the
    carrier and, as the officer, door 0 (a catch) or door 1 as told for that pair.  The agent due
    is first moved into the hand of the seat due from wherever it is (the other hand or the
    pile): hidden places that nothing else in the game depends on."""

    name, uses_view = "scripted", True

    def __init__(self, order: list[int], caught: list[bool]):
        self.order, self.caught = order, caught

    def act(self, view, legal, rng):
        state = view._state
        played = len(state.centre) + len(state.embassies[0]) + len(state.embassies[1])
        if legal[0] >= DOOR:  # after pair j: 2j + 2 agents played
            return DOOR + int(view.seat != state.carrier and not self.caught[played // 2 - 1])
        card, hand = self.order[played], state.hands[view.seat]
        for zone in (state.hands[1 - view.seat], state.deck):
            if card in zone:
                zone[zone.index(card)], hand[0] = hand[0], card
        return card


@pytest.mark.parametrize("params", PARAMS + [{"game_end": "finish-round", "hand_size": 3}, {"hand_size": 4}, {"game_end": "finish-round"}],
                         ids=["default", "centre-duel, alternate, finish-round", "2 agents, carrier, finish-round",
                              "1 agent, centre-duel, carrier", "odd deck, 3 agents, finish-round", "odd deck, 4 agents",
                              "odd deck, finish-round"])
def test_the_same_plays_and_doors_give_the_reference_engines_game(params, request):
    """The batched engine's state machine is the reference's, game by game: each batched game's
    agents (in the order played) and back-door catches, played again through ``play_game`` by
    scripted bots, give the same suitcases, actions, moves, decisions and tally.  Three cases
    use a deck of 53 agents: a pile of odd size, so the last-draw game ends after an unanswered
    card and finish-round hands run out unevenly."""
    full = load("geheime-mission", None, params)
    game = GeheimeMissionGame(_Trimmed(full.content, 1), dict(full.params)) if "odd deck" in request.node.callspec.id else full
    assert game.n_cards == (53 if "odd deck" in request.node.callspec.id else 54)
    games = 200
    run = batched_engine.Run(game, games, np.random.default_rng(11)).play()
    assert run.finished.all()
    for g in range(games):
        bot = _Scripted(run.perm[g].tolist(), run.caught[:, g].tolist())
        state, actions, moves, decisions = play_game(game, [bot, bot], game_rng(11, g))
        one = np.zeros(games, dtype=bool)
        one[g] = True
        assert state.returns() == [float(run.suitcases[0][g]), float(run.suitcases[1][g])]
        assert (actions, moves, decisions) == (run.actions[g], run.moves[g], run.decisions[g])
        assert state.tally() == dict(run.events(one))


@pytest.mark.slow
def test_the_comparison_sees_a_changed_rule(monkeypatch):
    """The check above has the power to fail: equal blue values going to the second card instead
    of a replay, and the officer catching the suitcase at any door but the carrier's."""
    reference = tally({}, 6000, "reference")
    tables = batched_engine.outcome_tables

    def second_takes_ties(game):
        duel, embassy = tables(game)
        return np.where(duel == batched_engine.TIE, batched_engine.SECOND, duel).astype(np.int8), embassy

    with monkeypatch.context() as m:
        m.setattr(batched_engine, "outcome_tables", second_takes_ties)
        found = differences(tally({}, 60_000, "batched"), reference)
    assert {"replayed ties", "centre duels", "centre duels won by the second card"} <= set(found)
    with monkeypatch.context() as m:
        m.setattr(batched_engine.Run, "caught_at_door", lambda run, shape: run.rng.integers(0, run.doors, size=shape) != 0)
        found = differences(tally({}, 60_000, "batched"), reference)
    assert {"suitcases won", "suitcases caught by the officer", "seat 0 suitcases", "seat 1 suitcases"} <= set(found)
