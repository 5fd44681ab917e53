"""Maybe Missions: ``MaybeMissionsView.sample_state``, the determinisation a search bot (such as
ismcts) samples from a seat's view.

What a seat sees (``MaybeMissionsView.to_dict``): its own hand, face-down votes, secret identity
and the votes it peeked at; every hand's size and who has submitted a vote; everything face up
(market, mission, Master cards and the known top of the Master deck, collections and their
sides, shops, public identities, the table, announced numbers, hands shown at a round's end).
Also public, though the view does not list them: the discard piles (every card on them was seen
going there) and how many cards each deck holds.  What it does not see: the other hands and the
votes they have face down or set aside to pass, the undealt vote deck, the other seats' secret
identities and the votes they peeked at, the order of every deck, and what the others submitted
in a simultaneous step still going on (dropped: they choose again).  Secret Identities adds the
secret identities; Gadget Shopping the peeks, swaps and draws of votes; the base game's Master
cards pass votes, show hands and announce numbers; the reduce randomness variant with
``redraw_from: discards`` makes the discarded votes a face-down deck once drawn from.
"""
from __future__ import annotations

import random

import pytest

from deckpress.generator.content import load_game
from deckpress.rules.core.bots import make_bot
from deckpress.rules.core.game import CHANCE, SIMULTANEOUS, TERMINAL
from deckpress.rules.core.simulate import game_rng, play_game
from deckpress.rules.maybe_missions import MaybeMissionsGame
from deckpress.rules.maybe_missions.cards import NO, YES
from deckpress.rules.maybe_missions.view import discards_hidden
from tests.rules.helpers import play_out, random_step

_CONTENT = {}
_WALKS = {}

#: (ruleset, players, parameters): every ruleset the brief names, and the parameters that change
#: what is hidden (the discards drawn from, votes drawn from the box, no undealt votes, hands of two).
CONFIGS = {
    "base": ("base", 3, {}),
    "play-masters": ("play-masters", 4, {}),
    "identities": ("identities", 5, {}),
    "gadgets": ("gadgets", 4, {}),
    "all, redraw from discards": ("all", 6, {"reduce_randomness": True}),
    "gadgets, redraw from box": ("gadgets", 3, {"reduce_randomness": True, "redraw_from": "box"}),
    "all, lowest votes": ("all", 4, {"vote_numbers": "lowest"}),
    "base, one vote of each type": ("base", 3, {"votes": 1}),
}


def mm(config: str) -> MaybeMissionsGame:
    if "mm" not in _CONTENT:
        _CONTENT["mm"] = load_game("maybe-missions")
    ruleset, players, params = CONFIGS[config]
    return MaybeMissionsGame.create(_CONTENT["mm"], ruleset, dict(params, players=players))




def walk(config: str, seed: int) -> list:
    """Every state (a clone) of one game of random legal play, from the new state to the end."""
    key = (config, seed)
    if key not in _WALKS:
        state = mm(config).new_state()
        rng = random.Random(seed)
        states = [state.clone()]
        while state.current != TERMINAL:
            random_step(state, rng)
            states.append(state.clone())
        _WALKS[key] = states
    return _WALKS[key]


def kinds(state) -> set[str]:
    """The kinds of hidden information a state has (for the tests' coverage checks)."""
    game = state.game
    out = set()
    dealt = game.hand_size * game.players
    if state.round_no == 0:
        out.add("dealing" if sum(map(len, state.hands)) < dealt else "setup")
    elif len(state.box) < len(game.votes_in_play) - dealt:
        out.add("drawn from the vote deck")
    if state.current == TERMINAL:
        out.add("over")
    if state.current == SIMULTANEOUS and state._pending:
        out.add("submitted")
    for name, found in (("face down", any(state.face_down)), ("passing", any(state.passing)), ("shown", state.shown),
                        ("announced", state.announced), ("peeked", any(state.peeks)), ("hidden discards", discards_hidden(state)),
                        ("secret identities", game.identities and max(state.secret_id) >= 0)):
        if found:
            out.add(name)
    if state.chance is not None and state.chance[0] in ("peek", "take"):
        out.add(f"{state.chance[0]} under way")
    return out


RARE = {"submitted", "face down", "passing", "shown", "announced", "peek under way", "take under way", "dealing"}


def states_of(config: str, seeds=(1, 2), every: int = 8) -> list:
    """A spread of states: every ``every``-th state of a few random games, the last, and each
    state whose rarer kinds of hidden information differ from the state before's."""
    out = []
    for seed in seeds:
        last: set[str] = set()
        for i, state in enumerate(walk(config, seed)):
            rare = kinds(state) & RARE
            if i % every == 0 or (rare and rare != last) or state.current == TERMINAL:
                out.append(state)
            last = rare
    return out


