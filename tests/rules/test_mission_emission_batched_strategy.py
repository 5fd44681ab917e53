"""Mission Emission's batched strategy game (``rules/mission_emission/batched/strategy.py``): the
reference engine's distribution of every reported figure and of the strategy game's own counts per
game, and a comparison with the power to see a changed rule.

The simulation report's figures are compared by ``differences`` of
``tests/rules/test_mission_emission_batched.py``; the strategy game's own counts (turns, steals,
closings with cards), actions, decisions and each seat's pocket by their means per game, within
``Z_LIMIT`` standard errors of Welch's test on the per-game values (a count per turn would treat
the turns of one game as independent, which they are not).
"""
from __future__ import annotations

import numpy as np
import pytest

import deckpress.rules.mission_emission.batched.strategy as batched_strategy
from deckpress.rules.core.bots import make_bot
from deckpress.rules.core.registry import load
from deckpress.rules.core.simulate import Tally, game_rng, play_game
from deckpress.rules.mission_emission.batched.strategy import StrategyRun
from tests.rules.distributions import Differences
from tests.rules.test_mission_emission_batched import differences, tally

REFERENCE_GAMES, BATCHED_GAMES = 6000, 60_000


def reference(params: dict, games: int, seed: int = 1) -> tuple[Tally, dict[str, np.ndarray]]:
    """Games ``0..games-1`` of a reference run seeded ``seed``, played and counted as ``simulate``
    plays and counts them (``play_game`` with each game's generator, ``Tally.add``), and their
    figures per game (``{figure: [games]}``)."""
    game = load("mission-emission", "strategy", params)
    bots = [make_bot("mission-emission", "random") for _ in range(game.players)]
    counted = Tally(game.players)
    rows = []
    for index in range(games):
        state, actions, moves, decisions = play_game(game, bots, game_rng(seed, index))
        counted.add(state, actions, moves, decisions)
        own = state.tally()
        rows.append([moves, actions, decisions, own["turns"], own["steals"], own["closings with cards"], *state.returns()])
    columns = np.array(rows, dtype=float).T
    names = ["moves", "actions", "decisions", "turns", "steals", "closings with cards"]
    names += [f"seat {s} pocket" for s in range(game.players)]
    return counted, dict(zip(names, columns))


def batched(monkeypatch, params: dict, games: int, run: type = StrategyRun) -> tuple[Tally, dict[str, np.ndarray]]:
    """``games`` games of a batched run seeded 1 through ``simulate`` (the package's dispatch
    plays ``run``: :class:`StrategyRun` or a changed one), counted in a Tally, and the same games'
    figures per game (``{figure: [games]}``) read off the engine's runs (one a chunk)."""
    runs = []

    class Kept(run):
        def play(self):
            runs.append(self)
            return super().play()

    monkeypatch.setattr(batched_strategy, "StrategyRun", Kept)
    counted = tally(params, games, "batched", ruleset="strategy")
    assert runs and all(r.finished.all() for r in runs)  # every card is dealt or drawn once and played once: none is cut off
    figures = {name: np.concatenate([getattr(r, attribute) for r in runs]).astype(float) for name, attribute in (
        ("moves", "moves"), ("actions", "actions"), ("decisions", "decisions"), ("turns", "turns"), ("steals", "steals"),
        ("closings with cards", "closings"))}
    pockets = np.concatenate([r.scores for r in runs]).astype(float)
    figures.update({f"seat {s} pocket": pockets[:, s] for s in range(counted.players)})
    return counted, figures


