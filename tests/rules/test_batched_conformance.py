"""One harness for every batched engine in the registry (``simulate --batched``): each against its
reference engine on the figures every game reports (each seat's wins, draws, the team's result in
a cooperative game, moves a game), a deterministic run on any number of workers and chunks, the
refusal of bots other than random, and the command line.  A game that gains a batched engine
(it overrides :meth:`Game.batched`) is tested here without a line added.

The per-game files (``test_<game>_batched.py``) compare the figures only that game reports (its
measures, its events) and what only that engine refuses."""
from __future__ import annotations

import pytest

from deckpress.rules.core.errors import ParameterError
from deckpress.rules.core.game import Game
from deckpress.rules.core.registry import game_class, known_games, load
from deckpress.rules.core.simulate import SimulationSpec, Tally, simulate
from tests.rules.distributions import Differences, batched_report

#: Games with a batched engine: those whose Game class overrides the refusal of :meth:`Game.batched`.
BATCHED = [g for g in known_games() if game_class(g).batched is not Game.batched]
#: Reference and batched games per comparison: the reference engine plays a few hundred to a few
#: thousand games a second on one core, the batched one tens of thousands.
REFERENCE_GAMES, BATCHED_GAMES = 3000, 30_000


def batched_ruleset(game_id: str) -> str | None:
    """The first of the game's rulesets (its default first) that its batched engine plays with
    random bots at the default parameters."""
    for ruleset in [None, *game_class(game_id).info.rulesets]:
        game = load(game_id, ruleset)
        try:
            game.batched(["random"] * game.players)
        except ParameterError:
            continue
        return ruleset
    raise AssertionError(f"{game_id} overrides Game.batched but plays none of its rulesets")


def tally(game_id: str, games: int, engine: str, seed: int = 1, bots: tuple[str, ...] | None = None) -> Tally:
    """A simulation's tally of ``games`` games of ``game_id`` (its batched ruleset, default parameters)."""
    game = load(game_id, batched_ruleset(game_id))
    spec = SimulationSpec(game_id, dict(game.params), bots or ("random",) * game.players, games, seed, engine=engine)
    return simulate(spec).tally


def differences(a: Tally, b: Tally) -> Differences:
    """The figures every simulation report shows whose two runs differ by more than ``Z_LIMIT``
    standard errors (``tests/rules/distributions.py``): each seat's wins and the draws
    (two-proportion tests), or in a cooperative game the team's wins and mean result, and the
    seat moves a game (Welch's test on the ``lengths`` histograms)."""
    out = Differences()
    if a.cooperative:
        out.proportion("team wins", a.team_wins, a.games, b.team_wins, b.games)
        out.histograms("team result", a.team_results, b.team_results)
    else:
        for seat in range(a.players):
            out.proportion(f"seat {seat} wins", a.wins[seat], a.games, b.wins[seat], b.games)
        out.proportion("draws", a.draws, a.games, b.draws, b.games)
    out.histograms("moves a game", a.lengths, b.lengths)
    return out


def test_the_registry_has_batched_engines():
    # the harness below loops over these: an empty list would make it pass vacuously
    assert {"mission-emission", "fifty-missions", "maybe-missions", "geheime-mission"} <= set(BATCHED)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", BATCHED)
def test_the_batched_engine_gives_the_reference_engines_results(game_id):
    reference = tally(game_id, REFERENCE_GAMES, "reference")
    batched = tally(game_id, BATCHED_GAMES, "batched")
    assert reference.games == REFERENCE_GAMES and batched.games == BATCHED_GAMES and batched.cut_off == 0
    assert differences(batched, reference) == {}


@pytest.mark.slow
@pytest.mark.parametrize("game_id", BATCHED)
def test_a_batched_run_is_the_same_on_any_number_of_workers_and_chunks(game_id, monkeypatch):
    ruleset = batched_ruleset(game_id)
    game = load(game_id, ruleset)
    monkeypatch.setattr(type(game.batched(["random"] * game.players)), "chunk_games", 4000)  # 10,000 games: three chunks
    one = batched_report(game_id, {}, 10_000, 3, workers=1, ruleset=ruleset)
    assert one == batched_report(game_id, {}, 10_000, 3, workers=2, ruleset=ruleset)
    assert one["batched"] is True and one["games"] == 10_000
    assert batched_report(game_id, {}, 10_000, 4, workers=1, ruleset=ruleset) != one  # the seed matters
    # a chunk is the same games whoever plays it: its tally depends on the seed and its games only
    engine = game.batched(["random"] * game.players)
    assert engine.play_chunk(3, 4000, 8000) == engine.play_chunk(3, 4000, 8000)


@pytest.mark.parametrize("game_id", BATCHED)
def test_bots_other_than_random_are_refused_with_the_reason(game_id):
    players = load(game_id, batched_ruleset(game_id)).players
    with pytest.raises(ParameterError, match="random bots only, not greedy"):
        tally(game_id, 100, "batched", bots=("greedy",) + ("random",) * (players - 1))
    if players > 1:
        with pytest.raises(ParameterError, match="random bots only, not greedy, ismcts"):
            tally(game_id, 100, "batched", bots=("ismcts", "greedy") + ("random",) * (players - 2))


@pytest.mark.parametrize("game_id", BATCHED)
def test_simulate_batched_from_the_command_line(game_id, cli):
    ruleset = batched_ruleset(game_id)
    result = cli("simulate", game_id, "--games", "3000", "--batched", *(["--ruleset", ruleset] if ruleset else []))
    assert result.exit_code == 0, result.output
    assert "batched engine: the reference engine's distribution, not its games" in result.output
