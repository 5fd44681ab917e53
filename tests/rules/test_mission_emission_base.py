"""Mission Emission base game: one test per rule of the rulebook's "BASE GAME" section
(Mission Emission rulebook, Nightingame), each named after the rule and citing its paragraph.

Card numbers used (content/mission-emission/states.yaml): Forest Mizoram 90, Lakshadweep 85,
Nagaland 79, Goa 60, Kerala 46, Assam 35, Karnataka 19, West Bengal 19, Telangana 19, Bihar 7;
Smoke Delhi 217, Punjab 175, Karnataka 75.
"""
from __future__ import annotations

import random

import pytest

from deckpress.rules.core.errors import IllegalAction, Reason
from deckpress.rules.core.game import CHANCE, TERMINAL
from deckpress.rules.mission_emission.common import RESHUFFLE
from tests.rules.helpers import content, deal, do, draw, me, names

HANDS = (["Mizoram", "Karnataka", "Delhi"], ["West Bengal", "Goa", "Punjab"], ["Telangana", "Kerala", "Bihar"])


def three_seat_game(**params):
    game = me(players=3, **params)
    state = game.new_state()
    deal(state, *HANDS)
    return game, state


def forest_rounds(state) -> None:
    """Three Forest rounds, all won by seat 0 (90 > 19 = 19; 85 > 46 > 35; 79 > 60 > 7)."""
    do(state, {"seat": 0, "mission": "Forest"}, {"seat": 0, "play": "Mizoram"}, {"seat": 1, "play": "West Bengal"}, {"seat": 2, "play": "Telangana"})
    draw(state, "Lakshadweep", "Assam", "Gujarat")
    do(state, {"seat": 1, "mission": "Forest"}, {"seat": 1, "play": "Assam"}, {"seat": 2, "play": "Kerala"}, {"seat": 0, "play": "Lakshadweep"})
    draw(state, "Haryana", "Odisha", "Nagaland")
    do(state, {"seat": 2, "mission": "Forest"}, {"seat": 2, "play": "Bihar"}, {"seat": 0, "play": "Nagaland"}, {"seat": 1, "play": "Goa"})


def illegal(state, event) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        do(state, event)
    return caught.value


def test_base_setup_six_ordered_piles_and_three_cards_each():
    # "Ready?": 6 face-up piles of 3; Forest/Energy/Water +3 on top, Smoke/Crowd/Garbage -1 on top;
    # 3 state cards to each player, the rest is the draw deck; the youngest (seat 0) starts.
    game, state = three_seat_game()
    view = state.view(0)
    assert view.top_points == [3, 3, 3, -1, -1, -1]
    assert view.to_dict()["piles"]["Forest"] == ["Forest +3", "Forest +5", "Forest +7"]
    assert view.hand_sizes == [3, 3, 3] and view.deck_size == 36 - 9
    assert state.current == 0 and state.legal_actions() == [100 + m for m in range(6)]


def test_base_highest_number_takes_top_point_card():
    # "Let's Go!": the highest number of the chosen mission gets 1 point card from that pile.
    game, state = three_seat_game()
    do(state, {"seat": 0, "mission": "Forest"}, {"seat": 0, "play": "Karnataka"}, {"seat": 1, "play": "Goa"}, {"seat": 2, "play": "Kerala"})
    assert names(game, state.pockets[1]) == ["Forest +3"]
    assert state.returns() == [0, 3, 0]
    assert state.view(2).top_points[0] == 5


def test_base_highest_smoke_takes_the_negative_point_card():
    # "Let's Go!" with the tips: Smoke, Crowd and Garbage cards are worth negative points, and the
    # highest number still takes them -- so low numbers are the safe play there.
    game, state = three_seat_game()
    do(state, {"seat": 0, "mission": "Smoke"}, {"seat": 0, "play": "Delhi"}, {"seat": 1, "play": "Punjab"}, {"seat": 2, "play": "Kerala"})
    assert names(game, state.pockets[0]) == ["Smoke -1"]
    assert state.returns() == [-1, 0, 0]


def test_base_cards_are_played_clockwise_from_the_active_seat():
    # "Let's Go!": the chooser plays first, then each player clockwise.
    game, state = three_seat_game()
    do(state, {"seat": 0, "mission": "Water"}, {"seat": 0, "play": "Delhi"})
    assert illegal(state, {"seat": 2, "play": "Bihar"}).reason == Reason.NOT_YOUR_TURN
    do(state, {"seat": 1, "play": "Punjab"})
    assert state.current == 2


def test_base_cannot_pass_or_change_a_played_card():
    # Directive: "You cannot pass your turn or change your card after it is played".
    game, state = three_seat_game()
    do(state, {"seat": 0, "mission": "Forest"}, {"seat": 0, "play": "Karnataka"})
    error = illegal(state, {"seat": 0, "play": "Mizoram"})
    assert error.reason == Reason.NOT_YOUR_TURN and "seat 1 to play a card for Forest" in error.message
    assert state.legal_actions(1) == sorted(game.card(n) for n in HANDS[1])  # no pass among them
    assert names(game, state.play_pile) == ["Karnataka"]


