"""Geheime Mission: ``GeheimeMissionView.sample_state``, the determinisation a search bot (such as
ismcts) samples from a seat's view.

What a seat sees (``GeheimeMissionView.to_dict``): its own hand, both hand sizes, the pile's
size, the face-up fields (every agent played), who starts, carries and must answer, the
suitcases, the last back door, and at the back door whether the other seat has chosen (never
which door).  What it does not see: the other hand, the pile's agents and their order, the other
seat's secret door.  The one mode ("base") and every parameter hide the same things; the
parameters change where a game can be (finish-round plays on from an empty pile, centre-duel
sends a snatched suitcase back to the centre, hand_size changes the counts), so each is covered.
"""
from __future__ import annotations

import random

import pytest

from deckpress.generator.content import load_game
from deckpress.rules.core.bots import make_bot
from deckpress.rules.core.game import CHANCE, SIMULTANEOUS, TERMINAL
from deckpress.rules.core.simulate import game_rng, play_game
from deckpress.rules.geheime_mission import DOOR, GeheimeMissionGame
from tests.rules.helpers import play_out, random_step

_CONTENT = {}

#: Parameter sets that change which states a game passes through (none changes what is hidden).
MODES = (
    {},
    {"game_end": "finish-round"},
    {"after_snatch": "centre-duel", "next_round": "alternate"},
    {"hand_size": 3, "next_round": "carrier"},
)


def gm(**params) -> GeheimeMissionGame:
    if "gm" not in _CONTENT:
        _CONTENT["gm"] = load_game("geheime-mission")
    return GeheimeMissionGame.create(_CONTENT["gm"], overrides=params)




def walk(params: dict, seed: int) -> list:
    """Every state (a clone) of one game of random legal play, from the new state to the end."""
    state = gm(**params).new_state()
    rng = random.Random(seed)
    states = [state.clone()]
    while state.current != TERMINAL:
        random_step(state, rng)
        states.append(state.clone())
    return states


def states_of(params: dict, seeds=(1, 2)) -> list:
    """A spread of states: every third state of a few random games, plus every state at the back
    door or with an empty pile (the rarer ones)."""
    out = []
    for seed in seeds:
        for i, state in enumerate(walk(params, seed)):
            if i % 3 == 0 or state.current == SIMULTANEOUS or not state.deck:
                out.append(state)
    return out


def seen(live, seat: int) -> dict:
    """What ``seat`` sees of ``live``, as a sample of it must show it: the other seat's secret
    door, if chosen, is dropped from a sample (it chooses again)."""
    out = live.view(seat).to_dict()
    if "other seat has chosen" in out:
        out["other seat has chosen"] = False
    return out


def public(state, seat: int) -> dict:
    """The state's ``to_dict`` without the places ``seat`` cannot see, its own hand sorted."""
    out = state.to_dict()
    cards = dict(out["cards"])
    cards.pop(f"seat {1 - seat}'s hand", None)
    cards.pop("the pile", None)
    own = f"seat {seat}'s hand"
    if own in cards:
        cards[own] = sorted(cards[own])
    out["cards"] = cards
    out.pop("due")  # names the seats still to choose a door, which a dropped door changes
    return out


# -- 1. consistency ---------------------------------------------------------------------------------

@pytest.mark.parametrize("params", MODES, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()) or "base")
def test_a_sample_shows_each_seat_what_the_live_state_shows(params):
    kinds = set()
    rng = random.Random(11)
    for live in states_of(params):
        before = live.to_dict()
        history = list(live.history)
        for seat in (0, 1):
            view = live.view(seat)
            sample = view.sample_state(rng)
            assert sample is not live
            assert sample.view(seat).to_dict() == seen(live, seat)
            assert sample.check_invariants() == []
            # everything public is kept, beyond the view too (phase, lead, draw seat, fight counts)
            assert public(sample, seat) == public(live, seat)
            assert (sample.phase, sample.lead, sample.draw_seat, sample.current) == (live.phase, live.lead, live.draw_seat, live.current)
            assert (sample.fought, sample.won, sample.caught, sample.reveal) == (live.fought, live.won, live.caught, live.reveal)
            # the hidden places hold the agents this seat cannot see, with the counts it sees
            assert sorted(sample.deck + sample.hands[1 - seat]) == view.unseen
            assert len(sample.deck) == len(live.deck) and len(sample.hands[1 - seat]) == len(live.hands[1 - seat])
            # its own secret door is kept, the other seat's is not
            assert sample._pending == {s: a for s, a in live._pending.items() if s == seat}
            assert sample.history == []
            kinds.add("deal" if live.phase == "deal" else "draw" if live.current == CHANCE else
                      "one door chosen" if live._pending else "back door" if live.current == SIMULTANEOUS else
                      "over" if live.current == TERMINAL else "empty pile" if not live.deck else "play")
        assert live.to_dict() == before and live.history == history
    expected = {"deal", "draw", "one door chosen", "back door", "over", "play"}
    if params.get("game_end") == "finish-round":
        expected.add("empty pile")
    assert expected <= kinds


