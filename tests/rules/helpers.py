"""Helpers for rules tests (imported as ``tests.rules.helpers``): Mission Emission games from the shipped content (loaded once), deals
of named cards, and moves written in the log form (so tests read like the rulebook)."""
from __future__ import annotations

from typing import Any

from deckpress.generator.content import load_game
from deckpress.rules.core.log import expand
from deckpress.rules.mission_emission import MissionEmissionGame

_CONTENT = {}


def content():
    """The shipped Mission Emission content, loaded once per test session."""
    if "me" not in _CONTENT:
        _CONTENT["me"] = load_game("mission-emission")
    return _CONTENT["me"]


def me(**params: Any) -> MissionEmissionGame:
    """A Mission Emission game with these parameters (``me(mode="kids", players=3)``)."""
    return MissionEmissionGame.create(content(), overrides=params)


def do(state, *events: dict) -> None:
    """Apply events in their log form through the validating path."""
    for event in events:
        for single in expand(event):
            seat, action = state.event_to_action(single)
            state.apply(action, seat)


def deal(state, *hands: list[str]) -> None:
    """Deal the named cards, seat 0's hand first."""
    do(state, *({"chance": "deal", "seat": s, "cards": hand} for s, hand in enumerate(hands)))


def draw(state, *cards: str) -> None:
    """The draw step of a round: each named card to the seat that is due to draw."""
    for card in cards:
        do(state, {**state.due_chance_event(), "card": card})


def names(game, cards) -> list[str]:
    """Card numbers to names."""
    return [game.card_names[c] for c in cards]


def random_step(state, rng) -> None:
    """One random legal action: a chance outcome, or any seat that may act now (so that states
    with some simultaneous choices made and others to come are reached)."""
    from deckpress.rules.core.game import CHANCE

    if state.current == CHANCE:
        state.apply_trusted(state.sample_chance(rng.random()), CHANCE)
        return
    seats = state.acting_seats()
    seat = seats[int(rng.random() * len(seats))]
    legal = state.legal_actions(seat)
    state.apply_trusted(legal[int(rng.random() * len(legal))], seat)


def play_out(state, rng, check_each_step: bool = False) -> None:
    """Random steps (:func:`random_step`) until the game ends or its move bound is reached;
    with ``check_each_step``, the state's invariants hold after every step."""
    from deckpress.rules.core.game import TERMINAL

    for _ in range(state.game.max_length()):
        if state.current == TERMINAL:
            return
        random_step(state, rng)
        if check_each_step:
            assert state.check_invariants() == []
