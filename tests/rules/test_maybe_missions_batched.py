"""Maybe Missions' batched engine (``rules/maybe_missions/batched.py``, ``simulate --batched``): the
reference engine's distribution of every reported figure for parameter sets covering 3 to 6
players, short and long games, every ``tie``, ``vote_numbers``, ``empty_market`` and
``redraw_from`` value, small and large markets and both variants (play_masters,
reduce_randomness); the power of that comparison to see a changed rule; a deterministic run on any
number of workers and chunks; and the refusal of what it does not play."""
from __future__ import annotations

import json
from functools import lru_cache

import numpy as np
import pytest

from deckpress.rules.core.batched import tally_of
from deckpress.rules.core.errors import ParameterError
from deckpress.rules.core.registry import load
from deckpress.rules.core.simulate import SimulationSpec, Tally, simulate
from deckpress.rules.core.stats import percentile
from deckpress.rules.maybe_missions import batched as batched_engine
from tests.conftest import edit
from tests.rules.distributions import Differences

#: The percentiles of the reference run at which the shares of the game lengths are compared
#: (the report prints p10, p50, p90 and p99 of them).
CUTS = (10, 50, 90)
#: Rates the report's measures show (``measures.py``), by the prefix of their count and of the
#: count they are a share of.
SHARES = (("succeeded: ", "in force: "), ("changed the result: ", "in force: "), ("held by a winner: ", "held at the end: "),
          ("winner's doubled resource: ", "games with one winner"), ("successes", "rounds"))

#: Three players with 2 + 2 votes each, tied votes failing, the lowest vote numbers, a market of
#: one card (every proposal one card; resource_variety waived in most of its rounds, redeals
#: often); six players with 3 + 3 votes, a market of 4 and random vote numbers (vote_cutoff acts);
#: three players with 8 + 8 votes and a full market of 12 voting on an empty market (the deck runs
#: out in many games: rounds on no cards, adjustments from an empty market), Master cards played
#: (most are won in such long games, and several are often in force together); four players with
#: 3 + 3 votes redrawing from the discards (votes revealed before come back into hands, and their
#: numbers with them); five players with 2 + 2 votes redrawing from the box, Master cards played.
PARAMS = [{"players": 3, "votes": 2, "tie": "fail", "vote_numbers": "lowest", "market": 1},
          {"players": 6, "votes": 3, "market": 4},
          {"players": 3, "votes": 8, "market": 12, "empty_market": "vote", "play_masters": True},
          {"players": 4, "votes": 3, "reduce_randomness": True, "adjust_removed": "discard"},
          {"players": 5, "votes": 2, "reduce_randomness": True, "redraw_from": "box", "play_masters": True}]
IDS = ["3 players, 2 votes, tie fails, lowest, market 1", "6 players, 3 votes, market 4",
       "3 players, 8 votes, market 12, empty market votes, Master cards played", "4 players, 3 votes, redraws from the discards, master-19 discards",
       "5 players, 2 votes, redraws from the box, Master cards played"]
#: Reference games per set (about 500 a second on one core for the shorter games).
REFERENCE_GAMES = (4000, 3000, 1500, 1500, 1500)
BATCHED_GAMES = 30_000


def tally(params: dict, games: int, engine: str, seed: int = 1, bots=None) -> Tally:
    if engine == "reference" and bots is None:
        return _reference(json.dumps(params, sort_keys=True), games, seed)
    game = load("maybe-missions", "base", params)
    spec = SimulationSpec("maybe-missions", dict(game.params), tuple(bots or ("random",) * game.players), games, seed, engine=engine)
    return simulate(spec).tally


@lru_cache(maxsize=None)
def _reference(params: str, games: int, seed: int) -> Tally:
    """The reference engine's tally, kept for the tests of this process (the power test compares
    with the distribution test's reference run)."""
    game = load("maybe-missions", "base", json.loads(params))
    spec = SimulationSpec("maybe-missions", dict(game.params), ("random",) * game.players, games, seed)
    return simulate(spec).tally


def batched(params: dict, games: int, seed: int = 1) -> tuple[Tally, dict]:
    """The batched engine's tally of ``games`` games (one chunk, as ``play_chunk`` counts it) and
    its per-game figures (:func:`per_game`), from which :func:`differences` takes the spread of
    the counts a tally keeps only as sums."""
    game = load("maybe-missions", "base", params)
    run = game.batched(["random"] * game.players).run(seed, 0, games)
    return tally_of(run, game.players), per_game(run)


def per_game(run) -> dict[str, np.ndarray]:
    """Each game's figures ``[G]``: each seat's score, the actions, the moves that are no
    decision, and every count of the tally."""
    out = {f"seat {s} score": run.scores[:, s] for s in range(run.scores.shape[1])}
    out["actions a game"] = run.actions.astype(float)
    out["moves that are no decision"] = (run.moves - run.decisions).astype(float)
    out.update({name: run.tallies[:, i].astype(float) for name, i in run.columns.items() if name})
    return out


