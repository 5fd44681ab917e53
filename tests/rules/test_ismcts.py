"""The search bot ``ismcts`` (issue 14, section 1): one implementation on the core's interfaces,
for every game with an engine; seeded like every bot; stronger than ``greedy`` where its budget
allows (measured here for Mission Emission; the closing note of the issue gives the other games'
figures)."""
from __future__ import annotations

import pytest

from deckpress.rules.core.bots import make_bot
from deckpress.rules.core.log import record, to_yaml
from deckpress.rules.core.registry import known_games, load
from deckpress.rules.core.simulate import game_rng, play_game
from deckpress.rules.core.stats import wilson

PLAYERS = {"mission-emission": 2, "fifty-missions": 2, "maybe-missions": 3, "geheime-mission": 2}


@pytest.mark.parametrize("game_id", sorted(PLAYERS))
def test_ismcts_plays_every_game_to_the_end_and_the_same_seed_gives_the_same_game(game_id):
    assert set(PLAYERS) == set(known_games())
    game = load(game_id, overrides={"players": PLAYERS[game_id]})
    logs = []
    for _ in range(2):
        bots = [make_bot(game_id, "ismcts:8")] + [make_bot(game_id, "greedy") for _ in range(PLAYERS[game_id] - 1)]
        final = play_game(game, bots, game_rng(3, 0))[0]
        assert final.is_terminal()
        logs.append(to_yaml(record(game, final.history, 3)))
    assert logs[0] == logs[1]


def test_ismcts_beats_greedy_at_mission_emission_beyond_the_noise():
    """One ismcts:100 seat against one greedy seat, 100 seeded games, seats alternating: its win
    share's Wilson 95 % interval lies above the even share (about 0.64 of the games)."""
    game = load("mission-emission", overrides={"players": 2})
    won = 0.0
    for i in range(100):
        seat = i % 2
        bots = [make_bot("mission-emission", "greedy"), make_bot("mission-emission", "greedy")]
        bots[seat] = make_bot("mission-emission", "ismcts:100")
        winners = play_game(game, bots, game_rng(1, i))[0].winners()
        won += 1 / len(winners) if seat in winners else 0
    low, _ = wilson(round(won), 100)
    assert low > 0.5, (won, low)
