"""``deckpress simulate`` and the simulation driver: balance reports a user reads, results that do
not depend on the number of workers, bounded runs, and clear errors for bad options."""
from __future__ import annotations

import json

import pytest

from deckpress.rules.core.bots import make_bot
from deckpress.rules.core.errors import MoveLimitExceeded
from deckpress.rules.core.log import read_log
from deckpress.rules.core.results import simulation_dict
from deckpress.rules.core.simulate import (
    SimulationSpec,
    Tally,
    game_rng,
    play_game,
    run_chunk,
    simulate,
)
from tests.rules.helpers import me


def report(spec: SimulationSpec) -> dict:
    d = simulation_dict(simulate(spec))
    d.pop("timing")
    return d


@pytest.mark.slow
def test_results_do_not_depend_on_the_number_of_workers():
    params = dict(me(mode="base", players=4).params)
    one = report(SimulationSpec("mission-emission", params, ("greedy", "random", "random", "random"), 450, seed=7, workers=1))
    two = report(SimulationSpec("mission-emission", params, ("greedy", "random", "random", "random"), 450, seed=7, workers=2))
    assert one == two and one["games"] == 450
    other_seed = report(SimulationSpec("mission-emission", params, ("greedy", "random", "random", "random"), 450, seed=8))
    assert other_seed["seats"] != one["seats"]


@pytest.mark.slow
def test_a_run_with_a_search_bot_moves_its_progress_every_ten_games_and_any_workers_agree():
    # a search bot plays a game in up to seconds: small chunks share a short run among the workers
    spec = SimulationSpec("mission-emission", {"players": 2}, ("ismcts:4", "greedy"), 25, seed=3, workers=1)
    seen: list[int] = []
    one = simulation_dict(simulate(spec, progress=seen.append))
    assert seen == [10, 20, 25]
    one.pop("timing")
    two = report(SimulationSpec("mission-emission", {"players": 2}, ("ismcts:4", "greedy"), 25, seed=3, workers=2))
    assert one == two and one["games"] == 25 and one["skill"]["bot"] == "ismcts:4"


@pytest.mark.slow
def test_simulate_json_report_is_pure_json_with_every_number_explained(cli):
    result = cli("simulate", "mission-emission", "--mode", "base", "--players", "4", "--games", "300",
                 "--bots", "greedy,random,random,random", "--seed", "1", "--format", "json")
    assert result.exit_code == 0, result.output
    d = json.loads(result.stdout)
    assert d["games"] == 300 and d["cut_off_by_move_bound"] == 0 and not d["stopped_by_time_limit"]
    assert [s["bot"] for s in d["seats"]] == ["greedy", "random", "random", "random"]
    assert d["params"]["players"] == 4 and d["params"]["points"]["forest"] == [3, 5, 7]
    assert sum(s["wins"] for s in d["seats"]) + d["draws"] == 300
    for s in d["seats"]:
        low, high = s["win_rate_95"]
        assert low <= s["win_rate"] <= high
    assert d["length_in_moves"]["p10"] <= d["length_in_moves"]["p50"] <= d["length_in_moves"]["p99"] <= d["length_in_moves"]["max"]
    # every point card of the finished piles is won in most games; the per-game rates are listed
    won = [m for m in d["measures"] if m["group"] == "Point cards won (share of games)"]
    assert len(won) == 18 and all(m["kind"] == "rate" and m["trials"] == 300 and 0 < m["value"] <= 1 for m in won)
    assert all(m["interval_95"][0] <= m["value"] <= m["interval_95"][1] for m in won)


@pytest.mark.slow
def test_greedy_bots_beat_random_ones_in_every_mode():
    # The skill signal of a balance report: a sensible heuristic wins more often than chance.
    for mode, players in (("base", 3), ("strategy", 3), ("kids", 3)):
        params = dict(me(mode=mode, players=players).params)
        d = report(SimulationSpec("mission-emission", params, ("greedy", "random", "random"), 400, seed=3))
        assert d["seats"][0]["win_rate"] > 0.45, (mode, d["seats"])


def test_simulate_text_report_names_bots_parameters_and_cut_offs(cli):
    result = cli("simulate", "mission-emission", "--mode", "strategy", "--players", "3", "--games", "200")
    assert result.exit_code == 0
    out = result.stdout
    assert "Mission Emission · strategy · 3 players · 200 games · seed 1 · bots: random, random, random" in out
    assert 'mode="strategy"' in out and "95 % interval" in out
    assert "cut off by the move bound (96 actions): 0" in out


@pytest.mark.parametrize("args,message", [
    (["--bots", "greedy,random"], "--bots names 2 bots for 4 seats: give one (for every seat) or 4"),
    (["--bots", "clever"], "unknown bot 'clever' for mission-emission (known bots: greedy, ismcts, random, rollout; ismcts:N, rollout:N for a budget)"),
    (["-p", "hand=4"], "unknown parameter 'hand' (did you mean 'hand_size'?)"),
    (["--players", "9"], "parameter 'players': 9 is outside 2..6"),
    (["-p", "nonsense"], "expected KEY=VALUE"),
    # JSON nested past the parser's depth is text to the parameter, not a RecursionError's traceback
    (["-p", "points=" + "[" * 20_000 + "]" * 20_000], "parameter 'points': expected a mapping, got '[[[["),
    (["-p", "tie=" + "q" * 500], "parameter 'tie': '" + "q" * 60 + "… (500 characters)' is not one of: nobody, first-played"),
    (["--bots", "r" * 3000], "unknown bot '" + "r" * 60 + "… (3,000 characters)' for mission-emission"),
    (["--time-limit", "nan"], "nan: expected a finite number"),  # NaN passes every comparison of a range
])
def test_bad_options_are_usage_errors(cli, args, message):
    result = cli("simulate", "mission-emission", "--games", "10", *args)
    assert result.exit_code == 2 and message in result.output


