"""The roll-out bot ``rollout`` (issue 14, section 1: a bot stronger than ``greedy``): one
implementation on the core's interfaces for every game with a heuristic bot; seeded like every
bot (``tests/rules/test_ismcts.py`` plays every game with both search bots); and stronger than
``greedy`` beyond the noise in Maybe Missions (more than an even share of wins).  Its gain in 50
Missions (about +5 missions a game) needs some 100 games of a minute's CPU to tell from the
noise, more than the suite's budget allows: ``benchmarks/skill.py --bot rollout`` measures it,
and ``rules/core/rollout.py`` gives every game's figures."""
from __future__ import annotations

import pytest

from deckpress.rules.core.bots import make_bot
from deckpress.rules.core.errors import ParameterError
from deckpress.rules.core.registry import load
from deckpress.rules.core.skill import skill_signal


@pytest.mark.parametrize("name, message", [
    ("rollout:0", "rollout:0: the determinisations a decision are 1 to 10,000"),
    ("rollout:many", "bot 'rollout:many': write rollout:N, N the determinisations a decision"),
])
def test_a_rollout_budget_out_of_range_is_refused_in_words(name, message):
    load("mission-emission")
    with pytest.raises(ParameterError, match=message):
        make_bot("mission-emission", name)


def test_one_rollout_seat_wins_more_than_an_even_share_at_maybe_missions():
    """The skill signal of three-seat Maybe Missions with the roll-out bot, 60 games (20 in each
    seat) with the seed ``benchmarks/skill.py`` uses: its win share's Wilson 95 % interval lies
    above the even third (0.525 of the games, from 0.40; over 150 games 0.495)."""
    signal = skill_signal("maybe-missions", {"players": 3}, 60, seed=5, bot="rollout")
    assert signal.games == 60 and [part["games"] for part in signal.by_seat] == [20, 20, 20]
    low, _ = signal.win_share_95
    assert low > signal.even_share == 1 / 3, signal.win_share_95


def test_simulate_shows_the_skill_signal_of_one_rollout_seat(cli):
    result = cli("simulate", "mission-emission", "--players", "2", "--bots", "rollout:2,greedy", "--games", "6", "--seed", "2")
    assert result.exit_code == 0, result.output
    assert "skill signal: the rollout seat won " in result.stdout and "(rollout:2 in seat 0;" in result.stdout
    refused = cli("simulate", "mission-emission", "--players", "2", "--bots", "rollout:0,greedy", "--games", "6")
    assert refused.exit_code == 2 and "rollout:0: the determinisations a decision are 1 to 10,000" in refused.output