def seen(live, seat: int) -> dict:
    """What ``seat`` sees of ``live`` as a sample of it must show it: the other seats'
    submissions of a simultaneous step under way are dropped (they choose again)."""
    state = live.clone()
    state._pending = {s: a for s, a in live._pending.items() if s == seat}
    return state.view(seat).to_dict()


def public(state, seat: int) -> dict:
    """The state's ``to_dict`` without what ``seat`` cannot see: the other hands, face-down and
    set-aside votes, secret identities and scores (a secret identity scores); ``due`` (it names
    the seats still to submit)."""
    out = state.to_dict()
    others = [s for s in range(state.game.players) if s != seat]
    for key in ("hands", "face down", "passing", "scores"):
        if key in out:
            out[key] = [v for s, v in enumerate(out[key]) if s not in others]
    if "identities" in out:
        out["identities"] = [ids["public"] if s in others else ids for s, ids in enumerate(out["identities"])]
    out.pop("due")
    return out


def hidden_places(state, seat: int) -> list[list[int]]:
    """The vote places ``seat`` cannot see: the other seats' hands, face-down and set-aside votes
    (and the discards, once a face-down deck)."""
    places = [zone for s in range(state.game.players) if s != seat
              for zone in (state.hands[s], state.face_down[s], state.passing[s])]
    return places + ([state.vote_discard] if discards_hidden(state) else [])


def type_counts(state, votes) -> list[int]:
    types = state.game.vote_type
    return [sum(types[v] == t for v in votes) for t in (NO, YES)]


def seat_votes(state, seat: int) -> list[int]:
    return state.hands[seat] + state.face_down[seat] + state.passing[seat]


def known(state, seat: int) -> dict[int, set[int]]:
    """The votes ``seat``'s view puts in other hands (announced, shown, peeked), still unseen."""
    unseen = {v for place in hidden_places(state, seat) for v in place} | set(state.box)
    out: dict[int, set[int]] = {}
    for s, v in state.announced.items():
        out.setdefault(s, set()).add(v)
    for source in (state.shown, state.peeks[seat]):
        for s, votes in source.items():
            out.setdefault(s, set()).update(votes)
    return {s: votes & unseen for s, votes in out.items() if s != seat and votes & unseen}


# -- 1. consistency -----------------------------------------------------------------------------------

@pytest.mark.parametrize("config", CONFIGS)
def test_a_sample_shows_each_seat_what_the_live_state_shows(config):
    rng = random.Random(11)
    found = set()
    for live in states_of(config):
        before = (live.to_dict(), list(live.history), [list(h) for h in live.hands], list(live.box), dict(live._pending))
        found |= kinds(live)
        game = live.game
        for seat in range(game.players):
            sample = live.view(seat).sample_state(rng)
            assert sample is not live and sample.hands is not live.hands
            assert sample.view(seat).to_dict() == seen(live, seat)
            assert sample.check_invariants() == []
            # everything public stays, beyond the view too: discards, counts, the agenda, the round's rules
            assert public(sample, seat) == public(live, seat)
            assert (sample.vote_discard if not discards_hidden(live) else None) == (live.vote_discard if not discards_hidden(live) else None)
            assert (sample.mission_discard, sample.master_discard, sample.shop_discard) == (live.mission_discard, live.master_discard, live.shop_discard)
            assert (sample.decision, sample.current, sample.need, sample.counts) == (live.decision, live.current, live.need, live.counts)
            # the hidden places hold the votes the seat cannot see, in the same numbers
            places, live_places = hidden_places(sample, seat), hidden_places(live, seat)
            assert [len(p) for p in places] == [len(p) for p in live_places] and len(sample.box) == len(live.box)
            assert sorted(sum(places, sample.box)) == sorted(sum(live_places, live.box))
            dealt = game.hand_size * game.players
            if live.round_no == 0:
                assert sample.deal_left == [game.votes_per_type * game.players - n for n in type_counts(sample, sum(sample.hands, []))]
            if live.round_no > 0 or sum(map(len, live.hands)) == dealt:
                if len(live.box) == len(game.votes_in_play) - dealt:  # nothing drawn from the vote deck: the types are known
                    assert type_counts(sample, sum(places, [])) == type_counts(live, sum(live_places, []))
            # decks: the same cards, the order dealt again; the known top of the Master deck stays
            for deck in ("mission_deck", "master_deck", "shop_deck", "public_deck"):
                assert sorted(getattr(sample, deck)) == sorted(getattr(live, deck))
            assert sample.master_top == live.master_top
            others = [s for s in range(game.players) if s != seat]
            assert sample.secret_id[seat] == live.secret_id[seat]
            assert sorted(sample.secret_deck + [sample.secret_id[s] for s in others]) == sorted(live.secret_deck + [live.secret_id[s] for s in others])
            assert [sample.secret_id[s] >= 0 for s in others] == [live.secret_id[s] >= 0 for s in others]
            # its own submission is kept, the others' are not; no history names the hidden cards
            assert sample._pending == {s: a for s, a in live._pending.items() if s == seat}
            assert sample.history == []
            # what the others peeked at: as many votes, of the hand they looked at
            assert sample.peeks[seat] == live.peeks[seat]
            for s in others:
                assert sample.peeks[s].keys() == live.peeks[s].keys()
                for target, votes in sample.peeks[s].items():
                    assert set(votes) <= set(sample.hands[target]) and len(votes) <= len(live.peeks[s][target])
            # what its view puts in another hand is there, when it is true of the live state
            where = known(live, seat)
            if all(votes <= set(seat_votes(live, s)) for s, votes in where.items()):
                for s, votes in where.items():
                    assert votes <= set(seat_votes(sample, s)), (s, votes)
        assert (live.to_dict(), live.history, live.hands, live.box, live._pending) == before
    assert {"dealing", "setup", "submitted", "over"} <= found


