"""Mission Emission kids game: one test per rule of the rulebook's "KIDS GAME" section
(Mission Emission rulebook, Nightingame), named after the rule and citing its paragraph.

Numbers used (states.yaml): Forest Mizoram 90, Goa 60, Karnataka 19, West Bengal 19, Bihar 7;
Smoke Mizoram 29, Goa 55, Bihar 165.
"""
from __future__ import annotations

import random

import pytest

from deckpress.rules.core.errors import IllegalAction, ParameterError, Reason
from deckpress.rules.core.game import CHANCE, TERMINAL
from tests.rules.helpers import deal, do, draw, me, names


def kids_game(*hands: str, **params):
    game = me(mode="kids", players=len(hands), **params)
    state = game.new_state()
    deal(state, *([h] for h in hands))
    return game, state


def test_kids_no_point_cards_and_one_card_each():
    # "Ready?": point cards are removed; 1 state card to each player.
    game, state = kids_game("Mizoram", "Goa", "Bihar")
    assert game.params["hand_size"] == 1 and [len(h) for h in state.hands] == [1, 1, 1]
    assert len(state.deck) == 33 and all(c < 36 for c in state.deck)
    with pytest.raises(ParameterError, match="hand_size must be 1"):
        me(mode="kids", hand_size=3)


def test_kids_best_number_takes_all_shown_cards():
    # "Let's Go!": everyone shows their card; the best number of the chosen mission gets all cards.
    game, state = kids_game("Mizoram", "Goa", "Bihar")
    do(state, {"seat": 0, "mission": "Forest"})
    assert sorted(names(game, state.pockets[0])) == ["Bihar", "Goa", "Mizoram"]
    assert state.hands == [[], [], []]


def test_kids_highest_number_wins_every_mission_by_default():
    # "whoever has the highest number of that Mission gets all the players' cards"
    # (rulebook, kids game), Smoke included: Delhi 217 beats Mizoram 29 and Goa 55.
    game, state = kids_game("Delhi", "Mizoram", "Goa")
    assert game.params["kids_winner"] == "highest"
    do(state, {"seat": 0, "mission": "Smoke"})
    assert sorted(names(game, state.pockets[0])) == ["Delhi", "Goa", "Mizoram"]


def test_kids_better_number_variant():
    # kids_winner=better: the bad missions (Smoke, Crowd, Garbage: rulebook "Game story" and fun
    # facts) are won by the lowest number, as a variant.
    game, state = kids_game("Mizoram", "Goa", "Bihar", kids_winner="better")
    do(state, {"seat": 0, "mission": "Smoke"})
    assert len(state.pockets[0]) == 3  # Mizoram, Smoke 29


def test_kids_everyone_draws_and_the_next_seat_chooses():
    # "What's next?": all players pick up 1 card; the next player clockwise chooses the mission.
    game, state = kids_game("Mizoram", "Goa", "Bihar")
    do(state, {"seat": 0, "mission": "Forest"})
    assert state.current == CHANCE
    draw(state, "Assam", "Kerala", "Punjab")
    assert state.current == 1 and [len(h) for h in state.hands] == [1, 1, 1]


def test_kids_same_mission_may_be_chosen_again_and_choosing_is_the_only_decision():
    # Directives: "You cannot pass your turn"; "The Mission chosen in each round can be same or
    # different from the previous round".
    game, state = kids_game("Mizoram", "Goa", "Bihar")
    do(state, {"seat": 0, "mission": "Forest"})
    draw(state, "Assam", "Kerala", "Punjab")
    assert state.legal_actions() == [100 + m for m in range(6)]
    with pytest.raises(IllegalAction) as caught:
        do(state, {"seat": 1, "play": "Kerala"})
    assert caught.value.reason == Reason.MALFORMED_EVENT
    do(state, {"seat": 1, "mission": "Forest"})


def test_kids_tie_cards_go_to_the_bottom_of_the_draw_deck():
    # Directive: "If there is a tie, no one gets the cards and they go to the bottom of the Draw
    # deck" (Karnataka and West Bengal both have Forest 19); with kids_end=all-cards they are drawn
    # after every other card (the default ends the game first: see below).
    game, state = kids_game("Karnataka", "West Bengal", "Bihar", kids_end="all-cards")
    do(state, {"seat": 0, "mission": "Forest"})
    assert state.pockets == [[], [], []]
    assert names(game, state.bottom) == ["Karnataka", "West Bengal", "Bihar"]
    rng = random.Random(2)
    while state.deck or state.current != CHANCE:
        assert state.current != TERMINAL
        if state.current == CHANCE:
            state.apply(state.sample_chance(rng.random()))
        else:
            state.apply(state.legal_actions()[3])  # Smoke: no tie among these cards
    # the table put them under in an order nobody records: any of them may be drawn first
    # (the rulebook: "tied cards going under the deck in any order")
    tied = sorted(game.card(n) for n in ("Karnataka", "West Bengal", "Bihar"))
    assert state.chance_outcomes() == [(c, pytest.approx(1 / 3)) for c in tied]
    pocketed = next(c for pocket in state.pockets for c in pocket)
    with pytest.raises(IllegalAction) as caught:
        state.apply(pocketed)
    assert caught.value.reason == Reason.IMPOSSIBLE_OUTCOME
    assert "the next cards are those a tie put under the deck: " in caught.value.message
    state.apply(game.card("Bihar"))
    assert names(game, state.bottom) == ["Karnataka", "West Bengal"]


def test_kids_game_ends_when_the_deck_cannot_refill():
    # Directive: "If the Draw Deck is finished, the game ends": it ends when the cards never drawn
    # cannot give every seat a card; never while they still can.
    game = me(mode="kids", players=4)
    rng = random.Random(4)
    for _ in range(100):
        state = game.new_state()
        while state.current != TERMINAL:
            if state.current == CHANCE:
                state.apply(state.sample_chance(rng.random()))
            else:
                state.apply(rng.choice(state.legal_actions()))
        assert len(state.deck) < 4
        assert state.check_invariants() == []


def test_kids_most_cards_wins():
    # "Mission Accomplished": the winner has the most cards in their pocket.
    game, state = kids_game("Mizoram", "Goa")
    do(state, {"seat": 0, "mission": "Forest"})
    assert state.returns() == [2, 0]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_kids_game_ends_by_its_rules_at_every_player_count(players):
    # 95 of 10,000 five-player games with greedy bots were once cut off (tied cards came
    # back under the deck, and choosers kept picking the tying mission).  With the deck finished
    # once its never-drawn cards cannot serve every seat, no game reaches the move bound (10,000
    # greedy games per count were checked by hand; this runs 300).
    from deckpress.rules.core.simulate import SimulationSpec, simulate

    spec = SimulationSpec("mission-emission", dict(me(mode="kids", players=players).params), ("greedy",) * players, 300, seed=5)
    tally = simulate(spec).tally
    assert tally.cut_off == 0 and tally.games == 300


def test_tied_cards_under_the_deck_are_not_drawn_again_by_default():
    # The deck is finished when its never-drawn cards cannot give every seat a card, even with
    # tied cards waiting under it; kids_end=all-cards draws them again.
    for end, over in (("deck", True), ("all-cards", False)):
        game = me(mode="kids", players=3, kids_end=end)
        state = game.new_state()
        deal(state, ["Delhi"], ["Goa"], ["Bihar"])
        state.deck = state.deck[:2]  # two cards never drawn: not enough for three seats
        state.bottom = [c for c in range(game.n_cards) if c not in state.deck][:9]
        do(state, {"seat": 0, "mission": "Forest"})
        assert (state.current == TERMINAL) is over, end
