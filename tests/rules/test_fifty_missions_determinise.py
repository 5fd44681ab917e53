"""50 Missions: ``FiftyMissionsView.sample_state``, the determinisation a search bot (such as
ismcts) samples from a seat's view.

What a seat sees (``FiftyMissionsView.to_dict``): its own hand, the face-up cards, the missions on
display and accomplished, the medal, every hand's size, the sizes of the symbol deck and the
mission deck; with ``look_under`` (beginners) the covered cards; with ``communication`` (on but
for super pros) each other seat's table talk, the slots it can cover.  What it does not see: the
other hands (but what the talk tells of them), the symbol deck's cards and order, the covered
cards without ``look_under``, the mission deck's order (its missions are those neither on display
nor accomplished).  Modes that change what is hidden, or what the seat knows of the other hands:
standard, beginners (look_under), super pros (no talk), crazy (no turn order: ANY steps), crazy
without talk and crazy with look_under; small and large hands (where the talk, or without it the
knowledge that the seat due can play, rules out many deals).  Medals placed early
(``medal_places``) reach the reshuffle past gold within a game, so states after it are covered
too.  Beyond the four checks every game's determinisation has (it shows the seat what the live state
shows, depends only on that, deals the hidden cards again and plays to the end): deals drawn
uniformly among those the seat's knowledge allows, and the complete search behind the draw (its
rare fallback) checked on its own.
"""
from __future__ import annotations

import random
from collections import Counter
from itertools import permutations
from math import factorial

import pytest

from deckpress.generator.content import load_game
from deckpress.rules.core.bots import make_bot
from deckpress.rules.core.game import ANY, CHANCE, TERMINAL
from deckpress.rules.core.simulate import game_rng
from deckpress.rules.fifty_missions import FiftyMissionsGame
from deckpress.rules.fifty_missions import state as fm_state

_CONTENT = {}

#: (ruleset, parameters): every mode that changes what a seat sees or knows of the other hands.
MODES = {
    "standard": ("standard", {"players": 3}),
    "beginners": ("beginners", {"players": 3}),
    "super-pros": ("super_pros", {"players": 3}),
    "crazy": ("crazy", {"players": 3}),
    "crazy-no-talk": ("crazy", {"players": 4, "communication": False}),
    "crazy-look-under": ("crazy", {"players": 2, "look_under": True, "hand_size": 5}),
    "standard-4-small-hands": ("standard", {"players": 4, "hand_size": 2}),
    "super-pros-2-large-hands": ("super_pros", {"players": 2, "hand_size": 7, "after_gold": "reshuffle-when-stuck"}),
    "beginners-3-small-hands": ("beginners", {"players": 3, "hand_size": 2}),
    # hands of one card without talk: the seat due (or, crazy, some seat) often has a single card that plays
    "super-pros-hand-of-1": ("super_pros", {"players": 3, "hand_size": 1}),
    "crazy-no-talk-hand-of-1": ("crazy", {"players": 2, "communication": False, "hand_size": 1}),
}
#: Medals after the 1st, 2nd and 3rd replacement mission: gold and its reshuffle come early.
EARLY_MEDALS = {"medal_places": [1, 2, 3]}


def fm(name: str, **extra) -> FiftyMissionsGame:
    if "fm" not in _CONTENT:
        _CONTENT["fm"] = load_game("fifty-missions")
    ruleset, params = MODES[name]
    return FiftyMissionsGame.create(_CONTENT["fm"], ruleset, {**params, **EARLY_MEDALS, **extra})


class OnlyRandom:
    """A generator that offers ``random()`` and nothing else: what sample_state may use."""

    def __init__(self, seed: int):
        self._rng = random.Random(seed)

    def random(self) -> float:
        return self._rng.random()


def kind_of(state) -> str:
    """The point a state is at, in words."""
    if state.current == TERMINAL:
        return "over"
    if state.current == CHANCE:
        return {"deal": "setup deal", "draw": "draw", "mission": "mission draw",
                "reshuffle": "reshuffle due"}.get(state.due_chance_event()["chance"], "other chance")
    return ("any seat" if state.current == ANY else "seat") + (" after the reshuffle" if state.reshuffled else "")