def test_every_kind_of_hidden_information_is_met():
    found = set()
    for config in CONFIGS:
        for live in states_of(config):
            found |= kinds(live)
    assert RARE | {"setup", "over", "hidden discards", "drawn from the vote deck", "secret identities", "peeked"} <= found


def test_states_reached_by_the_games_bots_sample_consistently():
    for config in ("base", "identities", "gadgets"):
        game = mm(config)
        bots = [make_bot(game.info.id, "greedy")] * game.players
        final = play_game(game, bots, game_rng(5, 0))[0]
        live = game.new_state()
        rng = random.Random(1)
        for done, (seat, action) in enumerate(final.history):
            if done % 13 == 0:
                for s in range(game.players):
                    sample = live.view(s).sample_state(rng)
                    assert sample.view(s).to_dict() == seen(live, s)
                    assert sample.check_invariants() == []
            live.apply(action, seat)
        assert live.to_dict() == final.to_dict()


def test_a_hand_shown_at_the_round_end_is_the_hand_in_every_sample():
    checked = 0
    for config in ("base", "play-masters", "identities", "gadgets"):
        for seed in (1, 2, 3):
            for live in walk(config, seed):
                shown = {s: v for s, v in live.shown.items() if sorted(live.hands[s]) == v and not live.face_down[s]}
                if not shown or live.t_num:
                    continue
                for seat in range(live.game.players):
                    sample = live.view(seat).sample_state(random.Random(checked))
                    for s, votes in shown.items():
                        assert sorted(sample.hands[s]) == votes
                        checked += s != seat
    assert checked > 20


def test_hands_as_dealt_are_never_of_one_type_and_a_deal_in_progress_keeps_5_and_5_per_player():
    game = mm("base, one vote of each type")  # hands of two: the rulebook deals again unless each holds a YES and a NO
    types = game.vote_type
    rng = random.Random(4)
    dealt = 0
    for seed in range(1, 6):
        for live in walk("base, one vote of each type", seed):
            if live.round_no == 0 and sum(map(len, live.hands)) == 2 * game.players:
                for seat in range(game.players):
                    for _ in range(10):
                        sample = live.view(seat).sample_state(rng)
                        assert all(sorted(types[v] for v in h) == [NO, YES] for h in sample.hands)
                        dealt += 1
    assert dealt > 100
    for config in ("base", "all, lowest votes"):
        game = mm(config)
        per_type = game.votes_per_type * game.players
        dealing = [s for s in walk(config, 1) if s.round_no == 0 and 0 < sum(map(len, s.hands)) < game.hand_size * game.players]
        for live in dealing[::7]:
            for seat in range(game.players):
                sample = live.view(seat).sample_state(rng)
                while sample.chance is not None and sample.chance[0] == "deal":
                    random_step(sample, rng)
                assert type_counts(sample, sum(sample.hands, [])) == [per_type, per_type]


# -- 2. no leak -----------------------------------------------------------------------------------------