def test_base_everyone_draws_back_to_three_and_the_next_seat_chooses():
    # "What's Next?": all pick up 1 card to have 3 again; the next player clockwise chooses the
    # mission, irrespective of who won (seat 1 won this round, seat 1 is also next: check seat 2 too).
    game, state = three_seat_game()
    do(state, {"seat": 0, "mission": "Forest"}, {"seat": 0, "play": "Mizoram"}, {"seat": 1, "play": "Goa"}, {"seat": 2, "play": "Kerala"})
    assert state.current == CHANCE and state.due_chance_event() == {"chance": "draw", "seat": 0}
    draw(state, "Assam", "Gujarat", "Haryana")
    assert [len(h) for h in state.hands] == [3, 3, 3]
    assert state.current == 1 and state.legal_actions()[0] == 100
    do(state, {"seat": 1, "mission": "Energy"}, {"seat": 1, "play": "Gujarat"}, {"seat": 2, "play": "Haryana"}, {"seat": 0, "play": "Assam"})
    draw(state, "Odisha", "Sikkim", "Manipur")
    assert state.current == 2  # seat 1 won with Gujarat (Energy 464), seat 2 chooses next


def test_base_same_mission_may_be_chosen_again():
    # Directive: "The Mission chosen in each round can be same or different from the previous round".
    game, state = three_seat_game()
    do(state, {"seat": 0, "mission": "Forest"}, {"seat": 0, "play": "Mizoram"}, {"seat": 1, "play": "Goa"}, {"seat": 2, "play": "Kerala"})
    draw(state, "Assam", "Gujarat", "Haryana")
    do(state, {"seat": 1, "mission": "Forest"})
    assert state.view(1).mission == 0


def test_base_tie_gives_no_point_card():
    # Directive: "If there is a tie, no one gets a Point Card" (Karnataka, West Bengal and
    # Telangana all have Forest 19).
    game, state = three_seat_game()
    do(state, {"seat": 0, "mission": "Forest"}, {"seat": 0, "play": "Karnataka"}, {"seat": 1, "play": "West Bengal"}, {"seat": 2, "play": "Telangana"})
    assert state.pockets == [[], [], []] and state.returns() == [0, 0, 0]
    assert state.view(0).top_points[0] == 3


def test_base_tie_variant_first_played_wins():
    # Parameter tie=first-played (a variant, not the rulebook): the tied card played first wins.
    game, state = three_seat_game(tie="first-played")
    do(state, {"seat": 0, "mission": "Forest"}, {"seat": 0, "play": "Karnataka"}, {"seat": 1, "play": "West Bengal"}, {"seat": 2, "play": "Telangana"})
    assert names(game, state.pockets[0]) == ["Forest +3"]


def test_base_empty_draw_deck_reshuffles_the_play_pile():
    # Directive: "If the Draw Deck is finished, shuffle the Play Pile to form a new Draw Deck".
    game = me(players=6)
    state = game.new_state()
    rng = random.Random(3)
    while not (state.current == CHANCE and state.due_chance_event() == {"chance": "reshuffle"}):
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    pile = sorted(state.play_pile)
    assert len(pile) == 24 and not state.deck  # 36 - 18 in hands, then 4 rounds of 6 cards
    with pytest.raises(IllegalAction) as caught:
        state.apply(pile[0])
    assert caught.value.reason == Reason.WRONG_CHANCE_EVENT
    state.apply(RESHUFFLE)
    assert sorted(state.deck) == pile and state.play_pile == []
    assert state.check_invariants() == []


def test_base_finished_pile_cannot_be_chosen():
    # Directive: "If a Mission Pile is finished (all 3 Point Cards ... taken), then that Mission
    # cannot be chosen anymore".
    game, state = three_seat_game()
    forest_rounds(state)
    draw(state, "Sikkim", "Manipur", "Meghalaya")
    assert names(game, state.pockets[0]) == ["Forest +3", "Forest +5", "Forest +7"] and state.returns()[0] == 15
    assert 100 not in state.legal_actions()
    error = illegal(state, {"seat": 0, "mission": "Forest"})
    assert error.reason == Reason.PILE_CLOSED
    assert error.message == "Forest pile is finished: choose another mission"


def test_base_game_ends_when_the_set_number_of_piles_is_finished():
    # Directive: "When any 4 Mission Piles are finished, the game ends" -- with piles_to_end=1
    # the same rule ends the game at the first finished pile, before anyone draws.
    game, state = three_seat_game(piles_to_end=1)
    forest_rounds(state)
    assert state.current == TERMINAL and state.legal_actions() == []
    assert illegal(state, {"chance": "draw", "seat": 2, "card": "Sikkim"}).reason == Reason.GAME_OVER
    assert state.winners() == [0]