def snapshots(name: str, seed: int, every: int = 7) -> list:
    """States (clones) of one game played by the game's bots (greedy and random seats), from the
    end of the setup's face-up cards to the end: every ``every``-th one and the first of each kind."""
    game = fm(name)
    bots = [make_bot(game.info.id, "greedy" if s % 2 == 0 else "random") for s in range(game.players)]
    rng = game_rng(seed, 0)
    state = game.new_state()
    out, kinds, i = [], set(), 0
    while True:
        if all(state.piles):  # a view needs the face-up cards
            kind = kind_of(state)
            if i % every == 0 or kind not in kinds:
                out.append(state.clone())
                kinds.add(kind)
            i += 1
        cur = state.current
        if cur == TERMINAL:
            return out
        if cur == CHANCE:
            state.apply_trusted(state.sample_chance(rng.random()), CHANCE)
            continue
        seats = state.acting_seats()
        seat = seats[int(rng.random() * len(seats))]
        state.apply_trusted(bots[seat].act(state.view(seat), state._legal_actions(seat), rng), seat)


def unseen(state, seat: int) -> list[int]:
    """The symbol cards ``seat`` cannot see, sorted."""
    cards = [c for s, hand in enumerate(state.hands) if s != seat for c in hand] + list(state.deck)
    if not state.game.look_under:
        cards += [c for p in state.piles for c in p[:-1]]
    return sorted(cards)


def public(state) -> dict:
    """The state's ``to_dict`` without the places that may be hidden (hands, deck, covered) and
    without "due", which names the seats able to play where any seat may act."""
    out = state.to_dict()
    for key in ("hands", "deck", "covered", "due"):
        out.pop(key)
    return out


def fingerprint(state) -> tuple:
    """Everything of a sample, in order (not just sorted as in to_dict)."""
    return (state.to_dict(), [list(h) for h in state.hands], list(state.deck), [list(p) for p in state.piles],
            list(state.mission_deck), state.current, state.queue)


# -- 1. consistency ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name", MODES)
def test_a_sample_shows_each_seat_what_the_live_state_shows(name):
    kinds = set()
    rng = OnlyRandom(11)
    for live in snapshots(name, seed=1) + snapshots(name, seed=2, every=40):
        before, history = live.to_dict(), list(live.history)
        game = live.game
        kinds.add(kind_of(live))
        for seat in range(game.players):
            view = live.view(seat)
            sample = view.sample_state(rng)
            assert sample is not live and sample.hands is not live.hands and sample.piles is not live.piles
            assert sample.view(seat).to_dict() == view.to_dict()
            assert sample.check_invariants() == []
            # public beyond the view too: missions, turn, medals, chance events due, counts
            assert public(sample) == public(live) and sample.current == live.current
            assert (sample.queue, sample.turn, sample.drawn, sample.plays, sample.vacated) == (live.queue, live.turn, live.drawn, live.plays, live.vacated)
            assert sorted(sample.mission_deck) == sorted(live.mission_deck)
            # the hidden places hold the cards the seat cannot see, each keeping its size
            assert unseen(sample, seat) == unseen(live, seat)
            assert [len(h) for h in sample.hands] == [len(h) for h in live.hands]
            assert [len(p) for p in sample.piles] == [len(p) for p in live.piles]
            assert sample.hands[seat] == sorted(live.hands[seat])
            if game.look_under:
                assert [p[:-1] for p in sample.piles] == [p[:-1] for p in live.piles]
            # who may act is what the seat knows: its own turn, the talk, or that someone can play
            assert (seat in sample.acting_seats()) == (seat in live.acting_seats())
            if game.communication:
                assert sample.acting_seats() == live.acting_seats()
            elif live.current >= 0:
                assert sample.can_play(live.current)
            if live.current == ANY:
                assert sample.any_seats()
            assert sample.history == []
        assert live.to_dict() == before and live.history == history
    assert {"setup deal", "draw", "over", "any seat" if "crazy" in name else "seat"} <= kinds


@pytest.mark.parametrize("name", ["super-pros-hand-of-1", "crazy-no-talk-hand-of-1"])
def test_without_talk_the_seat_due_can_still_play(name):
    # A seat without table talk still knows that the seat due can play (else the game would be
    # over), and in the crazy variant, where it cannot play itself, that another seat can.
    rng = random.Random(13)
    checked = 0
    for seed in (1, 2, 3, 4):
        for live in snapshots(name, seed, every=1):
            for seat in range(live.game.players):
                if live.current == seat or live.current == ANY and live.can_play(seat) or live.current not in (ANY, 0, 1, 2):
                    continue
                checked += 1
                for _ in range(10):
                    sample = live.view(seat).sample_state(rng)
                    assert sample.check_invariants() == []
                    assert sample.any_seats() if live.current == ANY else sample.can_play(live.current)
    assert checked >= 10