def test_states_reached_by_the_games_bots_sample_consistently():
    for params in MODES[:2]:
        game = gm(**params)
        bots = [make_bot(game.info.id, "greedy")] * 2
        for index in range(3):
            final = play_game(game, bots, game_rng(5, index))[0]
            # replay the bots' game to a few points part-way through
            live = game.new_state()
            rng = random.Random(index)
            for done, (seat, action) in enumerate(final.history):
                if done % 17 == 0:
                    for s in (0, 1):
                        sample = live.view(s).sample_state(rng)
                        assert sample.view(s).to_dict() == seen(live, s)
                        assert sample.check_invariants() == []
                live.apply(action, seat)
            assert live.to_dict() == final.to_dict()


# -- 2. no leak -------------------------------------------------------------------------------------

def twin(live, seat: int):
    """``live`` with everything ``seat`` cannot see changed: the other hand and the pile dealt
    again (the unseen agents in reverse order, then rotated by one), the order of its own hand
    reversed, the other seat's secret door moved, and the history replaced."""
    other = 1 - seat
    out = live.clone()
    pool = sorted(live.deck + live.hands[other], reverse=True)
    pool = pool[1:] + pool[:1]
    size = len(live.hands[other])
    out.hands[other], out.deck = pool[:size], pool[size:]
    out.hands[seat] = list(reversed(live.hands[seat]))
    if other in out._pending:
        out._pending[other] = DOOR + (out._pending[other] - DOOR + 1) % len(out.game.door_names)
    out.history = [(CHANCE, c) for c in range(7)]
    return out


@pytest.mark.parametrize("params", MODES[:2], ids=("base", "finish-round"))
def test_a_sample_depends_only_on_what_the_seat_sees(params):
    changed = 0
    for live in states_of(params, seeds=(3,)):
        for seat in (0, 1):
            other = twin(live, seat)
            assert other.view(seat).to_dict() == live.view(seat).to_dict()
            changed += (other.deck, other.hands) != (live.deck, live.hands)
            a = live.view(seat).sample_state(random.Random(7))
            b = other.view(seat).sample_state(random.Random(7))
            assert a.to_dict() == b.to_dict()
            # to_dict shows the pile sorted: its order, the hands' order and the doors must agree too
            assert (a.deck, a.hands, a._pending, a.history) == (b.deck, b.hands, b._pending, b.history)
    assert changed > 20


# -- 3. it varies -----------------------------------------------------------------------------------

def test_samples_deal_the_unseen_agents_to_different_places():
    states = walk({}, 4)
    live = next(s for s in states[40:] if s.current == 0 and len(s.deck) > 10)
    rng = random.Random(3)
    places: dict[int, set] = {}
    next_draws = set()
    hands = set()
    for _ in range(50):
        sample = live.view(0).sample_state(rng)
        for card in sample.hands[1]:
            places.setdefault(card, set()).add("hand")
        for card in sample.deck:
            places.setdefault(card, set()).add("pile")
        hands.add(tuple(sorted(sample.hands[1])))
        next_draws.add(sample.sample_chance(0.0))
        assert sorted(sample.hands[0]) == sorted(live.hands[0])
    assert any(len(where) > 1 for where in places.values())
    assert len(hands) > 40 and len(next_draws) > 10


# -- 4. playable ------------------------------------------------------------------------------------

@pytest.mark.parametrize("params", MODES, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()) or "base")
def test_a_sample_plays_to_the_end(params):
    rng = random.Random(21)
    states = walk(params, 6)
    chosen = states[::max(1, len(states) // 8)] + [s for s in states if s._pending][:2]
    for live in chosen:
        for seat in (0, 1):
            before = live.to_dict()
            sample = live.view(seat).sample_state(rng)
            play_out(sample, rng, check_each_step=True)
            assert sample.current == TERMINAL
            assert live.to_dict() == before


def test_the_search_bot_plays_from_samples():
    game = gm()
    state, *_ = play_game(game, [make_bot(game.info.id, "ismcts:30"), make_bot(game.info.id, "greedy")], game_rng(9, 0))
    assert state.current == TERMINAL and state.check_invariants() == []
