"""Mission Emission: ``View.sample_state`` (the determinisation a search bot such as ismcts
needs), in every mode and in the rulesets that change what is hidden.

What a seat cannot see, in all three games: the other seats' hands (only their sizes) and the draw
deck (its size; no one knows its order).  Everything else lies face-up: pockets, the base game's
play pile, point piles and set piles, the strategy game's piles and their point cards (the centre
card and the closing ones), the kids game's last round, its tied cards put under the deck and the
cards later drawn from them ("known cards").  States come from seeded games (greedy seat 0, random
others): after the deal, during deals and draws, mid-game, after a reshuffle of the play pile, while
a negative point card is being given (set collection), with cards known from under the deck (kids,
``kids_end: all-cards``), and at the end.
"""
from __future__ import annotations

import random
from functools import lru_cache

import pytest

from deckpress.rules.core.bots import make_bot
from deckpress.rules.core.game import CHANCE, TERMINAL
from deckpress.rules.core.simulate import game_rng
from deckpress.rules.mission_emission.common import RESHUFFLE
from tests.rules.helpers import me

SEED = 11
#: mode/ruleset -> (parameters, situations the collected states must include)
CASES = {
    "base": (dict(mode="base", players=4), {"reshuffled"}),
    "base-when-empty": (dict(mode="base", players=2, reshuffle="when-empty"), {"reshuffled"}),
    "set-collection": (dict(mode="base", players=3, set_collection=True), {"set piles", "giving"}),
    "strategy": (dict(mode="strategy", players=3), {"closed"}),
    "strategy-centre": (dict(mode="strategy", players=5, centre={"smoke": 3, "forest": 2}), {"closed"}),
    "kids": (dict(mode="kids", players=4), {"tied"}),
    "kids-all-cards": (dict(mode="kids", players=5, kids_end="all-cards"), {"tied", "known cards"}),
}
ALWAYS = {"start", "dealing", "dealt", "decision", "drawing", "end"}


def situations(state) -> set[str]:
    """What is special about ``state`` for sampling."""
    tags = set()
    if not state.history:
        tags.add("start")
    if state.current == TERMINAL:
        tags.add("end")
    elif state.current == CHANCE:
        tags.add("dealing" if state.draw_kind == "deal" else "drawing")
    else:
        tags.add("decision")
        if state.draw_kind == "deal" and state.rounds == 0:
            tags.add("dealt")
    if (state.current >= 0 or state.current == CHANCE and state.draw_i) and any(a == RESHUFFLE for s, a in state.history if s == CHANCE):
        tags.add("reshuffled")
    if any(getattr(state, "set_piles", ())):
        tags.add("set piles")
    if getattr(state, "to_give", None):
        tags.add("giving")
    if any(getattr(state, "closes", ())) and state.current >= 0:
        tags.add("closed")
    if state.bottom:
        tags.add("tied")
    if any(k and h for k, h in zip(getattr(state, "known", ()), state.hands)) and state.current >= 0:
        tags.add("known cards")
    return tags


def play(game, index: int) -> list:
    """A clone of every state of game ``index`` of seed :data:`SEED`."""
    rng = game_rng(SEED, index)
    bots = [make_bot(game.info.id, "greedy" if s == 0 else "random") for s in range(game.players)]
    state = game.new_state()
    states = [state.clone()]
    while state.current != TERMINAL and len(state.history) < game.max_length():
        if state.current == CHANCE:
            action = state.sample_chance(rng.random())
        else:
            action = bots[state.current].act(state.view(state.current), state.legal_actions(), rng)
        state.apply(action)
        states.append(state.clone())
    return states


@lru_cache(maxsize=None)
def collected(case: str) -> tuple:
    """A third of the states of the first game (drawn at random: a fixed stride could miss every
    decision), and from later games the first state of each situation not seen yet, until every
    situation the case needs is covered."""
    params, needed = CASES[case]
    game = me(**params)
    needed = needed | ALWAYS
    picked, seen = [], set()
    pick = random.Random(case)
    for index in range(40):
        for state in play(game, index):
            tags = situations(state)
            if (index == 0 and pick.random() < 1 / 3) or tags - seen:
                picked.append(state)
                seen |= tags
        if needed <= seen:
            return game, tuple(picked)
    raise AssertionError(f"{case}: no state of {sorted(needed - seen)} in 40 games")


def hidden_places(state, seat: int) -> list[list[int]]:
    """The places whose cards ``seat`` cannot see: the other seats' hands (in the kids game, not
    those drawn from the tied cards under the deck, known to all) and the draw deck."""
    known = getattr(state, "known", [False] * state.game.players)
    return [hand for s, hand in enumerate(state.hands) if s != seat and not known[s]] + [state.deck]


def public_zones(state, seat: int) -> dict[str, list[str]]:
    """Every place of ``state`` by name, with its cards, except those hidden from ``seat``."""
    known = getattr(state, "known", [False] * state.game.players)
    hidden = {f"seat {s}'s hand" for s in range(state.game.players) if s != seat and not known[s]} | {"the draw deck"}
    return {name: cards for name, cards in state.zones_dict().items() if name not in hidden}