@pytest.mark.parametrize("name", ["standard", "crazy", "super-pros-2-large-hands"])
def test_states_past_gold_sample_consistently(name):
    kinds = set()
    for seed in range(1, 30):
        states = [s for s in snapshots(name, seed, every=3) if s.medals == 3]
        for live in states:
            kinds.add(kind_of(live))
            for seat in range(live.game.players):
                sample = live.view(seat).sample_state(OnlyRandom(seed))
                assert sample.view(seat).to_dict() == live.view(seat).to_dict()
                assert sample.check_invariants() == []
                assert sample.reshuffled == live.reshuffled
        if "reshuffle due" in kinds and any(k.endswith("after the reshuffle") for k in kinds):
            break
    assert "reshuffle due" in kinds and any(k.endswith("after the reshuffle") for k in kinds)


# -- 2. no leak -------------------------------------------------------------------------------------

def disguise(live, seat: int):
    """A clone of ``live`` that differs only where ``seat`` cannot see: the deck in reverse order,
    the covered cards moved round the piles (heights kept) unless the seat looks under them, and
    other hands' cards traded for deck or covered cards that cover the same face-up cards (so
    the table talk stays true), or whole hands swapped when there is no talk."""
    other = live.clone()
    game = other.game
    other.deck.reverse()
    if not game.look_under:
        covered = [c for p in other.piles for c in p[:-1]]
        covered = covered[1:] + covered[:1]
        for p in other.piles:
            n = len(p) - 1
            p[:-1], covered = covered[:n], covered[n:]
    tops = [p[-1] for p in other.piles]

    def slots(card):
        return [game.covers[card][t] for t in tops]

    spare = other.deck if other.deck else ([] if game.look_under else next((p for p in other.piles if len(p) > 1), []))
    spare_places = [i for i in range(len(spare) - (0 if spare is other.deck else 1))]
    for s, hand in enumerate(other.hands):
        if s == seat:
            continue
        for h, card in enumerate(hand):
            j = next((i for i in spare_places if spare[i] != card and slots(spare[i]) == slots(card)), None)
            if j is not None:
                hand[h], spare[j] = spare[j], card
                break
    if not game.communication:
        free = [s for s in range(game.players) if s != seat and s != live.current]
        if len(free) >= 2 and len(other.hands[free[0]]) == len(other.hands[free[1]]):
            other.hands[free[0]], other.hands[free[1]] = other.hands[free[1]], other.hands[free[0]]
    if other.current == ANY and not other.any_seats():
        return live.clone()  # no talk and nobody left able to play: not a state the seat could be in
    return other


@pytest.mark.parametrize("name", MODES)
def test_a_sample_depends_only_on_what_the_seat_sees(name):
    changed = 0
    for live in snapshots(name, seed=3, every=5):
        for seat in range(live.game.players):
            other = disguise(live, seat)
            assert other.view(seat).to_dict() == live.view(seat).to_dict()
            changed += other.to_dict() != live.to_dict() or other.deck != live.deck
            one = live.view(seat).sample_state(random.Random(7))
            two = other.view(seat).sample_state(random.Random(7))
            assert fingerprint(one) == fingerprint(two)
    assert changed > 10


def test_the_same_rng_state_gives_the_same_sample_and_another_a_different_one():
    live = snapshots("standard", seed=4, every=10)[3]
    view = live.view(1)
    assert fingerprint(view.sample_state(random.Random(5))) == fingerprint(view.sample_state(random.Random(5)))
    assert fingerprint(view.sample_state(random.Random(5))) != fingerprint(view.sample_state(random.Random(6)))


# -- 3. it varies -----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", MODES)
def test_hidden_cards_land_in_different_places(name):
    live = next(s for seed in range(5, 20) for s in snapshots(name, seed)
                if s.current not in (CHANCE, TERMINAL) and s.plays >= 3 and s.deck)
    seat = 0
    view = live.view(seat)
    rng = random.Random(8)
    places: dict[int, set] = {}
    hands, orders, missions = set(), set(), set()
    for _ in range(50):
        sample = view.sample_state(rng)
        for s, hand in enumerate(sample.hands):
            for c in hand:
                places.setdefault(c, set()).add(f"hand {s}" if s != seat else "own")
            if s != seat:
                hands.add((s, tuple(sorted(hand))))
        for c in sample.deck:
            places.setdefault(c, set()).add("deck")
        for j, p in enumerate(sample.piles):
            for c in p[:-1]:
                places.setdefault(c, set()).add(f"covered {j}")
        orders.add(tuple(sample.deck))
        missions.add(tuple(sample.mission_deck))
    assert any(len(where) > 1 for where in places.values())
    assert len(hands) > live.game.players - 1  # some other hand took more than one value
    assert len(orders) > 1 and len(missions) > 1


# -- 4. playable ------------------------------------------------------------------------------------

