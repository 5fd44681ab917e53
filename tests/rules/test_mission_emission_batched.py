"""Mission Emission's batched engines (``rules/mission_emission/batched/``, ``simulate --batched``):
the reference engine's distribution of results, a deterministic run on any number of workers,
and clear refusals for what it does not play."""
from __future__ import annotations

import json

import pytest

from deckpress.rules.core.errors import ParameterError
from deckpress.rules.core.registry import load
from deckpress.rules.core.simulate import SimulationSpec, Tally, simulate
from tests.rules.distributions import Differences


def tally(params: dict, games: int, engine: str, seed: int = 1, workers: int = 1, ruleset: str = "base") -> Tally:
    game = load("mission-emission", ruleset, params)
    spec = SimulationSpec("mission-emission", dict(game.params), ("random",) * game.players, games, seed, workers=workers, engine=engine)
    return simulate(spec).tally


def differences(a: Tally, b: Tally, kids: bool = False) -> Differences:
    """Every figure of a simulation report whose two runs differ by more than Z_LIMIT standard
    errors: ``{figure: z}``.  Rates (win shares, draws, each point card won, tied rounds; in the
    kids game, rounds whose cards were taken, from the mean pockets) by a two-proportion test,
    moves per game by Welch's test on the per-game lengths."""
    out = Differences()
    for seat in range(a.players):
        out.proportion(f"seat {seat} wins", a.wins[seat], a.games, b.wins[seat], b.games)
    out.proportion("draws", a.draws, a.games, b.draws, b.games)
    for key in sorted(set(a.events) | set(b.events)):
        if key.startswith("won: "):
            out.proportion(key, a.events[key], a.games, b.events[key], b.games)
    out.histograms("moves a game", a.lengths, b.lengths)
    # tied rounds scale with the length: compare them per round, within their noise
    if "rounds" in a.events:  # the base and kids games (the strategy game has turns and no ties)
        out.proportion("tied rounds a round", a.events["tied rounds"], a.events["rounds"], b.events["tied rounds"], b.events["rounds"])
    if kids:  # every round taken puts one card of each seat into a pocket
        out.proportion("rounds taken a round", round(sum(a.score_sums)) // a.players, a.events["rounds"],
                       round(sum(b.score_sums)) // b.players, b.events["rounds"])
    return out


@pytest.mark.slow
@pytest.mark.parametrize("params", [{"players": 4}, {"players": 2, "reshuffle": "when-empty", "tie": "first-played"},
                                    {"players": 5, "hand_size": 1, "piles_to_end": 2}],
                         ids=["4 seats", "2 seats, when-empty, first-played", "5 seats, 1 card, 2 piles"])
def test_the_batched_engine_gives_the_reference_engines_distribution(params):
    reference = tally(params, 6000, "reference")
    batched = tally(params, 60_000, "batched")
    assert reference.games == 6000 and batched.games == 60_000 and batched.cut_off == 0
    assert differences(batched, reference) == {}
    # the same rules give the same deal and the same count of chance events per round
    n = reference.players
    assert batched.moves % (1 + n) == 0 and batched.moves // (1 + n) == batched.events["rounds"]
    assert abs(batched.actions / batched.moves - reference.actions / reference.moves) < 0.01


@pytest.mark.slow
def test_the_comparison_sees_a_changed_rule():
    """The check above has the power to fail: the tied card played first taking the point card
    (a variant) is told apart from the rulebook's 'a tie gives nothing'."""
    rulebook = tally({"players": 4}, 6000, "reference")
    variant = tally({"players": 4, "tie": "first-played"}, 60_000, "batched")
    assert "moves a game" in differences(variant, rulebook)  # awards on ties finish the piles sooner


@pytest.mark.slow
@pytest.mark.parametrize("params", [{"players": 4}, {"players": 5, "tie": "first-played"}, {"players": 3, "kids_winner": "better"}],
                         ids=["4 seats", "5 seats, first-played", "3 seats, better number"])
def test_the_batched_kids_game_gives_the_reference_engines_distribution(params):
    reference = tally(params, 6000, "reference", ruleset="kids")
    batched = tally(params, 60_000, "batched", ruleset="kids")
    assert batched.games == 60_000 and batched.cut_off == 0
    assert differences(batched, reference, kids=True) == {}
    # the same number of rounds (36 state cards // seats), deal and draws in every game
    n = reference.players
    assert batched.events["rounds"] == 60_000 * (36 // n) and reference.events["rounds"] == 6000 * (36 // n)
    assert batched.actions / batched.games == reference.actions / reference.games


@pytest.mark.slow
def test_the_kids_comparison_sees_a_changed_rule():
    """Giving a tie to the nearest tied seat (a variant) is told apart from the rulebook's 'nobody
    takes them': more cards in the pockets."""
    rulebook = tally({"players": 5}, 6000, "reference", ruleset="kids")
    variant = tally({"players": 5, "tie": "first-played"}, 60_000, "batched", ruleset="kids")
    assert list(differences(variant, rulebook, kids=True)) == ["rounds taken a round"]


@pytest.mark.parametrize("ruleset, params, bots, message", [
    ("strategy", {}, "greedy", "random bots only, not greedy"),
    ("kids", {"kids_end": "all-cards"}, "random", "kids game to the end of the draw deck only"),
    ("set-collection", {}, "random", "does not play the set collection variant"),
    ("base", {}, "greedy", "random bots only, not greedy"),
])
def test_what_the_batched_engine_does_not_play_is_refused_with_the_reason(ruleset, params, bots, message):
    game = load("mission-emission", ruleset, params)
    spec = SimulationSpec("mission-emission", dict(game.params), (bots,) * game.players, 100, 1, engine="batched")
    with pytest.raises(ParameterError, match=message):
        simulate(spec)


@pytest.mark.slow
def test_simulate_batched_from_the_command_line(cli):
    result = cli("simulate", "mission-emission", "--games", "5000", "--batched", "--format", "json")
    assert result.exit_code == 0, result.output
    d = json.loads(result.stdout)
    assert d["batched"] is True and d["games"] == 5000 and d["bots"] == ["random"] * 4
    assert 14 < d["length_in_moves"]["mean"] / 5 < 16.5  # about 15 rounds of 5 moves (reference: 15.08)
    text = cli("simulate", "mission-emission", "--games", "2000", "--batched")
    assert text.exit_code == 0 and "batched engine: the reference engine's distribution, not its games" in text.output
    refused = cli("simulate", "maybe-missions", "--batched", "--ruleset", "all")
    assert refused.exit_code == 2 and "plays Maybe Missions' base game and its variants only, not identities" in refused.output
    no_logs = cli("simulate", "mission-emission", "--batched", "--save-logs", "3")
    assert no_logs.exit_code == 2 and "keeps no logs" in no_logs.output