def test_base_any_four_finished_piles_end_the_game():
    # Directive: "When any 4 Mission Piles are finished, the game ends": in 300 random games, every
    # game ends with exactly 4 finished piles, never sooner.
    game = me(players=4)
    rng = random.Random(11)
    for _ in range(300):
        state = game.new_state()
        while state.current != TERMINAL:
            assert sum(1 for pile in state.piles if not pile) < 4
            actions = state.legal_actions()
            state.apply_trusted(actions[rng.randrange(len(actions))], state.current)
        assert sum(1 for pile in state.piles if not pile) == 4


def test_base_highest_total_wins():
    # "Mission Accomplished!": the winner has the highest total of points in their pocket.
    game, state = three_seat_game(piles_to_end=1)
    do(state, {"seat": 0, "mission": "Smoke"}, {"seat": 0, "play": "Karnataka"}, {"seat": 1, "play": "Punjab"}, {"seat": 2, "play": "Kerala"})
    draw(state, "Lakshadweep", "Assam", "Nagaland")
    do(state, {"seat": 1, "mission": "Forest"}, {"seat": 1, "play": "West Bengal"}, {"seat": 2, "play": "Nagaland"}, {"seat": 0, "play": "Mizoram"})
    draw(state, "Gujarat", "Haryana", "Odisha")
    do(state, {"seat": 2, "mission": "Forest"}, {"seat": 2, "play": "Bihar"}, {"seat": 0, "play": "Lakshadweep"}, {"seat": 1, "play": "Goa"})
    draw(state, "Sikkim", "Manipur", "Meghalaya")
    do(state, {"seat": 0, "mission": "Forest"}, {"seat": 0, "play": "Delhi"}, {"seat": 1, "play": "Assam"}, {"seat": 2, "play": "Sikkim"})
    assert state.returns() == [8, -1, 7] and state.winners() == [0]


def test_base_wrong_phase_and_not_in_hand_are_refused():
    game, state = three_seat_game()
    assert illegal(state, {"seat": 0, "play": "Mizoram"}).reason == Reason.WRONG_PHASE
    do(state, {"seat": 0, "mission": "Forest"})
    error = illegal(state, {"seat": 0, "play": "Goa"})
    assert error.reason == Reason.NOT_IN_HAND and error.message == "Goa is not in seat 0's hand"
    assert illegal(state, {"seat": 0, "mission": "Water"}).reason == Reason.WRONG_PHASE


def test_base_point_values_come_from_the_content(game_copy):
    # The engine reads point-cards.yaml: a changed value changes the game as well as the card.
    from deckpress.generator.content import load_game
    from deckpress.rules.mission_emission import MissionEmissionGame
    from tests.conftest import edit

    folder = game_copy("mission-emission")
    edit(folder / "point-cards.yaml", "{id: forest-top, mission: forest, points: 3,", "{id: forest-top, mission: forest, points: 4,")
    edit(folder / "states.yaml", "forest:  {value: 60,", "forest:  {value: 10,")  # Goa
    game = MissionEmissionGame.create(load_game(folder), overrides={"players": 3})
    assert game.params["points"]["forest"] == [4, 5, 7]
    state = game.new_state()
    deal(state, *HANDS)
    do(state, {"seat": 0, "mission": "Forest"}, {"seat": 0, "play": "Karnataka"}, {"seat": 1, "play": "Goa"}, {"seat": 2, "play": "Kerala"})
    assert state.returns() == [0, 0, 4]  # Goa now has Forest 10: Kerala (46) wins the +4
    assert content()["point-cards"]["point_cards"][0]["points"] == 3  # the shipped content is untouched


def test_reshuffle_timing_is_a_parameter_a_log_records():
    # "If the Draw Deck is finished, shuffle the Play Pile" (base game directives): a table
    # that reshuffles as soon as the last card is taken (reshuffle: when-empty) replays; the same
    # log under the engine's other reading (when-needed) is refused at that reshuffle.
    from deckpress.rules.core.bots import make_bot
    from deckpress.rules.core.log import record
    from deckpress.rules.core.replay import replay
    from deckpress.rules.core.simulate import game_rng, play_game

    game = me(players=4, reshuffle="when-empty")
    state = play_game(game, [make_bot(game.info.id, "random")] * 4, game_rng(3, 0))[0]
    log = record(game, state.history)
    events = log.events
    first = next(i for i, e in enumerate(events) if e.get("chance") == "reshuffle")
    assert events[first - 1].get("chance") == "draw"  # right after the draw that took the last card
    assert replay(log).ok
    log.params = {**log.params, "reshuffle": "when-needed"}
    refused = replay(log)
    assert not refused.ok and refused.error.index == first + 1 and "no chance event is due now" in refused.error.message