def differences(a: Tally, b: Tally, spread: dict[str, np.ndarray]) -> Differences:
    """Every figure of a simulation report whose two runs ``a`` (the batched engine's) and ``b``
    (the reference's) differ by more than Z_LIMIT standard errors: ``{figure: z}``.

    * Rates of games by a two-proportion z-test (pooled): each seat's wins alone and shared wins,
      the draws, the games whose length reaches each of the reference's :data:`CUTS` percentiles.
    * Means per game by Welch's test: the moves (from the ``lengths`` histograms); each seat's
      score, the actions, the moves that are no real decision (the decision rate) and every
      count of the tally, whose tallies keep only sums, with the per-game variance measured on
      the batched run (``spread``) for both: the same distribution under the hypothesis tested.
    * The rates the report's measures show (:data:`SHARES`: rounds that succeeded of rounds in
      force, results changed, Master cards held by a winner, the doubled resource, successes of
      rounds) as ratios of two counts per game, each game one cluster: the standard error of
      ``sum x / sum y`` is ``sd(x - R y) / (mean y sqrt(G))`` (the delta method), with the
      batched run's per-game values.

    A count present in one run only is compared as 0 in the other (a rare event, such as a
    redeal at four players, need not happen in the smaller run)."""
    out = Differences()

    def means(name: str, x1: float, x2: float, variance: float) -> None:
        out.means(name, x1 / a.games, variance, a.games, x2 / b.games, variance, b.games)

    def at_least(histogram, x) -> int:
        return sum(v for k, v in histogram.items() if k >= x)

    for seat in range(a.players):
        out.proportion(f"seat {seat} wins", a.wins[seat], a.games, b.wins[seat], b.games)
        out.proportion(f"seat {seat} shared wins", a.shared[seat], a.games, b.shared[seat], b.games)
        name = f"seat {seat} score"
        means(name, a.score_sums[seat], b.score_sums[seat], spread[name].var(ddof=1))
    out.proportion("draws", a.draws, a.games, b.draws, b.games)
    out.histograms("moves a game", a.lengths, b.lengths)
    for x in sorted({percentile(b.lengths, q) for q in CUTS} - {min(b.lengths)}):
        out.proportion(f"moves a game at least {x}", at_least(a.lengths, x), a.games, at_least(b.lengths, x), b.games)
    means("actions a game", a.actions, b.actions, spread["actions a game"].var(ddof=1))
    means("moves that are no decision", a.moves - a.decisions, b.moves - b.decisions, spread["moves that are no decision"].var(ddof=1))
    for key in sorted(set(a.events) | set(b.events)):
        means(key, a.events[key], b.events[key], spread[key].var(ddof=1))
        for part, whole in SHARES:
            if key.startswith(part):
                of = whole + key[len(part):] if whole.endswith(": ") else whole
                x, y = spread[key], spread[of]
                if a.events[of] and b.events[of]:
                    r1, r2 = a.events[key] / a.events[of], b.events[key] / b.events[of]
                    variance = float(np.var(x - r1 * y, ddof=1)) / float(y.mean()) ** 2
                    out.means(f"{key} (share of {of})", r1, variance, a.games, r2, variance, b.games)
    return out


def consistent(t: Tally, params: dict) -> None:
    """What every run of either engine must satisfy exactly."""
    game = load("maybe-missions", "base", params)
    e, n = t.events, game.players
    assert t.cut_off == 0 and t.games > 0
    assert sum(t.wins) + t.draws == t.games == e["games with one winner"] + t.draws
    assert sum(t.shared) >= 2 * t.draws
    assert sum(v for k, v in e.items() if k.startswith("winner's doubled resource: ")) >= e["games with one winner"]
    assert e["successes"] <= e["rounds"] and e["all-NO rounds"] <= e["rounds"]
    assert e["rounds ended by unanimity"] <= e.get("in force: unanimous_ends_round", 0)
    for kind in {k[len("in force: "):] for k in e if k.startswith("in force: ")}:
        assert e[f"succeeded: {kind}"] <= e[f"in force: {kind}"]
    # 20 Master cards, at most 20 rounds here: a revealed card in every round, and each played card adds a kind at most
    in_force = sum(v for k, v in e.items() if k.startswith("in force: "))
    played = e.get("masters played", 0)
    assert e["rounds"] <= in_force <= e["rounds"] + played and (played == 0 or game.play_masters)
    held = sum(v for k, v in e.items() if k.startswith("held at the end: "))
    assert held + played <= e["rounds"] - max(e["all-NO rounds"], e["rounds ended by unanimity"])  # won once, never back
    # every seat plays one vote a round at least while it holds any, and no hand grows (passing: all alike; redraws: 2 for 2 at most)
    assert e["rounds"] <= 2 * game.votes_per_type * t.games
    assert e.get("redraws", 0) <= n * e["rounds"] and (e.get("redraws", 0) == 0 or game.reduce_randomness)
    # the deal: hand x players chance events, once more for each redeal
    deals = (t.games + e.get("redeals", 0)) * game.hand_size * n
    assert t.actions - t.moves >= deals + min(game.market_size, game.n_missions) * t.games
    assert t.decisions <= t.moves