def per_game_differences(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> Differences:
    """Every figure whose mean per game differs between ``a`` and ``b`` by more than ``Z_LIMIT``
    standard errors (Welch's test): ``{"<figure> a game": z}``."""
    out = Differences()
    for name in a:
        x, y = a[name], b[name]
        out.means(f"{name} a game", x.mean(), x.var(ddof=1), len(x), y.mean(), y.var(ddof=1), len(y))
    return out


def compare(monkeypatch, params: dict, run: type = StrategyRun) -> dict[str, float]:
    """Every figure in which ``BATCHED_GAMES`` batched games (``run``) and ``REFERENCE_GAMES``
    reference games differ beyond the noise: the simulation report's (``differences``) and the
    means per game."""
    counted, per_game = reference(params, REFERENCE_GAMES)
    fast, fast_per_game = batched(monkeypatch, params, BATCHED_GAMES, run)
    assert counted.games == REFERENCE_GAMES and fast.games == BATCHED_GAMES and fast.cut_off == 0
    # the same keys; the tally's own counts are the games' summed; turns are every move but the
    # one that removes the last pile
    assert set(fast.events) == set(counted.events) == {"turns", "steals", "closings with cards"}
    assert [fast.events[k] for k in ("turns", "steals", "closings with cards")] == [fast_per_game[k].sum() for k in ("turns", "steals", "closings with cards")]
    assert fast.events["turns"] == fast.moves - fast.games and counted.events["turns"] == counted.moves - counted.games
    return {**differences(fast, counted), **per_game_differences(fast_per_game, per_game)}


@pytest.mark.slow
@pytest.mark.parametrize("params", [
    {"players": 4},
    {"players": 2, "hand_size": 1},
    {"players": 6, "hand_size": 6, "centre": {"forest": 3, "smoke": 2}},
], ids=["4 seats", "2 seats, 1 card (most games end before the deck)", "6 seats, 6 cards, other centre cards (a 12-card deck)"])
def test_the_batched_strategy_game_gives_the_reference_engines_distribution(monkeypatch, params):
    assert compare(monkeypatch, params) == {}


class StealsOnEqualNumbers(StrategyRun):
    """A changed rule: an equal number steals the pile too (the rulebook: a better number)."""

    def _beats(self, value, best):
        return value >= best


@pytest.mark.slow
def test_the_strategy_comparison_sees_a_changed_rule(monkeypatch):
    """The comparison above has the power to fail: steals on equal numbers (a few equal numbers
    per mission among the 36 state cards) are told apart from the rulebook's 'better number'."""
    assert list(compare(monkeypatch, {"players": 2, "hand_size": 1}, run=StealsOnEqualNumbers)) == ["steals a game"]


def test_every_batched_strategy_game_counts_its_deal_draws_and_moves():
    """Per game: the deal, a move a turn, a draw after every move but the last while the deck
    lasts; no game ends before its point cards are all played (12 moves at least), none outlasts
    the deck (48 cards played at most)."""
    game = load("mission-emission", "strategy", {"players": 3, "hand_size": 4})
    run = StrategyRun(game, 5000, np.random.default_rng(3)).play()
    deck, dealt, points = game.n_cards - game.n_missions, 3 * 4, game.n_cards - game.n_states - game.n_missions
    assert run.finished.all() and (run.moves >= points).all() and (run.moves <= deck).all()
    assert (run.actions == dealt + run.moves + np.minimum(run.moves - 1, deck - dealt)).all()
    assert (run.decisions <= run.moves).all() and (run.scores.sum(axis=1) <= game.n_states).all()
    assert run.events(run.finished)["turns"] == run.moves.sum() - 5000


@pytest.mark.parametrize("params", [{"players": 2, "hand_size": 1}, {"players": 5, "hand_size": 2}, {"players": 6, "hand_size": 6}])
def test_the_reference_engine_never_skips_a_seat(params):
    """What the batched engine relies on to play the next seat clockwise: in the reference engine
    the seat whose turn it is always holds a card, and it is the seat after the last one to move
    (``strategy.py`` ``_next_turn`` skips empty hands, and finds none)."""
    game = load("mission-emission", "strategy", params)
    bots = [make_bot("mission-emission", "random") for _ in range(game.players)]
    for index in range(150):
        state = play_game(game, bots, game_rng(5, index))[0]
        seats = [seat for seat, _ in state.history if seat >= 0]
        assert seats == [i % game.players for i in range(len(seats))]
