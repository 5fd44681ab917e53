"""50 Missions' batched engine (``rules/fifty_missions/batched.py``, ``simulate --batched``): the
reference engine's distribution of every reported figure for parameter sets covering both modes,
both ``after_gold`` values, 1 to 4 players, other hand sizes and medal places; the power of that
comparison to see a changed rule; the reference engine's games, game by game, from the batched
engine's chance events and plays; a deterministic run on any number of workers; and the refusal
of bots other than random."""
from __future__ import annotations

import json
from functools import lru_cache

import numpy as np
import pytest

from deckpress.rules.core.errors import ParameterError
from deckpress.rules.core.registry import load
from deckpress.rules.core.simulate import (
    SimulationSpec,
    Tally,
    game_rng,
    play_game,
    simulate,
)
from deckpress.rules.core.stats import percentile
from deckpress.rules.fifty_missions import batched as batched_engine
from deckpress.rules.fifty_missions.state import (
    MISSION,
    RESHUFFLE,
    SLOTS,
    FiftyMissionsState,
)
from tests.rules.distributions import Differences

#: The percentiles of the reference run at which the shares of the team's result and of the
#: game lengths are compared (the report prints percentiles of both).
CUTS = (10, 25, 50, 75, 90)

#: Both modes, both moments of the reshuffle, 1 to 4 players, hands of 2, 4 and 6, the shipped
#: medal places and small ones (medals, gold and the reshuffle in most games), another first seat,
#: and the views' parameters (which random bots never read).
PARAMS = [{},
          {"mode": "crazy", "players": 4, "after_gold": "reshuffle-when-stuck", "medal_places": [2, 5, 8]},
          {"players": 1, "hand_size": 6, "medal_places": [1, 3, 6], "look_under": True, "communication": False},
          {"players": 2, "hand_size": 2, "after_gold": "reshuffle-when-stuck", "medal_places": [0, 2, 4], "oya": 1}]
IDS = ["default", "crazy, 4 players, when stuck", "1 player, 6 cards, at gold, beginners", "2 players, 2 cards, when stuck, oya 1"]


def tally(params: dict, games: int, engine: str, seed: int = 1, workers: int = 1, bots=None) -> Tally:
    if engine == "reference" and workers == 1 and bots is None:
        return _reference(json.dumps(params, sort_keys=True), games, seed)
    return _tally(params, games, engine, seed, workers, bots)


@lru_cache(maxsize=None)
def _reference(params: str, games: int, seed: int) -> Tally:
    """The reference engine's tally, kept for the tests of one worker process (the power test
    compares with the same reference run as a distribution test)."""
    return _tally(json.loads(params), games, "reference", seed, 1, None)


def _tally(params: dict, games: int, engine: str, seed: int, workers: int, bots) -> Tally:
    game = load("fifty-missions", None, params)
    spec = SimulationSpec("fifty-missions", dict(game.params), tuple(bots or ("random",) * game.players), games, seed,
                          workers=workers, engine=engine)
    return simulate(spec).tally


def batched(params: dict, games: int, seed: int = 1) -> tuple[Tally, dict[str, float]]:
    """The batched engine's tally of ``games`` games (one chunk, as ``play_chunk`` counts it) and
    the per-game variances of the counts a tally keeps only as sums (:func:`differences`)."""
    game = load("fifty-missions", None, params)
    engine = game.batched(["random"] * game.players)
    run = engine.run(seed, 0, games)
    spread = {"actions a game": float(run.actions.var(ddof=1)),
              "moves that are no decision": float((run.moves - run.decisions).var(ddof=1))}
    return engine.tally(run), spread