def play_out(state, rng: random.Random) -> int:
    """Random legal play (chance included) to the end, bounded by the game's max_length."""
    limit = state.game.max_length()
    for steps in range(limit + 1):
        if state.current == TERMINAL:
            return steps
        if state.current == CHANCE:
            outcomes = state.chance_outcomes()
            state.apply(outcomes[int(rng.random() * len(outcomes))][0], CHANCE)
            continue
        seats = state.acting_seats()
        seat = seats[int(rng.random() * len(seats))]
        legal = state.legal_actions(seat)
        state.apply(legal[int(rng.random() * len(legal))], seat)
    raise AssertionError(f"no end within {limit} actions")


@pytest.mark.parametrize("name", MODES)
def test_a_sample_plays_to_the_end(name):
    rng = random.Random(9)
    states = snapshots(name, seed=6, every=15)
    for live in states[:: max(1, len(states) // 5)]:
        for seat in range(live.game.players):
            sample = live.view(seat).sample_state(rng)
            play_out(sample, rng)
            assert sample.is_terminal() and sample.check_invariants() == []
            assert len(sample.completed) >= len(live.completed)


def test_the_search_bot_plays_a_game_on_samples():
    game = fm("crazy", players=2)
    bots = [make_bot(game.info.id, "ismcts:4")] * 2
    rng = random.Random(10)
    state = game.new_state()
    while state.current != TERMINAL:
        if state.current == CHANCE:
            state.apply(state.sample_chance(rng.random()), CHANCE)
            continue
        seats = state.acting_seats()
        seat = seats[int(rng.random() * len(seats))]
        state.apply(bots[seat].act(state.view(seat), state.legal_actions(seat), rng), seat)
    assert state.check_invariants() == []


# -- the draw: uniform among the deals the seat's knowledge allows, and the search behind it ------

def deals(live, seat: int) -> Counter:
    """Every deal of the cards ``seat`` cannot see (as physical cards in order, each equally
    likely) that keeps its view, counted by the other hands it gives (sorted)."""
    others = [s for s in range(live.game.players) if s != seat]
    cards = unseen(live, seat)
    sizes = [len(live.hands[s]) for s in others]
    seen = live.view(seat).to_dict()
    trial = live.clone()
    out = Counter()
    for order in permutations(range(len(cards))):
        at = 0
        for s, n in zip(others, sizes):
            trial.hands[s] = [cards[i] for i in order[at:at + n]]
            at += n
        trial.deck = [cards[i] for i in order[at:]]
        if trial.view(seat).to_dict() == seen:
            out[tuple(tuple(sorted(trial.hands[s])) for s in others)] += 1
    return out


def tight_states(count: int) -> list:
    """Beginners' games at 3 players with hands of 2, near the end of the deck: 5 to 7 unseen
    cards (the two other hands and the deck), some deals of them ruled out by the talk; the first
    such state of each game, for ``count`` games."""
    out = []
    for seed in range(40):
        for live in snapshots("beginners-3-small-hands", seed, every=1):
            cards = len(unseen(live, 0))
            if live.current in (0, 1, 2) and live.deck and 5 <= cards <= 7:
                allowed = deals(live, 0)
                if len(allowed) >= 3 and sum(allowed.values()) < factorial(cards):
                    out.append((live, allowed))
                    break
        if len(out) == count:
            return out
    raise AssertionError("too few tight states found")


@pytest.mark.slow
def test_deals_are_drawn_uniformly_among_those_the_talk_allows():
    runs = 2500
    for live, allowed in tight_states(3):
        view = live.view(0)
        rng = random.Random(12)
        got = Counter(tuple(tuple(sorted(sample.hands[s])) for s in (1, 2)) for sample in (view.sample_state(rng) for _ in range(runs)))
        assert set(got) == set(allowed)  # every deal the talk allows, and none other
        total = sum(allowed.values())
        distance = sum(abs(got[deal] / runs - ways / total) for deal, ways in allowed.items()) / 2
        assert distance < 0.07, (live.view(0).to_dict(), got, allowed)


@pytest.mark.parametrize("name", MODES)
def test_the_complete_search_keeps_the_view_when_the_draw_gives_up(name, monkeypatch):
    monkeypatch.setattr(fm_state, "_sample_hands", lambda *args: None)
    for live in snapshots(name, seed=7, every=9):
        for seat in range(live.game.players):
            sample = live.view(seat).sample_state(OnlyRandom(seat))
            assert sample.view(seat).to_dict() == live.view(seat).to_dict()
            assert sample.check_invariants() == []
            assert (seat in sample.acting_seats()) == (seat in live.acting_seats())
            other = disguise(live, seat)
            assert fingerprint(other.view(seat).sample_state(random.Random(3))) == fingerprint(live.view(seat).sample_state(random.Random(3)))
