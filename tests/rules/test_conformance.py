"""Random-simulation conformance tests, OpenSpiel style (open_spiel/python/tests/games_sim_test.py),
for every mode and player count: seeded random games through the validating path, checking the
invariants at every step, and agreement between the fast path and validated replay.
"""
from __future__ import annotations

import json
import math
import random

import pytest

from rules.core.bots import make_bot
from rules.core.game import CHANCE, TERMINAL
from rules.core.log import record
from rules.core.replay import replay
from rules.core.simulate import game_rng, play_game
from tests.rules.helpers import content, me

CASES = [(mode, players) for mode in ("base", "strategy", "kids") for players in range(2, 7)]
GAMES_PER_CASE = 4


def hidden_cards_shown(state, seat: int) -> list[str]:
    """Names of cards in other seats' hands or in the draw deck that appear in ``seat``'s view."""
    view = state.view(seat).to_dict()
    for public in ("last round", "known cards"):  # kids game: cards shown to all, then drawn from under the deck
        view.pop(public, None)
    text = json.dumps(view, ensure_ascii=False)
    hidden = [c for s, hand in enumerate(state.hands) if s != seat for c in hand] + state.deck
    return [state.game.card_names[c] for c in hidden if json.dumps(state.game.card_names[c], ensure_ascii=False) in text]


def expected_returns(state) -> list[float]:
    """Scores recomputed from the pockets: point values (base) or card counts (strategy, kids)."""
    game = state.game
    if game.mode == "base":
        return [float(sum(game.point_value[c] for c in pocket)) for pocket in state.pockets]
    return [float(len(pocket)) for pocket in state.pockets]


@pytest.mark.parametrize("mode,players", CASES)
def test_random_games_keep_every_invariant(mode, players):
    game = me(mode=mode, players=players)
    low, high = game.score_range()
    rng = random.Random(f"{mode}-{players}")
    for _ in range(GAMES_PER_CASE):
        state = game.new_state()
        steps = 0
        while True:
            assert state.check_invariants() == []  # every card in exactly one place
            scores = state.returns()
            assert scores == expected_returns(state)  # scores add up
            assert all(low <= x <= high for x in scores)
            if state.current == TERMINAL:
                break
            if state.current == CHANCE:
                outcomes = state.chance_outcomes()
                assert outcomes and math.isclose(sum(p for _, p in outcomes), 1.0)
                action = state.sample_chance(rng.random())
                assert action in dict(outcomes)
            else:
                seat = state.current
                assert hidden_cards_shown(state, seat) == []  # a seat sees only what it may see
                legal = state.legal_actions()
                assert legal and legal == sorted(legal)  # never stuck before the end
                assert all(state.legal_actions(s) == [] for s in range(players) if s != seat)
                action = rng.choice(legal)
            state.apply(action)
            steps += 1
            assert steps <= game.max_length()
        assert all(state.legal_actions(s) == [] for s in range(players)) and state.legal_actions() == []
        assert state.winners() and len(state.history) == steps


@pytest.mark.parametrize("mode,players", CASES)
def test_clone_and_replay_reproduce_the_same_state(mode, players):
    game = me(mode=mode, players=players)
    rng = random.Random(players)
    state = game.new_state()
    clone = None
    while state.current != TERMINAL:
        if clone is None and len(state.history) == 20:
            clone = state.clone()
            assert clone.to_dict() == state.to_dict()
        legal = state.chance_outcomes() if state.current == CHANCE else [(a, 1) for a in state.legal_actions()]
        state.apply(rng.choice(legal)[0])
    for seat, action in state.history[20:]:
        clone.apply(action, seat)
    fresh = game.new_state()
    for seat, action in state.history:
        fresh.apply(action, seat)
    assert clone.to_dict() == fresh.to_dict() == state.to_dict()
    assert clone.returns() == fresh.returns() == state.returns()


@pytest.mark.parametrize("mode,players", CASES)
def test_fast_path_and_validated_replay_agree(mode, players):
    # Simulated games (trusted fast path, greedy and random bots) replay event by event through the
    # validating path to the same scores.
    game = me(mode=mode, players=players)
    bots = [make_bot(game.info.id, "greedy" if s % 2 == 0 else "random") for s in range(players)]
    for index in range(3):
        state = play_game(game, bots, game_rng(99, index))[0]
        result = replay(record(game, state.history, seed=99), content=content())
        assert result.ok and result.finished, result.error
        assert result.state.returns() == state.returns()
        assert result.state.to_dict() == state.to_dict()