def differences(a: Tally, b: Tally, spread: dict[str, float]) -> dict[str, float]:
    """Every figure of a simulation report whose two runs ``a`` (the batched engine's) and ``b``
    (the reference's) differ by more than Z_LIMIT standard errors: ``{figure: z}``.

    * Rates of games by a two-proportion z-test (pooled): the team's wins; the games whose result
      (missions accomplished) and whose length reach each of the reference's :data:`CUTS`
      percentiles; every tally counted once a game at most (reshuffles, each medal reached, each
      final level, all missions completed, each mission displayed); each mission's completions
      as a share of its displays (the measures' rate).
    * Means per game by Welch's test: the team's result (from the ``team_results`` histograms)
      and the moves (from ``lengths``); the actions (chance events included) and the moves that
      are no real decision (the decision rate), whose tallies keep only sums, with the per-game
      variance ``spread`` measured on the batched run for both (the same distribution under the
      hypothesis tested).

    The counts that are sums of others (missions completed, cards played, score sums) are
    checked exactly by :func:`consistent`."""
    out = Differences()
    proportion = out.proportion

    def means(name: str, m1: float, v1: float, m2: float, v2: float) -> None:
        out.means(name, m1, v1, a.games, m2, v2, b.games)

    def at_least(histogram, x) -> int:
        return sum(v for k, v in histogram.items() if k >= x)

    proportion("team wins", a.team_wins, a.games, b.team_wins, b.games)
    for name, histogram in (("team result", "team_results"), ("moves a game", "lengths")):
        one, two = getattr(a, histogram), getattr(b, histogram)
        out.histograms(name, one, two)
        for x in sorted({percentile(two, q) for q in CUTS} - {min(two)}):
            proportion(f"{name} at least {x}", at_least(one, x), a.games, at_least(two, x), b.games)
    means("actions a game", a.actions / a.games, spread["actions a game"], b.actions / b.games, spread["actions a game"])
    name = "moves that are no decision"
    means(name, (a.moves - a.decisions) / a.games, spread[name], (b.moves - b.decisions) / b.games, spread[name])
    for key in sorted(set(a.events) | set(b.events)):
        if key.startswith("completed: "):
            shown = "displayed: " + key[len("completed: "):]
            proportion(key, a.events[key], a.events[shown], b.events[key], b.events[shown])
        elif key not in ("missions completed", "cards played"):
            proportion(key, a.events[key], a.games, b.events[key], b.games)
    return out


def consistent(t: Tally, params: dict) -> None:
    """What every run of either engine must satisfy exactly."""
    game = load("fifty-missions", None, params)
    e, n, M = t.events, game.players, game.n_missions
    first_row = min(SLOTS, M)
    assert t.cut_off == 0 and t.games > 0 and t.cooperative
    assert sum(t.lengths.values()) == t.games and sum(k * v for k, v in t.lengths.items()) == t.moves == e["cards played"]
    accomplished = sum(k * v for k, v in t.team_results.items())
    assert sum(t.team_results.values()) == t.games and e["missions completed"] == accomplished
    assert t.score_sums == [accomplished] * n and t.wins == [0] * n and t.draws == 0
    assert t.team_wins == e[f"reached: {game.medal_ids[0]}"] <= t.games
    levels = [e[f"level: {key}"] for key in ["none", *game.medal_ids]]
    assert sum(levels) == t.games
    assert [e[f"reached: {key}"] for key in game.medal_ids] == [sum(levels[i + 1:]) for i in range(len(game.medal_ids))]
    assert e["all missions completed"] == t.team_results.get(float(M), 0)
    assert sum(v for k, v in e.items() if k.startswith("completed: ")) == accomplished
    drawn = sum(v * min(k, M - first_row) for k, v in t.team_results.items())  # one replacement a mission, while they last
    assert sum(v for k, v in e.items() if k.startswith("displayed: ")) == first_row * t.games + drawn
    assert all(e[f"completed: {mid}"] <= e[f"displayed: {mid}"] for mid in game.mission_ids)
    assert 0 <= e["reshuffles"] <= t.games and t.decisions <= t.moves
    # actions: the setup (the first row, the face-up cards, the deal), the missions drawn, the
    # reshuffles, the moves and the symbol cards drawn; every card played entered a hand, and a
    # game ends with between 0 and n * H cards in hand
    draws = t.actions - t.moves - e["reshuffles"] - drawn - (first_row + SLOTS + n * game.hand_size) * t.games
    assert 0 <= n * game.hand_size * t.games + draws - t.moves <= n * game.hand_size * t.games


@pytest.mark.slow
@pytest.mark.parametrize("params", PARAMS, ids=IDS)
def test_the_batched_engine_gives_the_reference_engines_distribution(params):
    reference = tally(params, 6000, "reference")
    fast, spread = batched(params, 60_000)
    assert reference.games == 6000 and fast.games == 60_000
    consistent(reference, params)
    consistent(fast, params)
    assert differences(fast, reference, spread) == {}


@pytest.mark.slow
def test_the_comparison_sees_a_changed_rule(monkeypatch):
    """The checks above have the power to fail: each medal won one mission early; the legal list
    built from every card of the hand (a second copy of a kind counted again: ``_legal_actions``
    reads ``set(hand)``); a replacement mission that the row already meets left on display until
    the next play (not checked at once).  The last changes some 4 % of the missions accomplished,
    near the comparison's reach (5 to 6 standard errors here), and the game-by-game replay sees it."""
    params = PARAMS[1]
    reference = tally(params, 6000, "reference")
    changes = {"_medals": (lambda run, completed: np.searchsorted(run.places, completed, side="right"), 20_000),
               "_weights": (lambda run, hand, masks: batched_engine.POPCOUNT[masks], 20_000),
               "_rechecked": (lambda run, fill: np.zeros_like(fill), 60_000)}
    found = {}
    for name, (change, games) in changes.items():
        with monkeypatch.context() as m:
            m.setattr(batched_engine.Run, name, change)
            fast, spread = batched(params, games)
            found[name] = set(differences(fast, reference, spread))
            if name == "_rechecked":
                with pytest.raises(AssertionError):
                    replay(params, 150)
    assert {"team wins", "reached: bronze", "reached: gold", "level: none", "reshuffles", "moves a game"} <= found["_medals"]
    assert "moves that are no decision" in found["_weights"]
    assert len({"team result", "moves a game", "actions a game", "reshuffles", "reached: gold"} & found["_rechecked"]) >= 3