def twin(live, seat: int):
    """``live`` with everything ``seat`` cannot see changed: the other seats' votes (hands, face
    down, set aside) dealt again in reverse order shifted by one, a vote of the undealt deck
    swapped with one of theirs of the same type, the vote deck reversed, the other secret
    identities moved along, every deck reversed, the others' submissions and peeks changed, the
    order of its own hand reversed and the history replaced."""
    out = live.clone()
    types = out.game.vote_type
    places = hidden_places(out, seat)
    votes = sorted((v for p in places for v in p), reverse=True)
    votes = votes[1:] + votes[:1]
    for place in places:
        place[:], votes = votes[:len(place)], votes[len(place):]
    out.box.reverse()
    for place in places:
        for i, v in enumerate(place):
            other = next((j for j, w in enumerate(out.box) if types[w] == types[v]), None)
            if other is not None:
                place[i], out.box[other] = out.box[other], v
                break
        else:
            continue
        break
    others = [s for s in range(out.game.players) if s != seat]
    ids = [out.secret_id[s] for s in others if out.secret_id[s] >= 0] + out.secret_deck
    ids = ids[1:] + ids[:1]
    for s in others:
        if out.secret_id[s] >= 0:
            out.secret_id[s] = ids.pop(0)
    out.secret_deck = ids
    for deck in (out.mission_deck, out.master_deck, out.shop_deck, out.public_deck):
        deck.reverse()
    for s in list(out._pending):
        if s != seat:
            out._pending[s] = max(out.hands[s])
    for s in others:
        for target in out.peeks[s]:
            out.peeks[s][target] = sorted(out.hands[target][-len(out.peeks[s][target]):]) if out.hands[target] else []
    out.hands[seat].reverse()
    out.history = [(CHANCE, 1)] * 9
    return out


@pytest.mark.parametrize("config", ["base", "identities", "gadgets", "all, redraw from discards", "all, lowest votes"])
def test_a_sample_depends_only_on_what_the_seat_sees(config):
    changed = 0
    for live in states_of(config, seeds=(3,)):
        for seat in range(live.game.players):
            other = twin(live, seat)
            assert other.view(seat).to_dict() == live.view(seat).to_dict()
            changed += (other.hands, other.box, other.secret_id) != (live.hands, live.box, live.secret_id)
            a = live.view(seat).sample_state(random.Random(7))
            b = other.view(seat).sample_state(random.Random(7))
            assert a.to_dict() == b.to_dict()
            # to_dict sorts the hands and counts the vote deck: the places' order and the rest must agree too
            assert (a.hands, a.face_down, a.passing, a.box, a.vote_discard, a.deal_left) == (b.hands, b.face_down, b.passing, b.box, b.vote_discard, b.deal_left)
            assert (a.secret_id, a.secret_deck, a.public_deck, a.mission_deck, a.master_deck, a.shop_deck) == \
                   (b.secret_id, b.secret_deck, b.public_deck, b.mission_deck, b.master_deck, b.shop_deck)
            assert (a.peeks, a.chance, a._pending, a.history) == (b.peeks, b.chance, b._pending, b.history)
    assert changed > 50


# -- 3. it varies ---------------------------------------------------------------------------------------

def test_samples_deal_the_unseen_votes_identities_and_decks_differently():
    states = walk("all, redraw from discards", 4)
    live = next(s for s in states if s.round_no == 3 and s.current == 0)
    rng = random.Random(3)
    places: dict[int, set] = {}
    hands, secrets, next_missions, next_masters = set(), set(), set(), set()
    for _ in range(50):
        sample = live.view(0).sample_state(rng)
        for s in range(1, sample.game.players):
            for v in sample.hands[s]:
                places.setdefault(v, set()).add(s)
        for v in sample.box:
            places.setdefault(v, set()).add("vote deck")
        hands.add(tuple(sorted(sample.hands[1])))
        secrets.add(tuple(sample.secret_id))
        next_missions.add(sample.mission_deck[0])
        next_masters.add(sample.master_deck[0])
        assert sorted(sample.hands[0]) == sorted(live.hands[0]) and sample.secret_id[0] == live.secret_id[0]
    assert any(len(where) > 1 for where in places.values())
    assert sum(len(where) > 2 for where in places.values()) > 10
    assert len(hands) > 40 and len(secrets) > 20 and len(next_missions) > 5 and len(next_masters) > 3


# -- 4. playable ----------------------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS)
def test_a_sample_plays_to_the_end(config):
    rng = random.Random(21)
    states = walk(config, 6)
    chosen = states[::max(1, len(states) // 6)] + [s for s in states if kinds(s) & RARE][::9]
    for live in chosen:
        before = live.to_dict()
        for seat in range(live.game.players):
            sample = live.view(seat).sample_state(rng)
            play_out(sample, rng)
            assert sample.current == TERMINAL and sample.check_invariants() == []
        assert live.to_dict() == before


def test_the_search_bot_plays_from_samples():
    for config in ("base", "all, redraw from discards"):
        game = mm(config)
        bots = [make_bot(game.info.id, "ismcts:4")] + [make_bot(game.info.id, "greedy")] * (game.players - 1)
        state, *_ = play_game(game, bots, game_rng(9, 0))
        assert state.current == TERMINAL and state.check_invariants() == []