@pytest.mark.slow
def test_a_run_stops_at_its_time_limit_and_says_so(cli):
    # the figures of a run cut short depend on the machine's speed: reported, but never as a success
    # (3 s: a fresh environment's first run spends its first second compiling and importing)
    result = cli("simulate", "mission-emission", "--games", "5000000", "--time-limit", "3", "--format", "json")
    d = json.loads(result.stdout)
    assert result.exit_code == 5 and d["stopped_by_time_limit"] and 0 < d["games"] < 5_000_000
    assert f"could not finish: the time limit (3 s) stopped the run after {d['games'] + d['cut_off_by_move_bound']:,} of 5,000,000 games" in result.stderr


def test_a_game_past_its_move_bound_is_cut_off_not_a_hang(monkeypatch):
    game = me(players=4)
    monkeypatch.setattr(type(game), "max_length", lambda self: 20)
    with pytest.raises(MoveLimitExceeded, match="passed its bound of 20 actions"):
        play_game(game, [make_bot(game.info.id, "random")] * 4, game_rng(1, 0))
    spec = SimulationSpec("mission-emission", dict(game.params), ("random",) * 4, 5, seed=1)
    tally = run_chunk(spec, 0, 5)
    assert tally.cut_off == 5 and tally.games == 0


def test_saved_logs_of_simulated_games_replay(tmp_path, cli):
    result = cli("simulate", "mission-emission", "--mode", "kids", "--players", "5", "--games", "20",
                 "--save-logs", "2", "--log-dir", tmp_path)
    assert result.exit_code == 0 and "wrote 2 game logs" in result.stdout
    logs = sorted(tmp_path.glob("*.yaml"))
    assert [p.name for p in logs] == ["mission-emission-kids-seed1-game0.yaml", "mission-emission-kids-seed1-game1.yaml"]
    assert read_log(logs[0]).params["mode"] == "kids"
    result = cli("replay", logs[1])
    assert result.exit_code == 0 and "all legal; the game is over" in result.stdout


def test_tallies_merge_exactly():
    a, b = Tally(2), Tally(2)
    a.wins, b.wins, a.games, b.games = [3, 1], [2, 2], 4, 4
    a.lengths.update({10: 4}), b.lengths.update({10: 1, 12: 3})
    a.merge(b)
    assert a.wins == [5, 3] and a.games == 8 and a.lengths == {10: 5, 12: 3}


@pytest.mark.parametrize("mode", ["base", "strategy", "kids"])
@pytest.mark.parametrize("bot", ["greedy", "random"])
def test_no_game_is_cut_off_by_the_move_bound(mode, bot):
    # Found by the benchmark: greedy kids bots once repeated a tie forever once the deck was used up
    # (every seat gets its own tied card back); the bound stopped it, the bot now avoids known ties.
    params = dict(me(mode=mode, players=4).params)
    d = report(SimulationSpec("mission-emission", params, (bot,) * 4, 300, seed=12))
    assert d["cut_off_by_move_bound"] == 0 and d["games"] == 300


@pytest.mark.slow
@pytest.mark.parametrize("address", ["tcp://127.0.0.1", "bogus", "tcp://:x"])
def test_a_scheduler_address_without_a_port_is_a_usage_error(cli, address):
    # distributed refuses such an address with a ValueError before connecting: it was a
    # traceback; it is one line saying what an address looks like
    result = cli("simulate", "geheime-mission", "--games", "10", "--scheduler", address)
    assert result.exit_code == 2
    assert f"--scheduler '{address}' is not a scheduler's address (" in result.output
    assert "expected tcp://HOST:PORT, such as tcp://10.0.0.5:8786" in result.output


@pytest.mark.slow
def test_a_batched_run_uses_one_cpu_per_worker():
    # NumPy's BLAS threads keep spinning after each matrix product (Maybe Missions' batched engine
    # multiplies matrices): the run limits them to one (threadpoolctl), so a worker's CPU time is
    # its own thread's (without the limit the ratio below was 1.31).  The ratio of the process's CPU
    # time to the main thread's, not a timing, measured in a process of its own: the test runner's
    # own threads (pytest-xdist's) would count in this one's.
    import subprocess
    import sys

    code = """
import time
from deckpress.rules.core.registry import load
from deckpress.rules.core.simulate import SimulationSpec, simulate
params = dict(load("maybe-missions", "base", {"players": 4}).params)
simulate(SimulationSpec("maybe-missions", params, ("random",) * 4, 200, 1, engine="batched"))  # NumPy loaded and warm
process, thread = time.process_time(), time.thread_time()
simulate(SimulationSpec("maybe-missions", params, ("random",) * 4, 20_000, 1, engine="batched"))
print(time.process_time() - process, time.thread_time() - thread)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True).stdout
    process, thread = map(float, out.split())
    assert process / thread < 1.1, (process, thread)