class _Replayed(FiftyMissionsState):
    """The reference state with its chance events and crazy-mode seats taken from a batched game
    (``game.script``): the missions in the order drawn; the symbol cards in the order they come
    off the deck, and after the reshuffle in the new deck's order; the seat of each move where any
    seat may play (it must be one that can)."""

    def sample_chance(self, u: float) -> int:
        script, kind = self.game.script, self.queue[-1][0]
        if kind == "mission":
            return MISSION + script["missions"].pop(0)
        if kind == "reshuffle":
            script["deck"] = script["after"]
            return RESHUFFLE
        return script["deck"].pop(0)

    def any_seats(self) -> tuple[int, ...]:
        seats = super().any_seats()
        seat = self.game.script["moves"][0][0]
        assert seat in seats
        return (seat,)


class _Scripted:
    """A bot that plays the batched game's moves in order (each must be legal for its seat)."""

    name, uses_view = "scripted", True

    def __init__(self, script: dict):
        self.script = script

    def act(self, view, legal, rng):
        seat, action = self.script["moves"].pop(0)
        assert seat == view.seat and action in legal
        return action


REPLAYED = PARAMS + [{"mode": "crazy", "medal_places": [1, 2, 4]}, {"mode": "crazy", "players": 2, "hand_size": 1},
                     {"players": 4, "hand_size": 8, "medal_places": [0, 1, 2]},
                     {"mode": "crazy", "players": 1, "hand_size": 3, "after_gold": "reshuffle-when-stuck", "medal_places": [1, 2, 3]}]


def replay(params: dict, games: int, seed: int = 11):
    """Play ``games`` batched games, recording them, and each again through ``play_game`` with
    its chance events, crazy-mode seats and plays; assert that both engines count it alike.
    Returns the batched run."""
    game = load("fifty-missions", None, params)
    run = game.batched(["random"] * game.players).run(seed, 0, games, record=True)
    assert run.finished.all()
    ids, seats, actions = (np.concatenate(column) for column in zip(*run.plays))
    by_game = np.argsort(ids, kind="stable")
    bounds = np.searchsorted(ids[by_game], np.arange(games + 1))
    game.state_class = _Replayed
    for g in range(games):
        at = by_game[bounds[g]:bounds[g + 1]]
        game.script = script = {"missions": run.mperm[g].tolist(), "deck": run.order0[g].tolist(), "after": run.order[g].tolist(),
                                "moves": list(zip(seats[at].tolist(), actions[at].tolist()))}
        bot = _Scripted(script)
        state, *counts = play_game(game, [bot] * game.players, game_rng(seed, g))
        one = np.zeros(games, dtype=bool)
        one[g] = True
        assert not script["moves"]
        assert state.returns() == [float(run.completed[g])] * game.players
        assert counts == [run.actions[g], run.moves[g], run.decisions[g]]
        assert state.tally() == dict(run.events(one))
        assert bool(state.winners()) == (run.medals[g] > 0)
    return run


@pytest.mark.parametrize("params", REPLAYED, ids=IDS + ["crazy, at gold", "crazy, 2 players, 1 card", "4 players, 8 cards, gold early",
                                                        "crazy, 1 player, when stuck"])
def test_the_same_chance_events_and_plays_give_the_reference_engines_game(params):
    """The batched engine's state machine is the reference's, game by game: each batched game's
    missions and symbol cards (in the order drawn) and plays, played again through ``play_game``
    (the chance events and, in the crazy variant, the seat taken from it), give the same result,
    actions, moves, decisions and tally."""
    run = replay(params, 150)
    if "medal_places" in params:  # small places: gold and the reshuffle in some of these games
        assert run.reshuffled.any()


def test_the_literal_stuck_seat_reading_is_refused_by_the_batched_engine_with_the_way_out():
    # game_end: any-seat (the rulebook's "as soon as a player cannot play" read literally) is played
    # by the reference engine only: the batched engine says so rather than play the other reading
    with pytest.raises(ParameterError, match="plays game_end: seat-due only .* run without --batched"):
        tally({"game_end": "any-seat"}, 100, "batched")