@pytest.mark.slow
@pytest.mark.parametrize("params, games", list(zip(PARAMS, REFERENCE_GAMES)), ids=IDS)
def test_the_batched_engine_gives_the_reference_engines_distribution(params, games):
    reference = tally(params, games, "reference")
    fast, spread = batched(params, BATCHED_GAMES)
    assert reference.games == games and fast.games == BATCHED_GAMES
    consistent(reference, params)
    consistent(fast, params)
    assert differences(fast, reference, spread) == {}


@pytest.mark.slow
def test_the_comparison_sees_a_changed_rule(monkeypatch):
    """The check above has the power to fail: a tied vote read the other way (a SUCCESS where
    ``tie: fail`` makes it a FAIL), votes_per_player's Master card disabled (every seat plays
    one vote in its round), and the rules of the Master cards played left out (the revealed
    card's alone in force)."""
    params, games = PARAMS[0], REFERENCE_GAMES[0]
    reference = tally(params, games, "reference")
    usual = batched_engine.Run._passes

    def tie_succeeds(run, test, margin, yes, no):
        return usual(run, test, margin, yes + (yes == no), no)

    with monkeypatch.context() as m:
        m.setattr(batched_engine.Run, "_passes", tie_succeeds)
        fast, spread = batched(params, BATCHED_GAMES)
        found = differences(fast, reference, spread)
    assert {"successes", "successes (share of rounds)", "seat 0 score"} <= set(found)
    read = batched_engine.Rules.__init__

    def one_vote(rules, game):
        read(rules, game)
        rules.votes[:] = 1

    with monkeypatch.context() as m:
        m.setattr(batched_engine.Rules, "__init__", one_vote)
        fast, spread = batched(params, BATCHED_GAMES)
        found = differences(fast, reference, spread)
    assert {"rounds", "cards proposed", "moves a game"} <= set(found)
    params, games = PARAMS[4], REFERENCE_GAMES[4]
    assert params["play_masters"]
    reference = tally(params, games, "reference")

    def revealed_only(rules, cards):
        return np.where(cards[:, 0] >= 0, cards[:, 0], rules.K)

    with monkeypatch.context() as m:
        m.setattr(batched_engine.Rules, "rows_of", revealed_only)
        fast, spread = batched(params, BATCHED_GAMES)
        found = differences(fast, reference, spread)
    assert {"in force: forced_vote", "in force: success_margin", "succeeded: forced_vote"} <= set(found)


def test_the_games_do_not_depend_on_the_order_an_engine_met_its_rule_combinations():
    # with Master cards played, an engine numbers the combinations of rules in the order it meets them: the games do not depend on it
    game = load("maybe-missions", "base", PARAMS[4])
    fresh, used = game.batched(["random"] * 5), game.batched(["random"] * 5)
    used.play_chunk(9, 0, 1000)
    assert fresh.play_chunk(3, 1000, 2000) == used.play_chunk(3, 1000, 2000)


@pytest.mark.parametrize("params, message", [
    ({"identities": True}, "base game and its variants only, not identities"),
    ({"gadgets": True}, "base game and its variants only, not gadgets"),
    ({"identities": True, "play_masters": True, "reduce_randomness": True}, "base game and its variants only, not identities")])
def test_what_the_batched_engine_does_not_play_is_refused_with_the_reason(params, message):
    game = load("maybe-missions", None, params)
    with pytest.raises(ParameterError, match=f"{message} .*: simulate it with the reference engine"):
        game.batched(["random"] * game.players)


def test_a_master_rule_kind_the_batched_engine_does_not_play_is_refused_by_name(game_copy, monkeypatch):
    """The engine reads the kinds of the content's Master cards: a card changed in the YAML plays
    by its new rule, and a kind outside :data:`KINDS` (here one taken out of it) is refused,
    named, before any game."""
    folder = game_copy("maybe-missions")
    edit(folder / "masters.yaml", "rule: {kind: open_voting}", 'rule: {kind: forced_vote, vote: "NO"}')
    game = load("maybe-missions", "base", {"players": 3}, content_dir=folder)
    run = game.batched(["random"] * 3).run(1, 0, 2000)
    assert "in force: open_voting" not in run.columns and run.tallies[:, run.columns["in force: forced_vote"]].sum() > 0
    monkeypatch.setattr(batched_engine, "KINDS", {k: v for k, v in batched_engine.KINDS.items() if k != "forced_vote"})
    with pytest.raises(ParameterError, match=r"does not play the Master rule kind forced_vote of this content \(it plays "):
        game.batched(["random"] * 3)