def play_out(state, rng: random.Random) -> int:
    """Random legal actions (chance by its probabilities) to the end, bounded by the game's
    maximum length; the number of actions taken."""
    steps = 0
    while state.current != TERMINAL and steps < state.game.max_length():
        if state.current == CHANCE:
            state.apply(state.sample_chance(rng.random()))
        else:
            state.apply(rng.choice(state.legal_actions()))
        steps += 1
    return steps


@pytest.mark.parametrize("case", sorted(CASES))
def test_sample_shows_each_seat_what_the_live_state_shows(case):
    game, states = collected(case)
    rng = random.Random(3)
    for live in states:
        before, history = live.to_dict(), list(live.history)
        for seat in range(game.players):
            sample = live.view(seat).sample_state(rng)
            assert sample is not live and sample.hands is not live.hands and sample.deck is not live.deck
            assert sample.view(seat).to_dict() == live.view(seat).to_dict(), (case, live.due(), seat)
            assert sample.check_invariants() == []
            assert public_zones(sample, seat) == public_zones(live, seat)
            assert (sample.current, sample.legal_actions(seat)) == (live.current, live.legal_actions(seat))
            if live.current == CHANCE:  # as many possible cards (the deck's size, or the tie's group)
                assert len(sample.chance_outcomes()) == len(live.chance_outcomes())
            assert sample.history == [] and sample._pending == {}
        assert live.to_dict() == before and live.history == history


@pytest.mark.parametrize("case", sorted(CASES))
def test_sample_depends_only_on_what_the_seat_sees(case):
    game, states = collected(case)
    checked = 0
    for live in states:
        for seat in range(game.players):
            if sum(1 for place in hidden_places(live, seat) if place) < 2:
                continue  # nothing can move between hidden places (the end of a kids game, ...)
            twin = live.clone()
            places = hidden_places(twin, seat)
            pool = [c for place in places for c in place]
            moved = iter(pool[1:] + pool[:1])  # each hidden card one place on: another hand or the deck
            for place in places:
                place[:] = [next(moved) for _ in place]
            assert twin.to_dict() != live.to_dict() and twin.check_invariants() == []
            assert twin.view(seat).to_dict() == live.view(seat).to_dict()
            one, other = live.view(seat).sample_state(random.Random(7)), twin.view(seat).sample_state(random.Random(7))
            assert one.to_dict() == other.to_dict(), (case, live.due(), seat)
            assert (one.hands, one.deck, one.history) == (other.hands, other.deck, other.history)
            checked += 1
    assert checked >= 10


@pytest.mark.parametrize("case", sorted(CASES))
def test_samples_deal_the_hidden_cards_again(case):
    game, states = collected(case)
    live = next(s for s in states if s.current >= 0 and s.rounds >= 2 and len(s.deck) >= 2)
    seat = live.current
    rng = random.Random(5)
    places: dict[int, set[str]] = {}
    for _ in range(50):
        sample = live.view(seat).sample_state(rng)
        assert sample.hands[seat] == live.hands[seat]
        for s, hand in enumerate(sample.hands):
            for c in hand:
                places.setdefault(c, set()).add(f"seat {s}")
        for c in sample.deck:
            places.setdefault(c, set()).add("deck")
    hidden = {c for place in hidden_places(live, seat) for c in place}
    wandering = {c for c in hidden if len(places[c]) > 1}
    assert len(wandering) > len(hidden) // 2, f"{case}: only {len(wandering)} of {len(hidden)} hidden cards moved"
    assert all(places[c] == {f"seat {seat}"} for c in live.hands[seat])


def test_kids_cards_known_from_under_the_deck_stay_with_their_seats():
    game, states = collected("kids-all-cards")
    live = next(s for s in states if "known cards" in situations(s) and s.current >= 0)
    for seat in range(game.players):
        known = live.view(seat).known_cards
        assert known
        for index in range(10):
            sample = live.view(seat).sample_state(random.Random(index))
            assert sample.view(seat).known_cards == known
            assert (sample.bottom, sample.tied, sample.known) == (live.bottom, live.tied, live.known)


def test_strategy_point_cards_hidden_in_hands_and_deck_are_dealt_again():
    # The strategy deck holds the point cards not in the centre: hidden like state cards, while the
    # centre and closing point cards lie face-up.
    game, states = collected("strategy-centre")
    live = next(s for s in states if "closed" in situations(s) and s.current >= 0)
    seat = live.current
    points = {c for place in hidden_places(live, seat) for c in place if c >= game.n_states}
    assert points
    rng = random.Random(1)
    samples = [live.view(seat).sample_state(rng) for _ in range(50)]
    assert {c for s in samples for c in s.deck if c >= game.n_states} == points
    assert all(s.pile_points == live.pile_points and s.removed == live.removed for s in samples)


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_sample_plays_to_the_end(case):
    game, states = collected(case)
    rng = random.Random(9)
    for i, live in enumerate(states[::max(1, len(states) // 6)]):
        before = live.to_dict()
        seat = live.current if live.current >= 0 else i % game.players
        sample = live.view(seat).sample_state(rng)
        play_out(sample, rng)
        assert sample.current == TERMINAL, (case, live.due())
        assert sample.check_invariants() == []
        assert live.to_dict() == before
